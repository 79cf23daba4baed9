/* cpuburst.c - computation of known CPU time between MPI calls, some of
 * it beside sleeps: what tr-record's CPU time must find.
 *
 * usage: cpuburst [ROUNDS]	(default 20)
 * Each round makes three bursts, each ended by an MPI_Barrier: 5 us of
 * CPU time, then 5 us followed by a sleep of 200 us (time off the CPU),
 * then 300 us. A line "burst CPU_NS" on stdout per burst gives the
 * thread CPU time the burst took, read around it, for comparing. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs until NS of CPU time have passed; returns the CPU time taken. */
static long long
spin(long long ns)
{
	long long t0 = cpu_ns(), t;
	volatile unsigned x = 0;

	do {
		for (int i = 0; i < 100; i++)
			x += (unsigned)i;
		t = cpu_ns();
	} while (t - t0 < ns);
	return t - t0;
}

int
main(int argc, char **argv)
{
	static const long long work[3] = {5000, 5000, 300000};
	static const long sleepns[3] = {0, 200000, 0};
	int rank, rounds, r, k;
	long long *got;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	rounds = argc > 1 ? atoi(argv[1]) : 20;
	if (rounds < 1)
		rounds = 1;
	got = calloc((size_t)rounds * 3, sizeof *got);
	if (!got)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Barrier(MPI_COMM_WORLD);
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 3; k++) {
			got[r * 3 + k] = spin(work[k]);
			if (sleepns[k]) {
				struct timespec ts = {0, sleepns[k]};
				nanosleep(&ts, NULL);
			}
			MPI_Barrier(MPI_COMM_WORLD);
		}
	/* printed after the loop, so that the printing is no burst */
	if (rank == 0)
		for (r = 0; r < rounds * 3; r++)
			printf("burst %lld\n", got[r]);
	free(got);
	MPI_Finalize();
	return 0;
}
