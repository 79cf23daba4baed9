/* take.c - the recorder had by a crash path or MPI_Finalize: claimed,
 * waited for, or seized from a thread that holds it still. */
#include <time.h>

#include "crash.h"

/* How long the crash paths wait for the thread that holds the recorder
 * (rec_claim): a call holds it for microseconds around its MPI call, a
 * flush for a fraction of a second. A holder that neither flushes nor
 * records for GRACE ns, and over GRACE_NAPS naps (a chance to run on a
 * busy CPU), is taken to wait inside MPI, its records whole; one still
 * busy after TAKE_WAIT ns is left alone. Time by the clock, not naps
 * counted: a nap on a busy CPU took 5 ms, not 0.1, and 3 s became
 * minutes. */
enum { GRACE_NAPS = 100 };
#define GRACE 100000000LL

/* CLOCK_MONOTONIC's ns: async-signal-safe, whatever rec.clk is. */
static int64_t
mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The recorder for a crash path: free (TAKE_CLAIMED, to release), this
 * thread's already (a crash inside MPI, in a call it records), or
 * another thread's, waited for up to WAIT ns (0: looked at once) and
 * with SEIZE (a path that ends the process) seized once that thread has
 * been still for GRACE: its next flush then waits for the end
 * (buf/flush.c), and records it adds meanwhile are not written. A thread
 * seized while it recorded would leave a call half kept (a flush's mark
 * and the sequence numbers kept for it). TAKE_NONE: not had, and nothing
 * may be written. */
int
rec_take(int64_t wait, int seize)
{
	long still = 0;
	int64_t seq = -1, t0 = mono(), now = t0, since = t0;
	const void *was = NULL;

	for (;;) {
		const void *o = __atomic_load_n(&rec.owner, __ATOMIC_ACQUIRE);
		int64_t q = __atomic_load_n(&rec.seq, __ATOMIC_RELAXED);

		if (o == &rec_thread)
			return TAKE_OWN;
		if (!o && rec_claim())
			return TAKE_CLAIMED;
		if (rec_finished)	/* by a thread that seized it */
			return TAKE_NONE;
		if (o != was || q != seq || atomic_load(&rec_guard.flusher)) {
			still = 0;
			since = now;
		}
		was = o;
		seq = q;
		/* Another crashing thread's seizure stands: this one
		 * waits for it to end the process. */
		if (seize && ++still >= GRACE_NAPS && now - since >= GRACE &&
		    rec_mark_own(&rec_guard.seized)) {
			if (!atomic_load(&rec_guard.flusher))
				return TAKE_SEIZED;
			rec_unmark(&rec_guard.seized);
		}
		if (now - t0 >= wait)
			return TAKE_NONE;
		rec_nap();
		now = mono();
	}
}
