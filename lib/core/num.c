/* num.c - numbers in and out, by hand where it is hot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int
tr_parse_i64(const char *s, size_t n, int64_t *v)
{
	const char *e = s + n;
	uint64_t x = 0, lim;
	int neg = 0;

	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	if (s == e)
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; s < e; s++) {
		unsigned d = (unsigned char)*s - '0';

		if (d > 9)
			return -1;
		if (x > (lim - d) / 10)
			return -2;
		x = x * 10 + d;
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

int
tr_parse_f64(const char *s, size_t n, double *v)
{
	char buf[64], *end;
	size_t i;
	int digit = 0;

	if (n == 0 || n >= sizeof buf)
		return -1;
	/* strtod also takes spaces, hex, inf and nan: the format does not. */
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			digit = 1;
		else if (!strchr("+-.eE", c))
			return -1;
	}
	if (!digit)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	if (*end)
		return -1;
	if (!isfinite(*v))
		return -2;
	return 0;
}

static int
parse_unit(const char *s, const struct tr_unit *u, int64_t *out)
{
	char *end;
	double x;

	if (!*s || strchr(" \t", *s))
		return -1;
	x = strtod(s, &end);
	if (end == s || !isfinite(x))
		return -1;
	for (; u->name; u++) {
		if (strcmp(end, u->name) == 0) {
			const char *d = s + (*s == '+');
			size_t sign = *d == '-', n = (size_t)(end - d);
			int64_t i;

			/* A whole number is taken exactly: a double holds
			 * ns since the epoch only to 256 ns. */
			if (strspn(d + sign, "0123456789") == n - sign &&
			    tr_parse_i64(d, n, &i) == 0)
				return __builtin_mul_overflow(i,
				    (int64_t)u->mul, out) ? -1 : 0;
			x *= u->mul;
			if (fabs(x) >= 9.2e18)
				return -1;
			*out = (int64_t)llround(x);
			return 0;
		}
	}
	return -1;
}

const struct tr_unit tr_dur_units[] = {
	{"", 1}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	{NULL, 0}
};

/* What people type: a letter alone is binary, as in dd, sort -S, java
 * -Xmx and Slurm (64k is 65536), KB and kB are SI (1000), KiB is IEC. */
const struct tr_unit tr_size_units[] = {
	{"", 1}, {"B", 1},
	{"k", 1024.0}, {"K", 1024.0}, {"KiB", 1024.0},
	{"KB", 1e3}, {"kB", 1e3},
	{"m", 1048576.0}, {"M", 1048576.0}, {"MiB", 1048576.0}, {"MB", 1e6},
	{"g", 1073741824.0}, {"G", 1073741824.0}, {"GiB", 1073741824.0},
	{"GB", 1e9},
	{NULL, 0}
};

int
tr_parse_dur(const char *s, int64_t *ns)
{
	return parse_unit(s, tr_dur_units, ns);
}

int
tr_parse_size(const char *s, int64_t *bytes)
{
	return parse_unit(s, tr_size_units, bytes);
}

int
tr_parse_window(const char *s, int64_t *t0, int64_t *t1)
{
	const char *c = strchr(s, ':');
	char a[64];

	/* num.c stands alone in tr-bench: no allocation here */
	if (!c || (size_t)(c - s) >= sizeof a)
		return -1;
	memcpy(a, s, (size_t)(c - s));
	a[c - s] = 0;
	return (*a && tr_parse_dur(a, t0)) || (c[1] && tr_parse_dur(c + 1,
	    t1)) || *t1 < *t0 ? -1 : 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The eight digits of v < 10^8 as the bytes 0-9 of a word, the first
 * digit in its lowest byte, found without a division per digit: v is
 * split into two lanes of four digits, each lane into two of two, each
 * of those into two of one. A lane's quotient by 100 is (x * 10486) >>
 * 20 and by 10 is (x * 103) >> 10, exact for the lanes' values. */
static inline uint64_t
dig8(uint64_t v)
{
	uint64_t x = v / 10000 | (v % 10000) << 32, h, y, t;

	h = (x * 10486) >> 20 & 0x0000007f0000007fULL;
	y = h | (x - 100 * h) << 16;
	t = (y * 103) >> 10 & 0x000f000f000f000fULL;
	return t | (y - 10 * t) << 8;
}

#define ZEROS 0x3030303030303030ULL

/* v < 10^8 without leading zeros; eight bytes are stored at p. */
static inline char *
put_head(char *p, uint64_t v)
{
	uint64_t d = dig8(v);
	int k = v ? __builtin_ctzll(d) >> 3 : 7;

	d = (d + ZEROS) >> (8 * k);
	memcpy(p, &d, 8);
	return p + 8 - k;
}

static inline char *
put8(char *p, uint64_t v)
{
	uint64_t d = dig8(v) + ZEROS;

	memcpy(p, &d, 8);
	return p + 8;
}

/* Eight digits at a time; stores run at most to p + 20. */
char *
tr_fmt_i64(char *p, int64_t v)
{
	uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	if (v < 0)
		*p++ = '-';
	if (x < 100000000)
		return put_head(p, x);
	if (x < 10000000000000000ULL) {
		p = put_head(p, x / 100000000);
		return put8(p, x % 100000000);
	}
	p = put_head(p, x / 10000000000000000ULL);
	p = put8(p, x / 100000000 % 100000000);
	return put8(p, x % 100000000);
}
#else
/* Two digits at a time, written in place from the end: the length is
 * known first, so there is no copy of a variable length to make. */
char *
tr_fmt_i64(char *p, int64_t v)
{
	static const char dd[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "62636465666768697071727374757677787980818283848586878889909192"
	    "939495969798999";
	uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v, y;
	char *e;
	int n = 1;

	if (v < 0)
		*p++ = '-';
	for (y = x; y >= 100; y /= 100)
		n += 2;
	n += y >= 10;
	e = p + n;
	while (x >= 100) {
		e -= 2;
		memcpy(e, dd + 2 * (x % 100), 2);
		x /= 100;
	}
	if (x >= 10) {
		e -= 2;
		memcpy(e, dd + 2 * x, 2);
	} else
		*--e = (char)('0' + x);
	return p + n;
}
#endif

const char *
tr_f64str(char *buf, double v)
{
	int prec;

	if (v == 0) {
		strcpy(buf, "0");
		return buf;
	}
	/* %g drops trailing zeros, so the first precision that reads back
	 * gives the shortest form. */
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, 32, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

const char *
tr_f64text(char *buf, double v)
{
	double a = fabs(v);
	int dec = 0;

	if (!(a < 1e15))
		return tr_f64str(buf, v);
	if (a > 0 && a < 1e5 && v != floor(v))
		dec = 5 - (int)floor(log10(a));
	if (dec > 15)
		return tr_f64str(buf, v);
	snprintf(buf, 32, "%.*f", dec, v);
	if (dec > 0) {
		char *e = buf + strlen(buf);

		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			e[-1] = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	return buf;
}

char *
tr_fmt_f64(char *p, double v)
{
	char buf[32];
	size_t n = strlen(tr_f64str(buf, v));

	memcpy(p, buf, n);
	return p + n;
}
