/* exit.c - the end of a rank before MPI_Finalize: exit, MPI_Abort, a
 * crash signal, a fatal MPI error; and a fork's child, which records
 * nothing. */
#include <pthread.h>
#include <stdlib.h>

#include "crash.h"

struct rec_crash rec_crash;
static int noted;

/* The last flush of a rank that will not reach MPI_Finalize, marked
 * (#meta end.R=WHY) so that tools do not take its records for the
 * whole run. */
void
rec_exit_early(const char *why)
{
	int t;

	if (rec_finished)
		return;
	/* exit() in a handler that interrupted this thread's flush (one
	 * that tr-record does not call itself) */
	if (atomic_load(&rec_guard.flusher) == &rec_thread) {
		rec_warn("%s while writing the trace: it ends cut, at the "
		    "last flush", why);
		return;
	}
	t = rec_take(TAKE_WAIT, 1);
	if (t == TAKE_NONE && rec_finished)
		return;
	if (t == TAKE_NONE) {
		rec_warn("another thread was still writing the trace: it "
		    "ends cut, at that thread's last flush");
		return;
	}
	if (!rec_head.endwhy)
		rec_head.endwhy = why;
	/* signals kept meanwhile are not raised: the process ends */
	rec_flush_now(1);
	if (t == TAKE_CLAIMED)
		rec_release();
}

/* A rank whose recording a crash signal ended, and that lived on (its
 * handler jumped out of it, and it went on to MPI_Finalize or exit):
 * its calls since are not in its file, which says so after the end
 * mark, in a gzip member of its own (outside handlers: zlib allocates). */
void
rec_exit_note(void)
{
	static const char txt[] = "#tr 1\n#meta unrecorded.survived="
	    "the calls a rank made after the crash signal that ended its "
	    "recording (#meta end.R), which it survived\n";

	if (noted || !rec_crash.crashend || rec_insig)
		return;
	noted = 1;
	rec_warn("survived %s, which ended the recording: the calls since "
	    "are not recorded", rec_head.endwhy);
	rec_out_member(txt, sizeof txt - 1);
}

/* A child of fork (not of exec) shares the rank's file: its exit or
 * crash would write its copy of the buffer and end the gzip stream in
 * the middle of the rank's, whose later records are then junk after
 * the end. The rank records; its children do not. */
static void
forked(void)
{
	rec_finished = 1;
	rec.on = 0;
}

static void
atexit_flush(void)
{
	if (!rec_finished)
		rec_exit_early(rec_crash.sigwhy ? rec_crash.sigwhy : "exit");
	else if (rec_crash.survived)
		rec_exit_note();
}

void
rec_abort(void)
{
	rec_exit_early("MPI_Abort");
}

void
rec_exit_init(void)
{
	atexit(atexit_flush);
	pthread_atfork(NULL, NULL, forked);
}
