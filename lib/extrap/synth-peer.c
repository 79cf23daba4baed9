/* synth-peer.c - a template off any grid grown by the peer functions of
 * (rank, P) that explain its point-to-point call sites (tr-pattern(1)'s
 * candidates): each cycle of a site, written at the target with the
 * peers the function gives there, as many as it gives. */
#include <stdio.h>

#include "synth-int.h"

/* 1 if E is a call whose peer tr_pat keeps (a blocking point-to-point
 * call on the world); dies on a nonblocking one, whose completions a
 * cycle of another length could not pair. */
static int
pattern_call(const struct tr_in *in, const struct tr_ev *e)
{
	int coll, c = tr_mpi_class(e->op.p, e->op.n, &coll);

	if (e->peer < 0 || (c != TR_MPI_SEND && c != TR_MPI_SSEND &&
	    c != TR_MPI_RECV && c != TR_MPI_SENDRECV && c != TR_MPI_ISEND &&
	    c != TR_MPI_IRECV))
		return 0;
	if (c == TR_MPI_ISEND || c == TR_MPI_IRECV)
		tr_in_die(in, "-T: template rank %lld seq %lld: %.*s off a "
		    "grid: nonblocking calls are grown only on a grid",
		    (long long)e->rank, (long long)e->seq, (int)e->op.n,
		    e->op.p);
	return 1;
}

/* 1 if two ranks, of classes CA and CB with cycles of LA and LB at the
 * NS sites, are in one class at every site and call at the same. */
static int
alike(size_t ns, const int *ca, const long *la, const int *cb,
    const long *lb)
{
	size_t i;

	for (i = 0; i < ns; i++)
		if (ca[i] != cb[i] || la[i] < 0 || lb[i] < 0 ||
		    (la[i] > 0) != (lb[i] > 0))
			return 0;
	return 1;
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
	int *ct, *cq;
	long *lt, *lq;

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
	/* A target rank follows a template rank in the same class at every
	 * site, with calls at the same sites: the ranks of a class in turn,
	 * so that followers take the noise of several. */
	ct = tr_calloc(ns + 1, sizeof *ct);
	cq = tr_calloc((size_t)P * (ns + 1), sizeof *cq);
	lt = tr_calloc(ns + 1, sizeof *lt);
	lq = tr_calloc((size_t)P * (ns + 1), sizeof *lq);
	s->rep = tr_calloc((size_t)nt, sizeof *s->rep);
	for (q = 0; q < P; q++)
		tr_pat_class(s->pat, q, P, cq + q * (long)(ns + 1),
		    lq + q * (long)(ns + 1));
	for (t = 0; t < nt; t++) {
		long nm = 0, want;

		tr_pat_class(s->pat, t, nt, ct, lt);
		for (q = 0; q < P; q++)
			nm += alike(ns, ct, lt, cq + q * (long)(ns + 1),
			    lq + q * (long)(ns + 1));
		/* the (t mod nm)-th of the nm template ranks alike */
		want = nm ? t % nm : 0;
		s->rep[t] = -1;
		for (q = 0; q < P && nm && s->rep[t] < 0; q++)
			if (alike(ns, ct, lt, cq + q * (long)(ns + 1),
			    lq + q * (long)(ns + 1)) && want-- == 0)
				s->rep[t] = q;
		if (s->rep[t] < 0) {
			snprintf(why, wn, "no template rank has the peers' "
			    "classes of target rank %ld", t);
			break;
		}
	}
	free(ct);
	free(cq);
	free(lt);
	free(lq);
	if (t < nt) {
		free(s->rep);
		s->rep = NULL;
		if (tr_pat_nsub(s->pat))
			syn_comm_undo(s);
		return -1;
	}
	s->peermode = 1;
	s->strong = 0;
	s->ppmap = tr_map_new();
	return 0;
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

	if (!pattern_call(in, e))
		return 0;
	tr_grow(&s->pcyc, &s->pcyccap, (size_t)(s->P > s->nt ? s->P : s->nt)
	    + 64, sizeof *s->pcyc);
	tr_grow(&s->pinv, &s->pinvcap, s->pcyccap, sizeof *s->pinv);
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
	if (is_sendrecv(&e->op) && e->root >= 0) {
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
	long n = tr_pat_peers(s->pat, e, t, s->nt, s->pcyc, 0);

	if (n < 0)
		tr_in_die(in, "-T: %.*s: its peer function has no meaning at "
		    "%ld ranks", (int)e->site.n, e->site.p, s->nt);
	if (is_sendrecv(&e->op) && e->root >= 0 &&
	    tr_pat_peers(s->pat, e, t, s->nt, s->pinv, 1) != n)
		tr_in_die(in, "-T: %.*s: no sources of its Sendrecvs at %ld "
		    "ranks", (int)e->site.n, e->site.p, s->nt);
	*lo = j < n ? j : n;
	*hi = j == m - 1 ? n : j + 1 < n ? j + 1 : n;
	return n;
}

