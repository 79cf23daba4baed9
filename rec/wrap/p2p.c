/* p2p.c - the point-to-point calls (sends, receives, probes), timed
 * around their PMPI twins. */
#include "call.h"

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
