/* text.c - the buffer's records as lines of the trace (tr-format(5)),
 * corrected to rank 0's clock, with the header and the #meta lines that
 * go before and after them. */
#include <stdlib.h>
#include <string.h>

#include "libtr.h"
#include "buf.h"

enum { TXTCAP = 1 << 16 };

struct rec_head rec_head = { .driftstr = "0" };

static struct {
	int hdrdone;
	int faildecl;		/* the fail records' #fields line is out */
	int64_t lastend;	/* corrected end of the last record written */
	int64_t lastseq, lasts, laste;	/* to repeat a completion's times */
	char *txt;		/* formatted lines waiting for deflate */
	size_t ntxt;
	/* the text of comm and cart records, from the tables (tab/) */
	const char *(*members)(int idx, int *id, int *size);
	const char *(*grid)(int idx, int *id);
} T = { .lastseq = -1 };

int
rec_text_alloc(void)
{
	return (T.txt = malloc(TXTCAP)) ? 0 : -1;
}

void
rec_text_tables(const char *(*members)(int, int *, int *),
    const char *(*grid)(int, int *))
{
	T.members = members;
	T.grid = grid;
}

/* The text goes, written or not: once the file is gone (a write
 * failed), what follows is dropped, and the flush runs to its end. */
static void
push(int mode)
{
	rec_out_deflate(T.txt, T.ntxt, mode);
	T.ntxt = 0;
}

static void
out(const char *s, size_t n)
{
	while (n > 0) {
		size_t k = TXTCAP - T.ntxt;

		if (k > n)
			k = n;
		memcpy(T.txt + T.ntxt, s, k);
		T.ntxt += k;
		s += k;
		n -= k;
		if (T.ntxt == TXTCAP)
			push(OUT_MORE);
	}
}

/* A record's line is written in place, its room made first: one
 * bound check a line, not one a field (the flush's text is most of
 * its time at zlib level 0). NUM bounds a number and its tab, with
 * tr_fmt_i64's stores past its digits. */
enum { NUM = 24 };

static char *
room(size_t n)
{
	if (TXTCAP - T.ntxt < n)
		push(OUT_MORE);
	return T.txt + T.ntxt;
}

static char *
str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *
num(char *p, int64_t v)
{
	p = tr_fmt_i64(p, v);
	*p++ = '\t';
	return p;
}

static void
outs(const char *s)
{
	out(s, strlen(s));
}

static void
outi(int64_t v)
{
	char b[24];

	out(b, tr_fmt_i64(b, v) - b);
}

static void
outmeta(const char *k, int r, const char *v)
{
	outs("#meta ");
	outs(k);
	if (r >= 0) {
		out(".", 1);
		outi(r);
	}
	out("=", 1);
	outs(v);
	out("\n", 1);
}

static void
outmetai(const char *k, int r, int64_t v)
{
	char b[24];

	*tr_fmt_i64(b, v) = '\0';
	outmeta(k, r, b);
}

static void
outmods(void)
{
	size_t n;
	struct rec_mod *m = rec_mods(&n);

	for (size_t i = 0; i < n; i++)
		if (!m[i].written) {
			outs("#meta module.");
			outs(m[i].name);
			out("=", 1);
			outs(m[i].path);
			out("\n", 1);
			m[i].written = 1;
		}
}

static int
newmods(void)
{
	size_t n;
	struct rec_mod *m = rec_mods(&n);

	for (size_t i = 0; i < n; i++)
		if (!m[i].written)
			return 1;
	return 0;
}

static int64_t
offset_at(int64_t t)
{
	return rec_head.off0 +
	    (int64_t)(rec_head.drift * (double)(t - rec_head.t0));
}

static int64_t
fix(int64_t t)
{
	t = t - offset_at(t) - rec_head.origin;
	if (t < T.lastend)
		t = T.lastend;
	return t;
}

static void
outdrift(int fini)
{
	if (fini)
		outmetai("clock.offset.fini", rec.rank, rec_head.offfini);
	if (fini && rec.polls)
		outmetai("polls.merged", rec.rank, rec.polls);
	if (fini && rec.nflush) {
		outmetai("flush.count", rec.rank, rec.nflush);
		outmetai("flush.ns", rec.rank, rec.flushns);
	}
	/* ns per second, as the format says; made by rec_finish, since
	 * snprintf is not async-signal-safe */
	outmeta("clock.drift", rec.rank, rec_head.driftstr);
}

static void
header(void)
{
	outs("#tr 1\n");
	outs(rec_head.ghdr ? rec_head.ghdr : "");
	outmetai("clock.offset", rec.rank, rec_head.off0);
	if (rec_head.havefini) {
		outdrift(1);
		rec_head.finhdr = 0;
	}
	outmeta("host", rec.rank, rec_head.host);
	outmods();
	outs("#fields\tev\trank\tseq\top\tstart\tend\tcpu\tsite\tpeer\tbytes"
	    "\ttag\tcomm\treq\troot\n"
	    "#fields\treg\trank\tseq\tkind\tname\ttime\tcpu\twtime\n"
	    "#fields\tcomm\trank\tid\tsize\tmembers\n"
	    "#fields\tcart\trank\tid\tdims\tperiods\n");
	T.hdrdone = 1;
}

static void
outrec(const struct rrec *r)
{
	int64_t s, e;

	if (r->kind == RK_COMM) {
		int id, size;
		const char *m = T.members(r->req, &id, &size);

		outs("comm\t");
		outi(rec.rank);
		out("\t", 1);
		outi(id);
		out("\t", 1);
		outi(size);
		out("\t", 1);
		outs(m);
		out("\n", 1);
		return;
	}
	if (r->kind == RK_CART) {
		int id;
		const char *g = T.grid((int)r->req, &id);

		outs("cart\t");
		outi(rec.rank);
		out("\t", 1);
		outi(id);
		out("\t", 1);
		outs(g);
		out("\n", 1);
		return;
	}
	if (r->kind == RK_EV && r->seq == T.lastseq) {
		s = T.lasts;
		e = T.laste;
	} else {
		s = fix(r->start);
		e = r->kind == RK_EV ? fix(r->end) : s;
	}
	T.lastseq = r->seq;
	T.lasts = s;
	T.laste = e;
	if (r->kind != RK_EV) {
		const char *nm = rec_name(r->op);
		char *p = room(2 * NUM + 16);

		/* the name, of any length, by out() */
		p = str(p, "reg\t", 4);
		p = num(p, rec.rank);
		p = num(p, r->seq);
		p = r->kind == RK_ENTER ? str(p, "enter\t", 6) :
		    str(p, "leave\t", 6);
		T.ntxt = p - T.txt;
		outs(nm);
		p = room(3 * NUM + 2);
		*p++ = '\t';
		p = num(p, s);
		p = num(p, r->cpu);
		p = tr_fmt_i64(p, r->wtime);
		*p++ = '\n';
		T.ntxt = p - T.txt;
		T.lastend = s;
		return;
	}
	{
		const char *op = rec_opname[r->op], *site = rec_site(r->site);
		const char *en = r->err ? rec_errname(r->err) : NULL;
		size_t ko = strlen(op), ks = strlen(site);
		size_t ke = en ? strlen(en) : 0;
		char *p = room(ko + ks + ke + 13 * NUM + 16);

		p = r->err ? str(p, "fail\t", 5) : str(p, "ev\t", 3);
		p = num(p, rec.rank);
		p = num(p, r->seq);
		p = str(p, op, ko);
		*p++ = '\t';
		p = num(p, s);
		p = num(p, e);
		p = num(p, r->cpu);
		p = str(p, site, ks);
		*p++ = '\t';
		p = num(p, r->peer);
		p = num(p, r->bytes);
		p = num(p, r->tag);
		p = num(p, r->comm);
		p = num(p, r->req);
		p = tr_fmt_i64(p, r->root);
		if (r->err) {
			*p++ = '\t';
			p = en ? str(p, en, ke) : tr_fmt_i64(p, r->err);
		}
		*p++ = '\n';
		T.ntxt = p - T.txt;
	}
	T.lastend = e;
}

/* The lines before records [I0, N) of the buffer: the header, or the
 * modules their sites are in, the fail records' fields and the calls
 * not recorded that are new since the last flush. */
void
rec_text_head(size_t i0, size_t n)
{
	size_t i;
	int fails = 0, nnote;
	struct rec_note *note = rec_notes(&nnote);

	for (i = i0; i < n; i++)
		if (rec.buf[i].kind == RK_EV) {
			rec_site(rec.buf[i].site);
			fails |= rec.buf[i].err != 0;
		}
	fails &= !T.faildecl;
	if (!T.hdrdone)
		header();
	else if (newmods() || fails || (nnote && !note[nnote - 1].done)) {
		outs("#tr 1\n");
		outmods();
	}
	/* Declared with the first, so that a trace without any is as
	 * before. */
	if (fails) {
		outs("#fields\tfail\trank\tseq\top\tstart\tend\tcpu\tsite"
		    "\tpeer\tbytes\ttag\tcomm\treq\troot\terr\n");
		T.faildecl = 1;
	}
	for (i = 0; i < (size_t)nnote; i++)
		if (!note[i].done) {
			outs("#meta unrecorded.");
			outs(note[i].kind);
			out("=", 1);
			outs(note[i].what);
			out("\n", 1);
			note[i].done = 1;
		}
}

void
rec_text_records(size_t i0, size_t n)
{
	size_t i;

	for (i = i0; i < n; i++)
		outrec(&rec.buf[i]);
}

/* The lines after the records, and the stream made readable up to
 * them; FINAL ends it. */
void
rec_text_tail(int final)
{
	/* rec_finish's keys, after the records they correct */
	if (rec_head.finhdr) {
		outs("#tr 1\n");
		outdrift(1);
		rec_head.finhdr = 0;
	}
	/* In the same gzip member as the records: a rank that ends early
	 * has them all, or the reader says the file is cut. */
	if (final && rec_head.endwhy) {
		outs("#tr 1\n");
		outmeta("end", rec.rank, rec_head.endwhy);
	}
	push(final ? OUT_END : OUT_SYNC);
}
