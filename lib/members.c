/* members.c - the member lists of comm records: world ranks as a,b or
 * ranges a-b or strided ranges a-b:s, comma-separated (tr-format(5)). */
#include <stdlib.h>

#include "libtr.h"

int
tr_members(const char *p, size_t n, long **out, long *cnt)
{
	size_t cap = 0;
	long *m = NULL, k = 0;
	const char *e = p + n, *q;

	while (p < e) {
		int64_t a, b, st = 1;
		const char *c;

		for (q = p; q < e && *q != ','; q++)
			;
		for (c = p; c < q && *c != '-' && *c != ':'; c++)
			;
		if (tr_parse_i64(p, (size_t)(c - p), &a) || a < 0)
			goto bad;
		b = a;
		if (c < q && *c == '-') {
			const char *d;
			for (d = c + 1; d < q && *d != ':'; d++)
				;
			if (tr_parse_i64(c + 1, (size_t)(d - c - 1), &b) || b < a)
				goto bad;
			if (d < q && (tr_parse_i64(d + 1, (size_t)(q - d - 1),
			    &st) || st < 1))
				goto bad;
		} else if (c < q)
			goto bad;
		if (!out)
			k += (long)((b - a) / st + 1);
		else
			for (; a <= b; a += st) {
				tr_grow(&m, &cap, (size_t)k + 1, sizeof *m);
				m[k++] = (long)a;
			}
		p = q + 1;
	}
	if (out)
		*out = m;
	*cnt = k;
	return 0;
bad:
	free(m);
	return -1;
}
