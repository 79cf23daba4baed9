/* warn.c - the recorder's messages on stderr, formatted by hand, since
 * they are said in signal handlers too. */
#include <stdarg.h>
#include <unistd.h>

#include "libtr.h"
#include "core.h"

/* S at N in BUF of SIZE bytes, cut to fit; the new length. */
static size_t
wstr(char *buf, size_t size, size_t n, const char *s)
{
	while (*s && n < size)
		buf[n++] = *s++;
	return n;
}

void
rec_warn(const char *fmt, ...)
{
	char buf[512], num[24];
	size_t n;
	va_list ap;

	*tr_fmt_i64(num, rec.rank) = '\0';
	n = wstr(buf, sizeof buf - 1, 0, "tr-record: rank ");
	n = wstr(buf, sizeof buf - 1, n, num);
	n = wstr(buf, sizeof buf - 1, n, ": ");
	va_start(ap, fmt);
	for (; *fmt && n < sizeof buf - 1; fmt++)
		if (fmt[0] == '%' && fmt[1] == 's') {
			n = wstr(buf, sizeof buf - 1, n, va_arg(ap, const char *));
			fmt++;
		} else if (fmt[0] == '%' && fmt[1] == 'd') {
			*tr_fmt_i64(num, va_arg(ap, int)) = '\0';
			n = wstr(buf, sizeof buf - 1, n, num);
			fmt++;
		} else
			buf[n++] = *fmt;
	va_end(ap);
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		return;
}
