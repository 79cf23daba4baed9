/* commfree.c - a communicator made and freed every iteration, as codes
 * that split by the phase of a timestep do: the replays must forget
 * each once it is freed, or their memory grows with the run's length.
 *
 * usage: commfree [ITERS [heap | win | recv | pers | disc | crash]]
 * (ITERS 5 by default)
 * ITERS times: MPI_Comm_split of the world by parity, an MPI_Allreduce
 * on the half, an MPI_Sendrecv with the next rank of the half, an
 * MPI_Ibcast on it freed before it is waited for (the free lets pending
 * operations end), then an MPI_Comm_dup of the world with an
 * MPI_Barrier on it, freed. Needs 2 ranks or more.
 * heap: rank 0 also prints the bytes its heap has in use (glibc's
 * mallinfo2) after half the iterations and after all, equal when
 * nothing of a freed communicator is kept, the recorder's included.
 * win: a window is made on the half before it is freed, and used after
 * (an MPI_Put to the next rank of the half between fences), then freed.
 * recv: an MPI_Irecv from MPI_ANY_SOURCE on the half, which the previous
 * rank of the half sends to, is waited for after the half is freed;
 * rank 0 prints its heap as in heap.
 * pers: the same receive made by MPI_Recv_init before the half is
 * freed, started and waited for after, then freed; rank 0 prints its
 * heap as in heap.
 * disc: both are freed by MPI_Comm_disconnect, the MPI_Ibcast waited for
 * before (a disconnect waits for what is pending on the communicator,
 * which must be complete and matched); rank 0 prints its heap as in heap.
 * crash: rank 0 writes through a null pointer once half the iterations
 * are done, just after freeing the half. */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	int rank, np, iters, it, hr, hn, sum, v[64], w[4], x, recv, pers, heap,
	    disc;
	const char *mode;
	size_t mid = 0;
	MPI_Comm half, dup;
	MPI_Request rq, rr = MPI_REQUEST_NULL;
	MPI_Win win = MPI_WIN_NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 5;
	mode = argc > 2 ? argv[2] : "";
	recv = strcmp(mode, "recv") == 0;
	pers = strcmp(mode, "pers") == 0;
	disc = strcmp(mode, "disc") == 0;
	heap = pers || recv || disc || strcmp(mode, "heap") == 0;
	for (it = 0; it < iters; it++) {
		if (heap && it == iters / 2)
			mid = mallinfo2().uordblks;
		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
		MPI_Comm_rank(half, &hr);
		MPI_Comm_size(half, &hn);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
		MPI_Sendrecv_replace(v, 64, MPI_INT, (hr + 1) % hn, it,
		    (hr + hn - 1) % hn, it, half, MPI_STATUS_IGNORE);
		if (strcmp(mode, "win") == 0)
			MPI_Win_create(w, sizeof w, sizeof w[0], MPI_INFO_NULL,
			    half, &win);
		MPI_Ibcast(v, 64, MPI_INT, it % hn, half, &rq);
		if (recv || pers) {
			if (recv)
				MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7,
				    half, &rr);
			else
				MPI_Recv_init(&x, 1, MPI_INT, MPI_ANY_SOURCE,
				    7, half, &rr);
			MPI_Send(&rank, 1, MPI_INT, (hr + 1) % hn, 7, half);
		}
		if (disc)
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (disc)
			MPI_Comm_disconnect(&half);
		else
			MPI_Comm_free(&half);
		if (strcmp(mode, "crash") == 0 && rank == 0 &&
		    it == iters / 2)
			*(volatile int *)NULL = 1;
		if (!disc)
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (pers)
			MPI_Start(&rr);
		if (recv || pers)
			MPI_Wait(&rr, MPI_STATUS_IGNORE);
		if (pers)
			MPI_Request_free(&rr);
		if (win != MPI_WIN_NULL) {
			MPI_Win_fence(0, win);
			MPI_Put(&rank, 1, MPI_INT, (hr + 1) % hn, 0, 1, MPI_INT,
			    win);
			MPI_Win_fence(0, win);
			MPI_Win_free(&win);
		}
		MPI_Comm_dup(MPI_COMM_WORLD, &dup);
		MPI_Barrier(dup);
		if (disc)
			MPI_Comm_disconnect(&dup);
		else
			MPI_Comm_free(&dup);
	}
	if (rank == 0)
		printf("commfree: np=%d iters=%d\n", np, iters);
	if (rank == 0 && heap)
		printf("heap: %zu %zu\n", mid, mallinfo2().uordblks);
	MPI_Finalize();
	return 0;
}
