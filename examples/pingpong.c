/* pingpong.c - ranks 0 and 1 bounce a message; the others only wait.
 *
 * usage: pingpong [ITERATIONS [BYTES [REPEATS]]]	(default 100 0 1)
 * Rank 0 prints the median over REPEATS of the time per MPI call (half a
 * round trip), and their mean, which is what bench/record.sh compares:
 * the flushes of a trace's buffer, a few per run, are in it. With BYTES -1 it
 * times an MPI_Iprobe loop instead (no message is ever sent); with -2,
 * ranks 0 and 1 exchange empty messages by MPI_Irecv, MPI_Isend and
 * MPI_Waitall (a third of a round per call). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	int rank, np, n, bytes, reps, r, i, flag;
	char *buf;
	double *t, mean;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	n = argc > 1 ? atoi(argv[1]) : 100;
	bytes = argc > 2 ? atoi(argv[2]) : 0;
	reps = argc > 3 ? atoi(argv[3]) : 1;
	if (np < 2 || n < 1 || reps < 1) {
		if (rank == 0)
			fprintf(stderr, "pingpong: needs 2 ranks, n >= 1\n");
		MPI_Finalize();
		return 2;
	}
	buf = calloc(bytes > 0 ? bytes : 1, 1);
	t = calloc(reps, sizeof *t);
	for (r = 0; r < reps; r++) {
		double t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		if (bytes == -2) {
			MPI_Request q[2];

			for (i = 0; i < n && rank < 2; i++) {
				MPI_Irecv(buf, 0, MPI_BYTE, 1 - rank, 0,
				    MPI_COMM_WORLD, &q[0]);
				MPI_Isend(buf, 0, MPI_BYTE, 1 - rank, 0,
				    MPI_COMM_WORLD, &q[1]);
				MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
			}
			t[r] = (MPI_Wtime() - t0) / (3.0 * n);
			continue;
		}
		if (bytes < 0) {
			for (i = 0; i < n; i++)
				MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD,
				    &flag, MPI_STATUS_IGNORE);
			t[r] = (MPI_Wtime() - t0) / n;
			continue;
		}
		for (i = 0; i < n && rank < 2; i++) {
			if (rank == 0) {
				MPI_Send(buf, bytes, MPI_BYTE, 1, 0,
				    MPI_COMM_WORLD);
				MPI_Recv(buf, bytes, MPI_BYTE, 1, 0,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, bytes, MPI_BYTE, 0, 0,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, bytes, MPI_BYTE, 0, 0,
				    MPI_COMM_WORLD);
			}
		}
		t[r] = (MPI_Wtime() - t0) / (2.0 * n);
	}
	for (r = 0, mean = 0; r < reps; r++)
		mean += t[r] / reps;
	qsort(t, reps, sizeof *t, cmp);
	if (rank == 0)
		printf("pingpong: n=%d bytes=%d per-call-ns=%.1f mean-ns=%.1f\n",
		    n, bytes, t[reps / 2] * 1e9, mean * 1e9);
	free(buf);
	free(t);
	MPI_Finalize();
	return 0;
}
