/* progress.c - how far a long run has read, on a terminal: the share
 * of its input, records a second, and the time left. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

struct tr_progress {
	double t0, last;
	int shown;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct tr_progress *
tr_progress_new(void)
{
	struct tr_progress *p;

	if (!isatty(2))
		return NULL;
	p = tr_calloc(1, sizeof *p);
	p->t0 = p->last = now();
	return p;
}

static void
human(char *b, size_t n, double v, const char *unit)
{
	const char *pre[] = {"", " k", " M", " G", " T"};
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(b, n, "%.*f%s%s", i && v < 10 ? 1 : 0, v, pre[i], unit);
}

/* The seconds since the start when a line is due, or -1: a run that
 * ends within a second says nothing, and two lines a second suffice. */
static double
due(struct tr_progress *p)
{
	double t = now(), el = t - p->t0;

	if (el < 1 || t - p->last < 0.5)
		return -1;
	p->last = t;
	return el;
}

/* Erased to the line's end: the last one may have been longer. */
static void
show(struct tr_progress *p, const char *line)
{
	if (write(2, line, strlen(line)) >= 0 && write(2, "\033[K", 3) >= 0)
		p->shown = 1;
}

void
tr_progress_tick(struct tr_progress *p, int64_t done, int64_t total,
    int64_t records)
{
	double el;
	char rate[32], size[32], line[160];

	if (!p || (el = due(p)) < 0)
		return;
	human(rate, sizeof rate, records / el, " records/s");
	if (total > 0 && done > 0) {
		double f = (double)done / (double)total, left;

		if (f > 1)
			f = 1;
		left = el / f - el;
		human(size, sizeof size, (double)total, "B");
		snprintf(line, sizeof line, "\r%s: %3.0f%% of %s, %s, "
		    "%d:%02d left", tr_argv0, 100 * f, size, rate,
		    (int)(left / 60), (int)left % 60);
	} else {
		human(size, sizeof size, (double)records, " records");
		snprintf(line, sizeof line, "\r%s: %s read, %s", tr_argv0,
		    size, rate);
	}
	show(p, line);
}

void
tr_progress_items(struct tr_progress *p, long done, long total,
    const char *what)
{
	double el, left;
	char line[160];

	if (!p || done <= 0 || total <= 0 || (el = due(p)) < 0)
		return;
	left = el * (double)(total - done) / (double)done;
	snprintf(line, sizeof line, "\r%s: %ld of %ld %s, %d:%02d left",
	    tr_argv0, done, total, what, (int)(left / 60), (int)left % 60);
	show(p, line);
}

void
tr_progress_end(struct tr_progress *p)
{
	if (!p)
		return;
	if (p->shown && write(2, "\r\033[K", 4) < 0)
		p->shown = 0;
	free(p);
}
