/* ti.c - the export of a section to SimGrid's time-independent traces
 * (tr-to-ti). */
#include "nsim-int.h"

static void
ti_flush(FILE *f, long r, double *acc)
{
	if (*acc >= 0.5)
		fprintf(f, "%ld compute %.0f\n", r, *acc);
	*acc = 0;
}

/* A request of the export; ACK: 1 if its receiver acknowledges a
 * synchronous send, 2 if it is such a send, waiting for that. */
struct tireq {
	long src, dst;
	int64_t tag;
	int recv, ack;
};

/* What stands for a file request, and for a buffered send, whose waits
 * export no wait. */
static struct tireq ti_io, ti_buf;

/* Whether request slot V holds a request of its own. */
static int
ti_own(const void *v)
{
	return v && v != &ti_io && v != &ti_buf;
}

/* The acknowledgement of synchronous sends: SimGrid sends a message
 * below its threshold at once, synchronous or not, so the export has the
 * receiver acknowledge it as Open MPI's ob1 and MPICH do, with a message
 * of no bytes on a tag of its own per tag (above those of decomposed
 * collectives). */
#define TI_ACKTAG(t) (2147483647LL - ((long long)(t) & 0xfffff))

/* What one rank's export holds back: the completions of the call being
 * written, and receives whose acknowledgement is not written yet. */
struct tihold {
	struct tireq *grp;
	size_t ngrp, grpcap;
	int64_t gseq;
	int64_t *pend;		/* req of each receive to acknowledge */
	size_t npend, pendcap;
};

/* Acknowledges the receives still to acknowledge: the rank is about to
 * block, and in MPI it would match them there at the latest. */
static void
ti_acks(struct tr_itab *reqs, struct tihold *h, FILE *f, long r)
{
	size_t i;

	for (i = 0; i < h->npend; i++) {
		void **v = tr_itab_get(reqs, r, h->pend[i], 0);
		struct tireq *q = v ? *v : NULL;

		if (!q || q->ack != 1)
			continue;
		fprintf(f, "%ld send %ld %lld 0\n", r, q->src,
		    TI_ACKTAG(q->tag));
		q->ack = 0;
	}
	h->npend = 0;
}

/* Writes the completions of one call: the waits, then the
 * acknowledgements its receives send, then those its sends wait for. */
static void
ti_group(struct tr_itab *reqs, struct tihold *h, FILE *f, long r)
{
	size_t i;

	if (!h->ngrp)
		return;
	ti_acks(reqs, h, f, r);
	for (i = 0; i < h->ngrp; i++)
		fprintf(f, "%ld wait %ld %ld %lld\n", r, h->grp[i].src,
		    h->grp[i].dst, (long long)h->grp[i].tag);
	for (i = 0; i < h->ngrp; i++)
		if (h->grp[i].ack == 1)
			fprintf(f, "%ld send %ld %lld 0\n", r, h->grp[i].src,
			    TI_ACKTAG(h->grp[i].tag));
	for (i = 0; i < h->ngrp; i++)
		if (h->grp[i].ack == 2)
			fprintf(f, "%ld recv %ld %lld 0\n", r, h->grp[i].dst,
			    TI_ACKTAG(h->grp[i].tag));
	h->ngrp = 0;
}

static void
ti_decompose(struct tr_nsim *s, FILE *f, long r, const struct item *it,
    struct rcomm *c)
{
	struct tr_coll co;
	struct tr_p2p *o;
	int op = it->coll & 0xff;
	/* TI has no communicators: the tag tells apart the collectives of
	 * different communicators as well as successive ones, so that no
	 * step takes another's message. */
	int64_t tag = 1000000 + ((int64_t)(c->gid & 1023) << 20 |
	    (c->cseq++ & 0xfffff));
	/* Each rank knows only its own total of a v-collective, and so
	 * its own share per step, not the sender's: a receive that might
	 * get more than it posts would fail in SMPI (MPI_ERR_TRUNCATE).
	 * Only the sender's size is transferred, so a bound is exact. */
	int bound = it->coll & TR_COLL_V || op == TR_COLL_REDSCAT;
	double red;
	int k, i;

	nsim_coll_setup(s, &co, r, it, c);
	tr_grow(&s->cops, &s->copscap, (size_t)tr_coll_cap(&co),
	    sizeof *s->cops);
	o = s->cops;
	while ((k = tr_coll_next(&co, o, (long)s->copscap)) > 0) {
		for (i = 0; i < k; i++)
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    o[i].send ? "isend" : "irecv",
			    coll_peer(s, c->gid, r, o[i].peer), (long long)tag,
			    (long long)(bound && !o[i].send ? s->maxbytes :
			    o[i].bytes));
		for (i = 0; i < k; i++) {
			long p = coll_peer(s, c->gid, r, o[i].peer);
			fprintf(f, "%ld wait %ld %ld %lld\n", r,
			    o[i].send ? r : p, o[i].send ? p : r,
			    (long long)tag);
		}
		red = nsim_red_time(s, o, k);
		ti_flush(f, r, &red);
	}
}

static void
ti_coll(struct tr_nsim *s, FILE *f, long r, const struct item *it, int all)
{
	struct rcomm *c = nsim_rank_comm(s, r, it->comm, it);
	int op = it->coll & 0xff;
	long n = comm_size(s, c->gid);
	int64_t b = nsim_coll_block(it, n, c->me, nsim_coll_root(s, c->gid,
	    it->root));
	int64_t root = it->root < 0 ? 0 : it->root;

	/* SimGrid's own reductions compute only at the end: where they
	 * take time, they are its steps and each step's computation. */
	if (all || c->gid != 0 || it->coll & TR_COLL_V ||
	    op == TR_COLL_REDSCAT || op == TR_COLL_SCAN ||
	    op == TR_COLL_NEIGHBOR || (s->net->red_bw > 0 &&
	    (op == TR_COLL_REDUCE || op == TR_COLL_ALLREDUCE))) {
		ti_decompose(s, f, r, it, c);
		return;
	}
	c->cseq++;
	switch (op) {
	case TR_COLL_BARRIER:
		fprintf(f, "%ld barrier\n", r);
		break;
	case TR_COLL_BCAST:
		fprintf(f, "%ld bcast %lld %lld\n", r, (long long)b,
		    (long long)root);
		break;
	case TR_COLL_REDUCE:
		fprintf(f, "%ld reduce %lld 0 %lld\n", r, (long long)b,
		    (long long)root);
		break;
	case TR_COLL_ALLREDUCE:
		fprintf(f, "%ld allreduce %lld 0\n", r, (long long)b);
		break;
	case TR_COLL_GATHER:
	case TR_COLL_SCATTER:
		fprintf(f, "%ld %s %lld %lld %lld\n", r, tr_coll_name(op),
		    (long long)b, (long long)b, (long long)root);
		break;
	case TR_COLL_ALLGATHER:
	case TR_COLL_ALLTOALL:
		fprintf(f, "%ld %s %lld %lld\n", r, tr_coll_name(op),
		    (long long)b, (long long)b);
		break;
	}
}

static void
ti_rank(struct tr_nsim *s, const char *dir, long r, int all)
{
	char name[64];
	struct item one;
	double acc = 0;
	struct tr_itab reqs = {0};
	int64_t ioseq = -1;
	long mprobed = 0;	/* MPI_Mprobe exported as the receive */
	struct tihold h = {0};
	FILE *f;
	size_t i;

	snprintf(name, sizeof name, "rank%ld.txt", r);
	f = ti_fopen(dir, name);
	fprintf(f, "%ld init\n", r);
	while (nsim_item_next(s, r, &one)) {
		const struct item *it = &one;
		struct tireq *q;
		void **v;
		long peer;
		long long tag, rtag, b;
		int64_t wsrc, wtag;

		peer = (long)it->peer;
		tag = (long long)it->tag;
		b = (long long)it->bytes;

		acc += (double)it->dt * s->scale;
		if (it->type == TR_REG)
			continue;
		/* A receive that took a larger message (MPI_ERR_TRUNCATE)
		 * has room for any: SMPI's replay would refuse it. */
		if (s->nfail && ((it->cls == TR_MPI_RECV && it->type ==
		    TR_FAIL) || (it->cls == TR_MPI_IRECV &&
		    tr_itab_get(&s->ticut, r, it->seq, 0))))
			b = (long long)s->maxbytes;
		if (h.ngrp && !((it->cls == TR_MPI_WAIT || it->cls ==
		    TR_MPI_TEST) && it->seq == h.gseq))
			ti_group(&reqs, &h, f, r);
		/* the MPI_Mrecv of a message exported at its MPI_Mprobe */
		if ((it->cls == TR_MPI_RECV || it->cls == TR_MPI_IRECV) &&
		    it->coll == TR_P2P_MATCHED && mprobed > 0) {
			mprobed--;
			continue;
		}
		switch (it->cls) {
		case TR_MPI_SEND:
		case TR_MPI_SSEND:
		case TR_MPI_RECV:
			if (peer < 0)	/* MPI_PROC_NULL */
				break;
			ti_flush(f, r, &acc);
			if (it->coll == TR_P2P_BUF) {
				/* buffered: nothing waits for it (smpirun
				 * does at the end) */
				fprintf(f, "%ld isend %ld %lld %lld\n", r, peer,
				    tag, b);
				acc += buf_copy(s->net, b);
				break;
			}
			ti_acks(&reqs, &h, f, r);
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    it->cls == TR_MPI_RECV ? "recv" : "send", peer, tag,
			    b);
			if (it->cls == TR_MPI_SSEND && b < s->tieager)
				fprintf(f, "%ld recv %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			else if (it->cls == TR_MPI_RECV &&
			    ti_chan_recv(s, peer, r, tag))
				fprintf(f, "%ld send %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			break;
		case TR_MPI_ISEND:
		case TR_MPI_IRECV:
			/* SMPI's replay has no MPI_ANY_TAG either: wildcard
			 * tags take the completion's too. */
			if (it->cls == TR_MPI_IRECV) {
				struct tr_wildq wq = {it->seq, it->peer,
				    it->tag, it->req};

				tr_wild_resolve(s->wild, r, &wq, &wsrc, &wtag,
				    NULL, NULL);
				peer = (long)wsrc;
				tag = wtag;
			}
			if (peer < 0)
				break;
			ti_flush(f, r, &acc);
			fprintf(f, "%ld %s %ld %lld %lld\n", r,
			    it->cls == TR_MPI_IRECV ? "irecv" : "isend", peer,
			    tag, b);
			if (it->req < 0)
				break;
			v = tr_itab_get(&reqs, r, it->req, 1);
			if (it->coll == TR_P2P_BUF) {
				/* its wait waits for nothing */
				acc += buf_copy(s->net, b);
				if (ti_own(*v))
					free(*v);
				*v = &ti_buf;
				break;
			}
			if (!ti_own(*v))
				*v = tr_malloc(sizeof *q);
			q = *v;
			q->src = it->cls == TR_MPI_ISEND ? r : peer;
			q->dst = it->cls == TR_MPI_ISEND ? peer : r;
			q->tag = tag;
			q->recv = it->cls == TR_MPI_IRECV;
			q->ack = 0;
			if (q->recv && ti_chan_recv(s, peer, r, tag)) {
				q->ack = 1;
				tr_grow(&h.pend, &h.pendcap, h.npend + 1,
				    sizeof *h.pend);
				h.pend[h.npend++] = it->req;
			} else if (!q->recv && it->coll == TR_P2P_SYNC &&
			    b < s->tieager)
				q->ack = 2;
			break;
		case TR_MPI_SENDRECV:
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			if (peer >= 0)
				fprintf(f, "%ld isend %ld %lld %lld\n", r, peer, tag,
				    b);
			/* The trace has the bytes sent, not those received.
			 * The tag received is in req; a trace without it is
			 * taken to receive with the tag it sends (SMPI's
			 * replay has no MPI_ANY_TAG). */
			rtag = it->req >= 0 ? it->req : tag;
			if (it->root >= 0)
				fprintf(f, "%ld irecv %lld %lld %lld\n", r,
				    (long long)it->root, rtag,
				    (long long)s->maxbytes);
			if (peer >= 0)
				fprintf(f, "%ld wait %ld %ld %lld\n", r, r, peer,
				    tag);
			if (it->root >= 0)
				fprintf(f, "%ld wait %lld %ld %lld\n", r,
				    (long long)it->root, r, rtag);
			if (it->root >= 0 && ti_chan_recv(s, (long)it->root, r,
			    rtag))
				fprintf(f, "%ld send %lld %lld 0\n", r,
				    (long long)it->root, TI_ACKTAG(rtag));
			break;
		case TR_MPI_PROBE:
			/* No probe there. MPI_Mprobe takes its message out of
			 * matching: it is the receive, so that what the rank
			 * computes before its MPI_Mrecv follows the message,
			 * as in tr-nsim. After MPI_Probe, the receive waits
			 * in its place. */
			if (peer < 0 || peer >= s->np) {
				acc += (double)it->dur;
				break;
			}
			if (it->coll != TR_P2P_MATCHED)
				break;
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			fprintf(f, "%ld recv %ld %lld %lld\n", r, peer, tag, b);
			if (ti_chan_recv(s, peer, r, tag))
				fprintf(f, "%ld send %ld %lld 0\n", r, peer,
				    TI_ACKTAG(tag));
			mprobed++;
			break;
		case TR_MPI_CANCEL:
			/* SimGrid's replay cannot cancel: the irecv is left
			 * pending, and nothing waits for it. */
			acc += (double)it->dur;
			if (it->req < 0 || !(v = tr_itab_get(&reqs, r, it->req,
			    0)) || !ti_own(*v) || !((struct tireq *)*v)->recv)
				break;
			s->ncancel++;
			free(*v);
			tr_itab_del(&reqs, r, it->req);
			break;
		case TR_MPI_WAIT:
		case TR_MPI_TEST:
			if (found_nothing(it))
				acc += poll_time(s, it);
			if (it->req < 0 || !(v = tr_itab_get(&reqs, r, it->req, 0)))
				break;
			if (*v == &ti_buf) {
				tr_itab_del(&reqs, r, it->req);
				break;
			}
			if (*v == &ti_io) {
				/* as tr-nsim: the time the I/O took, once
				 * for the call however many it completes */
				if (it->seq != ioseq)
					acc += (double)it->dur;
				ioseq = it->seq;
				tr_itab_del(&reqs, r, it->req);
				break;
			}
			if (!h.ngrp) {
				ti_flush(f, r, &acc);
				h.gseq = it->seq;
			}
			tr_grow(&h.grp, &h.grpcap, h.ngrp + 1, sizeof *h.grp);
			h.grp[h.ngrp++] = *(struct tireq *)*v;
			free(*v);
			tr_itab_del(&reqs, r, it->req);
			break;
		case TR_MPI_COLL:
		case TR_MPI_ICOLL:
		case TR_MPI_COMMNEW:
		case TR_MPI_FENCE:
			if (nsim_gridless(s, r, it)) {
				acc += (double)it->dur;
				break;
			}
			ti_flush(f, r, &acc);
			ti_acks(&reqs, &h, f, r);
			ti_coll(s, f, r, it, all);
			s->nicoll += it->cls == TR_MPI_ICOLL;
			if (it->cls == TR_MPI_COMMNEW)
				acc += ti_make_cost(s, r, it,
				    nsim_rank_comm(s, r, it->comm, it)->gid);
			break;
		case TR_MPI_RMA:
			s->nrma += it->peer >= 0;
			acc += (double)it->dur;
			break;
		case TR_MPI_IFILE:
			acc += (double)it->dur;
			if (it->req < 0)
				break;
			v = tr_itab_get(&reqs, r, it->req, 1);
			if (ti_own(*v))
				free(*v);
			*v = &ti_io;
			break;
		default:
			acc += found_nothing(it) ? poll_time(s, it) :
			    (double)it->dur;
		}
	}
	ti_group(&reqs, &h, f, r);
	ti_flush(f, r, &acc);
	ti_acks(&reqs, &h, f, r);
	fprintf(f, "%ld finalize\n", r);
	ti_fclose(f, name);
	free(h.grp);
	free(h.pend);
	for (i = 0; i < reqs.cap; i++)
		if (ti_own(reqs.s[i].v))
			free(reqs.s[i].v);
	tr_itab_free(&reqs);
}

void
tr_ti_export(struct tr_nsim *s, const struct tr_in *in, const char *dir,
    int all)
{
	FILE *idx;
	long r;
	int lost;

	if (!s->sp || s->np == 0)
		tr_in_die_all(in, "no ev records to export");
	if (s->net->sharing == TR_SHARE_FAIR && s->net->topo != TR_TOPO_CROSSBAR)
		tr_warn("SimGrid shares links by route latency, not "
		    "fairly: its times will differ from tr-nsim's");
	if (s->net->model == TR_MODEL_LOGGP || s->net->o > 0 || s->net->g > 0)
		tr_warn("LogGP is not exported (SimGrid replays the links "
		    "and no o or g): its times will differ from tr-nsim's");
	if (s->net->nitime > 1 && s->net->ppn > 1)
		tr_warn("intra-time is not exported (SimGrid's loopback has "
		    "the intra-latency and intra-bandwidth): its times will "
		    "differ from tr-nsim's within a node");
	tr_spool_seal(s->sp);
	tr_wild_seal(s->wild);
	tr_net_eager(s->net, s->src);
	tr_net_build(s->net, s->np);
	if (s->net->sw_lat > 0 && (s->net->topo == TR_TOPO_FATTREE ||
	    s->net->topo == TR_TOPO_TORUS))
		tr_warn("switch-latency is not exported (SimGrid's %s "
		    "routers have none): its times will differ from "
		    "tr-nsim's", s->net->topo == TR_TOPO_TORUS ? "TORUS" :
		    "FAT_TREE");
	s->tieager = ti_eager(s, &lost);
	if (lost)
		tr_warn("SimGrid has one eager threshold: messages within a "
		    "node are exported with eager-threshold's %lld bytes, not "
		    "intra-eager-threshold's %lld", (long long)s->net->eager,
		    (long long)s->net->intra_eager);
	ti_platform(s, dir);
	ti_make_mins(s);
	idx = ti_fopen(dir, "index.txt");
	for (r = 0; r < s->np; r++) {
		ti_rank(s, dir, r, all);
		fprintf(idx, "rank%ld.txt\n", r);
	}
	ti_fclose(idx, "index.txt");
	if (s->nrma)
		tr_warn("%s: SimGrid's replay has no one-sided communication: "
		    "%lld transfers (MPI_Put, MPI_Get, ...) are exported as "
		    "the time their calls took, without their messages",
		    s->file ? s->file : "stdin", (long long)s->nrma);
	if (s->nicoll)
		tr_warn("%s: SimGrid's replay has no nonblocking collectives: "
		    "%lld are exported as blocking ones where they start, so "
		    "no computation overlaps them, and a replay may deadlock "
		    "where ranks start them in different orders or go on "
		    "receiving while one is in flight (NBX)", s->file ? s->file :
		    "stdin", (long long)s->nicoll);
	if (s->ncancel)
		tr_warn("%s: SimGrid's replay cannot cancel: %lld receives "
		    "cancelled by MPI_Cancel are exported, and smpirun waits "
		    "for them at the end", s->file ? s->file : "stdin",
		    (long long)s->ncancel);
	if (s->nfail)
		tr_warn("%s: SimGrid's replay has no calls that fail: %lld fail "
		    "records are exported as the calls that did their work "
		    "(a truncated receive with room for the whole message, a "
		    "completion), the others as the time they took",
		    s->file ? s->file : "stdin", (long long)s->nfail);
	s->nrma = s->nicoll = s->ncancel = s->nfail = 0;
	nsim_reset(s);
}
