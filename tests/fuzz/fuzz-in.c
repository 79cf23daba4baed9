/* fuzz-in.c - the record reader: one trace, plain or gzip, or two read
 * as one stream of sections, or the trace repeated past 64 KiB, which
 * the reader reads on a second thread. The first byte picks the mode,
 * and whether fields are then read as the tools read them (in-field.c):
 * always, a bad field of a type the reader does not know would end the
 * input before the reader's later paths. */
#include <zlib.h>

#include "fuzz.h"

static int kinds;

/* Fields read as tr-filter's expressions read them: an ev record's
 * integers where struct tr_ev keeps them, another type's first field
 * as a number and its last as an integer. */
static void
fields(const struct tr_in *in, const struct tr_rec *r)
{
	volatile int64_t sink = 0;
	int c;

	if (r->type == TR_EV) {
		for (c = 1; c < r->nf; c++)
			if (tr_ev_offset(c) >= 0)
				sink += *(const int64_t *)((const char *)&r->u.ev +
				    tr_ev_offset(c));
		return;
	}
	if (r->type != TR_OTHER || r->nf < 2)
		return;
	sink += (int64_t)(tr_get_f64(in, r, 1) != 0);
	if (r->nf > 2)
		sink += tr_get_i64(in, r, r->nf - 1);
	(void)sink;
}

static void
readall(int nf, char **files)
{
	struct tr_rec r;
	int k;
	struct tr_in *in = tr_open(nf, files);

	while ((k = tr_next(in, &r)) != TR_EOF)
		if (kinds && k == TR_REC)
			fields(in, &r);
	tr_close(in);
}

static const char *
gzfile(const uint8_t *d, size_t n)
{
	uLongf zn = compressBound(n) + 32;
	unsigned char *z = malloc(zn);
	z_stream s;
	const char *p;

	memset(&s, 0, sizeof s);
	if (deflateInit2(&s, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	s.next_in = (unsigned char *)d;
	s.avail_in = n;
	s.next_out = z;
	s.avail_out = zn;
	deflate(&s, Z_FINISH);
	p = fuzz_file(".gz", z, zn - s.avail_out);
	deflateEnd(&s);
	free(z);
	return p;
}

/* N bytes of D again and again, whole, to 64 KiB and over. */
static const char *
bigfile(const uint8_t *d, size_t n)
{
	size_t i, big = n ? n * (65536 / n + 1) : 65536;
	char *b = malloc(big);
	const char *p;

	for (i = 0; i < big; i++)
		b[i] = n ? (char)d[i % n] : '\n';
	p = fuzz_file(".tr", b, big);
	free(b);
	return p;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *files[2];
	const uint8_t *cut;
	int mode;

	if (size < 1)
		return 0;
	mode = data[0] % 4;
	kinds = data[0] & 4;
	data++, size--;
	if (FUZZ_TRY()) {
		if (mode == 0) {
			files[0] = (char *)fuzz_file(".tr", data, size);
			readall(1, files);
		} else if (mode == 1) {
			files[0] = (char *)gzfile(data, size);
			readall(1, files);
		} else if (mode == 3) {
			files[0] = (char *)bigfile(data, size);
			readall(1, files);
		} else {
			/* two files at a form feed, merged as tr-cat -m
			 * merges them: tr_open reads them as one stream
			 * of sections */
			cut = memchr(data, '\f', size);
			if (!cut)
				cut = data + size;
			files[0] = (char *)fuzz_file(".tr", data,
			    (size_t)(cut - data));
			files[1] = (char *)gzfile(cut + (cut < data + size),
			    size - (size_t)(cut - data) - (cut < data + size));
			readall(2, files);
		}
	}
	fuzz_end();
	return 0;
}
