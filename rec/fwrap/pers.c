/* pers.c - the Fortran persistent requests, MPI_CANCEL and
 * MPI_REQUEST_FREE (see wrap/pers.c). */
#include <stdlib.h>

#include "fwrap.h"

#define FPINIT(lc, UC, name) \
REC_API void \
mpi_##lc##_(void *buf, F *count, F *t, F *peer, F *tag, F *comm, F *req, \
    F *ierr) \
{ \
	REAL(lc); \
	ENTER(name); \
	real_(buf, count, t, peer, tag, comm, req, ierr); \
	pinit(&c_, &e_, ON ? rec_fsite(__builtin_return_address(0)) : NULL, \
	    OP_##name, COMM(comm), *peer, *count, TYPE(t), *tag, \
	    PMPI_Request_f2c(*req), *ierr); \
} \
ALIAS(lc, UC)
FPINIT(send_init, SEND_INIT, Send_init)
FPINIT(bsend_init, BSEND_INIT, Bsend_init)
FPINIT(ssend_init, SSEND_INIT, Ssend_init)
FPINIT(rsend_init, RSEND_INIT, Rsend_init)
FPINIT(recv_init, RECV_INIT, Recv_init)

REC_API void
mpi_start_(F *req, F *ierr)
{
	MPI_Request h;
	REAL(start);
	ENTER(Start);

	if (!ON) {
		real_(req, ierr);
		return;
	}
	h = PMPI_Request_f2c(*req);
	real_(req, ierr);
	LEAVE(Start);
	pstart(&e_, OP_Start, 1, &h, req, sizeof *req, *ierr);
}
ALIAS(start, START)

REC_API void
mpi_startall_(F *n, F *reqs, F *ierr)
{
	struct fmany m;
	REAL(startall);
	ENTER(Startall);

	if (!ON || fmany_init(&m, *n, reqs, MPI_F_STATUSES_IGNORE) < 0) {
		real_(n, reqs, ierr);
		return;
	}
	real_(n, reqs, ierr);
	LEAVE(Startall);
	pstart(&e_, OP_Startall, *n, m.h, reqs, sizeof *reqs, *ierr);
	free(m.heap);
}
ALIAS(startall, STARTALL)

REC_API void
mpi_cancel_(F *req, F *ierr)
{
	MPI_Request h;
	REAL(cancel);
	ENTER(Cancel);

	if (!ON) {
		real_(req, ierr);
		return;
	}
	h = PMPI_Request_f2c(*req);
	real_(req, ierr);
	LEAVE(Cancel);
	e_.req = rec_req_id(h, req);
	put(&e_);
}
ALIAS(cancel, CANCEL)

REC_API void
mpi_request_free_(F *req, F *ierr)
{
	MPI_Request h = PMPI_Request_f2c(*req);
	int32_t comm;
	REAL(request_free);
	ENTER(Request_free);

	real_(req, ierr);
	if (pers_freed(&c_, h, &comm)) {
		LEAVE(Request_free);
		e_.comm = comm;
		put(&e_);
	}
	if (*ierr == MPI_SUCCESS && KEEP)
		rec_req_free(h, req);
}
ALIAS(request_free, REQUEST_FREE)
