/* regspin.c - the same CPU time before every record, regions and
 * calls: what tr-record's bursts must show, however often it flushes.
 *
 * usage: regspin [ITERS [NREQ [US]]]	(default 300 0 50)
 * Each iteration spins US microseconds of thread CPU time before each
 * of: the enter of region "a", its leave, NREQ MPI_Irecv from rank r-1
 * and NREQ MPI_Isend to r+1 (mod np) with their MPI_Waitall, and an
 * MPI_Barrier. A completion of 2 NREQ requests fills a small buffer
 * after its flush, and the mark of that flush flushes again. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "tr.h"

static long long
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
spin(long long ns)
{
	long long t0 = cpu_ns();
	volatile unsigned x = 0;

	do
		for (int i = 0; i < 100; i++)
			x += (unsigned)i;
	while (cpu_ns() - t0 < ns);
}

int
main(int argc, char **argv)
{
	int rank, np, iters, n, it, i, next, prev;
	long long ns;
	double *buf;
	MPI_Request *rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	iters = argc > 1 ? atoi(argv[1]) : 300;
	n = argc > 2 ? atoi(argv[2]) : 0;
	ns = (argc > 3 ? atoll(argv[3]) : 50) * 1000;
	if (n < 0)
		n = 0;
	buf = calloc(2 * (size_t)n + 1, sizeof *buf);
	rq = calloc(2 * (size_t)n + 1, sizeof *rq);
	if (!buf || !rq)
		MPI_Abort(MPI_COMM_WORLD, 1);
	next = (rank + 1) % np;
	prev = (rank + np - 1) % np;
	for (it = 0; it < iters; it++) {
		spin(ns);
		tr_region_begin("a");
		spin(ns);
		tr_region_end("a");
		for (i = 0; i < n; i++) {
			spin(ns);
			MPI_Irecv(&buf[i], 1, MPI_DOUBLE, prev, i,
			    MPI_COMM_WORLD, &rq[i]);
		}
		for (i = 0; i < n; i++) {
			spin(ns);
			MPI_Isend(&buf[n + i], 1, MPI_DOUBLE, next, i,
			    MPI_COMM_WORLD, &rq[n + i]);
		}
		if (n) {
			spin(ns);
			MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
		}
		spin(ns);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	free(buf);
	free(rq);
	MPI_Finalize();
	return 0;
}
