/* wait.c - the Fortran completion calls (MPI_WAIT, MPI_TEST and their
 * forms for many requests). */
#include <stdlib.h>

#include "fwrap.h"

/* A completion, as in C (call.h), its site then found as LEAVE does. */
#undef DONE
#define DONE(o) \
	fdone(&c_, &e_, finish(&c_, OP_##o, __builtin_return_address(0), \
	    &e_, *ierr))

static int
fdone(const struct call *c, struct rrec *e, int go)
{
	if (go && c->on)
		e->site = (uintptr_t)rec_fsite((void *)e->site);
	return go;
}

REC_API void
mpi_wait_(F *req, F *st, F *ierr)
{
	MPI_Request h;
	REAL(wait);
	STATUS(st);
	ENTER(Wait);

	if (!LIVE) {
		real_(req, st, ierr);
		return;
	}
	h = PMPI_Request_f2c(*req);
	real_(req, sp, ierr);
	if (DONE(Wait))
		putmany(&c_, &e_, 1, NULL, &h, req, sizeof *req,
		    cstatus(sp, &cs_), 0);
}
ALIAS(wait, WAIT)

REC_API void
mpi_test_(F *req, F *flag, F *st, F *ierr)
{
	MPI_Request h;
	REAL(test);
	STATUS(st);
	ENTER(Test);

	if (!LIVE) {
		real_(req, flag, st, ierr);
		return;
	}
	h = PMPI_Request_f2c(*req);
	*flag = 0;	/* set by a call that failed in the request */
	real_(req, flag, sp, ierr);
	if (DONE(Test))
		putmany(&c_, &e_, *flag != 0, NULL, &h, req, sizeof *req,
		    cstatus(sp, &cs_), 0);
}
ALIAS(test, TEST)

REC_API void
mpi_waitall_(F *n, F *reqs, F *sts, F *ierr)
{
	struct fmany m;
	REAL(waitall);
	ENTER(Waitall);

	if (!LIVE || fmany_init(&m, *n, reqs, sts) < 0) {
		real_(n, reqs, sts, ierr);
		return;
	}
	real_(n, reqs, m.fs, ierr);
	if (DONE(Waitall)) {
		fmany_status(&m, *n);
		putmany(&c_, &e_, *n, NULL, m.h, reqs, sizeof *reqs, m.cs, 1);
	}
	free(m.heap);
}
ALIAS(waitall, WAITALL)

REC_API void
mpi_testall_(F *n, F *reqs, F *flag, F *sts, F *ierr)
{
	struct fmany m;
	int k;
	REAL(testall);
	ENTER(Testall);

	if (!LIVE || fmany_init(&m, *n, reqs, sts) < 0) {
		real_(n, reqs, flag, sts, ierr);
		return;
	}
	real_(n, reqs, flag, m.fs, ierr);
	if (DONE(Testall)) {
		k = (*ierr == MPI_SUCCESS && *flag) ||
		    e_.err == MPI_ERR_IN_STATUS ? *n : 0;
		fmany_status(&m, k);
		putmany(&c_, &e_, k, NULL, m.h, reqs, sizeof *reqs, m.cs, 1);
	}
	free(m.heap);
}
ALIAS(testall, TESTALL)

REC_API void
mpi_waitany_(F *n, F *reqs, F *index, F *st, F *ierr)
{
	struct fmany m;
	int i;
	REAL(waitany);
	STATUS(st);
	ENTER(Waitany);

	if (!LIVE || fmany_init(&m, *n, reqs, MPI_F_STATUSES_IGNORE) < 0) {
		real_(n, reqs, index, st, ierr);
		return;
	}
	*index = MPI_UNDEFINED;	/* set by a call that failed in a request */
	real_(n, reqs, index, sp, ierr);
	i = *index - 1;
	if (DONE(Waitany))
		putmany(&c_, &e_, *index >= 1 && *index <= *n, &i, m.h, reqs,
		    sizeof *reqs, cstatus(sp, &cs_), 0);
	free(m.heap);
}
ALIAS(waitany, WAITANY)

REC_API void
mpi_testany_(F *n, F *reqs, F *index, F *flag, F *st, F *ierr)
{
	struct fmany m;
	int i;
	REAL(testany);
	STATUS(st);
	ENTER(Testany);

	if (!LIVE || fmany_init(&m, *n, reqs, MPI_F_STATUSES_IGNORE) < 0) {
		real_(n, reqs, index, flag, st, ierr);
		return;
	}
	*index = MPI_UNDEFINED;	/* set by a call that failed in a request */
	*flag = 0;
	real_(n, reqs, index, flag, sp, ierr);
	i = *index - 1;
	if (DONE(Testany))
		putmany(&c_, &e_, *flag && *index >= 1 && *index <= *n, &i,
		    m.h, reqs, sizeof *reqs, cstatus(sp, &cs_), 0);
	free(m.heap);
}
ALIAS(testany, TESTANY)

#define FSOME(lc, UC, name) \
REC_API void \
mpi_##lc##_(F *n, F *reqs, F *outcount, F *idx, F *sts, F *ierr) \
{ \
	struct fmany m; \
	int k, out; \
	REAL(lc); \
	ENTER(name); \
	if (!LIVE || fmany_init(&m, *n, reqs, sts) < 0) { \
		real_(n, reqs, outcount, idx, sts, ierr); \
		return; \
	} \
	real_(n, reqs, outcount, idx, m.fs, ierr); \
	if (DONE(name)) { \
		out = someout(&e_, *ierr, *outcount); \
		for (k = 0; k < out; k++) \
			m.idx[k] = idx[k] - 1; \
		fmany_status(&m, out); \
		putmany(&c_, &e_, out, m.idx, m.h, reqs, sizeof *reqs, m.cs, \
		    1); \
	} \
	free(m.heap); \
} \
ALIAS(lc, UC)
FSOME(waitsome, WAITSOME, Waitsome)
FSOME(testsome, TESTSOME, Testsome)
