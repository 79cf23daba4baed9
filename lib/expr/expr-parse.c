/* expr-parse.c - an expression's tokens parsed by recursive descent
 * into a tree. */
#include <stdlib.h>

#include "expr-int.h"

#define MAXDEPTH 200	/* parser nesting */

const struct expr_fn expr_fns[] = {
	[F_ABS] = {"abs", 1, 1}, [F_MIN] = {"min", 1, -1},
	[F_MAX] = {"max", 1, -1}, [F_LOG2] = {"log2", 1, 1},
	[F_LOG] = {"log", 1, 1}, [F_LOG10] = {"log10", 1, 1},
	[F_EXP] = {"exp", 1, 1}, [F_SQRT] = {"sqrt", 1, 1},
	[F_POW] = {"pow", 2, 2}, [F_FLOOR] = {"floor", 1, 1},
	[F_CEIL] = {"ceil", 1, 1},
};
#define NFNS (int)(sizeof expr_fns / sizeof expr_fns[0])

static struct node *
mknode(enum op op, int col, int nkid)
{
	struct node *n = tr_calloc(1, sizeof *n);

	n->op = op;
	n->col = col;
	n->nkid = nkid;
	if (nkid)
		n->kid = tr_calloc((size_t)nkid, sizeof *n->kid);
	return n;
}

void
expr_freenode(struct node *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < n->nkid; i++)
		expr_freenode(n->kid[i]);
	free(n->kid);
	free(n);
}

/* A string constant, unescaped, kept in the expression. */
static struct tr_val
strconst(struct parser *ps, const char *s, size_t n, int unescape)
{
	struct tr_expr *e = ps->e;
	struct tr_val v = {1, 0, NULL, 0};
	char *d = tr_malloc(n + 1), *o = d;
	size_t i;

	for (i = 0; i < n; i++) {
		if (unescape && s[i] == '\\' && i + 1 < n) {
			i++;
			switch (s[i]) {
			case 'n': *o++ = '\n'; break;
			case 't': *o++ = '\t'; break;
			case '\\': case '"': *o++ = s[i]; break;
			default:
				/* Kept: regexes need \. and friends. */
				*o++ = '\\';
				*o++ = s[i];
			}
		} else
			*o++ = s[i];
	}
	*o = '\0';
	e->strs = tr_realloc(e->strs, (e->nstrs + 1) * sizeof *e->strs);
	e->strs[e->nstrs++] = d;
	v.s = d;
	v.n = (size_t)(o - d);
	return v;
}

static struct node *
parse_primary(struct parser *ps)
{
	struct node *n, *a;
	int col = ps->tcol, i, slot;

	switch (ps->tok) {
	case T_NUM:
		n = mknode(O_NUM, col, 0);
		n->v.num = ps->tnum;
		expr_next(ps);
		return n;
	case T_STR:
		n = mknode(O_STR, col, 0);
		n->v = strconst(ps, ps->ts + 1, ps->tn - 2, 1);
		expr_next(ps);
		return n;
	case '(':
		expr_next(ps);
		n = expr_parse_or(ps);
		if (ps->tok != ')') {
			expr_fail(ps, ps->tcol, "expected ')'");
			expr_freenode(n);
			return NULL;
		}
		expr_next(ps);
		return n;
	case T_ID:
		break;
	case T_EOF:
		expr_fail(ps, col, "expression ends too soon");
		return NULL;
	default:
		expr_fail(ps, col, "expected a value, got '%.*s'", (int)ps->tn,
		    ps->ts);
		return NULL;
	}
	if (*ps->p == '(' || (ps->p[0] == ' ' && ps->p[1] == '(')) {
		const char *name = ps->ts;
		size_t nn = ps->tn;

		for (i = 0; i < NFNS; i++)
			if (strlen(expr_fns[i].name) == nn &&
			    memcmp(expr_fns[i].name, name, nn) == 0)
				break;
		if (i == NFNS) {
			expr_fail(ps, col, "unknown function '%.*s' (abs min "
			    "max log2 log log10 exp sqrt pow floor ceil)",
			    (int)nn, name);
			return NULL;
		}
		expr_next(ps);
		expr_next(ps);
		n = mknode(O_CALL, col, 0);
		n->arg = i;
		if (ps->tok != ')') {
			for (;;) {
				if (!(a = expr_parse_or(ps))) {
					expr_freenode(n);
					return NULL;
				}
				n->kid = tr_realloc(n->kid,
				    (size_t)(n->nkid + 1) * sizeof *n->kid);
				n->kid[n->nkid++] = a;
				if (ps->tok != ',')
					break;
				expr_next(ps);
			}
		}
		if (ps->tok != ')') {
			expr_fail(ps, ps->tcol, "expected ',' or ')'");
			expr_freenode(n);
			return NULL;
		}
		expr_next(ps);
		if (n->nkid < expr_fns[i].min || (expr_fns[i].max >= 0 &&
		    n->nkid > expr_fns[i].max)) {
			if (expr_fns[i].max < 0)
				expr_fail(ps, col, "%s takes at least %d "
				    "argument%s",
				    expr_fns[i].name, expr_fns[i].min,
				    expr_fns[i].min == 1 ? "" : "s");
			else
				expr_fail(ps, col, "%s takes %d argument%s",
				    expr_fns[i].name, expr_fns[i].min,
				    expr_fns[i].min == 1 ? "" : "s");
			expr_freenode(n);
			return NULL;
		}
		return n;
	}
	slot = ps->lookup ? ps->lookup(ps->ctx, ps->ts, ps->tn) : -1;
	if (slot < 0) {
		expr_fail(ps, col, "unknown name '%.*s'", (int)ps->tn, ps->ts);
		return NULL;
	}
	n = mknode(O_VAR, col, 0);
	n->arg = slot;
	expr_next(ps);
	return n;
}

static struct node *parse_unary(struct parser *);

static struct node *
parse_pow(struct parser *ps)
{
	struct node *a = parse_primary(ps), *n;
	int col = ps->tcol;

	if (!a || ps->tok != '^')
		return a;
	expr_next(ps);
	n = mknode(O_POW, col, 2);
	n->kid[0] = a;
	if (!(n->kid[1] = parse_unary(ps))) {
		expr_freenode(n);
		return NULL;
	}
	return n;
}

static struct node *
parse_unary(struct parser *ps)
{
	struct node *n;
	int col = ps->tcol, t = ps->tok;

	if (t != '-' && t != '+' && t != '!')
		return parse_pow(ps);
	if (++ps->depth > MAXDEPTH) {
		expr_fail(ps, col, "expression nests too deeply");
		return NULL;
	}
	expr_next(ps);
	n = parse_unary(ps);
	ps->depth--;
	if (!n || t == '+')
		return n;
	{
		struct node *u = mknode(t == '-' ? O_NEG : O_NOT, col, 1);

		u->kid[0] = n;
		return u;
	}
}

static struct node *
binary(enum op op, int col, struct node *a, struct node *b)
{
	struct node *n;

	if (!b) {
		expr_freenode(a);
		return NULL;
	}
	n = mknode(op, col, 2);
	n->kid[0] = a;
	n->kid[1] = b;
	return n;
}

static struct node *
parse_mul(struct parser *ps)
{
	struct node *a = parse_unary(ps);
	enum op op;
	int col;

	while (a && (ps->tok == '*' || ps->tok == '/' || ps->tok == '%')) {
		op = ps->tok == '*' ? O_MUL : ps->tok == '/' ? O_DIV : O_MOD;
		col = ps->tcol;
		expr_next(ps);
		a = binary(op, col, a, parse_unary(ps));
	}
	return a;
}

static struct node *
parse_add(struct parser *ps)
{
	struct node *a = parse_mul(ps);
	enum op op;
	int col;

	while (a && (ps->tok == '+' || ps->tok == '-')) {
		op = ps->tok == '+' ? O_ADD : O_SUB;
		col = ps->tcol;
		expr_next(ps);
		a = binary(op, col, a, parse_mul(ps));
	}
	return a;
}

static struct node *
parse_set(struct parser *ps, struct node *x, int col)
{
	struct tr_expr *e = ps->e;
	struct set *s;
	struct node *n;
	int neg;

	if (ps->tok != '{') {
		expr_fail(ps, ps->tcol, "expected '{' after in");
		expr_freenode(x);
		return NULL;
	}
	e->sets = tr_realloc(e->sets, (e->nsets + 1) * sizeof *e->sets);
	s = &e->sets[e->nsets];
	s->n = 0;
	s->v = NULL;
	s->lits = NULL;
	n = mknode(O_IN, col, 1);
	n->kid[0] = x;
	n->arg = (int)e->nsets++;
	expr_next(ps);
	while (ps->tok != '}') {
		struct tr_val v;

		/* Bare words in a set are names, not fields. */
		neg = 0;
		if (ps->tok == T_ID) {
			v = strconst(ps, ps->ts, ps->tn, 0);
			expr_next(ps);
		} else {
			if (ps->tok == '-') {
				neg = 1;
				expr_next(ps);
			}
			if (ps->tok == T_NUM) {
				v.isstr = 0;
				v.num = neg ? -ps->tnum : ps->tnum;
				v.s = NULL;
				v.n = 0;
			} else if (ps->tok == T_STR && !neg) {
				v = strconst(ps, ps->ts + 1, ps->tn - 2, 1);
			} else {
				expr_fail(ps, ps->tcol, "a set holds numbers, "
				    "strings and names");
				expr_freenode(n);
				return NULL;
			}
			expr_next(ps);
		}
		s = &e->sets[n->arg];
		s->v = tr_realloc(s->v, (size_t)(s->n + 1) * sizeof *s->v);
		s->v[s->n++] = v;
		if (ps->tok == ',')
			expr_next(ps);
		else if (ps->tok != '}') {
			expr_fail(ps, ps->tcol, "expected ',' or '}'");
			expr_freenode(n);
			return NULL;
		}
	}
	expr_next(ps);
	e->sets[n->arg].lits = expr_setlits(&e->sets[n->arg]);
	return n;
}

static struct node *
parse_cmp(struct parser *ps)
{
	struct node *a = parse_add(ps);
	enum op op;
	int col;

	if (!a)
		return NULL;
	switch (ps->tok) {
	case T_EQ: op = O_EQ; break;
	case T_NE: op = O_NE; break;
	case '<': op = O_LT; break;
	case T_LE: op = O_LE; break;
	case '>': op = O_GT; break;
	case T_GE: op = O_GE; break;
	case '~': op = O_MATCH; break;
	case T_NMATCH: op = O_NMATCH; break;
	case T_IN:
		col = ps->tcol;
		expr_next(ps);
		return parse_set(ps, a, col);
	default:
		return a;
	}
	col = ps->tcol;
	expr_next(ps);
	a = binary(op, col, a, parse_add(ps));
	if (a && (ps->tok == T_EQ || ps->tok == T_NE || ps->tok == '<' ||
	    ps->tok == '>' || ps->tok == T_LE || ps->tok == T_GE ||
	    ps->tok == '~' || ps->tok == T_NMATCH || ps->tok == T_IN)) {
		expr_fail(ps, ps->tcol, "comparisons do not chain: use && or "
		    "parentheses");
		expr_freenode(a);
		return NULL;
	}
	return a;
}

static struct node *
parse_and(struct parser *ps)
{
	struct node *a = parse_cmp(ps);
	int col;

	while (a && ps->tok == T_AND) {
		col = ps->tcol;
		expr_next(ps);
		a = binary(O_AND, col, a, parse_cmp(ps));
	}
	return a;
}

struct node *
expr_parse_or(struct parser *ps)
{
	struct node *a;
	int col;

	if (++ps->depth > MAXDEPTH) {
		expr_fail(ps, ps->tcol, "expression nests too deeply");
		return NULL;
	}
	a = parse_and(ps);
	while (a && ps->tok == T_OR) {
		col = ps->tcol;
		expr_next(ps);
		a = binary(O_OR, col, a, parse_and(ps));
	}
	ps->depth--;
	return a;
}
