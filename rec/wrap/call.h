/* wrap/call.h - what every wrapper does around its PMPI call, for the C
 * bindings (wrap/) and the Fortran ones (fwrap/): time it, fill a
 * record from its arguments or statuses, append it. Inline: this is the
 * recorder's hot path. */
#ifndef CALL_H
#define CALL_H

#include <stdlib.h>
#include <string.h>

#include "../tab/tab.h"

/* Inlined into each wrapper: gcc's budget for inlining is one file's,
 * and a file of one family of wrappers would leave these out of line. */
#define HOT __attribute__((always_inline))

/* One call in flight. Entry reads the CPU clock (when it does, see
 * rec_cpuat) before the wall clock that starts the call, and exit the
 * other way round, so neither read is counted in the call. OWN: this
 * call claimed the recorder, which it gives back when it returns.
 * TICK: a poll right after a poll that found nothing, timed by the
 * counter (rec_tick). */
struct call {
	int64_t t0, cpu;
	int on, own, tick;
};

/* At the wrapper's return, after its records are in the buffer. */
static inline void
call_end(struct call *c)
{
	if (c->own)
		rec_release();
}

/* For a call not recorded (skipped with -x, or another thread's) that
 * still has tables to keep up: 1 when this thread holds the recorder
 * for it, claiming it if free. */
static inline int
keep(struct call *c)
{
	if (!c->own && rec.on && rec_claim())
		c->own = 1;
	return c->own;
}

/* The last record is a test or probe that found nothing, made just
 * before the call numbered SEQ (merge_poll). */
static inline int
poll_last(int64_t seq)
{
	const struct rrec *l;

	if (!rec.n)
		return 0;
	l = &rec.buf[rec.n - 1];
	return l->kind == RK_EV && rec.poll[l->op] && l->req < 0 &&
	    l->peer < 0 && !l->err && l->seq + 1 == seq;
}

static inline void
enter(struct call *c, int op)
{
	c->own = 0;
	c->on = rec.on && !rec.skip[op];
	if (!c->on)
		return;
	if (!rec_claim()) {
		/* Not MPI calling MPI but another thread's call: a rank's
		 * records are one call at a time, and the trace says that
		 * it lacks this one. */
		if (__atomic_load_n(&rec.owner, __ATOMIC_RELAXED) !=
		    &rec_thread)
			rec.others = 1;
		c->on = 0;
		return;
	}
	c->own = 1;
	/* (the mark may find the buffer full and flush) */
	if (rec.flpend)
		rec_flush_mark();
	rec_flushed();
	c->tick = rec.tscmult && rec.poll[op] && poll_last(rec.seq);
	c->t0 = c->tick ? rec_tick() : rec_now();
	if (rec.cpu) {
		int read;

		c->cpu = rec_cpuat(c->t0, &read);
		if (read)
			c->t0 = c->tick ? rec_tick() : rec_now();
	}
	c->t0 += rec.shift;
}

/* RC: what the PMPI call returned. */
static inline void
leave(struct call *c, int op, void *ra, struct rrec *e, int rc)
{
	/* A poll timed by the clock anchors the counter for the polls
	 * that may follow it (the counter's first read, 10 ns, is then in
	 * the call). */
	int64_t w = c->tick ? rec_tick() : rec.tsc && rec.poll[op] ?
	    rec_anchor() : rec_now();
	int read;

	e->end = w + rec.shift;
	e->kind = RK_EV;
	e->op = op;
	e->start = c->t0;
	e->cpu = -1;
	if (rec.cpu) {
		e->cpu = rec_burst(c->cpu);
		rec.lastcpu = rec_cpuat(w, &read);
	}
	/* A flush since enter's reading was inside the call, in no burst
	 * (enter left none pending from before). */
	rec.flushcpu = 0;
	rec.addcpu = 0;
	/* A flush this call made before it ended (the comm record of its
	 * new communicator found the buffer full) kept the next two
	 * sequence numbers for its mark, which is written after this
	 * record, at the next call: this record takes the first of them,
	 * the mark the two after, or a reader finds them out of order. The
	 * flush is moved to the call's end, in time too, the call keeping
	 * its own duration: a mark inside it, written after it, was cut to
	 * nothing at its end, and the call took the flush's time as MPI's.
	 * Its CPU time is the call's, as said above. */
	if (__builtin_expect(rec.flpend, 0) && rec.flseq + 2 == rec.seq) {
		int64_t d = rec.fl1 - rec.fl0;

		rec.fl1 = e->end;
		e->end -= d;
		rec.fl0 = e->end;
		e->seq = rec.flseq++;
		rec.seq++;
	} else
		e->seq = rec.seq++;
	e->site = (uintptr_t)ra;
	e->peer = e->tag = e->comm = e->root = -1;
	e->bytes = 0;
	e->req = -1;
	e->wtime = 0;
	e->err = __builtin_expect(rc == MPI_SUCCESS, 1) ? 0 : rec_fail(rc);
}

/* A test or probe that found nothing, right after another with less
 * than rec.pollgap of work between them (CPU time, or wall time without
 * CPU sampling), joins that record instead of making its own. Polling
 * loops, even those that alternate calls (hpcc's RandomAccess tests its
 * send, then its receives), make 99 % of some traces and most of their
 * recording cost. Nothing is lost in the sums: the record keeps the
 * polls' time inside MPI as its duration, ending where the last one
 * ended, and the work between them goes to the burst before it (its
 * cpu, and its wall gap), so replays and profiles count the same
 * computation and the same MPI time. It is named after the first call. */
static inline int
merge_poll(const struct rrec *e)
{
	struct rrec *l;
	int64_t in;

	if (!rec.poll[e->op] || e->req >= 0 || e->peer >= 0 || e->err ||
	    !poll_last(e->seq))
		return 0;
	l = &rec.buf[rec.n - 1];
	if ((rec.cpu ? e->cpu : e->start - l->end) >= rec.pollgap)
		return 0;
	in = (l->end - l->start) + (e->end - e->start);
	l->end = e->end;
	l->start = e->end - in;
	if (rec.cpu)
		l->cpu += e->cpu;
	rec.seq = e->seq;
	rec.polls++;
	return 1;
}

static inline void
put(const struct rrec *e)
{
	if (!merge_poll(e)) {
		*rec_slot() = *e;
		rec_commit();
	}
	/* A flush in rec_slot, after leave's reading. */
	rec_flushed();
}

#define ENTER(o) struct call c_ __attribute__((cleanup(call_end))); \
	struct rrec e_; enter(&c_, OP_##o)
#define KEEP keep(&c_)
/* A wrapper that records nothing but keeps tables. */
#define UNTIMED struct call c_ __attribute__((cleanup(call_end))) = { 0 }
/* The wrapper's rc holds what its PMPI call returned. */
#define LEAVE(o) leave(&c_, OP_##o, __builtin_return_address(0), &e_, rc)
/* For a call that returns nothing, or has not returned yet (MPI_Abort) */
#define LEAVE_OK(o) leave(&c_, OP_##o, __builtin_return_address(0), &e_, \
	MPI_SUCCESS)
#define ON (c_.on)
/* A completion: finish, in the wrapper (its return address). */
#define DONE(o) finish(&c_, OP_##o, __builtin_return_address(0), &e_, rc)
/* It has requests to keep: recorded, or recording on (unrec). */
#define LIVE (c_.on || rec.on)

static inline int64_t
tbytes(MPI_Datatype t, int64_t n)
{
	int s = 0;

	if (n <= 0 || t == MPI_DATATYPE_NULL)
		return 0;
	PMPI_Type_size(t, &s);
	return (int64_t)s * n;
}

/* The first N counts of C, summed. */
static inline int64_t
tsum(const int *c, int n)
{
	int i;
	int64_t s = 0;

	if (!c)
		return 0;
	for (i = 0; i < n; i++)
		s += c[i];
	return s;
}

/* How many counts a v-collective's arrays hold: one per rank of the
 * group it exchanges with, on an intercommunicator the remote one
 * (reading the local group's size there runs past a shorter array). */
static inline int
vlen(MPI_Comm comm)
{
	int inter = 0, n = 0;

	PMPI_Comm_test_inter(comm, &inter);
	if (inter)
		PMPI_Comm_remote_size(comm, &n);
	else
		PMPI_Comm_size(comm, &n);
	return n;
}

static inline int
lsize(MPI_Comm comm)
{
	int n = 0;

	PMPI_Comm_size(comm, &n);
	return n;
}

/* A one-sided call's window (comm and, in tag, its number on this rank)
 * and the world rank of its target. */
static inline void
onwin(struct rrec *e, MPI_Win w, int target)
{
	struct rwin k;

	if (!rec_win(w, target, &k))
		return;
	e->comm = k.comm;
	e->tag = k.num;
	e->peer = k.world;
}

/* The bytes of an MPI_Alltoallw side: a count and a type per rank. */
static inline int64_t
wbytes(const int *c, const MPI_Datatype *t, MPI_Comm comm)
{
	int n = vlen(comm), i;
	int64_t s = 0;

	if (!c || !t)
		return 0;
	for (i = 0; i < n; i++)
		s += tbytes(t[i], c[i]);
	return s;
}

/* The ranks a neighborhood collective on COMM sends to. */
static inline int
outdegree(MPI_Comm comm)
{
	int st = MPI_UNDEFINED, n = 0, me, in, w;

	PMPI_Topo_test(comm, &st);
	if (st == MPI_CART) {
		PMPI_Cartdim_get(comm, &n);
		return 2 * n;
	}
	if (st == MPI_GRAPH) {
		PMPI_Comm_rank(comm, &me);
		PMPI_Graph_neighbors_count(comm, me, &n);
	} else if (st == MPI_DIST_GRAPH)
		PMPI_Dist_graph_neighbors_count(comm, &in, &n, &w);
	return n;
}

/* Counts (and types, for the w form) over the N ranks sent to. */
static inline int64_t
nsum(const int *c, const MPI_Datatype *ts, MPI_Datatype t, int n)
{
	int64_t s = 0;
	int i;

	for (i = 0; c && i < n; i++)
		s += tbytes(ts ? ts[i] : t, c[i]);
	return s;
}

static inline int
myrank(MPI_Comm comm)
{
	int r = -1;

	PMPI_Comm_rank(comm, &r);
	return r;
}

/* Whether this rank is a rooted collective's root, whose arrays are
 * significant: on an intercommunicator the one that passes MPI_ROOT
 * (ROOT elsewhere names a rank of the other group, and a leaf whose own
 * rank is that number has no array to read). */
static inline int
isroot(MPI_Comm comm, int root)
{
	int inter = 0;

	PMPI_Comm_test_inter(comm, &inter);
	return inter ? root == MPI_ROOT : myrank(comm) == root;
}

static inline void
p2p(struct rrec *e, MPI_Comm comm, int peer, int count, MPI_Datatype t,
    int tag)
{
	e->comm = rec_comm_id(comm);
	e->peer = rec_world(comm, peer);
	e->bytes = peer == MPI_PROC_NULL ? 0 : tbytes(t, count);
	e->tag = tag;
}

static inline int64_t
stbytes(const MPI_Status *st)
{
	int n = 0;

	PMPI_Get_count(st, MPI_BYTE, &n);
	return n == MPI_UNDEFINED || n < 0 ? 0 : n;
}

static inline void
fromstatus(struct rrec *e, MPI_Comm comm, const MPI_Status *st)
{
	e->comm = rec_comm_id(comm);
	e->peer = rec_world(comm, st->MPI_SOURCE);
	e->tag = st->MPI_SOURCE == MPI_PROC_NULL ? -1 : st->MPI_TAG;
	e->bytes = e->peer < 0 ? 0 : stbytes(st);
}

/* After MPI_Mprobe or MPI_Improbe (FOUND: a message, whose status is
 * ST): the message is kept for its receive, and the probe's record (C->on:
 * the call is recorded) says what it found. */
static inline void
putprobe(struct rrec *e, struct call *c, MPI_Comm comm, MPI_Message m,
    const MPI_Status *st, int found)
{
	int on = c->on;

	if (found && keep(c)) {
		fromstatus(e, comm, st);
		rec_msg_new(m, e, comm);
	} else if (on)
		e->comm = rec_comm_id(comm);
	if (on)
		put(e);
}

/* After MPI_Mrecv, or MPI_Imrecv (SLOT not NULL), of the message H a
 * probe matched: the message is forgotten, and the record (C->on) is a
 * receive from the source the probe found, with its tag. */
static inline void
putmrecv(struct rrec *e, struct call *c, MPI_Message h, MPI_Request req,
    const void *slot, int rc)
{
	struct rmsg q;
	int on = c->on;

	if (!keep(c) || !rec_msg_take(h, &q)) {
		if (on)
			put(e);
		return;
	}
	if (!on)
		return;
	e->peer = q.peer;
	e->tag = q.tag;
	e->comm = q.comm;
	e->bytes = q.bytes;
	if (slot && rc == MPI_SUCCESS)
		e->req = rec_req_start(req, slot, q.peer, q.bytes, q.tag,
		    q.comm, q.c, 1);
	put(e);
}

/* The receive half of a Sendrecv: its source in root and the tag it got
 * in req, since a program may send with one tag and receive with
 * another (FFTW's transposes do), and a replay must match them. ST is
 * NULL when the call failed. */
static inline void
sr_recv(struct rrec *e, MPI_Comm comm, const MPI_Status *st, int src)
{
	e->root = rec_world(comm, st ? st->MPI_SOURCE : src);
	e->req = st && st->MPI_SOURCE != MPI_PROC_NULL && st->MPI_TAG >= 0 ?
	    st->MPI_TAG : -1;
}

/* Fills E from the request that completed with status ST; 0 when the
 * request is not one of ours (a persistent one not started while
 * recording, generalized, or null). */
static inline int
done(struct rrec *e, MPI_Request h, const void *slot,
    const MPI_Status *st)
{
	struct rreq q;

	if (h == MPI_REQUEST_NULL || !rec_req_done(h, slot, &q))
		return 0;
	e->req = q.id;
	e->comm = q.comm;
	e->tag = q.tag;
	e->peer = -1;
	e->root = -1;
	e->bytes = q.bytes;
	if (q.recv == 1) {
		e->peer = rec_req_world(&q, st->MPI_SOURCE);
		e->tag = e->peer < 0 ? -1 : st->MPI_TAG;
		e->bytes = e->peer < 0 ? 0 : stbytes(st);
	} else if (q.recv == 0)
		e->peer = q.peer;
	else
		e->root = q.peer;
	rec_req_forget(&q);
	return 1;
}

/* A completion call that is not recorded (left out with -x, or another
 * thread's recorder claimed when it began) still completes requests:
 * 1 when this thread now holds the recorder to forget them, with E's
 * err the class of RC that putmany reads. Otherwise each would stay in
 * the table for ever, and with a receive's the entry of its
 * communicator, freed or not. */
static inline int
unrec(struct call *c, struct rrec *e, int rc)
{
	if (!keep(c))
		return 0;
	e->err = rc == MPI_SUCCESS ? 0 : rec_errclass(rc);
	return 1;
}

/* At a completion call's return: its record begun if it is recorded,
 * else unrec; 1 when the requests it completed are to be done
 * (putmany). */
static inline HOT int
finish(struct call *c, int op, void *ra, struct rrec *e, int rc)
{
	if (!c->on)
		return unrec(c, e, rc);
	leave(c, op, ra, e, rc);
	return 1;
}

/* How many requests MPI_Waitsome or MPI_Testsome completed, by what it
 * returned (RC, as E's err) and its OUTCOUNT: with MPI_ERR_IN_STATUS
 * the statuses say which. */
static inline int
someout(const struct rrec *e, int rc, int outcount)
{
	return (rc == MPI_SUCCESS || e->err == MPI_ERR_IN_STATUS) &&
	    outcount != MPI_UNDEFINED ? outcount : 0;
}

/* One record per completed request, all with the call's seq and times;
 * the CPU burst goes with the first. A call that failed in its statuses
 * (MPI_ERR_IN_STATUS) says per request what happened: an ev for one
 * that succeeded, a fail with its own class for one that failed, none
 * for one not completed (MPI_ERR_PENDING), so that a replay matches the
 * messages they took; N 0, a call that completed none, is its record
 * alone. A call not recorded (C->on 0, after unrec) forgets the same
 * requests and writes nothing. */
static inline void
putmany(struct call *c, struct rrec *e, int n, const int *idx,
    const MPI_Request *h, const void *slots, size_t slotsz,
    const MPI_Status *st, int ststride)
{
	int k, any = 0, each = ststride && e->err == MPI_ERR_IN_STATUS;
	struct rrec base = *e;
	struct rreq q;

	/* A call of many requests that failed otherwise than in their
	 * statuses (MPI_ERR_IN_STATUS) refused its arguments: it completed
	 * none, and its statuses are as they were, not the requests'. */
	if (ststride && e->err && e->err != MPI_ERR_IN_STATUS) {
		if (c->on)
			put(e);
		return;
	}
	for (k = 0; k < n; k++) {
		int i = idx ? idx[k] : k;
		const MPI_Status *sk = &st[ststride ? k : 0];
		const void *slot = (const char *)slots + (size_t)i * slotsz;

		*e = base;
		if (__builtin_expect(each, 0)) {
			e->err = sk->MPI_ERROR == MPI_SUCCESS ? 0 :
			    rec_errclass(sk->MPI_ERROR);
			if (e->err == MPI_ERR_PENDING)
				continue;
		}
		if (!c->on) {
			if (h[i] != MPI_REQUEST_NULL &&
			    rec_req_done(h[i], slot, &q))
				rec_req_forget(&q);
			continue;
		}
		if (!done(e, h[i], slot, sk))
			continue;
		if (any)
			e->cpu = rec.cpu ? 0 : -1;
		any = 1;
		put(e);
	}
	if (!any && c->on)
		put(&base);
}

/* A persistent request made: its record and, even when the call is not
 * recorded, what each MPI_Start of it will need. Like MPI_Irecv, a
 * receive from any source counts the bytes it can take. */
static inline HOT void
pinit(struct call *c, struct rrec *e, void *ra, int op, MPI_Comm comm,
    int peer, int count, MPI_Datatype t, int tag, MPI_Request h, int rc)
{
	struct rrec p;

	if (!keep(c))
		return;
	p2p(&p, comm, peer, count, t, tag);
	if (peer == MPI_ANY_SOURCE)
		p.bytes = tbytes(t, count);
	if (rc == MPI_SUCCESS)
		rec_pers_new(h, op, &p, comm, c->on);
	if (!c->on)
		return;
	leave(c, op, ra, e, rc);
	e->peer = p.peer;
	e->bytes = p.bytes;
	e->tag = p.tag;
	e->comm = p.comm;
	put(e);
}

/* Requests H[0..N) started by MPI_Start (OP_Start) or MPI_Startall: one
 * record per request, as its MPI_*_init said, with the call's seq and
 * times and the CPU burst with the first; a request made otherwise
 * (MPI-4 persistent collectives) is said to be missing. */
static inline void
pstart(struct rrec *e, int op, int n, const MPI_Request *h,
    const void *slots, size_t slotsz, int rc)
{
	struct rrec base = *e;
	const struct rpers *p;
	int k, any = 0;

	for (k = 0; rc == MPI_SUCCESS && k < n; k++) {
		if (h[k] == MPI_REQUEST_NULL || !(p = rec_pers_find(h[k]))) {
			rec_unrecorded(UNREC_PERSIST);
			continue;
		}
		*e = base;
		if (any)
			e->cpu = rec.cpu ? 0 : -1;
		any = 1;
		e->op = (uint16_t)((op == OP_Start ? OP_Start_Send_init :
		    OP_Startall_Send_init) + p->op - OP_Send_init);
		e->peer = p->peer;
		e->bytes = p->bytes;
		e->tag = p->tag;
		e->comm = p->comm;
		e->req = rec_pers_start(h[k], (const char *)slots +
		    (size_t)k * slotsz, p);
		put(e);
	}
	if (!any)
		put(&base);
}

/* MPI_Request_free of H: 1, with its communicator's id in *COMM, if H
 * is a persistent request whose MPI_*_init was written, for the call
 * to be written too, so that a replay lets go of a communicator freed
 * before the request (MPI 4.1, 6.4.3) once its last request is. Other
 * requests are not written: freeing one in flight forgets it, as
 * nothing will complete it. */
static inline int
pers_freed(const struct call *c, MPI_Request h, int32_t *comm)
{
	const struct rpers *p;

	if (!c->on || !(p = rec_pers_find(h)) || !p->shown)
		return 0;
	*comm = p->comm;
	return 1;
}

/* The common tail: comm id, bytes, root as a world rank (-1 if none),
 * and for the nonblocking forms (slot not NULL), the request h. */
static inline HOT void
coll(struct rrec *e, MPI_Comm comm, int64_t bytes, int root,
    const void *slot, MPI_Request h, int rc)
{
	e->comm = rec_comm_id(comm);
	e->bytes = bytes;
	e->root = root < 0 ? -1 : rec_world(comm, root);
	if (slot && rc == MPI_SUCCESS)
		e->req = rec_req_start(h, slot, e->root, bytes, -1, e->comm,
		    comm, 2);
	if (e->comm > 1 && rec_comm_inter(comm))
		rec_unrecorded(UNREC_INTER);
	put(e);
}

/* A nonblocking file read or write: the file's communicator, the bytes
 * asked for, and the request, which completes as a collective's does
 * (no peer). */
static inline void
ifile(struct rrec *e, MPI_File fh, int64_t bytes, const void *slot,
    MPI_Request h, int rc)
{
	e->comm = rec_file_comm(fh);
	e->bytes = bytes;
	if (rc == MPI_SUCCESS)
		e->req = rec_req_start(h, slot, -1, bytes, -1, e->comm,
		    MPI_COMM_NULL, 2);
	put(e);
}

/* A neighborhood collective, recorded as coll() records the others. On
 * a Cartesian communicator whose cart record was written the replays
 * know its messages; on a graph they do not, and are told so. */
static inline void
neighbor(struct rrec *e, MPI_Comm comm, int64_t bytes, int root,
    const void *slot, MPI_Request h, int rc)
{
	if (!rec_comm_gridded(comm))
		rec_unrecorded(UNREC_NEIGHBOR);
	coll(e, comm, bytes, root, slot, h, rc);
}

/* The record of MPI_Init, timed by the caller. */
static inline void
initrec(struct call *c, int op, void *ra, int64_t cpu0)
{
	struct rrec e;

	if (!rec.on)
		return;
	c->on = 1;
	c->tick = 0;
	leave(c, op, ra, &e, MPI_SUCCESS);
	/* What ran before MPI_Init is the first compute burst. */
	e.cpu = rec.cpu ? cpu0 : -1;
	e.comm = 0;
	put(&e);
}

enum { NSTACK = 64 };

/* Copies of the handles (completion overwrites them with null) and a
 * status array when the caller ignores statuses. */
struct many {
	MPI_Request hs[NSTACK], *h;
	MPI_Status ss[NSTACK], *s;
	int hheap, sheap;
};

static inline int
many_init(struct many *m, int n, const MPI_Request *reqs, MPI_Status *st)
{
	m->hheap = m->sheap = 0;
	m->h = m->hs;
	m->s = st;
	if (n < 0)
		n = 0;
	if (n > NSTACK) {
		m->h = malloc(n * sizeof *m->h);
		if (!m->h)
			return -1;
		m->hheap = 1;
	}
	memcpy(m->h, reqs, n * sizeof *m->h);
	if (st == MPI_STATUSES_IGNORE) {
		m->s = m->ss;
		if (n > NSTACK) {
			m->s = malloc(n * sizeof *m->s);
			if (!m->s) {
				free(m->h);
				m->hheap = 0;
				return -1;
			}
			m->sheap = 1;
		}
	}
	return 0;
}

static inline void
many_free(struct many *m)
{
	if (m->hheap)
		free(m->h);
	if (m->sheap)
		free(m->s);
}

#endif
