/* comm.c - the calls that make and free communicators, timed around
 * their PMPI twins. */
#include "call.h"

/* A new communicator gets its id, and its comm (and cart) record, even
 * when the call is not recorded: every member makes it, so counting
 * calls keeps its id equal on all of them. */
#define NEWCOMM(name, params, args, parent) \
REC_API int \
MPI_##name params \
{ \
	int rc, id = -1, live; \
	ENTER(name); \
	live = KEEP; \
	rc = PMPI_##name args; \
	if (live) \
		id = rc == MPI_SUCCESS ? rec_comm_new(*newcomm) : -1; \
	if (ON) { \
		LEAVE(name); \
		e_.comm = rec_comm_id(parent); \
		e_.req = id; \
		put(&e_); \
	} \
	return rc; \
}

NEWCOMM(Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm), (comm, newcomm), comm)
NEWCOMM(Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm),
    (comm, info, newcomm), comm)
/* Its request completes at once in a replay: the new communicator is
 * made, as by Comm_dup, where the call starts. */
NEWCOMM(Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req),
    (comm, newcomm, req), comm)
NEWCOMM(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),
    (comm, color, key, newcomm), comm)
NEWCOMM(Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info,
    MPI_Comm *newcomm), (comm, type, key, info, newcomm), comm)
NEWCOMM(Comm_create, (MPI_Comm comm, MPI_Group g, MPI_Comm *newcomm),
    (comm, g, newcomm), comm)
/* Made by the group's members only: replays synchronise those. */
NEWCOMM(Comm_create_group, (MPI_Comm comm, MPI_Group g, int tag,
    MPI_Comm *newcomm), (comm, g, tag, newcomm), comm)
NEWCOMM(Cart_create, (MPI_Comm comm, int ndims, const int dims[],
    const int periods[], int reorder, MPI_Comm *newcomm),
    (comm, ndims, dims, periods, reorder, newcomm), comm)
NEWCOMM(Cart_sub, (MPI_Comm comm, const int remain[], MPI_Comm *newcomm),
    (comm, remain, newcomm), comm)
NEWCOMM(Graph_create, (MPI_Comm comm, int n, const int index[],
    const int edges[], int reorder, MPI_Comm *newcomm),
    (comm, n, index, edges, reorder, newcomm), comm)
NEWCOMM(Dist_graph_create, (MPI_Comm comm, int n, const int sources[],
    const int degrees[], const int dests[], const int weights[],
    MPI_Info info, int reorder, MPI_Comm *newcomm),
    (comm, n, sources, degrees, dests, weights, info, reorder, newcomm),
    comm)
NEWCOMM(Dist_graph_create_adjacent, (MPI_Comm comm, int indeg,
    const int sources[], const int sw[], int outdeg, const int dests[],
    const int dw[], MPI_Info info, int reorder, MPI_Comm *newcomm),
    (comm, indeg, sources, sw, outdeg, dests, dw, info, reorder, newcomm),
    comm)
/* Made by two groups, each on its own local communicator: replays
 * synchronise both. */
NEWCOMM(Intercomm_create, (MPI_Comm comm, int lleader, MPI_Comm peer,
    int rleader, int tag, MPI_Comm *newcomm),
    (comm, lleader, peer, rleader, tag, newcomm), comm)
NEWCOMM(Intercomm_merge, (MPI_Comm comm, int high, MPI_Comm *newcomm),
    (comm, high, newcomm), comm)

/* The processes a spawn starts are not recorded (their world's rank
 * files would be the parents'); the intercommunicator's record names
 * only the parents, and the trace says what it lacks. */
NEWCOMM(Comm_spawn, (const char *cmd, char *argv[], int maxprocs,
    MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm, int errs[]),
    (cmd, argv, maxprocs, info, root, comm, newcomm, errs), comm)
NEWCOMM(Comm_spawn_multiple, (int count, char *cmds[], char **argvs[],
    const int maxprocs[], const MPI_Info infos[], int root, MPI_Comm comm,
    MPI_Comm *newcomm, int errs[]),
    (count, cmds, argvs, maxprocs, infos, root, comm, newcomm, errs), comm)

/* MPI_Comm_free and MPI_Comm_disconnect: the communicator is forgotten
 * before its handle can come back for another one, and the record names
 * it. */
#define FREECOMM(name) \
REC_API int \
MPI_##name(MPI_Comm *comm) \
{ \
	int rc, id = -1; \
	ENTER(name); \
	if (KEEP) { \
		id = rec_comm_id(*comm); \
		rec_comm_free(*comm); \
	} \
	rc = PMPI_##name(comm); \
	if (ON) { \
		LEAVE(name); \
		e_.comm = id; \
		put(&e_); \
	} \
	return rc; \
}
FREECOMM(Comm_free)
/* It also waits for the communication pending on the communicator:
 * the replays keep that in its recorded time, as a local call's. */
FREECOMM(Comm_disconnect)
