/* err.c - one way to report: "tr-x: message". */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

const char *tr_argv0 = "tr";
void (*tr_atdie)(void);

/* Each thread's own: a merge on a thread of its own (tr_merge_start)
 * pushes and pops beside the reader's loaders, and a die on it frees
 * only what it holds. */
enum { MAXUNDO = 8 };
static _Thread_local struct {
	void (*f)(void *);
	void *arg;
} undo[MAXUNDO];
static _Thread_local int nundo;

void
tr_undo_push(void (*f)(void *), void *arg)
{
	if (nundo == MAXUNDO)
		abort();	/* no loader nests this deep */
	undo[nundo].f = f;
	undo[nundo++].arg = arg;
}

void
tr_undo_pop(void)
{
	nundo--;
}

void
tr_init(const char *argv0)
{
	const char *p = strrchr(argv0, '/');

	tr_argv0 = p ? p + 1 : argv0;
	/* A filter whose reader went away should stop quietly, not report
	 * a write error: the shell may have set SIGPIPE to ignored. */
	signal(SIGPIPE, SIG_DFL);
}

static void
vwarn(const char *fmt, va_list ap)
{
	int e = errno;
	size_t n = strlen(fmt);

	fprintf(stderr, "%s: ", tr_argv0);
	vfprintf(stderr, fmt, ap);
	if (n && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(e));
	fputc('\n', stderr);
}

void
tr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

/* Bad data in FILE at LINE (none if 0): "tr-x: FILE:LINE: message",
 * exit 3. The readers of traces, networks and models, and tr-nsim, all
 * say it this way. */
_Noreturn void
tr_vdie_at(const char *file, long line, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (line > 0)
		tr_die(TR_EXIT_DATA, "%s:%ld: %s", file, line, msg);
	tr_die(TR_EXIT_DATA, "%s: %s", file, msg);
}

_Noreturn void
tr_die_at(const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_at(file, line, fmt, ap);
}

/* "stdin" for "-", as the reader names it. */
static const char *
fname(const char *f)
{
	return strcmp(f, "-") == 0 ? "stdin" : f;
}

const char *
tr_files_str(char *buf, size_t cap, int nfiles, char *const *files)
{
	if (nfiles <= 0)
		return "stdin";
	if (nfiles == 1)
		return fname(files[0]);
	if (nfiles == 2)
		snprintf(buf, cap, "%s, %s", fname(files[0]), fname(files[1]));
	else if (nfiles == 3)
		snprintf(buf, cap, "%s, %s, %s", fname(files[0]),
		    fname(files[1]), fname(files[2]));
	else
		snprintf(buf, cap, "%s ... %s (%d files)", fname(files[0]),
		    fname(files[nfiles - 1]), nfiles);
	return buf;
}

_Noreturn void
tr_vdie_files(int nfiles, char *const *files, const char *fmt, va_list ap)
{
	char name[1024];

	tr_vdie_at(tr_files_str(name, sizeof name, nfiles, files), 0, fmt, ap);
}

_Noreturn void
tr_die_files(int nfiles, char *const *files, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_files(nfiles, files, fmt, ap);
}

_Noreturn void
tr_die(int status, const char *fmt, ...)
{
	va_list ap;
	void (*f)(void) = tr_atdie;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	tr_atdie = NULL;	/* a failing flush must not recurse */
	while (nundo > 0) {
		nundo--;
		undo[nundo].f(undo[nundo].arg);
	}
	if (f)
		f();
	exit(status);
}
