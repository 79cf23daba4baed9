/* rma.c - the Fortran one-sided communication calls (see wrap/rma.c). */
#include "fwrap.h"
#include "../crash/crash.h"

#define WIN(w) PMPI_Win_f2c(*(w))

#define FWINNEW(lc, UC, name, PARAMS, ARGS, SIZE) \
REC_API void \
mpi_##lc##_ PARAMS \
{ \
	REAL(lc); \
	ENTER(name); \
	real_ ARGS; \
	if (*ierr == MPI_SUCCESS) { \
		int num = KEEP ? rec_win_new(WIN(win), COMM(comm)) : -1; \
		rec_fatal_win(WIN(win)); \
		if (ON) { \
			LEAVE(name); \
			e_.comm = rec_comm_id(COMM(comm)); \
			e_.tag = num; \
			e_.bytes = SIZE; \
			put(&e_); \
		} \
	} \
} \
ALIAS(lc, UC)
FWINNEW(win_create, WIN_CREATE, Win_create, (void *base, MPI_Aint *size,
    F *unit, F *info, F *comm, F *win, F *ierr),
    (base, size, unit, info, comm, win, ierr), (int64_t)*size)
FWINNEW(win_allocate, WIN_ALLOCATE, Win_allocate, (MPI_Aint *size, F *unit,
    F *info, F *comm, void *base, F *win, F *ierr),
    (size, unit, info, comm, base, win, ierr), (int64_t)*size)
FWINNEW(win_allocate_shared, WIN_ALLOCATE_SHARED, Win_allocate_shared,
    (MPI_Aint *size, F *unit, F *info, F *comm, void *base, F *win,
    F *ierr), (size, unit, info, comm, base, win, ierr), (int64_t)*size)
FWINNEW(win_create_dynamic, WIN_CREATE_DYNAMIC, Win_create_dynamic,
    (F *info, F *comm, F *win, F *ierr), (info, comm, win, ierr), 0)

REC_API void
mpi_win_free_(F *win, F *ierr)
{
	MPI_Win w = WIN(win);
	REAL(win_free);
	ENTER(Win_free);

	real_(win, ierr);
	if (ON) {
		LEAVE(Win_free);
		onwin(&e_, w, -1);
		put(&e_);
	}
	if (*ierr == MPI_SUCCESS && KEEP)
		rec_win_free(w);
}
ALIAS(win_free, WIN_FREE)

#define FRMAQ(lc, UC, name, PARAMS, ARGS, TARGET, BYTES, SENT, REQ) \
REC_API void \
mpi_##lc##_ PARAMS \
{ \
	F *rq_ = REQ; \
	REAL(lc); \
	ENTER(name); \
	real_ ARGS; \
	if (ON) { \
		LEAVE(name); \
		onwin(&e_, WIN(win), TARGET); \
		e_.bytes = BYTES; \
		e_.root = SENT; \
		if (rq_ && *ierr == MPI_SUCCESS) \
			e_.req = rec_req_start(PMPI_Request_f2c(*rq_), rq_, \
			    e_.peer, e_.bytes, e_.tag, e_.comm, \
			    MPI_COMM_NULL, 0); \
		put(&e_); \
	} \
} \
ALIAS(lc, UC)
#define FRMA(lc, UC, name, PARAMS, ARGS, TARGET, BYTES, SENT) \
	FRMAQ(lc, UC, name, PARAMS, ARGS, TARGET, BYTES, SENT, NULL)
#define FNOOP(op) (PMPI_Op_f2c(*(op)) == MPI_NO_OP)
FRMA(put, PUT, Put, (void *buf, F *count, F *t, F *target, MPI_Aint *disp,
    F *tcount, F *tt, F *win, F *ierr),
    (buf, count, t, target, disp, tcount, tt, win, ierr), *target,
    tbytes(TYPE(t), *count), -1)
FRMA(get, GET, Get, (void *buf, F *count, F *t, F *target, MPI_Aint *disp,
    F *tcount, F *tt, F *win, F *ierr),
    (buf, count, t, target, disp, tcount, tt, win, ierr), *target,
    tbytes(TYPE(t), *count), -1)
FRMA(accumulate, ACCUMULATE, Accumulate, (void *buf, F *count, F *t,
    F *target, MPI_Aint *disp, F *tcount, F *tt, F *op, F *win, F *ierr),
    (buf, count, t, target, disp, tcount, tt, op, win, ierr), *target,
    tbytes(TYPE(t), *count), -1)
FRMA(get_accumulate, GET_ACCUMULATE, Get_accumulate, (void *buf, F *count,
    F *t, void *rbuf, F *rcount, F *rt, F *target, MPI_Aint *disp,
    F *tcount, F *tt, F *op, F *win, F *ierr), (buf, count, t, rbuf,
    rcount, rt, target, disp, tcount, tt, op, win, ierr), *target,
    tbytes(TYPE(rt), *rcount), FNOOP(op) ? 0 : tbytes(TYPE(t), *count))
FRMA(fetch_and_op, FETCH_AND_OP, Fetch_and_op, (void *buf, void *rbuf,
    F *t, F *target, MPI_Aint *disp, F *op, F *win, F *ierr),
    (buf, rbuf, t, target, disp, op, win, ierr), *target,
    tbytes(TYPE(t), 1), FNOOP(op) ? 0 : tbytes(TYPE(t), 1))
FRMA(compare_and_swap, COMPARE_AND_SWAP, Compare_and_swap, (void *buf,
    void *cbuf, void *rbuf, F *t, F *target, MPI_Aint *disp, F *win,
    F *ierr), (buf, cbuf, rbuf, t, target, disp, win, ierr), *target,
    tbytes(TYPE(t), 1), tbytes(TYPE(t), 2))
FRMAQ(rput, RPUT, Rput, (void *buf, F *count, F *t, F *target,
    MPI_Aint *disp, F *tcount, F *tt, F *win, F *req, F *ierr),
    (buf, count, t, target, disp, tcount, tt, win, req, ierr), *target,
    tbytes(TYPE(t), *count), -1, req)
FRMAQ(rget, RGET, Rget, (void *buf, F *count, F *t, F *target,
    MPI_Aint *disp, F *tcount, F *tt, F *win, F *req, F *ierr),
    (buf, count, t, target, disp, tcount, tt, win, req, ierr), *target,
    tbytes(TYPE(t), *count), -1, req)
FRMAQ(raccumulate, RACCUMULATE, Raccumulate, (void *buf, F *count, F *t,
    F *target, MPI_Aint *disp, F *tcount, F *tt, F *op, F *win, F *req,
    F *ierr), (buf, count, t, target, disp, tcount, tt, op, win, req,
    ierr), *target, tbytes(TYPE(t), *count), -1, req)
FRMAQ(rget_accumulate, RGET_ACCUMULATE, Rget_accumulate, (void *buf,
    F *count, F *t, void *rbuf, F *rcount, F *rt, F *target,
    MPI_Aint *disp, F *tcount, F *tt, F *op, F *win, F *req, F *ierr),
    (buf, count, t, rbuf, rcount, rt, target, disp, tcount, tt, op, win,
    req, ierr), *target, tbytes(TYPE(rt), *rcount),
    FNOOP(op) ? 0 : tbytes(TYPE(t), *count), req)

#define FSYNC(lc, UC, name, PARAMS, ARGS, TARGET) \
	FRMA(lc, UC, name, PARAMS, ARGS, TARGET, 0, -1)
FSYNC(win_fence, WIN_FENCE, Win_fence, (F *assert, F *win, F *ierr),
    (assert, win, ierr), -1)
FSYNC(win_lock, WIN_LOCK, Win_lock, (F *type, F *target, F *assert, F *win,
    F *ierr), (type, target, assert, win, ierr), *target)
FSYNC(win_unlock, WIN_UNLOCK, Win_unlock, (F *target, F *win, F *ierr),
    (target, win, ierr), *target)
FSYNC(win_flush, WIN_FLUSH, Win_flush, (F *target, F *win, F *ierr),
    (target, win, ierr), *target)
FSYNC(win_flush_local, WIN_FLUSH_LOCAL, Win_flush_local, (F *target,
    F *win, F *ierr), (target, win, ierr), *target)
FSYNC(win_lock_all, WIN_LOCK_ALL, Win_lock_all, (F *assert, F *win,
    F *ierr), (assert, win, ierr), -1)
FSYNC(win_unlock_all, WIN_UNLOCK_ALL, Win_unlock_all, (F *win, F *ierr),
    (win, ierr), -1)
FSYNC(win_flush_all, WIN_FLUSH_ALL, Win_flush_all, (F *win, F *ierr),
    (win, ierr), -1)
FSYNC(win_flush_local_all, WIN_FLUSH_LOCAL_ALL, Win_flush_local_all,
    (F *win, F *ierr), (win, ierr), -1)
FSYNC(win_sync, WIN_SYNC, Win_sync, (F *win, F *ierr), (win, ierr), -1)
FSYNC(win_post, WIN_POST, Win_post, (F *g, F *assert, F *win, F *ierr),
    (g, assert, win, ierr), -1)
FSYNC(win_start, WIN_START, Win_start, (F *g, F *assert, F *win, F *ierr),
    (g, assert, win, ierr), -1)
FSYNC(win_complete, WIN_COMPLETE, Win_complete, (F *win, F *ierr),
    (win, ierr), -1)
FSYNC(win_wait, WIN_WAIT, Win_wait, (F *win, F *ierr), (win, ierr), -1)
FSYNC(win_test, WIN_TEST, Win_test, (F *win, F *flag, F *ierr),
    (win, flag, ierr), -1)
