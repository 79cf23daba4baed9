/* synth-emit.c - pass 2 of tr_syn: each ev record of the template
 * written for every target rank that follows its rank, with the noise
 * of its template rank at a lag of its own. */
#include "synth-int.h"

/* The target's cart record, for target rank T, of the communicator
 * template rank RANK made as ID, when it is on the world's grid: the
 * target grid, with the template's extents of 1 where they were. */
static void
put_cart(struct tr_syn *s, struct tr_out *o, int64_t rank, int64_t id,
    long t)
{
	void **v = tr_itab_get(&s->carts, rank, id, 0);
	const struct cartrec *c;
	char d[16 * TR_CART_MAXD], p[4 * TR_CART_MAXD];
	size_t nd = 0, np = 0;
	int i, k = 0;

	if (!v || !syn_same_grid(&s->g, &s->cart))
		return;
	c = *v;
	for (i = 0; i < c->nd; i++) {
		int one = c->dims[i] == 1;

		nd += (size_t)snprintf(d + nd, sizeof d - nd, "%s%d",
		    i ? "," : "", one ? 1 : s->tg.dims[k]);
		np += (size_t)snprintf(p + np, sizeof p - np, "%s%d",
		    i ? "," : "", one ? c->per[i] : s->tg.periodic[k]);
		k += !one;
	}
	tr_out_printf(o, "cart\t%ld\t%lld\t%s\t%s\n", t, (long long)id, d,
	    p);
}

/* The lower median of field F of the last K of the N entries of ring V,
 * which holds CAP. */
static int64_t
ring_median(int64_t (*v)[4], long cap, int64_t n, int k, int f)
{
	int64_t w[NLEVEL], x;
	int i, j;

	for (i = 0; i < k; i++) {
		x = v[(n - 1 - i) % cap][f];
		for (j = i; j > 0 && w[j - 1] > x; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
	return w[(k - 1) / 2];
}

/* Keeps template rank RANK's burst (WALL, CPU) of interval KEY, and its
 * residuals from the running level; the ring. */
static struct hist *
hist_push(struct tr_syn *s, int64_t rank, const char *key, int64_t wall,
    int64_t cpu)
{
	size_t n = strlen(key);
	struct hist *h;
	int64_t *c;
	long i;
	int k;

	tr_grow(&s->hkey, &s->hkeycap, n + sizeof rank, 1);
	memcpy(s->hkey, &rank, sizeof rank);
	memcpy(s->hkey + sizeof rank, key, n);
	i = tr_map_get(s->hmap, s->hkey, n + sizeof rank, 1);
	if ((size_t)i >= s->nhist) {
		tr_growz(&s->hist, &s->histcap, (size_t)i + 1, sizeof *s->hist);
		s->nhist = (size_t)i + 1;
	}
	h = &s->hist[i];
	if (!h->v)
		h->v = tr_calloc((size_t)s->hcap, sizeof *h->v);
	c = h->v[h->n % s->hcap];
	c[0] = wall;
	c[1] = cpu;
	h->n++;
	k = h->n < NLEVEL ? (int)h->n : NLEVEL;
	h->level[0] = ring_median(h->v, s->hcap, h->n, k, 0);
	h->level[1] = ring_median(h->v, s->hcap, h->n, k, 1);
	c[2] = wall - h->level[0];
	c[3] = cpu - h->level[1];
	return h;
}

/* The last burst kept in H with the residual of the one LAG before it
 * in place of its own. Before the template rank has made that many,
 * the lag wraps around those it has made. */
static void
hist_lagged(const struct tr_syn *s, const struct hist *h, long lag,
    int64_t *wall, int64_t *cpu)
{
	int64_t m = h->n - 1 - lag;
	const int64_t *c;

	if (m < 0)
		m = (m % h->n + h->n) % h->n;
	c = h->v[m % s->hcap];
	*wall = h->level[0] + c[2];
	if (*wall < 0)
		*wall = 0;
	if (*cpu < 0)
		return;
	*cpu = h->level[1] + c[3];
	if (*cpu < 0)
		*cpu = 0;
	if (*cpu > *wall)
		*cpu = *wall;
}

static void
emit_ev(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    struct tr_out *o)
{
	struct tmpl *p = &s->tm[e->rank];
	const char *key;
	int shared = p->seen && e->seq == p->pseq;
	int64_t tdelta = e->start - (p->seen ? p->pend : 0);
	double br;
	long t;
	int cls, coll, pside = 0, rside = 0;
	int newcomm = syn_newcomm(&e->op) && e->req >= 0;
	const struct binset *wbs, *cbs;
	const struct bscale *bsc = NULL, *bsl = NULL, *b;
	struct hist *h = NULL;
	void **v;
	long pj = 0, pm = 0, pn = 0, lo, hi, ii, pw;
	int64_t pb;
	int pat = s->peermode && syn_peer_pos(s, in, e, &pj, &pm);

	s->stamp++;
	key = interval_key(s, p, e);
	br = e->bytes > 0 ? syn_byteratio(s, &e->op) : 1;
	cls = tr_mpi_class(e->op.p, e->op.n, &coll);
	if (e->peer >= 0 && !s->peermode)
		pside = syn_sides(s, e, (long)e->peer, cls);
	/* A Sendrecv's receive comes from the side opposite its send. */
	if (e->root >= 0 && is_sendrecv(&e->op) && !s->peermode) {
		rside = syn_sides(s, e, (long)e->root, TR_MPI_RECV);
		if (rside && pside)
			rside = -pside;
	}
	wbs = syn_binset_get(s, key, 0, 0);
	cbs = syn_binset_get(s, key, 1, 0);
	if (s->peermode && p->seen && !shared) {
		bsc = syn_scale_get(s, key);
		bsl = pat ? syn_scale_loop(s, e) : NULL;
	}
	if (p->seen && !shared && s->nfol[e->rank] > 1)
		h = hist_push(s, e->rank, key, tdelta, e->cpu);
	for (t = 0; t < s->nt; t++) {
		struct tgt *q = &s->tgt[t];
		int64_t tw = tdelta, tc = e->cpu;
		struct tr_ev x;
		int pwait = 0, xcls = cls;

		if (s->rep[t] != e->rank)
			continue;
		lo = 0;
		hi = 1;
		if (pat)
			pn = syn_peer_span(s, in, e, t, pj, pm, &lo, &hi);
		for (ii = lo; ii < hi; ii++) {
		tw = tdelta;
		tc = e->cpu;
		xcls = cls;
		x = *e;
		x.rank = t;
		x.seq = e->seq + q->seqoff + (ii - lo);
		if (shared) {
			x.start = q->lstart;
			x.end = q->lend;
		} else {
			int64_t d;

			/* Target ranks that follow one template rank each
			 * take its noise at their own lag: copies of one
			 * sequence would run in lockstep, and none would
			 * wait for another, where measured ranks do. The
			 * level stays the burst's own, so a warm-up or a
			 * drift is where the template has it. */
			if (h && s->lag[t] > 0)
				hist_lagged(s, h, s->lag[t], &tw, &tc);
			/* A cycle of peers scales its template's bursts by
			 * the interval's delta sums (synth-scale.c): the
			 * target's longer cycle already changes how many of
			 * an interval are compute and how many are not, which
			 * a quantile draw from the interval's predicted
			 * histogram would count again. The places beyond the
			 * template's cycle are in the interval from the site
			 * to itself. */
			b = ii > lo ? bsl : bsc;
			/* a reduction's place, in the interval it lands in */
			if (pat && s->pgrp >= 0 && p->seen)
				b = syn_scale_get(s, syn_peer_key(s, p, lo, ii,
				    pn));
			d = b ? rnd64((double)tw * b->fw) :
			    p->seen && !pat ? syn_draw(wbs, tw, &q->rng) : tw;
			x.cpu = tc;
			/* CPU time has its own prediction where the models
			 * have one: the wall time of small runs on few cores
			 * holds the scheduler's waits, which grow with the
			 * ranks and are no computation. */
			if (b && tc >= 0) {
				x.cpu = rnd64((double)tc * b->fc);
				if (d < x.cpu)
					d = x.cpu;
			} else if (p->seen && tc >= 0 && cbs && !pat) {
				x.cpu = syn_draw(cbs, tc, &q->rng);
				if (d < x.cpu)
					d = x.cpu;
			} else if (tc >= 0 && tw > 0 && d != tw) {
				x.cpu = rnd64((double)tc * d / tw);
				if (x.cpu > d && d >= tc)
					x.cpu = d;
			}
			if (__builtin_add_overflow(q->clock, d, &x.start) ||
			    __builtin_add_overflow(x.start, e->end - e->start,
			    &x.end))
				tr_in_die(in, "-T: the target's times pass 2^63 "
				    "ns at template rank %lld seq %lld",
				    (long long)e->rank, (long long)e->seq);
			q->clock = x.end;
			q->lstart = x.start;
			q->lend = x.end;
		}
		if (pat) {
			x.peer = s->pcyc[ii];
			if (e->root >= 0 && is_sendrecv(&e->op))
				x.root = s->pinv[ii];
			syn_peer_tags(s, e, t, &x);
		} else if (s->peermode && e->req >= 0 &&
		    (cls == TR_MPI_WAIT || cls == TR_MPI_TEST) &&
		    syn_peer_req(s, t, e->req, &pw, &pb)) {
			/* the completion of a request made at a site of the
			 * pattern names the peer and size it was made with */
			if (e->peer >= 0)
				x.peer = pw;
			if (e->bytes > 0)
				x.bytes = pb;
			pwait = 1;
		} else if (e->peer >= 0)
			x.peer = syn_mapped(&s->tg, &s->g, e->rank, e->peer, t,
			    pside);
		if (e->root >= 0 && is_sendrecv(&e->op) && !pat) {
			x.root = syn_mapped(&s->tg, &s->g, e->rank, e->root, t,
			    rside);
			/* The tag received is the new source's to tell: a
			 * template that receives the tag it sends keeps it
			 * (a code with one tag per call site), others
			 * receive any. */
			if (e->req != e->tag)
				x.req = -1;
		}
		if ((e->peer >= 0 && x.peer < 0) ||
		    (e->root >= 0 && is_sendrecv(&e->op) && x.root < 0))
			tr_in_die(in, "-T: a peer of template rank %lld falls "
			    "outside the target grid", (long long)e->rank);
		/* A collective's root is a member's place in its
		 * communicator; a message's peer must stay inside it. */
		if ((cls == TR_MPI_COLL || cls == TR_MPI_ICOLL) &&
		    e->root >= 0)
			x.root = syn_comm_rank(s, in, e, t, (long)e->root);
		else if (s->subs) {
			syn_comm_peer(s, in, e, t, (long)x.peer);
			if (is_sendrecv(&e->op))
				syn_comm_peer(s, in, e, t, (long)x.root);
		}
		if (pwait)
			;
		else if (e->bytes > 0 && e->peer >= 0 && !pat)
			x.bytes = syn_send_bytes(s, e);
		else if (e->bytes >= 0 && e->root >= 0 &&
		    syn_vcoll_bytes(s, e, t, (long)x.root, &x.bytes))
			;	/* the root's the sum of its members' */
		else if (e->bytes > 0)
			x.bytes = rnd64((double)e->bytes * br);
		if (x.bytes == INT64_MAX && e->bytes != INT64_MAX)
			tr_in_die(in, "-T: template rank %lld seq %lld: its %lld "
			    "bytes at the target pass 2^63", (long long)e->rank,
			    (long long)e->seq, (long long)e->bytes);
		if (pat && (cls == TR_MPI_ISEND || cls == TR_MPI_IRECV) &&
		    e->req >= 0)
			syn_peer_keep(s, t, e->req, (long)x.peer, x.bytes);
		if (pat || pwait)
			;	/* sizes by the models alone, as sent */
		else if ((cls == TR_MPI_RECV || cls == TR_MPI_IRECV) &&
		    e->peer >= 0 && e->peer != e->rank && x.bytes >= 0)
			syn_recv_bytes(s, e, t, cls, &x);
		else if (cls == TR_MPI_SENDRECV && e->root >= 0 &&
		    e->root != e->rank)
			(void)syn_matched(s, e, t, (long)x.root, e->req);
		else if ((cls == TR_MPI_WAIT || cls == TR_MPI_TEST) &&
		    e->req >= 0 && s->rbytes.n && (v = tr_itab_get(&s->rbytes,
		    t, e->req, 0)) != NULL) {
			/* tr-record's completion of a receive names the
			 * source and the size received; tr-gen's neither. */
			if (e->peer >= 0)
				x.bytes = *(int64_t *)*v;
			free(*v);
			tr_itab_del(&s->rbytes, t, e->req);
		}
		/* a reduction's level at another of its sites */
		if (pat && s->pgrp >= 0) {
			syn_peer_other(s, e, t, ii, &x);
			xcls = tr_mpi_class(x.op.p, x.op.n, &coll);
		}
		syn_count_ev(s, &x, xcls);
		if (s->vf)
			tr_vf_ev(s->vf, in, &x);
		/* Another shard's rank (-G): its state goes on all the same,
		 * as the ranks' messages share it. */
		if (!tr_in_shard(t))
			continue;
		tr_out_ev(o, &x);
		if (newcomm) {
			syn_comm_put(s, o, e->req, t);
			put_cart(s, o, e->rank, e->req, t);
		}
		}
		s->tgt[t].seqoff += hi - lo - 1;
	}
	tmpl_step(p, e, shared, pat ? s->pgrp : -1);
	if (--s->nev[e->rank] == 0)
		syn_cursors_done(s, e->rank);
}

void
tr_syn_ev(struct tr_syn *s, const struct tr_in *in, const struct tr_rec *r,
    struct tr_out *o)
{
	struct tr_ev e;

	if (syn_carry(s, r, &e))
		emit_ev(s, in, &e, o);
}
