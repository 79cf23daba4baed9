/* rma.c - one-sided communication in each of MPI's three kinds of
 * epoch, ITERS times, with some computation between:
 *   - fence: every rank puts BYTES to its right neighbour, gets half as
 *     much from its left one and accumulates 10 ints into rank 0;
 *   - passive target, one lock: a put and a flush, then a get, in a
 *     shared lock of the right neighbour;
 *   - passive target, lock_all (as ARMCI-MPI and Global Arrays do): an
 *     MPI_Rget and its MPI_Wait, MPI_Fetch_and_op and
 *     MPI_Compare_and_swap on rank 0, an MPI_Get_accumulate with
 *     MPI_NO_OP (an atomic read) and an MPI_Raccumulate, then
 *     MPI_Win_flush_all;
 *   - post/start/complete/wait between the ranks of each pair (0,1),
 *     (2,3), ...: the even rank puts to the odd one;
 * and a put in a window of the odd ranks (a communicator of its own).
 * Checks what arrived and prints "rma: ok" on rank 0.
 *
 * usage: rma [ITERS [BYTES]]	(default 3 and 8000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double sink;

static void
compute(int us)
{
	double t = MPI_Wtime() + us * 1e-6;
	int i = 0;

	while (MPI_Wtime() < t)
		sink += ++i * 0.5;
}

int
main(int argc, char **argv)
{
	int rank, np, iters, n, it, i, right, left, one = 1, got, bad = 0;
	int acc[10], old, cmp = 0, nv = 7;
	double *base, *sb, *rb;
	MPI_Win win, owin;
	MPI_Comm odd;
	MPI_Request rq;
	MPI_Group wg, pg;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 3;
	n = (argc > 2 ? atoi(argv[2]) : 8000) / (int)sizeof(double);
	if (n < 20)
		n = 20;
	right = (rank + 1) % np;
	left = (rank + np - 1) % np;
	sb = malloc(n * sizeof *sb);
	rb = malloc(n * sizeof *rb);
	for (i = 0; i < n; i++)
		sb[i] = rank * 1000 + i;
	for (i = 0; i < 10; i++)
		acc[i] = 1;
	/* the first n doubles take puts, the next n are read, the 10 ints
	 * after them accumulate, and the int after those counts atomically */
	MPI_Win_allocate((MPI_Aint)(2 * n * sizeof(double) + 11 * sizeof(int)),
	    1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	for (i = 0; i < n; i++)
		base[n + i] = rank;
	for (i = 0; i < 11; i++)
		((int *)(base + 2 * n))[i] = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	for (it = 0; it < iters; it++) {
		MPI_Win_fence(0, win);
		compute(200);
		MPI_Put(sb, n, MPI_DOUBLE, right, 0, n, MPI_DOUBLE, win);
		MPI_Get(rb, n / 2, MPI_DOUBLE, left,
		    (MPI_Aint)(n * sizeof(double)), n / 2, MPI_DOUBLE, win);
		MPI_Accumulate(acc, 10, MPI_INT, 0,
		    (MPI_Aint)(2 * n * sizeof(double)), 10, MPI_INT, MPI_SUM, win);
		MPI_Win_fence(0, win);
		if (base[3] != left * 1000 + 3 || rb[1] != left)
			bad++;
		compute(300);

		MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
		MPI_Put(sb, n / 4, MPI_DOUBLE, right, 0, n / 4, MPI_DOUBLE, win);
		MPI_Win_flush(right, win);
		MPI_Get(rb, n / 4, MPI_DOUBLE, right, 0, n / 4, MPI_DOUBLE,
		    win);
		MPI_Win_unlock(right, win);
		compute(100);

		MPI_Win_lock_all(0, win);
		MPI_Rget(rb, n, MPI_DOUBLE, left,
		    (MPI_Aint)(n * sizeof(double)), n, MPI_DOUBLE, win, &rq);
		compute(50);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (rb[n - 1] != left)
			bad++;
		MPI_Fetch_and_op(&one, &old, MPI_INT, 0,
		    (MPI_Aint)(2 * n * sizeof(double) + 10 * sizeof(int)), MPI_SUM,
		    win);
		MPI_Compare_and_swap(&nv, &cmp, &old, MPI_INT, 0,
		    (MPI_Aint)(2 * n * sizeof(double) + 10 * sizeof(int)), win);
		MPI_Get_accumulate(NULL, 0, MPI_INT, &got, 1, MPI_INT, right,
		    (MPI_Aint)(2 * n * sizeof(double)), 1, MPI_INT, MPI_NO_OP,
		    win);
		MPI_Raccumulate(acc, 10, MPI_INT, left,
		    (MPI_Aint)(2 * n * sizeof(double)), 10, MPI_INT, MPI_SUM, win,
		    &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Win_flush_all(win);
		MPI_Win_unlock_all(win);
		MPI_Barrier(MPI_COMM_WORLD);
		compute(100);

		if (rank % 2 == 0 && rank + 1 < np) {
			int peer = rank + 1;
			MPI_Comm_group(MPI_COMM_WORLD, &wg);
			MPI_Group_incl(wg, 1, &peer, &pg);
			MPI_Win_start(pg, 0, win);
			MPI_Put(sb, n, MPI_DOUBLE, peer, 0, n, MPI_DOUBLE, win);
			MPI_Win_complete(win);
			MPI_Group_free(&pg);
			MPI_Group_free(&wg);
		} else if (rank % 2 == 1) {
			int peer = rank - 1;
			MPI_Comm_group(MPI_COMM_WORLD, &wg);
			MPI_Group_incl(wg, 1, &peer, &pg);
			MPI_Win_post(pg, 0, win);
			MPI_Win_wait(win);
			if (base[5] != peer * 1000 + 5)
				bad++;
			MPI_Group_free(&pg);
			MPI_Group_free(&wg);
		}
	}
	MPI_Win_free(&win);

	/* a window on the odd ranks, if two or more (Open MPI 4.1 makes
	 * none on one rank): rank 1 of it is world rank 3 */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
	if (rank % 2 == 1 && np >= 4) {
		int me;
		MPI_Comm_rank(odd, &me);
		MPI_Win_create(rb, (MPI_Aint)(n * sizeof(double)),
		    sizeof(double), MPI_INFO_NULL, odd, &owin);
		MPI_Win_fence(0, owin);
		if (me == 0)
			MPI_Put(sb, 10, MPI_DOUBLE, 1, 0, 10, MPI_DOUBLE, owin);
		MPI_Win_fence(0, owin);
		if (me == 1 && rb[2] != 1000 + 2)
			bad++;
		MPI_Win_free(&owin);
	}
	MPI_Comm_free(&odd);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("rma: %s\n", bad ? "wrong data" : "ok");
	free(sb);
	free(rb);
	MPI_Finalize();
	return bad != 0;
}
