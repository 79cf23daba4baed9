/* commfree.c - a communicator made and freed every iteration, as codes
 * that split by the phase of a timestep do: the replays must forget
 * each once it is freed, or their memory grows with the run's length.
 *
 * usage: commfree [ITERS]	(default 5)
 * ITERS times: MPI_Comm_split of the world by parity, an MPI_Allreduce
 * on the half, an MPI_Sendrecv with the next rank of the half, an
 * MPI_Ibcast on it freed before it is waited for (the free lets pending
 * operations end), then an MPI_Comm_dup of the world with an
 * MPI_Barrier on it, freed. Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, iters, it, hr, hn, sum, v[64];
	MPI_Comm half, dup;
	MPI_Request rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 5;
	for (it = 0; it < iters; it++) {
		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
		MPI_Comm_rank(half, &hr);
		MPI_Comm_size(half, &hn);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
		MPI_Sendrecv_replace(v, 64, MPI_INT, (hr + 1) % hn, it,
		    (hr + hn - 1) % hn, it, half, MPI_STATUS_IGNORE);
		MPI_Ibcast(v, 64, MPI_INT, it % hn, half, &rq);
		MPI_Comm_free(&half);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Comm_dup(MPI_COMM_WORLD, &dup);
		MPI_Barrier(dup);
		MPI_Comm_free(&dup);
	}
	if (rank == 0)
		printf("commfree: np=%d iters=%d\n", np, iters);
	MPI_Finalize();
	return 0;
}
