/* buf/buf.h - the record buffer and the trace it is written to: region
 * names, the buffer's slots, the text of its records, the gzip file,
 * and the flush that turns the one into the other. */
#ifndef REC_BUF_H
#define REC_BUF_H

#include <signal.h>
#include <stdatomic.h>

#include "../core/core.h"
#include "../site/site.h"

/* ---- name.c: region names ---- */

/* NAME's index, made if new (its spaces made '_'); -1 if none is left. */
long rec_name_index(const char *name);
const char *rec_name(size_t k);

/* ---- slot.c: the buffer ---- */

/* The buffer's next slot, emptied first if full. A record counts from
 * rec_commit, once it is filled: a crash handler that interrupts this
 * thread writes whole records only. */
struct rrec *rec_slot(void);
static inline void
rec_commit(void)
{
	__atomic_signal_fence(__ATOMIC_RELEASE);
	rec.n++;
}
void rec_flush_mark(void);	/* the last flush, as region tr.flush */
/* FLUSH empties the full buffer, FLUSHED follows once its time is
 * taken (flush.c's). */
void rec_slot_drain(void (*flush)(void), void (*flushed)(void));

/* ---- zout.c: the rank's gzip file ---- */

/* The stream was ended (finished), or stopped by a failure (failed). */
extern atomic_int rec_finished, rec_failed;
/* Reports once, stops recording. */
void rec_sys(const char *what);
int rec_out_alloc(void);
/* DIR/rank.R.tr.gz made, deflated by igzip's level 1 (LEVEL -1) or
 * zlib's LEVEL; -1, stopped, if not. */
int rec_out_open(const char *dir, int level);
int rec_out_ready(void);
enum { OUT_MORE, OUT_SYNC, OUT_END };
/* The N bytes at TXT deflated (MODE: OUT_SYNC makes all so far
 * decodable, OUT_END ends the stream); 0 if the file is gone. */
int rec_out_deflate(const char *txt, size_t n, int mode);
void rec_out_close(void);
/* TXT as a gzip member of its own after the end (outside handlers). */
void rec_out_member(const char *txt, size_t n);

/* ---- text.c: the records as lines ---- */

/* What the header and the end say, set by setup/ and crash/. */
extern struct rec_head {
	char *ghdr;		/* rank 0's global #meta lines */
	char host[256];
	int64_t off0, t0, origin;	/* offset at init, when, time zero */
	double drift;		/* ns per ns; 0 until finalize measured it */
	int havefini;
	int finhdr;		/* the fini keys, due in a continued header */
	char driftstr[32];	/* clock.drift's value, made outside handlers */
	int64_t offfini;
	const char *endwhy;	/* why the rank ends before MPI_Finalize */
} rec_head;
int rec_text_alloc(void);
/* The text of comm and cart records: the members and the grid of the
 * communicator of index IDX, and its id in *ID. */
void rec_text_tables(const char *(*members)(int idx, int *id, int *size),
    const char *(*grid)(int idx, int *id));
void rec_text_head(size_t i0, size_t n);
void rec_text_records(size_t i0, size_t n);
void rec_text_tail(int final);

/* ---- flush.c: the flush ---- */

/* The thread in the flush (its &rec_thread), NULL if none; the SIGTERM
 * and SIGINT (pending[0], [1]) that came meanwhile, each raised again
 * once the flush is done; the crashing thread that seized the recorder
 * from another (crash/take.c), whose flushes then wait. Each mark is
 * set by compare-and-swap from NULL and cleared by its own thread only
 * (rec_mark_own, rec_unmark). */
extern struct rec_guard {
	_Atomic(const void *) flusher, seized;
	volatile sig_atomic_t pending[2];
} rec_guard;
int rec_mark_own(_Atomic(const void *) *m);
void rec_unmark(_Atomic(const void *) *m);
void rec_nap(void);		/* a tenth of a millisecond */
void rec_flush_init(void);	/* the buffer's drain */
void rec_flush(int final);	/* then raises the signals kept meanwhile */
void rec_flush_now(int final);	/* keeps them */
void rec_flush_raise(void);

#endif
