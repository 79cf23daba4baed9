/* callops.c - the ops one MPI call's records name. A call is written as
 * several records of one seq: a completion once per request, an
 * MPI_Startall once per request under each request's op
 * (MPI_Startall:Recv_init, then MPI_Startall:Send_init). Counting the
 * call once per record would count it n times; once per seq would lose
 * the ops after the first. */
#include "mpi.h"

int
tr_callops_first(struct tr_callops *c, int newcall, long op)
{
	size_t j;

	if (newcall)
		c->n = 0;
	for (j = 0; j < c->n; j++)
		if (c->op[j] == op)
			return 0;
	tr_grow(&c->op, &c->cap, c->n + 1, sizeof *c->op);
	c->op[c->n++] = op;
	return 1;
}
