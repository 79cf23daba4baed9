/* utf8.c - whether bytes are UTF-8. The format is UTF-8 text, but its
 * readers do not check it (a cost on every field); the writers of JSON,
 * SVG and HTML do, since their readers reject anything else (an SVG
 * with one stray byte does not open). */
#include "core.h"

size_t
tr_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c;
	size_t len, i;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] < 0xc2)	/* a continuation byte, or overlong */
		return 0;
	if (u[0] < 0xe0) {
		len = 2;
		c = u[0] & 0x1f;
	} else if (u[0] < 0xf0) {
		len = 3;
		c = u[0] & 0x0f;
	} else if (u[0] < 0xf5) {
		len = 4;
		c = u[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}
