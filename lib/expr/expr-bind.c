/* expr-bind.c - a tree bound to one record layout, run as typed nodes
 * that read the record. */
#include <stdlib.h>

#include "expr-int.h"

/* tr_expr_eval reads operands from slots the caller fills for every
 * record and moves 32-byte values through a stack. When the layout says
 * what every operand is (an integer of the parsed record, a string
 * field), each node can call its operands directly and get a double or
 * a truth value instead: nothing to fill, nothing to push, and an &&
 * that fails on its left reads nothing more. The results are those of
 * tr_expr_eval; a tree with a part it cannot type is not bound, and the
 * caller evaluates as before. */

struct tn;
typedef double (*tn_num)(const struct tn *, const struct tr_rec *);
typedef int (*tn_test)(const struct tn *, const struct tr_rec *);

/* A string operand: a field of the record, or a constant (col -1). */
struct tstr {
	int col;
	const char *s;
	size_t n;
};

#define MAXARGS 8	/* of a call on the bound tree */

struct tn {
	tn_num num;		/* one of the two is set */
	tn_test test;
	struct tn *a, *b, *args[MAXARGS];
	int nargs;
	int op;			/* enum op, for nodes that serve several */
	int arg;		/* function, regex or set index */
	double k;
	long off, off2;		/* of integers, from the record's start */
	struct tstr s, s2;
	const struct tr_expr *e;
	const struct lits *lits;	/* of a regex of a few strings */
};

struct tr_expr_bound {
	struct tn *root;
};

struct bctx {
	const struct tr_expr *e;
	const struct tr_slotsrc *src;
};

static int64_t
ld64(const struct tr_rec *r, long off)
{
	int64_t v;

	memcpy(&v, (const char *)r + off, sizeof v);
	return v;
}

static const char *
tstr(const struct tstr *s, const struct tr_rec *r, size_t *n)
{
	if (s->col < 0) {
		*n = s->n;
		return s->s;
	}
	*n = r->f[s->col].n;
	return r->f[s->col].p;
}

static int
cmpnum(int op, double x, double y)
{
	switch (op) {
	case O_EQ: return x == y;
	case O_NE: return x != y;
	case O_LT: return x < y;
	case O_LE: return x <= y;
	case O_GT: return x > y;
	default: return x >= y;
	}
}

static double n_const(const struct tn *t, const struct tr_rec *r)
{ (void)r; return t->k; }
static double n_int(const struct tn *t, const struct tr_rec *r)
{ return (double)ld64(r, t->off); }
static double n_subint(const struct tn *t, const struct tr_rec *r)
{ return (double)ld64(r, t->off) - (double)ld64(r, t->off2); }
static double n_neg(const struct tn *t, const struct tr_rec *r)
{ return -t->a->num(t->a, r); }
static double n_arith(const struct tn *t, const struct tr_rec *r)
{ return arith(t->op, t->a->num(t->a, r), t->b->num(t->b, r)); }
static double n_test(const struct tn *t, const struct tr_rec *r)
{ return t->a->test(t->a, r); }

static double
n_call(const struct tn *t, const struct tr_rec *r)
{
	struct tr_val v[MAXARGS];
	int i;

	for (i = 0; i < t->nargs; i++)
		v[i].num = t->args[i]->num(t->args[i], r);
	return expr_callfn(t->arg, v, t->nargs);
}

static int t_num(const struct tn *t, const struct tr_rec *r)
{ double x = t->a->num(t->a, r); return x != 0 && !isnan(x); }
static int t_cmp(const struct tn *t, const struct tr_rec *r)
{ return cmpnum(t->op, t->a->num(t->a, r), t->b->num(t->b, r)); }
static int t_cmpk(const struct tn *t, const struct tr_rec *r)
{ return cmpnum(t->op, t->a->num(t->a, r), t->k); }
static int t_cmpintk(const struct tn *t, const struct tr_rec *r)
{ return cmpnum(t->op, (double)ld64(r, t->off), t->k); }
static int t_and(const struct tn *t, const struct tr_rec *r)
{ return t->a->test(t->a, r) && t->b->test(t->b, r); }
static int t_or(const struct tn *t, const struct tr_rec *r)
{ return t->a->test(t->a, r) || t->b->test(t->b, r); }
static int t_andb(const struct tn *t, const struct tr_rec *r)
{ return t->a->test(t->a, r) & t->b->test(t->b, r); }
static int t_orb(const struct tn *t, const struct tr_rec *r)
{ return t->a->test(t->a, r) | t->b->test(t->b, r); }
static int t_not(const struct tn *t, const struct tr_rec *r)
{ return !t->a->test(t->a, r); }

static int
t_strtrue(const struct tn *t, const struct tr_rec *r)
{
	size_t n;

	tstr(&t->s, r, &n);
	return n > 0;
}

/* A string field == or != a constant, the common test. */
static int
t_streq(const struct tn *t, const struct tr_rec *r)
{
	size_t n;
	const char *p = tstr(&t->s, r, &n);
	int eq = n == t->s2.n && (n == 0 || memcmp(p, t->s2.s, n) == 0);

	return t->op == O_EQ ? eq : !eq;
}

static int
t_strcmp(const struct tn *t, const struct tr_rec *r)
{
	struct tr_val a = {1, 0, NULL, 0}, b = {1, 0, NULL, 0};

	a.s = tstr(&t->s, r, &a.n);
	b.s = tstr(&t->s2, r, &b.n);
	return expr_compare(t->op, &a, &b);
}

static int
t_match(const struct tn *t, const struct tr_rec *r)
{
	struct tr_val v = {1, 0, NULL, 0};
	int m;

	v.s = tstr(&t->s, r, &v.n);
	m = expr_rematch_memo(t->e, t->arg, &v);
	return t->op == O_MATCH ? m : !m;
}

/* A regex of a few whole literal strings of up to 16 bytes, e.g.
 * "^MPI_(Isend|Irecv)$": which one a field holds is a coin toss, so the
 * field is compared with all, without a branch. */
static int
t_litkeys(const struct tn *t, const struct tr_rec *r)
{
	const struct lits *l = t->lits;
	size_t n;
	const char *p = tstr(&t->s, r, &n);
	uint64_t w0, w1;
	int i, hit = 0;

	if (n > 16)
		return t->op == O_NMATCH;
	shortkey(p, n, &w0, &w1);
	for (i = 0; i < l->n; i++)
		hit |= (w0 == l->w0[i]) & (w1 == l->w1[i]) & (n == l->len[i]);
	return t->op == O_NMATCH ? !hit : hit;
}

/* A regex of a few literal strings, anchored or not: as it would
 * match, without it. */
static int
t_lits(const struct tn *t, const struct tr_rec *r)
{
	const struct lits *l = t->lits;
	size_t n, m;
	const char *p = tstr(&t->s, r, &n), *q;
	int i, hit = 0;

	for (i = 0; i < l->n && !hit; i++) {
		m = l->len[i];
		if (m > n)
			continue;
		if (l->head)
			hit = (!l->tail || m == n) && memcmp(p, l->s[i], m) == 0;
		else if (l->tail)
			hit = memcmp(p + n - m, l->s[i], m) == 0;
		else if (m == 0)
			hit = 1;
		else
			for (q = p; !hit && (q = memchr(q, l->s[i][0],
			    n - m + 1 - (size_t)(q - p))); q++)
				hit = memcmp(q, l->s[i], m) == 0;
	}
	return t->op == O_MATCH ? hit : !hit;
}

static int
t_in(const struct tn *t, const struct tr_rec *r)
{
	struct tr_val v = {1, 0, NULL, 0};

	if (t->a) {
		v.isstr = 0;
		v.num = t->a->num(t->a, r);
	} else
		v.s = tstr(&t->s, r, &v.n);
	return inset(&t->e->sets[t->arg], &v);
}

static int
cheap(const struct tn *t)
{
	return t->test == t_cmpintk || t->test == t_litkeys;
}

static void
tnfree(struct tn *t)
{
	int i;

	if (!t)
		return;
	tnfree(t->a);
	tnfree(t->b);
	for (i = 0; i < t->nargs; i++)
		tnfree(t->args[i]);
	free(t);
}

static struct tn *
tnew(const struct bctx *c, int op)
{
	struct tn *t = tr_calloc(1, sizeof *t);

	t->op = op;
	t->e = c->e;
	t->s.col = t->s2.col = -1;
	return t;
}

/* A node of OP over A and, unless WANTB is 0, B, computed by NUM or
 * TEST; NULL, and nothing kept, if an operand could not be bound. */
static struct tn *
over(const struct bctx *c, int op, struct tn *a, struct tn *b, int wantb,
    tn_num num, tn_test test)
{
	struct tn *t;

	if (!a || (wantb && !b)) {
		tnfree(a);
		tnfree(b);
		return NULL;
	}
	t = tnew(c, op);
	t->a = a;
	t->b = b;
	t->num = num;
	t->test = test;
	return t;
}

/* Drops an operand whose value (a constant, an integer's offset) the
 * node has copied. */
static void
drop(struct tn **p)
{
	tnfree(*p);
	*p = NULL;
}

/* Whether n is a string operand; *s says where it is. */
static int
bstr(const struct bctx *c, const struct node *n, struct tstr *s)
{
	if (n->op == O_STR) {
		s->col = -1;
		s->s = n->v.s;
		s->n = n->v.n;
		return 1;
	}
	if (n->op == O_VAR && c->src[n->arg].kind == TR_SRC_STR) {
		s->col = c->src[n->arg].col;
		s->s = NULL;
		s->n = 0;
		return 1;
	}
	return 0;
}

static struct tn *btest(const struct bctx *, const struct node *);

static int
isbool(enum op op)
{
	return (op >= O_EQ && op <= O_OR) || op == O_NOT;
}

static struct tn *
bnum(const struct bctx *c, const struct node *n)
{
	struct tn *t;
	int i;

	if (isbool(n->op))
		return over(c, n->op, btest(c, n), NULL, 0, n_test, NULL);
	switch (n->op) {
	case O_NUM:
		t = tnew(c, n->op);
		t->num = n_const;
		t->k = n->v.num;
		return t;
	case O_VAR:
		if (c->src[n->arg].kind != TR_SRC_I64)
			return NULL;
		t = tnew(c, n->op);
		t->num = n_int;
		t->off = c->src[n->arg].off;
		return t;
	case O_NEG:
		return over(c, n->op, bnum(c, n->kid[0]), NULL, 0, n_neg,
		    NULL);
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MOD:
	case O_POW:
		t = over(c, n->op, bnum(c, n->kid[0]), bnum(c, n->kid[1]), 1,
		    n_arith, NULL);
		if (t && n->op == O_SUB && t->a->num == n_int &&
		    t->b->num == n_int) {
			t->num = n_subint;
			t->off = t->a->off;
			t->off2 = t->b->off;
			drop(&t->a);
			drop(&t->b);
		}
		return t;
	case O_CALL:
		if (n->nkid > MAXARGS)
			return NULL;
		t = tnew(c, n->op);
		t->num = n_call;
		t->arg = n->arg;
		for (i = 0; i < n->nkid; i++) {
			if (!(t->args[i] = bnum(c, n->kid[i]))) {
				tnfree(t);
				return NULL;
			}
			t->nargs++;
		}
		return t;
	default:
		return NULL;
	}
}

static struct tn *
btest(const struct bctx *c, const struct node *n)
{
	struct tstr sa, sb;
	struct tn *t;

	switch (n->op) {
	case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT: case O_GE:
		if (bstr(c, n->kid[0], &sa) && bstr(c, n->kid[1], &sb)) {
			t = tnew(c, n->op);
			t->test = t_strcmp;
			if ((n->op == O_EQ || n->op == O_NE) &&
			    (sa.col < 0 || sb.col < 0)) {
				t->test = t_streq;
				if (sa.col < 0) {
					struct tstr x = sa;

					sa = sb;
					sb = x;
				}
			}
			t->s = sa;
			t->s2 = sb;
			return t;
		}
		t = over(c, n->op, bnum(c, n->kid[0]), bnum(c, n->kid[1]), 1,
		    NULL, t_cmp);
		if (t && t->b->num == n_const) {
			t->test = t_cmpk;
			t->k = t->b->k;
			drop(&t->b);
			if (t->a->num == n_int) {
				t->test = t_cmpintk;
				t->off = t->a->off;
				drop(&t->a);
			}
		}
		return t;
	case O_MATCH: case O_NMATCH:
		if (n->arg < 0 || !bstr(c, n->kid[0], &sa))
			return NULL;
		t = tnew(c, n->op);
		t->lits = c->e->memo[n->arg].lits;
		t->test = !t->lits ? t_match : t->lits->shortkeys ? t_litkeys :
		    t_lits;
		t->arg = n->arg;
		t->s = sa;
		return t;
	case O_IN:
		t = tnew(c, n->op);
		t->test = t_in;
		t->arg = n->arg;
		if (bstr(c, n->kid[0], &sa) &&
		    expr_setof(&c->e->sets[n->arg], 1)) {
			t->s = sa;
			/* as a regex of the same names would be */
			if ((t->lits = c->e->sets[n->arg].lits))
				t->test = t_litkeys;
		} else if (!expr_setof(&c->e->sets[n->arg], 0) ||
		    !(t->a = bnum(c, n->kid[0]))) {
			tnfree(t);
			return NULL;
		}
		return t;
	case O_AND:
	case O_OR:
		t = over(c, n->op, btest(c, n->kid[0]), btest(c, n->kid[1]),
		    1, NULL, n->op == O_AND ? t_and : t_or);
		/* A right side that costs less than a mispredicted branch is
		 * evaluated whatever the left gave (no test has effects). */
		if (t && cheap(t->b))
			t->test = n->op == O_AND ? t_andb : t_orb;
		return t;
	case O_NOT:
		return over(c, n->op, btest(c, n->kid[0]), NULL, 0, NULL,
		    t_not);
	default:
		break;
	}
	if (bstr(c, n, &sa)) {
		t = tnew(c, n->op);
		t->test = t_strtrue;
		t->s = sa;
		return t;
	}
	return over(c, n->op, bnum(c, n), NULL, 0, NULL, t_num);
}

struct tr_expr_bound *
tr_expr_bind(const struct tr_expr *e, const struct tr_slotsrc *src)
{
	struct bctx c = {e, src};
	struct tr_expr_bound *b;
	struct tn *t;

	if (!e->root || !(t = btest(&c, e->root)))
		return NULL;
	b = tr_malloc(sizeof *b);
	b->root = t;
	return b;
}

int
tr_expr_test(const struct tr_expr_bound *b, const struct tr_rec *r)
{
	return b->root->test(b->root, r);
}

void
tr_expr_unbind(struct tr_expr_bound *b)
{
	if (!b)
		return;
	tnfree(b->root);
	free(b);
}
