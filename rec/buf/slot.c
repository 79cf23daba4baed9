/* slot.c - the per-rank buffer of binary records, and the tr.flush marks
 * of its flushes. */
#include "buf.h"

/* What empties the buffer when it is full (flush.c's), and what follows
 * once its time is taken. */
static struct {
	void (*flush)(void), (*flushed)(void);
} drain;

void
rec_slot_drain(void (*flush)(void), void (*flushed)(void))
{
	drain.flush = flush;
	drain.flushed = flushed;
}

/* A flush keeps the clock: moving one rank's clock back by the time it
 * spent would put its sends after the receives they ended on other
 * ranks (a 2 s skew after 40 flushes of Ray's). It is marked instead,
 * as region tr.flush, which tools leave out of the program's time; its
 * CPU time stays out of the next record's burst either way. The record
 * being pushed may be one request of a completion whose others follow,
 * so the mark waits for the next call, with sequence numbers kept. */
struct rrec *
rec_slot(void)
{
	if (rec.n == rec.cap) {
		int64_t w0 = rec_now(), c = rec.cpu ? rec_cpunow() : 0, w1;

		drain.flush();
		w1 = rec_now();
		rec.flushns += w1 - w0;
		rec.nflush++;
		if (rec.cpu) {
			c = rec_cpunow() - c;
			rec.flushcpu += c;
		}
		/* Timed: a program's handler run now is the program's time.
		 * The mark comes after, so that one that ends the rank
		 * leaves no sequence number unwritten. */
		drain.flushed();
		if (rec.flushname < 0)
			;
		else if (!rec.flpend) {
			rec.flpend = 1;
			rec.fl0 = w0 + rec.shift;
			rec.fl1 = w1 + rec.shift;
			rec.flcpu = rec.cpu ? c : -1;
			rec.flseq = rec.seq;
			rec.seq += 2;
		} else {
			/* A second flush within the same call's records (a
			 * completion of more requests than the buffer holds):
			 * the time between the two was the recorder's too. */
			rec.fl1 = w1 + rec.shift;
			if (rec.cpu)
				rec.flcpu += c;
		}
	}
	return &rec.buf[rec.n];
}

static void
mark(int kind, int64_t t, int64_t seq, int64_t cpu)
{
	struct rrec *r = rec_slot();

	r->kind = kind;
	r->op = (uint16_t)rec.flushname;
	r->start = r->end = t;
	r->seq = seq;
	r->wtime = rec.wtime;
	r->cpu = cpu;
	rec_commit();
}

/* The mark is read whole before it is written: the buffer may be full
 * at it (a completion filled it after its flush), and the flush that
 * its enter then makes is pending in its place. That one, made now,
 * before the call or region that comes next, is marked here too, after
 * it; its leave took the new one's times and numbers, and the new mark
 * came after the call, out of order (tr-cat: "sequence number goes
 * back"). */
void
rec_flush_mark(void)
{
	int64_t t0, t1, cpu, seq;

	while (rec.flpend) {
		t0 = rec.fl0;
		t1 = rec.fl1;
		cpu = rec.flcpu;
		seq = rec.flseq;
		rec.flpend = 0;
		mark(RK_ENTER, t0, seq, rec.cpu ? 0 : -1);
		mark(RK_LEAVE, t1, seq + 1, cpu);
	}
}
