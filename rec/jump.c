/* jump.c - the program's longjmp and siglongjmp, seen on their way.
 *
 * A handler that jumps out of a signal, or an MPI error handler that
 * jumps out of the call it was called in, leaves tr-record's frames
 * without returning through them: rec_jumped puts right what they
 * would have on return. The jump itself is the C library's, found once
 * at load (dlsym is not async-signal-safe; a jump may come from a
 * handler). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdlib.h>

#include "rec.h"

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

static _Noreturn void
jump(jumpfn *f, struct __jmp_buf_tag *env, int val)
{
	rec_jumped();
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
