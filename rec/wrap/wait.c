/* wait.c - the completion calls (MPI_Wait, MPI_Test and their forms for
 * many requests), timed around their PMPI twins. */
#include "call.h"

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
