/* fwrap.c - the Fortran bindings (mpif.h, the mpi module, mpi_f08).
 *
 * Open MPI's Fortran functions call the C profiling layer (PMPI_Send),
 * so wrapping MPI_Send does not see a Fortran program at all. Each
 * Fortran entry point is wrapped here under every name a compiler or
 * the f08 layer uses for it (mpi_send_, mpi_send, mpi_send__, MPI_SEND
 * and Open MPI's ompi_send_f), and calls the library's own Fortran
 * function (pmpi_send_), which does the work, special buffers and
 * statuses included. The wrapper only reads the arguments, as handles
 * converted to C, to fill the same record as the C wrapper would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "call.h"

#ifdef MPI_F_STATUS_SIZE
#define FSTAT MPI_F_STATUS_SIZE
#else
/* Open MPI's Fortran status is its C status, seen as integers. */
#define FSTAT ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

typedef MPI_Fint F;

/* The library's Fortran function NAME; a wrapped call reached here only
 * because the program uses the Fortran library, so it is loaded. */
static void *
fsym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "tr-record: %s: no such Fortran MPI function "
		    "in the MPI library\n", name);
		abort();
	}
	return p;
}

#define REAL(lc) \
	static __typeof__(mpi_##lc##_) *real_; \
	if (!real_) \
		real_ = (__typeof__(real_))fsym("pmpi_" #lc "_")

#define ALIAS(lc, UC) \
	REC_API extern __typeof__(mpi_##lc##_) mpi_##lc \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) mpi_##lc##__ \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) MPI_##UC \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) ompi_##lc##_f \
	    __attribute__((alias("mpi_" #lc "_")));

/* The mpi_f08 module's procedures call ompi_send_f and the like, so the
 * return address of a wrapper is in that library, the same for every
 * call. The call site is then the first frame outside it, found by
 * unwinding: some microseconds, only for f08 calls. */
static uintptr_t f08lo, f08hi;

static int
findf08(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "usempif08"))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		f08lo = lo;
		f08hi = lo + ph->p_memsz;
		return 1;
	}
	return 0;
}

static void *
fsite(void *ra)
{
	static int looked;
	void *fr[16];
	int n, i, in = 0;

	if (!looked) {
		dl_iterate_phdr(findf08, NULL);
		looked = 1;
	}
	if ((uintptr_t)ra < f08lo || (uintptr_t)ra >= f08hi)
		return ra;
	n = backtrace(fr, 16);
	for (i = 0; i < n; i++) {
		int here = (uintptr_t)fr[i] >= f08lo && (uintptr_t)fr[i] < f08hi;

		if (in && !here)
			return fr[i];
		in |= here;
	}
	return ra;
}

/* The unwinding is left out of the call's time. */
#undef LEAVE
#define LEAVE(o) \
	leave(&c_, OP_##o, __builtin_return_address(0), &e_, *ierr); \
	e_.site = (uintptr_t)fsite((void *)e_.site)
#undef LEAVE_OK
#define LEAVE_OK(o) \
	leave(&c_, OP_##o, __builtin_return_address(0), &e_, MPI_SUCCESS); \
	e_.site = (uintptr_t)fsite((void *)e_.site)

#define COMM(c) PMPI_Comm_f2c(*(c))
#define TYPE(t) PMPI_Type_f2c(*(t))

/* Open MPI's MPI_IN_PLACE in Fortran: the address of a common block. */
static int
finplace(const void *buf)
{
	static const void *inpl;
	static int looked;

	if (!looked) {
		inpl = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
		looked = 1;
	}
	return inpl && buf == inpl;
}

/* The first N counts of C, summed. */
static inline int64_t
ftsum(const F *c, int n)
{
	int i;
	int64_t s = 0;

	for (i = 0; i < n; i++)
		s += c[i];
	return s;
}

/* MPI_ALLTOALLW's bytes on one side: a count and a type per rank. */
static int64_t
fwbytes(const F *c, const F *t, MPI_Comm comm)
{
	int n = vlen(comm), i;
	int64_t s = 0;

	for (i = 0; i < n; i++)
		s += tbytes(PMPI_Type_f2c(t[i]), c[i]);
	return s;
}

/* ---- init and finalize ---- */

REC_API void
mpi_init_(F *ierr)
{
	struct call c;
	REAL(init);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	/* In case the library's Fortran init calls MPI_Init. */
	rec.owner = &rec_thread;
	real_(ierr);
	rec.owner = NULL;
	if (*ierr == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init, fsite(__builtin_return_address(0)), c.cpu);
}
ALIAS(init, INIT)

REC_API void
mpi_init_thread_(F *required, F *provided, F *ierr)
{
	struct call c;
	REAL(init_thread);

	rec_preinit();
	c.cpu = rec_cpunow();
	c.t0 = rec_now();
	rec.owner = &rec_thread;
	real_(required, provided, ierr);
	rec.owner = NULL;
	if (*ierr == MPI_SUCCESS)
		rec_setup(c.t0);
	initrec(&c, OP_Init_thread, fsite(__builtin_return_address(0)),
	    c.cpu);
}
ALIAS(init_thread, INIT_THREAD)

REC_API void
mpi_finalize_(F *ierr)
{
	REAL(finalize);
	ENTER(Finalize);

	rec_finish();
	real_(ierr);
	if (ON) {
		LEAVE(Finalize);
		e_.comm = 0;
		put(&e_);
	}
	rec_end();
}
ALIAS(finalize, FINALIZE)

REC_API void
mpi_abort_(F *comm, F *code, F *ierr)
{
	REAL(abort);
	ENTER(Abort);

	if (ON) {
		LEAVE_OK(Abort);
		e_.comm = rec_comm_id(COMM(comm));
		e_.tag = *code;
		put(&e_);
	}
	rec_abort();
	real_(comm, code, ierr);
}
ALIAS(abort, ABORT)

REC_API double
mpi_wtime_(void)
{
	rec.wtime++;
	return PMPI_Wtime();
}
ALIAS(wtime, WTIME)

REC_API void
mpi_pcontrol_(F *level)
{
	ENTER(Pcontrol);
	if (ON) {
		LEAVE_OK(Pcontrol);
		e_.tag = *level;
		put(&e_);
	}
}
ALIAS(pcontrol, PCONTROL)

/* ---- point to point ---- */

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

/* A status to read after the call: the caller's, or ours when the
 * caller ignores it (the source of a wildcard receive is needed). */
#define STATUS(st) \
	F fs_[FSTAT + 8]; \
	F *sp = (st) == MPI_F_STATUS_IGNORE ? fs_ : (st); \
	MPI_Status cs_

static const MPI_Status *
cstatus(const F *f, MPI_Status *c)
{
	PMPI_Status_f2c(f, c);
	return c;
}

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

/* Matched probes (see wrap.c). */
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

/* ---- completion ---- */

enum { NSTACK = 64 };

/* The C handles of a request array taken before the call (completion
 * nulls them), the statuses as C statuses after it, a status array for
 * a caller that ignores them, and indices made 0-based. */
struct fmany {
	MPI_Request hs[NSTACK], *h;
	MPI_Status css[NSTACK], *cs;
	F fss[NSTACK * FSTAT], *fs;
	int is[NSTACK], *idx;
	void *heap;
};

static int
fmany_init(struct fmany *m, int n, const F *reqs, F *sts)
{
	int i;

	if (n < 0)
		n = 0;
	m->heap = NULL;
	m->h = m->hs;
	m->cs = m->css;
	m->fs = m->fss;
	m->idx = m->is;
	if (n > NSTACK) {
		size_t hb = (size_t)n * sizeof *m->h,
		    cb = (size_t)n * sizeof *m->cs,
		    fb = (size_t)n * FSTAT * sizeof *m->fs;
		char *p = malloc(hb + cb + fb + (size_t)n * sizeof *m->idx);

		if (!p)
			return -1;
		m->heap = p;
		m->h = (MPI_Request *)(void *)p;
		m->cs = (MPI_Status *)(void *)(p + hb);
		m->fs = (F *)(void *)(p + hb + cb);
		m->idx = (int *)(void *)(p + hb + cb + fb);
	}
	if (sts != MPI_F_STATUSES_IGNORE)
		m->fs = sts;
	for (i = 0; i < n; i++)
		m->h[i] = PMPI_Request_f2c(reqs[i]);
	return 0;
}

/* The first n statuses as C statuses. */
static void
fmany_status(struct fmany *m, int n)
{
	int k;

	for (k = 0; k < n; k++)
		PMPI_Status_f2c(m->fs + (size_t)k * FSTAT, &m->cs[k]);
}

/* A completion, as in C (call.h), its site then found as LEAVE does. */
#undef DONE
#define DONE(o) \
	fdone(&c_, &e_, finish(&c_, OP_##o, __builtin_return_address(0), \
	    &e_, *ierr))

static int
fdone(const struct call *c, struct rrec *e, int go)
{
	if (go && c->on)
		e->site = (uintptr_t)fsite((void *)e->site);
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

/* ---- collectives ---- */

REC_API void
mpi_barrier_(F *comm, F *ierr)
{
	REAL(barrier);
	ENTER(Barrier);

	real_(comm, ierr);
	if (ON) {
		LEAVE(Barrier);
		coll(&e_, COMM(comm), 0, -1, NULL, MPI_REQUEST_NULL, *ierr);
	}
}
ALIAS(barrier, BARRIER)

REC_API void
mpi_ibarrier_(F *comm, F *req, F *ierr)
{
	REAL(ibarrier);
	ENTER(Ibarrier);

	real_(comm, req, ierr);
	if (ON) {
		LEAVE(Ibarrier);
		coll(&e_, COMM(comm), 0, -1, req, PMPI_Request_f2c(*req), *ierr);
	}
}
ALIAS(ibarrier, IBARRIER)

/* Both forms of a collective; params and args end before the request
 * and the error code. */
/* A collective and its nonblocking form, recorded by TAIL (coll, or
 * neighbor for the neighborhood collectives). */
#define FCOLLT(tail, lc, UC, name, ilc, IUC, iname, params, args, bytes, \
    root) \
REC_API void \
mpi_##lc##_(FPARAMS params, F *ierr) \
{ \
	REAL(lc); \
	ENTER(name); \
	real_(FARGS args, ierr); \
	if (ON) { \
		LEAVE(name); \
		tail(&e_, COMM(comm), bytes, root, NULL, MPI_REQUEST_NULL, \
		    *ierr); \
	} \
} \
ALIAS(lc, UC) \
REC_API void \
mpi_##ilc##_(FPARAMS params, F *req, F *ierr) \
{ \
	REAL(ilc); \
	ENTER(iname); \
	real_(FARGS args, req, ierr); \
	if (ON) { \
		LEAVE(iname); \
		tail(&e_, COMM(comm), bytes, root, req, \
		    PMPI_Request_f2c(*req), *ierr); \
	} \
} \
ALIAS(ilc, IUC)
#define FCOLL(...) FCOLLT(coll, __VA_ARGS__)
#define FPARAMS(...) __VA_ARGS__
#define FARGS(...) __VA_ARGS__
#define INPL(b) finplace(b)

FCOLL(bcast, BCAST, Bcast, ibcast, IBCAST, Ibcast,
    (void *buf, F *count, F *t, F *root, F *comm),
    (buf, count, t, root, comm), tbytes(TYPE(t), *count), *root)
FCOLL(reduce, REDUCE, Reduce, ireduce, IREDUCE, Ireduce,
    (void *sbuf, void *rbuf, F *count, F *t, F *op, F *root, F *comm),
    (sbuf, rbuf, count, t, op, root, comm), tbytes(TYPE(t), *count), *root)
FCOLL(allreduce, ALLREDUCE, Allreduce, iallreduce, IALLREDUCE, Iallreduce,
    (void *sbuf, void *rbuf, F *count, F *t, F *op, F *comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(TYPE(t), *count), -1)
FCOLL(scan, SCAN, Scan, iscan, ISCAN, Iscan,
    (void *sbuf, void *rbuf, F *count, F *t, F *op, F *comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(TYPE(t), *count), -1)
FCOLL(exscan, EXSCAN, Exscan, iexscan, IEXSCAN, Iexscan,
    (void *sbuf, void *rbuf, F *count, F *t, F *op, F *comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(TYPE(t), *count), -1)
FCOLL(gather, GATHER, Gather, igather, IGATHER, Igather,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *root, F *comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(sbuf) ? tbytes(TYPE(rtype), *rcount) :
    tbytes(TYPE(stype), *scount), *root)
FCOLL(gatherv, GATHERV, Gatherv, igatherv, IGATHERV, Igatherv,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs,
    F *rtype, F *root, F *comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
    isroot(COMM(comm), *root) ? tbytes(TYPE(rtype), ftsum(rcounts,
    vlen(COMM(comm)))) :
    tbytes(TYPE(stype), *scount), *root)
FCOLL(scatter, SCATTER, Scatter, iscatter, ISCATTER, Iscatter,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *root, F *comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(rbuf) ? tbytes(TYPE(stype), *scount) :
    tbytes(TYPE(rtype), *rcount), *root)
FCOLL(scatterv, SCATTERV, Scatterv, iscatterv, ISCATTERV, Iscatterv,
    (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount,
    F *rtype, F *root, F *comm),
    (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
    isroot(COMM(comm), *root) ? tbytes(TYPE(stype), ftsum(scounts,
    vlen(COMM(comm)))) :
    tbytes(TYPE(rtype), *rcount), *root)
FCOLL(allgather, ALLGATHER, Allgather, iallgather, IALLGATHER, Iallgather,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(TYPE(rtype), *rcount) :
    tbytes(TYPE(stype), *scount), -1)
FCOLL(allgatherv, ALLGATHERV, Allgatherv, iallgatherv, IALLGATHERV,
    Iallgatherv,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs,
    F *rtype, F *comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(TYPE(rtype), ftsum(rcounts, vlen(COMM(comm)))), -1)
FCOLL(alltoall, ALLTOALL, Alltoall, ialltoall, IALLTOALL, Ialltoall,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(TYPE(rtype), *rcount) :
    tbytes(TYPE(stype), *scount), -1)
FCOLL(alltoallv, ALLTOALLV, Alltoallv, ialltoallv, IALLTOALLV, Ialltoallv,
    (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts,
    F *rdispls, F *rtype, F *comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    INPL(sbuf) ? tbytes(TYPE(rtype), ftsum(rcounts, vlen(COMM(comm)))) :
    tbytes(TYPE(stype), ftsum(scounts, vlen(COMM(comm)))), -1)
FCOLL(alltoallw, ALLTOALLW, Alltoallw, ialltoallw, IALLTOALLW, Ialltoallw,
    (void *sbuf, F *scounts, F *sdispls, F *stypes, void *rbuf, F *rcounts,
    F *rdispls, F *rtypes, F *comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    INPL(sbuf) ? fwbytes(rcounts, rtypes, COMM(comm)) :
    fwbytes(scounts, stypes, COMM(comm)), -1)
FCOLL(reduce_scatter, REDUCE_SCATTER, Reduce_scatter, ireduce_scatter,
    IREDUCE_SCATTER, Ireduce_scatter,
    (void *sbuf, void *rbuf, F *rcounts, F *t, F *op, F *comm),
    (sbuf, rbuf, rcounts, t, op, comm),
    tbytes(TYPE(t), ftsum(rcounts, lsize(COMM(comm)))), -1)
FCOLL(reduce_scatter_block, REDUCE_SCATTER_BLOCK, Reduce_scatter_block,
    ireduce_scatter_block, IREDUCE_SCATTER_BLOCK, Ireduce_scatter_block,
    (void *sbuf, void *rbuf, F *rcount, F *t, F *op, F *comm),
    (sbuf, rbuf, rcount, t, op, comm), tbytes(TYPE(t), *rcount), -1)

/* ---- communicators ---- */

#define FNEWCOMM(lc, UC, name, params, args, parent) \
REC_API void \
mpi_##lc##_ params \
{ \
	int id = -1, live; \
	REAL(lc); \
	ENTER(name); \
	live = KEEP; \
	real_ args; \
	if (live) \
		id = *ierr == MPI_SUCCESS ? \
		    rec_comm_new(PMPI_Comm_f2c(*newcomm)) : -1; \
	if (ON) { \
		LEAVE(name); \
		e_.comm = rec_comm_id(COMM(parent)); \
		e_.req = id; \
		put(&e_); \
	} \
} \
ALIAS(lc, UC)

FNEWCOMM(comm_dup, COMM_DUP, Comm_dup, (F *comm, F *newcomm, F *ierr),
    (comm, newcomm, ierr), comm)
FNEWCOMM(comm_dup_with_info, COMM_DUP_WITH_INFO, Comm_dup_with_info,
    (F *comm, F *info, F *newcomm, F *ierr), (comm, info, newcomm, ierr),
    comm)
FNEWCOMM(comm_idup, COMM_IDUP, Comm_idup,
    (F *comm, F *newcomm, F *req, F *ierr), (comm, newcomm, req, ierr), comm)
FNEWCOMM(comm_split, COMM_SPLIT, Comm_split,
    (F *comm, F *color, F *key, F *newcomm, F *ierr),
    (comm, color, key, newcomm, ierr), comm)
FNEWCOMM(comm_split_type, COMM_SPLIT_TYPE, Comm_split_type,
    (F *comm, F *type, F *key, F *info, F *newcomm, F *ierr),
    (comm, type, key, info, newcomm, ierr), comm)
FNEWCOMM(comm_create, COMM_CREATE, Comm_create,
    (F *comm, F *g, F *newcomm, F *ierr), (comm, g, newcomm, ierr), comm)
FNEWCOMM(comm_create_group, COMM_CREATE_GROUP, Comm_create_group,
    (F *comm, F *g, F *tag, F *newcomm, F *ierr),
    (comm, g, tag, newcomm, ierr), comm)
FNEWCOMM(cart_create, CART_CREATE, Cart_create,
    (F *comm, F *ndims, F *dims, F *periods, F *reorder, F *newcomm,
    F *ierr), (comm, ndims, dims, periods, reorder, newcomm, ierr), comm)
FNEWCOMM(cart_sub, CART_SUB, Cart_sub,
    (F *comm, F *remain, F *newcomm, F *ierr), (comm, remain, newcomm, ierr),
    comm)
FNEWCOMM(graph_create, GRAPH_CREATE, Graph_create,
    (F *comm, F *n, F *index, F *edges, F *reorder, F *newcomm, F *ierr),
    (comm, n, index, edges, reorder, newcomm, ierr), comm)
FNEWCOMM(dist_graph_create, DIST_GRAPH_CREATE, Dist_graph_create,
    (F *comm, F *n, F *sources, F *degrees, F *dests, F *weights, F *info,
    F *reorder, F *newcomm, F *ierr),
    (comm, n, sources, degrees, dests, weights, info, reorder, newcomm,
    ierr), comm)
FNEWCOMM(dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,
    Dist_graph_create_adjacent,
    (F *comm, F *indeg, F *sources, F *sw, F *outdeg, F *dests, F *dw,
    F *info, F *reorder, F *newcomm, F *ierr),
    (comm, indeg, sources, sw, outdeg, dests, dw, info, reorder, newcomm,
    ierr), comm)
FNEWCOMM(intercomm_create, INTERCOMM_CREATE, Intercomm_create,
    (F *comm, F *lleader, F *peer, F *rleader, F *tag, F *newcomm, F *ierr),
    (comm, lleader, peer, rleader, tag, newcomm, ierr), comm)
FNEWCOMM(intercomm_merge, INTERCOMM_MERGE, Intercomm_merge,
    (F *comm, F *high, F *newcomm, F *ierr), (comm, high, newcomm, ierr),
    comm)
/* The character arguments' lengths follow ierr, passed on as they came
 * (gfortran's are size_t, Open MPI takes them as int: one register
 * either way). */
FNEWCOMM(comm_spawn, COMM_SPAWN, Comm_spawn,
    (char *cmd, char *argv, F *maxprocs, F *info, F *root, F *comm,
    F *newcomm, F *errs, F *ierr, size_t cmdlen, size_t argvlen),
    (cmd, argv, maxprocs, info, root, comm, newcomm, errs, ierr, cmdlen,
    argvlen), comm)
FNEWCOMM(comm_spawn_multiple, COMM_SPAWN_MULTIPLE, Comm_spawn_multiple,
    (F *count, char *cmds, char *argvs, F *maxprocs, F *infos, F *root,
    F *comm, F *newcomm, F *errs, F *ierr, size_t cmdlen, size_t argvlen),
    (count, cmds, argvs, maxprocs, infos, root, comm, newcomm, errs, ierr,
    cmdlen, argvlen), comm)

#define FFREECOMM(lc, UC, name) \
REC_API void \
mpi_##lc##_(F *comm, F *ierr) \
{ \
	int id = -1; \
	MPI_Comm c = COMM(comm); \
	REAL(lc); \
	ENTER(name); \
	if (KEEP) { \
		id = rec_comm_id(c); \
		rec_comm_free(c); \
	} \
	real_(comm, ierr); \
	if (ON) { \
		LEAVE(name); \
		e_.comm = id; \
		put(&e_); \
	} \
} \
ALIAS(lc, UC)
FFREECOMM(comm_free, COMM_FREE, Comm_free)
FFREECOMM(comm_disconnect, COMM_DISCONNECT, Comm_disconnect)

/* ---- neighborhood collectives (see wrap.c) ---- */

/* Counts (and types, for the w form) over the N ranks sent to. */
static int64_t
fnsum(const F *c, const F *ts, const F *t, int n)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += tbytes(PMPI_Type_f2c(ts ? ts[i] : *t), c[i]);
	return s;
}

#define FNEIGH(...) FCOLLT(neighbor, __VA_ARGS__, -1)
FNEIGH(neighbor_allgather, NEIGHBOR_ALLGATHER, Neighbor_allgather,
    ineighbor_allgather, INEIGHBOR_ALLGATHER, Ineighbor_allgather,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *comm), (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(TYPE(stype), *scount) * outdegree(COMM(comm)))
FNEIGH(neighbor_allgatherv, NEIGHBOR_ALLGATHERV, Neighbor_allgatherv,
    ineighbor_allgatherv, INEIGHBOR_ALLGATHERV, Ineighbor_allgatherv,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs,
    F *rtype, F *comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(TYPE(stype), *scount) * outdegree(COMM(comm)))
FNEIGH(neighbor_alltoall, NEIGHBOR_ALLTOALL, Neighbor_alltoall,
    ineighbor_alltoall, INEIGHBOR_ALLTOALL, Ineighbor_alltoall,
    (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype,
    F *comm), (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(TYPE(stype), *scount) * outdegree(COMM(comm)))
FNEIGH(neighbor_alltoallv, NEIGHBOR_ALLTOALLV, Neighbor_alltoallv,
    ineighbor_alltoallv, INEIGHBOR_ALLTOALLV, Ineighbor_alltoallv,
    (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts,
    F *rdispls, F *rtype, F *comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    fnsum(scounts, NULL, stype, outdegree(COMM(comm))))
FNEIGH(neighbor_alltoallw, NEIGHBOR_ALLTOALLW, Neighbor_alltoallw,
    ineighbor_alltoallw, INEIGHBOR_ALLTOALLW, Ineighbor_alltoallw,
    (void *sbuf, F *scounts, MPI_Aint *sdispls, F *stypes, void *rbuf,
    F *rcounts, MPI_Aint *rdispls, F *rtypes, F *comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    fnsum(scounts, stypes, NULL, outdegree(COMM(comm))))

/* ---- MPI-IO (see wrap.c); LEN is a CHARACTER argument's hidden length ---- */

#define FH(f) PMPI_File_f2c(*(f))

REC_API void
mpi_file_open_(F *comm, char *name, F *amode, F *info, F *fh, F *ierr,
    size_t len)
{
	REAL(file_open);
	ENTER(File_open);

	real_(comm, name, amode, info, fh, ierr, len);
	if (ON) {
		LEAVE(File_open);
		e_.comm = rec_comm_id(COMM(comm));
		if (*ierr == MPI_SUCCESS)
			rec_file_new(FH(fh), e_.comm);
		put(&e_);
	}
}
ALIAS(file_open, FILE_OPEN)

REC_API void
mpi_file_close_(F *fh, F *ierr)
{
	MPI_File f = FH(fh);
	REAL(file_close);
	ENTER(File_close);

	real_(fh, ierr);
	if (ON) {
		LEAVE(File_close);
		e_.comm = rec_file_comm(f);
		put(&e_);
	}
	if (KEEP)
		rec_file_free(f);
}
ALIAS(file_close, FILE_CLOSE)

REC_API void
mpi_file_sync_(F *fh, F *ierr)
{
	REAL(file_sync);
	ENTER(File_sync);

	real_(fh, ierr);
	if (ON) {
		LEAVE(File_sync);
		e_.comm = rec_file_comm(FH(fh));
		put(&e_);
	}
}
ALIAS(file_sync, FILE_SYNC)

REC_API void
mpi_file_set_view_(F *fh, MPI_Offset *disp, F *et, F *ft, char *rep,
    F *info, F *ierr, size_t len)
{
	REAL(file_set_view);
	ENTER(File_set_view);

	real_(fh, disp, et, ft, rep, info, ierr, len);
	if (ON) {
		LEAVE(File_set_view);
		e_.comm = rec_file_comm(FH(fh));
		put(&e_);
	}
}
ALIAS(file_set_view, FILE_SET_VIEW)

#define FFILEIO(lc, UC, name) \
REC_API void \
mpi_file_##lc##_(F *fh, void *buf, F *count, F *t, F *st, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##name); \
	real_(fh, buf, count, t, st, ierr); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(FH(fh)); \
		e_.bytes = tbytes(TYPE(t), *count); \
		put(&e_); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
#define FFILEIO_AT(lc, UC, name) \
REC_API void \
mpi_file_##lc##_(F *fh, MPI_Offset *off, void *buf, F *count, F *t, \
    F *st, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##name); \
	real_(fh, off, buf, count, t, st, ierr); \
	if (ON) { \
		LEAVE(File_##name); \
		e_.comm = rec_file_comm(FH(fh)); \
		e_.bytes = tbytes(TYPE(t), *count); \
		put(&e_); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
FFILEIO(read, READ, read)
FFILEIO(read_all, READ_ALL, read_all)
FFILEIO(read_shared, READ_SHARED, read_shared)
FFILEIO(read_ordered, READ_ORDERED, read_ordered)
FFILEIO(write, WRITE, write)
FFILEIO(write_all, WRITE_ALL, write_all)
FFILEIO(write_shared, WRITE_SHARED, write_shared)
FFILEIO(write_ordered, WRITE_ORDERED, write_ordered)
FFILEIO_AT(read_at, READ_AT, read_at)
FFILEIO_AT(read_at_all, READ_AT_ALL, read_at_all)
FFILEIO_AT(write_at, WRITE_AT, write_at)
FFILEIO_AT(write_at_all, WRITE_AT_ALL, write_at_all)
#define FIFILEIO(lc, UC) \
REC_API void \
mpi_file_##lc##_(F *fh, void *buf, F *count, F *t, F *req, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##lc); \
	real_(fh, buf, count, t, req, ierr); \
	if (ON) { \
		LEAVE(File_##lc); \
		ifile(&e_, FH(fh), tbytes(TYPE(t), *count), req, \
		    PMPI_Request_f2c(*req), *ierr); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
#define FIFILEIO_AT(lc, UC) \
REC_API void \
mpi_file_##lc##_(F *fh, MPI_Offset *off, void *buf, F *count, F *t, \
    F *req, F *ierr) \
{ \
	REAL(file_##lc); \
	ENTER(File_##lc); \
	real_(fh, off, buf, count, t, req, ierr); \
	if (ON) { \
		LEAVE(File_##lc); \
		ifile(&e_, FH(fh), tbytes(TYPE(t), *count), req, \
		    PMPI_Request_f2c(*req), *ierr); \
	} \
} \
ALIAS(file_##lc, FILE_##UC)
FIFILEIO(iread, IREAD)
FIFILEIO(iread_all, IREAD_ALL)
FIFILEIO(iread_shared, IREAD_SHARED)
FIFILEIO(iwrite, IWRITE)
FIFILEIO(iwrite_all, IWRITE_ALL)
FIFILEIO(iwrite_shared, IWRITE_SHARED)
FIFILEIO_AT(iread_at, IREAD_AT)
FIFILEIO_AT(iread_at_all, IREAD_AT_ALL)
FIFILEIO_AT(iwrite_at, IWRITE_AT)
FIFILEIO_AT(iwrite_at_all, IWRITE_AT_ALL)

/* ---- one-sided communication (see wrap.c) ---- */

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
		rec_win_fatal(WIN(win)); \
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

/* ---- persistent requests (see wrap.c) ---- */

#define FPINIT(lc, UC, name) \
REC_API void \
mpi_##lc##_(void *buf, F *count, F *t, F *peer, F *tag, F *comm, F *req, \
    F *ierr) \
{ \
	REAL(lc); \
	ENTER(name); \
	real_(buf, count, t, peer, tag, comm, req, ierr); \
	pinit(&c_, &e_, ON ? fsite(__builtin_return_address(0)) : NULL, \
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
