/* p2p.c - the Fortran point-to-point calls (sends, receives, probes). */
#include "fwrap.h"

#define FSEND(lc, UC, name) \
REC_API void \
mpi_##lc##_(void *buf, F *count, F *t, F *dest, F *tag, F *comm, F *ierr) \
{ \
	REAL(lc); \
	ENTER(name); \
	real_(buf, count, t, dest, tag, comm, ierr); \
	if (ON) { \
		LEAVE(name); \
		p2p(&e_, COMM(comm), *dest, *count, TYPE(t), *tag); \
		put(&e_); \
	} \
} \
ALIAS(lc, UC)
FSEND(send, SEND, Send)
FSEND(ssend, SSEND, Ssend)
FSEND(bsend, BSEND, Bsend)
FSEND(rsend, RSEND, Rsend)

#define FISEND(lc, UC, name) \
REC_API void \
mpi_##lc##_(void *buf, F *count, F *t, F *dest, F *tag, F *comm, F *req, \
    F *ierr) \
{ \
	REAL(lc); \
	ENTER(name); \
	real_(buf, count, t, dest, tag, comm, req, ierr); \
	if (ON) { \
		LEAVE(name); \
		p2p(&e_, COMM(comm), *dest, *count, TYPE(t), *tag); \
		if (*ierr == MPI_SUCCESS) \
			e_.req = rec_req_start(PMPI_Request_f2c(*req), req, \
			    e_.peer, e_.bytes, *tag, e_.comm, COMM(comm), 0); \
		put(&e_); \
	} \
} \
ALIAS(lc, UC)
FISEND(isend, ISEND, Isend)
FISEND(issend, ISSEND, Issend)
FISEND(ibsend, IBSEND, Ibsend)
FISEND(irsend, IRSEND, Irsend)

REC_API void
mpi_recv_(void *buf, F *count, F *t, F *src, F *tag, F *comm, F *st,
    F *ierr)
{
	REAL(recv);
	STATUS(st);
	ENTER(Recv);

	if (!ON) {
		real_(buf, count, t, src, tag, comm, st, ierr);
		return;
	}
	real_(buf, count, t, src, tag, comm, sp, ierr);
	LEAVE(Recv);
	if (*ierr == MPI_SUCCESS)
		fromstatus(&e_, COMM(comm), cstatus(sp, &cs_));
	else
		p2p(&e_, COMM(comm), *src, *count, TYPE(t), *tag);
	put(&e_);
}
ALIAS(recv, RECV)

REC_API void
mpi_irecv_(void *buf, F *count, F *t, F *src, F *tag, F *comm, F *req,
    F *ierr)
{
	REAL(irecv);
	ENTER(Irecv);

	real_(buf, count, t, src, tag, comm, req, ierr);
	if (ON) {
		LEAVE(Irecv);
		p2p(&e_, COMM(comm), *src, *count, TYPE(t), *tag);
		if (*src == MPI_ANY_SOURCE)
			e_.bytes = tbytes(TYPE(t), *count);
		if (*ierr == MPI_SUCCESS)
			e_.req = rec_req_start(PMPI_Request_f2c(*req), req,
			    e_.peer, e_.bytes, *tag, e_.comm, COMM(comm), 1);
		put(&e_);
	}
}
ALIAS(irecv, IRECV)

REC_API void
mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag,
    void *rbuf, F *rcount, F *rtype, F *src, F *rtag, F *comm, F *st,
    F *ierr)
{
	REAL(sendrecv);
	STATUS(st);
	ENTER(Sendrecv);

	if (!ON) {
		real_(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src,
		    rtag, comm, st, ierr);
		return;
	}
	real_(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
	    comm, sp, ierr);
	LEAVE(Sendrecv);
	p2p(&e_, COMM(comm), *dest, *scount, TYPE(stype), *stag);
	sr_recv(&e_, COMM(comm), *ierr == MPI_SUCCESS ? cstatus(sp, &cs_) :
	    NULL, *src);
	put(&e_);
}
ALIAS(sendrecv, SENDRECV)

REC_API void
mpi_sendrecv_replace_(void *buf, F *count, F *t, F *dest, F *stag, F *src,
    F *rtag, F *comm, F *st, F *ierr)
{
	REAL(sendrecv_replace);
	STATUS(st);
	ENTER(Sendrecv_replace);

	if (!ON) {
		real_(buf, count, t, dest, stag, src, rtag, comm, st, ierr);
		return;
	}
	real_(buf, count, t, dest, stag, src, rtag, comm, sp, ierr);
	LEAVE(Sendrecv_replace);
	p2p(&e_, COMM(comm), *dest, *count, TYPE(t), *stag);
	sr_recv(&e_, COMM(comm), *ierr == MPI_SUCCESS ? cstatus(sp, &cs_) :
	    NULL, *src);
	put(&e_);
}
ALIAS(sendrecv_replace, SENDRECV_REPLACE)

REC_API void
mpi_probe_(F *src, F *tag, F *comm, F *st, F *ierr)
{
	REAL(probe);
	STATUS(st);
	ENTER(Probe);

	if (!ON) {
		real_(src, tag, comm, st, ierr);
		return;
	}
	real_(src, tag, comm, sp, ierr);
	LEAVE(Probe);
	if (*ierr == MPI_SUCCESS)
		fromstatus(&e_, COMM(comm), cstatus(sp, &cs_));
	put(&e_);
}
ALIAS(probe, PROBE)

REC_API void
mpi_iprobe_(F *src, F *tag, F *comm, F *flag, F *st, F *ierr)
{
	REAL(iprobe);
	STATUS(st);
	ENTER(Iprobe);

	if (!ON) {
		real_(src, tag, comm, flag, st, ierr);
		return;
	}
	real_(src, tag, comm, flag, sp, ierr);
	LEAVE(Iprobe);
	if (*ierr == MPI_SUCCESS && *flag)
		fromstatus(&e_, COMM(comm), cstatus(sp, &cs_));
	else
		e_.comm = rec_comm_id(COMM(comm));
	put(&e_);
}
ALIAS(iprobe, IPROBE)

/* Matched probes (see wrap/p2p.c). */
REC_API void
mpi_mprobe_(F *src, F *tag, F *comm, F *m, F *st, F *ierr)
{
	REAL(mprobe);
	STATUS(st);
	ENTER(Mprobe);

	real_(src, tag, comm, m, sp, ierr);
	if (ON) {
		LEAVE(Mprobe);
	}
	putprobe(&e_, &c_, COMM(comm), PMPI_Message_f2c(*m), cstatus(sp, &cs_),
	    *ierr == MPI_SUCCESS);
}
ALIAS(mprobe, MPROBE)

REC_API void
mpi_improbe_(F *src, F *tag, F *comm, F *flag, F *m, F *st, F *ierr)
{
	REAL(improbe);
	STATUS(st);
	ENTER(Improbe);

	real_(src, tag, comm, flag, m, sp, ierr);
	if (ON) {
		LEAVE(Improbe);
	}
	putprobe(&e_, &c_, COMM(comm), PMPI_Message_f2c(*m), cstatus(sp, &cs_),
	    *ierr == MPI_SUCCESS && *flag);
}
ALIAS(improbe, IMPROBE)

REC_API void
mpi_mrecv_(void *buf, F *count, F *t, F *m, F *st, F *ierr)
{
	MPI_Message h = PMPI_Message_f2c(*m);
	REAL(mrecv);
	ENTER(Mrecv);

	real_(buf, count, t, m, st, ierr);
	if (ON) {
		LEAVE(Mrecv);
	}
	putmrecv(&e_, &c_, h, MPI_REQUEST_NULL, NULL, *ierr);
}
ALIAS(mrecv, MRECV)

REC_API void
mpi_imrecv_(void *buf, F *count, F *t, F *m, F *req, F *ierr)
{
	MPI_Message h = PMPI_Message_f2c(*m);
	REAL(imrecv);
	ENTER(Imrecv);

	real_(buf, count, t, m, req, ierr);
	if (ON) {
		LEAVE(Imrecv);
	}
	putmrecv(&e_, &c_, h, PMPI_Request_f2c(*req), req, *ierr);
}
ALIAS(imrecv, IMRECV)
