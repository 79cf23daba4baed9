/* nsim.c - trace-driven simulation of an MPI run on a modelled network:
 * the engine, its objects' life and its loop over events.
 *
 * Records are spooled per rank (spool.c) and replayed by a discrete-event
 * engine: ranks compute and call MPI, messages are matched as MPI
 * matches them, and transfers are flows that share link bandwidth
 * max-min fairly (as SimGrid does), after a latency phase in which they
 * use no bandwidth. When the section tells its number of ranks (#meta
 * np) the trace is read as the replay needs it: a rank that has used up
 * its records has the input read until its next one, so the spool holds
 * only the records read ahead of the replay, not the trace. */
#include "nsim-int.h"

struct tr_nsim *
tr_nsim_new(struct tr_net *net, double scale, int wall)
{
	struct tr_nsim *s = tr_calloc(1, sizeof *s);

	s->net = net;
	s->scale = scale;
	s->wall = wall;
	s->cids = tr_comms_new();
	s->done_req.done = 1;
	s->done_req.refs = 1 << 30;
	s->io_req = s->done_req;
	s->bgfree = -1;
	s->calling = -1;
	s->fullshare = getenv("TR_NSIM_FULLSHARE") != NULL;
	evq_clear(s);
	return s;
}

void
tr_nsim_pollwork(struct tr_nsim *s, int on)
{
	s->pollwork = on;
}

void
tr_nsim_for_ti(struct tr_nsim *s)
{
	s->for_ti = 1;
}

void
tr_nsim_stats(struct tr_nsim *s, int on)
{
	s->stats = on;
}

void
nsim_reset(struct tr_nsim *s)
{
	long r;
	size_t i;

	ti_read_free(s);
	for (r = 0; r < s->np && s->r; r++) {
		while (s->r[r].rdvdef) {
			struct sreq *q = s->r[r].rdvdef;
			s->r[r].rdvdef = q->next;
			req_unref(s, q);
		}
		while (s->r[r].ackdef) {
			struct sreq *q = s->r[r].ackdef;
			s->r[r].ackdef = q->next;
			req_unref(s, q);
		}
		while (s->r[r].rma) {
			struct sreq *q = s->r[r].rma;
			s->r[r].rma = q->next;
			req_unref(s, q);
		}
		free(s->r[r].gbuf);
		free(s->r[r].probe);
		free(s->r[r].xpend);
	}
	free(s->r);
	s->r = NULL;
	for (r = 0; r < s->nbg; r++)
		free(s->bg[r].q);
	free(s->bg);
	free(s->cuts);
	s->cuts = NULL;
	s->ncut = s->cutcap = 0;
	tr_itab_free(&s->tiopen);
	tr_itab_free(&s->ticut);
	s->bg = NULL;
	s->nbg = s->bgcap = s->bglive = 0;
	s->bgfree = -1;
	for (i = 0; i < s->reqs.cap; i++)
		if (s->reqs.s[i].v)
			req_unref(s, s->reqs.s[i].v);
	tr_itab_free(&s->reqs);
	/* communicators kept for windows never freed (the
	 * others are in rc, freed next) */
	for (i = 0; i < s->rwin.cap; i++) {
		struct rcomm *c = s->rwin.s[i].v;

		if (c && --c->wins == 0 && c->zombie && !c->pers) {
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rwin);
	for (i = 0; i < s->rpers.cap; i++) {
		struct rcomm *c = s->rpers.s[i].v;

		if (c && c->zombie && c->wins == 0) {	/* else in rc */
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rpers);
	for (i = 0; i < s->rc.cap; i++) {
		struct rcomm *c, *nx;

		for (c = s->rc.s[i].v; c; c = nx) {
			nx = c->next;
			free(c->grid);
			free(c);
		}
	}
	tr_itab_free(&s->rc);
	for (i = 0; i < s->colls.cap; i++)
		free(s->colls.s[i].v);
	tr_itab_free(&s->colls);
	nsim_req_slabs_free(s);
	free(s->posted);
	free(s->unexp);
	s->posted = s->unexp = NULL;
	for (r = 0; r < s->nfl; r++)
		if (s->fl[r].xl) {
			free(s->fl[r].xl);
			free(s->fl[r].xp);
		}
	free(s->fl);
	s->fl = NULL;
	s->nfl = s->flcap = 0;
	free(s->flfree);
	s->flfree = NULL;
	s->nflfree = s->flfreecap = 0;
	if (s->ln)
		for (r = 0; r < s->nln; r++)
			free(s->ln[r].fl);
	free(s->ln);
	s->ln = NULL;
	s->nln = s->lncap = 0;
	free(s->lnfree);
	s->lnfree = NULL;
	s->nlnfree = s->lnfreecap = 0;
	free(s->route);
	s->route = NULL;
	evq_clear(s);
	for (i = 0; i < s->gcomm.cap; i++)
		if (s->gcomm.s[i].v) {
			free(((struct comm *)s->gcomm.s[i].v)->mem);
			free(s->gcomm.s[i].v);
		}
	tr_itab_free(&s->gcomm);
	free(s->byidx);
	s->byidx = NULL;
	s->nbyidx = 0;
	s->ngid = 0;
	tr_comms_free(s->cids);
	s->cids = tr_comms_new();
	tr_spool_free(s->sp);
	s->sp = NULL;
	tr_wild_free(s->wild);
	s->wild = NULL;
	free(s->prev_end);
	s->prev_end = NULL;
	s->prevcap = 0;
	s->np = 0;
	s->nseen = 0;
	s->nevents = 0;
	s->now = 0;
}

static void
summary(struct tr_nsim *s, struct tr_out *o)
{
	double run = 0;
	/* the totals add up the ranks' lines, rounded as they are */
	long long comp = 0, comm = 0, wait = 0, c, m, w;
	int64_t ev = 0;
	char name[96];
	long r;

	for (r = 0; r < s->np; r++) {
		struct rank *rk = &s->r[r];
		if (rk->t > run)
			run = rk->t;
		c = nsround(rk->compute);
		m = nsround(rk->comm);
		w = nsround(rk->wait);
		if (__builtin_add_overflow(comp, c, &comp) ||
		    __builtin_add_overflow(comm, m, &comm) ||
		    __builtin_add_overflow(wait, w, &wait))
			nsim_item_die(s, NULL, "the ranks' simulated times "
			    "summed pass 2^63 ns");
		ev += rk->events;
		tr_out_printf(o, "simrank\t%ld\t%lld\t%lld\t%lld\t%lld\t%lld\n",
		    r, (long long)nsround(rk->t), c, m, w,
		    (long long)rk->events);
	}
	for (r = 0; r < s->nodeln + (s->net->node_bw > 0 ? s->net->nodes : 0) &&
	    s->net->model == TR_MODEL_FLOW; r++) {
		struct link *l = &s->ln[r];
		if (l->bytes <= 0)
			continue;
		if (r < s->nodeln)
			tr_net_linkname(s->net, r, name, sizeof name);
		else
			snprintf(name, sizeof name, "n%ld.mem", r - s->nodeln);
		if (l->bytes >= 0x1p63)
			nsim_item_die(s, NULL, "link %s carried 2^63 bytes or "
			    "more", name);
		tr_out_printf(o, "simlink\t%ld\t%s\t%lld\t%lld\t", r, name,
		    (long long)nsround(l->bytes), (long long)nsround(l->busy));
		tr_out_f64(o, run > 0 ? l->bytes / (l->cap * run) : 0);
		tr_out_c(o, '\n');
	}
	tr_out_printf(o, "simrun\t%ld\t%lld\t%lld\t%lld\t%lld\t%lld\n", s->np,
	    (long long)nsround(run), (long long)ev, comp, comm, wait);
	s->nevents = ev;
}

int64_t
tr_nsim_section(struct tr_nsim *s, struct tr_in *in, const struct tr_rec *rec,
    struct tr_out *o)
{
	struct tr_net *n = s->net;
	long r;
	int64_t ev, np;
	double t0, t;

	s->in = in;
	s->out = o;
	nsim_begin(s, in);
	nsim_take(s, rec);
	/* The ranks must be known before the first is replayed. Those np
	 * names are not allocated before each has shown a record, or the
	 * section has ended: the reader then says which have none, at the
	 * line of np, unless the section is a selection of ranks (#meta
	 * subset) or they ended early (#meta end.R). A time-ordered trace
	 * has every rank's first record near its start: the replay would
	 * read them as its ranks begin. */
	if (tr_meta_i64(in, "np", &np) == 0 && np > 0) {
		s->np = (long)np;
		while (s->nseen < np && nsim_pull(s, s->np, 2))
			;
	} else
		while (nsim_pull(s, -1, 0))
			;
	if (s->np == 0) {	/* comm records only */
		nsim_reset(s);
		return 0;
	}
	t0 = nsim_cpu_seconds();
	s->tin = 0;
	tr_net_eager(n, in);
	tr_net_build(n, s->np);
	s->r = tr_calloc((size_t)s->np, sizeof *s->r);
	s->posted = tr_calloc((size_t)s->np, sizeof *s->posted);
	s->unexp = tr_calloc((size_t)s->np, sizeof *s->unexp);
	s->nodeln = n->nlinks;
	s->nln = s->lncap = n->nlinks + (n->node_bw > 0 ? n->nodes : 0);
	if (s->lncap >= INT32_MAX)	/* struct flow's lbuf */
		tr_die(TR_EXIT_SYS, "more than 2^31 links");
	/* A link gets its capacity when a flow first takes it: the pages of
	 * a large network's links that no rank's route crosses stay
	 * untouched, and so unmapped. */
	s->ln = tr_calloc((size_t)s->lncap, sizeof *s->ln);
	s->route = tr_malloc((size_t)tr_net_maxroute(n) * sizeof *s->route);
	for (r = 0; r < s->np; r++) {
		s->r[r].node = tr_net_node(n, r);
		/* no message before the first: it owes no gap g */
		s->r[r].inject = -INFINITY;
		push(s, 0, EV_WAKE, r, 0);
	}
	while (s->nev || s->ndl) {
		struct hent e;

		if (s->ndl && (!next_time(s, &t) || t > s->now)) {
			settle(s);
			continue;
		}
		if (!pop(s, &e))
			break;
		s->npop++;
		s->now = ktime(e.k);
		/* The next event's object is a cache miss with many ranks:
		 * fetch it while this one is handled. */
		if (s->bk[0].n > s->head0) {
			const struct hent *h = &s->bk[0].e[s->head0];

			if (h->kind == EV_WAKE)
				__builtin_prefetch(&s->r[h->id]);
			else if (h->kind != EV_BG)
				__builtin_prefetch(&s->fl[h->id]);
		}
		if (s->now == INFINITY)
			break;
		switch (e.kind) {
		case EV_WAKE:
			nsim_wake_rank(s, e.id);
			break;
		case EV_LAT:
			if (s->fl[e.id].ver == e.ver)
				nsim_flow_enter(s, e.id);
			else
				s->nstale++;
			break;
		case EV_DONE:
			if (s->fl[e.id].ver == e.ver && s->fl[e.id].s)
				nsim_deliver(s, nsim_flow_done(s, e.id));
			else
				s->nstale++;
			break;
		case EV_BG:
			nsim_bg_step(s, e.id);
			break;
		}
	}
	nsim_deadlock(s);
	/* A rank is done only once the section was read to its end. */
	while (nsim_pull(s, -1, 0))
		;
	summary(s, o);
	ev = s->nevents;
	if (s->stats) {
		double t1 = nsim_cpu_seconds(), dt = t1 - t0 - s->tin;

		if (dt < 1e-9)
			dt = 1e-9;
		fprintf(stderr, "%s: stats: %lld records, %ld ranks, %lld "
		    "messages, %lld engine events (%lld stale), %lld sharing "
		    "solves of %.1f flows on average (%lld grown, %lld whole)\n"
		    "%s: stats: cpu s: %.3f reading and spooling, %.3f "
		    "simulating (%.0f records/s, %.0f messages/s, %.0f "
		    "events/s)\n", tr_argv0, (long long)ev, s->np,
		    (long long)s->nmsg, (long long)s->npop,
		    (long long)s->nstale, (long long)s->nsolve,
		    s->nsolve ? (double)s->nsolved / (double)s->nsolve : 0.0,
		    (long long)s->ngrow, (long long)s->nfull,
		    tr_argv0, t0 - s->tread + s->tin, dt, (double)ev / dt,
		    (double)s->nmsg / dt, (double)(s->npop - s->nstale) / dt);
	}
	s->nsolve = s->nsolved = s->ngrow = s->nfull = s->nmsg = s->npop = s->nstale = 0;
	nsim_reset(s);
	return ev;
}

void
tr_nsim_free(struct tr_nsim *s)
{
	int b;

	if (!s)
		return;
	nsim_reset(s);
	for (b = 0; b < NBUCKET; b++)
		free(s->bk[b].e);
	free(s->cl);
	free(s->cops);
	free(s->fk);
	free(s->fka);
	free(s->fkc);
	free(s->vf);
	free(s->cf);
	free(s->dl);
	free(s->lf);
	tr_comms_free(s->cids);
	free(s);
}
