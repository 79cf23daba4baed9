/* extrap-text.c - Extra-P's text input format: an experiment read from
 * it, written to it, and written as tr sections, one per point. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conv.h"

/* Parameter names taken for the process count without -n. */
static const char *npnames[] = {"p", "P", "np", "nprocs", "procs", "ranks",
	NULL};

struct tr_expt *
tr_expt_new(void)
{
	struct tr_expt *e = tr_calloc(1, sizeof *e);

	e->smap = tr_map_new();
	return e;
}

void
tr_expt_free(struct tr_expt *e)
{
	size_t i, j;

	if (!e)
		return;
	for (i = 0; i < e->nser; i++) {
		for (j = 0; j < e->ser[i].nat; j++)
			free(e->ser[i].at[j].v);
		free(e->ser[i].at);
		free(e->ser[i].region);
		free(e->ser[i].metric);
		free(e->ser[i].type);
	}
	free(e->ser);
	free(e->pt);
	free(e->param[0]);
	free(e->param[1]);
	tr_map_free(e->smap);
	free(e);
}

long
tr_expt_point(struct tr_expt *e, double n, double N, int add)
{
	size_t i;

	for (i = 0; i < e->npt; i++)
		if (e->pt[i].n == n && e->pt[i].N == N)
			return (long)i;
	if (!add)
		return -1;
	tr_grow(&e->pt, &e->ptcap, e->npt + 1, sizeof *e->pt);
	e->pt[e->npt].n = n;
	e->pt[e->npt].N = N;
	return (long)e->npt++;
}

long
tr_expt_series(struct tr_expt *e, const char *region, const char *metric)
{
	size_t rl = strlen(region), ml = strlen(metric);
	char *k = tr_malloc(rl + ml + 2);
	long i;

	memcpy(k, region, rl);
	k[rl] = '\t';
	memcpy(k + rl + 1, metric, ml + 1);
	i = tr_map_get(e->smap, k, rl + ml + 1, 1);
	free(k);
	if ((size_t)i == e->nser) {
		tr_grow(&e->ser, &e->sercap, e->nser + 1, sizeof *e->ser);
		memset(&e->ser[i], 0, sizeof *e->ser);
		e->ser[i].region = tr_strdup(region);
		e->ser[i].metric = tr_strdup(metric);
		e->nser++;
	}
	return i;
}

void
tr_expt_add(struct tr_expt *e, long s, long p, double v)
{
	struct tr_expt_series *sr = &e->ser[s];
	struct tr_expt_vals *a;

	if ((size_t)p >= sr->nat)
		tr_growz(&sr->at, &sr->nat, (size_t)p + 1, sizeof *sr->at);
	a = &sr->at[p];
	tr_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->v[a->n++] = v;
}

size_t
tr_expt_nvals(const struct tr_expt *e, long s, long p)
{
	const struct tr_expt_series *sr = &e->ser[s];

	return (size_t)p < sr->nat ? sr->at[p].n : 0;
}

/* ---- reading ---- */

/* Extra-P reads up to four parameters; tr-fit models two. */
#define MAXCOORD 4

struct coord {
	double v[MAXCOORD];
	long line;
};

struct reader {
	struct tr_in *in;
	struct tr_expt *e;
	char *names[MAXCOORD];
	int nparam;
	long pline;		/* the PARAMETER line of the last name */
	struct coord *co;
	size_t nco, cocap;
	int phase;		/* 0 PARAMETER, 1 POINTS, 2 measurements */
	char *region, *metric;
	long ser;		/* the block's series, -1 before its DATA */
	size_t k;		/* its DATA lines so far */
	long kline;		/* its first DATA line */
	long last;		/* the last line read */
	char *buf;
	size_t bufcap;
};

static _Noreturn void
die_at(struct reader *r, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_at(tr_in_file(r->in), line, fmt, ap);
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The rest of a line with its blanks made one space, trimmed: names
 * read as Extra-P reads them. */
static const char *
squeeze(struct reader *r, const char *s, size_t n)
{
	size_t i, o = 0;
	int gap = 0;

	tr_grow(&r->buf, &r->bufcap, n + 1, 1);
	for (i = 0; i < n; i++) {
		if (blank(s[i])) {
			gap = 1;
			continue;
		}
		if (gap && o)
			r->buf[o++] = ' ';
		gap = 0;
		r->buf[o++] = s[i];
	}
	r->buf[o] = '\0';
	return r->buf;
}

static double
number(struct reader *r, const char *s, size_t n)
{
	double v;
	int rc = tr_parse_f64(s, n, &v);

	if (rc == -2)
		tr_in_die(r->in, "'%.*s' is not a finite number",
		    (int)(n > 40 ? 40 : n), s);
	if (rc < 0)
		tr_in_die(r->in, "'%.*s' is not a number",
		    (int)(n > 40 ? 40 : n), s);
	return v;
}

static void
parameter(struct reader *r, const char *s, size_t n)
{
	size_t i = 0, j;

	if (r->phase > 0)
		tr_in_die(r->in, "PARAMETER after POINTS");
	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			break;
		for (j = i; j < n && !blank(s[j]); j++)
			;
		if (r->nparam == MAXCOORD)
			tr_in_die(r->in, "more than %d parameters", MAXCOORD);
		r->names[r->nparam++] = tr_strndup(s + i, j - i);
		r->pline = tr_in_line(r->in);
		i = j;
	}
	if (!r->nparam)
		tr_in_die(r->in, "PARAMETER without a name");
}

static void
point(struct reader *r, const double *v, int nv)
{
	struct coord *c;

	if (nv != r->nparam)
		tr_in_die(r->in, "a point of %d coordinates for %d parameters",
		    nv, r->nparam);
	tr_grow(&r->co, &r->cocap, r->nco + 1, sizeof *r->co);
	c = &r->co[r->nco++];
	memcpy(c->v, v, sizeof c->v);
	c->line = tr_in_line(r->in);
}

/* "(4 100) (8 100)", or "4 8 16" for one parameter. */
static void
points(struct reader *r, const char *s, size_t n)
{
	double v[MAXCOORD];
	size_t i = 0, j;
	int nv = 0, open = 0, paren = memchr(s, '(', n) != NULL, any = 0;

	if (!r->nparam)
		tr_in_die(r->in, "POINTS before PARAMETER");
	if (r->phase > 1)
		tr_in_die(r->in, "POINTS after the measurements began");
	r->phase = 1;
	if (!paren && r->nparam > 1)
		tr_in_die(r->in, "points of %d parameters are written in "
		    "parentheses, as (4 100)", r->nparam);
	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			break;
		if (s[i] == '(' || s[i] == ')') {
			if ((s[i] == '(') == open)
				tr_in_die(r->in, "unbalanced parentheses");
			open = s[i++] == '(';
			if (!open) {
				point(r, v, nv);
				nv = 0;
				any = 1;
			}
			continue;
		}
		for (j = i; j < n && !blank(s[j]) && s[j] != '(' && s[j] != ')';
		    j++)
			;
		if (paren && !open)
			tr_in_die(r->in, "'%.*s' outside parentheses",
			    (int)(j - i > 40 ? 40 : j - i), s + i);
		if (nv < MAXCOORD)
			v[nv] = number(r, s + i, j - i);
		nv++;
		if (!paren) {
			point(r, v, 1);
			nv = 0;
			any = 1;
		}
		i = j;
	}
	if (open)
		tr_in_die(r->in, "unbalanced parentheses");
	if (!any)
		tr_in_die(r->in, "POINTS without a point");
}

static int
findname(struct reader *r, const char *name)
{
	int i;

	for (i = 0; i < r->nparam; i++)
		if (strcmp(r->names[i], name) == 0)
			return i;
	return -1;
}

static _Noreturn void
noparam(struct reader *r, int opt, const char *name)
{
	char b[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < r->nparam && len < sizeof b; i++)
		len += (size_t)snprintf(b + len, sizeof b - len, "%s%s",
		    i ? " " : "", r->names[i]);
	tr_die(TR_EXIT_USAGE, "-%c %s: no such parameter (the file has: %s)",
	    opt, name, b);
}

/* Maps the parameters to np and N and the coordinates to points, as
 * the measurements begin. */
static void
resolve(struct reader *r, const char *nname, const char *Nname)
{
	struct tr_expt *e = r->e;
	int ip = -1, iN = -1, i, j;
	size_t k;

	if (r->phase == 0)
		tr_in_die(r->in, "%s before POINTS", r->nparam ?
		    "measurements" : "measurements and PARAMETER");
	if (nname && (ip = findname(r, nname)) < 0)
		noparam(r, 'n', nname);
	if (Nname && ((iN = findname(r, Nname)) < 0 || iN == ip))
		noparam(r, 'N', Nname);
	if (r->nparam > 2)
		die_at(r, r->pline, "%d parameters: tr-fit models two, the "
		    "process count and the problem size", r->nparam);
	for (i = 0; ip < 0 && i < r->nparam; i++)
		for (j = 0; npnames[j]; j++)
			if (i != iN && strcmp(r->names[i], npnames[j]) == 0) {
				if (ip >= 0)
					die_at(r, r->pline, "parameters %s and "
					    "%s both name a process count: "
					    "choose one with -n", r->names[ip],
					    r->names[i]);
				ip = i;
			}
	if (ip < 0)
		die_at(r, r->pline, "no parameter is a process count (p, P, "
		    "np, nprocs, procs, ranks): name one with -n");
	if (iN < 0 && r->nparam == 2)
		iN = 1 - ip;
	e->nparam = r->nparam;
	e->param[0] = tr_strdup(r->names[ip]);
	if (iN >= 0)
		e->param[1] = tr_strdup(r->names[iN]);
	for (k = 0; k < r->nco; k++) {
		double n = r->co[k].v[ip], N = iN >= 0 ? r->co[k].v[iN] : 0;

		if (n != floor(n) || n < 1 || n > TR_MAXNP)
			die_at(r, r->co[k].line, "%s=%g is no process count "
			    "(a whole number from 1 to %d)", e->param[0], n,
			    TR_MAXNP);
		if (iN >= 0 && !(N > 0))
			die_at(r, r->co[k].line, "%s=%g is no problem size "
			    "(a positive number)", e->param[1], N);
		if (tr_expt_point(e, n, N, 0) >= 0)
			die_at(r, r->co[k].line, "point %s=%g%s%s%s given "
			    "twice", e->param[0], n, iN >= 0 ? " " : "",
			    iN >= 0 ? e->param[1] : "", iN >= 0 ? "=" : "");
		tr_expt_point(e, n, N, 1);
	}
	r->phase = 2;
}

/* A block of DATA lines ends at REGION, METRIC or the end: as many as
 * there are points, or none. */
static void
endblock(struct reader *r)
{
	if (r->ser >= 0 && r->k < r->e->npt)
		die_at(r, r->kline, "REGION %s METRIC %s: DATA for %zu of the "
		    "%zu points", r->region, r->metric, r->k, r->e->npt);
	r->ser = -1;
	r->k = 0;
}

static void
data(struct reader *r, const char *s, size_t n)
{
	size_t i = 0, j, nv = 0;

	if (!r->region)
		tr_in_die(r->in, "DATA before REGION");
	if (r->ser < 0) {
		r->ser = tr_expt_series(r->e, r->region, r->metric);
		if (tr_expt_nvals(r->e, r->ser, 0))
			tr_in_die(r->in, "REGION %s METRIC %s given twice",
			    r->region, r->metric);
		r->kline = tr_in_line(r->in);
	}
	if (r->k == r->e->npt)
		tr_in_die(r->in, "REGION %s METRIC %s: more DATA lines than "
		    "the %zu points", r->region, r->metric, r->e->npt);
	for (;;) {
		while (i < n && blank(s[i]))
			i++;
		if (i == n)
			break;
		for (j = i; j < n && !blank(s[j]); j++)
			;
		tr_expt_add(r->e, r->ser, (long)r->k, number(r, s + i, j - i));
		nv++;
		i = j;
	}
	if (!nv)
		tr_in_die(r->in, "DATA without values");
	r->k++;
}

static void
setname(struct reader *r, char **dst, const char *what, const char *s,
    size_t n)
{
	const char *v = squeeze(r, s, n);

	if (!*v)
		tr_in_die(r->in, "%s without a name", what);
	endblock(r);
	free(*dst);
	*dst = tr_strdup(v);
}

struct tr_expt *
tr_expt_read(struct tr_in *in, const char *nname, const char *Nname)
{
	struct reader r;
	const char *line;
	size_t n, i, k;
	int c;

	memset(&r, 0, sizeof r);
	r.in = in;
	r.e = tr_expt_new();
	r.ser = -1;
	r.metric = tr_strdup("-");
	tr_in_lastlf(in);
	while (tr_next_line(in, &line, &n)) {
		r.last = tr_in_line(in);
		for (i = 0; i < n && blank(line[i]); i++)
			;
		if (i == n || line[i] == '#')
			continue;
		for (k = i; k < n && !blank(line[k]); k++)
			;
		line += i;
		k -= i;
		n -= i;
#define IS(w) (k == sizeof w - 1 && memcmp(line, w, k) == 0)
		if (IS("PARAMETER")) {
			parameter(&r, line + k, n - k);
			continue;
		}
		if (IS("POINTS")) {
			points(&r, line + k, n - k);
			continue;
		}
		if (!IS("REGION") && !IS("METRIC") && !IS("DATA"))
			tr_in_die(in, "unknown keyword '%.*s'",
			    (int)(k > 40 ? 40 : k), line);
		if (r.phase < 2)
			resolve(&r, nname, Nname);
		if (IS("REGION"))
			setname(&r, &r.region, "REGION", line + k, n - k);
		else if (IS("METRIC"))
			setname(&r, &r.metric, "METRIC", line + k, n - k);
		else
			data(&r, line + k, n - k);
#undef IS
	}
	if (r.phase == 2)
		endblock(&r);
	if (!r.e->nser)
		die_at(&r, r.last, "no DATA lines");
	for (c = 0; c < r.nparam; c++)
		free(r.names[c]);
	free(r.co);
	free(r.region);
	free(r.metric);
	free(r.buf);
	return r.e;
}

/* ---- writing ---- */

/* Point P's n, then, with a problem size, SEP and its N. */
static void
putpoint(const struct tr_expt *e, struct tr_out *o, size_t p,
    const char *sep)
{
	tr_out_i64(o, (int64_t)e->pt[p].n);
	if (e->param[1]) {
		tr_out_str(o, sep);
		tr_out_f64(o, e->pt[p].N);
	}
}

void
tr_expt_write_tr(const struct tr_expt *e, struct tr_out *o)
{
	size_t p, s, j;

	for (p = 0; p < e->npt; p++) {
		tr_out_begin(o);
		tr_out_str(o, "#meta np=");
		putpoint(e, o, p, "\n#meta N=");
		tr_out_c(o, '\n');
		tr_out_fields(o, TR_METRIC);
		for (s = 0; s < e->nser; s++) {
			const struct tr_expt_series *sr = &e->ser[s];

			if (p >= sr->nat)
				continue;
			for (j = 0; j < sr->at[p].n; j++) {
				tr_out_str(o, "metric\t");
				tr_out_str(o, sr->region);
				tr_out_c(o, '\t');
				tr_out_str(o, sr->metric);
				tr_out_tf64(o, sr->at[p].v[j]);
				tr_out_c(o, '\n');
			}
		}
	}
}

void
tr_expt_write_text(const struct tr_expt *e, struct tr_out *o)
{
	size_t p, s, j;
	int metrics = 0;

	for (s = 0; s < e->nser; s++)
		metrics |= strcmp(e->ser[s].metric, "-") != 0;
	tr_out_str(o, "PARAMETER ");
	tr_out_str(o, e->param[0]);
	if (e->param[1]) {
		tr_out_c(o, ' ');
		tr_out_str(o, e->param[1]);
	}
	tr_out_c(o, '\n');
	for (p = 0; p < e->npt; p++) {
		tr_out_str(o, "POINTS (");
		putpoint(e, o, p, " ");
		tr_out_str(o, ")\n");
	}
	for (s = 0; s < e->nser; s++) {
		const struct tr_expt_series *sr = &e->ser[s];

		tr_out_str(o, "\nREGION ");
		tr_out_str(o, sr->region);
		if (metrics) {
			tr_out_str(o, "\nMETRIC ");
			tr_out_str(o, sr->metric);
		}
		tr_out_c(o, '\n');
		for (p = 0; p < e->npt && p < sr->nat; p++) {
			tr_out_str(o, "DATA");
			for (j = 0; j < sr->at[p].n; j++) {
				tr_out_c(o, ' ');
				tr_out_f64(o, sr->at[p].v[j]);
			}
			tr_out_c(o, '\n');
		}
	}
}
