/* wrap.c - the MPI functions, timed around their PMPI twins. */
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "call.h"

/* ---- init and finalize ---- */

REC_API int
MPI_Init(int *argc, char ***argv)
{
	struct call c;
	int rc;

	/* Called by a Fortran MPI_INIT that fwrap.c records. */
	if (rec.owner)
		return PMPI_Init(argc, argv);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init, __builtin_return_address(0), c.cpu);
	return rc;
}

REC_API int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct call c;
	int rc;

	/* Called by a Fortran MPI_INIT that fwrap.c records. */
	if (rec.owner)
		return PMPI_Init_thread(argc, argv, required, provided);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init_thread, __builtin_return_address(0), c.cpu);
	return rc;
}

REC_API int
MPI_Finalize(void)
{
	int rc;
	ENTER(Finalize);

	rec_finish();
	rc = PMPI_Finalize();
	if (ON) {
		LEAVE(Finalize);
		e_.comm = 0;
		put(&e_);
	}
	rec_end();
	return rc;
}

REC_API int
MPI_Abort(MPI_Comm comm, int code)
{
	ENTER(Abort);
	if (ON) {
		LEAVE_OK(Abort);
		e_.comm = rec_comm_id(comm);
		e_.tag = code;
		put(&e_);
	}
	rec_abort();
	return PMPI_Abort(comm, code);
}

REC_API double
MPI_Wtime(void)
{
	rec.wtime++;
	return PMPI_Wtime();
}

REC_API int
MPI_Pcontrol(const int level, ...)
{
	ENTER(Pcontrol);
	if (ON) {
		LEAVE_OK(Pcontrol);
		e_.tag = level;
		put(&e_);
	}
	return MPI_SUCCESS;
}

/* ---- point to point ---- */

#define SEND(name) \
REC_API int \
MPI_##name(const void *buf, int count, MPI_Datatype t, int dest, int tag, \
    MPI_Comm comm) \
{ \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name(buf, count, t, dest, tag, comm); \
	if (ON) { \
		LEAVE(name); \
		p2p(&e_, comm, dest, count, t, tag); \
		put(&e_); \
	} \
	return rc; \
}
SEND(Send)
SEND(Ssend)
SEND(Bsend)
SEND(Rsend)

#define ISEND(name) \
REC_API int \
MPI_##name(const void *buf, int count, MPI_Datatype t, int dest, int tag, \
    MPI_Comm comm, MPI_Request *req) \
{ \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name(buf, count, t, dest, tag, comm, req); \
	if (ON) { \
		LEAVE(name); \
		p2p(&e_, comm, dest, count, t, tag); \
		if (rc == MPI_SUCCESS) \
			e_.req = rec_req_start(*req, req, e_.peer, e_.bytes, \
			    tag, e_.comm, comm, 0); \
		put(&e_); \
	} \
	return rc; \
}
ISEND(Isend)
ISEND(Issend)
ISEND(Ibsend)
ISEND(Irsend)

REC_API int
MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag,
    MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Recv);

	if (!ON)
		return PMPI_Recv(buf, count, t, src, tag, comm, status);
	rc = PMPI_Recv(buf, count, t, src, tag, comm, sp);
	LEAVE(Recv);
	if (rc == MPI_SUCCESS)
		fromstatus(&e_, comm, sp);
	else
		p2p(&e_, comm, src, count, t, tag);
	put(&e_);
	return rc;
}

REC_API int
MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	int rc;
	ENTER(Irecv);

	rc = PMPI_Irecv(buf, count, t, src, tag, comm, req);
	if (ON) {
		LEAVE(Irecv);
		p2p(&e_, comm, src, count, t, tag);
		if (src == MPI_ANY_SOURCE)
			e_.bytes = tbytes(t, count);
		if (rc == MPI_SUCCESS)
			e_.req = rec_req_start(*req, req, e_.peer, e_.bytes,
			    tag, e_.comm, comm, 1);
		put(&e_);
	}
	return rc;
}

REC_API int
MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
    int stag, void *rbuf, int rcount, MPI_Datatype rtype, int src, int rtag,
    MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Sendrecv);

	if (!ON)
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf,
		    rcount, rtype, src, rtag, comm, status);
	rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
	    rtype, src, rtag, comm, sp);
	LEAVE(Sendrecv);
	p2p(&e_, comm, dest, scount, stype, stag);
	sr_recv(&e_, comm, rc == MPI_SUCCESS ? sp : NULL, src);
	put(&e_);
	return rc;
}

REC_API int
MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest,
    int stag, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Sendrecv_replace);

	if (!ON)
		return PMPI_Sendrecv_replace(buf, count, t, dest, stag, src,
		    rtag, comm, status);
	rc = PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag,
	    comm, sp);
	LEAVE(Sendrecv_replace);
	p2p(&e_, comm, dest, count, t, stag);
	sr_recv(&e_, comm, rc == MPI_SUCCESS ? sp : NULL, src);
	put(&e_);
	return rc;
}

REC_API int
MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Probe);

	if (!ON)
		return PMPI_Probe(src, tag, comm, status);
	rc = PMPI_Probe(src, tag, comm, sp);
	LEAVE(Probe);
	if (rc == MPI_SUCCESS)
		fromstatus(&e_, comm, sp);
	put(&e_);
	return rc;
}

REC_API int
MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Iprobe);

	if (!ON)
		return PMPI_Iprobe(src, tag, comm, flag, status);
	rc = PMPI_Iprobe(src, tag, comm, flag, sp);
	LEAVE(Iprobe);
	if (rc == MPI_SUCCESS && *flag)
		fromstatus(&e_, comm, sp);
	else
		e_.comm = rec_comm_id(comm);
	put(&e_);
	return rc;
}

/* Matched probes: the probe's record says what it found, and the
 * receive of that message is a receive from its source. */
REC_API int
MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *m,
    MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Mprobe);

	rc = PMPI_Mprobe(src, tag, comm, m, sp);
	if (ON)
		LEAVE(Mprobe);
	putprobe(&e_, &c_, comm, *m, sp, rc == MPI_SUCCESS);
	return rc;
}

REC_API int
MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *m,
    MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	int rc;
	ENTER(Improbe);

	rc = PMPI_Improbe(src, tag, comm, flag, m, sp);
	if (ON)
		LEAVE(Improbe);
	putprobe(&e_, &c_, comm, *m, sp, rc == MPI_SUCCESS && *flag);
	return rc;
}

REC_API int
MPI_Mrecv(void *buf, int count, MPI_Datatype t, MPI_Message *m,
    MPI_Status *status)
{
	MPI_Message h = *m;
	int rc;
	ENTER(Mrecv);

	rc = PMPI_Mrecv(buf, count, t, m, status);
	if (ON)
		LEAVE(Mrecv);
	putmrecv(&e_, &c_, h, MPI_REQUEST_NULL, NULL, rc);
	return rc;
}

REC_API int
MPI_Imrecv(void *buf, int count, MPI_Datatype t, MPI_Message *m,
    MPI_Request *req)
{
	MPI_Message h = *m;
	int rc;
	ENTER(Imrecv);

	rc = PMPI_Imrecv(buf, count, t, m, req);
	if (ON)
		LEAVE(Imrecv);
	putmrecv(&e_, &c_, h, *req, req, rc);
	return rc;
}

/* ---- completion ---- */

enum { NSTACK = 64 };

/* Copies of the handles (completion overwrites them with null) and a
 * status array when the caller ignores statuses. */
struct many {
	MPI_Request hs[NSTACK], *h;
	MPI_Status ss[NSTACK], *s;
	int hheap, sheap;
};

static int
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

static void
many_free(struct many *m)
{
	if (m->hheap)
		free(m->h);
	if (m->sheap)
		free(m->s);
}

REC_API int
MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	MPI_Request h;
	int rc;
	ENTER(Wait);

	if (!LIVE)
		return PMPI_Wait(req, status);
	h = *req;
	rc = PMPI_Wait(req, sp);
	if (DONE(Wait))
		putmany(&c_, &e_, 1, NULL, &h, req, sizeof *req, sp, 0);
	return rc;
}

REC_API int
MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	MPI_Request h;
	int rc;
	ENTER(Test);

	if (!LIVE)
		return PMPI_Test(req, flag, status);
	h = *req;
	*flag = 0;	/* set by a call that failed in the request */
	rc = PMPI_Test(req, flag, sp);
	if (DONE(Test))
		putmany(&c_, &e_, *flag != 0, NULL, &h, req, sizeof *req, sp,
		    0);
	return rc;
}

REC_API int
MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	struct many m;
	int rc;
	ENTER(Waitall);

	if (!LIVE || many_init(&m, n, reqs, sts) < 0) {
		return PMPI_Waitall(n, reqs, sts);
	}
	rc = PMPI_Waitall(n, reqs, m.s);
	if (DONE(Waitall))
		putmany(&c_, &e_, n, NULL, m.h, reqs, sizeof *reqs, m.s, 1);
	many_free(&m);
	return rc;
}

REC_API int
MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	struct many m;
	int rc;
	ENTER(Testall);

	if (!LIVE || many_init(&m, n, reqs, sts) < 0) {
		return PMPI_Testall(n, reqs, flag, sts);
	}
	rc = PMPI_Testall(n, reqs, flag, m.s);
	/* with MPI_ERR_IN_STATUS, statuses say which completed */
	if (DONE(Testall))
		putmany(&c_, &e_, (rc == MPI_SUCCESS && *flag) ||
		    e_.err == MPI_ERR_IN_STATUS ? n : 0, NULL, m.h, reqs,
		    sizeof *reqs, m.s, 1);
	many_free(&m);
	return rc;
}

REC_API int
MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	struct many m;
	int rc;
	ENTER(Waitany);

	if (!LIVE || many_init(&m, n, reqs, sp) < 0) {
		return PMPI_Waitany(n, reqs, index, status);
	}
	/* A call that failed in a request says which (MPI 3.1, 3.7.5),
	 * one that refused its arguments leaves it. */
	*index = MPI_UNDEFINED;
	rc = PMPI_Waitany(n, reqs, index, sp);
	if (DONE(Waitany))
		putmany(&c_, &e_, *index >= 0 && *index < n, index, m.h, reqs,
		    sizeof *reqs, sp, 0);
	many_free(&m);
	return rc;
}

REC_API int
MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
    MPI_Status *status)
{
	MPI_Status st, *sp = status == MPI_STATUS_IGNORE ? &st : status;
	struct many m;
	int rc;
	ENTER(Testany);

	if (!LIVE || many_init(&m, n, reqs, sp) < 0) {
		return PMPI_Testany(n, reqs, index, flag, status);
	}
	*index = MPI_UNDEFINED;	/* set by a call that failed in a request */
	*flag = 0;
	rc = PMPI_Testany(n, reqs, index, flag, sp);
	if (DONE(Testany))
		putmany(&c_, &e_, *flag && *index >= 0 && *index < n, index,
		    m.h, reqs, sizeof *reqs, sp, 0);
	many_free(&m);
	return rc;
}

REC_API int
MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int idx[],
    MPI_Status sts[])
{
	struct many m;
	int rc;
	ENTER(Waitsome);

	if (!LIVE || many_init(&m, n, reqs, sts) < 0) {
		return PMPI_Waitsome(n, reqs, outcount, idx, sts);
	}
	rc = PMPI_Waitsome(n, reqs, outcount, idx, m.s);
	/* with MPI_ERR_IN_STATUS, statuses say which completed */
	if (DONE(Waitsome))
		putmany(&c_, &e_, someout(&e_, rc, *outcount), idx, m.h, reqs,
		    sizeof *reqs, m.s, 1);
	many_free(&m);
	return rc;
}

REC_API int
MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int idx[],
    MPI_Status sts[])
{
	struct many m;
	int rc;
	ENTER(Testsome);

	if (!LIVE || many_init(&m, n, reqs, sts) < 0) {
		return PMPI_Testsome(n, reqs, outcount, idx, sts);
	}
	rc = PMPI_Testsome(n, reqs, outcount, idx, m.s);
	if (DONE(Testsome))
		putmany(&c_, &e_, someout(&e_, rc, *outcount), idx, m.h, reqs,
		    sizeof *reqs, m.s, 1);
	many_free(&m);
	return rc;
}

/* ---- collectives ---- */

/* A collective and its nonblocking form, recorded by TAIL (coll, or
 * neighbor for the neighborhood collectives). */
#define COLLT(tail, name, iname, params, args, bytes, root) \
REC_API int \
MPI_##name params \
{ \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name args; \
	if (ON) { \
		LEAVE(name); \
		tail(&e_, comm, bytes, root, NULL, MPI_REQUEST_NULL, rc); \
	} \
	return rc; \
} \
REC_API int \
MPI_##iname(ADDREQ params) \
{ \
	int rc; \
	ENTER(iname); \
	rc = PMPI_##iname(ADDARG args); \
	if (ON) { \
		LEAVE(iname); \
		tail(&e_, comm, bytes, root, req, *req, rc); \
	} \
	return rc; \
}
#define COLL(...) COLLT(coll, __VA_ARGS__)
/* MPI_Ifoo takes foo's parameters plus the request. */
#define ADDREQ(...) __VA_ARGS__, MPI_Request *req
#define ADDARG(...) __VA_ARGS__, req

REC_API int
MPI_Barrier(MPI_Comm comm)
{
	int rc;
	ENTER(Barrier);

	rc = PMPI_Barrier(comm);
	if (ON) {
		LEAVE(Barrier);
		coll(&e_, comm, 0, -1, NULL, MPI_REQUEST_NULL, rc);
	}
	return rc;
}

REC_API int
MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	int rc;
	ENTER(Ibarrier);

	rc = PMPI_Ibarrier(comm, req);
	if (ON) {
		LEAVE(Ibarrier);
		coll(&e_, comm, 0, -1, req, *req, rc);
	}
	return rc;
}

#define INPL(b) ((b) == MPI_IN_PLACE)

COLL(Bcast, Ibcast, (void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm),
    (buf, count, t, root, comm), tbytes(t, count), root)
COLL(Reduce, Ireduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, int root, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, root, comm), tbytes(t, count), root)
COLL(Allreduce, Iallreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Scan, Iscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Exscan, Iexscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Gather, Igather, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), root)
COLL(Gatherv, Igatherv, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
    isroot(comm, root) ? tbytes(rtype, tsum(rcounts, vlen(comm))) :
    tbytes(stype, scount), root)
COLL(Scatter, Iscatter, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(rbuf) ? tbytes(stype, scount) : tbytes(rtype, rcount), root)
COLL(Scatterv, Iscatterv, (const void *sbuf, const int scounts[], const int displs[],
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
    MPI_Comm comm),
    (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
    isroot(comm, root) ? tbytes(stype, tsum(scounts, vlen(comm))) :
    tbytes(rtype, rcount), root)
COLL(Allgather, Iallgather, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), -1)
COLL(Allgatherv, Iallgatherv, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, const int rcounts[], const int displs[], MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(rtype, tsum(rcounts, vlen(comm))), -1)
COLL(Alltoall, Ialltoall, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), -1)
COLL(Alltoallv, Ialltoallv, (const void *sbuf, const int scounts[], const int sdispls[],
    MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, tsum(rcounts, vlen(comm))) :
    tbytes(stype, tsum(scounts, vlen(comm))), -1)
COLL(Alltoallw, Ialltoallw, (const void *sbuf, const int scounts[],
    const int sdispls[], const MPI_Datatype stypes[], void *rbuf,
    const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[],
    MPI_Comm comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    INPL(sbuf) ? wbytes(rcounts, rtypes, comm) :
    wbytes(scounts, stypes, comm), -1)
COLL(Reduce_scatter, Ireduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[],
    MPI_Datatype t, MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, rcounts, t, op, comm), tbytes(t, tsum(rcounts, lsize(comm))), -1)
COLL(Reduce_scatter_block, Ireduce_scatter_block, (const void *sbuf, void *rbuf, int rcount,
    MPI_Datatype t, MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, rcount, t, op, comm), tbytes(t, rcount), -1)

/* ---- neighborhood collectives: their messages are not recorded ---- */

#define NEIGH(...) COLLT(neighbor, __VA_ARGS__, -1)
NEIGH(Neighbor_allgather, Ineighbor_allgather, (const void *sbuf, int scount,
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_allgatherv, Ineighbor_allgatherv, (const void *sbuf,
    int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
    const int displs[], MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_alltoall, Ineighbor_alltoall, (const void *sbuf, int scount,
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_alltoallv, Ineighbor_alltoallv, (const void *sbuf,
    const int scounts[], const int sdispls[], MPI_Datatype stype,
    void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    nsum(scounts, NULL, stype, outdegree(comm)))
NEIGH(Neighbor_alltoallw, Ineighbor_alltoallw, (const void *sbuf,
    const int scounts[], const MPI_Aint sdispls[],
    const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    nsum(scounts, stypes, MPI_DATATYPE_NULL, outdegree(comm)))

/* ---- communicators ---- */

/* A new communicator gets its id, and its comm (and cart) record, even
 * when the call is not recorded: every member makes it, so counting
 * calls keeps its id equal on all of them. */
#define NEWCOMM(name, params, args, parent) \
REC_API int \
MPI_##name params \
{ \
	int rc, id = -1, live; \
	ENTER(name); \
	live = KEEP; \
	rc = PMPI_##name args; \
	if (live) \
		id = rc == MPI_SUCCESS ? rec_comm_new(*newcomm) : -1; \
	if (ON) { \
		LEAVE(name); \
		e_.comm = rec_comm_id(parent); \
		e_.req = id; \
		put(&e_); \
	} \
	return rc; \
}

NEWCOMM(Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm), (comm, newcomm), comm)
NEWCOMM(Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm),
    (comm, info, newcomm), comm)
/* Its request completes at once in a replay: the new communicator is
 * made, as by Comm_dup, where the call starts. */
NEWCOMM(Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req),
    (comm, newcomm, req), comm)
NEWCOMM(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),
    (comm, color, key, newcomm), comm)
NEWCOMM(Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info,
    MPI_Comm *newcomm), (comm, type, key, info, newcomm), comm)
NEWCOMM(Comm_create, (MPI_Comm comm, MPI_Group g, MPI_Comm *newcomm),
    (comm, g, newcomm), comm)
/* Made by the group's members only: replays synchronise those. */
NEWCOMM(Comm_create_group, (MPI_Comm comm, MPI_Group g, int tag,
    MPI_Comm *newcomm), (comm, g, tag, newcomm), comm)
NEWCOMM(Cart_create, (MPI_Comm comm, int ndims, const int dims[],
    const int periods[], int reorder, MPI_Comm *newcomm),
    (comm, ndims, dims, periods, reorder, newcomm), comm)
NEWCOMM(Cart_sub, (MPI_Comm comm, const int remain[], MPI_Comm *newcomm),
    (comm, remain, newcomm), comm)
NEWCOMM(Graph_create, (MPI_Comm comm, int n, const int index[],
    const int edges[], int reorder, MPI_Comm *newcomm),
    (comm, n, index, edges, reorder, newcomm), comm)
NEWCOMM(Dist_graph_create, (MPI_Comm comm, int n, const int sources[],
    const int degrees[], const int dests[], const int weights[],
    MPI_Info info, int reorder, MPI_Comm *newcomm),
    (comm, n, sources, degrees, dests, weights, info, reorder, newcomm),
    comm)
NEWCOMM(Dist_graph_create_adjacent, (MPI_Comm comm, int indeg,
    const int sources[], const int sw[], int outdeg, const int dests[],
    const int dw[], MPI_Info info, int reorder, MPI_Comm *newcomm),
    (comm, indeg, sources, sw, outdeg, dests, dw, info, reorder, newcomm),
    comm)
/* Made by two groups, each on its own local communicator: replays
 * synchronise both. */
NEWCOMM(Intercomm_create, (MPI_Comm comm, int lleader, MPI_Comm peer,
    int rleader, int tag, MPI_Comm *newcomm),
    (comm, lleader, peer, rleader, tag, newcomm), comm)
NEWCOMM(Intercomm_merge, (MPI_Comm comm, int high, MPI_Comm *newcomm),
    (comm, high, newcomm), comm)

/* The processes a spawn starts are not recorded (their world's rank
 * files would be the parents'); the intercommunicator's record names
 * only the parents, and the trace says what it lacks. */
NEWCOMM(Comm_spawn, (const char *cmd, char *argv[], int maxprocs,
    MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm, int errs[]),
    (cmd, argv, maxprocs, info, root, comm, newcomm, errs), comm)
NEWCOMM(Comm_spawn_multiple, (int count, char *cmds[], char **argvs[],
    const int maxprocs[], const MPI_Info infos[], int root, MPI_Comm comm,
    MPI_Comm *newcomm, int errs[]),
    (count, cmds, argvs, maxprocs, infos, root, comm, newcomm, errs), comm)

/* MPI_Comm_free and MPI_Comm_disconnect: the communicator is forgotten
 * before its handle can come back for another one, and the record names
 * it. */
#define FREECOMM(name) \
REC_API int \
MPI_##name(MPI_Comm *comm) \
{ \
	int rc, id = -1; \
	ENTER(name); \
	if (KEEP) { \
		id = rec_comm_id(*comm); \
		rec_comm_free(*comm); \
	} \
	rc = PMPI_##name(comm); \
	if (ON) { \
		LEAVE(name); \
		e_.comm = id; \
		put(&e_); \
	} \
	return rc; \
}
FREECOMM(Comm_free)
/* It also waits for the communication pending on the communicator:
 * the replays keep that in its recorded time, as a local call's. */
FREECOMM(Comm_disconnect)

/* ---- persistent requests ---- */

#define PINIT(NAME, BUFQ) \
REC_API int \
MPI_##NAME(BUFQ void *buf, int count, MPI_Datatype t, int peer, int tag, \
    MPI_Comm comm, MPI_Request *req) \
{ \
	int rc; \
	ENTER(NAME); \
	rc = PMPI_##NAME(buf, count, t, peer, tag, comm, req); \
	pinit(&c_, &e_, __builtin_return_address(0), OP_##NAME, comm, peer, \
	    count, t, tag, *req, rc); \
	return rc; \
}
PINIT(Send_init, const)
PINIT(Bsend_init, const)
PINIT(Ssend_init, const)
PINIT(Rsend_init, const)
PINIT(Recv_init, )

REC_API int
MPI_Start(MPI_Request *req)
{
	MPI_Request h;
	int rc;
	ENTER(Start);

	if (!ON)
		return PMPI_Start(req);
	h = *req;
	rc = PMPI_Start(req);
	LEAVE(Start);
	pstart(&e_, OP_Start, 1, &h, req, sizeof *req, rc);
	return rc;
}

REC_API int
MPI_Startall(int n, MPI_Request reqs[])
{
	struct many m;
	int rc;
	ENTER(Startall);

	if (!ON || many_init(&m, n, reqs, NULL) < 0) {
		return PMPI_Startall(n, reqs);
	}
	rc = PMPI_Startall(n, reqs);
	LEAVE(Startall);
	pstart(&e_, OP_Startall, n, m.h, reqs, sizeof *reqs, rc);
	many_free(&m);
	return rc;
}

/* The request is named (req), so that a replay cancels the receive if
 * it is still unmatched there; the outcome is in the status that
 * completes it, which the replay does not read. */
REC_API int
MPI_Cancel(MPI_Request *req)
{
	MPI_Request h = *req;
	int rc;
	ENTER(Cancel);

	if (!ON)
		return PMPI_Cancel(req);
	rc = PMPI_Cancel(req);
	LEAVE(Cancel);
	e_.req = rec_req_id(h, req);
	put(&e_);
	return rc;
}

/* Written for a persistent request only (pers_freed); the tables forget
 * the request, whose handle may come back for another. */
REC_API int
MPI_Request_free(MPI_Request *req)
{
	MPI_Request h = *req;
	int32_t comm;
	int rc;
	ENTER(Request_free);

	rc = PMPI_Request_free(req);
	if (pers_freed(&c_, h, &comm)) {
		LEAVE(Request_free);
		e_.comm = comm;
		put(&e_);
	}
	if (rc == MPI_SUCCESS && KEEP)
		rec_req_free(h, req);
	return rc;
}

/* ---- MPI-IO: blocking calls, which keep their time in a replay ---- */

REC_API int
MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info,
    MPI_File *fh)
{
	int rc;
	ENTER(File_open);

	rc = PMPI_File_open(comm, name, amode, info, fh);
	if (ON) {
		LEAVE(File_open);
		e_.comm = rec_comm_id(comm);
		if (rc == MPI_SUCCESS)
			rec_file_new(*fh, e_.comm);
		put(&e_);
	}
	return rc;
}

REC_API int
MPI_File_close(MPI_File *fh)
{
	MPI_File f = *fh;
	int rc;
	ENTER(File_close);

	rc = PMPI_File_close(fh);
	if (ON) {
		LEAVE(File_close);
		e_.comm = rec_file_comm(f);
		put(&e_);
	}
	if (KEEP)
		rec_file_free(f);
	return rc;
}

REC_API int
MPI_File_sync(MPI_File fh)
{
	int rc;
	ENTER(File_sync);

	rc = PMPI_File_sync(fh);
	if (ON) {
		LEAVE(File_sync);
		e_.comm = rec_file_comm(fh);
		put(&e_);
	}
	return rc;
}

REC_API int
MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype et,
    MPI_Datatype ft, const char *rep, MPI_Info info)
{
	int rc;
	ENTER(File_set_view);

	rc = PMPI_File_set_view(fh, disp, et, ft, rep, info);
	if (ON) {
		LEAVE(File_set_view);
		e_.comm = rec_file_comm(fh);
		put(&e_);
	}
	return rc;
}

/* Reads and writes: the bytes asked for, and the file's communicator. */
#define FILEIO(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, BUFQ void *buf, int count, MPI_Datatype t, \
    MPI_Status *st) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, buf, count, t, st); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(fh); \
		e_.bytes = tbytes(t, count); \
		put(&e_); \
	} \
	return rc; \
}
#define FILEIO_AT(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, MPI_Offset off, BUFQ void *buf, int count, \
    MPI_Datatype t, MPI_Status *st) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, off, buf, count, t, st); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(fh); \
		e_.bytes = tbytes(t, count); \
		put(&e_); \
	} \
	return rc; \
}
FILEIO(read, )
FILEIO(read_all, )
FILEIO(read_shared, )
FILEIO(read_ordered, )
FILEIO(write, const)
FILEIO(write_all, const)
FILEIO(write_shared, const)
FILEIO(write_ordered, const)
FILEIO_AT(read_at, )
FILEIO_AT(read_at_all, )
FILEIO_AT(write_at, const)
FILEIO_AT(write_at_all, const)

/* Nonblocking reads and writes start a request that the completion
 * call names, as a collective's does; the transfer's time shows there. */
#define IFILEIO(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, BUFQ void *buf, int count, MPI_Datatype t, \
    MPI_Request *req) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, buf, count, t, req); \
	if (ON) { \
		LEAVE(File_##name); \
		ifile(&e_, fh, tbytes(t, count), req, *req, rc); \
	} \
	return rc; \
}
#define IFILEIO_AT(name, BUFQ) \
REC_API int \
MPI_File_##name(MPI_File fh, MPI_Offset off, BUFQ void *buf, int count, \
    MPI_Datatype t, MPI_Request *req) \
{ \
	int rc; \
	ENTER(File_##name); \
	rc = PMPI_File_##name(fh, off, buf, count, t, req); \
	if (ON) { \
		LEAVE(File_##name); \
		ifile(&e_, fh, tbytes(t, count), req, *req, rc); \
	} \
	return rc; \
}
IFILEIO(iread, )
IFILEIO(iread_all, )
IFILEIO(iread_shared, )
IFILEIO(iwrite, const)
IFILEIO(iwrite_all, const)
IFILEIO(iwrite_shared, const)
IFILEIO_AT(iread_at, )
IFILEIO_AT(iread_at_all, )
IFILEIO_AT(iwrite_at, const)
IFILEIO_AT(iwrite_at_all, const)

/* ---- one-sided communication ----
 * A window is named by the id of the communicator it was made on and
 * its number on this rank (in tag); a target by its world rank (peer). */

#define WINNEW(name, ARGS, CALL, SIZE) \
REC_API int \
MPI_##name ARGS \
{ \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name CALL; \
	if (rc == MPI_SUCCESS) { \
		int num = KEEP ? rec_win_new(*win, comm) : -1; \
		rec_win_fatal(*win); \
		if (ON) { \
			LEAVE(name); \
			e_.comm = rec_comm_id(comm); \
			e_.tag = num; \
			e_.bytes = SIZE; \
			put(&e_); \
		} \
	} \
	return rc; \
}
WINNEW(Win_create, (void *base, MPI_Aint size, int unit, MPI_Info info,
    MPI_Comm comm, MPI_Win *win), (base, size, unit, info, comm, win),
    (int64_t)size)
WINNEW(Win_allocate, (MPI_Aint size, int unit, MPI_Info info,
    MPI_Comm comm, void *base, MPI_Win *win),
    (size, unit, info, comm, base, win), (int64_t)size)
WINNEW(Win_allocate_shared, (MPI_Aint size, int unit, MPI_Info info,
    MPI_Comm comm, void *base, MPI_Win *win),
    (size, unit, info, comm, base, win), (int64_t)size)
WINNEW(Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win),
    (info, comm, win), 0)

REC_API int
MPI_Win_free(MPI_Win *win)
{
	MPI_Win w = *win;
	int rc;
	ENTER(Win_free);

	rc = PMPI_Win_free(win);
	if (ON) {
		LEAVE(Win_free);
		onwin(&e_, w, -1);
		put(&e_);
	}
	if (rc == MPI_SUCCESS && KEEP)
		rec_win_free(w);
	return rc;
}

/* Transfers: the bytes this rank puts or gets. The atomics that fetch
 * (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) move
 * bytes both ways: those fetched, and in root those sent, none with
 * MPI_NO_OP (an atomic read, as ARMCI-MPI's gets are). */
#define RMAQ(name, ARGS, CALL, TARGET, BYTES, SENT, REQ) \
REC_API int \
MPI_##name ARGS \
{ \
	MPI_Request *rq_ = REQ; \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name CALL; \
	if (ON) { \
		LEAVE(name); \
		onwin(&e_, win, TARGET); \
		e_.bytes = BYTES; \
		e_.root = SENT; \
		if (rq_ && rc == MPI_SUCCESS) \
			e_.req = rec_req_start(*rq_, rq_, e_.peer, e_.bytes, \
			    e_.tag, e_.comm, MPI_COMM_NULL, 0); \
		put(&e_); \
	} \
	return rc; \
}
#define RMA(name, ARGS, CALL, TARGET, BYTES, SENT) \
	RMAQ(name, ARGS, CALL, TARGET, BYTES, SENT, NULL)
#define RRMA(name, ARGS, CALL, TARGET, BYTES, SENT) \
	RMAQ(name, ARGS, CALL, TARGET, BYTES, SENT, req)
#define PUTARGS(Q) (Q void *buf, int count, MPI_Datatype t, int target, \
    MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Win win)
#define PUTCALL (buf, count, t, target, disp, tcount, tt, win)
#define ACCARGS (const void *buf, int count, MPI_Datatype t, int target, \
    MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Op op, MPI_Win win)
#define ACCCALL (buf, count, t, target, disp, tcount, tt, op, win)
#define GACCARGS (const void *buf, int count, MPI_Datatype t, void *rbuf, \
    int rcount, MPI_Datatype rt, int target, MPI_Aint disp, int tcount, \
    MPI_Datatype tt, MPI_Op op, MPI_Win win)
#define GACCCALL (buf, count, t, rbuf, rcount, rt, target, disp, tcount, tt, \
    op, win)
#define PUTARGSR(Q) (Q void *buf, int count, MPI_Datatype t, int target, \
    MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Win win, \
    MPI_Request *req)
#define PUTCALLR (buf, count, t, target, disp, tcount, tt, win, req)
RMA(Put, PUTARGS(const), PUTCALL, target, tbytes(t, count), -1)
RMA(Get, PUTARGS(), PUTCALL, target, tbytes(t, count), -1)
RMA(Accumulate, ACCARGS, ACCCALL, target, tbytes(t, count), -1)
RMA(Get_accumulate, GACCARGS, GACCCALL, target, tbytes(rt, rcount),
    op == MPI_NO_OP ? 0 : tbytes(t, count))
RMA(Fetch_and_op, (const void *buf, void *rbuf, MPI_Datatype t,
    int target, MPI_Aint disp, MPI_Op op, MPI_Win win),
    (buf, rbuf, t, target, disp, op, win), target, tbytes(t, 1),
    op == MPI_NO_OP ? 0 : tbytes(t, 1))
RMA(Compare_and_swap, (const void *buf, const void *cbuf, void *rbuf,
    MPI_Datatype t, int target, MPI_Aint disp, MPI_Win win),
    (buf, cbuf, rbuf, t, target, disp, win), target, tbytes(t, 1),
    tbytes(t, 2))
RRMA(Rput, PUTARGSR(const), PUTCALLR, target, tbytes(t, count), -1)
RRMA(Rget, PUTARGSR(), PUTCALLR, target, tbytes(t, count), -1)
RRMA(Raccumulate, (const void *buf, int count, MPI_Datatype t, int target,
    MPI_Aint disp, int tcount, MPI_Datatype tt, MPI_Op op, MPI_Win win,
    MPI_Request *req), (buf, count, t, target, disp, tcount, tt, op, win,
    req), target, tbytes(t, count), -1)
RRMA(Rget_accumulate, (const void *buf, int count, MPI_Datatype t,
    void *rbuf, int rcount, MPI_Datatype rt, int target, MPI_Aint disp,
    int tcount, MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request *req),
    (buf, count, t, rbuf, rcount, rt, target, disp, tcount, tt, op, win,
    req), target, tbytes(rt, rcount),
    op == MPI_NO_OP ? 0 : tbytes(t, count))

/* Synchronization: the window, and the target of calls that have one. */
#define SYNC(name, ARGS, CALL, TARGET) RMA(name, ARGS, CALL, TARGET, 0, -1)
SYNC(Win_fence, (int assert, MPI_Win win), (assert, win), -1)
SYNC(Win_lock, (int type, int target, int assert, MPI_Win win),
    (type, target, assert, win), target)
SYNC(Win_unlock, (int target, MPI_Win win), (target, win), target)
SYNC(Win_flush, (int target, MPI_Win win), (target, win), target)
SYNC(Win_flush_local, (int target, MPI_Win win), (target, win), target)
SYNC(Win_lock_all, (int assert, MPI_Win win), (assert, win), -1)
SYNC(Win_unlock_all, (MPI_Win win), (win), -1)
SYNC(Win_flush_all, (MPI_Win win), (win), -1)
SYNC(Win_flush_local_all, (MPI_Win win), (win), -1)
SYNC(Win_sync, (MPI_Win win), (win), -1)
SYNC(Win_post, (MPI_Group g, int assert, MPI_Win win), (g, assert, win), -1)
SYNC(Win_start, (MPI_Group g, int assert, MPI_Win win), (g, assert, win), -1)
SYNC(Win_complete, (MPI_Win win), (win), -1)
SYNC(Win_wait, (MPI_Win win), (win), -1)
SYNC(Win_test, (MPI_Win win, int *flag), (win, flag), -1)
