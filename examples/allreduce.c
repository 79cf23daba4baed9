/* allreduce.c - MPI_Allreduce of doubles (MPI_SUM) at sizes growing by
 * factors of 4, each REPS times, a barrier between sizes: large
 * reductions, whose time is their messages and the work of reducing
 * them, for bench/reduce.sh to set against tr-nsim's prediction.
 *
 * usage: allreduce [MAXBYTES [REPS]]	(default 16777216 10; from 64 KiB)
 * Rank 0 prints the mean time of one call per size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	long max, bytes, n, i;
	int rank, reps, r;
	double *a, *b, t0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	max = argc > 1 ? atol(argv[1]) : 16777216;
	reps = argc > 2 ? atoi(argv[2]) : 10;
	if (max < 65536 || reps < 1) {
		if (rank == 0)
			fprintf(stderr, "allreduce: MAXBYTES >= 65536, REPS >= 1\n");
		MPI_Finalize();
		return 2;
	}
	a = malloc((size_t)max);
	b = malloc((size_t)max);
	if (!a || !b)
		MPI_Abort(MPI_COMM_WORLD, 4);
	/* touched, so that the reduction reads real pages */
	for (i = 0; i < max / 8; i++)
		a[i] = b[i] = (double)i * 0.5;
	for (bytes = 65536; bytes <= max; bytes *= 4) {
		n = bytes / 8;
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (r = 0; r < reps; r++)
			MPI_Allreduce(a, b, (int)n, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD);
		if (rank == 0)
			printf("%ld %.0f\n", bytes,
			    (MPI_Wtime() - t0) / reps * 1e9);
	}
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
