/* uneven.c - what real codes do that a replay gets wrong when it takes
 * communicator ids or message sizes at face value (Quantum ESPRESSO's
 * pw.x does all of it).
 *
 * usage: uneven [ITERS]	(default 5)
 * 1. Rank 0 alone duplicates MPI_COMM_SELF (as an I/O rank may), so
 *    the communicators made after it have other ids on rank 0 than on
 *    the others.
 * 2. MPI_Comm_split of the world into halves, then ITERS times: an
 *    MPI_Alltoallv on the world duplicate where rank r sends r+1 KiB to
 *    each rank (each rank knows only its own total), an MPI_Allreduce on
 *    its half, an MPI_Sendrecv to r^1 of (r+1) KiB, receiving the
 *    partner's size, and an MPI_Sendrecv_replace around the ring. Both
 *    send with a tag of their own rank and receive with their source's
 *    (FFTW's transposes do so), so the tags sent and received differ.
 * Needs an even number of ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, np, iters, it, i, sum;
	int *scnt, *sdsp, *rcnt, *rdsp;
	char *sb, *rb;
	MPI_Comm only0 = MPI_COMM_NULL, dup, half;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 5;
	if (np % 2) {
		if (rank == 0)
			fprintf(stderr, "uneven: needs an even number of ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	if (rank == 0)
		MPI_Comm_dup(MPI_COMM_SELF, &only0);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_split(MPI_COMM_WORLD, rank < np / 2, rank, &half);

	scnt = calloc(np, sizeof *scnt);
	sdsp = calloc(np, sizeof *sdsp);
	rcnt = calloc(np, sizeof *rcnt);
	rdsp = calloc(np, sizeof *rdsp);
	for (i = 0; i < np; i++) {
		scnt[i] = 1024 * (rank + 1);
		sdsp[i] = i * scnt[i];
		rcnt[i] = 1024 * (i + 1);
		rdsp[i] = i ? rdsp[i - 1] + rcnt[i - 1] : 0;
	}
	sb = calloc((size_t)np * 1024 * (np + 1), 1);
	rb = calloc((size_t)np * 1024 * (np + 1), 1);
	for (it = 0; it < iters; it++) {
		MPI_Alltoallv(sb, scnt, sdsp, MPI_BYTE, rb, rcnt, rdsp,
		    MPI_BYTE, dup);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
		MPI_Sendrecv(sb, 1024 * (rank + 1), MPI_BYTE, rank ^ 1,
		    10 + rank, rb, 1024 * ((rank ^ 1) + 1), MPI_BYTE,
		    rank ^ 1, 10 + (rank ^ 1), MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		MPI_Sendrecv_replace(sb, 256, MPI_BYTE, (rank + 1) % np,
		    100 + rank, (rank + np - 1) % np,
		    100 + (rank + np - 1) % np, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("uneven: np=%d iters=%d\n", np, iters);
	if (only0 != MPI_COMM_NULL)
		MPI_Comm_free(&only0);
	MPI_Comm_free(&half);
	MPI_Comm_free(&dup);
	free(scnt);
	free(sdsp);
	free(rcnt);
	free(rdsp);
	free(sb);
	free(rb);
	MPI_Finalize();
	return 0;
}
