/* expr.c - a small expression language, parsed to a tree, folded, and
 * run as postfix code over a stack of values, or, bound to a record
 * layout, as a tree of typed nodes. Never compiled to machine code: the
 * input is user text. */
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

#define MAXDEPTH 200	/* parser nesting */
#define MAXSTACK 64	/* eval stack */
#define MEMOSLOTS 4096	/* strings whose match is remembered, per regex */
#define MEMOBYTES 65536	/* of those strings' bytes, at most */
#define MEMOKEYLEN 256	/* longer strings are matched each time */

enum op {
	O_NUM, O_STR, O_VAR,
	O_NEG, O_NOT,
	O_ADD, O_SUB, O_MUL, O_DIV, O_MOD, O_POW,
	O_EQ, O_NE, O_LT, O_LE, O_GT, O_GE,
	O_MATCH, O_NMATCH, O_IN,
	O_AND, O_OR,
	O_CALL,
	/* code only */
	O_JF, O_JT, O_BOOL,
	O_VEQN, O_VNEN, O_VLTN, O_VLEN, O_VGTN, O_VGEN,	/* slot CMP number */
	O_VEQS, O_VNES,		/* slot == or != string constant arg2 */
};

enum fn { F_ABS, F_MIN, F_MAX, F_LOG2, F_LOG, F_LOG10, F_EXP, F_SQRT,
	F_POW, F_FLOOR, F_CEIL };

static const struct {
	const char *name;
	int min, max;	/* arguments; max -1 for any */
} fns[] = {
	[F_ABS] = {"abs", 1, 1}, [F_MIN] = {"min", 1, -1},
	[F_MAX] = {"max", 1, -1}, [F_LOG2] = {"log2", 1, 1},
	[F_LOG] = {"log", 1, 1}, [F_LOG10] = {"log10", 1, 1},
	[F_EXP] = {"exp", 1, 1}, [F_SQRT] = {"sqrt", 1, 1},
	[F_POW] = {"pow", 2, 2}, [F_FLOOR] = {"floor", 1, 1},
	[F_CEIL] = {"ceil", 1, 1},
};

struct node {
	enum op op;
	int col;
	int arg;		/* slot, function, regex or set index */
	struct tr_val v;	/* constants */
	int nkid;
	struct node **kid;
};

struct set {
	int n;
	struct tr_val *v;
	struct lits *lits;	/* strings of 16 bytes at most, or NULL */
};

struct ins {
	int op;
	int arg, arg2;
	double num;
};

/* The results of one regex on the strings it has seen: fields such as op
 * take few values, and regexec costs far more than a lookup. A string
 * takes the slot its hash picks from the one there before; the bytes
 * are emptied when full: the size is bounded whatever the input.
 * Strings of up to 16 bytes, most names, are their own key: two words
 * and the length, compared without a hash or a memcmp. */
struct memoent {
	uint64_t h;
	unsigned off, n;
	int r;			/* -1 empty, else the match */
};
struct memoshort {
	uint64_t w0, w1;
	int n;
	int r;			/* -1 empty, else the match */
};
#define MEMOSHORT 256
struct memo {
	struct memoent *ent;
	char *bytes;
	size_t len;
	struct memoshort *sh;
	struct lits *lits;	/* what the regex matches, if few strings */
};

/* A regex that matches some of a few literal strings, e.g.
 * "^MPI_(Isend|Irecv)$" = {"MPI_Isend", "MPI_Irecv"} anchored at both
 * ends: a bound test compares the strings instead of asking the memo. */
#define MAXLITS 16
#define MAXLITLEN 128
struct lits {
	int n;
	int head, tail;		/* anchored at the start, at the end */
	int shortkeys;		/* whole strings of 16 bytes at most: */
	uint64_t w0[MAXLITS], w1[MAXLITS];	/* compared as shortkey()s */
	size_t len[MAXLITS];
	char s[MAXLITS][MAXLITLEN];
};

struct tr_expr {
	struct ins *code;
	size_t ncode, capcode;
	char **strs;		/* string constants, owned */
	size_t nstrs;
	regex_t *res;
	struct memo *memo;	/* per regex */
	size_t nres;
	struct set *sets;
	size_t nsets;
	int *slots;		/* distinct slots read */
	size_t nslots;
	char **bufp;		/* scratch for regexec, which needs NUL */
	size_t *bufcap;
	struct node *root;	/* the folded tree, for tr_expr_bind */
};

struct parser {
	const char *src, *p;
	tr_expr_lookup lookup;
	void *ctx;
	char *err;
	size_t errsz;
	int errcol;
	int failed;
	int depth;
	struct tr_expr *e;
	/* the current token */
	int tok;		/* one of T_* or a character */
	const char *ts;
	size_t tn;
	int tcol;
	double tnum;
};

enum { T_EOF = 256, T_NUM, T_STR, T_ID, T_EQ, T_NE, T_LE, T_GE, T_AND,
	T_OR, T_NMATCH, T_IN };

static void
fail(struct parser *ps, int col, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	ps->errcol = col;
	va_start(ap, fmt);
	vsnprintf(ps->err, ps->errsz, fmt, ap);
	va_end(ap);
}

static const struct {
	const char *name;
	double mul;
} units[] = {
	{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	{"B", 1}, {"KB", 1e3}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
	{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
};

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static int
isidstart(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
isid(int c)
{
	return isidstart(c) || isdig(c) || c == '.';
}

static void
next(struct parser *ps)
{
	const char *p = ps->p, *q;
	size_t i;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	ps->ts = p;
	ps->tcol = (int)(p - ps->src);
	if (!*p) {
		ps->tok = T_EOF;
		ps->tn = 0;
		ps->p = p;
		return;
	}
	if (isdig(*p) || (*p == '.' && isdig(p[1]))) {
		q = p;
		while (isdig(*q))
			q++;
		if (*q == '.')
			for (q++; isdig(*q); q++)
				;
		if ((*q == 'e' || *q == 'E') && (isdig(q[1]) ||
		    ((q[1] == '+' || q[1] == '-') && isdig(q[2])))) {
			for (q += 2; isdig(*q); q++)
				;
		}
		if (tr_parse_f64(p, (size_t)(q - p), &ps->tnum) != 0) {
			fail(ps, ps->tcol, "bad number");
			ps->tnum = 0;
		}
		if (isidstart(*q)) {
			const char *u = q;

			while (isid(*q))
				q++;
			for (i = 0; i < sizeof units / sizeof units[0]; i++)
				if (strlen(units[i].name) == (size_t)(q - u) &&
				    memcmp(units[i].name, u, (size_t)(q - u)) == 0)
					break;
			if (i == sizeof units / sizeof units[0])
				fail(ps, (int)(u - ps->src),
				    "unknown unit '%.*s' (ns us ms s B KB kB MB GB "
				    "KiB MiB GiB)", (int)(q - u), u);
			else
				ps->tnum *= units[i].mul;
		}
		ps->tok = T_NUM;
		ps->tn = (size_t)(q - p);
		ps->p = q;
		return;
	}
	if (isidstart(*p)) {
		for (q = p; isid(*q); q++)
			;
		ps->tn = (size_t)(q - p);
		ps->tok = ps->tn == 2 && memcmp(p, "in", 2) == 0 ? T_IN : T_ID;
		ps->p = q;
		return;
	}
	if (*p == '"') {
		for (q = p + 1; *q && *q != '"'; q++)
			if (*q == '\\' && q[1])
				q++;
		if (!*q) {
			fail(ps, ps->tcol, "unterminated string");
			ps->tok = T_EOF;
			ps->p = q;
			return;
		}
		ps->tok = T_STR;
		ps->tn = (size_t)(q + 1 - p);
		ps->p = q + 1;
		return;
	}
	ps->tn = 2;
	ps->p = p + 2;
	if (p[0] == '=' && p[1] == '=')
		ps->tok = T_EQ;
	else if (p[0] == '!' && p[1] == '=')
		ps->tok = T_NE;
	else if (p[0] == '<' && p[1] == '=')
		ps->tok = T_LE;
	else if (p[0] == '>' && p[1] == '=')
		ps->tok = T_GE;
	else if (p[0] == '&' && p[1] == '&')
		ps->tok = T_AND;
	else if (p[0] == '|' && p[1] == '|')
		ps->tok = T_OR;
	else if (p[0] == '!' && p[1] == '~')
		ps->tok = T_NMATCH;
	else if (strchr("+-*/%^()<>!~{},", *p)) {
		ps->tok = (unsigned char)*p;
		ps->tn = 1;
		ps->p = p + 1;
	} else {
		if (*p == '=')
			fail(ps, ps->tcol, "unexpected '=' (use == to compare)");
		else if (*p == '&' || *p == '|')
			fail(ps, ps->tcol, "unexpected '%c' (use %c%c)", *p, *p, *p);
		else if (*p == '\'')
			fail(ps, ps->tcol, "strings take double quotes");
		else
			fail(ps, ps->tcol, "unexpected '%c'", *p);
		ps->tok = T_EOF;
		ps->tn = 1;
		ps->p = p + 1;
	}
}

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

static void
freenode(struct node *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < n->nkid; i++)
		freenode(n->kid[i]);
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

static struct node *parse_or(struct parser *);

static struct node *
parse_primary(struct parser *ps)
{
	struct node *n, *a;
	int col = ps->tcol, i, slot;

	switch (ps->tok) {
	case T_NUM:
		n = mknode(O_NUM, col, 0);
		n->v.num = ps->tnum;
		next(ps);
		return n;
	case T_STR:
		n = mknode(O_STR, col, 0);
		n->v = strconst(ps, ps->ts + 1, ps->tn - 2, 1);
		next(ps);
		return n;
	case '(':
		next(ps);
		n = parse_or(ps);
		if (ps->tok != ')') {
			fail(ps, ps->tcol, "expected ')'");
			freenode(n);
			return NULL;
		}
		next(ps);
		return n;
	case T_ID:
		break;
	case T_EOF:
		fail(ps, col, "expression ends too soon");
		return NULL;
	default:
		fail(ps, col, "expected a value, got '%.*s'", (int)ps->tn,
		    ps->ts);
		return NULL;
	}
	if (*ps->p == '(' || (ps->p[0] == ' ' && ps->p[1] == '(')) {
		const char *name = ps->ts;
		size_t nn = ps->tn;

		for (i = 0; i < (int)(sizeof fns / sizeof fns[0]); i++)
			if (strlen(fns[i].name) == nn &&
			    memcmp(fns[i].name, name, nn) == 0)
				break;
		if (i == (int)(sizeof fns / sizeof fns[0])) {
			fail(ps, col, "unknown function '%.*s' (abs min max "
			    "log2 log log10 exp sqrt pow floor ceil)", (int)nn,
			    name);
			return NULL;
		}
		next(ps);
		next(ps);
		n = mknode(O_CALL, col, 0);
		n->arg = i;
		if (ps->tok != ')') {
			for (;;) {
				if (!(a = parse_or(ps))) {
					freenode(n);
					return NULL;
				}
				n->kid = tr_realloc(n->kid,
				    (size_t)(n->nkid + 1) * sizeof *n->kid);
				n->kid[n->nkid++] = a;
				if (ps->tok != ',')
					break;
				next(ps);
			}
		}
		if (ps->tok != ')') {
			fail(ps, ps->tcol, "expected ',' or ')'");
			freenode(n);
			return NULL;
		}
		next(ps);
		if (n->nkid < fns[i].min || (fns[i].max >= 0 &&
		    n->nkid > fns[i].max)) {
			if (fns[i].max < 0)
				fail(ps, col, "%s takes at least %d argument%s",
				    fns[i].name, fns[i].min,
				    fns[i].min == 1 ? "" : "s");
			else
				fail(ps, col, "%s takes %d argument%s",
				    fns[i].name, fns[i].min,
				    fns[i].min == 1 ? "" : "s");
			freenode(n);
			return NULL;
		}
		return n;
	}
	slot = ps->lookup ? ps->lookup(ps->ctx, ps->ts, ps->tn) : -1;
	if (slot < 0) {
		fail(ps, col, "unknown name '%.*s'", (int)ps->tn, ps->ts);
		return NULL;
	}
	n = mknode(O_VAR, col, 0);
	n->arg = slot;
	next(ps);
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
	next(ps);
	n = mknode(O_POW, col, 2);
	n->kid[0] = a;
	if (!(n->kid[1] = parse_unary(ps))) {
		freenode(n);
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
		fail(ps, col, "expression nests too deeply");
		return NULL;
	}
	next(ps);
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
		freenode(a);
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
		next(ps);
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
		next(ps);
		a = binary(op, col, a, parse_mul(ps));
	}
	return a;
}

static void shortkey(const char *, size_t, uint64_t *, uint64_t *);
static int setof(const struct set *, int);

/* A set of a few short strings, compared as the names of a literal
 * regex are: two words and a length each. */
static struct lits *
setlits(const struct set *s)
{
	struct lits *l;
	int i;

	if (s->n == 0 || s->n > MAXLITS || !setof(s, 1))
		return NULL;
	for (i = 0; i < s->n; i++)
		if (s->v[i].n > 16)
			return NULL;
	l = tr_calloc(1, sizeof *l);
	l->n = s->n;
	l->head = l->tail = l->shortkeys = 1;
	for (i = 0; i < s->n; i++) {
		l->len[i] = s->v[i].n;
		shortkey(s->v[i].s, s->v[i].n, &l->w0[i], &l->w1[i]);
	}
	return l;
}

static struct node *
parse_set(struct parser *ps, struct node *x, int col)
{
	struct tr_expr *e = ps->e;
	struct set *s;
	struct node *n;
	int neg;

	if (ps->tok != '{') {
		fail(ps, ps->tcol, "expected '{' after in");
		freenode(x);
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
	next(ps);
	while (ps->tok != '}') {
		struct tr_val v;

		/* Bare words in a set are names, not fields. */
		neg = 0;
		if (ps->tok == T_ID) {
			v = strconst(ps, ps->ts, ps->tn, 0);
			next(ps);
		} else {
			if (ps->tok == '-') {
				neg = 1;
				next(ps);
			}
			if (ps->tok == T_NUM) {
				v.isstr = 0;
				v.num = neg ? -ps->tnum : ps->tnum;
				v.s = NULL;
				v.n = 0;
			} else if (ps->tok == T_STR && !neg) {
				v = strconst(ps, ps->ts + 1, ps->tn - 2, 1);
			} else {
				fail(ps, ps->tcol, "a set holds numbers, strings "
				    "and names");
				freenode(n);
				return NULL;
			}
			next(ps);
		}
		s = &e->sets[n->arg];
		s->v = tr_realloc(s->v, (size_t)(s->n + 1) * sizeof *s->v);
		s->v[s->n++] = v;
		if (ps->tok == ',')
			next(ps);
		else if (ps->tok != '}') {
			fail(ps, ps->tcol, "expected ',' or '}'");
			freenode(n);
			return NULL;
		}
	}
	next(ps);
	e->sets[n->arg].lits = setlits(&e->sets[n->arg]);
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
		next(ps);
		return parse_set(ps, a, col);
	default:
		return a;
	}
	col = ps->tcol;
	next(ps);
	a = binary(op, col, a, parse_add(ps));
	if (a && (ps->tok == T_EQ || ps->tok == T_NE || ps->tok == '<' ||
	    ps->tok == '>' || ps->tok == T_LE || ps->tok == T_GE ||
	    ps->tok == '~' || ps->tok == T_NMATCH || ps->tok == T_IN)) {
		fail(ps, ps->tcol, "comparisons do not chain: use && or "
		    "parentheses");
		freenode(a);
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
		next(ps);
		a = binary(O_AND, col, a, parse_cmp(ps));
	}
	return a;
}

static struct node *
parse_or(struct parser *ps)
{
	struct node *a;
	int col;

	if (++ps->depth > MAXDEPTH) {
		fail(ps, ps->tcol, "expression nests too deeply");
		return NULL;
	}
	a = parse_and(ps);
	while (a && ps->tok == T_OR) {
		col = ps->tcol;
		next(ps);
		a = binary(O_OR, col, a, parse_and(ps));
	}
	ps->depth--;
	return a;
}

/* ---- evaluation of one operation, shared by folding and running ---- */

static int
truth(const struct tr_val *v)
{
	return v->isstr ? v->n > 0 : (v->num != 0 && !isnan(v->num));
}

/* The text of a value, for comparing with strings. */
static const char *
text(const struct tr_val *v, char *buf, size_t *n)
{
	if (v->isstr || v->s) {
		*n = v->n;
		return v->s;
	}
	tr_fmt_f64(buf, v->num)[0] = '\0';
	*n = strlen(buf);
	return buf;
}

static int
strcmpv(const struct tr_val *a, const struct tr_val *b)
{
	char ba[32], bb[32];
	size_t na, nb;
	const char *sa = text(a, ba, &na), *sb = text(b, bb, &nb);
	int c = memcmp(sa, sb, na < nb ? na : nb);

	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

static int
compare(enum op op, const struct tr_val *a, const struct tr_val *b)
{
	int c;

	if (!a->isstr && !b->isstr) {
		switch (op) {
		case O_EQ: return a->num == b->num;
		case O_NE: return a->num != b->num;
		case O_LT: return a->num < b->num;
		case O_LE: return a->num <= b->num;
		case O_GT: return a->num > b->num;
		default: return a->num >= b->num;
		}
	}
	c = strcmpv(a, b);
	switch (op) {
	case O_EQ: return c == 0;
	case O_NE: return c != 0;
	case O_LT: return c < 0;
	case O_LE: return c <= 0;
	case O_GT: return c > 0;
	default: return c >= 0;
	}
}

static double
arith(enum op op, double a, double b)
{
	switch (op) {
	case O_ADD: return a + b;
	case O_SUB: return a - b;
	case O_MUL: return a * b;
	case O_DIV: return a / b;
	case O_MOD: return fmod(a, b);
	default: return pow(a, b);
	}
}

static double
callfn(int f, const struct tr_val *a, int n)
{
	double x = a[0].num;
	int i;

	switch (f) {
	case F_ABS: return fabs(x);
	case F_MIN:
		for (i = 1; i < n; i++)
			if (a[i].num < x)
				x = a[i].num;
		return x;
	case F_MAX:
		for (i = 1; i < n; i++)
			if (a[i].num > x)
				x = a[i].num;
		return x;
	case F_LOG2: return log2(x);
	case F_LOG: return log(x);
	case F_LOG10: return log10(x);
	case F_EXP: return exp(x);
	case F_SQRT: return sqrt(x);
	case F_POW: return pow(x, a[1].num);
	case F_FLOOR: return floor(x);
	default: return ceil(x);
	}
}

static int
inset(const struct set *s, const struct tr_val *x)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (compare(O_EQ, x, &s->v[i]))
			return 1;
	return 0;
}

static int match(const struct tr_expr *, const regex_t *, const char *,
    size_t);

static int
rematch(const struct tr_expr *e, const regex_t *re, const struct tr_val *x)
{
	char nb[32];
	size_t n;
	const char *s = text(x, nb, &n);

	return match(e, re, s, n);
}

/* The bytes of a string of at most 16 bytes as two words; with the
 * length, they tell it from any other such string. */
static void
shortkey(const char *s, size_t n, uint64_t *w0, uint64_t *w1)
{
	uint32_t a, b;

	*w0 = *w1 = 0;
	if (n >= 8) {
		memcpy(w0, s, 8);
		memcpy(w1, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		*w0 = a | (uint64_t)b << 32;
	} else if (n)
		*w0 = (unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2]
		    << 8 | (uint64_t)(unsigned char)s[n - 1] << 16;
}

/* A literal regex, through its memo. */
static int
rematch_memo(const struct tr_expr *e, int i, const struct tr_val *x)
{
	struct memo *m = &e->memo[i];
	struct memoent *t;
	char nb[32];
	size_t n, j;
	const char *s = text(x, nb, &n);
	uint64_t h;

	if (n <= 16) {
		struct memoshort *q;
		uint64_t w0, w1;

		shortkey(s, n, &w0, &w1);
		if (!m->sh) {
			m->sh = tr_malloc(MEMOSHORT * sizeof *m->sh);
			for (j = 0; j < MEMOSHORT; j++)
				m->sh[j].r = -1;
		}
		q = &m->sh[((w0 ^ (w1 + n)) * 0x9e3779b97f4a7c15ULL) >> 56];
		if (q->r >= 0 && q->w0 == w0 && q->w1 == w1 && q->n == (int)n)
			return q->r;
		q->r = match(e, &e->res[i], s, n);
		q->w0 = w0;
		q->w1 = w1;
		q->n = (int)n;
		return q->r;
	}
	if (n > MEMOKEYLEN)
		return match(e, &e->res[i], s, n);
	if (!m->ent) {
		m->ent = tr_malloc(MEMOSLOTS * sizeof *m->ent);
		for (j = 0; j < MEMOSLOTS; j++)
			m->ent[j].r = -1;
		m->bytes = tr_malloc(MEMOBYTES);
	}
	h = tr_hash(s, n);
	t = &m->ent[h & (MEMOSLOTS - 1)];
	if (t->r >= 0 && t->h == h && t->n == n &&
	    memcmp(m->bytes + t->off, s, n) == 0)
		return t->r;
	if (m->len + n > MEMOBYTES) {
		for (j = 0; j < MEMOSLOTS; j++)
			m->ent[j].r = -1;
		m->len = 0;
	}
	t->r = match(e, &e->res[i], s, n);
	t->h = h;
	t->off = (unsigned)m->len;
	t->n = (unsigned)n;
	memcpy(m->bytes + m->len, s, n);
	m->len += n;
	return t->r;
}

static int
match(const struct tr_expr *e, const regex_t *re, const char *s, size_t n)
{
	if (n + 1 > *e->bufcap) {
		*e->bufcap = n + 64;
		*e->bufp = tr_realloc(*e->bufp, *e->bufcap);
	}
	memcpy(*e->bufp, s, n);
	(*e->bufp)[n] = '\0';
	return regexec(re, *e->bufp, 0, NULL, 0) == 0;
}

/* A pattern that is not a literal is compiled each time. */
static int
dynmatch(const struct tr_expr *e, const struct tr_val *x,
    const struct tr_val *pat, int *r)
{
	regex_t re;
	char *p;
	int rc;

	if (!pat->isstr)
		return -1;
	p = tr_strndup(pat->s, pat->n);
	rc = regcomp(&re, p, REG_EXTENDED | REG_NOSUB);
	free(p);
	if (rc != 0)
		return -1;
	*r = rematch(e, &re, x);
	regfree(&re);
	return 0;
}

/* ---- regexes of a few literal strings ---- */

struct lparse {
	const char *p;
	int bad;
	int depth;		/* of groups: each level holds two sets */
};
#define MAXLITDEPTH 4

static void lalt(struct lparse *lp, struct lits *out);

/* out = every string of a followed by one of b */
static void
lcat(struct lparse *lp, struct lits *a, const struct lits *b)
{
	struct lits r;
	int i, j;

	if ((long)a->n * b->n > MAXLITS) {
		lp->bad = 1;
		return;
	}
	r.n = 0;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			if (a->len[i] + b->len[j] > MAXLITLEN) {
				lp->bad = 1;
				return;
			}
			memcpy(r.s[r.n], a->s[i], a->len[i]);
			memcpy(r.s[r.n] + a->len[i], b->s[j], b->len[j]);
			r.len[r.n++] = a->len[i] + b->len[j];
		}
	for (i = 0; i < r.n; i++) {
		memcpy(a->s[i], r.s[i], r.len[i]);
		a->len[i] = r.len[i];
	}
	a->n = r.n;
}

/* seq := (char | '\' meta | '(' alt ')')* */
static void
lseq(struct lparse *lp, struct lits *out)
{
	static const char meta[] = ".[]()*+?{}|\\^$";
	struct lits x;

	out->n = 1;
	out->len[0] = 0;
	while (!lp->bad && *lp->p && *lp->p != '|' && *lp->p != ')') {
		x.n = 1;
		x.len[0] = 1;
		if (*lp->p == '(') {
			lp->p++;
			if (++lp->depth > MAXLITDEPTH) {
				lp->bad = 1;
				break;
			}
			lalt(lp, &x);
			lp->depth--;
			if (*lp->p != ')')
				lp->bad = 1;
			else
				lp->p++;
		} else if (*lp->p == '\\' && lp->p[1] && strchr(meta, lp->p[1])) {
			x.s[0][0] = lp->p[1];
			lp->p += 2;
		} else if (strchr(meta, *lp->p))
			lp->bad = 1;
		else
			x.s[0][0] = *lp->p++;
		if (!lp->bad && (*lp->p == '*' || *lp->p == '+' ||
		    *lp->p == '?' || *lp->p == '{'))
			lp->bad = 1;	/* repeated: not a few strings */
		if (!lp->bad)
			lcat(lp, out, &x);
	}
}

static void
lalt(struct lparse *lp, struct lits *out)
{
	struct lits x;
	int i;

	lseq(lp, out);
	while (!lp->bad && *lp->p == '|') {
		lp->p++;
		lseq(lp, &x);
		if (lp->bad || out->n + x.n > MAXLITS) {
			lp->bad = 1;
			return;
		}
		for (i = 0; i < x.n; i++) {
			memcpy(out->s[out->n], x.s[i], x.len[i]);
			out->len[out->n++] = x.len[i];
		}
	}
}

/* The strings of a regex, or NULL if it is more than a few literals. A
 * top-level '|' splits anchors ("^a|b$"), so it is taken only inside a
 * group. */
static struct lits *
litset(const char *pat)
{
	struct lits *l = tr_malloc(sizeof *l);
	size_t n = strlen(pat);
	char *body;
	struct lparse lp;
	int i;

	l->head = *pat == '^';
	l->tail = n > (size_t)l->head && pat[n - 1] == '$' &&
	    (n < 2 || pat[n - 2] != '\\');
	body = tr_strndup(pat + l->head, n - (size_t)l->head -
	    (size_t)l->tail);
	lp.p = body;
	lp.bad = lp.depth = 0;
	lseq(&lp, l);
	lp.bad |= *lp.p != '\0';	/* a ')' or '|' left over */
	free(body);
	if (lp.bad) {
		free(l);
		return NULL;
	}
	l->shortkeys = l->head && l->tail;
	for (i = 0; i < l->n; i++) {
		l->shortkeys &= l->len[i] <= 16;
		shortkey(l->s[i], l->len[i], &l->w0[i], &l->w1[i]);
	}
	return l;
}

/* ---- folding and code generation ---- */

static int
addregex(struct parser *ps, const struct tr_val *pat, int col)
{
	struct tr_expr *e = ps->e;
	char msg[128];
	int rc;

	e->res = tr_realloc(e->res, (e->nres + 1) * sizeof *e->res);
	e->memo = tr_realloc(e->memo, (e->nres + 1) * sizeof *e->memo);
	memset(&e->memo[e->nres], 0, sizeof *e->memo);
	rc = regcomp(&e->res[e->nres], pat->s, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &e->res[e->nres], msg, sizeof msg);
		regfree(&e->res[e->nres]);
		fail(ps, col, "bad regular expression: %s", msg);
		return -1;
	}
	e->memo[e->nres].lits = litset(pat->s);
	return (int)e->nres++;
}

static int
isconst(const struct node *n)
{
	return n->op == O_NUM || n->op == O_STR;
}

static const char *
opname(enum op op)
{
	static const char *names[] = {
		[O_NEG] = "-", [O_NOT] = "!", [O_ADD] = "+", [O_SUB] = "-",
		[O_MUL] = "*", [O_DIV] = "/", [O_MOD] = "%", [O_POW] = "^",
	};

	return op <= O_POW && names[op] ? names[op] : "?";
}

/* Folds constants bottom up; reports type errors it can see. */
static int
fold(struct parser *ps, struct node *n)
{
	struct tr_val args[64];
	int i, all = 1;

	for (i = 0; i < n->nkid; i++) {
		if (fold(ps, n->kid[i]) < 0)
			return -1;
		if (!isconst(n->kid[i]))
			all = 0;
	}
	switch (n->op) {
	case O_NEG: case O_ADD: case O_SUB: case O_MUL: case O_DIV:
	case O_MOD: case O_POW:
		for (i = 0; i < n->nkid; i++)
			if (n->kid[i]->op == O_STR) {
				fail(ps, n->col, "'%s' needs numbers, not a "
				    "string", opname(n->op));
				return -1;
			}
		break;
	case O_CALL:
		for (i = 0; i < n->nkid; i++)
			if (n->kid[i]->op == O_STR) {
				fail(ps, n->kid[i]->col, "%s needs numbers, not "
				    "a string", fns[n->arg].name);
				return -1;
			}
		break;
	case O_MATCH: case O_NMATCH:
		if (n->kid[1]->op == O_NUM) {
			fail(ps, n->kid[1]->col, "a regular expression is a "
			    "string");
			return -1;
		}
		if (n->kid[1]->op == O_STR && !all) {
			n->arg = addregex(ps, &n->kid[1]->v, n->kid[1]->col);
			if (n->arg < 0)
				return -1;
		} else
			n->arg = -1;
		break;
	default:
		break;
	}
	if (!all || n->nkid == 0)
		return 0;
	if (n->op == O_CALL && n->nkid > 64)
		return 0;
	for (i = 0; i < n->nkid; i++)
		args[i] = n->kid[i]->v;
	switch (n->op) {
	case O_NEG:
		n->v.num = -args[0].num;
		break;
	case O_NOT:
		n->v.num = !truth(&args[0]);
		break;
	case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MOD:
	case O_POW:
		n->v.num = arith(n->op, args[0].num, args[1].num);
		break;
	case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT: case O_GE:
		n->v.num = compare(n->op, &args[0], &args[1]);
		break;
	case O_MATCH: case O_NMATCH: {
		int r;

		if (dynmatch(ps->e, &args[0], &args[1], &r) < 0) {
			fail(ps, n->kid[1]->col, "bad regular expression");
			return -1;
		}
		n->v.num = n->op == O_MATCH ? r : !r;
		break;
	}
	case O_IN:
		n->v.num = inset(&ps->e->sets[n->arg], &args[0]);
		break;
	case O_AND:
		n->v.num = truth(&args[0]) && truth(&args[1]);
		break;
	case O_OR:
		n->v.num = truth(&args[0]) || truth(&args[1]);
		break;
	case O_CALL:
		n->v.num = callfn(n->arg, args, n->nkid);
		break;
	default:
		return 0;
	}
	n->v.isstr = 0;
	n->v.s = NULL;
	n->v.n = 0;
	n->op = O_NUM;
	for (i = 0; i < n->nkid; i++)
		freenode(n->kid[i]);
	n->nkid = 0;
	return 0;
}

static size_t
emit(struct tr_expr *e, int op, int arg, double num)
{
	tr_grow(&e->code, &e->capcode, e->ncode + 1, sizeof *e->code);
	e->code[e->ncode].op = op;
	e->code[e->ncode].arg = arg;
	e->code[e->ncode].arg2 = 0;
	e->code[e->ncode].num = num;
	return e->ncode++;
}

static void
addslot(struct tr_expr *e, int slot)
{
	size_t i;

	for (i = 0; i < e->nslots; i++)
		if (e->slots[i] == slot)
			return;
	e->slots = tr_realloc(e->slots, (e->nslots + 1) * sizeof *e->slots);
	e->slots[e->nslots++] = slot;
}

/* Emits code for n; returns the stack depth it needs. */
static int
gen(struct tr_expr *e, const struct node *n)
{
	size_t j;
	int i, d, m = 0;

	switch (n->op) {
	case O_NUM:
		emit(e, O_NUM, 0, n->v.num);
		return 1;
	case O_STR:
		/* The constant's bytes live in e->strs; find its index. */
		for (i = 0; i < (int)e->nstrs; i++)
			if (e->strs[i] == n->v.s)
				break;
		emit(e, O_STR, i, (double)n->v.n);
		return 1;
	case O_VAR:
		addslot(e, n->arg);
		emit(e, O_VAR, n->arg, 0);
		return 1;
	case O_AND:
	case O_OR:
		d = gen(e, n->kid[0]);
		j = emit(e, n->op == O_AND ? O_JF : O_JT, 0, 0);
		i = gen(e, n->kid[1]);
		emit(e, O_BOOL, 0, 0);
		e->code[j].arg = (int)e->ncode;
		return d > i ? d : i;
	case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT: case O_GE:
		if (n->kid[0]->op == O_VAR && n->kid[1]->op == O_NUM) {
			addslot(e, n->kid[0]->arg);
			emit(e, O_VEQN + (n->op - O_EQ), n->kid[0]->arg,
			    n->kid[1]->v.num);
			return 1;
		}
		if ((n->op == O_EQ || n->op == O_NE) && ((n->kid[0]->op ==
		    O_VAR && n->kid[1]->op == O_STR) || (n->kid[0]->op ==
		    O_STR && n->kid[1]->op == O_VAR))) {
			const struct node *v = n->kid[n->kid[0]->op == O_STR],
			    *c = n->kid[n->kid[0]->op == O_VAR];

			addslot(e, v->arg);
			for (i = 0; i < (int)e->nstrs; i++)
				if (e->strs[i] == c->v.s)
					break;
			j = emit(e, n->op == O_EQ ? O_VEQS : O_VNES, v->arg,
			    (double)c->v.n);
			e->code[j].arg2 = i;
			return 1;
		}
		break;
	case O_MATCH: case O_NMATCH:
		if (n->arg >= 0) {
			d = gen(e, n->kid[0]);
			emit(e, n->op, n->arg, 0);
			return d;
		}
		break;
	default:
		break;
	}
	for (i = 0; i < n->nkid; i++) {
		d = gen(e, n->kid[i]) + i;
		if (d > m)
			m = d;
	}
	emit(e, n->op, n->op == O_CALL ? n->arg : n->op == O_IN ? n->arg :
	    n->op == O_MATCH || n->op == O_NMATCH ? -1 : 0,
	    (double)n->nkid);
	return m;
}

struct tr_expr *
tr_expr_parse(const char *src, tr_expr_lookup lookup, void *ctx, char *err,
    size_t errsz, int *errcol)
{
	struct parser ps;
	struct node *n;
	struct tr_expr *e = tr_calloc(1, sizeof *e);
	int depth;

	memset(&ps, 0, sizeof ps);
	ps.src = ps.p = src;
	ps.lookup = lookup;
	ps.ctx = ctx;
	ps.err = err;
	ps.errsz = errsz;
	ps.e = e;
	e->bufp = tr_calloc(1, sizeof *e->bufp);
	e->bufcap = tr_calloc(1, sizeof *e->bufcap);
	next(&ps);
	if (ps.tok == T_EOF && !ps.failed)
		fail(&ps, ps.tcol, "empty expression");
	n = ps.failed ? NULL : parse_or(&ps);
	if (n && ps.tok != T_EOF)
		fail(&ps, ps.tcol, "unexpected '%.*s'", (int)ps.tn, ps.ts);
	if (n && !ps.failed)
		fold(&ps, n);
	if (n && !ps.failed) {
		depth = gen(e, n);
		if (depth > MAXSTACK)
			fail(&ps, 0, "expression too large");
	}
	if (ps.failed) {
		freenode(n);
		if (errcol)
			*errcol = ps.errcol;
		tr_expr_free(e);
		return NULL;
	}
	e->root = n;
	return e;
}

void
tr_expr_free(struct tr_expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nstrs; i++)
		free(e->strs[i]);
	free(e->strs);
	for (i = 0; i < e->nres; i++) {
		regfree(&e->res[i]);
		free(e->memo[i].ent);
		free(e->memo[i].bytes);
		free(e->memo[i].sh);
		free(e->memo[i].lits);
	}
	free(e->res);
	free(e->memo);
	for (i = 0; i < e->nsets; i++) {
		free(e->sets[i].v);
		free(e->sets[i].lits);
	}
	free(e->sets);
	free(e->slots);
	free(e->code);
	freenode(e->root);
	if (e->bufp)
		free(*e->bufp);
	free(e->bufp);
	free(e->bufcap);
	free(e);
}

void
tr_expr_slots(const struct tr_expr *e, void (*fn)(void *, int), void *ctx)
{
	size_t i;

	for (i = 0; i < e->nslots; i++)
		fn(ctx, e->slots[i]);
}

static void
setnum(struct tr_val *v, double x)
{
	v->isstr = 0;
	v->num = x;
	v->s = NULL;
	v->n = 0;
}

int
tr_expr_eval(const struct tr_expr *e, const struct tr_val *slots,
    struct tr_val *out)
{
	struct tr_val st[MAXSTACK + 1], *sp = st;	/* sp: next free */
	const struct ins *c = e->code, *end = e->code + e->ncode;
	const struct tr_val *v;
	double x;
	int k, r;

	while (c < end) {
		switch (c->op) {
		case O_NUM:
			setnum(sp++, c->num);
			break;
		case O_STR:
			sp->isstr = 1;
			sp->s = e->strs[c->arg];
			sp->n = (size_t)c->num;
			sp->num = 0;
			sp++;
			break;
		case O_VAR:
			*sp++ = slots[c->arg];
			break;
		case O_VEQN: case O_VNEN: case O_VLTN: case O_VLEN:
		case O_VGTN: case O_VGEN:
			v = &slots[c->arg];
			if (v->isstr) {
				struct tr_val b;

				setnum(&b, c->num);
				r = compare(O_EQ + (c->op - O_VEQN), v, &b);
			} else {
				x = v->num;
				switch (c->op) {
				case O_VEQN: r = x == c->num; break;
				case O_VNEN: r = x != c->num; break;
				case O_VLTN: r = x < c->num; break;
				case O_VLEN: r = x <= c->num; break;
				case O_VGTN: r = x > c->num; break;
				default: r = x >= c->num;
				}
			}
			setnum(sp++, r);
			break;
		case O_VEQS:
		case O_VNES:
			v = &slots[c->arg];
			if (v->isstr || v->s)
				r = v->n == (size_t)c->num && (v->n == 0 ||
				    memcmp(v->s, e->strs[c->arg2], v->n) == 0);
			else {
				struct tr_val b = {1, 0, e->strs[c->arg2],
				    (size_t)c->num};

				r = compare(O_EQ, v, &b);
			}
			setnum(sp++, c->op == O_VEQS ? r : !r);
			break;
		case O_NEG:
			if (sp[-1].isstr)
				return -1;
			setnum(sp - 1, -sp[-1].num);
			break;
		case O_NOT:
			setnum(sp - 1, !truth(sp - 1));
			break;
		case O_ADD: case O_SUB: case O_MUL: case O_DIV: case O_MOD:
		case O_POW:
			sp--;
			if (sp[-1].isstr || sp[0].isstr)
				return -1;
			setnum(sp - 1, arith(c->op, sp[-1].num, sp[0].num));
			break;
		case O_EQ: case O_NE: case O_LT: case O_LE: case O_GT:
		case O_GE:
			sp--;
			setnum(sp - 1, compare(c->op, sp - 1, sp));
			break;
		case O_MATCH: case O_NMATCH:
			if (c->arg >= 0)
				r = rematch_memo(e, c->arg, sp - 1);
			else {
				sp--;
				if (dynmatch(e, sp - 1, sp, &r) < 0)
					return -1;
			}
			setnum(sp - 1, c->op == O_MATCH ? r : !r);
			break;
		case O_IN:
			setnum(sp - 1, inset(&e->sets[c->arg], sp - 1));
			break;
		case O_JF:
		case O_JT:
			r = truth(sp - 1);
			if (r == (c->op == O_JT)) {
				setnum(sp - 1, r);
				c = e->code + c->arg;
				continue;
			}
			sp--;
			break;
		case O_BOOL:
			setnum(sp - 1, truth(sp - 1));
			break;
		case O_CALL:
			k = (int)c->num;
			sp -= k;
			for (r = 0; r < k; r++)
				if (sp[r].isstr)
					return -1;
			setnum(sp, callfn(c->arg, sp, k));
			sp++;
			break;
		}
		c++;
	}
	/* Member by member: a whole-struct copy would load 16 bytes that
	 * setnum() stored as 4 and 8, which stalls store forwarding. */
	out->isstr = sp[-1].isstr;
	out->num = sp[-1].num;
	out->s = sp[-1].s;
	out->n = sp[-1].n;
	return 0;
}

int
tr_expr_cmpnum(const struct tr_expr *e, int *slot, int *rel, double *num)
{
	const struct ins *c = e->code;

	if (e->ncode != 1 || c->op < O_VEQN || c->op > O_VGEN)
		return 0;
	*slot = c->arg;
	*rel = c->op - O_VEQN;
	*num = c->num;
	return 1;
}

double
tr_expr_num(const struct tr_expr *e, const struct tr_val *slots)
{
	struct tr_val v;

	if (tr_expr_eval(e, slots, &v) < 0 || v.isstr)
		return NAN;
	return v.num;
}

int
tr_expr_true(const struct tr_expr *e, const struct tr_val *slots)
{
	struct tr_val v;

	if (tr_expr_eval(e, slots, &v) < 0)
		return 0;
	return truth(&v);
}

/* ---- the tree bound to one record layout ----
 * tr_expr_eval reads operands from slots the caller fills for every
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
	return callfn(t->arg, v, t->nargs);
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
	return compare(t->op, &a, &b);
}

static int
t_match(const struct tn *t, const struct tr_rec *r)
{
	struct tr_val v = {1, 0, NULL, 0};
	int m;

	v.s = tstr(&t->s, r, &v.n);
	m = rematch_memo(t->e, t->arg, &v);
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

/* The set's members all strings (want 1) or all numbers (want 0):
 * mixed sets compare a number's text, which only the slots have. */
static int
setof(const struct set *s, int want)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].isstr != want)
			return 0;
	return 1;
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
		if (bstr(c, n->kid[0], &sa) && setof(&c->e->sets[n->arg], 1)) {
			t->s = sa;
			/* as a regex of the same names would be */
			if ((t->lits = c->e->sets[n->arg].lits))
				t->test = t_litkeys;
		} else if (!setof(&c->e->sets[n->arg], 0) ||
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

void
tr_expr_perror(const char *src, const char *err, int errcol)
{
	int i;

	fprintf(stderr, "%s: bad expression: %s\n  %s\n  ", tr_argv0, err, src);
	for (i = 0; i < errcol && src[i]; i++)
		fputc(src[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}
