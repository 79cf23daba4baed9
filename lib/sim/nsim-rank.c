/* nsim-rank.c - each rank's replay of its records: its calls, its
 * progress between them, and the lines it writes. */
#include "nsim-int.h"

/* Whether call IT, entered with messages to copy, posts its own first:
 * Open MPI's ob1 and MPICH start a blocking send (its envelope, or its
 * data if eager) or receive, then run the progress engine that copies
 * what came for the rank, so that its message leaves before those
 * copies, and a peer blocked in a send of its own copies it meanwhile.
 * Calls that only complete requests post nothing; a collective posts
 * its first round when the copies are done. */
static int
posts_first(const struct item *it)
{
	return it->cls == TR_MPI_SEND || it->cls == TR_MPI_SSEND ||
	    it->cls == TR_MPI_RECV || it->cls == TR_MPI_SENDRECV;
}

/* Whether call IT runs the library's progress engine: one that waits,
 * tests or probes, or a blocking one; not one that only starts
 * something (MPI_Isend, MPI_Irecv, MPI_Start, MPI_Ibcast, ...) or a
 * local one (MPI_Comm_rank). */
static int
progresses(const struct item *it)
{
	switch (it->cls) {
	case TR_MPI_ISEND:
	case TR_MPI_IRECV:
	case TR_MPI_ICOLL:
	case TR_MPI_RMA:
	case TR_MPI_IFILE:
	case TR_MPI_CANCEL:
		return 0;
	case TR_MPI_LOCAL:
		return it->coll == TR_LOCAL_PROGRESS;
	}
	return 1;
}

static void
out_line(const struct tr_nsim *s, struct tr_out *o, int64_t line,
    const char *pre, uint32_t npre, const char *suf, uint32_t nsuf, int two,
    double t0, double t1)
{
	char *p;

	/* A network slow enough (1 B/s), or recorded times near 2^63,
	 * make times no integer holds. */
	if (!(t0 < 4e18 && t1 < 4e18))
		nsim_line_die(s, line, "simulated time %.3g ns out of range "
		    "(at most 4e18 ns)", t0 > t1 ? t0 : t1);
	p = tr_out_room(o, (size_t)npre + nsuf + 64);
	memcpy(p, pre, npre);
	p = tr_fmt_i64(p + npre, nsround(t0));
	if (two) {
		*p++ = '\t';
		p = tr_fmt_i64(p, nsround(t1));
	}
	memcpy(p, suf, nsuf);
	p[nsuf] = '\n';
	tr_out_put(o, p + nsuf + 1);
}

/* The room a group's line takes in gbuf. */
static size_t
gline_size(uint32_t npre, uint32_t nsuf)
{
	return (sizeof(struct gline) + npre + nsuf + 3) & ~(size_t)3;
}

static void
group_flush(struct tr_nsim *s, struct rank *rk, struct tr_out *o)
{
	size_t i;

	for (i = 0; i < rk->glen; ) {
		const struct gline *g = (const void *)(rk->gbuf + i);
		out_line(s, o, g->lineno, g->line, g->npre, g->line + g->npre,
		    g->nsuf, 1, rk->gstart, rk->t);
		i += gline_size(g->npre, g->nsuf);
	}
	rk->glen = 0;
	rk->ingroup = 0;
	free(rk->gbuf);
	rk->gbuf = NULL;
	rk->gcap = 0;
}

/* MPI_Startall writes a record per request, all of one seq and one
 * time span: they are replayed as a group, as a completion's records. */
static int
startall(const struct item *it)
{
	return (it->cls == TR_MPI_ISEND || it->cls == TR_MPI_IRECV) &&
	    nsim_item_op(it, "MPI_Startall:", 1);
}

static void
group_add(struct rank *rk, const struct item *it)
{
	struct gline g = {it->npre, it->nsuf, it->line};
	size_t n = gline_size(it->npre, it->nsuf);
	char *d;

	tr_grow(&rk->gbuf, &rk->gcap, rk->glen + n, 1);
	d = rk->gbuf + rk->glen;
	memcpy(d, &g, sizeof g);
	memcpy(d + sizeof g, ITEM_PRE(it), it->npre + it->nsuf);
	rk->glen += n;
}

/* Rank R is in an MPI call: the rendezvous messages it matched
 * meanwhile start coming, in the order they were matched, and its
 * collectives waiting for a call go on. A message the call copies
 * itself (held_copy) waits for its envelope, to this call if it has
 * come, else to the next; the copies advance the rank's clock. */
static void
progress(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	struct sreq *rdv = rk->rdvdef, *q, *next, *first = NULL;
	long id = rk->bgdef;
	double t = rk->t > s->now ? rk->t : s->now, d;

	rk->rdvdef = NULL;
	while ((q = rk->ackdef)) {
		rk->ackdef = q->next;
		q->next = NULL;
		q->tmatch = t;	/* the sender waited for this call */
		nsim_sync_ack(s, q, t);
		req_unref(s, q);	/* the list's reference */
	}
	q = rdv;
	for (; q; q = next) {
		next = q->next;
		q->next = first;
		first = q;
	}
	for (q = first; q; q = next) {
		next = q->next;
		q->next = NULL;
		if ((d = nsim_held_copy(s, r, q)) > 0 &&
		    q->tsent + s->net->intra_lat > s->now) {
			q->next = rk->rdvdef;
			rk->rdvdef = q;
			continue;
		}
		/* what the sender waited for until now was the receiver */
		q->tmatch = q->match ? (q->match->tmatch = t) : t;
		nsim_flow_start(s, q, d > 0 ? t : s->now);
		t += d;
		req_unref(s, q);	/* the list's reference */
	}
	if (t > rk->t) {
		rk->comm += t - rk->t;
		rk->t = t;
	}
	rk->bgdef = 0;
	while (id) {
		long next = s->bg[id - 1].next;

		nsim_bg_step(s, id - 1);
		id = next;
	}
}

/* Blocks the rank until its awaited requests complete; returns 1 if it
 * may go on at once (rk->t updated). */
static int
block(struct tr_nsim *s, struct rank *rk, long r)
{
	rk->tblock = rk->t;
	if (rk->npend == 0) {
		if (rk->tready > rk->t)
			rk->t = rk->tready;
		return 1;
	}
	/* blocked, it copies what it kept for its next call */
	if (rk->rdvdef || rk->ackdef)
		progress(s, r);
	return 0;
}

static void
finish_wait(struct tr_nsim *s, struct rank *rk)
{
	double tm = rk->tblock;
	int i;

	if (rk->tready > rk->t)
		rk->t = rk->tready;
	for (i = 0; i < rk->npr; i++) {
		struct sreq *q = i < 2 ? rk->pend[i] : rk->xpend[i - 2];
		if (q->tmatch > tm && !(q->send && !q->rdv && !q->sync))
			tm = q->tmatch;
		req_unref(s, q);
	}
	if (tm > rk->t)
		tm = rk->t;
	rk->wait += tm - rk->tblock;
	rk->comm += rk->t - tm;
	rk->npr = 0;
	rk->tready = 0;
}

static void
emit(struct tr_nsim *s, struct rank *rk)
{
	const struct item *it = rk->it;

	rk->events++;
	if (it->type == TR_REG) {
		out_line(s, s->out, it->line, ITEM_PRE(it), it->npre,
		    ITEM_SUF(it), it->nsuf, 0, rk->tstart, 0);
		return;
	}
	if (it->cls == TR_MPI_WAIT || it->cls == TR_MPI_TEST ||
	    (rk->ingroup && it->seq == rk->gseq)) {
		group_add(rk, it);
		return;
	}
	out_line(s, s->out, it->line, ITEM_PRE(it), it->npre, ITEM_SUF(it),
	    it->nsuf, 1, rk->tstart, rk->t);
}

/* Starts the operation of the current record at rk->t; returns 1 if it
 * is over (rk->t is its end), 0 if the rank is blocked. */
static int
start_op(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	const struct item *it = rk->it;
	struct rcomm *c;
	struct sreq *q;
	void **v;
	int64_t src, tag;
	double d;

	rk->tstart = rk->held ? rk->thold : rk->t;
	rk->held = 0;
	if (it->type == TR_REG)
		return 1;
	if (rk->ingroup && it->seq == rk->gseq)
		rk->tstart = rk->gstart;
	else if (startall(it)) {
		rk->ingroup = 1;
		rk->gseq = it->seq;
		rk->gstart = rk->tstart;
	}
	switch (it->cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
		c = nsim_rank_comm(s, r, it->comm, it);
		q = nsim_mk_req(s, r, 1, (long)it->peer, it->bytes, it->tag,
		    c->gid, 0, it->cls == TR_MPI_SSEND ||
		    it->coll == TR_P2P_SYNC, it->seq, CUT_NO);
		if (it->coll == TR_P2P_BUF) {
			/* the message goes on its own */
			req_unref(s, q);
			if (it->cls == TR_MPI_ISEND)
				nsim_user_req(s, r, it, &s->done_req);
			d = s->net->o + buf_copy(s->net, it->bytes);
			rk->t += d;
			rk->comm += d;
			return 1;
		}
		if (it->cls == TR_MPI_ISEND) {
			if (!nsim_user_req(s, r, it, q))
				req_unref(s, q);
			rk->t += s->net->o;
			rk->comm += s->net->o;
			return 1;
		}
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		c = nsim_rank_comm(s, r, it->comm, it);
		src = it->peer;
		tag = it->tag;
		/* Without a request id (its call failed) no call completes
		 * it: it posts nothing. A receive posted and dropped here
		 * went back to the free list while still queued, and its
		 * reuse made the queue a loop (a fuzzed req of -1: a hang). */
		if (it->cls == TR_MPI_IRECV && it->req < 0)
			return 1;
		if (it->cls == TR_MPI_IRECV) {
			struct tr_wildq wq = {it->seq, it->peer, it->tag,
			    it->req};

			tr_wild_resolve(s->wild, r, &wq, &src, &tag,
			    nsim_pull_wild, s);
		}
		q = nsim_mk_req(s, r, 0, (long)src, it->bytes, tag, c->gid,
		    0, 0, it->seq, it->type == TR_FAIL ? CUT_FAILED :
		    it->cls == TR_MPI_IRECV ? CUT_LATER : CUT_NO);
		if (it->cls == TR_MPI_IRECV) {
			if (!nsim_user_req(s, r, it, q))
				req_unref(s, q);
			return 1;
		}
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_SENDRECV:
		c = nsim_rank_comm(s, r, it->comm, it);
		await(s, rk, nsim_mk_req(s, r, 1, (long)it->peer, it->bytes,
		    it->tag, c->gid, 0, 0, it->seq, CUT_NO));
		/* The tag received is in req; traces without it match any.
		 * The bytes received are not in the trace. */
		await(s, rk, nsim_mk_req(s, r, 0, (long)it->root, -1,
		    it->req >= 0 ? it->req : -1, c->gid, 0, 0, it->seq, CUT_NO));
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_WAIT:
	case TR_MPI_TEST:
		if (rk->ingroup && it->seq == rk->gseq)
			rk->tstart = rk->gstart;
		else {
			rk->ingroup = 1;
			rk->gseq = it->seq;
			rk->gstart = rk->tstart;
		}
		if (found_nothing(it))
			break;
		if (it->req < 0)
			return 1;
		if (!(v = tr_itab_get(&s->reqs, r, it->req, 0)))
			nsim_item_die(s, it, "rank %ld seq %lld: completion of "
			    "request %lld, which was never started%s", r,
			    (long long)it->seq, (long long)it->req,
			    s->src && tr_meta(s->src, "subset") ? " (a selection, "
			    "#meta subset: a time window or an expression "
			    "cuts requests from their completions)" : "");
		q = *v;
		if (q->cut == CUT_LATER)
			q->cut = it->type == TR_FAIL ? CUT_FAILED : CUT_NO;
		else if (q->cut == CUT_FOUND && it->type != TR_FAIL) {
			const struct cut *m = &s->cuts[q->cutid - 1];

			nsim_item_die(s, it, "rank %ld seq %lld: a receive of "
			    "%lld bytes matches a message of %lld bytes from "
			    "rank %ld seq %lld (tag %lld): it would be "
			    "truncated", r,
			    (long long)q->seq, (long long)q->bytes,
			    (long long)m->bytes, m->src, (long long)m->seq,
			    (long long)m->tag);
		}
		/* Off the table only after the checks: what no table holds at
		 * an error exit is a leak. */
		tr_itab_del(&s->reqs, r, it->req);
		/* File I/O is not simulated: its completion keeps the time
		 * it took in the recording, as blocking I/O does. */
		if (q == &s->io_req && rk->gstart + (double)it->dur > rk->tready)
			rk->tready = rk->gstart + (double)it->dur;
		await(s, rk, q);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_RMA:
		if (it->peer < 0)
			break;
		/* time in MPI that is no wait: communication (tr-nsim(1)) */
		d = s->net->o + s->net->rma_o + nsim_rma_start(s, r, it);
		rk->t += d;
		rk->comm += d;
		return 1;
	case TR_MPI_RMASYNC:
		rk->t += s->net->rma_o;
		rk->comm += s->net->rma_o;
		nsim_rma_await(s, r, it, it->coll == TR_RMA_TARGET ? it->peer :
		    -1);
		return block(s, rk, r) && (finish_wait(s, rk), 1);
	case TR_MPI_FENCE:
		/* the rank's transfers complete, then all meet */
		nsim_rma_await(s, r, it, -1);
		if (!block(s, rk, r)) {
			rk->phase = PH_FENCE;
			return 0;
		}
		finish_wait(s, rk);
		nsim_coll_start(s, r, it);
		rk->phase = PH_COLL;
		return 1;
	case TR_MPI_IFILE:
		nsim_user_req(s, r, it, &s->io_req);
		break;
	case TR_MPI_CANCEL:
		if (it->req >= 0 && (v = tr_itab_get(&s->reqs, r, it->req, 0)))
			nsim_cancel(s, *v);
		break;
	case TR_MPI_PROBE:
		/* The record names the message found (its status): the
		 * rank waits for its envelope, once it is sent. */
		if (it->peer < 0 || it->peer >= s->np)
			break;
		if (!rk->probe)
			rk->probe = tr_calloc(1, sizeof *rk->probe);
		q = rk->probe;
		q->gid = nsim_rank_comm(s, r, it->comm, it)->gid;
		q->src = (long)it->peer;
		q->tag = it->tag;
		rk->inprobe = 1;
		rk->tblock = rk->t;
		if (rk->rdvdef || rk->ackdef)
			progress(s, r);
		for (q = s->unexp[r]; q; q = q->next)
			if (matches(rk->probe, q)) {
				nsim_probe_found(s, q);
				break;
			}
		return 0;
	case TR_MPI_COLL:
	case TR_MPI_ICOLL:
	case TR_MPI_COMMNEW:
		if (it->cls == TR_MPI_ICOLL && it->req >= 0 &&
		    !nsim_gridless(s, r, it)) {
			nsim_bg_start(s, r, it);
			rk->t += s->net->o;
			rk->comm += s->net->o;
			return 1;
		}
		if (it->cls == TR_MPI_ICOLL && it->req >= 0)
			nsim_user_req(s, r, it, &s->done_req);
		if (nsim_gridless(s, r, it))
			break;
		if (it->cls == TR_MPI_COMMNEW && it->tag >= 0 &&
		    (nsim_item_op(it, "MPI_Win_create", 1) ||
		    nsim_item_op(it, "MPI_Win_allocate", 1)))
			nsim_rank_win(s, r, it, 1);
		/* without its request, it completes where it starts */
		nsim_coll_start(s, r, it);
		rk->phase = PH_COLL;
		return 1;
	}
	if (it->cls == TR_MPI_LOCAL && it->coll == COLL_FREE)
		nsim_rank_freed(s, r, it);
	else if (it->cls == TR_MPI_LOCAL && it->coll == COLL_PERS &&
	    it->comm > 1)
		nsim_rank_pers(s, r, it);
	else if (it->cls == TR_MPI_LOCAL && it->coll == COLL_UNPERS &&
	    it->comm > 1)
		nsim_rank_unpers(s, r, it);
	d = found_nothing(it) ? poll_time(s, it) : (double)it->dur;
	rk->t += d;
	rk->comm += d;
	return 1;
}

/* A rank whose clock ran ahead of the simulation (computing) waits for
 * the events before it; 0 if it must wait. */
static int
catch_up(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	double t;

	if (rk->t <= s->now)
		return 1;
	settle(s);
	if (next_time(s, &t) && t < rk->t) {
		push(s, rk->t, EV_WAKE, r, 0);
		return 0;
	}
	s->now = rk->t;
	return 1;
}

static void
run_rank(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];
	double dt;

	for (;;) {
		switch (rk->phase) {
		case PH_FETCH:
			if (!nsim_item_next(s, r, &rk->cur)) {
				if (nsim_pull(s, r, 0))
					break;
				if (rk->ingroup)
					group_flush(s, rk, s->out);
				rk->done = 1;
				if (rk->bgdef || rk->rdvdef || rk->ackdef)
					progress(s, r);
				return;
			}
			rk->it = &rk->cur;
			/* Records of one seq are one call, whatever their
			 * op: they keep one time span. */
			if (rk->ingroup && !(rk->it->seq == rk->gseq &&
			    rk->it->type != TR_REG))
				group_flush(s, rk, s->out);
			/* One that no group takes (a garbled op before a
			 * completion's records) would be replayed as a
			 * second call with times of its own. */
			if (rk->it->type != TR_REG && rk->hasseq &&
			    rk->it->seq == rk->lastseq && !rk->ingroup)
				nsim_item_die(s, rk->it, "rank %ld seq %lld: "
				    "records of one seq that are not one call",
				    r,
				    (long long)rk->it->seq);
			if (rk->it->type != TR_REG) {
				rk->lastseq = rk->it->seq;
				rk->hasseq = 1;
			}
			rk->phase = PH_START;
			if (rk->ingroup)
				break;
			dt = (double)rk->it->dt * s->scale;
			if (dt > 0) {
				rk->t += dt;
				rk->compute += dt;
			}
			break;
		case PH_START:
			if (!catch_up(s, r))
				return;
			/* the call first does what waited for one; it goes on
			 * once the copies that hold it are done, but a
			 * blocking send or receive posts its own message
			 * first */
			if (rk->it->type != TR_REG && progresses(rk->it) &&
			    (rk->bgdef || rk->rdvdef || rk->ackdef)) {
				if (!rk->held)
					rk->thold = rk->t;
				progress(s, r);
				if (rk->t > s->now) {
					rk->held = 1;
					if (!posts_first(rk->it)) {
						push(s, rk->t, EV_WAKE, r, 0);
						return;
					}
					rk->late = 1;
				}
			}
			rk->phase = PH_FINISH;
			if (!start_op(s, r))
				return;
			break;
		case PH_FENCE:
			nsim_coll_start(s, r, rk->it);
			rk->phase = PH_COLL;
			break;
		case PH_COLL:
			/* the step before is done: its data is reduced */
			rk->t += rk->red;
			rk->comm += rk->red;
			rk->red = 0;
			if (!catch_up(s, r))
				return;
			if (!nsim_coll_step(s, r)) {
				rk->incoll = 0;
				rk->phase = PH_FINISH;
				if (rk->it->cls == TR_MPI_COMMNEW) {
					double d = nsim_make_cost(s, rk->gid,
					    rk->ctag);
					rk->t += d;
					rk->comm += d;
					if (nsim_win_coll(rk->it))
						nsim_rank_win(s, r, rk->it, 0);
				}
				break;
			}
			if (!block(s, rk, r))
				return;
			finish_wait(s, rk);
			break;
		case PH_FINISH:
			/* a call that started before its copies ended is
			 * written when it ends, in the order of ends */
			if (rk->late) {
				if (rk->t > s->now) {
					rk->held = 1;
					push(s, rk->t, EV_WAKE, r, 0);
					return;
				}
				rk->late = rk->held = 0;
			}
			emit(s, rk);
			rk->phase = PH_FETCH;
			break;
		}
	}
}

/* The rank was woken: a computation ended or its requests completed. */
void
nsim_wake_rank(struct tr_nsim *s, long r)
{
	struct rank *rk = &s->r[r];

	if (rk->t < s->now)
		rk->t = s->now;
	if (rk->npr > 0)
		finish_wait(s, rk);
	else if (rk->inprobe) {
		rk->inprobe = 0;
		rk->wait += rk->t - rk->tblock;	/* for the message */
	}
	s->calling = r;
	run_rank(s, r);
	s->calling = -1;
}
