/* coll.c - the collectives, blocking and nonblocking, and the
 * neighborhood collectives, timed around their PMPI twins. */
#include "call.h"

/* A collective and its nonblocking form, recorded by TAIL (coll, or
 * neighbor for the neighborhood collectives). */
#define COLLT(tail, name, iname, params, args, bytes, root) \
REC_API int \
MPI_##name params \
{ \
	int rc; \
	ENTER(name); \
	rc = PMPI_##name args; \
	if (ON) { \
		LEAVE(name); \
		tail(&e_, comm, bytes, root, NULL, MPI_REQUEST_NULL, rc); \
	} \
	return rc; \
} \
REC_API int \
MPI_##iname(ADDREQ params) \
{ \
	int rc; \
	ENTER(iname); \
	rc = PMPI_##iname(ADDARG args); \
	if (ON) { \
		LEAVE(iname); \
		tail(&e_, comm, bytes, root, req, *req, rc); \
	} \
	return rc; \
}
#define COLL(...) COLLT(coll, __VA_ARGS__)
/* MPI_Ifoo takes foo's parameters plus the request. */
#define ADDREQ(...) __VA_ARGS__, MPI_Request *req
#define ADDARG(...) __VA_ARGS__, req

REC_API int
MPI_Barrier(MPI_Comm comm)
{
	int rc;
	ENTER(Barrier);

	rc = PMPI_Barrier(comm);
	if (ON) {
		LEAVE(Barrier);
		coll(&e_, comm, 0, -1, NULL, MPI_REQUEST_NULL, rc);
	}
	return rc;
}

REC_API int
MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	int rc;
	ENTER(Ibarrier);

	rc = PMPI_Ibarrier(comm, req);
	if (ON) {
		LEAVE(Ibarrier);
		coll(&e_, comm, 0, -1, req, *req, rc);
	}
	return rc;
}

#define INPL(b) ((b) == MPI_IN_PLACE)

COLL(Bcast, Ibcast, (void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm),
    (buf, count, t, root, comm), tbytes(t, count), root)
COLL(Reduce, Ireduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, int root, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, root, comm), tbytes(t, count), root)
COLL(Allreduce, Iallreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Scan, Iscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Exscan, Iexscan, (const void *sbuf, void *rbuf, int count, MPI_Datatype t,
    MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, count, t, op, comm), tbytes(t, count), -1)
COLL(Gather, Igather, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), root)
COLL(Gatherv, Igatherv, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
    isroot(comm, root) ? tbytes(rtype, tsum(rcounts, vlen(comm))) :
    tbytes(stype, scount), root)
COLL(Scatter, Iscatter, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
    INPL(rbuf) ? tbytes(stype, scount) : tbytes(rtype, rcount), root)
COLL(Scatterv, Iscatterv, (const void *sbuf, const int scounts[], const int displs[],
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
    MPI_Comm comm),
    (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
    isroot(comm, root) ? tbytes(stype, tsum(scounts, vlen(comm))) :
    tbytes(rtype, rcount), root)
COLL(Allgather, Iallgather, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), -1)
COLL(Allgatherv, Iallgatherv, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, const int rcounts[], const int displs[], MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(rtype, tsum(rcounts, vlen(comm))), -1)
COLL(Alltoall, Ialltoall, (const void *sbuf, int scount, MPI_Datatype stype,
    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, rcount) : tbytes(stype, scount), -1)
COLL(Alltoallv, Ialltoallv, (const void *sbuf, const int scounts[], const int sdispls[],
    MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    INPL(sbuf) ? tbytes(rtype, tsum(rcounts, vlen(comm))) :
    tbytes(stype, tsum(scounts, vlen(comm))), -1)
COLL(Alltoallw, Ialltoallw, (const void *sbuf, const int scounts[],
    const int sdispls[], const MPI_Datatype stypes[], void *rbuf,
    const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[],
    MPI_Comm comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    INPL(sbuf) ? wbytes(rcounts, rtypes, comm) :
    wbytes(scounts, stypes, comm), -1)
COLL(Reduce_scatter, Ireduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[],
    MPI_Datatype t, MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, rcounts, t, op, comm), tbytes(t, tsum(rcounts, lsize(comm))), -1)
COLL(Reduce_scatter_block, Ireduce_scatter_block, (const void *sbuf, void *rbuf, int rcount,
    MPI_Datatype t, MPI_Op op, MPI_Comm comm),
    (sbuf, rbuf, rcount, t, op, comm), tbytes(t, rcount), -1)

/* ---- neighborhood collectives: their messages are not recorded ---- */

#define NEIGH(...) COLLT(neighbor, __VA_ARGS__, -1)
NEIGH(Neighbor_allgather, Ineighbor_allgather, (const void *sbuf, int scount,
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_allgatherv, Ineighbor_allgatherv, (const void *sbuf,
    int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
    const int displs[], MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_alltoall, Ineighbor_alltoall, (const void *sbuf, int scount,
    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
    MPI_Comm comm),
    (sbuf, scount, stype, rbuf, rcount, rtype, comm),
    tbytes(stype, scount) * outdegree(comm))
NEIGH(Neighbor_alltoallv, Ineighbor_alltoallv, (const void *sbuf,
    const int scounts[], const int sdispls[], MPI_Datatype stype,
    void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rtype, MPI_Comm comm),
    (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
    nsum(scounts, NULL, stype, outdegree(comm)))
NEIGH(Neighbor_alltoallw, Ineighbor_alltoallw, (const void *sbuf,
    const int scounts[], const MPI_Aint sdispls[],
    const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm),
    (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm),
    nsum(scounts, stypes, MPI_DATATYPE_NULL, outdegree(comm)))
