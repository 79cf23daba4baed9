/* select.c - which records tr-filter keeps: rank ranges, a time window
 * that keeps regions whole, and an expression bound to the columns of
 * each record type. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"

/* How the slots map to the columns of one record type. */
struct bind {
	const struct tr_decl *decl;
	int ok;			/* has every field the expression uses */
	int *col;		/* per slot; 0 is the type name */
	long *off;		/* per slot: where an ev integer is in struct
				 * tr_ev, -2 for a string column, else -1 */
	int rankcol, startcol, endcol;
	long simpleoff;		/* of the simple test's field in struct tr_ev */
	struct tr_expr_bound *prog;	/* the expression on this layout */
};

struct tr_select {
	struct tr_selopt opt;
	struct tr_expr *e;
	/* Names the expression uses; slot i is names[i]. */
	char **names;
	int nnames;
	char *declared;		/* per slot: a #fields line has it */
	struct tr_val *slots;
	/* A test of one number, "rank == 0": its slot, relation and
	 * number. */
	int simple, sslot, rel;
	double num;
	struct bind *binds, *b;	/* b: the last record's */
	size_t nbinds;
	struct tr_regwin *rw;
};

static int
lookup(void *ctx, const char *name, size_t n)
{
	struct tr_select *s = ctx;
	int i;

	for (i = 0; i < s->nnames; i++)
		if (strlen(s->names[i]) == n &&
		    memcmp(s->names[i], name, n) == 0)
			return i;
	s->names = tr_realloc(s->names, (size_t)(s->nnames + 1) *
	    sizeof *s->names);
	s->names[s->nnames] = tr_strndup(name, n);
	return s->nnames++;
}

struct tr_select *
tr_select_new(const struct tr_selopt *opt)
{
	struct tr_select *s = tr_calloc(1, sizeof *s);
	char err[256];
	int col, i;

	s->opt = *opt;
	if (opt->expr) {
		s->e = tr_expr_parse(opt->expr, lookup, s, err, sizeof err,
		    &col);
		if (!s->e) {
			tr_expr_perror(opt->expr, err, col);
			exit(TR_EXIT_USAGE);
		}
		/* "rank == 0" on an ev record needs no evaluation. */
		s->simple = tr_expr_cmpnum(s->e, &s->sslot, &s->rel, &s->num);
	}
	s->slots = tr_calloc((size_t)s->nnames + 1, sizeof *s->slots);
	s->declared = tr_calloc((size_t)s->nnames + 1, 1);
	for (i = 0; i < s->nnames; i++)
		s->declared[i] = strcmp(s->names[i], "type") == 0;
	if (opt->window)
		s->rw = tr_regwin_new(opt->t0, opt->t1, opt->invert);
	return s;
}

unsigned
tr_select_want(const struct tr_select *s)
{
	const struct tr_schema *sc = tr_schema_get(TR_EV);
	unsigned want = 0;
	int col, i;

	for (i = 0; i < s->nnames; i++)
		if ((col = tr_schema_col(sc, s->names[i],
		    strlen(s->names[i]))) > 0)
			want |= 1u << col;
	return want;
}

static void
unbind(struct tr_select *s)
{
	size_t i;

	for (i = 0; i < s->nbinds; i++) {
		free(s->binds[i].col);
		free(s->binds[i].off);
		tr_expr_unbind(s->binds[i].prog);
	}
	s->nbinds = 0;
	s->b = NULL;
}

/* Notes which names the section's record types have, and binds anew. */
void
tr_select_hdr(struct tr_select *s, const struct tr_in *in)
{
	const struct tr_decl *d;
	size_t i;
	int k;

	for (k = 0; k < s->nnames; k++)
		for (i = 0; !s->declared[k] && (d = tr_decl_at(in, i)); i++)
			s->declared[k] = tr_decl_col(d, s->names[k]) >= 0;
	unbind(s);
}

/* Header lines come mid-section too (a rank's end, tr-cat -m): only a
 * section's end closes its regions. */
void
tr_select_end(struct tr_select *s)
{
	if (s->rw)
		tr_regwin_reset(s->rw);
}

const char *
tr_select_undeclared(const struct tr_select *s)
{
	int i;

	for (i = 0; i < s->nnames; i++)
		if (!s->declared[i])
			return s->names[i];
	return NULL;
}

static struct bind *
bind(struct tr_select *s, const struct tr_decl *d)
{
	struct bind *b;
	size_t i;
	int k;

	for (i = 0; i < s->nbinds; i++)
		if (s->binds[i].decl == d)
			return &s->binds[i];
	s->binds = tr_realloc(s->binds, (s->nbinds + 1) * sizeof *s->binds);
	b = &s->binds[s->nbinds++];
	b->decl = d;
	b->ok = 1;
	b->col = tr_calloc((size_t)s->nnames + 1, sizeof *b->col);
	b->off = tr_calloc((size_t)s->nnames + 1, sizeof *b->off);
	for (k = 0; k < s->nnames; k++) {
		b->col[k] = strcmp(s->names[k], "type") == 0 ? 0 :
		    tr_decl_col(d, s->names[k]);
		if (b->col[k] < 0)
			b->ok = 0;
		b->off[k] = b->col[k] < 0 ? -1 : d->schema && (b->col[k] == 0 ||
		    d->schema->kinds[b->col[k] - 1] == TR_STR) ? -2 :
		    d->schema && d->schema->type == TR_EV ? tr_ev_offset(b->col[k]) :
		    -1;
	}
	b->simpleoff = d->schema && d->schema->type == TR_EV && b->ok &&
	    s->simple ? tr_ev_offset(b->col[s->sslot]) : -1;
	b->prog = NULL;
	if (s->e && b->ok) {
		struct tr_slotsrc *src = tr_calloc((size_t)s->nnames + 1,
		    sizeof *src);

		for (k = 0; k < s->nnames; k++) {
			src[k].col = b->col[k];
			src[k].kind = b->off[k] == -2 ? TR_SRC_STR :
			    b->off[k] >= 0 ? TR_SRC_I64 : TR_SRC_NONE;
			src[k].off = (long)offsetof(struct tr_rec, u.ev) +
			    b->off[k];
		}
		b->prog = tr_expr_bind(s->e, src);
		free(src);
	}
	b->rankcol = tr_decl_col(d, "rank");
	b->startcol = tr_decl_col(d, "start");
	if (b->startcol < 0)
		b->startcol = tr_decl_col(d, "time");
	b->endcol = tr_decl_col(d, "end");
	if (b->endcol < 0)
		b->endcol = b->startcol;
	return b;
}

/* A column's value by its kind for the known types (tr_select_rec fills
 * ev's integers and strings itself); unknown types are guessed. */
static void
value(const struct tr_in *in, const struct tr_rec *r, int col,
    struct tr_val *v)
{
	const struct tr_field *f = &r->f[col];
	int64_t i;
	int k;

	v->s = f->p;
	v->n = f->n;
	v->isstr = 0;
	k = col > 0 && r->decl->schema ? r->decl->schema->kinds[col - 1] : 0;
	if (col == 0 || k == TR_STR) {
		v->isstr = 1;
		return;
	}
	if (k == TR_INT || k == TR_NNEG) {
		v->num = (double)tr_get_i64(in, r, col);
		return;
	}
	if (k == TR_FLT) {
		v->num = tr_get_f64(in, r, col);
		return;
	}
	if (tr_parse_i64(f->p, f->n, &i) == 0)
		v->num = (double)i;
	else if (tr_parse_f64(f->p, f->n, &v->num) != 0)
		v->isstr = 1;
}

static int
keep_rank(const struct tr_select *s, int64_t r)
{
	size_t i;

	for (i = 0; i < s->opt.nranks; i++)
		if (r >= s->opt.ranks[i].lo && r <= s->opt.ranks[i].hi)
			return 1;
	return 0;
}

/* The expression's value on R, as a test. */
static int
eval(struct tr_select *s, const struct tr_in *in, const struct tr_rec *r)
{
	const struct bind *b = s->b;
	struct tr_val out;
	int k;

	for (k = 0; k < s->nnames; k++) {
		struct tr_val *v = &s->slots[k];
		const struct tr_field *f = &r->f[b->col[k]];
		int64_t i;

		/* the common kinds inline, the rest by value() */
		if (b->off[k] >= 0) {
			memcpy(&i, (const char *)&r->u.ev + b->off[k],
			    sizeof i);
			v->num = (double)i;
			v->isstr = 0;
		} else if (b->off[k] == -2)
			v->isstr = 1;
		else {
			value(in, r, b->col[k], v);
			continue;
		}
		v->s = f->p;
		v->n = f->n;
	}
	if (tr_expr_eval(s->e, s->slots, &out) < 0)
		tr_in_die(in, "expression needs a number where the record has "
		    "a string");
	return out.isstr ? out.n > 0 : out.num != 0 && out.num == out.num;
}

int
tr_select_rec(struct tr_select *s, const struct tr_in *in,
    const struct tr_rec *r, struct tr_out *o)
{
	struct bind *b = s->b;
	int keep, tested, regtest, inwin;
	double x;

	if (!b || b->decl != r->decl)
		b = s->b = bind(s, r->decl);
	/* -v inverts the tests that apply; records no test applies to pass
	 * through either way. */
	keep = 1;
	tested = regtest = inwin = 0;
	if (s->opt.nranks && b->rankcol > 0) {
		tested = 1;
		keep = keep_rank(s, tr_get_i64(in, r, b->rankcol));
	}
	if (s->rw && r->type == TR_REG) {
		/* by the region's span, after the other tests */
		regtest = 1;
	} else if (keep && s->rw && b->startcol > 0) {
		tested = 1;
		int64_t st = tr_get_i64(in, r, b->startcol);

		/* overlaps [t0, t1), instants included */
		keep = st < s->opt.t1 && (st >= s->opt.t0 ||
		    tr_get_i64(in, r, b->endcol) > s->opt.t0);
		inwin = keep;
	}
	if (keep && b->simpleoff >= 0 && r->type == TR_EV) {
		int64_t v;

		memcpy(&v, (const char *)&r->u.ev + b->simpleoff, sizeof v);
		x = (double)v;
		tested = 1;
		switch (s->rel) {
		case 0: keep = x == s->num; break;
		case 1: keep = x != s->num; break;
		case 2: keep = x < s->num; break;
		case 3: keep = x <= s->num; break;
		case 4: keep = x > s->num; break;
		default: keep = x >= s->num;
		}
	} else if (keep && b->prog) {
		tested = 1;
		keep = tr_expr_test(b->prog, r);
	} else if (keep && s->e && b->ok) {
		tested = 1;
		keep = eval(s, in, r);
	}
	if (regtest) {
		tested = 1;
		keep = tr_regwin_test(s->rw, o, r, keep) && keep;
	}
	if (tested && keep == s->opt.invert)
		return 0;
	if (inwin && b->rankcol > 0)
		tr_regwin_kept(s->rw, o, tr_get_i64(in, r, b->rankcol));
	return 1;
}

void
tr_select_free(struct tr_select *s)
{
	int i;

	if (!s)
		return;
	tr_expr_free(s->e);
	tr_regwin_free(s->rw);
	unbind(s);
	free(s->binds);
	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->declared);
	free(s->slots);
	free(s);
}
