/* coll.c - the Fortran collectives, blocking and nonblocking, and the
 * neighborhood collectives. */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "fwrap.h"

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

/* Neighborhood collectives (see wrap/coll.c). */

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
