/* fortify.c - glibc's checked printf entry points, for a static musl
 * build: Debian compiles libotf2.a with _FORTIFY_SOURCE, which turns
 * its printf calls into these. They check what glibc would and call
 * musl's own. */
#ifndef __GLIBC__
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int __snprintf_chk(char *, size_t, int, size_t, const char *, ...);
int __fprintf_chk(FILE *, int, const char *, ...);
int __vfprintf_chk(FILE *, int, const char *, va_list);

int
__snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt,
    ...)
{
	va_list ap;
	int r;

	(void)flag;
	if (n > slen)
		abort();
	va_start(ap, fmt);
	r = vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}

int
__fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	va_list ap;
	int r;

	(void)flag;
	va_start(ap, fmt);
	r = vfprintf(f, fmt, ap);
	va_end(ap);
	return r;
}

int
__vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	return vfprintf(f, fmt, ap);
}
#else
typedef int tr_fortify_glibc;	/* glibc has its own */
#endif
