/* signal.c - the crash signals: the trace ended before the program's
 * disposition takes its course, or written on for a program that
 * survives SIGTERM or SIGINT. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "crash.h"

static void oncrash(int sig, siginfo_t *si, void *ctx);

static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
	SIGTERM, SIGINT };
/* The values of #meta end.R, in a handler: no strsignal. */
static const char *const fatalname[] = { "SIGSEGV", "SIGBUS", "SIGFPE",
	"SIGILL", "SIGABRT", "SIGTERM", "SIGINT" };
static struct sigaction oldact[sizeof fatal / sizeof fatal[0]];

/* Whether the disposition before ours of signal I is a handler. */
static int
handled(size_t i)
{
	const struct sigaction *a = &oldact[i];

	return (a->sa_flags & SA_SIGINFO) || (a->sa_handler != SIG_DFL &&
	    a->sa_handler != SIG_IGN);
}

/* Whether the program's handler of signal I is called by ours, which
 * keeps the recording on: SIGTERM and SIGINT, which a program may
 * survive; a crash's handler is passed the signal once the stream is
 * ended (pass_on). */
static int
forwards(size_t i)
{
	return (fatal[i] == SIGTERM || fatal[i] == SIGINT) && handled(i);
}

/* Ours in place of the program's disposition of signal I, for good:
 * put back after the first signal, the program's handler got the
 * second one itself, during a flush as well, and its exit() cut the
 * file. Its handler runs from ours under the mask and flags it asked
 * for; on its alternate stack too, which a crash's handler needs (a
 * stack overflow leaves no room for ours on the thread's stack). */
static void
install(size_t i)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = oncrash;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (handled(i)) {
		sa.sa_mask = oldact[i].sa_mask;
		sa.sa_flags |= oldact[i].sa_flags &
		    (SA_RESTART | SA_ONSTACK | SA_NODEFER);
	}
	sigaction(fatal[i], &sa, NULL);
}

/* Calls the program's handler of signal I as the kernel would have. */
static void
forward(size_t i, int sig, siginfo_t *si, void *ctx)
{
	struct sigaction h = oldact[i], cur;

	/* once, then the default action (System V's signal()) */
	if (h.sa_flags & SA_RESETHAND) {
		oldact[i].sa_flags = 0;
		oldact[i].sa_handler = SIG_DFL;
	}
	if (h.sa_flags & SA_SIGINFO)
		h.sa_sigaction(sig, si, ctx);
	else
		h.sa_handler(sig);
	/* A handler that installs one (System V's re-arms itself) put it
	 * in ours' place: ours calls it from now on. One that ignores the
	 * signal is left to. */
	if (sigaction(sig, NULL, &cur) == 0 &&
	    !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == oncrash) &&
	    ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_IGN)) {
		oldact[i] = cur;
		install(i);
	}
}

static int
is_ours(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == oncrash;
}

/* Signal SIG, whose stream is ended, to the disposition that was before
 * ours (I), as if ours had not been there: Open MPI's backtrace, or the
 * program's stack dump. Ours, still the signal's, gives way to that one
 * and the signal is sent again, with its own siginfo, to this thread:
 * blocked while ours runs, it comes once ours returns, and the kernel
 * runs the handler itself, with its mask, flags (SA_RESETHAND,
 * SA_ONSTACK) and a frame of the interrupted code, as it would have; a
 * fault's instruction faults again after. Or the default action, or
 * none for an ignored signal. Ours called by a handler that the program
 * installed over it calls the one before it as that one called ours,
 * the program's left in place. */
static void
pass_on(size_t i, int sig, siginfo_t *si, void *ctx)
{
	struct sigaction cur, h = oldact[i];
	sigset_t mask, was;

	if (sigaction(sig, NULL, &cur) == 0 && !is_ours(&cur) &&
	    handled(i)) {
		mask = h.sa_mask;
		if (!(h.sa_flags & SA_NODEFER))
			sigaddset(&mask, sig);
		if (h.sa_flags & SA_RESETHAND) {
			oldact[i].sa_flags = 0;
			oldact[i].sa_handler = SIG_DFL;
		}
		pthread_sigmask(SIG_BLOCK, &mask, &was);
		if (h.sa_flags & SA_SIGINFO)
			h.sa_sigaction(sig, si, ctx);
		else
			h.sa_handler(sig);
		pthread_sigmask(SIG_SETMASK, &was, NULL);
		return;
	}
	sigaction(sig, &h, NULL);
	if (!si || syscall(SYS_rt_tgsigqueueinfo, getpid(),
	    (pid_t)syscall(SYS_gettid), sig, si) < 0)
		raise(sig);
}

static void crashed(int sig, siginfo_t *si, void *ctx);

static void
oncrash(int sig, siginfo_t *si, void *ctx)
{
	int e = errno, was = rec_insig;

	rec_insig = was + 1;
	crashed(sig, si, ctx);
	/* Set, not counted down: a jump within the program's handler,
	 * which returned, was taken for one out of it (jump.c) */
	rec_insig = was;
	errno = e;
}

static void
crashed(int sig, siginfo_t *si, void *ctx)
{
	const char *why = "signal";
	size_t i;

	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		if (fatal[i] == sig) {
			why = fatalname[i];
			break;
		}
	/* This thread was writing the trace, and zlib's stream is not
	 * reentrant: a SIGTERM or SIGINT waits for the flush to end, which
	 * raises it again (rec_flush_raise). A fault in the writer itself has
	 * no safe way out: the file ends at the flush before, cut, which
	 * tr-cat reads and says. */
	if (atomic_load_explicit(&rec_guard.flusher, memory_order_relaxed) ==
	    &rec_thread) {
		if (sig == SIGTERM || sig == SIGINT) {
			rec_guard.pending[sig == SIGINT] = 1;
			return;
		}
		rec_warn("%s while writing the trace: it ends cut, at the "
		    "last flush", why);
		pass_on(i, sig, si, ctx);
		return;
	}
	/* An application's own SIGTERM/SIGINT handler still runs, and the
	 * program may go on (GROMACS stops at its next step and calls
	 * MPI_Finalize): the records so far are written, the stream stays
	 * open, and should the program exit before MPI_Finalize its mark
	 * names the signal. */
	if (i < sizeof fatal / sizeof fatal[0] && forwards(i)) {
		/* Only a free recorder: a flush would empty the buffer
		 * under a record this thread may be adding. */
		if (!rec_finished && rec_take(0, 0) == TAKE_CLAIMED) {
			rec_flush_now(0);
			rec_release();
		}
		if (!rec_finished)
			rec_crash.sigwhy = why;
		forward(i, sig, si, ctx);
		rec_flush_raise();
		return;
	}
	rec_exit_early(why);
	if (rec_finished && rec_head.endwhy == why)
		rec_crash.crashend = 1;
	pass_on(i, sig, si, ctx);
}

/* Ours in place of the program's disposition of each fatal signal. */
void
rec_signal_init(void)
{
	size_t i;

	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		sigaction(fatal[i], NULL, &oldact[i]);
		/* A signal the program ignores (SIGINT in a job started in
		 * the background) must not end it now. */
		if ((oldact[i].sa_flags & SA_SIGINFO) ||
		    oldact[i].sa_handler != SIG_IGN)
			install(i);
	}
}
