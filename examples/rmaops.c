/* rmaops.c - what one-sided calls cost their origin, in the patterns of
 * ARMCI-MPI (NWChem's Global Arrays): rank 0 is the origin, rank 1 the
 * target, in a lock_all epoch on a window of MPI_Win_allocate. For each
 * size of BYTES (doubled from 8 up to the last), ITERS rounds of
 *   acc:   MPI_Accumulate (MPI_SUM of doubles), then MPI_Win_flush_all;
 *   acc4:  four MPI_Accumulate, then one MPI_Win_flush_all;
 *   getacc: MPI_Get_accumulate with MPI_NO_OP (ARMCI's get), then
 *          MPI_Win_flush_local_all;
 *   put:   MPI_Put, then MPI_Win_flush_all;
 *   get:   MPI_Get, then MPI_Win_flush_local_all;
 * and at 8 bytes MPI_Fetch_and_op (MPI_SUM of a long) then
 * MPI_Win_flush_all, and MPI_Win_flush_all with nothing outstanding.
 * Rank 1 computes meanwhile (-c), or waits in MPI_Barrier (the default:
 * a target inside the library). Rank 0 prints, per pattern and size, the
 * median time of each call over the rounds, in ns. Recorded with
 * tr-record, the same calls can be set beside tr-nsim's replay.
 *
 * BYTES of 128 KiB or more puts the origin's buffer in a block of its own
 * (glibc's malloc maps it): gets into it then cost far more.
 *
 * usage: rmaops [-c] [ITERS [BYTES]]	(default 200 and 65536) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double sink;

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, cmp);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* the target's computation while the origin measures */
static void
spin(double seconds)
{
	double end = MPI_Wtime() + seconds;

	while (MPI_Wtime() < end)
		sink += 0.5;
}

static void
report(const char *name, int bytes, double *t1, double *t2, int n)
{
	printf("%s\t%d\t%.0f\t%.0f\n", name, bytes, median(t1, n),
	    median(t2, n));
}

/* pattern K's transfer of CNT doubles to rank 1 */
static void
transfer(int k, double *buf, int cnt, MPI_Win win)
{
	switch (k) {
	case 0:
	case 1:
		MPI_Accumulate(buf, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE,
		    MPI_SUM, win);
		break;
	case 2:
		MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, buf, cnt, MPI_DOUBLE, 1,
		    0, cnt, MPI_DOUBLE, MPI_NO_OP, win);
		break;
	case 3:
		MPI_Put(buf, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, win);
		break;
	default:
		MPI_Get(buf, cnt, MPI_DOUBLE, 1, 0, cnt, MPI_DOUBLE, win);
	}
}

int
main(int argc, char **argv)
{
	int rank, np, iters, max, busy = 0, i, k, n;
	double *base, *buf, *t1, *t2, w0, w1, w2;
	long one = 1, old;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		busy = 1;
		argc--;
		argv++;
	}
	iters = argc > 1 ? atoi(argv[1]) : 200;
	max = argc > 2 ? atoi(argv[2]) : 65536;
	if (iters < 1 || max < 8 || np < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: rmaops [-c] [ITERS [BYTES]], "
			    "2 ranks or more\n");
		MPI_Finalize();
		return 1;
	}
	buf = calloc((size_t)max, 1);
	t1 = malloc((size_t)iters * sizeof *t1);
	t2 = malloc((size_t)iters * sizeof *t2);
	MPI_Win_allocate((MPI_Aint)max + 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
	    &base, &win);
	memset(base, 0, (size_t)max + 8);
	MPI_Win_lock_all(0, win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("pattern\tbytes\tcall 1 ns\tflush ns\n");
	for (n = 8; n <= max; n *= 2) {
		int cnt = n / 8;
		const char *name[] = {"acc", "acc4", "getacc", "put", "get"};

		for (k = 0; k < 5; k++) {
			if (rank == 0) {
				for (i = 0; i < iters; i++) {
					int j;

					w0 = MPI_Wtime();
					for (j = 0; j < (k == 1 ? 4 : 1); j++)
						transfer(k, buf, cnt, win);
					w1 = MPI_Wtime();
					if (k == 2 || k == 4)
						MPI_Win_flush_local_all(win);
					else
						MPI_Win_flush_all(win);
					w2 = MPI_Wtime();
					t1[i] = (w1 - w0) * 1e9 / (k == 1 ? 4 : 1);
					t2[i] = (w2 - w1) * 1e9;
				}
				report(name[k], n, t1, t2, iters);
			} else if (busy)
				spin(iters * 2e-6);
			MPI_Barrier(MPI_COMM_WORLD);
		}
	}
	if (rank == 0) {
		for (k = 0; k < 2; k++) {
			for (i = 0; i < iters; i++) {
				w0 = MPI_Wtime();
				if (k == 0)
					MPI_Fetch_and_op(&one, &old, MPI_LONG,
					    1, (MPI_Aint)max, MPI_SUM, win);
				w1 = MPI_Wtime();
				MPI_Win_flush_all(win);
				w2 = MPI_Wtime();
				t1[i] = (w1 - w0) * 1e9;
				t2[i] = (w2 - w1) * 1e9;
			}
			report(k ? "idle" : "fop", 8, t1, t2, iters);
		}
	} else if (busy)
		spin(iters * 4e-6);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_unlock_all(win);
	MPI_Win_free(&win);
	free(buf);
	free(t1);
	free(t2);
	MPI_Finalize();
	return sink < 0;
}
