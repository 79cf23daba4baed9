/* expr/expr-int.h - what the files of the expression language share:
 * its tree, its postfix code, the parser's state, and the helpers that
 * fold and both engines call for one operation. */
#ifndef TR_EXPR_INT_H
#define TR_EXPR_INT_H

#include <math.h>
#include <regex.h>
#include <string.h>

#include "expr.h"

#define MAXSTACK 64	/* eval stack */

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

struct expr_fn {
	const char *name;
	int min, max;	/* arguments; max -1 for any */
};
extern const struct expr_fn expr_fns[];	/* by enum fn */

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
struct memo {
	struct memoent *ent;
	char *bytes;
	size_t len;
	struct memoshort *sh;
	struct lits *lits;	/* what the regex matches, if few strings */
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

/* ---- expr-lex.c: the tokens ---- */

/* Keeps the first error only: its message and column. */
void expr_fail(struct parser *ps, int col, const char *fmt, ...);
void expr_next(struct parser *ps);

/* ---- expr-parse.c: source to tree ---- */

/* The top rule: ||s of &&s of comparisons. */
struct node *expr_parse_or(struct parser *ps);
void expr_freenode(struct node *n);

/* ---- expr-fold.c: constants folded, type errors found ---- */

int expr_fold(struct parser *ps, struct node *n);

/* ---- expr-code.c: tree to postfix code ---- */

int expr_gen(struct tr_expr *e, const struct node *n);

/* ---- expr-value.c: one operation on values ---- */

int expr_compare(enum op op, const struct tr_val *a, const struct tr_val *b);
double expr_callfn(int f, const struct tr_val *a, int n);
int expr_setof(const struct set *s, int want);

/* ---- expr-regex.c: matching, and the strings of literal regexes ---- */

/* Regex I of E on the text of X, through its memo. */
int expr_rematch_memo(const struct tr_expr *e, int i, const struct tr_val *x);
int expr_dynmatch(const struct tr_expr *e, const struct tr_val *x,
    const struct tr_val *pat, int *r);
const char *expr_recost(const char *pat);
struct lits *expr_litset(const char *pat);
struct lits *expr_setlits(const struct set *s);

/* ---- called per record by both engines: inline ---- */

static inline int
truth(const struct tr_val *v)
{
	return v->isstr ? v->n > 0 : (v->num != 0 && !isnan(v->num));
}

/* The text of a value, for comparing with strings. */
static inline const char *
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

static inline double
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

static inline int
inset(const struct set *s, const struct tr_val *x)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (expr_compare(O_EQ, x, &s->v[i]))
			return 1;
	return 0;
}

/* The bytes of a string of at most 16 bytes as two words; with the
 * length, they tell it from any other such string. */
static inline void
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

#endif
