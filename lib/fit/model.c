/* model.c - hierarchical performance models of phases (formats/model.md)
 * and the communication parameters tr-bench measures. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

enum { S_N, S_P, S_FIRST };	/* slots of N and P; names follow */

struct mop {
	char *op, *comm;
	int line;
	struct tr_expr *calls, *bytes, *volume;
};

struct mphase {
	char *name;
	int line, cline, measured;
	struct tr_expr *compute;
	struct mop *ops;
	size_t nop, cap;
};

struct mset {
	int line, slot;
	struct tr_expr *e;	/* NULL: defined on the command line */
	double val;
};

struct tr_model {
	char *path;
	const char *lbuf;	/* the line being read, for columns */
	char **names;		/* slot - S_FIRST -> name */
	size_t nnames, capnames;
	struct mset *sets;	/* in order of evaluation */
	size_t nsets, capsets;
	struct mphase *ph;
	size_t nph, capph;
	struct tr_val *slots;
};

struct param {
	char *op, *comm;
	int64_t size;
	double alpha, beta;
};

struct tr_params {
	struct param *p;
	size_t n, cap;
};

void
tr_grid(int64_t np, int64_t *rows, int64_t *cols)
{
	int64_t r = (int64_t)sqrt((double)np);

	while (r > 1 && np % r)
		r--;
	if (r < 1)
		r = 1;
	*rows = r;
	*cols = np / r;
}

static int
lookup(void *ctx, const char *name, size_t n)
{
	struct tr_model *m = ctx;
	size_t i;

	if ((n == 1 && *name == 'N'))
		return S_N;
	if ((n == 1 && *name == 'P') || (n == 2 && memcmp(name, "np", 2) == 0))
		return S_P;
	for (i = 0; i < m->nnames; i++)
		if (strlen(m->names[i]) == n && memcmp(m->names[i], name, n) == 0)
			return S_FIRST + (int)i;
	return -1;
}

static _Noreturn void
mdie(const struct tr_model *m, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void
mdie(const struct tr_model *m, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_at(m->path, line, fmt, ap);
}

/* Units written in the literals of SRC: 1 durations, 2 sizes. */
static int
units_in(const char *s)
{
	int k = 0;
	const char *u;

	while (*s) {
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++)
				if (*s == '\\' && s[1])
					s++;
			if (*s)
				s++;
			continue;
		}
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    *s == '_') {
			while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' &&
			    *s <= 'Z') || *s == '_' || *s == '.' ||
			    (*s >= '0' && *s <= '9'))
				s++;
			continue;
		}
		if (!(*s >= '0' && *s <= '9')) {
			s++;
			continue;
		}
		while ((*s >= '0' && *s <= '9') || *s == '.')
			s++;
		if ((*s == 'e' || *s == 'E') && (s[1] == '-' || s[1] == '+' ||
		    (s[1] >= '0' && s[1] <= '9')))
			for (s += 2; *s >= '0' && *s <= '9'; s++)
				;
		u = s;
		while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
			s++;
		if (s > u)
			k |= strchr("nums", *u) && s[-1] == 's' ? 1 : 2;
	}
	return k;
}

/* A parse error of SRC at its column col (from 0) on one line: "col N:
 * MSG near 'TEXT'", N counted from 1 + base. */
static void
parse_error(char *buf, size_t n, const char *src, const char *err, int col,
    int base)
{
	size_t len = strlen(src);

	if (col < 0 || (size_t)col > len)
		col = col < 0 ? 0 : (int)len;
	if (src[col])
		snprintf(buf, n, "col %d: %s near '%.20s%s'", base + col + 1,
		    err, src + col, len - (size_t)col > 20 ? "..." : "");
	else
		snprintf(buf, n, "col %d: %s at the end of '%s%s'", base +
		    col + 1, err, len > 40 ? "..." : "", len > 40 ? src + len -
		    40 : src);
}

static struct tr_expr *
parse(struct tr_model *m, int line, const char *what, const char *src,
    int unit)
{
	struct tr_expr *e;
	char err[256], msg[400];
	int col, k;

	e = tr_expr_parse(src, lookup, m, err, sizeof err, &col);
	if (!e) {
		parse_error(msg, sizeof msg, src, err, col,
		    (int)(src - m->lbuf));
		mdie(m, line, "%s: %s", what, msg);
	}
	k = units_in(src);
	if (unit == 0 && k)
		mdie(m, line, "%s is a count: it takes no unit ('%s')", what,
		    src);
	if (unit == 1 && (k & 2))
		mdie(m, line, "%s is a time (ns) but '%s' has a size unit",
		    what, src);
	if (unit == 2 && (k & 1))
		mdie(m, line, "%s is bytes but '%s' has a time unit", what,
		    src);
	return e;
}

static int
isname(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    *s == '_' || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int
add_name(struct tr_model *m, const char *name)
{
	tr_grow(&m->names, &m->capnames, m->nnames + 1, sizeof *m->names);
	m->names[m->nnames] = tr_strdup(name);
	return S_FIRST + (int)m->nnames++;
}

/* "= EXPR" after a keyword, or NULL. */
static const char *
rhs(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '=')
		return NULL;
	for (s++; *s == ' ' || *s == '\t'; s++)
		;
	return *s ? s : NULL;
}

static void
check_phase(const struct tr_model *m, const struct mphase *p)
{
	size_t i;

	if (!p)
		return;
	if (!p->compute && !p->measured)
		mdie(m, p->line, "phase %s has no compute line (write "
		    "'compute = 0' if it computes nothing)", p->name);
	for (i = 0; i < p->nop; i++) {
		const struct mop *o = &p->ops[i];

		if (!o->calls)
			mdie(m, o->line, "%s in phase %s has no calls line",
			    o->op, p->name);
		if (!o->bytes && !o->volume && strcmp(o->op, "MPI_Barrier"))
			mdie(m, o->line, "%s in phase %s has neither bytes nor "
			    "volume", o->op, p->name);
	}
}

/* Copies the word at *s (up to a blank or '=') into w; skips blanks. */
static void
word(const struct tr_model *m, int line, const char **s, char *w, size_t wsz)
{
	size_t n = strcspn(*s, " \t=");

	if (n >= wsz)
		mdie(m, line, "word too long: %.40s...", *s);
	memcpy(w, *s, n);
	w[n] = '\0';
	for (*s += n; **s == ' ' || **s == '\t'; (*s)++)
		;
}

static void
line_stmt(struct tr_model *m, int line, const char *rest)
{
	struct mphase *p = m->nph ? &m->ph[m->nph - 1] : NULL;
	struct mop *o = p && p->nop ? &p->ops[p->nop - 1] : NULL;
	char kw[64], w2[256], w3[64];
	const char *e;
	size_t i;

	word(m, line, &rest, kw, sizeof kw);
	if (strcmp(kw, "set") == 0) {
		struct mset *st;
		char *name = w2;
		int slot;

		word(m, line, &rest, w2, sizeof w2);
		e = rhs(rest);
		if (!isname(name) || !e)
			mdie(m, line, "expected 'set NAME = EXPR'");
		slot = lookup(m, name, strlen(name));
		if (slot == S_N || slot == S_P)
			mdie(m, line, "N and P are given per prediction, not "
			    "set");
		for (i = 0; i < m->nsets; i++)
			if (m->sets[i].slot == slot && !m->sets[i].e)
				return;	/* -D wins */
		if (slot >= 0)
			mdie(m, line, "%s is set twice", name);
		st = NULL;
		tr_grow(&m->sets, &m->capsets, m->nsets + 1, sizeof *m->sets);
		st = &m->sets[m->nsets];
		st->e = parse(m, line, name, e, -1);
		st->slot = add_name(m, name);
		st->line = line;
		m->nsets++;
	} else if (strcmp(kw, "phase") == 0) {
		word(m, line, &rest, w2, sizeof w2);
		if (!*w2 || *rest || strcmp(w2, "*") == 0)
			mdie(m, line, "expected 'phase NAME' (one word, not *)");
		for (i = 0; i < m->nph; i++)
			if (strcmp(m->ph[i].name, w2) == 0)
				mdie(m, line, "phase %s is defined twice (line "
				    "%d)", w2, m->ph[i].line);
		check_phase(m, p);
		tr_grow(&m->ph, &m->capph, m->nph + 1, sizeof *m->ph);
		p = &m->ph[m->nph++];
		memset(p, 0, sizeof *p);
		p->name = tr_strdup(w2);
		p->line = line;
	} else if (strcmp(kw, "compute") == 0) {
		if (!p)
			mdie(m, line, "compute outside a phase");
		if (p->compute || p->measured)
			mdie(m, line, "phase %s has two compute lines",
			    p->name);
		p->cline = line;
		if (strcmp(rest, "measured") == 0)
			p->measured = 1;
		else if ((e = rhs(rest)))
			p->compute = parse(m, line, "compute", e, 1);
		else
			mdie(m, line, "expected 'compute = EXPR' or 'compute "
			    "measured'");
	} else if (strcmp(kw, "op") == 0) {
		if (!p)
			mdie(m, line, "op outside a phase");
		word(m, line, &rest, w2, sizeof w2);
		word(m, line, &rest, w3, sizeof w3);
		if (!*w3)
			strcpy(w3, "world");
		if (!*w2 || *rest)
			mdie(m, line, "expected 'op MPI_NAME [world|row|col]'");
		if (strcmp(w3, "world") && strcmp(w3, "row") &&
		    strcmp(w3, "col"))
			mdie(m, line, "communicator %s: expected world, row or "
			    "col", w3);
		tr_grow(&p->ops, &p->cap, p->nop + 1, sizeof *p->ops);
		o = &p->ops[p->nop++];
		memset(o, 0, sizeof *o);
		o->op = tr_strdup(w2);
		o->comm = tr_strdup(w3);
		o->line = line;
	} else if (strcmp(kw, "calls") == 0 || strcmp(kw, "bytes") == 0 ||
	    strcmp(kw, "volume") == 0) {
		struct tr_expr **slot;
		char what[96];

		if (!o)
			mdie(m, line, "%s before any op of the phase", kw);
		if (!(e = rhs(rest)))
			mdie(m, line, "expected '%s = EXPR'", kw);
		slot = kw[0] == 'c' ? &o->calls : kw[0] == 'b' ? &o->bytes :
		    &o->volume;
		if (*slot)
			mdie(m, line, "%s of %s given twice", kw, o->op);
		if ((kw[0] == 'b' && o->volume) || (kw[0] == 'v' && o->bytes))
			mdie(m, line, "%s: give bytes (per call) or volume "
			    "(in all), not both", o->op);
		snprintf(what, sizeof what, "%s of %s", kw, o->op);
		*slot = parse(m, line, what, e, kw[0] == 'c' ? 0 : 2);
	} else {
		mdie(m, line, "unknown keyword '%s' (set phase compute op "
		    "calls bytes volume)", kw);
	}
}

/* What tr_model_load holds, for an error exit (tr_undo_push). Every
 * entry of the model is whole before it is counted, so a model cut
 * short frees as a whole one. */
struct loading {
	struct tr_model *m;
	char **buf;
};

static void
unload(void *arg)
{
	struct loading *l = arg;

	tr_model_free(l->m);
	free(*l->buf);
}

/* A -D value is a constant: no name has a value yet where it is read,
 * its own and an earlier -D's neither (evaluated without them, a name
 * read nothing there). */
static int
no_name(void *ctx, const char *name, size_t n)
{
	(void)ctx, (void)name, (void)n;
	return -1;
}

struct tr_model *
tr_model_load(const char *path, int ndef, char **defs)
{
	struct tr_model *m = tr_calloc(1, sizeof *m);
	struct loading ld;
	struct tr_in *in;
	char *buf = NULL, *s, *eq, *q;
	size_t cap = 0, n;
	int line = 0, i, inq;

	m->path = tr_strdup(path);
	ld.m = m;
	ld.buf = &buf;
	tr_undo_push(unload, &ld);
	for (i = 0; i < ndef; i++) {
		struct mset *st;
		char err[256];
		int col;

		eq = strchr(defs[i], '=');
		if (!eq)
			tr_die(TR_EXIT_USAGE, "-D %s: expected NAME=VALUE",
			    defs[i]);
		*eq = '\0';
		if (!isname(defs[i]) || lookup(m, defs[i], strlen(defs[i])) >= 0)
			tr_die(TR_EXIT_USAGE, "-D %s: not a new name", defs[i]);
		tr_grow(&m->sets, &m->capsets, m->nsets + 1, sizeof *m->sets);
		st = &m->sets[m->nsets++];
		st->slot = add_name(m, defs[i]);
		st->e = NULL;
		*eq = '=';
		{
			struct tr_expr *e = tr_expr_parse(eq + 1, no_name, m,
			    err, sizeof err, &col);
			char msg[400];

			if (!e) {
				parse_error(msg, sizeof msg, eq + 1, err, col,
				    (int)(eq + 1 - defs[i]));
				tr_die(TR_EXIT_USAGE, "-D %s: %s", defs[i],
				    msg);
			}
			/* Constants only: N and P are not known yet. */
			st->val = tr_expr_num(e, NULL);
			tr_expr_free(e);
			if (!isfinite(st->val))
				tr_die(TR_EXIT_USAGE, "-D %s: not a constant "
				    "number", defs[i]);
		}
	}
	/* The reader of traces: gzip, and NUL bytes and long lines caught. */
	in = tr_open_conf(path);
	while (tr_conf_line(in, &buf, &cap)) {
		line = (int)tr_in_line(in);
		m->lbuf = buf;
		/* A comment starts at # outside a string. */
		for (q = buf, inq = 0; *q; q++) {
			if (*q == '"')
				inq = !inq;
			else if (*q == '\\' && inq && q[1])
				q++;
			else if (*q == '#' && !inq) {
				*q = '\0';
				break;
			}
		}
		for (s = buf; *s == ' ' || *s == '\t'; s++)
			;
		n = strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		    s[n - 1] == '\r'))
			s[--n] = '\0';
		if (!*s)
			continue;
		line_stmt(m, line, s);
	}
	tr_close(in);
	free(buf);
	buf = NULL;
	if (m->nph == 0)
		mdie(m, line, "no phase in the model");
	check_phase(m, &m->ph[m->nph - 1]);
	m->slots = tr_calloc(S_FIRST + m->nnames, sizeof *m->slots);
	tr_undo_pop();
	return m;
}

void
tr_model_free(struct tr_model *m)
{
	size_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->nph; i++) {
		for (j = 0; j < m->ph[i].nop; j++) {
			struct mop *o = &m->ph[i].ops[j];

			free(o->op);
			free(o->comm);
			tr_expr_free(o->calls);
			tr_expr_free(o->bytes);
			tr_expr_free(o->volume);
		}
		free(m->ph[i].ops);
		free(m->ph[i].name);
		tr_expr_free(m->ph[i].compute);
	}
	for (i = 0; i < m->nsets; i++)
		tr_expr_free(m->sets[i].e);
	for (i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
	free(m->sets);
	free(m->ph);
	free(m->slots);
	free(m->path);
	free(m);
}

size_t
tr_model_nphase(const struct tr_model *m)
{
	return m->nph;
}

const char *
tr_model_phase(const struct tr_model *m, size_t i, int *measured)
{
	if (measured)
		*measured = m->ph[i].measured;
	return m->ph[i].name;
}

/* ---- parameters ---- */

/* Point-to-point calls of every form are priced as MPI_Send. */
static const char *
param_op(const char *op)
{
	int coll, c = tr_mpi_class(op, strlen(op), &coll);

	switch (c) {
	case TR_MPI_SEND: case TR_MPI_SSEND: case TR_MPI_ISEND:
	case TR_MPI_RECV: case TR_MPI_IRECV: case TR_MPI_SENDRECV:
		return "MPI_Send";
	}
	return op;
}

struct tr_params *
tr_params_load(int nfiles, char **files)
{
	struct tr_params *ps = tr_calloc(1, sizeof *ps);
	struct tr_in *in = tr_open(nfiles, files);
	struct tr_rec r;
	struct param *p;
	int c;

	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c != TR_REC || r.type != TR_PARAM)
			continue;
		tr_grow(&ps->p, &ps->cap, ps->n + 1, sizeof *ps->p);
		p = &ps->p[ps->n++];
		p->op = tr_strndup(r.f[1].p, r.f[1].n);
		p->comm = tr_strndup(r.f[2].p, r.f[2].n);
		p->size = tr_get_i64(in, &r, 3);
		p->alpha = tr_get_f64(in, &r, 4);
		p->beta = tr_get_f64(in, &r, 5);
		if (p->alpha < 0 || p->beta < 0)
			tr_in_die(in, "param %s: negative alpha or beta",
			    p->op);
		/* tr-bench writes ns; a value this small was seconds. */
		if ((p->alpha > 0 && p->alpha < 1e-3) ||
		    (p->beta > 0 && p->beta < 1e-6))
			tr_in_die(in, "param %s: alpha %g ns, beta %g ns/B: "
			    "seconds given where ns are expected?", p->op,
			    p->alpha, p->beta);
	}
	if (tr_in_status(in))
		exit(tr_in_status(in));
	tr_close(in);
	return ps;
}

void
tr_params_free(struct tr_params *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->n; i++) {
		free(ps->p[i].op);
		free(ps->p[i].comm);
	}
	free(ps->p);
	free(ps);
}

/* The mean alpha and beta of OP at SIZE, preferring COMM; 0 if any. */
static int
at_size(const struct tr_params *ps, const char *op, const char *comm,
    int64_t size, double *a, double *b)
{
	size_t i;
	int n = 0, pass;

	for (pass = 0; pass < 2 && n == 0; pass++) {
		*a = *b = 0;
		for (i = 0; i < ps->n; i++) {
			const struct param *p = &ps->p[i];

			if (p->size != size || strcmp(p->op, op) ||
			    (pass == 0 && strcmp(p->comm, comm)))
				continue;
			*a += p->alpha;
			*b += p->beta;
			n++;
		}
	}
	if (n == 0)
		return -1;
	*a /= n;
	*b /= n;
	return 0;
}

/* Whether tr-bench measures OP, so that a hint to run it would help. */
static int
benched(const char *op)
{
	static const char *const ops[] = { TR_BENCH_OPS };
	size_t i;

	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(ops[i], op) == 0)
			return 1;
	return 0;
}

static void
unmeasured(const char *op, char *err, size_t errsz)
{
	snprintf(err, errsz, "no parameters for %s: tr-bench does not "
	    "measure it; give param records for it in a file of -P "
	    "(tr-format(5))", op);
}

int
tr_params_get(const struct tr_params *ps, const char *op, const char *comm,
    int64_t size, double *alpha, double *beta, char *err, size_t errsz)
{
	int64_t lo = -1, hi = -1, smin = -1, smax = -1;
	double a0, b0, a1, b1, w;
	size_t i;

	op = param_op(op);
	if (size <= 1) {
		*alpha = *beta = 0;
		return 0;
	}
	if ((!ps || ps->n == 0) && !benched(op)) {
		unmeasured(op, err, errsz);
		return -1;
	}
	if (!ps || ps->n == 0) {
		snprintf(err, errsz, ps ? "no parameters for %s: the files "
		    "given hold no param records" : "no parameters for %s: "
		    "give tr-bench's output with -P", op);
		return -1;
	}
	if (at_size(ps, op, comm, size, alpha, beta) == 0)
		return 0;
	for (i = 0; i < ps->n; i++) {
		const struct param *p = &ps->p[i];

		if (strcmp(p->op, op))
			continue;
		if (smin < 0 || p->size < smin)
			smin = p->size;
		if (p->size > smax)
			smax = p->size;
		if (p->size < size && p->size > lo)
			lo = p->size;
		if (p->size > size && (hi < 0 || p->size < hi))
			hi = p->size;
	}
	if (smin < 0 && !benched(op)) {
		unmeasured(op, err, errsz);
		return -1;
	}
	if (smin < 0) {
		snprintf(err, errsz, "no parameters for %s (run tr-bench, "
		    "give its output with -P)", op);
		return -1;
	}
	if (lo < 0 || hi < 0) {
		snprintf(err, errsz, "parameters of %s cover communicators of "
		    "%lld to %lld ranks, not %lld (run tr-bench on %lld ranks)",
		    op, (long long)smin, (long long)smax, (long long)size,
		    (long long)size);
		return -1;
	}
	/* Between two measured sizes: linear in log2 of the size, the
	 * depth of the trees collectives use. */
	at_size(ps, op, comm, lo, &a0, &b0);
	at_size(ps, op, comm, hi, &a1, &b1);
	w = (log2((double)size) - log2((double)lo)) /
	    (log2((double)hi) - log2((double)lo));
	*alpha = a0 + w * (a1 - a0);
	*beta = b0 + w * (b1 - b0);
	return 0;
}

/* ---- evaluation ---- */

static int
value(const struct tr_model *m, const struct tr_expr *e, double *v, int line,
    const char *what, const char *phase, char *err, size_t errsz)
{
	*v = tr_expr_num(e, m->slots);
	if (!isfinite(*v) || *v < 0) {
		snprintf(err, errsz, "%s:%d: %s of phase %s is %s at N=%g "
		    "P=%g", m->path, line, what, phase, isfinite(*v) ?
		    "negative" : "not a number", m->slots[S_N].num,
		    m->slots[S_P].num);
		return -1;
	}
	return 0;
}

int
tr_model_eval(const struct tr_model *m, const struct tr_params *ps,
    double N, double P, const double *meas, struct tr_phase_pred *out,
    char *err, size_t errsz)
{
	int64_t rows, cols, size, np = llround(P);
	double calls, bytes, a, b, total = 0;
	size_t i, j;
	char e2[256];

	memset(m->slots, 0, (S_FIRST + m->nnames) * sizeof *m->slots);
	m->slots[S_N].num = N;
	m->slots[S_P].num = P;
	tr_grid(np, &rows, &cols);
	for (i = 0; i < m->nsets; i++) {
		const struct mset *st = &m->sets[i];
		double v = st->e ? tr_expr_num(st->e, m->slots) : st->val;

		if (!isfinite(v)) {
			snprintf(err, errsz, "%s:%d: %s is not a number at N=%g "
			    "P=%g", m->path, st->line,
			    m->names[st->slot - S_FIRST], N, P);
			return -1;
		}
		m->slots[st->slot].num = v;
	}
	for (i = 0; i < m->nph; i++) {
		const struct mphase *p = &m->ph[i];

		out[i].comm = 0;
		if (p->measured) {
			if (!meas || !isfinite(meas[i])) {
				snprintf(err, errsz, "%s:%d: phase %s: compute "
				    "measured, but no measurement at N=%g P=%g",
				    m->path, p->line, p->name, N, P);
				return -1;
			}
			out[i].compute = meas[i];
		} else if (value(m, p->compute, &out[i].compute, p->cline,
		    "compute", p->name, err, errsz) < 0)
			return -1;
		for (j = 0; j < p->nop; j++) {
			const struct mop *o = &p->ops[j];

			if (value(m, o->calls, &calls, o->line, "calls",
			    p->name, err, errsz) < 0)
				return -1;
			bytes = 0;
			if (o->bytes && value(m, o->bytes, &bytes, o->line,
			    "bytes", p->name, err, errsz) < 0)
				return -1;
			if (o->volume) {
				if (value(m, o->volume, &bytes, o->line,
				    "volume", p->name, err, errsz) < 0)
					return -1;
			} else
				bytes *= calls;
			size = strcmp(o->comm, "row") == 0 ? cols :
			    strcmp(o->comm, "col") == 0 ? rows : np;
			if (calls == 0)
				continue;
			if (tr_params_get(ps, o->op, o->comm, size, &a, &b, e2,
			    sizeof e2) < 0) {
				snprintf(err, errsz, "%s:%d: phase %s: %s",
				    m->path, o->line, p->name, e2);
				return -1;
			}
			out[i].comm += a * calls + b * bytes;
		}
		/* Times go out as integer ns, the phases' sum too. */
		total += out[i].compute + out[i].comm;
		if (!(total < 4e18)) {
			snprintf(err, errsz, "%s:%d: phase %s: predicted time "
			    "out of range (%g ns) at N=%g P=%g", m->path,
			    p->line, p->name, out[i].compute + out[i].comm, N,
			    P);
			return -1;
		}
	}
	return 0;
}
