/* nbc.c - nonblocking collectives that only progress in the background.
 *
 * usage: nbc [ROUNDS]	(default 2)
 * Each round has three parts.
 * 1. Two duplicates of MPI_COMM_WORLD, A and B: even ranks start an
 *    MPI_Ibcast of 128 KB on A, then one on B; odd ranks start B's
 *    first. MPI orders collectives per communicator only, so this is
 *    legal, and neither broadcast may wait for the other to start.
 * 2. The NBX exchange (Hoefler, Siebert and Lumsdaine, PPoPP 2010):
 *    every rank sends to the next two with MPI_Issend, receives what
 *    MPI_Iprobe finds, and enters MPI_Ibarrier once its own sends are
 *    matched. It stops when the barrier completes, so a rank inside the
 *    barrier must still receive.
 * 3. An MPI_Iallreduce of 4 MB overlapped with about a millisecond of
 *    computation before its MPI_Wait. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double
spin(double s)
{
	double t0 = MPI_Wtime(), x = 0;

	while (MPI_Wtime() - t0 < s)
		x += 1e-9;
	return x;
}

static void
nbx(int rank, int np, int round)
{
	int sent[2] = {rank + round, rank - round}, got, flag, k, done = 0;
	int barrier = 0;
	MPI_Request rq[2], br = MPI_REQUEST_NULL;
	MPI_Status st;

	for (k = 0; k < 2; k++)
		MPI_Issend(&sent[k], 1, MPI_INT, (rank + 1 + k) % np, 77,
		    MPI_COMM_WORLD, &rq[k]);
	while (!done) {
		MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
		if (flag)
			MPI_Recv(&got, 1, MPI_INT, st.MPI_SOURCE, 77,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (!barrier) {
			MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
			if (flag) {
				MPI_Ibarrier(MPI_COMM_WORLD, &br);
				barrier = 1;
			}
		} else
			MPI_Test(&br, &done, MPI_STATUS_IGNORE);
	}
}

int
main(int argc, char **argv)
{
	int rank, np, rounds, r, i, n = 1 << 19;
	int *va, *vb, m = 1 << 15;
	double *in, *out, x = 0;
	MPI_Comm a, b;
	MPI_Request rq[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rounds = argc > 1 ? atoi(argv[1]) : 2;
	MPI_Comm_dup(MPI_COMM_WORLD, &a);
	MPI_Comm_dup(MPI_COMM_WORLD, &b);
	va = malloc(m * sizeof *va);
	vb = malloc(m * sizeof *vb);
	in = malloc(n * sizeof *in);
	out = malloc(n * sizeof *out);
	for (i = 0; i < n; i++)
		in[i] = rank + i;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < m; i++)
			va[i] = vb[i] = rank == 0 ? r + i : -1;
		if (rank % 2) {
			MPI_Ibcast(vb, m, MPI_INT, 0, b, &rq[1]);
			MPI_Ibcast(va, m, MPI_INT, 0, a, &rq[0]);
		} else {
			MPI_Ibcast(va, m, MPI_INT, 0, a, &rq[0]);
			MPI_Ibcast(vb, m, MPI_INT, 0, b, &rq[1]);
		}
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		if (va[5] != r + 5 || vb[7] != r + 7) {
			fprintf(stderr, "nbc: rank %d: wrong broadcast\n", rank);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		nbx(rank, np, r);
		MPI_Iallreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
		    &rq[0]);
		x += spin(1e-3);
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	}
	if (rank == 0)
		printf("nbc: %d rounds, %.0f\n", rounds, out[1] + x * 0);
	free(va);
	free(vb);
	free(in);
	free(out);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Finalize();
	return 0;
}
