/* cancel.c - receives posted ahead and cancelled at the end.
 *
 * usage: cancel [ROUNDS]	(default 3)
 * Every rank r > 0 sends ROUNDS results (tag 9) to rank 0. Rank 0 keeps
 * one receive posted per worker, from that worker, reposting it after
 * each MPI_Waitany, and one from any source with tag 10 that nothing
 * sends. When every result is in, the np receives still posted are
 * cancelled (MPI_Cancel, then MPI_Wait), as a server does at shut-down.
 * Each worker also tries to cancel one eager send already delivered,
 * which does not cancel. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, rounds, i, k, idx, cancelled = 0, flag;
	double *res, v = 0;
	MPI_Request *rq, s;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 3;
	res = calloc(np, sizeof *res);
	rq = calloc(np, sizeof *rq);
	if (rank == 0) {
		for (i = 1; i < np; i++)
			MPI_Irecv(&res[i], 1, MPI_DOUBLE, i, 9, MPI_COMM_WORLD,
			    &rq[i - 1]);
		MPI_Irecv(&res[0], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 10,
		    MPI_COMM_WORLD, &rq[np - 1]);
		for (k = 0; k < rounds * (np - 1); k++) {
			MPI_Waitany(np - 1, rq, &idx, MPI_STATUS_IGNORE);
			v += res[idx + 1];
			MPI_Irecv(&res[idx + 1], 1, MPI_DOUBLE, idx + 1, 9,
			    MPI_COMM_WORLD, &rq[idx]);
		}
		for (i = 0; i < np; i++) {
			MPI_Cancel(&rq[i]);
			MPI_Wait(&rq[i], &st);
			MPI_Test_cancelled(&st, &flag);
			cancelled += flag;
		}
		printf("cancel: %d results, sum %.0f, %d receives cancelled\n",
		    rounds * (np - 1), v, cancelled);
	} else {
		for (k = 0; k < rounds; k++) {
			res[0] = rank * 10 + k;
			MPI_Send(&res[0], 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
		}
		MPI_Isend(&res[0], 1, MPI_DOUBLE, rank, 11, MPI_COMM_WORLD, &s);
		MPI_Recv(&v, 1, MPI_DOUBLE, rank, 11, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		MPI_Cancel(&s);
		MPI_Wait(&s, &st);
		MPI_Test_cancelled(&st, &flag);
		if (flag) {
			fprintf(stderr, "cancel: a delivered send cancelled\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	free(res);
	free(rq);
	MPI_Finalize();
	return 0;
}
