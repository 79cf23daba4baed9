/* expr-regex.c - regexes matched through a memo of the strings seen,
 * and the few literal strings that a regex or a set of names stands
 * for. */
#include <stdlib.h>

#include "expr-int.h"

#define MEMOSLOTS 4096	/* strings whose match is remembered, per regex */
#define MEMOBYTES 65536	/* of those strings' bytes, at most */
#define MEMOKEYLEN 256	/* longer strings are matched each time */
#define MEMOSHORT 256	/* slots of strings of 16 bytes at most */

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

/* A literal regex, through its memo. */
int
expr_rematch_memo(const struct tr_expr *e, int i, const struct tr_val *x)
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
int
expr_dynmatch(const struct tr_expr *e, const struct tr_val *x,
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
struct lits *
expr_litset(const char *pat)
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

/* A set of a few short strings, compared as the names of a literal
 * regex are: two words and a length each. */
struct lits *
expr_setlits(const struct set *s)
{
	struct lits *l;
	int i;

	if (s->n == 0 || s->n > MAXLITS || !expr_setof(s, 1))
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
