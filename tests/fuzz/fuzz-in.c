/* fuzz-in.c - the record reader: one trace, plain or gzip, or two
 * merged by time as tr-cat -m merges them (a plain and a gzip file), or
 * the trace repeated past 64 KiB, which the reader reads on a second
 * thread. The first byte picks the mode and what the reader is asked
 * as the tools ask it: fields read as in-field.c reads them (not
 * always: a bad field of a type the reader does not know would end the
 * input before the reader's later paths), a subset of the ev columns
 * (tr_in_want), the checks of ranks and of a cut gzip file
 * (tr_in_check), the header's metadata as numbers; or the input as
 * text lines (tr_open_text, tr_open_conf), as the strace, network and
 * model readers take theirs. */
#include <fcntl.h>
#include <zlib.h>

#include "fuzz.h"

enum {
	KINDS = 4,		/* fields as the tools read them */
	WANT = 8,		/* a subset of the ev columns */
	CHECKS = 16,		/* tr_in_check's */
	NUMBERS = 32,		/* np and N as numbers, sums of bytes */
	TEXT = 64,		/* lines, not records */
	LASTLF = 128		/* text: a last line without its LF */
};
static int flags;
static int64_t bytes;		/* an input's sum, as tr-stat's */

/* Fields read as tr-filter's expressions read them: an ev record's
 * integers where struct tr_ev keeps them, another type's first field
 * as a number and its last as an integer. */
static void
fields(const struct tr_in *in, const struct tr_rec *r)
{
	volatile uint64_t sink = 0;	/* unsigned: sums of any values */
	int c;

	if (r->type == TR_EV) {
		for (c = 1; c < r->nf; c++)
			if (tr_ev_offset(c) >= 0)
				sink += (uint64_t)*(const int64_t *)((const
				    char *)&r->u.ev + tr_ev_offset(c));
		return;
	}
	if (r->type != TR_OTHER || r->nf < 2)
		return;
	sink += (int64_t)(tr_get_f64(in, r, 1) != 0);
	if (r->nf > 2)
		sink += tr_get_i64(in, r, r->nf - 1);
	(void)sink;
}

/* What the tools ask of a header: its metadata in order and where
 * each key was read, its declarations and their columns, what the
 * recording left out; np and N as numbers. */
static void
header(struct tr_in *in)
{
	volatile size_t sink = 0;
	const struct tr_decl *d;
	const char *k, *v, *file;
	size_t i;
	int64_t np;
	double n;

	for (i = 0; i < tr_meta_count(in); i++) {
		k = tr_meta_at(in, i, &v);
		sink += tr_meta(in, k) == v;
		sink += (size_t)tr_meta_where(in, k, &file);
	}
	for (i = 0; (d = tr_decl_at(in, i)); i++)
		sink += (size_t)tr_decl_col(d, "peer") +
		    (tr_decl_find(in, d->name) == d);
	sink += (size_t)tr_in_section(in);
	tr_meta_unrecorded(in);
	if (flags & NUMBERS) {
		sink += (size_t)tr_meta_i64(in, "np", &np);
		sink += (size_t)tr_meta_f64(in, "N", &n);
	}
	(void)sink;
}

static void
readall(int nf, char **files)
{
	struct tr_rec r;
	int k, recs = 0;
	int64_t lines;
	volatile int64_t sink;
	struct tr_in *in = tr_open(nf, files);

	bytes = 0;
	if (flags & WANT)
		tr_in_want(in, 1u << TR_EV_PEER | 1u << TR_EV_BYTES);
	if (flags & CHECKS)
		tr_in_check(in, TR_CHECK_RANKS_WARN | TR_CHECK_ENDED |
		    TR_CHECK_TRUNC);
	while ((k = tr_next(in, &r)) != TR_EOF) {
		if (k == TR_HDR)
			header(in);
		if (k == TR_REC)
			recs++;
		if (k == TR_REC && (flags & NUMBERS) && r.type == TR_EV &&
		    r.u.ev.bytes > 0)
			bytes = tr_in_add(in, bytes, r.u.ev.bytes, "bytes");
		if ((flags & KINDS) && k == TR_REC)
			fields(in, &r);
	}
	sink = tr_in_status(in) + tr_in_ncut(in) + tr_in_pos(in, &lines);
	(void)sink;
	if (!recs && (flags & NUMBERS))
		tr_in_die_all(in, "no records");
	tr_close(in);
}

/* Lines, as the readers of other formats take them. */
static void
readlines(int nf, char **files)
{
	struct tr_in *in;
	const char *l;
	char *buf = NULL;
	size_t n, cap = 0;
	volatile size_t sink = 0;

	if (nf == 1 && (flags & NUMBERS)) {
		in = tr_open_conf(files[0]);
		if (flags & LASTLF)
			tr_in_lastlf(in);
		while (tr_conf_line(in, &buf, &cap))
			;
		free(buf);
	} else {
		in = tr_open_text(nf, files);
		if (flags & LASTLF)
			tr_in_lastlf(in);
		while (tr_next_line(in, &l, &n))
			sink += n + (size_t)tr_in_line(in);
	}
	(void)sink;
	tr_close(in);
}

/* Two files merged by time, as tr-cat -m merges them. */
static void
merge(char **files)
{
	static struct tr_out *volatile o;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		abort();
	o = tr_out_open(fd, 0);
	if (FUZZ_TRY())
		tr_merge(2, files, o, 0);
	tr_out_close(o);
}

/* N bytes of D as a gzip file; with CHECKS, cut in the middle, as a
 * writer killed leaves it. */
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
	zn -= s.avail_out;
	p = fuzz_file(".gz", z, flags & CHECKS ? zn / 2 : zn);
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
	flags = data[0] & ~3;
	data++, size--;
	if (mode == 2) {
		/* two files at a form feed, the second gzip */
		cut = memchr(data, '\f', size);
		if (!cut)
			cut = data + size;
		files[0] = (char *)fuzz_file(".tr", data, (size_t)(cut - data));
		files[1] = (char *)gzfile(cut + (cut < data + size),
		    size - (size_t)(cut - data) - (cut < data + size));
		if (flags & TEXT) {
			if (FUZZ_TRY())
				readlines(2, files);
		} else {
			merge(files);
		}
	} else if (FUZZ_TRY()) {
		if (mode == 0)
			files[0] = (char *)fuzz_file(".tr", data, size);
		else if (mode == 1)
			files[0] = (char *)gzfile(data, size);
		else
			files[0] = (char *)bigfile(data, size);
		if (flags & TEXT)
			readlines(1, files);
		else
			readall(1, files);
	}
	fuzz_end();
	return 0;
}
