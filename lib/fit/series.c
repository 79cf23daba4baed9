/* series.c - the values of each key and quantity over runs, fitted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

struct series {
	char *unit;
	int mixed;
	struct tr_fitpt *p;
	size_t n, cap;
};

/* Series that could not be fitted, by reason: one cause (a run with a
 * key missing, too few runs) fails every quantity of every key, and is
 * said once, with the first series it failed. */
struct failure {
	size_t first, n;
};

struct tr_series {
	const char *expr, *family;
	int red;
	double n, N;		/* the run's */
	int np1;		/* a run at np=1 was read */
	struct tr_map *map;	/* "type TAB key TAB quantity" */
	struct series *v;	/* by the map's index */
	size_t cap;
	struct tr_map *fmap;	/* the reasons of failures */
	struct failure *fails;
	size_t fcap;
};

struct tr_series *
tr_series_new(const char *expr, const char *family, int red)
{
	struct tr_series *s = tr_calloc(1, sizeof *s);

	s->expr = expr;
	s->family = family;
	s->red = red;
	s->map = tr_map_new();
	s->fmap = tr_map_new();
	return s;
}

void
tr_series_free(struct tr_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < tr_map_len(s->map); i++) {
		free(s->v[i].p);
		free(s->v[i].unit);
	}
	free(s->v);
	free(s->fails);
	tr_map_free(s->fmap);
	tr_map_free(s->map);
	free(s);
}

void
tr_series_run(struct tr_series *s, double n, double N)
{
	s->n = n;
	s->N = N;
	s->np1 |= n == 1;
}

void
tr_series_add(struct tr_series *ss, const struct tr_flatval *fv)
{
	size_t len;
	char *name = tr_flat_name(fv, &len);
	long i = tr_map_get(ss->map, name, len, 1);
	struct series *s;

	free(name);
	tr_growz(&ss->v, &ss->cap, (size_t)i + 1, sizeof *ss->v);
	s = &ss->v[i];
	if (fv->unit) {
		if (!s->unit)
			s->unit = tr_strndup(fv->unit, fv->unitn);
		else if (strlen(s->unit) != fv->unitn ||
		    memcmp(s->unit, fv->unit, fv->unitn) != 0)
			s->mixed = 1;
	}
	tr_grow(&s->p, &s->cap, s->n + 1, sizeof *s->p);
	s->p[s->n].n = ss->n;
	s->p[s->n].N = ss->N;
	s->p[s->n++].t = fv->v;
}

size_t
tr_series_len(const struct tr_series *s)
{
	return tr_map_len(s->map);
}

const char *
tr_series_key(const struct tr_series *s, size_t i, size_t *len)
{
	return tr_map_key(s->map, (long)i, len);
}

static int
nlookup(void *ctx, const char *name, size_t n)
{
	(void)ctx;
	if (n == 1 && (name[0] == 'n' || name[0] == 'N'))
		return name[0] == 'n' ? 0 : 1;
	return -1;
}

/* The printed expression must say what the fit computed. */
static int
checkexpr(const struct tr_fit *f, const struct tr_fitpt *p, int m)
{
	struct tr_val sl[2];
	struct tr_expr *e;
	char err[128];
	int col, i, ok = 1;

	e = tr_expr_parse(f->expr, nlookup, NULL, err, sizeof err, &col);
	if (!e)
		return 0;
	memset(sl, 0, sizeof sl);
	for (i = 0; i < m && f->nterm >= 0; i++) {
		double a, b;

		sl[0].num = p[i].n;
		sl[1].num = p[i].N;
		a = tr_expr_num(e, sl);
		b = tr_fit_eval(f, p[i].n, p[i].N);
		if (!isfinite(a) || fabs(a - b) > 1e-9 * (fabs(a) + fabs(b)) +
		    1e-12)
			ok = 0;
	}
	tr_expr_free(e);
	return ok;
}

/* A series too short because it is absent at np=1, as point-to-point
 * ops are where a rank has no peers, gets no 0 there: whether the 0 is
 * on the curve depends on the pattern, which 1, 2 and 3 ranks cannot
 * tell, and fitted through it MPB's all-pairs Sendrecvs, 838 n(n-1),
 * are 90 % low at 64 ranks, a ring's 2n 82 % (bench/absent-np1.sh).
 * Say so, and what to measure instead. */
static void
absent_np1(const struct tr_series *ss, const struct series *s, char *err,
    size_t errsz)
{
	size_t i, len = strlen(err);

	if (!ss->np1 || strncmp(err, "too few points", 14) != 0)
		return;
	for (i = 0; i < s->n; i++)
		if (s->p[i].n == 1)
			return;
	snprintf(err + len, errsz - len, "; absent at np=1 (no peers?), "
	    "whose 0 is taken for no point: measure 3 scales from np=2");
}

static int
fitone(const struct tr_series *ss, struct series *s, struct tr_fit *f,
    char *err, size_t errsz)
{
	int r;

	if (s->mixed) {
		snprintf(err, errsz, "mixed units across runs (%s and others)",
		    s->unit);
		return -1;
	}
	if (ss->expr)
		r = tr_fit_expr(ss->expr, s->p, (int)s->n, ss->red, f, err,
		    errsz);
	else if (strcmp(ss->family, "scalaextrap") == 0)
		r = tr_fit_scalaextrap(s->p, (int)s->n, ss->red, f, err, errsz);
	else
		r = tr_fit_pmnf(s->p, (int)s->n, ss->red, f, err, errsz);
	if (r < 0) {
		absent_np1(ss, s, err, errsz);
		return -1;
	}
	if (!isfinite(f->rss) || !isfinite(f->adjr2) || !isfinite(f->smape) ||
	    !isfinite(f->cvsmape) || !checkexpr(f, s->p, f->points)) {
		snprintf(err, errsz, "the fit is not finite");
		return -1;
	}
	return 0;
}

int
tr_series_fit(struct tr_series *s, size_t i, struct tr_fit *f)
{
	char err[256];
	size_t had;
	long k;

	if (fitone(s, &s->v[i], f, err, sizeof err) == 0)
		return 0;
	had = tr_map_len(s->fmap);
	k = tr_map_get(s->fmap, err, strlen(err), 1);
	/* A new reason takes this series as its first; tr_grow leaves room
	 * beyond k, so fcap alone does not say whether fails[k] is set. */
	if ((size_t)k == had) {
		tr_grow(&s->fails, &s->fcap, (size_t)k + 1, sizeof *s->fails);
		s->fails[k].first = i;
		s->fails[k].n = 0;
	}
	s->fails[k].n++;
	return -1;
}

void
tr_series_warn(const struct tr_series *s, const char *files)
{
	size_t k, len, n = tr_map_len(s->fmap);

	for (k = 0; k < n; k++) {
		const char *err = tr_map_key(s->fmap, (long)k, NULL);
		const char *name = tr_map_key(s->map, (long)s->fails[k].first,
		    &len);
		const char *t = memchr(name, '\t', len);
		const char *q = memchr(t + 1, '\t', len - (size_t)(t + 1 - name));
		char more[48] = "";

		if (s->fails[k].n > 1)
			snprintf(more, sizeof more, " and %zu more series",
			    s->fails[k].n - 1);
		tr_warn("%s: %.*s %.*s %s%s: %s", files, (int)(t - name),
		    name, (int)(q - t - 1), t + 1, q + 1, more, err);
	}
}
