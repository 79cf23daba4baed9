/* crash/crash.h - the paths that end a rank's trace before
 * MPI_Finalize (signals, MPI_Abort, fatal MPI errors, exit), the
 * program's jumps out of the recorder, and the taking of the recorder
 * from another thread they share with MPI_Finalize. */
#ifndef REC_CRASH_H
#define REC_CRASH_H

#include <signal.h>

#include "../buf/buf.h"

/* ---- take.c: the recorder had by a crash path ---- */

enum { TAKE_NONE, TAKE_OWN, TAKE_CLAIMED, TAKE_SEIZED };
#define TAKE_WAIT 3000000000LL	/* ns; see take.c */
int rec_take(int64_t wait, int seize);

/* ---- exit.c: the end before MPI_Finalize ---- */

/* The signal whose handler of the program's was called (sigwhy); a
 * crash signal that ended the recording (crashend), which the rank
 * lived on past (survived: a jump out of the handler), which the file
 * says once, in a gzip member of its own (rec_exit_note). */
extern struct rec_crash {
	const char *sigwhy;
	volatile sig_atomic_t crashend, survived;
} rec_crash;
void rec_exit_init(void);	/* at exit, and in a fork's child */
void rec_exit_early(const char *why);
void rec_exit_note(void);
void rec_abort(void);

/* ---- signal.c: the crash signals ---- */

void rec_signal_init(void);

/* ---- fatal.c: MPI_ERRORS_ARE_FATAL ---- */

void rec_fatal_init(void);	/* on the world and self communicators */
/* The window's MPI_ERRORS_ARE_FATAL replaced by one that flushes. */
void rec_fatal_win(MPI_Win w);

#endif
