/* seize.c - a thread stopped while it grows tr-record's table of region
 * names, and another that crashes meanwhile, for tr-record's tests.
 *
 * usage: seize [REGIONS]	(default 1000)
 * The main thread enters and leaves regions of REGIONS new names, one
 * rank of them each. The first calloc or realloc made while it enters
 * one (tr-record growing a table for the new name) stops it for good,
 * holding the recorder: a realloc that moves the block, as the C
 * library's may, scribbles over the old one and frees it first. A
 * second thread then writes through a null pointer, and its crash
 * handler seizes the recorder from the stopped one to write the file.
 * Without such a call, the main thread says "seize: no table grew" and
 * ends the process itself. */
#include <malloc.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tr.h"

/* glibc's own, which the overrides below call */
void *__libc_realloc(void *p, size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_malloc(size_t n);
void __libc_free(void *p);

static pthread_t grower;
static volatile int armed, stopped;

static void
stop(void)
{
	stopped = 1;
	for (;;)
		pause();
}

static int
mine(void)
{
	return armed && pthread_equal(pthread_self(), grower);
}

void *
realloc(void *p, size_t n)
{
	size_t old;
	void *q;

	if (!mine())
		return __libc_realloc(p, n);
	old = p ? malloc_usable_size(p) : 0;
	if (!(q = __libc_malloc(n)))
		return NULL;
	memcpy(q, p, old < n ? old : n);
	memset(p, 0xa5, old);
	__libc_free(p);
	stop();
	return q;
}

void *
calloc(size_t k, size_t n)
{
	void *q = __libc_calloc(k, n);

	if (q && mine())
		stop();
	return q;
}

static void *
crasher(void *arg)
{
	volatile int *p = NULL;

	(void)arg;
	while (!stopped)
		usleep(1000);
	*p = 1;
	return NULL;
}

int
main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1000;
	char name[32];
	pthread_t t;

	MPI_Init(&argc, &argv);
	grower = pthread_self();
	if (pthread_create(&t, NULL, crasher, NULL) != 0)
		return 1;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "r%d", i);
		armed = 1;
		tr_region_begin(name);
		armed = 0;
		tr_region_end(name);
	}
	fprintf(stderr, "seize: no table grew\n");
	MPI_Abort(MPI_COMM_WORLD, 1);
	return 1;
}
