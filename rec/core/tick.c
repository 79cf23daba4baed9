/* tick.c - the time-stamp counter as rec_now's clock, for polls: where
 * the kernel's clock is that counter, whose rate is then constant and
 * the same on every CPU, anchors that pair a read of the clock with the
 * counter's, and the rate measured between them. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

/* The kernel's clock source, "tsc" where the counter is its clock. */
static int
kernel_tsc(void)
{
	char b[16] = "";
	int fd = open("/sys/devices/system/clocksource/clocksource0/"
	    "current_clocksource", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, b, sizeof b - 1);
	close(fd);
	return n == 4 && memcmp(b, "tsc\n", 4) == 0;
}

/* A pair of reads whose counter reads are further apart than this was
 * interrupted, its clock read anywhere between: four times the least
 * of a few pairs at start. */
static uint64_t pairmax;

void
rec_tick_init(void)
{
	uint64_t t1, t2, least = UINT64_MAX;
	int i;

	rec.tsc = 0;
	rec.tscmult = 0;
	if (rec.clk != CLOCK_MONOTONIC || !rec_ticks() || !kernel_tsc())
		return;
	for (i = 0; i < 8; i++) {
		t1 = rec_ticks();
		rec_now();
		t2 = rec_ticks();
		if (t2 - t1 < least)
			least = t2 - t1;
	}
	pairmax = 4 * least + 64;
	rec.tsc = 1;
	rec_anchor();
}

/* The counter's reading is the one after the clock's: a time taken
 * from it is behind the clock by the read's own few ns (the rate's
 * error is less), so a call timed by the counter does not end after the
 * clock reads at the next call, nor start before the call that anchored
 * it ended. */
int64_t
rec_anchor(void)
{
	uint64_t t1 = rec_ticks(), t2;
	int64_t w = rec_now(), dn;

	t2 = rec_ticks();
	if (t2 - t1 > pairmax) {
		/* the next poll reads the clock again */
		rec.tscmax = 0;
		return w;
	}
	rec.tsca = t2;
	rec.nsa = w;
	if (!rec.tsc0) {
		rec.tsc0 = t2;
		rec.ns0 = w;
		return w;
	}
	dn = w - rec.ns0;
	if (dn >= 10000000 && t2 > rec.tsc0) {
		double r = (double)dn / (double)(t2 - rec.tsc0);

		rec.tscmult = (uint64_t)(r * 4294967296.0);
		rec.tscmax = rec.tscmult ? (uint64_t)(100000 / r) : 0;
	}
	return w;
}
