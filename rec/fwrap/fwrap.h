/* fwrap/fwrap.h - the Fortran bindings (mpif.h, the mpi module, mpi_f08).
 *
 * Open MPI's Fortran functions call the C profiling layer (PMPI_Send),
 * so wrapping MPI_Send does not see a Fortran program at all. Each
 * Fortran entry point is wrapped here under every name a compiler or
 * the f08 layer uses for it (mpi_send_, mpi_send, mpi_send__, MPI_SEND
 * and Open MPI's ompi_send_f), and calls the library's own Fortran
 * function (pmpi_send_), which does the work, special buffers and
 * statuses included. The wrapper only reads the arguments, as handles
 * converted to C, to fill the same record as the C wrapper would. */
#ifndef REC_FWRAP_H
#define REC_FWRAP_H

#include <stdlib.h>

#include "../wrap/call.h"

#ifdef MPI_F_STATUS_SIZE
#define FSTAT MPI_F_STATUS_SIZE
#else
/* Open MPI's Fortran status is its C status, seen as integers. */
#define FSTAT ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

typedef MPI_Fint F;

/* ---- fsym.c ---- */

/* The library's Fortran function NAME; a wrapped call reached here only
 * because the program uses the Fortran library, so it is loaded. */
void *rec_fsym(const char *name);

#define REAL(lc) \
	static __typeof__(mpi_##lc##_) *real_; \
	if (!real_) \
		real_ = (__typeof__(real_))rec_fsym("pmpi_" #lc "_")

#define ALIAS(lc, UC) \
	REC_API extern __typeof__(mpi_##lc##_) mpi_##lc \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) mpi_##lc##__ \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) MPI_##UC \
	    __attribute__((alias("mpi_" #lc "_"))); \
	REC_API extern __typeof__(mpi_##lc##_) ompi_##lc##_f \
	    __attribute__((alias("mpi_" #lc "_")));

/* ---- fsite.c ---- */

/* The call site of a wrapper that returns to RA: RA, or for the mpi_f08
 * module's procedures, the first frame outside that library. */
void *rec_fsite(void *ra);

/* The unwinding is left out of the call's time. */
#undef LEAVE
#define LEAVE(o) \
	leave(&c_, OP_##o, __builtin_return_address(0), &e_, *ierr); \
	e_.site = (uintptr_t)rec_fsite((void *)e_.site)
#undef LEAVE_OK
#define LEAVE_OK(o) \
	leave(&c_, OP_##o, __builtin_return_address(0), &e_, MPI_SUCCESS); \
	e_.site = (uintptr_t)rec_fsite((void *)e_.site)

#define COMM(c) PMPI_Comm_f2c(*(c))
#define TYPE(t) PMPI_Type_f2c(*(t))

/* A status to read after the call: the caller's, or ours when the
 * caller ignores it (the source of a wildcard receive is needed). */
#define STATUS(st) \
	F fs_[FSTAT + 8]; \
	F *sp = (st) == MPI_F_STATUS_IGNORE ? fs_ : (st); \
	MPI_Status cs_

static inline const MPI_Status *
cstatus(const F *f, MPI_Status *c)
{
	PMPI_Status_f2c(f, c);
	return c;
}

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

static inline int
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
static inline void
fmany_status(struct fmany *m, int n)
{
	int k;

	for (k = 0; k < n; k++)
		PMPI_Status_f2c(m->fs + (size_t)k * FSTAT, &m->cs[k]);
}

#endif
