/* rec.h - internals of libtr-record.so, the PMPI interposition library.
 *
 * Wrappers (wrap.c) time each call and append a fixed-size binary record
 * to a per-rank buffer (buf.c); records are turned into text, corrected
 * to rank 0's clock and deflated only when the buffer is flushed, so the
 * hot path does no formatting. Communicators and requests get stable
 * ids in tab.c; clock synchronisation and calibration live in sync.c. */
#ifndef REC_H
#define REC_H

#include <mpi.h>
#include <stdint.h>
#include <time.h>

#define REC_API __attribute__((visibility("default")))

/* Operation codes: index into rec_opname. */
enum {
#define OP(x) OP_##x,
#define OPS(x, s) OP_##x,
#include "ops.h"
#undef OP
#undef OPS
	OP_N
};
extern const char *const rec_opname[OP_N];

enum { RK_EV, RK_ENTER, RK_LEAVE, RK_COMM, RK_CART };

/* One buffered record. For RK_ENTER/LEAVE, op is the region name's
 * index; for RK_COMM and RK_CART, req is the communicator's index in
 * tab.c. */
struct rrec {
	int64_t start, end, cpu, seq, bytes, req, wtime;
	uintptr_t site;
	int32_t peer, tag, comm, root;
	int32_t err;		/* RK_EV: the error class it returned, 0 none */
	uint16_t op;
	uint8_t kind;
};

struct rec_state {
	int on;			/* recording (0 before init, off, or failed) */
	int cpu;		/* sample the thread CPU clock */
	int rank, np;
	clockid_t clk;
	int64_t seq, wtime;
	int64_t lastcpu;	/* thread CPU time at the end of the last record */
	int64_t shift;		/* virtual time added by tr_add_time */
	int64_t added;		/* tr_add_time's ns, due in shift (rec_claim) */
	int64_t addcpu;		/* CPU ns to add to the next record */
	int64_t cpucost;	/* CPU ns of one read of the thread CPU clock */
	int64_t cpuwin;		/* wall ns between reads of it, at least */
	int64_t cpuw, cpur;	/* wall and CPU time of the last read */
	int64_t cpudebt;	/* CPU ns of reads in the burst so far */
	int64_t flushcpu;	/* CPU ns a flush took, hidden from the next */
	/* The last flush, to be marked as region tr.flush before the next
	 * call: its times, CPU ns and the two sequence numbers kept for
	 * it (a completion's other requests may still follow). */
	int flpend;
	int64_t fl0, fl1, flcpu, flseq;
	int64_t pollgap;	/* polls closer than this (ns) are one record */
	int64_t polls;		/* polls merged into the one before */
	/* The thread inside a wrapper (its &rec_thread), NULL if none:
	 * claimed by compare-and-swap (rec_claim in call.h). */
	const void *owner;
	volatile int others;	/* a thread called MPI while another was */
	unsigned char skip[OP_N];
	unsigned char poll[OP_N];	/* a test or probe, which may find nothing */
	struct rrec *buf;
	size_t n, cap;
	int64_t emptied;	/* times the buffer was emptied (tab.c's let_go) */
};
extern struct rec_state rec;
/* Its address names the calling thread; initial-exec: one instruction,
 * and the library is loaded at start-up (preloaded or linked). */
extern __thread char rec_thread __attribute__((tls_model("initial-exec")));

static inline int64_t
rec_now(void)
{
	struct timespec ts;

	clock_gettime(rec.clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t
rec_cpunow(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The thread's CPU time at wall time W (rec_now's clock). A read of
 * the clock is a system call, 0.5 us here and several under load, and
 * two per MPI call made recording with CPU time ten times dearer than
 * without; so it is read only once cpuwin has passed since the last
 * read, and between reads taken as that read plus the wall time since,
 * as if the thread had run throughout. A thread descheduled for longer
 * than cpuwin makes the next call read it; shorter stops are the error,
 * at most cpuwin per burst. *READ says whether it was read (its cost
 * then lies between W and the call, which must start after it). */
static inline int64_t
rec_cpuat(int64_t w, int *read)
{
	*read = !(rec.cpuwin > 0 && w - rec.cpuw < rec.cpuwin);
	if (!*read)
		return rec.cpur + (w - rec.cpuw);
	rec.cpur = rec_cpunow();
	/* read halfway through its cost, half of which is in the burst */
	rec.cpuw = w + rec.cpucost / 2;
	rec.cpudebt += rec.cpucost / 2;
	return rec.cpur;
}

/* CPU ns of the burst that ends now, at CPU time NOW: since the last
 * record, less the reads of the clock made in it. */
static inline int64_t
rec_burst(int64_t now)
{
	int64_t b = now - rec.lastcpu - rec.cpudebt;

	rec.cpudebt = 0;
	return (b < 0 ? 0 : b) + rec.addcpu;
}

/* The CPU time of the flushes made since the last record's reading of
 * the clock, which its tr.flush mark counts: the next burst, read after
 * them, leaves it out. */
static inline void
rec_flushed(void)
{
	rec.lastcpu += rec.flushcpu;
	rec.flushcpu = 0;
}

/* buf.c */
void rec_preinit(void);			/* before PMPI_Init */
void rec_setup(int64_t tinit);		/* after PMPI_Init */
void rec_finish(void);				/* at MPI_Finalize, before PMPI */
void rec_flush(int final);
void rec_end(void);			/* MPI_Finalize's last flush */
void rec_abort(void);
void rec_jumped(void);			/* the program jumps (jump.c) */
/* The buffer's next slot, flushed first if full. A record counts from
 * rec_commit, once it is filled: a crash handler that interrupts this
 * thread writes whole records only. */
struct rrec *rec_slot(void);
static inline void
rec_commit(void)
{
	__atomic_signal_fence(__ATOMIC_RELEASE);
	rec.n++;
}
void rec_flush_mark(void);		/* the last flush, as region tr.flush */
void rec_warn(const char *fmt, ...);
/* #meta unrecorded.KIND=WHAT, once per kind (string constants). */
void rec_unrecorded(const char *kind, const char *what, const char *note);
/* What rank 0 says a replay lacks: the calls' messages, or for failed
 * calls, which are in the trace, the messages of theirs no record
 * completes. */
#define UNREC_LACKS "not recorded, so the trace lacks those messages"
#define UNREC_PERSIST "persistent", "persistent requests not made by MPI_{Send,Bsend,Ssend,Rsend,Recv}_init", UNREC_LACKS
#define UNREC_INTER "intercomm", "the messages of collectives on intercommunicators (replays take them as collectives over both groups)", UNREC_LACKS
#define UNREC_SPAWN "spawn", "the processes started by MPI_Comm_spawn, and the messages to and from them", UNREC_LACKS
#define UNREC_THREADS "threads", "calls made while another thread of the rank was in MPI (MPI_THREAD_MULTIPLE)", UNREC_LACKS
#define UNREC_FAILED "failed", "calls that returned an error (MPI_ERRORS_RETURN), written as fail records, not ev", "replays take only the messages their records complete (a truncated receive's)"
#define UNREC_NEIGHBOR "neighbor", "the point-to-point messages of neighborhood collectives on graph topologies (MPI_Neighbor_*, MPI_Ineighbor_*)", UNREC_LACKS
void rec_sys(const char *what);	/* reports once, stops recording */

/* fail.c: the error class of a call's code RC, not MPI_SUCCESS (said
 * in the trace as unrecorded.failed); its MPI name, or NULL for a class
 * the standard does not name (async-signal-safe). */
int32_t rec_fail(int rc);
int32_t rec_errclass(int rc);	/* its class alone, not said in the trace */
const char *rec_errname(int32_t cls);

/* sync.c: offsets of this rank's clock to rank 0's, by ping-pong. */
int64_t rec_sync_offset(void);
int64_t rec_timer_cost(void);
int64_t rec_barrier_cost(MPI_Comm c);

/* eager.c: "#meta eager.shm=N\n#meta eager.net=N\n", the lines the
 * run's MPI library has, into BUF; their length. */
int rec_eager_meta(char *buf, size_t size);

/* tab.c: communicators and requests. */
void rec_tab_init(void);
int rec_room(void *pp, size_t *cap, size_t n, size_t sz);
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
/* Request ids: start returns the new id. */
struct rreq {
	int64_t id;
	int32_t peer, tag, comm, recv;
	int64_t bytes;
	MPI_Comm c;
	const void *slot;	/* where the application keeps it */
	long cidx;		/* a receive's communicator in tab.c, -1 */
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
/* buf.c: the window's MPI_ERRORS_ARE_FATAL replaced by one that flushes. */
void rec_win_fatal(MPI_Win w);
int rec_win(MPI_Win w, int target, struct rwin *out);
void rec_win_free(MPI_Win w);
/* Persistent requests: what their MPI_*_init said (OP one of
 * OP_Send_init .. OP_Recv_init), for each MPI_Start. */
struct rpers {
	int op;
	int32_t peer, tag, comm;
	int64_t bytes;
	MPI_Comm c;
	long cidx;	/* a receive's communicator in tab.c, held, -1 */
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
