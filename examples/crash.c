/* crash.c - a ring that dies on purpose, for tr-record's crash tests.
 *
 * usage: crash MODE [ROUNDS [MORE]]	(default 50, 0)
 * After ROUNDS ring steps (Sendrecv with both neighbours), rank 1 ends
 * as MODE says (a moment later with MORE, while the other ranks try MORE
 * more steps, which leaves rank 0's first one complete and its
 * neighbour's not): segv (writes through a null pointer), abort
 * (MPI_Abort), mpierr (a send to a rank that does not exist, which
 * MPI_ERRORS_ARE_FATAL ends), winerr (the same for a put in a window
 * that every rank made), term (SIGTERM to itself), kill (SIGKILL
 * to itself), exit (exit(3) without MPI_Finalize, on every rank),
 * collkill (SIGKILL, from a timer, 0.1 s into the MPI_Barrier that rank
 * 0 joins 0.5 s late). The other ranks block in an MPI_Barrier until
 * mpirun ends them. With fork
 * nothing dies: every rank forks a child that calls exit(0), waits for
 * it and goes on to MPI_Finalize. With termgo, a SIGTERM handler that
 * only counts is installed before MPI_Init, rank 1 sends itself SIGTERM
 * and every rank goes on to MPI_Finalize; with termexit that handler
 * calls exit(4). With intign SIGINT is ignored from before MPI_Init, rank
 * 1 sends itself SIGINT and every rank goes on. With heap rank 1 makes
 * an MPI_Barrier on MPI_COMM_SELF from a call site of its own, then
 * frees a block twice: malloc aborts (SIGABRT) holding its lock. With
 * segvown rank 1 writes through a null pointer as with segv, with a
 * SIGSEGV handler installed before MPI_Init (SA_SIGINFO, SA_RESETHAND)
 * that says "crash: SIGSEGV code C at ADDR" from its siginfo and
 * returns; with segvlate one installed after MPI_Init says "crash:
 * chained" and calls the handler it replaced. Handlers that jump out
 * (siglongjmp), installed before MPI_Init, let rank 1 live on, say
 * "crash: survived" and go on to the barrier: with segvjmp it writes
 * through a null pointer (SA_NODEFER: the handler runs inside
 * tr-record's), with termjmp it sends itself SIGTERM and then enters
 * and leaves ROUNDS regions of names of their own (tr.h). With errjmp an
 * error handler of MPI_COMM_WORLD that jumps out of the call takes rank
 * 1's send to a rank that does not exist, which then makes ROUNDS more
 * ring steps with rank 1 itself. With termin a SIGTERM handler installed
 * before MPI_Init jumps within itself (longjmp to a setjmp of its own,
 * as a library it calls may) and returns; rank 1 sends itself SIGTERM,
 * says "crash: handled" and enters and leaves ROUNDS regions as with
 * termjmp. */
#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tr.h"

static volatile sig_atomic_t terms;

static void
onalarm(int sig)
{
	(void)sig;
	kill(getpid(), SIGKILL);
}

static void
onterm(int sig)
{
	(void)sig;
	terms++;
}

/* Said with write(2): a handler may not use stdio. */
static void
say(const char *s)
{
	if (write(2, s, strlen(s)) < 0)
		return;
}

static void
onsegv(int sig, siginfo_t *si, void *ctx)
{
	char msg[] = "crash: SIGSEGV code ? at ?\n";

	(void)sig;
	(void)ctx;
	msg[20] = '0' + si->si_code % 10;
	if (!si->si_addr)
		memcpy(msg + 25, "0", 1);
	say(msg);
}

static struct sigaction prev;

static void
onsegv_chain(int sig, siginfo_t *si, void *ctx)
{
	say("crash: chained\n");
	if (prev.sa_flags & SA_SIGINFO)
		prev.sa_sigaction(sig, si, ctx);
	else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN)
		prev.sa_handler(sig);
}

static void
catch_segv(void (*h)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &prev);
}

static sigjmp_buf back;
static jmp_buf inner;
static volatile sig_atomic_t handled;

static void
onterm_inner(int sig)
{
	(void)sig;
	if (setjmp(inner) == 0)
		longjmp(inner, 1);
	handled = 1;
}

static void
onjump(int sig)
{
	siglongjmp(back, sig);
}

static void
onerr_jump(MPI_Comm *c, int *err, ...)
{
	(void)c;
	siglongjmp(back, *err);
}

static void
onterm_exit(int sig)
{
	(void)sig;
	exit(4);
}

int
main(int argc, char **argv)
{
	int rank, np, rounds, more, r, a = 0, b;
	MPI_Win win;
	const char *mode;

	if (argc > 1 && strcmp(argv[1], "termgo") == 0)
		signal(SIGTERM, onterm);
	if (argc > 1 && strcmp(argv[1], "termexit") == 0)
		signal(SIGTERM, onterm_exit);
	if (argc > 1 && strcmp(argv[1], "intign") == 0)
		signal(SIGINT, SIG_IGN);
	if (argc > 1 && strcmp(argv[1], "segvown") == 0)
		catch_segv(onsegv, SA_RESETHAND);
	if (argc > 1 && strcmp(argv[1], "segvjmp") == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = onjump;
		sa.sa_flags = SA_NODEFER;
		sigaction(SIGSEGV, &sa, NULL);
	}
	if (argc > 1 && strcmp(argv[1], "termjmp") == 0)
		signal(SIGTERM, onjump);
	if (argc > 1 && strcmp(argv[1], "termin") == 0)
		signal(SIGTERM, onterm_inner);
	MPI_Init(&argc, &argv);
	if (argc > 1 && strcmp(argv[1], "segvlate") == 0)
		catch_segv(onsegv_chain, SA_RESETHAND);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	mode = argc > 1 ? argv[1] : "segv";
	rounds = argc > 2 ? atoi(argv[2]) : 50;
	more = argc > 3 ? atoi(argv[3]) : 0;
	if (rank != 1 % np)
		rounds += more;
	for (r = 0; r < rounds; r++)
		MPI_Sendrecv(&a, 1, MPI_INT, (rank + 1) % np, r, &b, 1,
		    MPI_INT, (rank + np - 1) % np, r, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	if (strcmp(mode, "exit") == 0)
		exit(3);
	if (strcmp(mode, "fork") == 0) {
		pid_t p = fork();

		if (p == 0)
			exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	if (strcmp(mode, "winerr") == 0)
		MPI_Win_create(&b, sizeof b, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
		    &win);
	if (rank == 1 % np) {
		if (more)
			usleep(200000);
		if (strcmp(mode, "segvjmp") == 0 ||
		    strcmp(mode, "termjmp") == 0 ||
		    strcmp(mode, "errjmp") == 0) {
			MPI_Errhandler eh;
			char name[32];
			volatile int *p = NULL;

			MPI_Comm_create_errhandler(onerr_jump, &eh);
			MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
			if (sigsetjmp(back, 1) == 0) {
				if (mode[0] == 's')
					*p = 1;
				else if (mode[0] == 't')
					kill(getpid(), SIGTERM);
				else
					MPI_Send(&a, 1, MPI_INT, np + 5, 0,
					    MPI_COMM_WORLD);
				say("crash: not jumped\n");
			} else
				say("crash: survived\n");
			MPI_Comm_set_errhandler(MPI_COMM_WORLD,
			    MPI_ERRORS_ARE_FATAL);
			for (r = 0; r < rounds; r++) {
				snprintf(name, sizeof name, "after.%d", r);
				if (mode[0] == 't') {
					tr_region_begin(name);
					tr_region_end(name);
				} else if (mode[0] == 'e')
					MPI_Sendrecv(&a, 1, MPI_INT, rank, r,
					    &b, 1, MPI_INT, rank, r,
					    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		} else if (strcmp(mode, "termin") == 0) {
			char name[32];

			kill(getpid(), SIGTERM);
			if (handled)
				say("crash: handled\n");
			for (r = 0; r < rounds; r++) {
				snprintf(name, sizeof name, "after.%d", r);
				tr_region_begin(name);
				tr_region_end(name);
			}
		} else if (strncmp(mode, "segv", 4) == 0) {
			volatile int *p = NULL;

			*p = 1;
		} else if (strcmp(mode, "abort") == 0)
			MPI_Abort(MPI_COMM_WORLD, 5);
		else if (strcmp(mode, "mpierr") == 0)
			MPI_Send(&a, 1, MPI_INT, np + 5, 0, MPI_COMM_WORLD);
		else if (strcmp(mode, "winerr") == 0) {
			MPI_Win_lock_all(0, win);
			MPI_Put(&a, 1, MPI_INT, np + 5, 0, 1, MPI_INT, win);
		}
		else if (strcmp(mode, "term") == 0 ||
		    strcmp(mode, "termgo") == 0 ||
		    strcmp(mode, "termexit") == 0)
			kill(getpid(), SIGTERM);
		else if (strcmp(mode, "intign") == 0)
			kill(getpid(), SIGINT);
		else if (strcmp(mode, "kill") == 0)
			kill(getpid(), SIGKILL);
		else if (strcmp(mode, "collkill") == 0) {
			struct itimerval it = { { 0, 0 }, { 0, 100000 } };

			signal(SIGALRM, onalarm);
			setitimer(ITIMER_REAL, &it, NULL);
		}
		else if (strcmp(mode, "heap") == 0) {
			char *volatile p = malloc(100000);

			MPI_Barrier(MPI_COMM_SELF);
			free(p);
			free(p);
		}
	}
	if (strcmp(mode, "collkill") == 0 && rank == 0)
		usleep(500000);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
