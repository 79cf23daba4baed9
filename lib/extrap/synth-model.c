/* synth-model.c - what the models predict at the target for tr_syn:
 * the delta times of each interval, from predicted bins or quantiles,
 * and the bytes of messages. */
#include "synth-int.h"

static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The bins of interval KEY's FIELD: wall time, or CPU time (cpu != 0),
 * kept under the key behind "cpu" and a TAB, which no key holds. */
struct binset *
syn_binset_get(struct tr_syn *s, const char *key, int cpu, int add)
{
	size_t n = strlen(key);
	long i;

	if (cpu) {
		tr_grow(&s->bkey, &s->bkeycap, n + 4, 1);
		memcpy(s->bkey, "cpu\t", 4);
		memcpy(s->bkey + 4, key, n);
		key = s->bkey;
		n += 4;
	}
	i = tr_map_get(s->bmap, key, n, add);

	if (i < 0)
		return NULL;
	if ((size_t)i >= s->nbins) {
		tr_grow(&s->bins, &s->bincap, (size_t)i + 1, sizeof *s->bins);
		memset(s->bins + s->nbins, 0, ((size_t)i + 1 - s->nbins) *
		    sizeof *s->bins);
		s->nbins = (size_t)i + 1;
	}
	return &s->bins[i];
}

/* The predicted quantiles of hist group G at the target (QT) and at the
 * template's scale (QS); 0 unless all five are modelled and usable. */
static int
get_quantiles(const struct tr_xp *x, long g, double *qt, double *qs)
{
	static const char *qn[] = {"q10", "q25", "q50", "q75", "q90"};
	int i;

	for (i = 0; i < 5; i++)
		if (tr_xp_get(x, g, qn[i], &qt[i], &qs[i]) < 0)
			return 0;
	/* Fits of neighbouring quantiles may cross (LAMMPS's main force
	 * interval at 16 ranks: q90 below q10). Sorted, they keep the
	 * spread the fits predict; ordered outwards from the median
	 * instead, that interval collapsed to one value. */
	tr_sort(qt, 5, sizeof *qt, tr_cmp_f64);
	tr_sort(qs, 5, sizeof *qs, tr_cmp_f64);
	/* A noisy fit must not turn into a wild scaling. */
	for (i = 0; i < 5; i++)
		if (!(qs[i] > 0) || !(qt[i] >= 0) || qt[i] / qs[i] > 10 ||
		    qt[i] / qs[i] < 0.1)
			return 0;
	return 1;
}

/* Gathers the predicted wall-time and CPU-time histograms by interval
 * key. */
void
syn_collect_bins(struct tr_syn *s)
{
	const struct tr_xp *x = s->xp;
	size_t i;

	for (i = 0; i < tr_xp_ngroups(x); i++) {
		const char *type, *key;
		double lo, hi, cnt, mean, lo2, hi2, cnt2, mean2;
		int hasmean, hascnt;
		struct binset *bs;
		long bi, g = (long)i;
		char *f, *k = NULL, *b = NULL;
		int cpu = 0;

		type = tr_xp_group(x, i, &key);
		f = tr_flat_keyval(key, "field");
		if (f && (strcmp(f, "wall") == 0 ||
		    (cpu = strcmp(f, "cpu") == 0)))
			k = tr_flat_keyval(key, "key");
		free(f);
		if (!k)
			continue;
		if (strcmp(type, "hist") == 0) {
			hasmean = tr_xp_get(x, g, "mean", &mean, &mean2) == 0;
			hascnt = tr_xp_get(x, g, "n", &cnt, &cnt2) == 0;
			bs = syn_binset_get(s, k, cpu, 1);
			/* A noisy fit must not turn into a wild scaling. */
			if (hasmean && mean2 > 0 && mean >= 0 &&
			    mean / mean2 <= 10 && mean / mean2 >= 0.1)
				bs->ratio = mean / mean2;
			bs->hn = hascnt ? cnt : -1;
			bs->hasq = get_quantiles(x, g, bs->qt, bs->qs);
			free(k);
			continue;
		}
		if (strcmp(type, "bin") == 0)
			b = tr_flat_keyval(key, "bin");
		bi = b ? strtol(b, NULL, 10) : -1;
		free(b);
		if (bi < 0 || bi >= 64 ||
		    tr_xp_get(x, g, "lo", &lo, &lo2) < 0 ||
		    tr_xp_get(x, g, "hi", &hi, &hi2) < 0 ||
		    tr_xp_get(x, g, "count", &cnt, &cnt2) < 0 ||
		    tr_xp_get(x, g, "mean", &mean, &mean2) < 0) {
			free(k);
			continue;
		}
		bs = syn_binset_get(s, k, cpu, 1);
		free(k);
		bs->lo[bi] = lo;
		bs->hi[bi] = hi;
		bs->cnt[bi] = cnt > 0 ? round(cnt) : 0;
		bs->mean[bi] = mean;
		if (bi + 1 > bs->n)
			bs->n = (int)bi + 1;
	}
}

/* Predicted bins are drawn from only when they form a histogram: bounds
 * in order, means inside, counts adding up to the predicted n. */
void
syn_check_bins(struct tr_syn *s)
{
	size_t k;
	int i;

	for (k = 0; k < s->nbins; k++) {
		struct binset *bs = &s->bins[k];
		double tot = 0;

		bs->sane = bs->n > 0;
		for (i = 0; i < bs->n; i++) {
			tot += bs->cnt[i];
			if (bs->hi[i] < bs->lo[i] || (i > 0 && bs->lo[i] <
			    bs->hi[i - 1] - 1e-9 * fabs(bs->hi[i - 1])) ||
			    (bs->cnt[i] > 0 && (bs->mean[i] < bs->lo[i] ||
			    bs->mean[i] > bs->hi[i])))
				bs->sane = 0;
		}
		if (bs->hn > 0 && fabs(tot - bs->hn) > 0.1 * bs->hn)
			bs->sane = 0;
	}
}

/* The burst TDELTA of the template moved to the same quantile of the
 * predicted distribution at the target, piecewise linear between the
 * predicted quantiles at both scales: the bursts follow the predicted
 * quantiles, and a warm-up or the noise keeps its place. Outside
 * q10..q90 the end quantile's ratio applies: the extremes, one burst
 * each, fit worst (with them as ends the stencil's slow 5 % came out
 * 30 % too slow at 64 ranks). */
static int64_t
qmap(const struct binset *bs, int64_t tdelta)
{
	const double *s = bs->qs, *t = bs->qt;
	double v = (double)tdelta;
	int i;

	if (v <= s[0]) {
		v *= t[0] / s[0];
	} else if (v >= s[4]) {
		v *= t[4] / s[4];
	} else {
		for (i = 0; i < 3 && v > s[i + 1]; i++)
			;
		v = t[i] + (v - s[i]) / (s[i + 1] - s[i]) * (t[i + 1] - t[i]);
	}
	return v > 0 ? rnd64(v) : 0;
}

/* A delta of an interval with predicted bins BS: the template's, TDELTA,
 * mapped through the predicted quantiles, else drawn from the bins when
 * they form a histogram, else scaled by the predicted change of the
 * mean. */
int64_t
syn_draw(const struct binset *bs, int64_t tdelta, uint64_t *rng)
{
	double tot = 0, u, v;
	int i;

	if (!bs)
		return tdelta;
	if (bs->hasq)
		return qmap(bs, tdelta);
	for (i = 0; i < bs->n; i++)
		tot += bs->cnt[i];
	if (!bs->sane)
		tot = 0;
	if (tot <= 0)
		return bs->ratio > 0 ? rnd64(tdelta * bs->ratio) :
		    tdelta;
	u = (double)(splitmix(rng) >> 11) / 9007199254740992.0 * tot;
	for (i = 0; i < bs->n - 1 && u >= bs->cnt[i]; i++)
		u -= bs->cnt[i];
	v = bs->mean[i];
	if (v < bs->lo[i])
		v = bs->lo[i];
	if (bs->hi[i] > bs->lo[i] && v > bs->hi[i])
		v = bs->hi[i];
	return v > 0 ? rnd64(v) : 0;
}

/* Bytes per call of OP (N bytes) predicted at the target over those at
 * the template's scale, from opstat models: 1 without them, and the
 * template's bytes in *TB. */
static double
byteratio_of(const struct tr_syn *s, const char *op, size_t n, double *tb)
{
	char key[256 - sizeof "opstat"];
	double b, b2, c, c2;
	long gi;

	*tb = 0;
	snprintf(key, sizeof key, "op=%.*s", (int)n, op);
	gi = tr_xp_find(s->xp, "opstat", key);
	if (gi < 0 || tr_xp_get(s->xp, gi, "bytes", &b, &b2) < 0 ||
	    tr_xp_get(s->xp, gi, "calls", &c, &c2) < 0 ||
	    b2 <= 0 || c2 <= 0 || c <= 0 || b < 0)
		return 1;
	*tb = b2;
	return (b / c) / (b2 / c2);
}

double
syn_byteratio(const struct tr_syn *s, const struct tr_field *op)
{
	double tb;

	return byteratio_of(s, op->p, op->n, &tb);
}

/* The point-to-point sends whose sizes tell how halos scale. */
static const char *const sends[] = { "MPI_Isend", "MPI_Send",
    "MPI_Sendrecv", "MPI_Issend", "MPI_Ssend", "MPI_Irsend", "MPI_Rsend",
    "MPI_Ibsend", "MPI_Bsend", NULL };

/* A larger problem at the template's count: the bytes per message of
 * the point-to-point op that moves most, its model at (P, N) over that
 * at (P, tN), so that a halo grows with the grid at a fixed
 * decomposition; 1 without the sizes or a model. */
double
syn_size_ratio(const struct tr_syn *s)
{
	double best = 0, r = 1, b, b2, c, c2, bn, cn;
	char key[32];
	size_t i;
	long gi;

	if (!(s->tN > 0) || !(s->N > 0) || s->N == s->tN)
		return 1;
	for (i = 0; sends[i]; i++) {
		snprintf(key, sizeof key, "op=%s", sends[i]);
		gi = tr_xp_find(s->xp, "opstat", key);
		if (gi < 0 || tr_xp_get(s->xp, gi, "bytes", &b, &b2) < 0 ||
		    tr_xp_get(s->xp, gi, "calls", &c, &c2) < 0 ||
		    tr_xp_at(s->xp, gi, "bytes", (double)s->P, s->N, &bn) < 0 ||
		    tr_xp_at(s->xp, gi, "calls", (double)s->P, s->N, &cn) < 0 ||
		    !(b2 > best) || !(c2 > 0) || !(bn > 0) || !(cn > 0))
			continue;
		best = b2;
		r = (bn / cn) / (b2 / c2);
	}
	return isfinite(r) && r > 0 ? r : 1;
}

/* A grid whose dimensions are all equal cannot show strong scaling in
 * its halo sizes (syn_strong_scaling()); the models can: bytes per message
 * of the point-to-point op that moves most, predicted at the target,
 * nearer to the strong-scaling surface ratio (P / nt)^((d - 1) / d)
 * than to 1 (weak scaling: the same); -1 when no model tells. */
int
syn_strong_by_models(const struct tr_syn *s)
{
	double r = 1, best = 0, tb, x, e;
	size_t i;

	for (i = 0; sends[i]; i++) {
		x = byteratio_of(s, sends[i], strlen(sends[i]), &tb);
		if (tb > best) {
			best = tb;
			r = x;
		}
	}
	if (s->g.nd < 2 || s->nt == s->P)
		return 0;
	if (best <= 0 || !(r > 0))
		return -1;
	/* what a larger problem adds is not the count's doing */
	r /= s->nratio;
	e = pow((double)s->P / (double)s->nt,
	    (double)(s->g.nd - 1) / s->g.nd);
	return fabs(log(r) - log(e)) < fabs(log(r));
}

/* Whether the messages E's op sends from E's call site keep their size
 * at every scale: the msite models (tr-stat -s) of the runs fitted
 * predict the same bytes per message at the target as at the
 * template. LAMMPS sends the count of atoms to come, 4 bytes, before
 * each halo: scaled as the halo, it came out 2. */
int
syn_site_kept(struct tr_syn *s, const struct tr_ev *e)
{
	char key[512];
	double v, v2;
	size_t i, n;
	long g, k;

	n = e->op.n + 1 + e->site.n;
	tr_grow(&s->rkey, &s->rkeycap, n, 1);
	memcpy(s->rkey, e->op.p, e->op.n);
	s->rkey[e->op.n] = '\t';
	memcpy(s->rkey + e->op.n + 1, e->site.p, e->site.n);
	k = tr_map_get(s->keptmap, s->rkey, n, 1);
	tr_growz(&s->kept, &s->keptcap, (size_t)k + 1, 1);
	if (s->kept[k])
		return s->kept[k] - 1;
	s->kept[k] = 1;
	n = (size_t)snprintf(key, sizeof key, "op=%.*s;site=",
	    (int)e->op.n, e->op.p);
	for (i = 0; i < e->site.n && n + 4 < sizeof key; i++) {
		unsigned char ch = (unsigned char)e->site.p[i];

		/* escaped as tr-fit writes its keys */
		if (ch == ';' || ch == '%' || ch == '=')
			n += (size_t)snprintf(key + n, sizeof key - n, "%%%02X",
			    ch);
		else
			key[n++] = (char)ch;
	}
	if (i < e->site.n)
		return 0;
	key[n] = '\0';
	g = tr_xp_find(s->xp, "msite", key);
	if (g < 0 || tr_xp_get(s->xp, g, "bytes/call", &v, &v2) < 0)
		return 0;
	s->kept[k] = 1 + (v2 > 0 && fabs(v - v2) <= 1e-9 * v2);
	return s->kept[k] - 1;
}
