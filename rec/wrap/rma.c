/* rma.c - one-sided communication (windows, transfers, synchronisation),
 * timed around their PMPI twins. */
#include "call.h"
#include "../crash/crash.h"

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
		rec_fatal_win(*win); \
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
