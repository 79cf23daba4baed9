/* comm.c - the Fortran calls that make and free communicators. */
#include "fwrap.h"

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
