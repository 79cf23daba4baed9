/* allreduce.c - MPI_Allreduce of doubles (MPI_SUM) at sizes growing by
 * factors of 4, each REPS times, a barrier between sizes: large
 * reductions, whose time is their messages and the work of reducing
 * them, for bench/reduce.sh to set against tr-nsim's prediction.
 *
 * usage: allreduce [MAXBYTES [REPS [parts]]]	(default 16777216 10)
 * From 64 KiB. Rank 0 prints the mean time of one call per size. With
 * "parts" (2 ranks) it prints instead, per size, the best of 5 means of
 * REPS calls of each part of an allreduce: an MPI_Sendrecv of the
 * buffer with the other rank, an MPI_Reduce_local of it, and the
 * MPI_Allreduce itself (ns). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SENDRECV, REDUCE, ALLREDUCE };

static double
best(int what, double *a, double *b, double *c, int n, int reps, int me)
{
	double t, t0, min = 1e30;
	int k, r;

	for (k = 0; k < 5; k++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (r = 0; r < reps; r++)
			if (what == SENDRECV)
				MPI_Sendrecv(a, n, MPI_DOUBLE, 1 - me, 1, c, n,
				    MPI_DOUBLE, 1 - me, 1, MPI_COMM_WORLD,
				    MPI_STATUS_IGNORE);
			else if (what == REDUCE)
				MPI_Reduce_local(c, b, n, MPI_DOUBLE, MPI_SUM);
			else
				MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM,
				    MPI_COMM_WORLD);
		t = (MPI_Wtime() - t0) / reps;
		MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX,
		    MPI_COMM_WORLD);
		if (t < min)
			min = t;
	}
	return min * 1e9;
}

int
main(int argc, char **argv)
{
	long max, bytes, i;
	int rank, np, reps, r, parts;
	double *a, *b, *c, t0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	max = argc > 1 ? atol(argv[1]) : 16777216;
	reps = argc > 2 ? atoi(argv[2]) : 10;
	parts = argc > 3 && strcmp(argv[3], "parts") == 0;
	if (max < 65536 || reps < 1 || (parts && np != 2)) {
		if (rank == 0)
			fprintf(stderr, "allreduce: MAXBYTES >= 65536, REPS >= 1;"
			    " parts on 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	a = malloc((size_t)max);
	b = malloc((size_t)max);
	c = malloc((size_t)max);
	if (!a || !b || !c)
		MPI_Abort(MPI_COMM_WORLD, 4);
	/* touched, so that the reduction reads real pages */
	for (i = 0; i < max / 8; i++)
		a[i] = b[i] = c[i] = (double)i * 0.5;
	for (bytes = 65536; bytes <= max; bytes *= 4) {
		int n = (int)(bytes / 8);

		if (parts) {
			double x = best(SENDRECV, a, b, c, n, reps, rank);
			double y = best(REDUCE, a, b, c, n, reps, rank);
			double z = best(ALLREDUCE, a, b, c, n, reps, rank);

			if (rank == 0)
				printf("%ld %.0f %.0f %.0f\n", bytes, x, y, z);
			continue;
		}
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (r = 0; r < reps; r++)
			MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD);
		if (rank == 0)
			printf("%ld %.0f\n", bytes,
			    (MPI_Wtime() - t0) / reps * 1e9);
	}
	free(a);
	free(b);
	free(c);
	MPI_Finalize();
	return 0;
}
