/* pers.c - persistent requests (MPI_*_init, MPI_Start), MPI_Cancel and
 * MPI_Request_free, timed around their PMPI twins. */
#include "call.h"

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
