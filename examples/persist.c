/* persist.c - persistent requests and a window: a ring exchange with
 * persistent requests (MPI_Send_init and MPI_Recv_init once, then ITERS
 * rounds of MPI_Startall and MPI_Waitall, with an MPI_Allreduce after
 * each), then one MPI_Put to the right neighbour in a window.
 *
 * usage: persist [ITERS]	(default 5) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, iters, it, sum, i;
	double sb[256], rb[256];
	MPI_Request rq[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 5;
	for (i = 0; i < 256; i++)
		sb[i] = rank + i;
	MPI_Recv_init(rb, 256, MPI_DOUBLE, (rank + np - 1) % np, 3,
	    MPI_COMM_WORLD, &rq[0]);
	MPI_Send_init(sb, 256, MPI_DOUBLE, (rank + 1) % np, 3,
	    MPI_COMM_WORLD, &rq[1]);
	for (it = 0; it < iters; it++) {
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	{
		double *base;
		MPI_Win win;

		MPI_Win_allocate(256 * sizeof(double), sizeof(double),
		    MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
		MPI_Win_fence(0, win);
		MPI_Put(sb, 256, MPI_DOUBLE, (rank + 1) % np, 0, 256,
		    MPI_DOUBLE, win);
		MPI_Win_fence(0, win);
		MPI_Win_free(&win);
	}
	if (rank == 0)
		printf("persist: np=%d iters=%d received %g\n", np, iters, rb[0]);
	MPI_Finalize();
	return 0;
}
