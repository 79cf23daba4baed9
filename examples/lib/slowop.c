/* slowop.c - a preload library that makes MPI_Allreduce slower by
 * $TR_SLOW_US microseconds per call, as a worse MPI library would: the
 * known truth of tr-diff's tests. It replaces PMPI_Allreduce, so the
 * delay lies inside the call that tr-record's wrapper measures. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

typedef int (*allreduce_fn)(const void *, void *, int, MPI_Datatype,
    MPI_Op, MPI_Comm);

__attribute__((visibility("default"))) int
PMPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op,
    MPI_Comm c)
{
	static allreduce_fn real;
	const char *us = getenv("TR_SLOW_US");
	struct timespec ts;
	long d = us ? atol(us) : 0;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "PMPI_Allreduce");
	if (d > 0) {
		ts.tv_sec = d / 1000000;
		ts.tv_nsec = d % 1000000 * 1000;
		nanosleep(&ts, NULL);
	}
	return real(s, r, n, t, op, c);
}
