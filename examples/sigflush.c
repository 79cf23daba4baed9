/* sigflush.c - a rank that records without end until a signal ends it,
 * for tr-record's tests of signals that arrive during a flush.
 *
 * usage: sigflush PIDFILE [segv|block|trap|region|slow|twice]
 * Writes the process id to PIDFILE once MPI is up, then makes
 * MPI_Sendrecv calls to itself on MPI_COMM_SELF (for at most 60 s, then
 * MPI_Finalize), so that a small recording buffer flushes all the time.
 * With segv a second thread, waiting for SIGUSR1 (blocked in every other
 * thread), writes through a null pointer when it comes: a crash in one
 * thread while another records. With block the same, but the main
 * thread makes 100 calls, then waits in an MPI_Recv that nothing sends:
 * a crash while another thread holds the recorder inside MPI. With trap
 * handlers installed before MPI_Init count SIGTERM and SIGINT; the loop
 * ends once one came, and the program says which came before
 * MPI_Finalize ("sigflush: TERM INT"). With region the handlers also
 * mark a region "sig" (tr.h), and with slow they first sleep 3 s. With
 * twice a SIGTERM handler counts the first signal, the loop writing
 * PIDFILE.1 once it has, and the second says "sigflush: exit" and calls
 * exit(5). */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tr.h"

static volatile sig_atomic_t terms, ints;

static void
count(int sig)
{
	if (sig == SIGTERM)
		terms++;
	else
		ints++;
}

static void
region(int sig)
{
	tr_region_begin("sig");
	tr_region_end("sig");
	count(sig);
}

static void
slow(int sig)
{
	struct timespec ts = { 3, 0 };

	while (nanosleep(&ts, &ts) < 0)
		;
	count(sig);
}

static void
twice(int sig)
{
	static const char m[] = "sigflush: exit\n";

	count(sig);
	if (terms < 2)
		return;
	if (write(1, m, sizeof m - 1) < 0)
		_exit(6);
	exit(5);
}

static void *
crasher(void *arg)
{
	sigset_t *set = arg;
	int sig;

	if (sigwait(set, &sig) == 0) {
		volatile int *p = NULL;

		*p = 1;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	char tmp[4200];
	const char *mode = argc > 2 ? argv[2] : "";
	int provided, a = 0, b, block = strcmp(mode, "block") == 0,
	    segv = block || strcmp(mode, "segv") == 0,
	    two = strcmp(mode, "twice") == 0, trap = 0, marked = 0;
	void (*h)(int) = NULL;
	long i;
	sigset_t set;
	pthread_t t;
	time_t end;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: sigflush PIDFILE "
		    "[segv|block|trap|region|slow|twice]\n");
		return 2;
	}
	if (strcmp(mode, "trap") == 0)
		h = count;
	else if (strcmp(mode, "region") == 0)
		h = region;
	else if (strcmp(mode, "slow") == 0)
		h = slow;
	if (h) {
		trap = 1;
		signal(SIGTERM, h);
		signal(SIGINT, h);
	}
	if (two)
		signal(SIGTERM, twice);
	/* before MPI_Init, so that the library's threads block it too */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (segv && pthread_create(&t, NULL, crasher, &set) != 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	/* written whole, then renamed: a reader never sees half of it */
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, argv[1]) != 0)
		MPI_Abort(MPI_COMM_WORLD, 1);
	end = time(NULL) + 60;
	for (i = 0; block ? i < 100 : (two || (!terms && !ints)) &&
	    ((i & 1023) || time(NULL) < end); i++) {
		MPI_Sendrecv(&a, 1, MPI_INT, 0, 0, &b, 1, MPI_INT, 0, 0,
		    MPI_COMM_SELF, MPI_STATUS_IGNORE);
		if (two && terms && !marked) {
			snprintf(tmp, sizeof tmp, "%s.1", argv[1]);
			if (!(f = fopen(tmp, "w")) || fclose(f) != 0)
				MPI_Abort(MPI_COMM_WORLD, 1);
			marked = 1;
		}
	}
	if (trap)
		printf("sigflush:%s%s\n", terms ? " TERM" : "",
		    ints ? " INT" : "");
	if (block)
		MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_SELF,
		    MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
