/* in.c - reading a stream: its lines, checked strictly, into header
 * blocks and records, each record split and its fields checked. The
 * path of every line is in this one file, for the compiler to inline. */
#include <stdlib.h>
#include <string.h>

#include "tr-int.h"

void
tr_close(struct tr_in *in)
{
	if (!in)
		return;
	if (in->prev)
		in->prev->next = in->next;
	else
		tr_in_open = in->next;
	if (in->next)
		in->next->prev = in->prev;
	tr_file_close(in);
	tr_progress_end(in->prog);
	tr_hdr_free(in);
	free(in->own);
	free(in->src.zbuf);
	free(in);
}

/* A file cut short: the end of the program, or, for the tools that copy
 * files (TR_CHECK_TRUNC), one line and the next file. */
static void
trunc_say(struct tr_in *in, const char *msg)
{
	if (!(in->checks & TR_CHECK_TRUNC))
		tr_in_die(in, "%s", msg);
	tr_warn("%s:%ld: %s", tr_in_file(in), in->line, msg);
	in->ncut++;
	if (!in->status)
		in->status = TR_EXIT_DATA;
}

/* The next line of the stream without its LF; 0 at the end of all
 * files. in->line counts lines of the current file. */
static int
next_line(struct tr_in *in, const char **p, size_t *n, int *first)
{
	char *nl;

	for (;;) {
		if (in->src.fd < 0 && !tr_file_next(in))
			return 0;
		if (in->lf < in->lfe)
			nl = in->lfbase + *in->lf++;
		else
			nl = memchr(in->buf + in->beg, '\n', in->end - in->beg);
		if (nl) {
			*p = in->buf + in->beg;
			*n = (size_t)(nl - *p);
			in->beg = (size_t)(nl + 1 - in->buf);
			*first = in->line++ == 0;
			if (*n > TR_MAXLINE)
				tr_in_die(in, "line longer than %d bytes",
				    TR_MAXLINE);
			/* Records are checked for NUL as they are split. */
			if ((in->text || (*n > 0 && **p == '#')) &&
			    memchr(*p, '\0', *n))
				tr_in_die(in, "binary data (a NUL byte)");
			return 1;
		}
		if (in->end - in->beg > TR_MAXLINE) {
			in->line++;
			tr_in_die(in, "line longer than %d bytes", TR_MAXLINE);
		}
		if (in->eof && in->src.trunc) {
			/* Named by the last line that came out whole: what
			 * the reader of the output has of the file. */
			if (in->line == 0) {
				in->line = 1;
				trunc_say(in, "truncated gzip stream: no complete "
				    "line");
			} else
				trunc_say(in, "truncated gzip stream after this "
				    "line, the last complete one");
			tr_file_close(in);
			continue;
		}
		if (in->eof) {
			in->line++;
			if (in->end > in->beg && in->line == 1 && !in->text)
				tr_in_die(in, "not a tr stream (no '#tr %d' "
				    "line)", TR_FORMAT);
			if (in->end > in->beg && in->lastlf) {
				*p = in->buf + in->beg;
				*n = in->end - in->beg;
				in->beg = in->end;
				*first = in->line == 1;
				if (memchr(*p, '\0', *n))
					tr_in_die(in, "binary data (a NUL byte)");
				return 1;
			}
			if (in->end > in->beg)
				tr_in_die(in, "incomplete last line (no newline)");
			if (in->line == 1 && in->text)
				tr_in_die(in, "empty input");
			if (in->line == 1)
				tr_in_die(in, "empty input (expected #tr %d)",
				    TR_FORMAT);
			tr_file_close(in);
			continue;
		}
		tr_file_fill(in);
	}
}

static struct tr_rankst *
rank_state(struct tr_in *in, const struct tr_rec *r, int64_t rank)
{
	size_t n;

	if (in->np > 0 && rank >= in->np)
		tr_in_die(in, "rank %lld out of range (np=%lld)",
		    (long long)rank, (long long)in->np);
	if (rank >= TR_MAXNP)
		tr_bad_field(in, r, 1, "rank too large:");
	if ((size_t)rank >= in->nranks) {
		n = in->nranks ? in->nranks : 64;
		while (n <= (size_t)rank)
			n *= 2;
		in->ranks = tr_realloc(in->ranks, n * sizeof *in->ranks);
		memset(in->ranks + in->nranks, 0xff,
		    (n - in->nranks) * sizeof *in->ranks);
		in->nranks = n;
	}
	return &in->ranks[rank];
}

static void
check_order(struct tr_in *in, const struct tr_rec *r, int64_t rank,
    int64_t seq, int64_t start, int64_t end)
{
	struct tr_rankst *st = rank_state(in, r, rank);

	if (st->seq >= 0) {
		if (seq == st->seq) {
			/* A call that completed several requests. */
			if (start != st->start || end != st->end)
				tr_in_die(in, "rank %lld: sequence number %lld "
				    "repeated with other times",
				    (long long)rank, (long long)seq);
			return;
		}
		if (seq < st->seq)
			tr_in_die(in, "rank %lld: sequence number goes back "
			    "(%lld after %lld)", (long long)rank,
			    (long long)seq, (long long)st->seq);
		if (start < st->end)
			tr_in_die(in, "rank %lld: time goes back (starts at "
			    "%lld, before the previous record's end %lld)",
			    (long long)rank, (long long)start,
			    (long long)st->end);
	}
	st->seq = seq;
	st->start = start;
	st->end = end;
}

static void
parse_ev(struct tr_in *in, struct tr_rec *r)
{
	struct tr_ev *e = &r->u.ev;

	e->rank = tr_getint(in, r, TR_EV_RANK, 1);
	e->seq = tr_getint(in, r, TR_EV_SEQ, 1);
	e->op = r->f[TR_EV_OP];
	e->start = tr_getint(in, r, TR_EV_START, 1);
	e->end = tr_getint(in, r, TR_EV_END, 1);
	e->cpu = tr_getint(in, r, TR_EV_CPU, 0);
	e->site = r->f[TR_EV_SITE];
	e->peer = tr_getint(in, r, TR_EV_PEER, 0);
	e->bytes = tr_getint(in, r, TR_EV_BYTES, 1);
	e->tag = tr_getint(in, r, TR_EV_TAG, 0);
	e->comm = tr_getint(in, r, TR_EV_COMM, 0);
	e->req = tr_getint(in, r, TR_EV_REQ, 0);
	e->root = tr_getint(in, r, TR_EV_ROOT, 0);
	if (e->end < e->start)
		tr_in_die(in, "ev ends before it starts (%lld < %lld)",
		    (long long)e->end, (long long)e->start);
	if (e->cpu < -1)
		tr_bad_field(in, r, TR_EV_CPU, "must be -1 or more:");
	/* Ranks or -1 for none. tag, comm and req may be below -1: a tag
	 * carries MPI_Abort's code and MPI_Pcontrol's level. */
	if (e->peer < -1)
		tr_bad_field(in, r, TR_EV_PEER, "must be -1 or more:");
	if (e->root < -1)
		tr_bad_field(in, r, TR_EV_ROOT, "must be -1 or more:");
	if (e->op.n == 0)
		tr_bad_field(in, r, TR_EV_OP, "empty:");
	check_order(in, r, e->rank, e->seq, e->start, e->end);
}

static void
parse_reg(struct tr_in *in, struct tr_rec *r)
{
	struct tr_reg *g = &r->u.reg;
	struct tr_field k = r->f[TR_REG_KIND];

	g->rank = tr_getint(in, r, TR_REG_RANK, 1);
	g->seq = tr_getint(in, r, TR_REG_SEQ, 1);
	if (k.n == 5 && memcmp(k.p, "enter", 5) == 0)
		g->leave = 0;
	else if (k.n == 5 && memcmp(k.p, "leave", 5) == 0)
		g->leave = 1;
	else
		tr_bad_field(in, r, TR_REG_KIND, "expected enter or leave, "
		    "got");
	g->name = r->f[TR_REG_NAME];
	g->time = tr_getint(in, r, TR_REG_TIME, 1);
	g->cpu = tr_getint(in, r, TR_REG_CPU, 0);
	g->wtime = tr_getint(in, r, TR_REG_WTIME, 1);
	if (g->name.n == 0)
		tr_bad_field(in, r, TR_REG_NAME, "empty:");
	check_order(in, r, g->rank, g->seq, g->time, g->time);
}

/* The high bit of each byte of v that is zero, and of no other. */
static inline uint64_t
zero_bytes(uint64_t v)
{
	const uint64_t m = 0x7f7f7f7f7f7f7f7fULL;

	return ~(((v & m) + m) | v | m);
}

/* The fast path: records of declared types split with a bit mask of
 * their tabs and their integers parsed eight bytes at a time. It only
 * accepts records it has fully checked; it hands anything else, bad or
 * merely unusual, to the careful path below, which alone reports. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FASTREC 1

static inline uint64_t
load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

#define REP8(b) (0x0101010101010101ULL * (b))

/* One bit per byte of w whose high bit is set, in byte order. */
static inline uint64_t
movemask(uint64_t x)
{
	return (x * 0x02040810204081ULL) >> 56;
}

/* The value of eight digits, first in the low byte (less '0' each). */
static inline uint64_t
digits8(uint64_t t)
{
	t = (t * 2561) >> 8;
	t = ((t & 0x00ff00ff00ff00ffULL) * 6553601) >> 16;
	return ((t & 0x0000ffff0000ffffULL) * 42949672960001ULL) >> 32;
}

/* Bytes of t (bytes less '0') that were not digits, as their high bits;
 * a byte after one that was not may be wrong, which does no harm. */
static inline uint64_t
notdigits(uint64_t t)
{
	return (((t & REP8(0x7f)) + REP8(0x76)) | t) & REP8(0x80);
}

/* Parses field f as an integer of 1 to 15 digits after an optional '-'
 * (if sign), eight bytes at a time with no branch per digit: 0, or 1 for
 * anything else (the careful path then judges it). */
static inline int
fast_int(const struct tr_field *f, int sign, int64_t *v)
{
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000};
	const char *p = f->p;
	size_t n = f->n;
	int neg = sign && *p == '-';
	uint64_t t, u, x, bad;

	p += neg;
	n -= (size_t)neg;
	t = load8(p) - REP8('0');
	if (n - 1 < 8) {
		t <<= 64 - 8 * n;
		bad = notdigits(t);
		x = digits8(t);
	} else if (n - 9 < 7) {
		u = (load8(p + 8) - REP8('0')) << (128 - 8 * n);
		bad = notdigits(t) | notdigits(u);
		x = digits8(t) * pow10[n - 8] + digits8(u);
	} else
		bad = 1, x = 0;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return bad != 0;
}

/* fast_int() without the value: whether field f is such an integer
 * (0) or not (1). */
static inline int
fast_isint(const struct tr_field *f, int sign)
{
	const char *p = f->p;
	size_t n = f->n;
	int neg = sign && *p == '-';
	uint64_t t;

	p += neg;
	n -= (size_t)neg;
	t = load8(p) - REP8('0');
	if (n - 1 < 8)
		return notdigits(t << (64 - 8 * n)) != 0;
	if (n - 9 < 7)
		return (notdigits(t) | notdigits((load8(p + 8) - REP8('0')) <<
		    (128 - 8 * n))) != 0;
	return 1;
}

#ifdef __SSE2__
typedef char v16 __attribute__((vector_size(16)));

/* Bit i set where byte i of the 16 at p is c. */
static inline uint64_t
mask16(const char *p, v16 c)
{
	v16 w;

	memcpy(&w, p, 16);
	return (uint64_t)(unsigned)__builtin_ia32_pmovmskb128(w == c);
}

/* Bit i set where byte i of the 64 at b is a TAB. */
static inline uint64_t
tabmask(const char *b)
{
	const v16 tab = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

	return mask16(b, tab) | mask16(b + 16, tab) << 16 |
	    mask16(b + 32, tab) << 32 | mask16(b + 48, tab) << 48;
}
#else
static inline uint64_t
tabmask(const char *b)
{
	uint64_t tabs = 0;
	int j;

	for (j = 0; j < 8; j++)
		tabs |= movemask(zero_bytes(load8(b + 8 * j) ^
		    REP8('\t'))) << (8 * j);
	return tabs;
}
#endif

/* Splits the line s..e (e at its LF) into exactly nf fields, a 64-byte
 * block at a time: the tabs of a block become a bit mask, so that one
 * loop with as many turns as fields finds them. -1 for another number
 * of fields. The buffer holds no NUL byte (tr_file_fill() looks once
 * per read; if it found one, lines take the careful path). */
static int
fast_split(const char *s, const char *e, struct tr_rec *r, int nf)
{
	struct tr_field *f = r->f;
	const char *b, *p = s;
	uint64_t tabs;
	int k = 0;

	/* The field's start stays in a register: read back from r->f, it
	 * would put a store and a load on every turn's path. */
	for (b = s; b < e; b += 64) {
		tabs = tabmask(b);
		if (e - b < 64)
			tabs &= (1ULL << (e - b)) - 1;
		for (; tabs; tabs &= tabs - 1) {
			const char *c = b + __builtin_ctzll(tabs);

			if (++k == nf)
				return -1;
			f[k - 1].p = p;
			f[k - 1].n = (size_t)(c - p);
			p = c + 1;
		}
	}
	if (k + 1 != nf)
		return -1;
	f[k].p = p;
	f[k].n = (size_t)(e - p);
	r->nf = nf;
	return 0;
}

void
tr_in_want(struct tr_in *in, unsigned cols)
{
	in->want = cols;
}

#ifdef __SSE2__
typedef unsigned char u16v __attribute__((vector_size(16)));

/* Bit i set where byte i of the 16 at p is a digit, in *tab a TAB,
 * in *mn a '-'. */
static inline unsigned
class16(const char *p, unsigned *tab, unsigned *mn)
{
	const u16v z = {0};
	v16 c;
	u16v w;

	memcpy(&w, p, 16);
	memcpy(&c, p, 16);
	*tab = (unsigned)__builtin_ia32_pmovmskb128(c == (v16)(z + 9));
	*mn = (unsigned)__builtin_ia32_pmovmskb128(c == (v16)(z + '-'));
	/* unsigned: bytes below '0' wrap above 9 */
	return (unsigned)__builtin_ia32_pmovmskb128((v16)(w - 48 <= 9));
}

/* Whether the six integers that end an ev record, peer to root, are
 * well formed: checked together, 16 bytes at a time, where one by one
 * they cost a tool that does not convert them more than the rest of
 * the record. Every byte must be a digit, a TAB (the split's own) or a
 * '-' that starts a field and is followed by a digit; bytes must not be
 * negative. 0, or 1 for anything else (the careful path judges). */
static inline int
fast_evtail(const struct tr_field *f)
{
	const char *p = f[TR_EV_PEER].p;
	const char *e = f[TR_EV_ROOT].p + f[TR_EV_ROOT].n;
	size_t len = (size_t)(e - p);
	unsigned t0, t1, m0, m1;
	uint32_t dig, tab, mn, valid;

	/* 1 to 15 bytes each: none empty, none that could overflow. */
	if (((f[TR_EV_PEER].n - 1) | (f[TR_EV_BYTES].n - 1) |
	    (f[TR_EV_TAG].n - 1) | (f[TR_EV_COMM].n - 1) |
	    (f[TR_EV_REQ].n - 1) | (f[TR_EV_ROOT].n - 1)) >= 15 ||
	    len > 32 || f[TR_EV_BYTES].p[0] == '-' || e[-1] == '-')
		return 1;
	dig = class16(p, &t0, &m0) | class16(p + 16, &t1, &m1) << 16;
	tab = t0 | t1 << 16;
	mn = m0 | m1 << 16;
	valid = len == 32 ? 0xffffffffu : (1u << len) - 1;
	return ((~(dig | tab | mn) | (mn & ~(tab << 1 | 1)) |
	    (mn << 1 & ~dig)) & valid) != 0;
}
#define HAVE_EVTAIL 1
#endif

/* Column C of an ev record: converted into *v if the tool wants it,
 * else only checked and *v set to INT64_MIN. 0, or 1 if it is not such
 * an integer (the careful path then judges it). */
#define EV_INT(c, sign, v) (want >> (c) & 1 ? fast_int(&f[c], sign, v) : \
	(*(v) = INT64_MIN, fast_isint(&f[c], sign)))
#define EV_CONV(c, sign, v) (want >> (c) & 1 ? fast_int(&f[c], sign, v) : \
	(*(v) = INT64_MIN, 0))
/* M applied to each of the six integers that end an ev record. */
#define EV_TAILS(M) (M(TR_EV_PEER, 1, &ev->peer) | \
	M(TR_EV_BYTES, 0, &ev->bytes) | M(TR_EV_TAG, 1, &ev->tag) | \
	M(TR_EV_COMM, 1, &ev->comm) | M(TR_EV_REQ, 1, &ev->req) | \
	M(TR_EV_ROOT, 1, &ev->root))
#define EV_TAIL (1u << TR_EV_PEER | 1u << TR_EV_BYTES | 1u << TR_EV_TAG | \
	1u << TR_EV_COMM | 1u << TR_EV_REQ | 1u << TR_EV_ROOT)

/* Whether the integer field f, well formed, is below -1. */
#define BELOW_M1(f) ((f).p[0] == '-' && ((f).n != 2 || (f).p[1] != '1'))

/* An ev record, already split: its eleven integers checked, and
 * converted straight into place where wanted (independent of each other,
 * so unrolled). 0, or -1 if anything is wrong. */
static int
fast_ev(struct tr_in *in, const struct tr_decl *d, struct tr_rec *r)
{
	struct tr_ev *ev = &r->u.ev;
	const struct tr_field *f = r->f;
	unsigned want = in->want;
	int bad = fast_int(&f[TR_EV_RANK], 0, &ev->rank) |
	    fast_int(&f[TR_EV_SEQ], 0, &ev->seq) |
	    fast_int(&f[TR_EV_START], 0, &ev->start) |
	    fast_int(&f[TR_EV_END], 0, &ev->end) |
	    EV_INT(TR_EV_CPU, 1, &ev->cpu);

#ifdef HAVE_EVTAIL
	/* Checked together, then only the wanted ones converted. None
	 * wanted is the common filter's case and has its own branch: a test
	 * of want per field cost 3 % of tr-filter 'rank==0'. */
	if (!(want & EV_TAIL)) {
		ev->peer = ev->bytes = ev->tag = ev->comm = ev->req =
		    ev->root = INT64_MIN;
		bad |= fast_evtail(f);
	} else if ((want & EV_TAIL) != EV_TAIL && !fast_evtail(f))
		bad |= EV_TAILS(EV_CONV);
	else
#endif
		bad |= EV_TAILS(EV_INT);

	/* cpu, peer and root are -1 or more: a negative one must be "-1"
	 * (a test of the text holds whether they were converted or not). */
	if (bad || f[TR_EV_OP].n == 0 || ev->end < ev->start ||
	    BELOW_M1(f[TR_EV_CPU]) || BELOW_M1(f[TR_EV_PEER]) ||
	    BELOW_M1(f[TR_EV_ROOT]))
		return -1;
	ev->op = f[TR_EV_OP];
	ev->site = f[TR_EV_SITE];
	r->decl = d;
	r->type = TR_EV;
	check_order(in, r, ev->rank, ev->seq, ev->start, ev->end);
	return 0;
}

/* Checks and parses the fields of a record of another known type,
 * already split: 0, or -1 if anything at all is wrong, for the careful
 * path to find and report. */
static int
fast_rec(struct tr_in *in, const struct tr_decl *d, struct tr_rec *r)
{
	const char *k = d->schema->kinds;
	enum tr_type type = d->schema->type;
	int64_t v[TR_MAXF] = {0};
	double x;
	int i;

	for (i = 1; i < d->nf; i++) {
		switch (k[i - 1]) {
		case TR_INT:
		case TR_NNEG:
			if (fast_int(&r->f[i], k[i - 1] == TR_INT, &v[i]))
				return -1;
			break;
		case TR_FLT:
			if (tr_parse_f64(r->f[i].p, r->f[i].n, &x) != 0)
				return -1;
			break;
		default:
			if (r->f[i].n == 0)
				return -1;
		}
	}
	r->decl = d;
	r->type = type;
	if (type == TR_REG) {
		struct tr_reg *g = &r->u.reg;
		struct tr_field kind = r->f[TR_REG_KIND];

		if (kind.n != 5 || (memcmp(kind.p, "enter", 5) != 0 &&
		    memcmp(kind.p, "leave", 5) != 0))
			return -1;
		g->rank = v[TR_REG_RANK];
		g->seq = v[TR_REG_SEQ];
		g->leave = kind.p[0] == 'l';
		g->name = r->f[TR_REG_NAME];
		g->time = v[TR_REG_TIME];
		g->cpu = v[TR_REG_CPU];
		g->wtime = v[TR_REG_WTIME];
		check_order(in, r, g->rank, g->seq, g->time, g->time);
	}
	return 0;
}

/* The declaration whose type starts the line s, if some does. */
static const struct tr_decl *
fast_decl(struct tr_in *in, const char *s, const char *e)
{
	const struct tr_decl *d;
	size_t i, j, k, n;

	/* The previous record's type first, then the others. */
	for (k = 0; k < in->ndecl; k++) {
		i = k == 0 ? in->lastdecl : k - 1 + (k - 1 >= in->lastdecl);
		d = in->decls[i];
		n = d->namelen;
		if ((size_t)(e - s) <= n || s[n] != '\t')
			continue;
		for (j = 0; j < n && s[j] == d->name[j]; j++)
			;
		if (j == n) {
			in->lastdecl = i;
			return d;
		}
	}
	return NULL;
}

#endif

static void
parse_rec(struct tr_in *in, const char *s, size_t n, struct tr_rec *r)
{
	const char *e = s + n, *t;
	struct tr_decl *d;
	size_t i;
	int nf;

	r->line = s;
	r->len = n;
#ifdef FASTREC
	{
		const struct tr_decl *fd = fast_decl(in, s, e);

		if (fd && !in->nul && fast_split(s, e, r, fd->nf) == 0) {
			if (!fd->schema) {
				r->decl = fd;
				r->type = TR_OTHER;
				return;
			}
			/* fail records, rare, are parsed as ev records are
			 * on the slow path */
			if (fd->schema->type != TR_FAIL &&
			    (fd->schema->type == TR_EV ? fast_ev(in, fd, r) :
			    fast_rec(in, fd, r)) == 0)
				return;
		}
	}
#endif
	/* One pass finds the tabs and any NUL, eight bytes at a time: a
	 * call per field costs more than the bytes do on lines this short. */
	r->f[0].p = s;
	nf = 0;
	t = s;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; t + 8 <= e; t += 8) {
		uint64_t w, hit;

		memcpy(&w, t, 8);
		hit = zero_bytes(w ^ 0x0909090909090909ULL) | zero_bytes(w);
		while (hit) {
			const char *c = t + (__builtin_ctzll(hit) >> 3);

			if (*c == '\0')
				tr_in_die(in, "binary data (a NUL byte)");
			r->f[nf].n = (size_t)(c - r->f[nf].p);
			if (++nf == TR_MAXF)
				tr_in_die(in, "more than %d fields", TR_MAXF);
			r->f[nf].p = c + 1;
			hit &= hit - 1;
		}
	}
#endif
	for (; t < e; t++) {
		if ((unsigned char)*t > '\t')
			continue;
		if (*t == '\t') {
			r->f[nf].n = (size_t)(t - r->f[nf].p);
			if (++nf == TR_MAXF)
				tr_in_die(in, "more than %d fields", TR_MAXF);
			r->f[nf].p = t + 1;
		} else if (*t == '\0')
			tr_in_die(in, "binary data (a NUL byte)");
	}
	r->f[nf].n = (size_t)(e - r->f[nf].p);
	r->nf = nf + 1;
	if (r->f[0].n == 0)
		tr_in_die(in, "empty record type");
	d = in->ndecl ? in->decls[in->lastdecl] : NULL;
	if (!d || d->namelen != r->f[0].n ||
	    memcmp(d->name, r->f[0].p, r->f[0].n) != 0) {
		for (d = NULL, i = 0; i < in->ndecl; i++) {
			const char *nm = in->decls[i]->name;

			if (strlen(nm) == r->f[0].n &&
			    memcmp(nm, r->f[0].p, r->f[0].n) == 0) {
				d = in->decls[i];
				in->lastdecl = i;
				break;
			}
		}
		if (!d)
			tr_in_die(in, "record type '%.*s' has no #fields line",
			    (int)(r->f[0].n > 40 ? 40 : r->f[0].n), r->f[0].p);
	}
	r->decl = d;
	if (r->nf != d->nf)
		tr_in_die(in, "expected %d fields for '%s', got %d", d->nf,
		    d->name, r->nf);
	r->type = d->schema ? d->schema->type : TR_OTHER;
	switch (r->type) {
	case TR_FAIL:
		/* an ev's columns, in the rank's order of seq, then err */
		tr_check_kinds(in, r);
		/* FALLTHROUGH */
	case TR_EV:
		parse_ev(in, r);
		break;
	case TR_REG:
		parse_reg(in, r);
		break;
	case TR_OTHER:
		break;
	default:
		tr_check_kinds(in, r);
	}
}

int
tr_next_line(struct tr_in *in, const char **line, size_t *n)
{
	int first;

	return next_line(in, line, n, &first);
}

int
tr_conf_line(struct tr_in *in, char **buf, size_t *cap)
{
	const char *l;
	size_t n;

	if (!tr_next_line(in, &l, &n))
		return 0;
	tr_grow(buf, cap, n + 1, 1);
	memcpy(*buf, l, n);
	(*buf)[n] = '\0';
	return 1;
}

int
tr_next(struct tr_in *in, struct tr_rec *r)
{
	const char *s;
	size_t n;
	int first, k;

	for (;;) {
		if (in->nq) {
			k = in->q[0];
			memmove(in->q, in->q + 1, --in->nq * sizeof *in->q);
			if (k == TR_END && in->atend)
				in->atend(in);
			if (k != TR_INSTALL)
				return k;
			tr_hdr_new_section(in);
			return TR_HDR;
		}
		if (in->held) {
			s = in->held;
			n = in->heldn;
			in->held = NULL;
			first = 0;
		} else if (!next_line(in, &s, &n, &first)) {
			if (in->nblk) {
				tr_hdr_apply(in);
				continue;
			}
			if (in->open) {
				in->open = 0;
				if (in->atend)
					in->atend(in);
				return TR_END;
			}
			return TR_EOF;
		}
		if (first && (n < 4 || memcmp(s, "#tr ", 4) != 0))
			tr_in_die(in, "missing header: the first line must be "
			    "'#tr %d'", TR_FORMAT);
		if (n > 0 && s[0] == '#') {
			k = tr_hdr_kind(in, s, n);
			if (k == 't' && in->nblk) {
				/* A header with no records before the next. */
				in->held = s;
				in->heldn = n;
				tr_hdr_apply(in);
				continue;
			}
			if (k == 'f')
				tr_hdr_check_fields(in, s, n);
			tr_hdr_add(in, s, n, k, tr_in_file(in), in->line);
			continue;
		}
		if (n == 0)
			tr_in_die(in, "empty line");
		if (in->nblk) {
			in->held = s;
			in->heldn = n;
			tr_hdr_apply(in);
			continue;
		}
		if (s[n - 1] == '\r')
			tr_in_die_cr(in);
		parse_rec(in, s, n, r);
		return TR_REC;
	}
}
