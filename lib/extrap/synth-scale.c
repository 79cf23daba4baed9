/* synth-scale.c - off a grid, the template's bursts scaled at the
 * target by the delta-sum models of their intervals.
 *
 * A cycle of peers that grows with P (the log2 P partners of a
 * butterfly, the P - 1 of a transpose) repeats the burst of its last
 * place at every place beyond the template's (syn_peer_span), in the
 * interval from the call site to itself. A burst drawn once per cycle
 * (compute, then the exchanges) is then written once, and the places
 * added bring the near-zero gaps between calls; a burst drawn once per
 * place (compute before each exchange) is written at every place. The
 * template tells which: an interval's factor is its model's change
 * from the template's scale to the target times the template's sums
 * per rank over the sums the target's ranks write of the same bursts,
 * so the sums change as the models say either way, compute that
 * shrinks with the ranks (strong scaling) with them. Anchored on the
 * template's own sums, not on the model's value there, a flat model
 * (weak scaling) leaves the bursts as they are. The template's noise
 * keeps its shape, scaled.
 *
 * Of the sums per rank, the mean over the ranks that have the
 * interval or the largest: whichever model cross-validates better.
 * The ranks that have an interval can mix ranks that compute with
 * ranks that do not in shares that change with P (the senders of a
 * binomial tree: the root computes, inner nodes forward; their mean,
 * 234, 58 and 15 ms at 4, 8 and 16 ranks, fits no term), where the
 * largest is the computing ranks'; of ranks alike, the mean is the
 * steadier (the largest of noisy sums fitted a constant term that the
 * mean did not, 13 % too slow at 32 ranks). */
#include "synth-int.h"

/* The delta-sum models of every interval at the target. */
static void
scale_models(struct tr_syn *s)
{
	const struct tr_xp *x = s->xp;
	size_t i;

	s->smapk = tr_map_new();
	for (i = 0; i < tr_xp_ngroups(x); i++) {
		const char *type, *key;
		struct bscale *b;
		double v, v2, pts;
		char *k;
		long j;

		type = tr_xp_group(x, i, &key);
		if (strcmp(type, "dsum") != 0 ||
		    !(k = tr_flat_keyval(key, "key")))
			continue;
		j = tr_map_get(s->smapk, k, strlen(k), 1);
		free(k);
		tr_growz(&s->bsc, &s->bsccap, (size_t)j + 1, sizeof *s->bsc);
		if ((size_t)j + 1 > s->nbsc)
			s->nbsc = (size_t)j + 1;
		b = &s->bsc[j];
		b->max = tr_xp_cv(x, (long)i, "wall:max", &pts) <
		    tr_xp_cv(x, (long)i, "wall:mean", &pts);
		/* A prediction below zero has no meaning as a time. */
		b->dw[0] = b->dw[1] = b->dc[0] = b->dc[1] = -1;
		if (tr_xp_get(x, (long)i, b->max ? "wall:max" : "wall:mean",
		    &v, &v2) == 0 && v >= 0 && v2 >= 0) {
			b->dw[0] = v;
			b->dw[1] = v2;
		}
		if (tr_xp_get(x, (long)i, b->max ? "cpu:max" : "cpu:mean",
		    &v, &v2) == 0 && v >= 0 && v2 >= 0) {
			b->dc[0] = v;
			b->dc[1] = v2;
		}
	}
}

/* Adds W and C, the burst of interval K times COPIES, to the sums of
 * rank R (a target rank, or -1 - a template rank): SUMS[2 i] and
 * SUMS[2 i + 1] for entry i of TK, the pairs (rank, interval). */
static void
add_sum(struct tr_map *tk, double **sums, size_t *cap, long r, long k,
    double w, double c, double copies)
{
	int64_t pair[2] = {r, k};
	long at = tr_map_get(tk, (const char *)pair, sizeof pair, 1);

	tr_growz(sums, cap, 2 * (size_t)at + 2, sizeof **sums);
	(*sums)[2 * at] += w * copies;
	if (c >= 0)
		(*sums)[2 * at + 1] += c * copies;
}

/* The index of interval KEY among the models, or -1. */
static long
key_index(struct tr_syn *s, const char *key)
{
	return tr_map_get(s->smapk, key, strlen(key), 0);
}

/* Template rank E->rank's burst before E, added to its sums and to
 * those of the target ranks that follow it (FOL[FIRST[rank]] on) as
 * they write it: the first record of its span in the template's
 * interval, the places beyond the template's cycle in the interval
 * from E's call site to itself. */
static void
learn_burst(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    struct tmpl *p, const long *first, const long *fol, struct tr_map *tk,
    double **sums, size_t *cap)
{
	int shared = p->seen && e->seq == p->pseq;
	long j = 0, m = 0, n = 0, i, k = -1, kl = -1, kg, lo, hi, ii;
	int pat = syn_peer_pos(s, in, e, &j, &m);
	double w = (double)(e->start - p->pend), c = (double)e->cpu;

	if (p->seen && !shared) {
		k = key_index(s, interval_key(s, p, e));
		if (pat) {
			(void)syn_scale_loop(s, e);
			kl = key_index(s, s->lkey);
		}
	}
	if (k >= 0) {
		s->bsc[k].pat |= pat;
		add_sum(tk, sums, cap, -1 - (long)e->rank, k, w, c, 1);
	}
	for (i = first[e->rank]; p->seen && !shared &&
	    i < first[e->rank + 1]; i++) {
		lo = 0;
		hi = 1;
		if (pat)
			n = syn_peer_span(s, in, e, fol[i], j, m, &lo, &hi);
		if (pat && s->pgrp >= 0) {
			/* a reduction's places, each in the interval the
			 * follower's calls give it */
			for (ii = lo; ii < hi; ii++)
				if ((kg = key_index(s, syn_peer_key(s, p, lo, ii,
				    n))) >= 0) {
					s->bsc[kg].pat = 1;
					add_sum(tk, sums, cap, fol[i], kg, w, c,
					    1);
				}
			continue;
		}
		if (k >= 0 && hi > lo)
			add_sum(tk, sums, cap, fol[i], k, w, c, 1);
		if (kl >= 0 && hi - lo > 1) {
			s->bsc[kl].pat = 1;
			add_sum(tk, sums, cap, fol[i], kl, w, c,
			    (double)(hi - lo - 1));
		}
	}
	tmpl_step(p, e, shared, pat ? s->pgrp : -1);
}

/* The mean or largest of sums A of interval B; 0 if none. */
static double
stat_of(const struct bscale *b, const struct bsum *a, int cpu)
{
	double v = cpu ? a->c : a->w;

	return b->max || a->n <= 0 ? v : v / a->n;
}

/* The factor that changes the sums of the template from those the
 * target writes as model D changes from the template's scale to the
 * target: -1 without a model or a burst to scale. */
static double
factor(const struct bscale *b, const double *d, int cpu)
{
	double st = stat_of(b, &b->at[0], cpu), ss = stat_of(b, &b->at[1],
	    cpu);

	if (d[0] < 0 || d[1] <= 0 || st <= 0 || ss <= 0)
		return -1;
	return d[0] / d[1] * ss / st;
}

void
syn_scale_learn(struct tr_syn *s)
{
	long t, q, P = s->P, *first, *fol, *at;
	struct tr_map *tk = tr_map_new();
	double *sums = NULL;
	size_t i, cap = 0, len;
	struct tmpl *tm;
	struct tr_in *in;
	struct tr_rec r;
	struct tr_ev e;
	int c;

	scale_models(s);
	first = tr_calloc((size_t)P + 1, sizeof *first);
	at = tr_calloc((size_t)P, sizeof *at);
	fol = tr_calloc((size_t)s->nt, sizeof *fol);
	for (t = 0; t < s->nt; t++)
		first[s->rep[t] + 1]++;
	for (q = 0; q < P; q++)
		first[q + 1] += first[q];
	for (t = 0; t < s->nt; t++)
		fol[first[s->rep[t]] + at[s->rep[t]]++] = t;
	tm = tr_calloc((size_t)P, sizeof *tm);
	in = tr_open(s->nfiles, s->files);
	syn_carry_reset(s);
	while (s->nbsc && (c = tr_next(in, &r)) != TR_EOF)
		if (c == TR_REC && syn_carry(s, &r, &e))
			learn_burst(s, in, &e, &tm[e.rank], first, fol, tk,
			    &sums, &cap);
	tr_close(in);
	/* pass 2 walks the cycles from their start again */
	syn_peer_rewind(s);
	for (i = 0; i < tr_map_len(tk); i++) {
		int64_t pair[2];
		struct bscale *b;
		struct bsum *a;

		memcpy(pair, tr_map_key(tk, (long)i, &len), sizeof pair);
		b = &s->bsc[pair[1]];
		a = &b->at[pair[0] < 0];
		a->n++;
		if (!b->max) {
			a->w += sums[2 * i];
			a->c += sums[2 * i + 1];
		} else {
			if (sums[2 * i] > a->w)
				a->w = sums[2 * i];
			if (sums[2 * i + 1] > a->c)
				a->c = sums[2 * i + 1];
		}
	}
	for (i = 0; i < s->nbsc; i++) {
		struct bscale *b = &s->bsc[i];

		b->fw = factor(b, b->dw, 0);
		b->fc = factor(b, b->dc, 1);
		if (b->fw < 0)
			b->fw = 1;
		if (b->fc < 0)
			b->fc = b->fw;
	}
	for (q = 0; q < P; q++)
		free(tm[q].psite);
	free(tm);
	free(first);
	free(at);
	free(fol);
	free(sums);
	tr_map_free(tk);
}

const struct bscale *
syn_scale_get(struct tr_syn *s, const char *key)
{
	long k;

	if (!s->smapk)
		return NULL;
	k = tr_map_get(s->smapk, key, strlen(key), 0);
	return k >= 0 && s->bsc[k].pat ? &s->bsc[k] : NULL;
}

const struct bscale *
syn_scale_loop(struct tr_syn *s, const struct tr_ev *e)
{
	size_t n = e->site.n;

	tr_grow(&s->lkey, &s->lkeycap, 2 * n + 2, 1);
	memcpy(s->lkey, e->site.p, n);
	s->lkey[n] = '>';
	memcpy(s->lkey + n + 1, e->site.p, n);
	s->lkey[2 * n + 1] = '\0';
	return syn_scale_get(s, s->lkey);
}
