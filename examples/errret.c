/* errret.c - calls that fail and return, for tr-record's tests.
 *
 * usage: errret [badreq | wait | many]
 * With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 0 sends to a rank that
 * does not exist (MPI_ERR_RANK), then 4 ints to rank 1, which receives
 * them into room for 1 (MPI_ERR_TRUNCATE), then 1 int that rank 1
 * receives whole. Other ranks take part in the barrier only. Exits 1,
 * saying which, if a call that should fail did not.
 * badreq: rank 0 sends 1 int to rank 1, whose MPI_Waitall of its
 * receive and of a handle that is no request fails (MPI_ERR_REQUEST)
 * and completes neither; an MPI_Wait then completes the receive.
 * wait: rank 0 sends 4 ints to rank 1, whose MPI_Irecv has room for 1
 * and whose MPI_Wait fails (MPI_ERR_TRUNCATE), then 1 int received whole.
 * many: rank 0 sends pairs of 1 int and 4 ints (and 4 ints alone, for
 * MPI_Waitany) to rank 1, whose receives of 1 int each complete them by
 * MPI_Waitall, MPI_Waitany, MPI_Waitsome and MPI_Testall: the second of
 * each pair is truncated, so the calls fail (MPI_ERR_IN_STATUS, with
 * MPI_SUCCESS and MPI_ERR_TRUNCATE in the statuses, or MPI_ERR_TRUNCATE
 * for MPI_Waitany); then 1 int received whole. */
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

/* Rank 1's side of "many": the statuses' errors checked as Open MPI
 * 4.1 and MPICH set them. */
static int
many(void)
{
	MPI_Request r[2];
	MPI_Status st[2];
	int b[2], bad = 0, i, n, idx[2], flag = 0, got, rc;

	MPI_Irecv(&b[0], 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(&b[1], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[1]);
	bad |= expect(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS, "waitall");
	bad |= expect(st[0].MPI_ERROR, MPI_SUCCESS, "waitall's first");
	bad |= expect(st[1].MPI_ERROR, MPI_ERR_TRUNCATE, "waitall's second");
	MPI_Irecv(&b[0], 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r[0]);
	r[1] = MPI_REQUEST_NULL;
	i = -1;
	bad |= expect(MPI_Waitany(2, r, &i, &st[0]), MPI_ERR_TRUNCATE,
	    "waitany");
	bad |= expect(i == 0 ? MPI_SUCCESS : MPI_ERR_OTHER, MPI_SUCCESS,
	    "waitany's index");
	MPI_Irecv(&b[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(&b[1], 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r[1]);
	for (got = 0; got < 2; got += n) {
		rc = MPI_Waitsome(2, r, &n, idx, st);
		if (rc != MPI_SUCCESS)
			bad |= expect(rc, MPI_ERR_IN_STATUS, "waitsome");
		if (n == MPI_UNDEFINED || n < 1) {
			bad |= expect(MPI_ERR_OTHER, MPI_SUCCESS, "waitsome's count");
			break;
		}
		for (i = 0; i < n; i++)
			if (rc != MPI_SUCCESS)
				bad |= expect(st[i].MPI_ERROR, idx[i] ?
				    MPI_ERR_TRUNCATE : MPI_SUCCESS,
				    "waitsome's status");
	}
	MPI_Irecv(&b[0], 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(&b[1], 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &r[1]);
	while ((rc = MPI_Testall(2, r, &flag, st)) == MPI_SUCCESS && !flag)
		;
	bad |= expect(rc, MPI_ERR_IN_STATUS, "testall");
	bad |= expect(st[0].MPI_ERROR, MPI_SUCCESS, "testall's first");
	bad |= expect(st[1].MPI_ERROR, MPI_ERR_TRUNCATE, "testall's second");
	return bad;
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
	} else if (argc > 1 && strcmp(argv[1], "wait") == 0) {
		MPI_Request r;

		if (np >= 2 && rank == 0) {
			MPI_Send(a, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
			MPI_Send(a, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
		} else if (np >= 2 && rank == 1) {
			MPI_Irecv(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
			bad |= expect(MPI_Wait(&r, MPI_STATUS_IGNORE),
			    MPI_ERR_TRUNCATE, "wait of 4 in 1");
			bad |= expect(MPI_Recv(&b, 1, MPI_INT, 0, 2,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS,
			    "receive of 1");
		}
	} else if (argc > 1 && strcmp(argv[1], "many") == 0) {
		if (np >= 2 && rank == 0) {
			/* ints sent with tags 4 to 10 */
			static const int n[] = { 1, 4, 4, 1, 4, 1, 4 };

			for (int k = 0; k < 7; k++)
				MPI_Send(a, n[k], MPI_INT, 1, 4 + k,
				    MPI_COMM_WORLD);
			MPI_Send(a, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
		} else if (np >= 2 && rank == 1) {
			bad |= many();
			bad |= expect(MPI_Recv(&b, 1, MPI_INT, 0, 11,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS,
			    "receive of 1");
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
