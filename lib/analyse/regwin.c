/* regwin.c - a time window that keeps regions whole.
 *
 * A window keeps the records whose span overlaps it. A region's span
 * runs from its enter record to its leave record, so judging the two
 * as instants keeps one half of every region that crosses an end of
 * the window, and every tool that follows regions (tr-profile, and
 * tr-stat and tr-delta for tr-record's flushes) then refuses the
 * selection: a leave of a region the rank is not in.
 *
 * A region that starts before the window is decided later: it overlaps
 * if the rank has a record kept while the region is open (that record
 * ends after the window's start, and the region encloses it), or if it
 * leaves after the window's start. Its enter waits, copied, until then;
 * what waits is at most each rank's nesting of regions.
 *
 * Inverted (tr-filter -v), a region would have to wait for its leave
 * while the records it encloses are written, so a region is kept or
 * dropped with its enter, judged as an instant, and its leave follows. */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

enum { DROP, KEEP, UNDECIDED };

struct open {
	int win;		/* DROP, KEEP or UNDECIDED */
	char *line;		/* an undecided enter that passed the other
				 * tests, to write if it is kept */
	size_t len;
};

struct stack {
	struct open *v;
	size_t n, cap;
};

struct tr_regwin {
	int64_t t0, t1;
	int invert;
	struct stack *ranks;
	size_t nranks, cap;
};

struct tr_regwin *
tr_regwin_new(int64_t t0, int64_t t1, int invert)
{
	struct tr_regwin *w = tr_calloc(1, sizeof *w);

	w->t0 = t0;
	w->t1 = t1;
	w->invert = invert;
	return w;
}

static struct stack *
stack(struct tr_regwin *w, int64_t rank)
{
	size_t r = (size_t)rank;

	if (r >= w->nranks) {
		tr_grow(&w->ranks, &w->cap, r + 1, sizeof *w->ranks);
		memset(w->ranks + w->nranks, 0,
		    (r + 1 - w->nranks) * sizeof *w->ranks);
		w->nranks = r + 1;
	}
	return &w->ranks[r];
}

void
tr_regwin_kept(struct tr_regwin *w, struct tr_out *o, int64_t rank)
{
	struct stack *s;
	size_t i;

	if (w->invert || rank < 0 || (size_t)rank >= w->nranks)
		return;
	s = &w->ranks[rank];
	for (i = 0; i < s->n; i++) {
		struct open *p = &s->v[i];

		if (p->win != UNDECIDED)
			continue;
		p->win = KEEP;
		if (p->line) {
			tr_out_write(o, p->line, p->len);
			tr_out_c(o, '\n');
			free(p->line);
			p->line = NULL;
		}
	}
}

static int
instant(const struct tr_regwin *w, int64_t t)
{
	return t >= w->t0 && t < w->t1;
}

int
tr_regwin_test(struct tr_regwin *w, struct tr_out *o, const struct tr_rec *r,
    int ok)
{
	const struct tr_reg *g = &r->u.reg;
	struct stack *s;
	struct open *p;
	int win;

	if (g->rank < 0 || g->rank > (1 << 24))
		return instant(w, g->time);
	s = stack(w, g->rank);
	if (!g->leave) {
		if (w->invert || g->time >= w->t0)
			win = instant(w, g->time) ? KEEP : DROP;
		else
			win = UNDECIDED;
		/* the regions around a kept one overlap the window too */
		if (win == KEEP)
			tr_regwin_kept(w, o, g->rank);
		tr_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
		p = &s->v[s->n++];
		p->win = win;
		p->line = win == UNDECIDED && ok ?
		    tr_strndup(r->line, r->len) : NULL;
		p->len = r->len;
		return win == KEEP;
	}
	if (s->n == 0)
		return instant(w, g->time);
	p = &s->v[s->n - 1];
	if ((win = p->win) == UNDECIDED)
		win = g->time > w->t0 ? KEEP : DROP;
	/* writes its enter if held, and those of the regions around it */
	if (win == KEEP)
		tr_regwin_kept(w, o, g->rank);
	free(p->line);
	s->n--;
	return win == KEEP;
}

/* A new section: regions left open in the last one never end. */
void
tr_regwin_reset(struct tr_regwin *w)
{
	size_t r, i;

	for (r = 0; r < w->nranks; r++) {
		for (i = 0; i < w->ranks[r].n; i++)
			free(w->ranks[r].v[i].line);
		w->ranks[r].n = 0;
	}
}

void
tr_regwin_free(struct tr_regwin *w)
{
	size_t r;

	if (!w)
		return;
	tr_regwin_reset(w);
	for (r = 0; r < w->nranks; r++)
		free(w->ranks[r].v);
	free(w->ranks);
	free(w);
}
