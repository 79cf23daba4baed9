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

/* ---- what compiling a regex may cost ---- */

/* glibc's regcomp copies a repeated group once per repetition (x+ is
 * xx*, x{3} xxx), so the nodes it builds grow with the product of
 * nested repetitions: "(x+++...)" doubles with every '+' and a short
 * pattern can take gigabytes. Its parser also recurses once per group,
 * and back-references (not POSIX ERE, but glibc's regexec takes them)
 * make matching backtrack without bound. A pattern is checked before it
 * is compiled; the limits let compiling one take some 50 MB and 50 ms. */
struct recost {
	long alts, seq, last;		/* nodes */
	long ealts, eseq, elast;	/* empty-matching ones */
	int anul, pre, lnul;		/* an alternative closed, the sequence
					 * before the last atom, and that atom,
					 * match the empty string */
};

#define RENODES (1L << 17)	/* nodes regcomp would build, at most */
#define REEPS 1024		/* of them, empty-matching (their closures
				 * grow with the square of these) */
#define REDEPTH 4000		/* groups within groups (glibc's parser
				 * overflows an 8 MB stack near 20000) */

/* The interval {n}, {n,} or {n,m} at P: its largest count (n+1 when
 * open), how many of those are optional, and its length, or 0 if P is
 * no interval (a literal '{'). */
static size_t
interval(const char *p, long *count, long *opt)
{
	const char *q = p + 1;
	long n = 0, m;

	if (*q < '0' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9' && n <= 100000)
		n = n * 10 + (*q++ - '0');
	m = n;
	if (*q == ',') {
		q++;
		m = n + 1;
		if (*q >= '0' && *q <= '9')
			for (m = 0; *q >= '0' && *q <= '9' && m <= 100000; q++)
				m = m * 10 + (*q - '0');
	}
	if (*q != '}')
		return 0;
	*count = m > n ? m : n;
	*opt = *count - n;
	return (size_t)(q + 1 - p);
}

/* The end of the bracket expression at P (past its ']'), or NULL. */
static const char *
bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char c = p[1];

			for (p += 2; *p && !(*p == c && p[1] == ']'); p++)
				;
			if (!*p)
				return NULL;
			p++;
		}
	return *p ? p + 1 : NULL;
}

/* Why PAT may not be compiled, or NULL. ST holds per open group the
 * alternatives closed, the sequence, and its last atom (what a
 * repetition copies). Invalid patterns pass: regcomp says what is wrong
 * with them. */
static const char *
recost(const char *pat, struct recost *st)
{
	struct recost *g = st;
	const char *p = pat;
	long k, o, sz, esz = 0;
	int nul = 0;
	size_t n;

	memset(g, 0, sizeof *g);
	g->pre = g->lnul = 1;
	while (*p) {
		sz = -1;
		switch (*p) {
		case '(':
			if (g == st + REDEPTH)
				return "groups nested too deep";
			g++;
			memset(g, 0, sizeof *g);
			g->pre = g->lnul = 1;
			p++;
			continue;
		case ')':
			if (g == st) {
				sz = 1;
				break;
			}
			sz = g->alts + g->seq + 1;
			esz = g->ealts + g->eseq;
			/* a group that may match nothing, such as (a|), is
			 * one more empty path for each copy of it */
			nul = g->anul || (g->pre && g->lnul);
			if (nul && esz == 0)
				esz = 1;
			g--;
			break;
		case '|':
			g->alts += g->seq + 1;
			g->ealts += g->eseq;
			g->anul |= g->pre && g->lnul;
			g->seq = g->last = g->eseq = g->elast = 0;
			g->pre = g->lnul = 1;
			p++;
			continue;
		case '*':
		case '?':
		case '+':
			g->seq -= g->last;
			g->last = *p == '+' ? 2 * g->last + 1 : g->last + 1;
			g->seq += g->last;
			g->eseq -= g->elast;
			g->elast = 2 * g->elast + 1;
			g->eseq += g->elast;
			g->lnul |= *p != '+';
			p++;
			break;
		case '{':
			if ((n = interval(p, &k, &o)) == 0) {
				sz = 1;
				break;
			}
			g->seq -= g->last;
			g->last = g->last * (k > 0 ? k : 1) + k + 1;
			g->seq += g->last;
			g->eseq -= g->elast;
			g->elast = g->elast * (k > 0 ? k : 1) + o;
			g->eseq += g->elast;
			g->lnul |= k == o;
			p += n;
			break;
		case '[':
			if (!(p = bracket(p)))
				return NULL;
			g->seq += g->last = 1;
			g->elast = 0;
			g->pre = g->pre && g->lnul;
			g->lnul = 0;
			break;
		case '\\':
			if (p[1] >= '1' && p[1] <= '9')
				return "back-references (\\1 to \\9) are not "
				    "POSIX extended regular expressions";
			sz = 1;
			if (p[1])
				p++;
			break;
		default:
			sz = 1;
		}
		if (sz >= 0) {
			g->seq += g->last = sz;
			g->eseq += g->elast = esz;
			g->pre = g->pre && g->lnul;
			g->lnul = nul;
			esz = 0;
			nul = 0;
			p++;
		}
		if (g->ealts + g->eseq > REEPS || g->alts + g->seq > RENODES)
			return "too costly to compile (repetitions within "
			    "repetitions, or too many)";
	}
	return NULL;
}

const char *
expr_recost(const char *pat)
{
	struct recost *st = tr_malloc((REDEPTH + 1) * sizeof *st);
	const char *why = recost(pat, st);

	free(st);
	return why;
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
	if (expr_recost(p)) {
		free(p);
		return -1;
	}
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
