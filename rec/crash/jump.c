/* jump.c - the program's longjmp and siglongjmp, seen on their way.
 *
 * A handler that jumps out of a signal, or an MPI error handler that
 * jumps out of the call it was called in, leaves tr-record's frames
 * without returning through them: jumped() puts right what they
 * would have on return. The jump itself is the C library's, found once
 * at load (dlsym is not async-signal-safe; a jump may come from a
 * handler). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdlib.h>

#include "crash.h"

typedef void jumpfn(struct __jmp_buf_tag *, int);
/* _FORTIFY_SOURCE's checked longjmp and siglongjmp */
extern jumpfn __longjmp_chk;

static jumpfn *real_longjmp, *real_siglongjmp, *real__longjmp,
    *real___longjmp_chk;

static jumpfn *
next(const char *name)
{
	return (jumpfn *)dlsym(RTLD_NEXT, name);
}

__attribute__((constructor)) static void
find_jumps(void)
{
	real_longjmp = next("longjmp");
	real_siglongjmp = next("siglongjmp");
	real__longjmp = next("_longjmp");
	real___longjmp_chk = next("__longjmp_chk");
}

/* Before a longjmp or siglongjmp of the program's: a jump out of a
 * signal handler or out of an MPI callback (an error handler) never
 * returns into tr-record, which would stay in the handler (rec_insig)
 * and, jumped out of a wrapper, keep the recorder claimed by this thread:
 * its later calls would look like MPI calling MPI, and not be recorded.
 * Only code run inside a wrapper, or a handler, jumps while the
 * recorder is claimed by its thread: the jump leaves that call, whose
 * record never comes. Async-signal-safe. */
static void
jumped(void)
{
	if (rec_crash.crashend)
		rec_crash.survived = 1;
	if (!rec_insig &&
	    __atomic_load_n(&rec.owner, __ATOMIC_RELAXED) != &rec_thread)
		return;
	rec_insig = 0;
	/* out of this thread's own flush: zlib's stream is half written */
	if (atomic_load_explicit(&rec_guard.flusher, memory_order_relaxed) ==
	    &rec_thread) {
		rec_warn("a jump out of a signal handler left the trace "
		    "while it was being written: it ends cut, at the last "
		    "flush");
		rec_failed = 1;
		rec.on = 0;
		rec_unmark(&rec_guard.flusher);
	}
	if (__atomic_load_n(&rec.owner, __ATOMIC_RELAXED) == &rec_thread)
		rec_release();
}

static _Noreturn void
jump(jumpfn *f, struct __jmp_buf_tag *env, int val)
{
	jumped();
	if (!f)		/* not in this C library: there is no going on */
		abort();
	f(env, val);
	abort();
}

#define JUMP(name) \
REC_API void \
name(struct __jmp_buf_tag env[1], int val) \
{ \
	jump(real_##name, env, val); \
}
JUMP(longjmp)
JUMP(siglongjmp)
JUMP(_longjmp)
JUMP(__longjmp_chk)
