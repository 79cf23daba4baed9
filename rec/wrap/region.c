/* region.c - the tr.h entry points (include/tr.h): regions marked by
 * the program, and time it adds. */
#include <string.h>

#include "../buf/buf.h"

/* A region's records are the buffer's, like a call's: the thread claims
 * the recorder for them. One that holds it already is inside a call
 * being recorded or inside the recorder (a signal handler or an MPI
 * callback that marks a region), where a record would go into the slot
 * being filled or ahead of the call's own; one that another thread holds
 * is that thread's. Such a region is not recorded (tr-record(1)). */
static void
region(const char *name, int kind)
{
	struct rrec *r;
	int64_t cpu = -1, t, seq;
	long k;

	if (!rec.on || !rec_claim())
		return;
	if (rec.flpend)
		rec_flush_mark();
	rec_flushed();
	t = rec_now();
	if (rec.cpu) {
		int read;

		cpu = rec_cpuat(t, &read);
	}
	t += rec.shift;
	k = rec_name_index(name);
	if (k < 0) {
		rec_release();
		return;
	}
	seq = rec.seq++;	/* before a flush that keeps the next ones */
	r = rec_slot();
	r->kind = kind;
	r->op = k;
	r->start = r->end = t;
	r->seq = seq;
	r->wtime = rec.wtime;
	r->cpu = rec.cpu ? rec_burst(cpu) : -1;
	rec_commit();
	rec.addcpu = 0;
	if (rec.cpu)
		rec.lastcpu = cpu;
	/* A flush in rec_slot, after the reading: as put() does. */
	rec_flushed();
	rec_release();
}

/* The recorder's region names begin with "tr.": a program's region of
 * that name is recorded as "_tr...", lest tools take its time for a
 * flush and leave it out of the program's. */
static void
user_region(const char *name, int kind)
{
	char buf[256];

	if (name && strncmp(name, "tr.", 3) == 0) {
		size_t n = strnlen(name, sizeof buf - 2);

		buf[0] = '_';
		memcpy(buf + 1, name, n);
		buf[n + 1] = '\0';
		name = buf;
	}
	region(name, kind);
}

REC_API void
tr_rec_region_begin(const char *name)
{
	user_region(name, RK_ENTER);
}

REC_API void
tr_rec_region_end(const char *name)
{
	user_region(name, RK_LEAVE);
}

/* Added to the clock by the next thread to claim the recorder, before
 * its call or region starts (rec_claim): one that another thread holds
 * reads the shift at its call's start and end, and this thread may be
 * that holder itself, in a callback or a handler inside a call. */
REC_API void
tr_rec_add_time(double seconds)
{
	if (!rec.on || !(seconds > 0) || seconds > 1e9)
		return;
	__atomic_fetch_add(&rec.added, (int64_t)(seconds * 1e9),
	    __ATOMIC_RELAXED);
}

REC_API int
tr_rec_active(void)
{
	return rec.on;
}
