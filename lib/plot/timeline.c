/* timeline.c - the timeline chart of ev records: one lane per rank, MPI
 * calls coloured by operation, messages as arrows from send to receive,
 * and the wait in collectives. Beyond a number of events it switches to
 * time-binned lanes of bounded size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* 12 ops by first appearance, then "other", then tr-record's flushes */
#define NCAT 14
#define OTHER (NCAT - 2)
#define FLUSHCAT (NCAT - 1)
#define NBIN 400
#define NROW 64

struct tl_ev {
	int64_t start, end, peer, tag, comm, req, root, bytes;
	int32_t rank, op;
	int cls, coll;
	int dup;		/* a further request of one completion call */
	long site;		/* in sites, or -1 */
};

struct tr_tl {
	long limit;
	int64_t np, nev, nranks;
	int64_t tmin, tmax;	/* over all events */
	int64_t initend, finstart;	/* the solve: -1 if unknown */
	struct tl_ev *ev;
	size_t n, cap;
	struct tr_map *ops;
	struct tr_map *leader;	/* "rank,comm id" -> index in lead */
	int64_t *lead;
	size_t leadcap;
	int64_t *seq;		/* per rank, the last seq seen */
	size_t seqcap;
	int64_t *flush;		/* per rank, the start of a tr.flush, or -1 */
	size_t flushcap, nflush;
	long flushop;		/* tr.flush's index in ops, or -1 */
	struct tr_map *sites;	/* NULL: tooltips name none */
	/* The binned form. */
	int binned;
	int64_t t0, w, g;	/* first bin, bin width, ranks per row */
	double *cell;		/* NROW x NBIN x NCAT ns of MPI time */
};

struct tr_tl *
tr_tl_new(long limit)
{
	struct tr_tl *t = tr_calloc(1, sizeof *t);

	t->limit = limit > 0 ? limit : 20000;
	t->ops = tr_map_new();
	t->leader = tr_map_new();
	t->np = -1;
	t->tmin = INT64_MAX;
	t->flushop = -1;
	t->initend = t->finstart = -1;
	return t;
}

void
tr_tl_free(struct tr_tl *t)
{
	if (!t)
		return;
	free(t->ev);
	free(t->cell);
	free(t->lead);
	free(t->seq);
	free(t->flush);
	tr_map_free(t->ops);
	tr_map_free(t->leader);
	tr_map_free(t->sites);
	free(t);
}

void
tr_tl_np(struct tr_tl *t, int64_t np)
{
	if (np > t->np)
		t->np = np;
}

void
tr_tl_sites(struct tr_tl *t)
{
	if (!t->sites)
		t->sites = tr_map_new();
}

long
tr_tl_events(const struct tr_tl *t)
{
	return (long)t->nev;
}

static long
key2(struct tr_map *m, int64_t a, int64_t b, int add)
{
	int64_t k[2] = {a, b};

	return tr_map_get(m, (const char *)k, sizeof k, add);
}

/* A communicator's first member tells apart the communicators that
 * different groups of ranks created with the same id (MPI_Comm_split). */
/* tr-record's buffer flushes, drawn as a call named tr.flush: a gap of
 * 55 ms between two calls read as the program's computation. Other
 * regions are the program's and stay in its computation. */
void
tr_tl_reg(struct tr_tl *t, const struct tr_reg *g)
{
	struct tr_ev e;
	size_t r = (size_t)g->rank;

	if (!tr_reg_flush(g))
		return;
	if (r >= t->nflush) {
		tr_grow(&t->flush, &t->flushcap, r + 1, sizeof *t->flush);
		while (t->nflush <= r)
			t->flush[t->nflush++] = -1;
	}
	if (!g->leave) {
		t->flush[r] = g->time;
		return;
	}
	/* none in a replay, where a flush takes no time */
	if (t->flush[r] < 0 || g->time <= t->flush[r]) {
		t->flush[r] = -1;
		return;
	}
	memset(&e, 0, sizeof e);
	e.rank = g->rank;
	e.seq = g->seq;
	e.op.p = "tr.flush";
	e.op.n = 8;
	e.start = t->flush[r];
	e.end = g->time;
	e.cpu = e.peer = e.tag = e.comm = e.req = e.root = -1;
	t->flush[r] = -1;
	t->flushop = tr_map_get(t->ops, e.op.p, e.op.n, 1);
	tr_tl_add(t, &e);
}

void
tr_tl_comm(struct tr_tl *t, int64_t rank, int64_t id, const char *members,
    size_t n)
{
	int64_t first = 0;
	size_t i = 0;
	long k;

	/* Binned lanes draw no collective waits: a communicator made
	 * every iteration would fill the table with the trace's length. */
	if (t->binned)
		return;
	while (i < n && members[i] >= '0' && members[i] <= '9')
		i++;
	if (tr_parse_i64(members, i, &first) < 0)
		return;
	k = key2(t->leader, rank, id, 1);
	tr_grow(&t->lead, &t->leadcap, (size_t)k + 1, sizeof *t->lead);
	t->lead[k] = first;
}

static int64_t
leader(struct tr_tl *t, int64_t rank, int64_t comm)
{
	long k = key2(t->leader, rank, comm, 0);

	return k < 0 ? (comm == 0 ? 0 : -1) : t->lead[k];
}

/* The category of op OP: the ops in order of appearance, tr-record's
 * flushes apart (whenever they first came, not "other MPI"). */
static int
cat(const struct tr_tl *t, int op)
{
	if (op == t->flushop)
		return FLUSHCAT;
	if (t->flushop >= 0 && op > t->flushop)
		op--;
	return op < OTHER ? op : OTHER;
}

static double *
cellp(struct tr_tl *t, int64_t row, int64_t bin)
{
	return t->cell + ((size_t)row * NBIN + (size_t)bin) * NCAT;
}

/* Doubles the bin width, keeping old bins aligned: the range grows to
 * the right, or to the left when left is set. */
static void
widen(struct tr_tl *t, int left)
{
	int64_t r, b;
	int c;

	for (r = 0; r < NROW; r++) {
		double tmp[NBIN][NCAT];

		memset(tmp, 0, sizeof tmp);
		for (b = 0; b < NBIN; b++) {
			int64_t nb = left ? NBIN / 2 + b / 2 : b / 2;

			for (c = 0; c < NCAT; c++)
				tmp[nb][c] += cellp(t, r, b)[c];
		}
		memcpy(cellp(t, r, 0), tmp, sizeof tmp);
	}
	if (left)
		t->t0 -= NBIN * t->w;
	t->w *= 2;
}

static void
deepen(struct tr_tl *t)
{
	int64_t r;
	int b, c;

	for (r = 0; r < NROW; r++)
		for (b = 0; b < NBIN; b++) {
			double *d = cellp(t, r / 2, b), *s = cellp(t, r, b);

			for (c = 0; c < NCAT; c++) {
				double v = s[c];

				s[c] = 0;
				d[c] += v;
			}
		}
	t->g *= 2;
}

static void
bin_add(struct tr_tl *t, const struct tl_ev *e)
{
	int64_t b, row;
	double *p;

	if (e->end <= e->start || e->dup)
		return;
	while (e->start < t->t0)
		widen(t, 1);
	while (e->end > t->t0 + NBIN * t->w)
		widen(t, 0);
	while (e->rank >= NROW * t->g)
		deepen(t);
	row = e->rank / t->g;
	for (b = (e->start - t->t0) / t->w; b < NBIN; b++) {
		int64_t lo = t->t0 + b * t->w, hi = lo + t->w;
		int64_t s = e->start > lo ? e->start : lo;
		int64_t f = e->end < hi ? e->end : hi;

		if (lo >= e->end)
			break;
		p = cellp(t, row, b);
		p[cat(t, e->op)] += (double)(f - s);
	}
}

static void
to_binned(struct tr_tl *t)
{
	int64_t lo = INT64_MAX, hi = 0, maxr = t->np;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->ev[i].start < lo)
			lo = t->ev[i].start;
		if (t->ev[i].end > hi)
			hi = t->ev[i].end;
		if (t->ev[i].rank + 1 > maxr)
			maxr = t->ev[i].rank + 1;
	}
	t->binned = 1;
	t->cell = tr_calloc((size_t)NROW * NBIN * NCAT, sizeof *t->cell);
	t->t0 = lo;
	t->w = (hi - lo) / NBIN + 1;
	t->g = (maxr + NROW - 1) / NROW;
	if (t->g < 1)
		t->g = 1;
	for (i = 0; i < t->n; i++)
		bin_add(t, &t->ev[i]);
	free(t->ev);
	t->ev = NULL;
	t->n = t->cap = 0;
	tr_map_free(t->leader);
	t->leader = tr_map_new();
	free(t->lead);
	t->lead = NULL;
	t->leadcap = 0;
}

static int
opis(const struct tr_ev *e, const char *name)
{
	size_t n = strlen(name);

	return e->op.n == n && memcmp(e->op.p, name, n) == 0;
}

void
tr_tl_add(struct tr_tl *t, const struct tr_ev *e)
{
	struct tl_ev x;
	long op = tr_map_get(t->ops, e->op.p, e->op.n, 1);
	int coll;

	x.start = e->start;
	x.end = e->end;
	x.peer = e->peer;
	x.tag = e->tag;
	x.req = e->req;
	x.root = e->root;
	x.bytes = e->bytes;
	x.rank = (int32_t)e->rank;
	x.op = (int32_t)op;
	x.cls = tr_ev_class(e, &coll, &x.comm);
	x.coll = coll;
	x.site = -1;
	if (t->sites && !t->binned && e->site.n && !(e->site.n == 1 &&
	    e->site.p[0] == '-'))
		x.site = tr_map_get(t->sites, e->site.p, e->site.n, 1);
	if (e->rank + 1 > t->nranks) {
		int64_t r;

		tr_grow(&t->seq, &t->seqcap, (size_t)e->rank + 1, sizeof *t->seq);
		for (r = t->nranks; r <= e->rank; r++)
			t->seq[r] = -1;
		t->nranks = e->rank + 1;
	}
	x.dup = t->seq[e->rank] == e->seq;
	if ((opis(e, "MPI_Init") || opis(e, "MPI_Init_thread")) &&
	    e->end > t->initend)
		t->initend = e->end;
	if (opis(e, "MPI_Finalize") && (t->finstart < 0 ||
	    e->start < t->finstart))
		t->finstart = e->start;
	if (e->start < t->tmin)
		t->tmin = e->start;
	if (e->end > t->tmax)
		t->tmax = e->end;
	t->seq[e->rank] = e->seq;
	t->nev += !x.dup;
	if (!t->binned && !x.dup && t->nev > t->limit)
		to_binned(t);
	if (t->binned) {
		bin_add(t, &x);
		return;
	}
	tr_grow(&t->ev, &t->cap, t->n + 1, sizeof *t->ev);
	t->ev[t->n++] = x;
}

/* ---- drawing ---- */

struct end {
	long key;
	size_t i;		/* event, for the stream order */
	int64_t t;
	int64_t rank;
};

static int
end_cmp(const void *a, const void *b)
{
	const struct end *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static long
msgkey(struct tr_map *m, int64_t src, int64_t dst, int64_t comm, int64_t tag)
{
	int64_t k[4] = {src, dst, comm, tag};

	return tr_map_get(m, (const char *)k, sizeof k, 1);
}

struct geo {
	struct tr_scale x;
	double y0, lane, left, right;
	const char *id;
};

static double
lane_y(const struct geo *g, int64_t rank)
{
	return g->y0 + (double)rank * g->lane;
}

static void
draw_msgs(struct tr_tl *t, struct tr_out *o, const struct geo *g)
{
	struct tr_map *keys = tr_map_new(), *irecv = tr_map_new();
	struct end *s = NULL, *r = NULL;
	size_t ns = 0, nr = 0, scap = 0, rcap = 0, i, a, b, *irq = NULL,
	    irqcap = 0;

	for (i = 0; i < t->n; i++) {
		const struct tl_ev *e = &t->ev[i];
		int64_t src = -1, rt = e->end, tag = e->tag;
		long k;

		if ((e->cls == TR_MPI_SEND || e->cls == TR_MPI_SSEND ||
		    e->cls == TR_MPI_ISEND || e->cls == TR_MPI_SENDRECV) &&
		    e->peer >= 0) {
			tr_grow(&s, &scap, ns + 1, sizeof *s);
			s[ns].key = msgkey(keys, e->rank, e->peer, e->comm,
			    e->tag);
			s[ns].i = i;
			s[ns].t = e->start;
			s[ns++].rank = e->rank;
		}
		if (e->cls == TR_MPI_RECV)
			src = e->peer;
		else if (e->cls == TR_MPI_SENDRECV) {
			src = e->root;
			if (e->req >= 0)	/* the tag received */
				tag = e->req;
		} else if (e->cls == TR_MPI_IRECV && e->req >= 0) {
			k = key2(irecv, e->rank, e->req, 1);
			tr_grow(&irq, &irqcap, (size_t)k + 1, sizeof *irq);
			irq[k] = i;
		} else if ((e->cls == TR_MPI_WAIT || e->cls == TR_MPI_TEST) &&
		    e->req >= 0 && (k = key2(irecv, e->rank, e->req, 0)) >= 0 &&
		    irq[k] != (size_t)-1) {
			const struct tl_ev *q = &t->ev[irq[k]];

			src = e->peer >= 0 ? e->peer : q->peer;
			tag = e->tag >= 0 ? e->tag : q->tag;
			irq[k] = (size_t)-1;
		}
		if (src < 0)
			continue;
		tr_grow(&r, &rcap, nr + 1, sizeof *r);
		r[nr].key = msgkey(keys, src, e->rank, e->comm, tag);
		r[nr].i = i;
		r[nr].t = rt;
		r[nr++].rank = e->rank;
	}
	if (ns)
		tr_sort(s, ns, sizeof *s, end_cmp);
	if (nr)
		tr_sort(r, nr, sizeof *r, end_cmp);
	/* MPI's non-overtaking rule: the k-th send of a (source,
	 * destination, communicator, tag) matches the k-th receive. */
	tr_out_str(o, "<g class=\"msg\" stroke=\"#222\" stroke-width=\"0.8\" "
	    "fill=\"none\">\n");
	for (a = b = 0; a < ns && b < nr;) {
		if (s[a].key < r[b].key) {
			a++;
		} else if (s[a].key > r[b].key) {
			b++;
		} else {
			double y1 = lane_y(g, s[a].rank) + g->lane / 2;
			double y2 = lane_y(g, r[b].rank) + g->lane / 2;

			tr_out_printf(o, "<line x1=\"%.2f\" y1=\"%.1f\" "
			    "x2=\"%.2f\" y2=\"%.1f\" marker-end=\"url(#%s-arr)\""
			    "/>\n", tr_scale_map(&g->x, (double)s[a].t), y1,
			    tr_scale_map(&g->x, (double)r[b].t), y2, g->id);
			a++;
			b++;
		}
	}
	tr_out_str(o, "</g>\n");
	free(s);
	free(r);
	free(irq);
	tr_map_free(keys);
	tr_map_free(irecv);
}

/* The wait of a blocking collective: from a rank's entry to the entry
 * of the last rank of the same instance (the k-th collective on a
 * communicator, as MPI orders them). */
static void
draw_waits(struct tr_tl *t, struct tr_out *o, const struct geo *g)
{
	struct tr_map *ord = tr_map_new(), *inst = tr_map_new();
	long *which = tr_malloc((t->n + 1) * sizeof *which);
	int64_t *last = NULL, *cnt = NULL;
	size_t lastcap = 0, cntcap = 0, i;

	for (i = 0; i < t->n; i++) {
		const struct tl_ev *e = &t->ev[i];
		int64_t k[3];
		size_t had;
		long c;

		which[i] = -1;
		if (e->dup || (e->cls != TR_MPI_COLL &&
		    e->cls != TR_MPI_COMMNEW && e->cls != TR_MPI_FENCE))
			continue;
		had = tr_map_len(ord);
		c = key2(ord, e->rank, e->comm, 1);
		tr_grow(&cnt, &cntcap, (size_t)c + 1, sizeof *cnt);
		if ((size_t)c == had)
			cnt[c] = 0;
		k[0] = e->comm;
		k[1] = leader(t, e->rank, e->comm);
		k[2] = cnt[c]++;
		had = tr_map_len(inst);
		which[i] = tr_map_get(inst, (const char *)k, sizeof k, 1);
		tr_grow(&last, &lastcap, (size_t)which[i] + 1, sizeof *last);
		if ((size_t)which[i] == had || e->start > last[which[i]])
			last[which[i]] = e->start;
	}
	tr_out_str(o, "<g class=\"wait\" fill=\"url(#");
	tr_svg_escs(o, g->id);
	tr_out_str(o, "-hatch)\" stroke=\"#b00\" stroke-width=\"0.5\">\n");
	for (i = 0; i < t->n; i++) {
		const struct tl_ev *e = &t->ev[i];
		int64_t end;
		double x0, x1;

		if (which[i] < 0)
			continue;
		end = last[which[i]] < e->end ? last[which[i]] : e->end;
		if (end <= e->start)
			continue;
		x0 = tr_scale_map(&g->x, (double)e->start);
		x1 = tr_scale_map(&g->x, (double)end);
		tr_out_printf(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		    "height=\"%.1f\"/>\n", x0, lane_y(g, e->rank) + 1,
		    x1 - x0, g->lane - 2);
	}
	tr_out_str(o, "</g>\n");
	free(which);
	free(last);
	free(cnt);
	tr_map_free(ord);
	tr_map_free(inst);
}

static void
legend(struct tr_tl *t, struct tr_out *o, double x, double y, double w,
    int extra)
{
	const char *names[NCAT + 3], *colors[NCAT + 3], *classes[NCAT + 3];
	char cls[NCAT][16], nm[NCAT][64];
	size_t i, n = tr_map_len(t->ops);
	int k = 0, c;

	names[k] = "compute";
	colors[k] = tr_svg_color(-1);
	classes[k++] = "compute";
	for (i = 0, c = 0; i < n && c <= OTHER; i++) {
		size_t len;
		const char *s = tr_map_key(t->ops, (long)i, &len);

		if ((long)i == t->flushop)
			continue;
		if (c == OTHER)
			snprintf(nm[c], sizeof nm[c], "other MPI");
		else
			snprintf(nm[c], sizeof nm[c], "%.*s",
			    (int)(len < 60 ? len : 60), s);
		snprintf(cls[c], sizeof cls[c], "s%d", c);
		names[k] = nm[c];
		colors[k] = tr_svg_color(c);
		classes[k++] = cls[c];
		c++;
	}
	if (t->flushop >= 0) {
		snprintf(cls[FLUSHCAT], sizeof cls[FLUSHCAT], "s%d", FLUSHCAT);
		names[k] = "tr.flush";
		colors[k] = tr_svg_color(FLUSHCAT);
		classes[k++] = cls[FLUSHCAT];
	}
	if (extra) {
		names[k] = "message";
		colors[k] = "#222";
		classes[k++] = "msg";
		names[k] = "collective wait";
		colors[k] = "#e8a0a0";
		classes[k++] = "wait";
	}
	tr_svg_legend(o, x, y, w, k, names, colors, classes);
}

void
tr_tl_draw(struct tr_tl *t, struct tr_out *o, const char *id,
    const char *title, double width)
{
	struct geo g;
	int64_t lo = INT64_MAX, hi = 0, nlanes, r, s0, s1;
	size_t i;
	double h, plotw, legy;
	char buf[256], b1[32], b2[32], b3[32];
	int span;
	struct tr_scale ax;

	if (width <= 0)
		width = 1000;
	g.id = id;
	g.left = 70;
	g.right = 20;
	plotw = width - g.left - g.right;
	if (t->binned) {
		lo = t->tmin;
		hi = t->tmax;
		nlanes = (t->nranks + t->g - 1) / t->g;
	} else {
		for (i = 0; i < t->n; i++) {
			if (t->ev[i].start < lo)
				lo = t->ev[i].start;
			if (t->ev[i].end > hi)
				hi = t->ev[i].end;
		}
		if (t->n == 0)
			lo = 0;
		nlanes = t->nranks;
	}
	if (nlanes < 1)
		nlanes = 1;
	g.lane = nlanes > 100 ? 4 : nlanes > 32 ? 8 : nlanes > 8 ? 16 : 28;
	g.y0 = 60;
	/* The chart opens on the solve, from the end of the last rank's
	 * MPI_Init to the start of the first rank's MPI_Finalize: start-up
	 * can take most of a short run. The rest is drawn outside the
	 * clip, for the report's script to show. */
	s0 = t->initend > lo && t->initend < hi ? t->initend : lo;
	s1 = t->finstart > s0 && t->finstart < hi ? t->finstart : hi;
	span = s0 != lo || s1 != hi;
	tr_scale_set(&g.x, (double)s0, (double)s1, g.left, g.left + plotw, 0);
	legy = g.y0 + (double)nlanes * g.lane + 60;
	h = legy + 60;
	tr_svg_begin(o, width, h, id);
	tr_out_printf(o, "<defs><clipPath id=\"%s-clip\"><rect x=\"%.1f\" "
	    "y=\"0\" width=\"%.1f\" height=\"%.1f\"/></clipPath>"
	    "<marker id=\"%s-arr\" viewBox=\"0 0 10 10\" refX=\"10\" "
	    "refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
	    "orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" "
	    "fill=\"#222\"/></marker>"
	    "<pattern id=\"%s-hatch\" width=\"6\" height=\"6\" "
	    "patternUnits=\"userSpaceOnUse\" "
	    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
	    "fill=\"#f4c7c7\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
	    "stroke=\"#c0392b\" stroke-width=\"2\"/></pattern></defs>\n",
	    id, g.left, width, h, id, id);
	if (t->binned)
		snprintf(buf, sizeof buf, "%s (%lld events in %lld-rank rows "
		    "x %d time bins)", title ? title : "timeline",
		    (long long)t->nev, (long long)t->g, NBIN);
	else
		snprintf(buf, sizeof buf, "%s (%lld events, %lld ranks)",
		    title ? title : "timeline", (long long)t->nev,
		    (long long)t->nranks);
	tr_svg_title(o, width, buf);
	tr_svg_qty(b1, sizeof b1, TR_UNIT_NS, (double)(hi - lo));
	tr_svg_qty(b2, sizeof b2, TR_UNIT_NS, (double)lo);
	if (span) {
		tr_svg_qty(b1, sizeof b1, TR_UNIT_NS, (double)(s1 - s0));
		tr_svg_qty(b2, sizeof b2, TR_UNIT_NS, (double)(s0 - lo));
		tr_svg_qty(b3, sizeof b3, TR_UNIT_NS, (double)(hi - lo));
		snprintf(buf, sizeof buf, "MPI_Init to MPI_Finalize: %s from "
		    "t=%s of a %s run; %s", b1, b2, b3, t->binned ? "colour: "
		    "the call that took most of a bin, opacity: its share" :
		    "hover a call for details");
	} else
		snprintf(buf, sizeof buf, t->binned ? "%s from t=%s; colour: "
		    "the MPI call that took most of a bin, opacity: its share "
		    "of the bin" : "%s from t=%s; hover a call for details",
		    b1, b2);
	tr_svg_text(o, width / 2, 38, "middle", "fill=\"#555\"", buf);
	for (r = 0; r < nlanes; r++) {
		if (t->binned && t->g > 1)
			snprintf(buf, sizeof buf, "%lld-%lld",
			    (long long)(r * t->g),
			    (long long)(r * t->g + t->g - 1));
		else
			snprintf(buf, sizeof buf, "rank %lld", (long long)r);
		if (nlanes <= 40 || r % ((nlanes + 39) / 40) == 0)
			tr_svg_text(o, g.left - 6, lane_y(&g, r) + g.lane / 2 +
			    4, "end", "font-size=\"11\"", buf);
	}
	/* The axis counts from the first call shown: absolute clock values
	 * make unreadable ticks. */
	tr_out_printf(o, "<g class=\"xaxis\" data-t0=\"%lld\" "
	    "data-t1=\"%lld\" data-y=\"%.1f\" data-gy=\"%.1f\">\n",
	    (long long)(s0 - lo), (long long)(s1 - lo),
	    g.y0 + (double)nlanes * g.lane, g.y0);
	tr_scale_set(&ax, (double)(s0 - lo), (double)(s1 - lo), g.x.r0,
	    g.x.r1, 0);
	tr_svg_axis(o, &ax, TR_AXIS_X, g.y0 + (double)nlanes * g.lane,
	    g.y0, TR_UNIT_NS, "time");
	tr_out_str(o, "</g>\n");
	tr_out_printf(o, "<g class=\"zoom\" clip-path=\"url(#%s-clip)\" "
	    "data-r0=\"%.1f\" data-r1=\"%.1f\"", id, g.x.r0, g.x.r1);
	if (span)
		tr_out_printf(o, " data-a0=\"%.2f\" data-a1=\"%.2f\"",
		    tr_scale_map(&g.x, (double)lo),
		    tr_scale_map(&g.x, (double)hi));
	tr_out_str(o, ">\n");
	tr_out_printf(o, "<g class=\"compute\" fill=\"%s\">\n",
	    tr_svg_color(-1));
	for (r = 0; r < nlanes; r++)
		if (span)
			tr_out_printf(o, "<rect x=\"%.2f\" y=\"%.1f\" "
			    "width=\"%.2f\" height=\"%.1f\"/>\n",
			    tr_scale_map(&g.x, (double)lo), lane_y(&g, r) + 1,
			    tr_scale_map(&g.x, (double)hi) -
			    tr_scale_map(&g.x, (double)lo), g.lane - 2);
		else
			tr_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" "
			    "width=\"%.1f\" height=\"%.1f\"/>\n", g.left,
			    lane_y(&g, r) + 1, plotw, g.lane - 2);
	tr_out_str(o, "</g>\n");
	if (t->binned) {
		for (r = 0; r < nlanes; r++) {
			int b = 0;

			while (b < NBIN) {
				double *p = cellp(t, r, b), tot = 0, best = 0;
				int c, bc = 0, q, e;

				for (c = 0; c < NCAT; c++) {
					tot += p[c];
					if (p[c] > best) {
						best = p[c];
						bc = c;
					}
				}
				q = (int)ceil(4 * tot / ((double)t->w *
				    (double)t->g));
				if (q > 4)
					q = 4;
				/* Runs of equal cells become one rect. */
				for (e = b + 1; e < NBIN && q > 0; e++) {
					double *pe = cellp(t, r, e), te = 0,
					    be = 0;
					int ce = 0, qe;

					for (c = 0; c < NCAT; c++) {
						te += pe[c];
						if (pe[c] > be) {
							be = pe[c];
							ce = c;
						}
					}
					qe = (int)ceil(4 * te / ((double)t->w *
					    (double)t->g));
					if (qe > 4)
						qe = 4;
					if (qe != q || ce != bc)
						break;
				}
				if (q > 0) {
					double x0 = tr_scale_map(&g.x,
					    (double)(t->t0 + b * t->w));
					double x1 = tr_scale_map(&g.x,
					    (double)(t->t0 + e * t->w));

					tr_out_printf(o, "<rect class=\"s%d\" "
					    "x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
					    "height=\"%.1f\" fill=\"%s\" "
					    "fill-opacity=\"%.2f\"/>\n", bc, x0,
					    lane_y(&g, r) + 1, x1 - x0,
					    g.lane - 2, tr_svg_color(bc),
					    q / 4.0);
				}
				b = q > 0 ? e : b + 1;
			}
		}
	} else {
		for (i = 0; i < t->n; i++) {
			const struct tl_ev *e = &t->ev[i];
			double x0 = tr_scale_map(&g.x, (double)e->start);
			double x1 = tr_scale_map(&g.x, (double)e->end);
			size_t len;
			const char *op = tr_map_key(t->ops, e->op, &len);

			if (e->dup)
				continue;
			tr_svg_qty(b1, sizeof b1, TR_UNIT_NS,
			    (double)(e->end - e->start));
			tr_out_printf(o, "<rect class=\"s%d\" x=\"%.2f\" "
			    "y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			    "fill=\"%s\"><title>", cat(t, e->op), x0,
			    lane_y(&g, e->rank) + 1, x1 - x0 > 0.3 ?
			    x1 - x0 : 0.3, g.lane - 2,
			    tr_svg_color(cat(t, e->op)));
			tr_svg_esc(o, op, len);
			tr_out_printf(o, " rank %d, %s", (int)e->rank, b1);
			if (e->peer >= 0)
				tr_out_printf(o, ", peer %lld",
				    (long long)e->peer);
			if (e->bytes > 0)
				tr_out_printf(o, ", %lld bytes",
				    (long long)e->bytes);
			if (e->site >= 0) {
				const char *st = tr_map_key(t->sites, e->site,
				    &len);

				tr_out_str(o, ", at ");
				tr_svg_esc(o, st, len);
			}
			tr_out_str(o, "</title></rect>\n");
		}
		draw_waits(t, o, &g);
		draw_msgs(t, o, &g);
	}
	tr_out_str(o, "</g>\n");
	legend(t, o, g.left, legy, plotw, !t->binned);
	tr_svg_end(o);
}
