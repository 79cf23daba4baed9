/* tab/tab.h - stable ids for the handles records name: communicators
 * (with their comm and cart records), requests, persistent requests,
 * matched messages, files and windows. */
#ifndef REC_TAB_H
#define REC_TAB_H

#include "../buf/buf.h"

/* ---- comm.c: communicators ---- */

/* The tables begun (world and self), the text of their records given to
 * the buffer's. */
void rec_tab_init(void);
/* The id of COMM, registering it (and writing its comm record) if new. */
int rec_comm_id(MPI_Comm comm);
int rec_comm_new(MPI_Comm comm);	/* after a creating call */
void rec_comm_free(MPI_Comm comm);
int rec_world(MPI_Comm comm, int r);	/* world rank of rank r of comm */
const char *rec_comm_members(int idx, int *id, int *size);
/* The grid of a Cartesian COMM, written as a cart record. */
void rec_comm_cart(MPI_Comm comm, int nd, const int *dims,
    const int *periods);
/* 1 if COMM's cart record was written. */
int rec_comm_gridded(MPI_Comm comm);
/* Nonzero for an intercommunicator (its comm record names both groups). */
int rec_comm_inter(MPI_Comm comm);
/* "DIMS\tPERIODS" of a cart record, e.g. "4,2\t1,0". */
const char *rec_comm_grid(int idx, int *id);

/* ---- req.c: requests ---- */

/* Request ids: start returns the new id. */
struct rreq {
	int64_t id;
	int32_t peer, tag, comm, recv;
	int64_t bytes;
	MPI_Comm c;
	const void *slot;	/* where the application keeps it */
	long cidx;		/* a receive's communicator in tab/comm.c, -1 */
	long next;
};
/* Requests are found by handle, and by SLOT (the address where the
 * application keeps it, C or Fortran) among equal handles. */
int64_t rec_req_start(MPI_Request h, const void *slot, int peer,
    int64_t bytes, int tag, int comm, MPI_Comm c, int recv);
/* Looks up and forgets a completed request; 0 if unknown. What it
 * holds of its communicator (rec_req_world) is let go by
 * rec_req_forget, once the caller is done with *OUT. */
int rec_req_done(MPI_Request h, const void *slot, struct rreq *out);
int rec_req_world(const struct rreq *q, int r);	/* rec_world's, of q's */
void rec_req_forget(const struct rreq *q);
/* The id of the request in flight H (at SLOT), kept; -1 if not known. */
int64_t rec_req_id(MPI_Request h, const void *slot);

/* ---- obj.c: messages, files, windows ---- */

/* Matched probes: the message MPI_Mprobe or MPI_Improbe found (its
 * record: peer, tag, bytes, comm id), for the MPI_Mrecv or MPI_Imrecv
 * that takes it (OUT may be NULL); 0 if unknown. */
struct rmsg {
	int32_t peer, tag, comm;
	int64_t bytes;
	MPI_Comm c;
	long next;
};
void rec_msg_new(MPI_Message m, const struct rrec *e, MPI_Comm c);
int rec_msg_take(MPI_Message m, struct rmsg *out);
/* Open files: the id of the communicator each was opened on (-1 if
 * not known). */
void rec_file_new(MPI_File f, int comm);
int rec_file_comm(MPI_File f);
void rec_file_free(MPI_File f);
/* Windows: rec_win_new numbers a window made on COMM (-1 if it could
 * not be kept); rec_win gives its communicator's id, its number and the
 * world rank of TARGET (-1 if none), 0 if the window is not known. */
struct rwin {
	int comm, num, world;
};
int rec_win_new(MPI_Win w, MPI_Comm comm);
int rec_win(MPI_Win w, int target, struct rwin *out);
void rec_win_free(MPI_Win w);

/* ---- req.c: persistent requests ---- */

/* Persistent requests: what their MPI_*_init said (OP one of
 * OP_Send_init .. OP_Recv_init), for each MPI_Start. */
struct rpers {
	int op;
	int32_t peer, tag, comm;
	int64_t bytes;
	MPI_Comm c;
	long cidx;	/* a receive's communicator in tab/comm.c, held, -1 */
	long next;
	int shown;	/* its MPI_*_init was written: its free is too */
};
void rec_pers_new(MPI_Request h, int op, const struct rrec *e, MPI_Comm c,
    int shown);
const struct rpers *rec_pers_find(MPI_Request h);
/* MPI_Start of P (H at SLOT): rec_req_start's, its communicator's
 * entry the one P holds, freed or not. */
int64_t rec_pers_start(MPI_Request h, const void *slot,
    const struct rpers *p);
/* MPI_Request_free: forgets H, persistent or in flight (at SLOT). */
void rec_req_free(MPI_Request h, const void *slot);

#endif
