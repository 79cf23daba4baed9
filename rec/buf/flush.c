/* flush.c - the buffer's flush into the trace: by one thread at a
 * time, guarded against the crash paths, the signals that come during
 * it kept until it is done. */
#include <signal.h>
#include <stddef.h>
#include <sys/select.h>

#include "buf.h"

struct rec_guard rec_guard;
static size_t wrote;	/* records the seizing thread wrote (written) */

/* A tenth of a millisecond's sleep: pselect, async-signal-safe (POSIX
 * does not say so of nanosleep). */
void
rec_nap(void)
{
	struct timespec ts = { 0, 100000 };

	pselect(0, NULL, NULL, NULL, &ts, NULL);
}

/* Sets *M to this thread if it is free; 1 if it is this thread's now. */
int
rec_mark_own(_Atomic(const void *) *m)
{
	const void *none = NULL;

	return atomic_compare_exchange_strong(m, &none, &rec_thread) ||
	    none == &rec_thread;
}

/* Clears *M if it is this thread's, and only then: a thread that let go
 * never clears the mark that another has set since. */
void
rec_unmark(_Atomic(const void *) *m)
{
	const void *me = &rec_thread;

	atomic_compare_exchange_strong(m, &me, NULL);
}

/* Marks this thread as the flusher, unless another thread seized the
 * recorder to end it (rec_take): then waits for that end, and returns 0.
 * Sequentially consistent, with rec_take's side, so that never both go on:
 * each sets its own mark, then reads the other's. The flusher's mark is
 * taken by compare-and-swap, so that an owner that wakes up while the
 * seizing thread flushes neither writes over that thread's mark nor,
 * backing off, clears it; it waits for the mark to be free. */
static int
flush_begin(void)
{
	for (;;) {
		if (rec_mark_own(&rec_guard.flusher)) {
			const void *s = atomic_load(&rec_guard.seized);

			if (!s || s == &rec_thread)
				return 1;
			rec_unmark(&rec_guard.flusher);
		}
		if (rec_finished || rec_failed)
			return 0;
		rec_nap();
	}
}

/* The flusher lets go (flush_end) before rec_flush_raise reads what came
 * meanwhile: a signal that comes later is handled at once, and one that
 * came before is in pending. The caller raises them once it has taken
 * the flush's time, so that a program's handler run then is not counted
 * in the tr.flush mark. */
static void
flush_end(void)
{
	rec_unmark(&rec_guard.flusher);
}

void
rec_flush_raise(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (rec_guard.pending[i]) {
			rec_guard.pending[i] = 0;
			raise(i ? SIGINT : SIGTERM);
		}
}

/* The buffer's records before N are written, or dropped. Its count is
 * its holder's: a thread that seized the recorder from another (rec_take)
 * leaves it, which that one may be adding to (set back under it, it
 * would count a record twice or lose one), and keeps where it got to. */
static void
written(size_t n)
{
	if (atomic_load_explicit(&rec_guard.seized, memory_order_relaxed) ==
	    &rec_thread)
		wrote = n;
	else {
		rec.n = 0;
		__atomic_add_fetch(&rec.emptied, 1, __ATOMIC_RELEASE);
	}
}

/* Text and compression happen here, off the hot path. FINAL ends the
 * gzip stream; otherwise a sync flush makes everything written so far
 * decodable should the process be killed. */
void
rec_flush_now(int final)
{
	size_t i0, n;

	if (atomic_load_explicit(&rec_guard.flusher, memory_order_relaxed) ==
	    &rec_thread || rec_finished || rec_failed || !rec_out_ready()) {
		written(rec.n);
		return;
	}
	/* (Only by the recorder's owner: a thread that seized it from
	 * another adds nothing to that thread's buffer.) */
	if (final && rec.flpend &&
	    __atomic_load_n(&rec.owner, __ATOMIC_RELAXED) == &rec_thread) {
		/* The buffer that this mark waits in may be full: the
		 * records go out first, untimed, since no call follows. */
		if (rec.n + 2 > rec.cap)
			rec_flush_now(0);
		rec_flush_mark();
	}
	if (!flush_begin()) {
		written(rec.n);
		return;
	}
	if (!rec_insig)
		rec_mod_fresh();
	/* Once seized, the owner may still add records past these. */
	n = rec.n;
	i0 = atomic_load_explicit(&rec_guard.seized, memory_order_relaxed) ==
	    &rec_thread ? wrote : 0;
	if (rec.others)
		rec_unrecorded(UNREC_THREADS);
	rec_text_head(i0, n);
	rec_text_records(i0, n);
	written(n);
	rec_text_tail(final);
	if (final) {
		rec_finished = 1;
		rec_out_close();
		rec.on = 0;
	}
	flush_end();
}

void
rec_flush(int final)
{
	rec_flush_now(final);
	rec_flush_raise();
}

static void
flush_full(void)
{
	rec_flush_now(0);
}

void
rec_flush_init(void)
{
	rec_slot_drain(flush_full, rec_flush_raise);
}
