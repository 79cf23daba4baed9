/* burst.c - many requests completed by one call, in a user region.
 *
 * usage: burst [N [ROUNDS [REGION]]]	(default 40 2 burst)
 * Each round, inside the region REGION (tr.h), rank r posts N MPI_Irecv
 * of 8 bytes from r-1 and N MPI_Isend to r+1 (mod np), tags 0..N-1,
 * and completes all 2N with one MPI_Waitall: a completion of more
 * records than a small recording buffer holds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tr.h"

int
main(int argc, char **argv)
{
	int rank, np, n, rounds, r, i, next, prev;
	const char *name;
	double *buf;
	MPI_Request *rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	n = argc > 1 ? atoi(argv[1]) : 40;
	rounds = argc > 2 ? atoi(argv[2]) : 2;
	name = argc > 3 ? argv[3] : "burst";
	if (n < 1)
		n = 1;
	buf = calloc(2 * (size_t)n, sizeof *buf);
	rq = calloc(2 * (size_t)n, sizeof *rq);
	if (!buf || !rq)
		MPI_Abort(MPI_COMM_WORLD, 1);
	next = (rank + 1) % np;
	prev = (rank + np - 1) % np;
	for (r = 0; r < rounds; r++) {
		tr_region_begin(name);
		for (i = 0; i < n; i++)
			MPI_Irecv(&buf[i], 1, MPI_DOUBLE, prev, i,
			    MPI_COMM_WORLD, &rq[i]);
		for (i = 0; i < n; i++)
			MPI_Isend(&buf[n + i], 1, MPI_DOUBLE, next, i,
			    MPI_COMM_WORLD, &rq[n + i]);
		MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
		tr_region_end(name);
	}
	if (rank == 0)
		printf("burst: np=%d n=%d rounds=%d\n", np, n, rounds);
	free(buf);
	free(rq);
	MPI_Finalize();
	return 0;
}
