/* nsim-flow.c - transfers as flows that share the links' bandwidth
 * max-min fairly. */
#include "nsim-int.h"

static void
link_busy(struct tr_nsim *s, struct link *l, int delta)
{
	if (delta > 0 && l->nfl == 0)
		l->since = s->now;
	if (delta < 0 && l->nfl == 1)
		l->busy += s->now - l->since;
}

/*
 * Max-min fair sharing, solved locally.
 *
 * Each flow f has a weight w(f): 1 with `sharing fair`, and with
 * `sharing latency` (the default) 1 / its route's latency, as SimGrid's
 * CM02 model does (TCP's bias against long round trips; on a crossbar
 * every route has one latency and the two agree). A flow's level is
 * rate / w(f). The allocation is the unique feasible one in which every
 * flow has a bottleneck: a saturated link on which no flow has a higher
 * level. After flows
 * enter or leave, only a region R of flows is re-solved (progressive
 * filling over R's links, with the rates of the other flows on them
 * held fixed). The result is then checked at R's border: every flow of
 * R must be the largest on the link that fixed it, and every outside
 * flow on R's links must still have a bottleneck. Violators join R and
 * R is solved again (an outside flow whose last bottleneck lies outside
 * R has it still: nothing on that link changed); when none is left the
 * rates are the exact max-min allocation, the same as re-solving the
 * whole connected component. In
 * a lockstep stencil R stays a few dozen flows where the component
 * holds every flow in flight. Remaining bytes are brought up to date
 * lazily, only for flows whose rate is re-solved.
 */
#define SHARE_EPS 1e-9
#define SHARE_ROUNDS 16	/* then the whole component is solved */

static void
comp_add(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	long e = s->epoch;
	int k;

	if (f->mark == e)
		return;
	f->mark = e;
	f->rem -= f->rate * (s->now - f->tlast);
	if (f->rem < 0)
		f->rem = 0;
	f->tlast = s->now;
	f->old = f->rate;
	tr_grow(&s->cf, &s->cfcap, s->ncf + 1, sizeof *s->cf);
	s->cf[s->ncf++] = id;
	for (k = 0; k < f->nl; k++) {
		struct link *m = &s->ln[FL(f)[k]];
		if (m->mark == e)
			continue;
		m->mark = e;
		tr_grow(&s->cl, &s->clcap, s->ncl + 1, sizeof *s->cl);
		s->cl[s->ncl++] = FL(f)[k];
	}
}

/* The share of link K's remaining capacity for each unit of weight. */
static double
share(const struct fillink *k)
{
	return (k->rs > 0 ? k->rs : 0) / k->wun;
}

/* Progressive filling of the flows of R over their links; the other
 * flows on those links keep their rates and the capacity they use.
 * Each link's share is kept up to date as flows are fixed on it, so a
 * pass costs a division per link a fixed flow crosses, not per link. */
static void
fill(struct tr_nsim *s)
{
	long e = s->epoch;
	size_t i, ncl = s->ncl, na = ncl;
	long pass;
	int j, k;

	tr_grow(&s->fk, &s->fkcap, ncl, sizeof *s->fk);
	tr_grow(&s->fka, &s->fkacap, ncl, sizeof *s->fka);
	tr_grow(&s->fkc, &s->fkccap, ncl, sizeof *s->fkc);
	for (i = 0; i < s->ncf; i++)
		s->fl[s->cf[i]].fixed = 0;
	for (i = 0; i < ncl; i++) {
		struct link *l = &s->ln[s->cl[i]];
		struct fillink *w = &s->fk[i];
		l->ci = (int)i;
		s->fka[i] = (int)i;
		w->rs = l->cap;
		w->nun = 0;
		w->pass = 0;
		w->wun = 0;
		l->nob = 0;
		l->omax = 0;
		for (j = 0; j < l->nfl; j++) {
			struct flow *f = &s->fl[l->fl[j]];
			if (f->mark == e) {
				w->nun++;
				w->wun += f->iw;
				continue;
			}
			w->rs -= f->rate;
			/* for violators(): which of R's links it must scan */
			if (f->lv > l->omax)
				l->omax = f->lv;
			if (s->ln[f->bl].mark == e)
				l->nob++;
		}
		if (w->nun > 0)
			w->sh = share(w);
	}
	for (pass = 1;; pass++) {
		double bs = INFINITY, lim;
		size_t n = 0, nc = 0, c;

		/* Links whose flows are all fixed drop out of the scan. Those
		 * at the least share so far are listed in order: all that
		 * the pass may saturate, so it need not scan them all again. */
		for (i = 0; i < na; i++) {
			struct fillink *w = &s->fk[s->fka[i]];
			if (w->nun <= 0)
				continue;
			w->pos = (int)n;
			s->fka[n++] = s->fka[i];
			bs = w->sh < bs ? w->sh : bs;
			if (!(w->sh > bs * (1 + 1e-12))) {
				w->pass = pass;
				s->fkc[nc++] = s->fka[i];
			}
		}
		na = n;
		if (n == 0)
			break;
		/* Every link at the lowest level saturates at once: fixing them
		 * in one pass keeps symmetric loads to a few passes. */
		lim = bs * (1 + 1e-12);
		for (c = 0; c < nc; c++) {
			long li = s->cl[s->fkc[c]];
			const struct fillink *w = &s->fk[s->fkc[c]];
			const struct link *l = &s->ln[li];
			if (w->nun <= 0 || w->sh > lim)
				continue;
			for (j = 0; j < l->nfl; j++) {
				struct flow *f = &s->fl[l->fl[j]];
				if (f->fixed || f->mark != e)
					continue;
				f->fixed = 1;
				f->rate = bs * f->iw;
				f->lv = f->rate / f->iw;
				f->bl = li;
				for (k = 0; k < f->nl; k++) {
					int mi = s->ln[FL(f)[k]].ci;
					struct fillink *m = &s->fk[mi];
					m->rs -= f->rate;
					m->wun -= f->iw;
					if (--m->nun <= 0)
						continue;
					m->sh = share(m);
					/* Brought down to the least share by
					 * rounding, ahead in the pass: a scan
					 * of all would fix it in this pass. */
					if (m->pass != pass && m->pos > w->pos &&
					    !(m->sh > lim)) {
						size_t p = nc++;
						m->pass = pass;
						while (s->fk[s->fkc[p - 1]].pos >
						    m->pos) {
							s->fkc[p] = s->fkc[p - 1];
							p--;
						}
						s->fkc[p] = mi;
					}
				}
			}
		}
	}
}

/* Whether flow f (outside R) still has a bottleneck, which becomes its
 * f->bl. Rates hold still through one check, so each link's load and
 * highest level are summed once a check, however many of its flows are
 * asked about. */
static int
has_bottleneck(struct tr_nsim *s, struct flow *f)
{
	long c = s->cepoch;
	int k, j;

	for (k = 0; k < f->nl; k++) {
		struct link *l = &s->ln[FL(f)[k]];
		if (l->chk != c) {
			double sum = 0, max = 0;
			for (j = 0; j < l->nfl; j++) {
				const struct flow *g = &s->fl[l->fl[j]];
				sum += g->rate;
				if (g->lv > max)
					max = g->lv;
			}
			l->sum = sum;
			l->max = max;
			l->chk = c;
		}
		if (l->sum >= l->cap * (1 - SHARE_EPS) &&
		    f->lv >= l->max * (1 - SHARE_EPS)) {
			f->bl = FL(f)[k];
			return 1;
		}
	}
	return 0;
}

/* The outside flows that break the optimality of R's solution, added to
 * the list s->vf; their count. */
static size_t
violators(struct tr_nsim *s)
{
	long e = s->epoch, c = ++s->cepoch;
	size_t i, nv = 0;
	int j;

	for (i = 0; i < s->ncf; i++) {
		struct flow *f = &s->fl[s->cf[i]];
		struct link *l = &s->ln[f->bl];
		if (l->omax <= f->lv * (1 + SHARE_EPS))
			continue;	/* no outside flow above it */
		for (j = 0; j < l->nfl; j++) {
			struct flow *g = &s->fl[l->fl[j]];
			if (g->mark == e || g->chk == c ||
			    g->lv <= f->lv * (1 + SHARE_EPS))
				continue;
			g->chk = c;
			tr_grow(&s->vf, &s->vfcap, nv + 1, sizeof *s->vf);
			s->vf[nv++] = l->fl[j];
		}
	}
	for (i = 0; i < s->ncl; i++) {
		struct link *l = &s->ln[s->cl[i]];
		if (l->nob == 0)
			continue;
		for (j = 0; j < l->nfl; j++) {
			struct flow *g = &s->fl[l->fl[j]];
			if (g->mark == e || g->chk == c)
				continue;
			g->chk = c;
			/* A bottleneck outside R kept its flows and rates. */
			if (s->ln[g->bl].mark == e && !has_bottleneck(s, g)) {
				tr_grow(&s->vf, &s->vfcap, nv + 1,
				    sizeof *s->vf);
				s->vf[nv++] = l->fl[j];
			}
		}
	}
	return nv;
}

void
nsim_reshare(struct tr_nsim *s, const long *seed, size_t nseed)
{
	size_t i, nv;
	int j, round;

	s->epoch++;
	s->ncf = s->ncl = 0;
	for (i = 0; i < nseed; i++) {
		struct link *l = &s->ln[seed[i]];
		for (j = 0; j < l->nfl; j++)
			comp_add(s, l->fl[j]);
	}
	for (round = 0;; round++) {
		if (s->fullshare || round == SHARE_ROUNDS) {
			s->nfull++;
			/* The whole component: every flow on R's links. */
			for (i = 0; i < s->ncl; i++) {
				struct link *l = &s->ln[s->cl[i]];
				for (j = 0; j < l->nfl; j++)
					comp_add(s, l->fl[j]);
			}
			fill(s);
			break;
		}
		fill(s);
		if ((nv = violators(s)) == 0)
			break;
		s->ngrow++;
		for (i = 0; i < nv; i++)
			comp_add(s, s->vf[i]);
	}
	for (i = 0; i < s->ncf; i++) {
		struct flow *f = &s->fl[s->cf[i]];
		if (f->rate == f->old)
			continue;
		f->ver++;
		push(s, f->rate > 0 ? s->now + f->rem / f->rate : INFINITY,
		    EV_DONE, s->cf[i], f->ver);
	}
	s->nsolve++;
	s->nsolved += (int64_t)s->ncf;
}

/* Flows that start or end at one instant are reshared once, together. */
static void
dirty(struct tr_nsim *s, const int32_t *l, int n)
{
	int i;

	tr_grow(&s->dl, &s->dlcap, s->ndl + (size_t)n, sizeof *s->dl);
	for (i = 0; i < n; i++)
		s->dl[s->ndl++] = l[i];
}

/* A flow for Q, its version kept so that old events of the slot stay
 * stale. */
static long
flow_new(struct tr_nsim *s, struct sreq *q)
{
	int fresh = s->nflfree == 0;
	long id = fresh ? s->nfl++ : s->flfree[--s->nflfree];
	struct flow *f;

	if (id >= s->flcap) {
		size_t c = (size_t)s->flcap;
		if (id >= 1L << 30)	/* an event names it in 30 bits */
			tr_die(TR_EXIT_SYS, "more than 2^30 messages in flight");
		tr_grow(&s->fl, &c, (size_t)id + 1, sizeof *s->fl);
		s->flcap = (long)c;
	}
	f = &s->fl[id];
	if (fresh)
		f->ver = 0;
	/* Field by field, not a memset: the links' arrays are left as they
	 * are, and a flow is three cache lines. */
	f->s = q;
	f->nl = 0;
	f->mark = f->chk = f->bl = 0;
	f->rem = f->rate = f->old = f->tlast = f->lv = 0;
	f->fixed = 0;
	f->own = 0;
	f->iw = 1;
	f->xp = NULL;
	f->xl = NULL;
	return id;
}

/* A link of capacity CAP for one flow alone: a free one, or a new one
 * past the others. */
static long
link_own(struct tr_nsim *s, double cap)
{
	long id;
	struct link *l;

	if (s->nlnfree)
		id = s->lnfree[--s->nlnfree];
	else {
		size_t c = (size_t)s->lncap;

		if (s->nln >= INT32_MAX)	/* struct flow's lbuf */
			tr_die(TR_EXIT_SYS, "more than 2^31 links");
		id = s->nln++;
		tr_grow(&s->ln, &c, (size_t)s->nln, sizeof *s->ln);
		s->lncap = (long)c;
		memset(&s->ln[id], 0, sizeof *s->ln);
	}
	l = &s->ln[id];
	l->cap = cap;
	l->bytes = l->busy = l->since = 0;
	l->mark = -1;
	l->chk = 0;
	l->nfl = 0;
	return id;
}

/* With node-bandwidth, flow ID, a message within node A that alone
 * takes D (more than intra-latency) from T, is a flow through the
 * node's memory link, which the node's copies in flight share, and
 * through a link of its own that bounds it to the rate it has alone:
 * after intra-latency it moves its bytes at bytes / (D - intra-latency),
 * less when the node's copies together would pass node-bandwidth. A
 * core copies at a rate one copy cannot raise; the memory behind it is
 * what two cores' copies contend for. */
static void
node_copy(struct tr_nsim *s, long id, long a, double t, double d)
{
	const struct tr_net *n = s->net;
	struct flow *f = &s->fl[id];
	double lat = n->intra_lat;

	f->rem = (double)f->s->bytes;
	FL(f)[0] = s->nodeln + a;
	if (s->ln[s->nodeln + a].cap == 0)
		s->ln[s->nodeln + a].cap = n->node_bw;
	FL(f)[1] = link_own(s, f->rem / (d - lat));
	f->nl = 2;
	f->own = 1;
	if (n->sharing == TR_SHARE_LATENCY)
		f->iw = (float)(1 / (lat > 1 ? lat : 1));
	push(s, t + lat, EV_LAT, id, f->ver);
}

void
nsim_flow_start(struct tr_nsim *s, struct sreq *q, double t)
{
	struct tr_net *n = s->net;
	long a = s->r[q->src].node, b = s->r[q->dst].node, id;
	double lat;
	struct flow *f;
	int nl, i;

	q->started = 1;
	q->refs++;
	s->nmsg++;
	if (n->model == TR_MODEL_LOGGP || a == b) {
		double d = n->model == TR_MODEL_LOGGP ?
		    n->L + (double)q->bytes * n->G :
		    tr_net_intra(n, q->bytes);
		id = flow_new(s, q);
		if (n->model == TR_MODEL_FLOW && n->node_bw > 0 &&
		    q->bytes > 0 && d > n->intra_lat) {
			node_copy(s, id, a, t, d);
			return;
		}
		push(s, t + d, EV_DONE, id, s->fl[id].ver);
		return;
	}
	nl = tr_net_route(n, a, b, s->route, &lat);
	id = flow_new(s, q);
	f = &s->fl[id];
	if (nl > FLOW_NL) {
		f->xl = tr_malloc((size_t)nl * sizeof *f->xl);
		f->xp = tr_malloc((size_t)nl * sizeof *f->xp);
	}
	f->nl = nl;
	for (i = 0; i < nl; i++) {
		FL(f)[i] = s->route[i];
		if (s->ln[s->route[i]].cap == 0)
			s->ln[s->route[i]].cap = n->link_bw;
	}
	/* A route of no latency weighs as one of 1 ns. */
	if (n->sharing == TR_SHARE_LATENCY)
		f->iw = (float)(1 / (lat > 1 ? lat : 1));
	f->rem = (double)q->bytes;
	if (q->bytes == 0)
		f->nl = 0;	/* latency only: it never enters the links */
	push(s, t + lat, q->bytes > 0 ? EV_LAT : EV_DONE, id, f->ver);
}

static void
flow_free(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];

	free(f->xl);
	free(f->xp);
	f->xl = NULL;
	f->xp = NULL;
	f->s = NULL;
	f->nl = 0;
	f->ver++;
	tr_grow(&s->flfree, (size_t *)&s->flfreecap, (size_t)s->nflfree + 1,
	    sizeof *s->flfree);
	s->flfree[s->nflfree++] = id;
}

void
nsim_flow_enter(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	int i;

	f->tlast = s->now;
	f->rate = f->lv = 0;
	for (i = 0; i < f->nl; i++) {
		struct link *l = &s->ln[FL(f)[i]];
		link_busy(s, l, 1);
		if (l->nfl == l->flcap) {
			l->flcap = l->flcap ? 2 * l->flcap : 4;
			l->fl = tr_realloc(l->fl, (size_t)l->flcap * sizeof *l->fl);
		}
		FP(f)[i] = l->nfl;
		l->fl[l->nfl++] = id;
		l->bytes += f->rem;
	}
	dirty(s, FL(f), f->nl);
}

struct sreq *
nsim_flow_done(struct tr_nsim *s, long id)
{
	struct flow *f = &s->fl[id];
	struct sreq *q = f->s;
	int i;

	for (i = 0; i < f->nl; i++) {
		struct link *l = &s->ln[FL(f)[i]];
		long last;
		int p = FP(f)[i], k;

		link_busy(s, l, -1);
		last = l->fl[--l->nfl];
		if (last != id) {
			struct flow *g = &s->fl[last];
			l->fl[p] = last;
			for (k = 0; k < g->nl; k++)
				if (FL(g)[k] == FL(f)[i] && FP(g)[k] == l->nfl)
					FP(g)[k] = p;
		}
	}
	if (f->nl)
		dirty(s, FL(f), f->nl);
	if (f->own) {
		tr_grow(&s->lnfree, &s->lnfreecap, s->nlnfree + 1,
		    sizeof *s->lnfree);
		s->lnfree[s->nlnfree++] = FL(f)[f->nl - 1];
	}
	flow_free(s, id);
	return q;
}
