/* sigflush.c - a rank that records without end until a signal ends it,
 * for tr-record's tests of signals that arrive during a flush.
 *
 * usage: sigflush PIDFILE [segv|block|trap]
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
 * MPI_Finalize ("sigflush: TERM INT"). */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t terms, ints;

static void
count(int sig)
{
	if (sig == SIGTERM)
		terms++;
	else
		ints++;
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
	    trap = strcmp(mode, "trap") == 0;
	long i;
	sigset_t set;
	pthread_t t;
	time_t end;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: sigflush PIDFILE [segv|block|trap]\n");
		return 2;
	}
	if (trap) {
		signal(SIGTERM, count);
		signal(SIGINT, count);
	}
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
	for (i = 0; block ? i < 100 : !terms && !ints &&
	    ((i & 1023) || time(NULL) < end); i++)
		MPI_Sendrecv(&a, 1, MPI_INT, 0, 0, &b, 1, MPI_INT, 0, 0,
		    MPI_COMM_SELF, MPI_STATUS_IGNORE);
	if (trap)
		printf("sigflush:%s%s\n", terms ? " TERM" : "",
		    ints ? " INT" : "");
	if (block)
		MPI_Recv(&b, 1, MPI_INT, 0, 1, MPI_COMM_SELF,
		    MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
