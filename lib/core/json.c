/* json.c - a byte string as a JSON string, for the writers of JSON. */
#include <string.h>

#include "core.h"

char *
tr_json_str(char *p, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *e = s + n;
	size_t k;

	*p++ = '"';
	for (; s < e; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			if (!(k = tr_utf8_len(s, (size_t)(e - s))))
				return NULL;
			memcpy(p, s, k);
			p += k;
			s += k - 1;
		} else if (c >= 0x20 && c != '"' && c != '\\') {
			*p++ = (char)c;
		} else if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else {
			memcpy(p, "\\u00", 4);
			p[4] = hex[c >> 4];
			p[5] = hex[c & 15];
			p += 6;
		}
	}
	*p++ = '"';
	return p;
}
