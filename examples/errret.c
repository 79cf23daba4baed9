/* errret.c - calls that fail and return, for tr-record's tests.
 *
 * usage: errret [badreq]
 * With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 0 sends to a rank that
 * does not exist (MPI_ERR_RANK), then 4 ints to rank 1, which receives
 * them into room for 1 (MPI_ERR_TRUNCATE), then 1 int that rank 1
 * receives whole. Other ranks take part in the barrier only. Exits 1,
 * saying which, if a call that should fail did not.
 * badreq: rank 0 sends 1 int to rank 1, whose MPI_Waitall of its
 * receive and of a handle that is no request fails (MPI_ERR_REQUEST)
 * and completes neither; an MPI_Wait then completes the receive. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int
expect(int rc, int want, const char *what)
{
	int cls = MPI_SUCCESS;

	MPI_Error_class(rc, &cls);
	if (cls == want)
		return 0;
	fprintf(stderr, "errret: %s returned class %d, not %d\n", what, cls,
	    want);
	return 1;
}

int
main(int argc, char **argv)
{
	int rank, np, bad = 0, a[4] = { 1, 2, 3, 4 }, b = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (argc > 1 && strcmp(argv[1], "badreq") == 0) {
		MPI_Request r[2];
		MPI_Status st[2];

		if (np >= 2 && rank == 0)
			bad |= expect(MPI_Send(a, 1, MPI_INT, 1, 1,
			    MPI_COMM_WORLD), MPI_SUCCESS, "send of 1");
		else if (np >= 2 && rank == 1) {
			MPI_Irecv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[0]);
			/* a null pointer: no handle of Open MPI's or MPICH's */
			r[1] = (MPI_Request)0;
			bad |= expect(MPI_Waitall(2, r, st), MPI_ERR_REQUEST,
			    "waitall of no request");
			bad |= expect(MPI_Wait(&r[0], MPI_STATUS_IGNORE),
			    MPI_SUCCESS, "wait of the receive");
			if (b != 1)
				bad |= expect(MPI_ERR_OTHER, MPI_SUCCESS,
				    "the receive's int");
		}
	} else if (np >= 2 && rank == 0) {
		bad |= expect(MPI_Send(a, 1, MPI_INT, np + 5, 0,
		    MPI_COMM_WORLD), MPI_ERR_RANK, "send to no rank");
		bad |= expect(MPI_Send(a, 4, MPI_INT, 1, 1, MPI_COMM_WORLD),
		    MPI_SUCCESS, "send of 4");
		bad |= expect(MPI_Send(a, 1, MPI_INT, 1, 2, MPI_COMM_WORLD),
		    MPI_SUCCESS, "send of 1");
	} else if (np >= 2 && rank == 1) {
		bad |= expect(MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "receive of 4 in 1");
		bad |= expect(MPI_Recv(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE), MPI_SUCCESS, "receive of 1");
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return bad;
}
