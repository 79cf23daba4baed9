/* core/core.h - the recorder's state, clocks and claim, shared by every
 * layer of libtr-record.so, the PMPI interposition library.
 *
 * Layers, each calling only those below it: core (this state, messages,
 * what the trace lacks, error classes); site (addresses to modules);
 * buf (the record buffer, region names, its text and gzip writing, the
 * flush); tab (communicator and request ids, whose comm records it
 * writes into the buffer); crash (signals, fatal MPI errors, jumps, the
 * end before MPI_Finalize); setup (init, clock synchronisation, the
 * environment, finalize); wrap and fwrap (the C and Fortran MPI
 * functions and the tr.h entry points). Records are turned into text,
 * corrected to rank 0's clock and deflated only when the buffer is
 * flushed, so the wrappers' hot path does no formatting. */
#ifndef REC_CORE_H
#define REC_CORE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define REC_API __attribute__((visibility("default")))

/* Operation codes: index into rec_opname. */
enum {
#define OP(x) OP_##x,
#define OPS(x, s) OP_##x,
#include "../ops.h"
#undef OP
#undef OPS
	OP_N
};
extern const char *const rec_opname[OP_N];

enum { RK_EV, RK_ENTER, RK_LEAVE, RK_COMM, RK_CART };

/* One buffered record. For RK_ENTER/LEAVE, op is the region name's
 * index; for RK_COMM and RK_CART, req is the communicator's index in
 * tab/comm.c. */
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
	/* Ticks of the time-stamp counter that rec.clk reads (rec_tick):
	 * usable at all, the first reading and the last (anchor) of the
	 * clock with the counter at each, ns per tick << 32 (0 until
	 * known), and the ticks after the anchor past which it is read
	 * again. */
	int tsc;
	uint64_t tsc0, tsca, tscmult, tscmax;
	int64_t ns0, nsa;
	/* The thread inside a wrapper (its &rec_thread), NULL if none:
	 * claimed by compare-and-swap (rec_claim). */
	const void *owner;
	volatile int others;	/* a thread called MPI while another was */
	unsigned char skip[OP_N];
	unsigned char poll[OP_N];	/* a test or probe, which may find nothing */
	struct rrec *buf;
	size_t n, cap;
	int64_t emptied;	/* times the buffer was emptied (see let_go) */
	int64_t nflush, flushns; /* flushes before the last, their time */
	long flushname;		/* the index of region "tr.flush", -1 if none */
};
extern struct rec_state rec;
/* Its address names the calling thread; initial-exec: one instruction,
 * and the library is loaded at start-up (preloaded or linked). */
extern __thread char rec_thread __attribute__((tls_model("initial-exec")));
/* Nonzero while this thread is in the crash handler, the program's
 * handler it calls included: what runs then allocates nothing, takes no
 * lock and formats by hand (async-signal-safe), with what setup and the
 * flushes outside handlers prepared (the loaded modules, spare room). */
extern __thread int rec_insig __attribute__((tls_model("initial-exec")));

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

static inline uint64_t
rec_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	/* Not fenced as the kernel's read is (lfence: 18 ns a read here
	 * against 10): the counter may be read a few cycles early, an
	 * error of a ns or two on a poll of 40. */
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
#else
	return 0;
#endif
}

/* tick.c: rec.tsc set where the clock is the time-stamp counter;
 * rec_anchor reads the clock between two reads of the counter, the
 * anchor of rec_tick, and measures the counter's rate since the first
 * anchor. */
void rec_tick_init(void);
int64_t rec_anchor(void);

/* rec_now's clock, from the time-stamp counter since the last anchor:
 * a poll that may join the record of the one before reads only the
 * counter. clock_gettime reads that same counter (clocksource tsc) and
 * scales it: 23 ns a read here against 10 for the counter, and a merged
 * poll reads twice. The counter is extrapolated 100 us at most, at a
 * rate measured over 10 ms or more to 1e-5 or better: a ns of error. */
static inline int64_t
rec_tick(void)
{
	uint64_t d = rec_ticks() - rec.tsca;

	if (__builtin_expect(d > rec.tscmax, 0))
		return rec_anchor();
	return rec.nsa + (int64_t)((d * rec.tscmult) >> 32);
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

/* The buffer and the tables are one thread's at a time. Under
 * MPI_THREAD_MULTIPLE two threads may enter wrappers at once, so the
 * thread that records a call (or keeps the tables) claims the recorder
 * with one compare-and-swap, uncontended a few ns; a thread that finds
 * it claimed by another leaves its call out, and one that finds it
 * claimed by itself is MPI calling MPI. */
static inline int
rec_claim(void)
{
	const void *none = NULL;
	int64_t ns;

	if (!__atomic_compare_exchange_n(&rec.owner, &none, &rec_thread, 0,
	    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	/* The time tr_rec_add_time added since, made the clock's by the
	 * holder only: a call in progress keeps one shift from start to
	 * end. */
	if (__atomic_load_n(&rec.added, __ATOMIC_RELAXED)) {
		ns = __atomic_exchange_n(&rec.added, 0, __ATOMIC_RELAXED);
		rec.shift += ns;
		if (rec.cpu)
			rec.addcpu += ns;
	}
	return 1;
}

static inline void
rec_release(void)
{
	__atomic_store_n(&rec.owner, NULL, __ATOMIC_RELEASE);
}

/* warn.c: one line on stderr, "tr-record: rank R: " and FMT with its
 * %s and %d, formatted by hand (said in signal handlers too). */
void rec_warn(const char *fmt, ...);

/* room.c: room for element N of the array at *PP of *CAP elements of SZ
 * bytes, doubling it; -1 when memory ran out (the caller records less). */
int rec_room(void *pp, size_t *cap, size_t n, size_t sz);

/* clean.c: TAB, CR and LF in S made spaces (a field holds none). */
void rec_clean(char *s);

/* note.c: #meta unrecorded.KIND=WHAT, once per kind (string constants),
 * said on stderr by rank 0 with NOTE; the flush writes the ones not yet
 * done. */
struct rec_note {
	const char *kind, *what;
	int done;
};
void rec_unrecorded(const char *kind, const char *what, const char *note);
struct rec_note *rec_notes(int *n);
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

/* fail.c: the error class of a call's code RC, not MPI_SUCCESS (said
 * in the trace as unrecorded.failed); its MPI name, or NULL for a class
 * the standard does not name (async-signal-safe). */
int32_t rec_fail(int rc);
int32_t rec_errclass(int rc);	/* its class alone, not said in the trace */
const char *rec_errname(int32_t cls);

#endif
