/* addtime.c - tr_add_time outside MPI calls and inside one, for
 * tr-record's tests.
 *
 * usage: addtime
 * Adds 1 s (tr.h) before an MPI_Barrier, then makes an MPI_Comm_dup of
 * MPI_COMM_WORLD, whose attribute copy callback adds 2 s from inside
 * that call, then an MPI_Barrier on the copy. */
#include <mpi.h>

#include "tr.h"

static int
copy(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
	(void)c;
	(void)key;
	(void)extra;
	tr_add_time(2.0);
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int
main(int argc, char **argv)
{
	static int val;
	int key;
	MPI_Comm d;

	MPI_Init(&argc, &argv);
	MPI_Comm_create_keyval(copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
	tr_add_time(1.0);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Comm_dup(MPI_COMM_WORLD, &d);
	MPI_Barrier(d);
	MPI_Comm_free(&d);
	MPI_Finalize();
	return 0;
}
