/*
 * chrome.c - a tr stream as the trace-event JSON that Perfetto,
 * chrome://tracing and speedscope open.
 *
 * A section is a process (pid 1, 2, ...) and each rank a thread of it
 * (tid the rank): Perfetto groups a process's threads under one
 * heading, so that every rank of a run is one expand away and the
 * arrows of its messages stay inside the group, and speedscope offers
 * each thread as a profile named by its thread_name. Calls and the
 * computation between them are complete ("X") events, regions B/E pairs
 * around them, messages flow events ("s" to "f") from the send's slice
 * to the slice of the call that completed the receive, at the middle of
 * each, where no other slice of the rank is.
 *
 * Events are written as records are read: a call's slice waits only for
 * the rank's next record (a completion that completes several requests
 * is one record per request), a region's enter before the window only
 * until something of the rank in the window shows it is needed, a
 * message until both its ends are read. Times are ns, written as us
 * with three decimals, exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "conv.h"

struct creg {
	int64_t t;
	char *name;
	size_t n;
	int written;
};

struct crank {
	int seen, have, open, kept, nreq;
	int64_t seq, last, at;
	char *pend, *post;	/* the open call's event; events after it */
	int64_t start, end;	/* of the open call */
	size_t nhead, npend, cappend, npost, cappost;
	struct creg *reg;
	size_t nreg, capreg;
};

struct tr_chrome {
	struct tr_out *o;
	const struct tr_in *in;
	int64_t t0, t1;
	const unsigned char *ranks;
	size_t nranks;
	int quiet, first;
	long sect, pid;
	struct crank *r;
	size_t nr;
	struct tr_match *match;
	int64_t flows;
	char *buf, *ebuf;
	size_t cap, ecap;
};

static char *
put(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* NS as microseconds, "12.345". */
static char *
us(char *p, int64_t ns)
{
	int64_t f;

	if (ns < 0) {
		*p++ = '-';
		ns = -ns;
	}
	p = tr_fmt_i64(p, ns / 1000);
	f = ns % 1000;
	*p++ = '.';
	*p++ = (char)('0' + f / 100);
	*p++ = (char)('0' + f / 10 % 10);
	*p++ = (char)('0' + f % 10);
	return p;
}

static char *
str(const struct tr_chrome *c, char *p, const char *s, size_t n,
    const char *what)
{
	char *e = tr_json_str(p, s, n);

	if (!e)
		tr_in_die(c->in, "%s: not UTF-8 text, which JSON cannot carry",
		    what);
	return e;
}

static char *
num(char *p, const char *key, int64_t v)
{
	p = put(p, key);
	return tr_fmt_i64(p, v);
}

/* Room for an event of N bytes besides its escaped strings. */
static char *
room(struct tr_chrome *c, size_t n)
{
	tr_grow(&c->buf, &c->cap, n + 256, 1);
	return c->buf;
}

static void
emit(struct tr_chrome *c, const char *p, size_t n)
{
	if (!c->first)
		tr_out_write(c->o, ",\n", 2);
	c->first = 0;
	tr_out_write(c->o, p, n);
}

/* "pid":P,"tid":T */
static char *
where(const struct tr_chrome *c, char *p, int64_t rank)
{
	p = num(p, "\"pid\":", c->pid);
	return num(p, ",\"tid\":", rank);
}

struct tr_chrome *
tr_chrome_new(struct tr_out *o, int64_t t0, int64_t t1,
    const unsigned char *ranks, size_t nranks, int quiet)
{
	struct tr_chrome *c = tr_calloc(1, sizeof *c);

	c->o = o;
	c->t0 = t0;
	c->t1 = t1;
	c->ranks = ranks;
	c->nranks = nranks;
	c->quiet = quiet;
	c->first = 1;
	/* No displayTimeUnit: Perfetto once read "ts" in that unit. */
	tr_out_str(o, "{\"traceEvents\":[\n");
	return c;
}

/* Overlaps [t0, t1), instants included, as tr-filter -w keeps. */
static int
inwin(const struct tr_chrome *c, int64_t a, int64_t b)
{
	return a < c->t1 && (a >= c->t0 || b > c->t0);
}

static void
meta_event(struct tr_chrome *c, int64_t rank, const char *what,
    const char *name, size_t n, const char *key)
{
	char *p = room(c, 6 * n), *b = p;

	p = put(p, "{\"ph\":\"M\",\"name\":\"");
	p = put(p, what);
	p = put(p, "\",");
	p = where(c, p, rank < 0 ? 0 : rank);
	p = put(p, ",\"args\":{\"");
	p = put(p, name ? "name" : "sort_index");
	p = put(p, "\":");
	p = name ? str(c, p, name, n, key) : tr_fmt_i64(p, rank < 0 ?
	    c->pid : rank);
	p = put(p, "}}");
	emit(c, b, (size_t)(p - b));
}

static void
process_names(struct tr_chrome *c)
{
	const char *app = tr_meta(c->in, "app"), *np = tr_meta(c->in, "np");
	size_t n = (app ? strlen(app) : 2) + (np ? strlen(np) : 0) + 8;
	char *s = tr_malloc(n);

	snprintf(s, n, "%s%s%s", app ? app : "tr", np ? " np=" : "",
	    np ? np : "");
	meta_event(c, 0, "process_name", s, strlen(s), "#meta app");
	meta_event(c, -1, "process_sort_index", NULL, 0, NULL);
	free(s);
}

static struct crank *
rank_of(struct tr_chrome *c, int64_t rank)
{
	struct crank *cr;
	const char *h;
	char key[40], *s;
	size_t n;

	tr_growz(&c->r, &c->nr, (size_t)rank + 1, sizeof *c->r);
	cr = &c->r[rank];
	if (cr->seen)
		return cr;
	cr->seen = 1;
	snprintf(key, sizeof key, "host.%lld", (long long)rank);
	h = tr_meta(c->in, key);
	n = (h ? strlen(h) : 0) + 40;
	s = tr_malloc(n);
	snprintf(s, n, h ? "rank %lld (%s)" : "rank %lld", (long long)rank, h);
	meta_event(c, rank, "thread_name", s, strlen(s), key);
	meta_event(c, rank, "thread_sort_index", NULL, 0, NULL);
	free(s);
	return cr;
}

/* The enters of regions held back, now that the rank shows something
 * inside them. */
static void
unhold(struct tr_chrome *c, int64_t rank, struct crank *cr)
{
	struct creg *g;
	char *p, *b;

	for (g = cr->reg; g < cr->reg + cr->nreg; g++) {
		if (g->written)
			continue;
		g->written = 1;
		p = b = room(c, 6 * g->n);
		p = put(p, "{\"ph\":\"B\",\"cat\":\"region\",\"name\":");
		p = str(c, p, g->name, g->n, "name");
		p = put(p, ",");
		p = where(c, p, rank);
		p = us(put(p, ",\"ts\":"), g->t);
		p = put(p, "}");
		emit(c, b, (size_t)(p - b));
	}
}

/* Named as its B, which speedscope pairs it with by name. */
static void
region_end(struct tr_chrome *c, int64_t rank, const struct creg *g,
    int64_t t)
{
	char *p = room(c, 6 * g->n), *b = p;

	p = put(p, "{\"ph\":\"E\",\"cat\":\"region\",\"name\":");
	p = str(c, p, g->name, g->n, "name");
	p = put(p, ",");
	p = where(c, p, rank);
	p = us(put(p, ",\"ts\":"), t);
	p = put(p, "}");
	emit(c, b, (size_t)(p - b));
}

/* A slice as a B and an E event: speedscope adds "dur" to "ts" in
 * floating point, which can end a slice past the start of the next, and
 * it pairs an E with its B by name and args, so both carry them. HEAD is
 * the event up to "ts":, ARGS what follows the time. */
static void
slice(struct tr_chrome *c, const char *head, size_t nh, int64_t t0,
    int64_t t1, const char *args, size_t na)
{
	char *p, *b;
	int i;

	tr_grow(&c->ebuf, &c->ecap, nh + na + 32, 1);
	for (i = 0; i < 2; i++) {
		p = b = c->ebuf;
		memcpy(p, head, nh);
		p[7] = i ? 'E' : 'B';
		p = us(p + nh, i ? t1 : t0);
		memcpy(p, args, na);
		emit(c, b, (size_t)(p + na - b));
	}
}

/* The rank's open call, with events that came after it. */
static void
flush(struct tr_chrome *c, struct crank *cr)
{
	char *p;

	if (!cr->open)
		return;
	cr->open = 0;
	if (cr->kept) {
		tr_grow(&cr->pend, &cr->cappend, cr->npend + 48, 1);
		p = cr->pend + cr->npend;
		if (cr->nreq > 1)
			p = num(p, ",\"requests\":", cr->nreq);
		p = put(p, "}}");
		slice(c, cr->pend, cr->nhead, cr->start, cr->end, cr->pend +
		    cr->nhead, (size_t)(p - cr->pend) - cr->nhead);
	}
	if (cr->npost)
		tr_out_write(c->o, cr->post, cr->npost);
	cr->npend = cr->npost = 0;
}

static void
compute(struct tr_chrome *c, int64_t rank, struct crank *cr, int64_t a,
    int64_t b, int64_t cpu)
{
	char *p, *s, *args;

	if (!cr->have || b <= a || !inwin(c, a, b))
		return;
	unhold(c, rank, cr);
	p = s = room(c, 0);
	p = put(p, "{\"ph\":\"B\",\"cat\":\"compute\",\"name\":\"compute\",");
	p = where(c, p, rank);
	p = put(p, ",\"ts\":");
	args = p;
	if (cpu >= 0)
		p = num(p, ",\"args\":{\"cpu\":", cpu);
	p = put(p, cpu >= 0 ? "}}" : "}");
	slice(c, s, (size_t)(args - s), a, b, args, (size_t)(p - args));
}

/* A call's slice, its args left open for flush. */
static void
call(struct tr_chrome *c, const struct tr_rec *r, struct crank *cr)
{
	const struct tr_ev *e = &r->u.ev;
	int fail = r->type == TR_FAIL, sr;
	size_t n = 6 * (e->op.n + e->site.n + (fail ? r->f[14].n : 0)) + 400;
	char *p;

	tr_grow(&cr->pend, &cr->cappend, n, 1);
	p = cr->pend;
	p = put(p, fail ? "{\"ph\":\"B\",\"cat\":\"mpi,failed\",\"name\":" :
	    "{\"ph\":\"B\",\"cat\":\"mpi\",\"name\":");
	p = str(c, p, e->op.p, e->op.n, "op");
	p = put(p, ",");
	p = where(c, p, e->rank);
	p = put(p, ",\"ts\":");
	cr->nhead = (size_t)(p - cr->pend);
	cr->start = e->start;
	cr->end = e->end;
	p = num(p, ",\"args\":{\"seq\":", e->seq);
	p = put(p, ",\"site\":");
	p = str(c, p, e->site.p, e->site.n, "site");
	sr = e->op.n >= 12 && memcmp(e->op.p, "MPI_Sendrecv", 12) == 0;
	if (e->peer >= 0)
		p = num(p, ",\"peer\":", e->peer);
	if (e->bytes > 0)
		p = num(p, ",\"bytes\":", e->bytes);
	if (e->tag >= 0)
		p = num(p, ",\"tag\":", e->tag);
	if (e->comm >= 0)
		p = num(p, ",\"comm\":", e->comm);
	if (e->root >= 0)
		p = num(p, sr ? ",\"source\":" : ",\"root\":", e->root);
	if (e->req >= 0)
		p = num(p, sr ? ",\"tag_received\":" : ",\"req\":", e->req);
	if (fail) {
		p = put(p, ",\"error\":");
		p = str(c, p, r->f[14].p, r->f[14].n, "err");
	}
	cr->npend = (size_t)(p - cr->pend);
}

/* A message's arrow, both of whose slices are written. */
static void
flow(void *ctx, const struct tr_msgend *s, const struct tr_msgend *d)
{
	struct tr_chrome *c = ctx;
	const struct tr_msgend *end[2] = {s, d};
	struct crank *cr;
	char *p, *b;
	int i;

	if (!s->flag || !d->flag)
		return;
	c->flows++;
	for (i = 0; i < 2; i++) {
		p = b = room(c, 0);
		p = put(p, i ? ",\n{\"ph\":\"f\",\"bp\":\"e\"" :
		    ",\n{\"ph\":\"s\"");
		p = num(p, ",\"cat\":\"message\",\"name\":\"message\",\"id\":",
		    c->flows);
		p = put(p, ",");
		p = where(c, p, end[i]->rank);
		p = us(put(p, ",\"ts\":"), end[i]->at);
		if (!i) {
			p = num(p, ",\"args\":{\"bytes\":", s->bytes);
			p = num(p, ",\"tag\":", s->tag);
			p = num(p, ",\"to\":", d->rank);
			p = put(p, "}");
		}
		p = put(p, "}");
		cr = &c->r[end[i]->rank];
		if (cr->open) {
			tr_grow(&cr->post, &cr->cappost, cr->npost +
			    (size_t)(p - b), 1);
			memcpy(cr->post + cr->npost, b, (size_t)(p - b));
			cr->npost += (size_t)(p - b);
		} else
			tr_out_write(c->o, b, (size_t)(p - b));
	}
}

static void
ev(struct tr_chrome *c, const struct tr_rec *r, struct crank *cr)
{
	const struct tr_ev *e = &r->u.ev;
	int coll, cls;
	int64_t comm;

	cls = tr_ev_class(e, &coll, &comm);
	if (!(cr->open && e->seq == cr->seq)) {
		flush(c, cr);
		compute(c, e->rank, cr, cr->last, e->start, e->cpu);
		cr->kept = inwin(c, e->start, e->end);
		if (cr->kept) {
			unhold(c, e->rank, cr);
			call(c, r, cr);
		}
		cr->open = cr->have = 1;
		cr->nreq = 0;
		cr->seq = e->seq;
		cr->last = e->end;
		cr->at = e->start + (e->end - e->start) / 2;
	}
	cr->nreq++;
	/* A truncated receive took its message, as the replays have it. */
	if (r->type == TR_EV || tr_fail_replayed(r, cls))
		tr_match_ev(c->match, e, cls, cr->at, cr->kept);
}

static void
reg(struct tr_chrome *c, const struct tr_reg *g, struct crank *cr)
{
	struct creg *top;

	flush(c, cr);
	compute(c, g->rank, cr, cr->last, g->time, g->cpu);
	cr->have = 1;
	cr->seq = g->seq;
	cr->last = g->time;
	if (!g->leave) {
		tr_grow(&cr->reg, &cr->capreg, cr->nreg + 1, sizeof *cr->reg);
		top = &cr->reg[cr->nreg++];
		top->t = g->time;
		top->name = tr_strndup(g->name.p, g->name.n);
		top->n = g->name.n;
		top->written = 0;
		if (inwin(c, g->time, g->time))
			unhold(c, g->rank, cr);
		return;
	}
	if (!cr->nreg)		/* its enter cut off before the stream */
		return;
	top = &cr->reg[cr->nreg - 1];
	if (!top->written && top->t < c->t1 && g->time > c->t0)
		unhold(c, g->rank, cr);
	if (top->written)
		region_end(c, g->rank, top, g->time);
	free(top->name);
	cr->nreg--;
}

void
tr_chrome_rec(struct tr_chrome *c, const struct tr_in *in,
    const struct tr_rec *r)
{
	int64_t rank;

	c->in = in;
	if (r->type != TR_EV && r->type != TR_FAIL && r->type != TR_REG &&
	    r->type != TR_COMM)
		return;
	if (c->sect != tr_in_section(in)) {
		if (c->match)
			tr_chrome_end(c, in);
		c->sect = tr_in_section(in);
		c->pid++;
		c->match = tr_match_new(flow, c);
		process_names(c);
	}
	if (r->type == TR_COMM) {
		tr_match_comm(c->match, in, r);
		return;
	}
	rank = r->type == TR_REG ? r->u.reg.rank : r->u.ev.rank;
	if (c->ranks && ((size_t)rank >= c->nranks || !c->ranks[rank]))
		return;
	if (r->type == TR_REG)
		reg(c, &r->u.reg, rank_of(c, rank));
	else
		ev(c, r, rank_of(c, rank));
}

void
tr_chrome_end(struct tr_chrome *c, const struct tr_in *in)
{
	struct crank *cr;
	int64_t ns, nr;
	size_t i;

	if (!c->match)
		return;
	c->in = in;
	for (i = 0; i < c->nr; i++) {
		cr = &c->r[i];
		flush(c, cr);
		/* a rank whose recording ended in a region */
		while (cr->nreg) {
			if (cr->reg[cr->nreg - 1].written)
				region_end(c, (int64_t)i,
				    &cr->reg[cr->nreg - 1], cr->last);
			free(cr->reg[--cr->nreg].name);
		}
		free(cr->pend);
		free(cr->post);
		free(cr->reg);
	}
	free(c->r);
	c->r = NULL;
	c->nr = 0;
	tr_match_reset(c->match, &ns, &nr);
	tr_match_free(c->match);
	c->match = NULL;
	if (!c->quiet && !c->ranks && (ns || nr))
		tr_warn("%s:%ld: %lld sends and %lld receives unmatched: no "
		    "arrows for them", tr_in_file(in), tr_in_line(in),
		    (long long)ns, (long long)nr);
}

void
tr_chrome_close(struct tr_chrome *c)
{
	if (c->match)
		tr_chrome_end(c, c->in);
	tr_out_str(c->o, "\n]}\n");
	free(c->buf);
	free(c->ebuf);
	free(c);
}
