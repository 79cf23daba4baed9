/* synth-peer.c - a template off any grid grown by the peer functions of
 * (rank, P) that explain its point-to-point call sites (tr-pattern(1)'s
 * candidates): each cycle of a site, written at the target with the
 * peers the function gives there, as many as it gives. */
#include <stdio.h>

#include "synth-int.h"

/* 1 if E is a call whose peer tr_pat keeps (a point-to-point call on
 * the world or a sub-communicator). */
static int
pattern_call(const struct tr_ev *e)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);

	return e->peer >= 0 && (c == TR_MPI_SEND || c == TR_MPI_SSEND ||
	    c == TR_MPI_RECV || c == TR_MPI_SENDRECV || c == TR_MPI_ISEND ||
	    c == TR_MPI_IRECV);
}

static int
nonblocking(const char *op, size_t n)
{
	int coll, c = tr_mpi_class(op, n, &coll);

	return c == TR_MPI_ISEND || c == TR_MPI_IRECV;
}

/* A rank's class, cycle length and shape (tr_pat_class) at each site. */
struct rclass {
	int *c;
	long *len, *shape;
};

/* 1 if ranks A and B are in one class at each of the NS sites and call
 * at the same; with EXACT, their cycles of one shape too at the sites
 * it marks (a grid's top edge for a top edge at the nonblocking calls:
 * their requests, tags and waits stay as they are). */
static int
alike(size_t ns, const struct rclass *a, const struct rclass *b,
    const unsigned char *exact)
{
	size_t i;

	for (i = 0; i < ns; i++)
		if (a->c[i] != b->c[i] || a->len[i] < 0 || b->len[i] < 0 ||
		    (a->len[i] > 0) != (b->len[i] > 0) ||
		    (exact && exact[i] && a->shape[i] != b->shape[i]))
			return 0;
	return 1;
}

static void
rclass_new(struct rclass *rc, size_t ns)
{
	rc->c = tr_calloc(ns + 1, sizeof *rc->c);
	rc->len = tr_calloc(ns + 1, sizeof *rc->len);
	rc->shape = tr_calloc(ns + 1, sizeof *rc->shape);
}

static void
rclass_free(struct rclass *rc)
{
	free(rc->c);
	free(rc->len);
	free(rc->shape);
}

/* A rank's place in a sub-communicator: the template's at its np, the
 * grown one's at the target's. */
static long
sub_place(void *ctx, int64_t id, long r, long P, long *place, long *first,
    long *step)
{
	struct tr_syn *s = ctx;

	return syn_comm_place(s, id, r, r, P != s->P, place, first, step);
}

int
syn_peer_begin(struct tr_syn *s, char *why, size_t wn)
{
	size_t ns = tr_pat_nsites(s->pat);
	long t, q, nt = s->nt, P = s->P;
	struct rclass ct, *cq;
	unsigned char *nb, *nbg;
	size_t i;

	if (tr_pat_othercomm(s->pat)) {
		snprintf(why, wn, "%ld point-to-point calls on communicators "
		    "other than the world", tr_pat_othercomm(s->pat));
		return -1;
	}
	if (tr_pat_fit(s->pat, why, wn) < 0)
		return -1;
	/* Sites on sub-communicators place ranks in them, at the target
	 * too: their candidates are chosen now, as for a run off a grid. */
	if (tr_pat_nsub(s->pat)) {
		s->peermode = 1;
		syn_comm_begin(s);
		s->peermode = 0;
		tr_pat_places(s->pat, sub_place, s);
	}
	/* Two functions that explain every scale recorded and part at
	 * the target: either trace would be a guess. */
	if (tr_pat_parted(s->pat, nt, why, wn) < 0)
		tr_die_files(s->nfiles, s->files, "-T: %s", why);
	/* A target rank follows a template rank in the same class at every
	 * site, with calls at the same sites: the ranks of a class in turn,
	 * so that followers take the noise of several. */
	cq = tr_calloc((size_t)P, sizeof *cq);
	s->rep = tr_calloc((size_t)nt, sizeof *s->rep);
	s->repx = tr_calloc((size_t)nt, sizeof *s->repx);
	for (q = 0; q < P; q++) {
		rclass_new(&cq[q], ns);
		tr_pat_class(s->pat, q, P, cq[q].c, cq[q].len, cq[q].shape);
	}
	rclass_new(&ct, ns);
	nb = tr_calloc(2 * ns + 2, 1);
	nbg = nb + ns + 1;
	for (i = 0; i < ns; i++) {
		const char *op = tr_pat_site_op(s->pat, i);

		nb[i] = (unsigned char)nonblocking(op, strlen(op));
		/* and a reduction's: the kinds of its first and last levels
		 * bound the interval of the compute between its rounds */
		nbg[i] = nb[i] || tr_pat_site_grouped(s->pat, i);
	}
	for (t = 0; t < nt; t++) {
		long nm = 0, want;
		const unsigned char *ex = nbg;

		tr_pat_class(s->pat, t, nt, ct.c, ct.len, ct.shape);
		/* those whose nonblocking cycles (and reductions) have its
		 * shape first */
		for (q = 0; q < P; q++)
			nm += alike(ns, &ct, &cq[q], ex);
		if (!nm)
			for (ex = nb, q = 0; q < P; q++)
				nm += alike(ns, &ct, &cq[q], ex);
		if (!nm)
			for (ex = NULL, q = 0; q < P; q++)
				nm += alike(ns, &ct, &cq[q], ex);
		/* the (t mod nm)-th of the nm template ranks alike */
		want = nm ? t % nm : 0;
		s->rep[t] = -1;
		for (q = 0; q < P && nm && s->rep[t] < 0; q++)
			if (alike(ns, &ct, &cq[q], ex) && want-- == 0)
				s->rep[t] = q;
		s->repx[t] = ex != NULL;
		if (s->rep[t] < 0) {
			snprintf(why, wn, "no template rank has the peers' "
			    "classes of target rank %ld", t);
			break;
		}
	}
	free(nb);
	rclass_free(&ct);
	for (q = 0; q < P; q++)
		rclass_free(&cq[q]);
	free(cq);
	if (t < nt) {
		free(s->rep);
		free(s->repx);
		s->rep = NULL;
		s->repx = NULL;
		if (tr_pat_nsub(s->pat))
			syn_comm_undo(s);
		return -1;
	}
	s->peermode = 1;
	s->strong = 0;
	s->ppmap = tr_map_new();
	return 0;
}

/* syn_peer_pos for a call of a reduction: its place among its template
 * rank's calls at all the reduction's sites, which must be the call its
 * levels give there. */
static int
group_pos(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    long *j, long *m)
{
	long i = tr_pat_site_index(s->pat, e);
	void **v = tr_itab_get(&s->pgpos, e->rank, s->pgrp, 1);
	int64_t *last;
	struct tr_field op, site;
	int64_t b, g;

	*m = tr_pat_gseq(s->pat, e, (long)e->rank, s->P, s->pcyc, s->psite);
	if (*m <= 0)
		tr_in_die(in, "-T: template rank %lld seq %lld: no levels of "
		    "its reduction at %.*s", (long long)e->rank,
		    (long long)e->seq, (int)e->site.n, e->site.p);
	if (!*v)
		*v = tr_calloc(1, sizeof(long));
	*j = *(long *)*v;
	*(long *)*v = (*j + 1) % *m;
	if (s->psite[*j] != i || s->pcyc[*j] != e->peer) {
		tr_pat_site_call(s->pat, s->psite[*j], &op, &site, &b, &g);
		tr_in_die(in, "-T: template rank %lld seq %lld: its %.*s with "
		    "rank %lld at %.*s is not the call its levels of rank XOR "
		    "2^k give there, %.*s at %.*s with rank %ld: the sites of "
		    "one reduction must take its levels in turn",
		    (long long)e->rank, (long long)e->seq, (int)e->op.n,
		    e->op.p, (long long)e->peer, (int)e->site.n, e->site.p,
		    (int)op.n, op.p, (int)site.n, site.p, s->pcyc[*j]);
	}
	v = tr_itab_get(&s->pglast, e->rank, i, 1);
	if (!*v)
		*v = tr_calloc(2, sizeof(int64_t));
	last = *v;
	last[0] = e->bytes;
	last[1] = e->tag;
	return 1;
}

/* The place of E in its rank's cycle at its site, and the cycle's
 * length M at the template: 1, or 0 if E is no call of a cycle. Checks
 * the template's own peers against the function. */
int
syn_peer_pos(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    long *j, long *m)
{
	size_t n = site_key(s, e);
	long i, k;

	if (!pattern_call(e))
		return 0;
	tr_grow(&s->pcyc, &s->pcyccap, (size_t)(s->P > s->nt ? s->P : s->nt)
	    + 64, sizeof *s->pcyc);
	tr_grow(&s->pinv, &s->pinvcap, s->pcyccap, sizeof *s->pinv);
	tr_grow(&s->psite, &s->psitecap, s->pcyccap, sizeof *s->psite);
	if ((s->pgrp = tr_pat_group(s->pat, e)) >= 0)
		return group_pos(s, in, e, j, m);
	/* one cycle per communicator of a site, each in its own ranks */
	tr_grow(&s->rkey, &s->rkeycap, n + e->op.n + 1 + sizeof e->comm, 1);
	s->rkey[n] = '\0';
	memcpy(s->rkey + n + 1, e->op.p, e->op.n);
	memcpy(s->rkey + n + 1 + e->op.n, &e->comm, sizeof e->comm);
	i = tr_map_get(s->ppmap, s->rkey, n + 1 + e->op.n + sizeof e->comm,
	    1);
	if ((size_t)i >= s->npposn) {
		tr_growz(&s->ppos, &s->pposcap, (size_t)i + 1, sizeof *s->ppos);
		s->npposn = (size_t)i + 1;
	}
	*m = tr_pat_peers(s->pat, e, (long)e->rank, s->P, s->pcyc, 0);
	if (*m <= 0)
		tr_in_die(in, "-T: template rank %lld seq %lld: no cycle of "
		    "peers at %.*s", (long long)e->rank, (long long)e->seq,
		    (int)e->site.n, e->site.p);
	*j = s->ppos[i];
	s->ppos[i] = (*j + 1) % *m;
	if (is_sendrecv(&e->op) && e->root >= 0 &&
	    tr_pat_pairwise(s->pat, e)) {
		if (e->root != e->peer)
			tr_in_die(in, "-T: template rank %lld seq %lld: its "
			    "Sendrecv receives from rank %lld, not from rank "
			    "%lld it sends to, as the site's others do",
			    (long long)e->rank, (long long)e->seq,
			    (long long)e->root, (long long)e->peer);
	} else if (is_sendrecv(&e->op) && e->root >= 0) {
		k = tr_pat_peers(s->pat, e, (long)e->rank, s->P, s->pinv, 1);
		if (k != *m || s->pinv[*j] != e->root)
			tr_in_die(in, "-T: template rank %lld seq %lld: its "
			    "Sendrecv receives from rank %lld, not from the "
			    "rank its peer function sends to it from",
			    (long long)e->rank, (long long)e->seq,
			    (long long)e->root);
	}
	return 1;
}

/* The records target rank T writes for place J of a cycle of M at the
 * template: [*lo, *hi) of its own cycle, the last place taking every
 * place beyond M; peers into s->pcyc, sources into s->pinv. The
 * length of its cycle. */
long
syn_peer_span(struct tr_syn *s, const struct tr_in *in, const struct tr_ev *e,
    long t, long j, long m, long *lo, long *hi)
{
	long n;
	int nbk;

	if (s->pgrp >= 0) {
		/* a reduction's calls at all its sites, in its levels' order */
		n = tr_pat_gseq(s->pat, e, t, s->nt, s->pcyc, s->psite);
		if (n < 0)
			tr_in_die(in, "-T: %.*s: its reduction has no levels "
			    "at %ld ranks", (int)e->site.n, e->site.p, s->nt);
		*lo = j < n ? j : n;
		*hi = j == m - 1 ? n : j + 1 < n ? j + 1 : n;
		return n;
	}
	n = tr_pat_peers(s->pat, e, t, s->nt, s->pcyc, 0);
	if (n < 0)
		tr_in_die(in, "-T: %.*s: its peer function has no meaning at "
		    "%ld ranks", (int)e->site.n, e->site.p, s->nt);
	if (is_sendrecv(&e->op) && e->root >= 0 &&
	    tr_pat_peers(s->pat, e, t, s->nt, s->pinv, 1) != n)
		tr_in_die(in, "-T: %.*s: no sources of its Sendrecvs at %ld "
		    "ranks", (int)e->site.n, e->site.p, s->nt);
	/* A request made at one place of the template's cycle is
	 * completed by its waits: the target's cycle must have the same
	 * places, one request each, and on a grid the same offsets, whose
	 * tags the template's calls hold. */
	nbk = nonblocking(e->op.p, e->op.n);
	if (n != m && nbk)
		tr_in_die(in, "-T: %.*s at %.*s: target rank %ld's cycle has "
		    "%ld peers, template rank %lld's %ld: the requests of a "
		    "nonblocking call are grown only to a cycle as long",
		    (int)e->op.n, e->op.p, (int)e->site.n, e->site.p, t, n,
		    (long long)e->rank, m);
	if (nbk && !s->repx[t] &&
	    tr_pat_shape(s->pat, e, t, s->nt) != tr_pat_shape(s->pat, e,
	    (long)e->rank, s->P))
		tr_in_die(in, "-T: %.*s at %.*s: target rank %ld has other "
		    "offsets of the grid than template rank %lld, whose calls' "
		    "tags would go to other sides: no template rank has its "
		    "place at every site", (int)e->op.n, e->op.p,
		    (int)e->site.n, e->site.p, t, (long long)e->rank);
	*lo = j < n ? j : n;
	*hi = j == m - 1 ? n : j + 1 < n ? j + 1 : n;
	return n;
}

void
syn_peer_rewind(struct tr_syn *s)
{
	size_t i;

	if (s->npposn)
		memset(s->ppos, 0, s->npposn * sizeof *s->ppos);
	for (i = 0; i < s->pgpos.cap; i++)
		if (s->pgpos.s[i].v)
			*(long *)s->pgpos.s[i].v = 0;
	for (i = 0; i < s->pglast.cap; i++)
		free(s->pglast.s[i].v);
	tr_itab_free(&s->pglast);
}

const char *
syn_peer_key(struct tr_syn *s, const struct tmpl *p, long lo, long ii,
    long n)
{
	struct tr_field op, site, prev;
	int64_t b, g;
	size_t pn = p->psite ? strlen(p->psite) : 0;

	/* after the reduction's call before (the last of the cycle before,
	 * for the first), or after the template's call before it */
	if (ii > lo || (p->psite && p->pgrp == s->pgrp))
		tr_pat_site_call(s->pat, s->psite[ii > 0 ? ii - 1 : n - 1], &op,
		    &prev, &b, &g);
	else {
		prev.p = p->psite ? p->psite : "";
		prev.n = pn;
	}
	tr_pat_site_call(s->pat, s->psite[ii], &op, &site, &b, &g);
	tr_grow(&s->gkey, &s->gkeycap, prev.n + site.n + 2, 1);
	memcpy(s->gkey, prev.p, prev.n);
	s->gkey[prev.n] = '>';
	memcpy(s->gkey + prev.n + 1, site.p, site.n);
	s->gkey[prev.n + 1 + site.n] = '\0';
	return s->gkey;
}

void
syn_peer_other(struct tr_syn *s, const struct tr_ev *e, long t, long ii,
    struct tr_ev *x)
{
	long i = s->psite[ii];
	void **v;
	struct tr_ev o;
	int64_t b, g;

	if (s->pgrp < 0 || i == tr_pat_site_index(s->pat, e))
		return;
	o = *e;
	tr_pat_site_call(s->pat, i, &o.op, &o.site, &b, &g);
	if ((v = tr_itab_get(&s->pglast, e->rank, i, 0)) && *v) {
		b = ((int64_t *)*v)[0];
		g = ((int64_t *)*v)[1];
	}
	o.bytes = b;
	o.tag = g;
	x->op = o.op;
	x->site = o.site;
	x->tag = g;
	x->bytes = b > 0 ? rnd64((double)b * syn_byteratio(s, &o.op)) : b;
	syn_peer_tags(s, &o, t, x);
}

void
syn_peer_tags(struct tr_syn *s, const struct tr_ev *e, long t,
    struct tr_ev *x)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);
	int64_t g;

	if (e->tag < 0)
		;	/* MPI_ANY_TAG stays */
	else if (c == TR_MPI_RECV || c == TR_MPI_IRECV) {
		if ((g = tr_pat_tag(s->pat, e, (long)x->peer, t, s->nt)) >= 0)
			x->tag = g;
	} else if ((g = tr_pat_tag(s->pat, e, t, (long)x->peer, s->nt)) >= 0)
		x->tag = g;
	if (c == TR_MPI_SENDRECV && x->root >= 0 && e->req >= 0 &&
	    (g = tr_pat_tag(s->pat, e, (long)x->root, t, s->nt)) >= 0)
		x->req = g;
}

/* What a target rank's pending request at a site of the pattern was
 * made with. */
struct preq {
	long peer;
	int64_t bytes;
};

/* The peer and size target rank T's call gave request REQ at the
 * target into *PEER, *BYTES: 1, or 0 if none is pending. Forgotten
 * once asked. */
int
syn_peer_req(struct tr_syn *s, long t, int64_t req, long *peer,
    int64_t *bytes)
{
	void **v = s->preq.n ? tr_itab_get(&s->preq, t, req, 0) : NULL;
	struct preq *q;

	if (!v)
		return 0;
	q = *v;
	*peer = q->peer;
	*bytes = q->bytes;
	free(q);
	tr_itab_del(&s->preq, t, req);
	return 1;
}

void
syn_peer_keep(struct tr_syn *s, long t, int64_t req, long peer,
    int64_t bytes)
{
	void **v = tr_itab_get(&s->preq, t, req, 1);
	struct preq *q;

	if (!*v)
		*v = tr_malloc(sizeof *q);
	q = *v;
	q->peer = peer;
	q->bytes = bytes;
}
