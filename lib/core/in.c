/* in.c - reading a stream: files in turn, gzip or plain, lines checked
 * strictly, header blocks folded into sections. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tr-int.h"

#define BUFCAP ((1 << 18) + TR_MAXLINE + 2)
#define AHEADMIN (1 << 16)	/* a file this large is read on a second thread */

/* A queued step: the new section's header is installed only after the
 * old section's end has been reported, so tools still see its metadata. */
#define TR_INSTALL (-1)

const char *
tr_in_file(const struct tr_in *in)
{
	return in->name ? in->name : "stdin";
}

long
tr_in_line(const struct tr_in *in)
{
	return in->line;
}

_Noreturn void
tr_in_die(const struct tr_in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_at(tr_in_file(in), in->line, fmt, ap);
}

int64_t
tr_in_add(const struct tr_in *in, int64_t a, int64_t b, const char *what)
{
	int64_t s;

	if (__builtin_add_overflow(a, b, &s))
		tr_in_die(in, "%s: the sum over records overflows 64 bits",
		    what);
	return s;
}

static struct tr_in *
open_in(int nfiles, char **files)
{
	static char *dash[] = {"-"};
	struct tr_in *in = tr_calloc(1, sizeof *in);

	if (nfiles <= 0) {
		nfiles = 1;
		files = dash;
	}
	in->files = files;
	in->nfiles = nfiles;
	in->src.fd = -1;
	/* Zeroed, with room after the end: the fast record path reads
	 * whole words up to 63 bytes past a line's LF. */
	in->buf = in->own = tr_calloc(1, BUFCAP + 64);
	in->cap = BUFCAP;
	in->src.zbuf = tr_malloc(TR_RDSZ);
	in->np = -1;
	in->want = ~0u;
	in->hmap = tr_map_new();
	in->mmap = tr_map_new();
	return in;
}

/* No file named and a terminal for stdin is a command whose file list
 * came out empty (tr-mean $(tr-runs paths EXPR) selecting nothing), not
 * a user typing a trace: it would wait for input that never comes. An
 * explicit - still reads the terminal. */
void
tr_need_input(int nfiles)
{
	if (nfiles <= 0 && isatty(0))
		tr_die(TR_EXIT_USAGE, "no file given, and stdin is a terminal");
}

struct tr_in *
tr_open(int nfiles, char **files)
{
	tr_need_input(nfiles);
	return open_in(nfiles, files);
}

struct tr_in *
tr_open_text(int nfiles, char **files)
{
	struct tr_in *in = tr_open(nfiles, files);

	in->text = 1;
	return in;
}

struct tr_in *
tr_open_conf(const char *file)
{
	struct tr_in *in = open_in(0, NULL);

	in->text = 1;
	in->one = (char *)file;
	in->files = &in->one;
	in->must = 1;
	return in;
}

int
tr_conf_line(struct tr_in *in, char **buf, size_t *cap)
{
	const char *l;
	size_t n;

	if (!tr_next_line(in, &l, &n))
		return 0;
	tr_grow(buf, cap, n + 1, 1);
	memcpy(*buf, l, n);
	(*buf)[n] = '\0';
	return 1;
}

int
tr_in_status(const struct tr_in *in)
{
	return in->status;
}

long
tr_in_ncut(const struct tr_in *in)
{
	return in->ncut;
}

static void
free_hlines(struct tr_hline *h, size_t n)
{
	while (n--)
		free(h[n].s);
}

static void
free_decls(struct tr_in *in)
{
	size_t i;
	int j;

	for (i = 0; i < in->ndecl; i++) {
		for (j = 0; j < in->decls[i]->nf; j++)
			free(in->decls[i]->names[j]);
		free(in->decls[i]->names);
		free(in->decls[i]);
	}
	in->ndecl = 0;
	in->lastdecl = 0;
}

static void
reset_section(struct tr_in *in)
{
	free_hlines(in->hdr, in->nhdr);
	in->nhdr = 0;
	in->nmeta = 0;
	free_decls(in);
	free(in->ranks);
	in->ranks = NULL;
	in->nranks = 0;
	in->np = -1;
	tr_map_clear(in->hmap);
	tr_map_clear(in->mmap);
}

static void
close_file(struct tr_in *in)
{
	tr_ahead_stop(in->ah);
	in->ah = NULL;
	in->lf = in->lfe = NULL;
	in->buf = in->own;
	if (in->src.fd > 0)
		close(in->src.fd);
	if (in->src.gz)
		inflateEnd(&in->src.z);
	in->src.fd = -1;
	in->src.gz = 0;
}

void
tr_close(struct tr_in *in)
{
	if (!in)
		return;
	close_file(in);
	reset_section(in);
	free_hlines(in->blk, in->nblk);
	free(in->blk);
	free(in->hdr);
	free(in->meta);
	free(in->decls);
	free(in->own);
	free(in->src.zbuf);
	tr_map_free(in->hmap);
	tr_map_free(in->mmap);
	free(in);
}

/* ---- bytes ---- */

/* Dies of the source's error, at the line reached. */
_Noreturn static void
src_fail(struct tr_in *in)
{
	/* The bad data follows the last line read: it is the next one's. */
	in->line++;
	if (in->src.msg[0])
		tr_in_die(in, "%s", in->src.msg);
	errno = in->src.err;
	tr_die(TR_EXIT_SYS, "%s: read error:", tr_in_file(in));
}

/* Opens the next file; 0 when there is none. The first bytes are read
 * to tell gzip from text. */
static int
open_next(struct tr_in *in)
{
	struct tr_src *src = &in->src;
	struct stat st;
	long r;
	size_t n = 0;
	int gz;

	while (in->fi < in->nfiles) {
		const char *f = in->files[in->fi++];

		if (strcmp(f, "-") == 0) {
			src->fd = 0;
			in->name = "stdin";
		} else if ((src->fd = open(f, O_RDONLY)) < 0) {
			if (in->must)
				tr_die(TR_EXIT_SYS, "%s:", f);
			tr_warn("%s:", f);
			in->status = TR_EXIT_SYS;
			continue;
		} else
			in->name = f;
		in->line = 0;
		in->eof = in->nul = 0;
		src->trunc = src->zdone = src->gz = src->err = 0;
		src->msg[0] = '\0';
		in->beg = in->end = 0;
		while (n < 2 && (r = tr_src_read(src, (char *)src->zbuf + n,
		    TR_RDSZ - n)) > 0)
			n += (size_t)r;
		if (r < 0)
			src_fail(in);
		gz = n >= 2 && src->zbuf[0] == 0x1f && src->zbuf[1] == 0x8b;
		if (gz) {
			memset(&src->z, 0, sizeof src->z);
			if (inflateInit2(&src->z, 15 + 16) != Z_OK)
				tr_die(TR_EXIT_SYS, "zlib: out of memory");
			src->gz = 1;
			src->z.next_in = src->zbuf;
			src->z.avail_in = (uInt)n;
		} else {
			memcpy(in->buf, src->zbuf, n);
			in->nul = memchr(in->buf, '\0', n) != NULL;
			in->end = n;
		}
		/* Large regular files only: a thread costs more than a
		 * small file takes to read. */
		if (fstat(src->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size >= AHEADMIN)
			in->ah = tr_ahead_start(src);
		return 1;
	}
	return 0;
}

/* More bytes after in->end, those from in->beg kept; 0 at the end of
 * the file. */
static size_t
fill(struct tr_in *in)
{
	size_t left = in->end - in->beg, n;
	char *p;
	long r;
	int nul;

	if (in->ah) {
		const uint32_t *lf;
		size_t nlf;

		if ((r = tr_ahead_next(in->ah, &p, &n, &nul, &lf, &nlf)) < 0)
			src_fail(in);
		if (r == 0) {
			in->eof = 1;
			return 0;
		}
		/* The bytes kept hold no LF: the block's first LF is the
		 * next one. */
		in->lf = lf;
		in->lfe = lf + nlf;
		in->lfbase = p;
		memcpy(p - left, in->buf + in->beg, left);
		in->buf = p - left;
		in->beg = 0;
		in->end = left + n;
		in->nul |= nul;
		return n;
	}
	if (in->beg > 0) {
		memmove(in->buf, in->buf + in->beg, left);
		in->end = left;
		in->beg = 0;
	}
	if ((r = tr_src_read(&in->src, in->buf + in->end, in->cap -
	    in->end)) < 0)
		src_fail(in);
	if (r == 0) {
		in->eof = 1;
		return 0;
	}
	if (memchr(in->buf + in->end, '\0', (size_t)r))
		in->nul = 1;
	in->end += (size_t)r;
	return (size_t)r;
}

/* A file cut short: the end of the program, or, for the tools that copy
 * files (TR_CHECK_TRUNC), one line and the next file. */
static void
trunc_say(struct tr_in *in, const char *msg)
{
	if (!(in->checks & TR_CHECK_TRUNC))
		tr_in_die(in, "%s", msg);
	tr_warn("%s:%ld: %s", tr_in_file(in), in->line, msg);
	in->ncut++;
	if (!in->status)
		in->status = TR_EXIT_DATA;
}

/* The next line of the stream without its LF; 0 at the end of all
 * files. in->line counts lines of the current file. */
static int
next_line(struct tr_in *in, const char **p, size_t *n, int *first)
{
	char *nl;

	for (;;) {
		if (in->src.fd < 0 && !open_next(in))
			return 0;
		if (in->lf < in->lfe)
			nl = in->lfbase + *in->lf++;
		else
			nl = memchr(in->buf + in->beg, '\n', in->end - in->beg);
		if (nl) {
			*p = in->buf + in->beg;
			*n = (size_t)(nl - *p);
			in->beg = (size_t)(nl + 1 - in->buf);
			*first = in->line++ == 0;
			if (*n > TR_MAXLINE)
				tr_in_die(in, "line longer than %d bytes",
				    TR_MAXLINE);
			/* Records are checked for NUL as they are split. */
			if ((in->text || (*n > 0 && **p == '#')) &&
			    memchr(*p, '\0', *n))
				tr_in_die(in, "binary data (a NUL byte)");
			return 1;
		}
		if (in->end - in->beg > TR_MAXLINE) {
			in->line++;
			tr_in_die(in, "line longer than %d bytes", TR_MAXLINE);
		}
		if (in->eof && in->src.trunc) {
			/* Named by the last line that came out whole: what
			 * the reader of the output has of the file. */
			if (in->line == 0) {
				in->line = 1;
				trunc_say(in, "truncated gzip stream: no complete "
				    "line");
			} else
				trunc_say(in, "truncated gzip stream after this "
				    "line, the last complete one");
			close_file(in);
			continue;
		}
		if (in->eof) {
			in->line++;
			if (in->end > in->beg && in->line == 1 && !in->text)
				tr_in_die(in, "not a tr stream (no '#tr %d' "
				    "line)", TR_FORMAT);
			if (in->end > in->beg)
				tr_in_die(in, "incomplete last line (no newline)");
			if (in->line == 1 && in->text)
				tr_in_die(in, "empty input");
			if (in->line == 1)
				tr_in_die(in, "empty input (expected #tr %d)",
				    TR_FORMAT);
			close_file(in);
			continue;
		}
		fill(in);
	}
}

/* ---- the section's header ---- */

const char *
tr_meta(const struct tr_in *in, const char *key)
{
	long i = tr_map_get(in->mmap, key, strlen(key), 0);

	return i < 0 ? NULL : in->meta[i].val;
}

void
tr_meta_unrecorded(const struct tr_in *in)
{
	size_t i, n = tr_meta_count(in);
	const char *k, *v;

	/* Failed calls are in the trace (fail records): what a replay
	 * lacks is what they moved that no record of theirs completes. */
	for (i = 0; i < n; i++)
		if ((k = tr_meta_at(in, i, &v)) != NULL &&
		    strncmp(k, "unrecorded.", 11) == 0)
			tr_warn("%s: the recording left out %s: %s",
			    tr_in_file(in), v, strcmp(k, "unrecorded.failed") ?
			    "their messages are missing here" : "replays take "
			    "only the messages their records complete (a "
			    "truncated receive's), any other is missing here");
}

int
tr_meta_i64(const struct tr_in *in, const char *key, int64_t *v)
{
	const char *s = tr_meta(in, key);

	if (!s)
		return -1;
	if (tr_parse_i64(s, strlen(s), v) < 0)
		tr_in_die(in, "#meta %s=%s: not an integer", key, s);
	return 0;
}

int
tr_meta_f64(const struct tr_in *in, const char *key, double *v)
{
	const char *s = tr_meta(in, key);

	if (!s)
		return -1;
	if (tr_parse_f64(s, strlen(s), v) < 0)
		tr_in_die(in, "#meta %s=%s: not a number", key, s);
	return 0;
}

size_t
tr_meta_count(const struct tr_in *in)
{
	return in->nmeta;
}

const char *
tr_meta_at(const struct tr_in *in, size_t i, const char **val)
{
	*val = in->meta[i].val;
	return tr_map_key(in->mmap, (long)i, NULL);
}

long
tr_in_section(const struct tr_in *in)
{
	return in->section;
}

const struct tr_decl *
tr_decl_find(const struct tr_in *in, const char *type)
{
	size_t i;

	for (i = 0; i < in->ndecl; i++)
		if (strcmp(in->decls[i]->name, type) == 0)
			return in->decls[i];
	return NULL;
}

const struct tr_decl *
tr_decl_at(const struct tr_in *in, size_t i)
{
	return i < in->ndecl ? in->decls[i] : NULL;
}

int
tr_decl_col(const struct tr_decl *d, const char *name)
{
	int i;

	for (i = 1; d && i < d->nf; i++)
		if (strcmp(d->names[i], name) == 0)
			return i;
	return -1;
}

/* Splits "#fields\tT\ta\tb" into a declaration. */
static struct tr_decl *
parse_fields(const struct tr_in *in, const char *s, size_t n)
{
	struct tr_decl *d = tr_calloc(1, sizeof *d);
	const char *p = s + 8, *e = s + n, *t;
	size_t cap = 0;

	for (;;) {
		t = memchr(p, '\t', (size_t)(e - p));
		if (!t)
			t = e;
		if (t == p || memchr(p, ' ', (size_t)(t - p)))
			tr_in_die(in, "#fields: empty name or a space in a name");
		tr_grow(&d->names, &cap, (size_t)d->nf + 1, sizeof *d->names);
		d->names[d->nf++] = tr_strndup(p, (size_t)(t - p));
		if (t == e)
			break;
		p = t + 1;
	}
	if (d->nf > TR_MAXF)
		tr_in_die(in, "#fields: more than %d fields", TR_MAXF);
	d->name = d->names[0];
	d->namelen = strlen(d->name);
	d->schema = tr_schema_find(d->name, d->namelen);
	return d;
}

static void
free_decl(struct tr_decl *d)
{
	int j;

	for (j = 0; j < d->nf; j++)
		free(d->names[j]);
	free(d->names);
	free(d);
}

static int
same_decl(const struct tr_decl *a, const struct tr_decl *b)
{
	int i;

	if (a->nf != b->nf)
		return 0;
	for (i = 0; i < a->nf; i++)
		if (strcmp(a->names[i], b->names[i]) != 0)
			return 0;
	return 1;
}

static int
is_key(const char *k, const char *eq, const char *name)
{
	return (size_t)(eq - k) == strlen(name) &&
	    memcmp(k, name, (size_t)(eq - k)) == 0;
}

/* Values checked here, at their line: tools size tables and loops by
 * np before they see a record, and tr-waits takes the eager limits when
 * their line is long gone. */
static void
check_meta(const struct tr_in *in, const char *k, const char *eq,
    const char *end)
{
	int vn = (int)(end - eq - 1 > 40 ? 40 : end - eq - 1), bad;
	int np = is_key(k, eq, "np");
	int64_t v;

	if (!np && !is_key(k, eq, "eager.shm") && !is_key(k, eq, "eager.net"))
		return;
	bad = tr_parse_i64(eq + 1, (size_t)(end - eq - 1), &v) < 0;
	if (np && (bad || v < 1 || v > TR_MAXNP))
		tr_in_die(in, "#meta np=%.*s: not a number of ranks (an "
		    "integer from 1 to %d)", vn, eq + 1, TR_MAXNP);
	if (!np && (bad || v < 0))
		tr_in_die(in, "#meta %.*s=%.*s: not a size in bytes (an "
		    "integer of at least 0)", (int)(eq - k), k, vn, eq + 1);
}

/* Checks one header line and tells its kind. */
static int
header_kind(const struct tr_in *in, const char *s, size_t n)
{
	int64_t v;

	/* Every header is checked here, and a file saved with DOS line ends
	 * would otherwise fail on names and numbers that print alike. */
	if (n > 0 && s[n - 1] == '\r')
		tr_in_die(in, "the line ends in a carriage return (DOS line "
		    "ends: remove them with tr -d '\\r')");
	if (n >= 4 && memcmp(s, "#tr ", 4) == 0) {
		if (tr_parse_i64(s + 4, n - 4, &v) < 0)
			tr_in_die(in, "bad #tr line");
		if (v != TR_FORMAT)
			tr_in_die(in, "format version %.*s is not supported "
			    "(this is tr %d)", (int)(n - 4 > 20 ? 20 : n - 4),
			    s + 4, TR_FORMAT);
		return 't';
	}
	if (n >= 6 && memcmp(s, "#meta ", 6) == 0) {
		const char *eq = memchr(s + 6, '=', n - 6);

		if (!eq || eq == s + 6 || memchr(s + 6, ' ', (size_t)(eq - s - 6))
		    || memchr(s, '\t', n))
			tr_in_die(in, "bad #meta line: expected #meta key=value");
		check_meta(in, s + 6, eq, s + n);
		return 'm';
	}
	if (n >= 9 && memcmp(s, "#fields\t", 8) == 0)
		return 'f';
	if (n == 1 || s[1] == ' ')
		return 'c';
	/* s is not NUL-terminated: the next lines follow it. */
	tr_in_die(in, "unknown header line '%.*s'", (int)(n > 40 ? 40 : n), s);
}

/* np, checked by header_kind, may come to a section that has records:
 * those must be of its ranks. */
static void
set_np(struct tr_in *in, const char *val)
{
	size_t r;

	if (tr_parse_i64(val, strlen(val), &in->np) < 0)
		tr_in_die(in, "#meta np=%s: not an integer", val);
	for (r = (size_t)in->np; r < in->nranks; r++)
		if (in->ranks[r].seq >= 0)
			tr_in_die(in, "#meta np=%s, but rank %zu has records "
			    "before it", val, r);
}

static void
add_meta(struct tr_in *in, const struct tr_hline *h)
{
	const char *line = h->s, *eq = strchr(line + 6, '=');
	long i = tr_map_get(in->mmap, line + 6, (size_t)(eq - line - 6), 1);

	tr_grow(&in->meta, &in->metacap, (size_t)i + 1, sizeof *in->meta);
	in->meta[i].val = (char *)eq + 1;
	in->meta[i].file = h->file;
	in->meta[i].line = h->line;
	if ((size_t)i >= in->nmeta)
		in->nmeta = (size_t)i + 1;
	if (eq - line - 6 == 2 && memcmp(line + 6, "np", 2) == 0)
		set_np(in, eq + 1);
}

/* Adds a header line to the section unless it is there already. */
static int
add_hline(struct tr_in *in, struct tr_hline *h)
{
	size_t before = tr_map_len(in->hmap);
	struct tr_decl *d;

	if (h->kind == 't') {
		if (in->nhdr > 0)
			return 0;
	} else {
		tr_map_get(in->hmap, h->s, h->n, 1);
		if (tr_map_len(in->hmap) == before)
			return 0;
	}
	tr_grow(&in->hdr, &in->hdrcap, in->nhdr + 1, sizeof *in->hdr);
	in->hdr[in->nhdr] = *h;
	h->s = NULL;
	h = &in->hdr[in->nhdr++];
	if (h->kind == 'm')
		add_meta(in, h);
	if (h->kind == 'f') {
		d = parse_fields(in, h->s, h->n);
		tr_grow(&in->decls, &in->declcap, in->ndecl + 1,
		    sizeof *in->decls);
		in->decls[in->ndecl++] = d;
	}
	return 1;
}

/* Does the block disagree with the section? Sets *what for a message. */
static int
block_conflicts(struct tr_in *in, const char **what)
{
	size_t i;

	for (i = 0; i < in->nblk; i++) {
		struct tr_hline *h = &in->blk[i];

		if (h->kind == 'm') {
			const char *eq = strchr(h->s + 6, '=');
			long k = tr_map_get(in->mmap, h->s + 6,
			    (size_t)(eq - h->s - 6), 0);

			if (k >= 0 && strcmp(in->meta[k].val, eq + 1) != 0) {
				*what = h->s;
				return 1;
			}
		} else if (h->kind == 'f') {
			struct tr_decl *d = parse_fields(in, h->s, h->n);
			const struct tr_decl *o = tr_decl_find(in, d->name);
			int bad = o && !same_decl(o, d);

			free_decl(d);
			if (bad) {
				*what = h->s;
				return 1;
			}
		}
	}
	return 0;
}

static int
install_block(struct tr_in *in)
{
	size_t i;
	int added = 0;

	for (i = 0; i < in->nblk; i++) {
		added |= add_hline(in, &in->blk[i]);
		free(in->blk[i].s);
	}
	in->nblk = 0;
	return added;
}

static void
new_section(struct tr_in *in)
{
	reset_section(in);
	in->section++;
	in->open = 1;
	install_block(in);
}

/* The record that starts a new section must be of a type its header
 * declares. Said before the old section ends, whose tool may have more
 * to say of it (warnings) that this one cause would make. */
static void
held_declared(const struct tr_in *in)
{
	const char *s = in->held, *t;
	size_t i, n;

	if (!s || (in->heldn > 0 && *s == '#'))
		return;
	t = memchr(s, '\t', in->heldn);
	n = t ? (size_t)(t - s) : in->heldn;
	for (i = 0; i < in->nblk; i++)
		if (in->blk[i].kind == 'f' && in->blk[i].n >= 8 + n &&
		    memcmp(in->blk[i].s + 8, s, n) == 0 &&
		    (in->blk[i].n == 8 + n || in->blk[i].s[8 + n] == '\t'))
			return;
	if (n > 0)
		tr_in_die(in, "record type '%.*s' has no #fields line",
		    (int)(n > 40 ? 40 : n), s);
}

/* Applies the header block just read: it starts the first section, a
 * new section, or continues the current one. */
static void
apply_block(struct tr_in *in)
{
	const char *what;
	int hastr = in->blk[0].kind == 't';

	if (!in->open) {
		new_section(in);
		in->q[in->nq++] = TR_HDR;
	} else if (block_conflicts(in, &what)) {
		if (!hastr)
			tr_in_die(in, "'%.60s' disagrees with the header of "
			    "this section", what);
		held_declared(in);
		in->q[in->nq++] = TR_END;
		in->q[in->nq++] = TR_INSTALL;
	} else if (install_block(in)) {
		in->q[in->nq++] = TR_HDR;
	}
}

static void
block_add(struct tr_in *in, const char *s, size_t n, int kind,
    const char *file, long line)
{
	tr_grow(&in->blk, &in->blkcap, in->nblk + 1, sizeof *in->blk);
	in->blk[in->nblk].s = tr_strndup(s, n);
	in->blk[in->nblk].n = n;
	in->blk[in->nblk].kind = kind;
	in->blk[in->nblk].file = file;
	in->blk[in->nblk].line = line;
	in->nblk++;
}

int
tr_in_merge_header(struct tr_in *dst, const struct tr_in *src)
{
	size_t i;
	struct tr_in *d = dst;
	const char *what;

	for (i = 0; i < src->nhdr; i++)
		block_add(d, src->hdr[i].s, src->hdr[i].n, src->hdr[i].kind,
		    src->hdr[i].file, src->hdr[i].line);
	if (block_conflicts(d, &what)) {
		free_hlines(d->blk, d->nblk);
		d->nblk = 0;
		return -1;
	}
	install_block(d);
	return 0;
}

/* ---- records ---- */

static _Noreturn void
bad_field(const struct tr_in *in, const struct tr_rec *r, int col,
    const char *what)
{
	struct tr_field f = r->f[col];

	tr_in_die(in, "%s '%s': %s '%.*s'", r->decl->name,
	    r->decl->names[col], what, (int)(f.n > 40 ? 40 : f.n), f.p);
}

static int64_t
getint_slow(const struct tr_in *in, const struct tr_rec *r, int col,
    int nneg)
{
	int64_t v;
	int e = tr_parse_i64(r->f[col].p, r->f[col].n, &v);

	if (e == -2)
		bad_field(in, r, col, "integer out of range:");
	if (e < 0)
		bad_field(in, r, col, "not an integer:");
	if (nneg && v < 0)
		bad_field(in, r, col, "must not be negative:");
	return v;
}

/* Up to 18 digits cannot overflow: the common case, inline; negative
 * numbers, long ones and junk take the careful path. */
static inline int64_t
getint(const struct tr_in *in, const struct tr_rec *r, int col, int nneg)
{
	const char *p = r->f[col].p;
	size_t n = r->f[col].n, i = 0;
	uint64_t x = 0;
	int neg = n > 1 && *p == '-' && !nneg;

	if (n - 1 < 18) {
		for (i = (size_t)neg; i < n; i++) {
			unsigned d = (unsigned char)p[i] - '0';

			if (d > 9)
				return getint_slow(in, r, col, nneg);
			x = x * 10 + d;
		}
		return neg ? -(int64_t)x : (int64_t)x;
	}
	return getint_slow(in, r, col, nneg);
}

int64_t
tr_get_i64(const struct tr_in *in, const struct tr_rec *r, int col)
{
	return getint(in, r, col, 0);
}

double
tr_get_f64(const struct tr_in *in, const struct tr_rec *r, int col)
{
	double v;
	int e = tr_parse_f64(r->f[col].p, r->f[col].n, &v);

	if (e == -2)
		bad_field(in, r, col, "number out of range:");
	if (e < 0)
		bad_field(in, r, col, "not a number:");
	return v;
}

static struct tr_rankst *
rank_state(struct tr_in *in, const struct tr_rec *r, int64_t rank)
{
	size_t n;

	if (in->np > 0 && rank >= in->np)
		tr_in_die(in, "rank %lld out of range (np=%lld)",
		    (long long)rank, (long long)in->np);
	if (rank >= TR_MAXNP)
		bad_field(in, r, 1, "rank too large:");
	if ((size_t)rank >= in->nranks) {
		n = in->nranks ? in->nranks : 64;
		while (n <= (size_t)rank)
			n *= 2;
		in->ranks = tr_realloc(in->ranks, n * sizeof *in->ranks);
		memset(in->ranks + in->nranks, 0xff,
		    (n - in->nranks) * sizeof *in->ranks);
		in->nranks = n;
	}
	return &in->ranks[rank];
}

static void
check_order(struct tr_in *in, const struct tr_rec *r, int64_t rank,
    int64_t seq, int64_t start, int64_t end)
{
	struct tr_rankst *st = rank_state(in, r, rank);

	if (st->seq >= 0) {
		if (seq == st->seq) {
			/* A call that completed several requests. */
			if (start != st->start || end != st->end)
				tr_in_die(in, "rank %lld: sequence number %lld "
				    "repeated with other times",
				    (long long)rank, (long long)seq);
			return;
		}
		if (seq < st->seq)
			tr_in_die(in, "rank %lld: sequence number goes back "
			    "(%lld after %lld)", (long long)rank,
			    (long long)seq, (long long)st->seq);
		if (start < st->end)
			tr_in_die(in, "rank %lld: time goes back (starts at "
			    "%lld, before the previous record's end %lld)",
			    (long long)rank, (long long)start,
			    (long long)st->end);
	}
	st->seq = seq;
	st->start = start;
	st->end = end;
}

static void
parse_ev(struct tr_in *in, struct tr_rec *r)
{
	struct tr_ev *e = &r->u.ev;

	e->rank = getint(in, r, TR_EV_RANK, 1);
	e->seq = getint(in, r, TR_EV_SEQ, 1);
	e->op = r->f[TR_EV_OP];
	e->start = getint(in, r, TR_EV_START, 1);
	e->end = getint(in, r, TR_EV_END, 1);
	e->cpu = getint(in, r, TR_EV_CPU, 0);
	e->site = r->f[TR_EV_SITE];
	e->peer = getint(in, r, TR_EV_PEER, 0);
	e->bytes = getint(in, r, TR_EV_BYTES, 1);
	e->tag = getint(in, r, TR_EV_TAG, 0);
	e->comm = getint(in, r, TR_EV_COMM, 0);
	e->req = getint(in, r, TR_EV_REQ, 0);
	e->root = getint(in, r, TR_EV_ROOT, 0);
	if (e->end < e->start)
		tr_in_die(in, "ev ends before it starts (%lld < %lld)",
		    (long long)e->end, (long long)e->start);
	if (e->cpu < -1)
		bad_field(in, r, TR_EV_CPU, "must be -1 or more:");
	/* Ranks or -1 for none. tag, comm and req may be below -1: a tag
	 * carries MPI_Abort's code and MPI_Pcontrol's level. */
	if (e->peer < -1)
		bad_field(in, r, TR_EV_PEER, "must be -1 or more:");
	if (e->root < -1)
		bad_field(in, r, TR_EV_ROOT, "must be -1 or more:");
	if (e->op.n == 0)
		bad_field(in, r, TR_EV_OP, "empty:");
	check_order(in, r, e->rank, e->seq, e->start, e->end);
}

static void
parse_reg(struct tr_in *in, struct tr_rec *r)
{
	struct tr_reg *g = &r->u.reg;
	struct tr_field k = r->f[TR_REG_KIND];

	g->rank = getint(in, r, TR_REG_RANK, 1);
	g->seq = getint(in, r, TR_REG_SEQ, 1);
	if (k.n == 5 && memcmp(k.p, "enter", 5) == 0)
		g->leave = 0;
	else if (k.n == 5 && memcmp(k.p, "leave", 5) == 0)
		g->leave = 1;
	else
		bad_field(in, r, TR_REG_KIND, "expected enter or leave, got");
	g->name = r->f[TR_REG_NAME];
	g->time = getint(in, r, TR_REG_TIME, 1);
	g->cpu = getint(in, r, TR_REG_CPU, 0);
	g->wtime = getint(in, r, TR_REG_WTIME, 1);
	if (g->name.n == 0)
		bad_field(in, r, TR_REG_NAME, "empty:");
	check_order(in, r, g->rank, g->seq, g->time, g->time);
}

/* Checks the fields of a known type that has no parser of its own. */
static void
check_kinds(const struct tr_in *in, const struct tr_rec *r)
{
	const char *k = r->decl->schema->kinds;
	double d;
	int i;

	for (i = 1; i < r->nf; i++) {
		switch (k[i - 1]) {
		case TR_INT:
		case TR_NNEG:
			getint(in, r, i, k[i - 1] == TR_NNEG);
			break;
		case TR_FLT:
			d = tr_get_f64(in, r, i);
			(void)d;
			break;
		default:
			if (r->f[i].n == 0)
				bad_field(in, r, i, "empty:");
		}
	}
}

/* The high bit of each byte of v that is zero, and of no other. */
static inline uint64_t
zero_bytes(uint64_t v)
{
	const uint64_t m = 0x7f7f7f7f7f7f7f7fULL;

	return ~(((v & m) + m) | v | m);
}

/* The fast path: records of declared types split with a bit mask of
 * their tabs and their integers parsed eight bytes at a time. It only
 * accepts records it has fully checked; it hands anything else, bad or
 * merely unusual, to the careful path below, which alone reports. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FASTREC 1

static inline uint64_t
load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

#define REP8(b) (0x0101010101010101ULL * (b))

/* One bit per byte of w whose high bit is set, in byte order. */
static inline uint64_t
movemask(uint64_t x)
{
	return (x * 0x02040810204081ULL) >> 56;
}

/* The value of eight digits, first in the low byte (less '0' each). */
static inline uint64_t
digits8(uint64_t t)
{
	t = (t * 2561) >> 8;
	t = ((t & 0x00ff00ff00ff00ffULL) * 6553601) >> 16;
	return ((t & 0x0000ffff0000ffffULL) * 42949672960001ULL) >> 32;
}

/* Bytes of t (bytes less '0') that were not digits, as their high bits;
 * a byte after one that was not may be wrong, which does no harm. */
static inline uint64_t
notdigits(uint64_t t)
{
	return (((t & REP8(0x7f)) + REP8(0x76)) | t) & REP8(0x80);
}

/* Parses field f as an integer of 1 to 15 digits after an optional '-'
 * (if sign), eight bytes at a time with no branch per digit: 0, or 1 for
 * anything else (the careful path then judges it). */
static inline int
fast_int(const struct tr_field *f, int sign, int64_t *v)
{
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000,
	    1000000, 10000000};
	const char *p = f->p;
	size_t n = f->n;
	int neg = sign && *p == '-';
	uint64_t t, u, x, bad;

	p += neg;
	n -= (size_t)neg;
	t = load8(p) - REP8('0');
	if (n - 1 < 8) {
		t <<= 64 - 8 * n;
		bad = notdigits(t);
		x = digits8(t);
	} else if (n - 9 < 7) {
		u = (load8(p + 8) - REP8('0')) << (128 - 8 * n);
		bad = notdigits(t) | notdigits(u);
		x = digits8(t) * pow10[n - 8] + digits8(u);
	} else
		bad = 1, x = 0;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return bad != 0;
}

/* fast_int() without the value: whether field f is such an integer
 * (0) or not (1). */
static inline int
fast_isint(const struct tr_field *f, int sign)
{
	const char *p = f->p;
	size_t n = f->n;
	int neg = sign && *p == '-';
	uint64_t t;

	p += neg;
	n -= (size_t)neg;
	t = load8(p) - REP8('0');
	if (n - 1 < 8)
		return notdigits(t << (64 - 8 * n)) != 0;
	if (n - 9 < 7)
		return (notdigits(t) | notdigits((load8(p + 8) - REP8('0')) <<
		    (128 - 8 * n))) != 0;
	return 1;
}

#ifdef __SSE2__
typedef char v16 __attribute__((vector_size(16)));

/* Bit i set where byte i of the 16 at p is c. */
static inline uint64_t
mask16(const char *p, v16 c)
{
	v16 w;

	memcpy(&w, p, 16);
	return (uint64_t)(unsigned)__builtin_ia32_pmovmskb128(w == c);
}

/* Bit i set where byte i of the 64 at b is a TAB. */
static inline uint64_t
tabmask(const char *b)
{
	const v16 tab = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

	return mask16(b, tab) | mask16(b + 16, tab) << 16 |
	    mask16(b + 32, tab) << 32 | mask16(b + 48, tab) << 48;
}
#else
static inline uint64_t
tabmask(const char *b)
{
	uint64_t tabs = 0;
	int j;

	for (j = 0; j < 8; j++)
		tabs |= movemask(zero_bytes(load8(b + 8 * j) ^
		    REP8('\t'))) << (8 * j);
	return tabs;
}
#endif

/* Splits the line s..e (e at its LF) into exactly nf fields, a 64-byte
 * block at a time: the tabs of a block become a bit mask, so that one
 * loop with as many turns as fields finds them. -1 for another number
 * of fields. The buffer holds no NUL byte (fill() looks once per read;
 * if it found one, lines take the careful path). */
static int
fast_split(const char *s, const char *e, struct tr_rec *r, int nf)
{
	struct tr_field *f = r->f;
	const char *b, *p = s;
	uint64_t tabs;
	int k = 0;

	/* The field's start stays in a register: read back from r->f, it
	 * would put a store and a load on every turn's path. */
	for (b = s; b < e; b += 64) {
		tabs = tabmask(b);
		if (e - b < 64)
			tabs &= (1ULL << (e - b)) - 1;
		for (; tabs; tabs &= tabs - 1) {
			const char *c = b + __builtin_ctzll(tabs);

			if (++k == nf)
				return -1;
			f[k - 1].p = p;
			f[k - 1].n = (size_t)(c - p);
			p = c + 1;
		}
	}
	if (k + 1 != nf)
		return -1;
	f[k].p = p;
	f[k].n = (size_t)(e - p);
	r->nf = nf;
	return 0;
}

void
tr_in_want(struct tr_in *in, unsigned cols)
{
	in->want = cols;
}

#ifdef __SSE2__
typedef unsigned char u16v __attribute__((vector_size(16)));

/* Bit i set where byte i of the 16 at p is a digit, in *tab a TAB,
 * in *mn a '-'. */
static inline unsigned
class16(const char *p, unsigned *tab, unsigned *mn)
{
	const u16v z = {0};
	v16 c;
	u16v w;

	memcpy(&w, p, 16);
	memcpy(&c, p, 16);
	*tab = (unsigned)__builtin_ia32_pmovmskb128(c == (v16)(z + 9));
	*mn = (unsigned)__builtin_ia32_pmovmskb128(c == (v16)(z + '-'));
	/* unsigned: bytes below '0' wrap above 9 */
	return (unsigned)__builtin_ia32_pmovmskb128((v16)(w - 48 <= 9));
}

/* Whether the six integers that end an ev record, peer to root, are
 * well formed: checked together, 16 bytes at a time, where one by one
 * they cost a tool that does not convert them more than the rest of
 * the record. Every byte must be a digit, a TAB (the split's own) or a
 * '-' that starts a field and is followed by a digit; bytes must not be
 * negative. 0, or 1 for anything else (the careful path judges). */
static inline int
fast_evtail(const struct tr_field *f)
{
	const char *p = f[TR_EV_PEER].p;
	const char *e = f[TR_EV_ROOT].p + f[TR_EV_ROOT].n;
	size_t len = (size_t)(e - p);
	unsigned t0, t1, m0, m1;
	uint32_t dig, tab, mn, valid;

	/* 1 to 15 bytes each: none empty, none that could overflow. */
	if (((f[TR_EV_PEER].n - 1) | (f[TR_EV_BYTES].n - 1) |
	    (f[TR_EV_TAG].n - 1) | (f[TR_EV_COMM].n - 1) |
	    (f[TR_EV_REQ].n - 1) | (f[TR_EV_ROOT].n - 1)) >= 15 ||
	    len > 32 || f[TR_EV_BYTES].p[0] == '-' || e[-1] == '-')
		return 1;
	dig = class16(p, &t0, &m0) | class16(p + 16, &t1, &m1) << 16;
	tab = t0 | t1 << 16;
	mn = m0 | m1 << 16;
	valid = len == 32 ? 0xffffffffu : (1u << len) - 1;
	return ((~(dig | tab | mn) | (mn & ~(tab << 1 | 1)) |
	    (mn << 1 & ~dig)) & valid) != 0;
}
#define HAVE_EVTAIL 1
#endif

/* Column C of an ev record: converted into *v if the tool wants it,
 * else only checked and *v set to INT64_MIN. 0, or 1 if it is not such
 * an integer (the careful path then judges it). */
#define EV_INT(c, sign, v) (want >> (c) & 1 ? fast_int(&f[c], sign, v) : \
	(*(v) = INT64_MIN, fast_isint(&f[c], sign)))
#define EV_CONV(c, sign, v) (want >> (c) & 1 ? fast_int(&f[c], sign, v) : \
	(*(v) = INT64_MIN, 0))
/* M applied to each of the six integers that end an ev record. */
#define EV_TAILS(M) (M(TR_EV_PEER, 1, &ev->peer) | \
	M(TR_EV_BYTES, 0, &ev->bytes) | M(TR_EV_TAG, 1, &ev->tag) | \
	M(TR_EV_COMM, 1, &ev->comm) | M(TR_EV_REQ, 1, &ev->req) | \
	M(TR_EV_ROOT, 1, &ev->root))
#define EV_TAIL (1u << TR_EV_PEER | 1u << TR_EV_BYTES | 1u << TR_EV_TAG | \
	1u << TR_EV_COMM | 1u << TR_EV_REQ | 1u << TR_EV_ROOT)

/* Whether the integer field f, well formed, is below -1. */
#define BELOW_M1(f) ((f).p[0] == '-' && ((f).n != 2 || (f).p[1] != '1'))

/* An ev record, already split: its eleven integers checked, and
 * converted straight into place where wanted (independent of each other,
 * so unrolled). 0, or -1 if anything is wrong. */
static int
fast_ev(struct tr_in *in, const struct tr_decl *d, struct tr_rec *r)
{
	struct tr_ev *ev = &r->u.ev;
	const struct tr_field *f = r->f;
	unsigned want = in->want;
	int bad = fast_int(&f[TR_EV_RANK], 0, &ev->rank) |
	    fast_int(&f[TR_EV_SEQ], 0, &ev->seq) |
	    fast_int(&f[TR_EV_START], 0, &ev->start) |
	    fast_int(&f[TR_EV_END], 0, &ev->end) |
	    EV_INT(TR_EV_CPU, 1, &ev->cpu);

#ifdef HAVE_EVTAIL
	/* Checked together, then only the wanted ones converted. None
	 * wanted is the common filter's case and has its own branch: a test
	 * of want per field cost 3 % of tr-filter 'rank==0'. */
	if (!(want & EV_TAIL)) {
		ev->peer = ev->bytes = ev->tag = ev->comm = ev->req =
		    ev->root = INT64_MIN;
		bad |= fast_evtail(f);
	} else if ((want & EV_TAIL) != EV_TAIL && !fast_evtail(f))
		bad |= EV_TAILS(EV_CONV);
	else
#endif
		bad |= EV_TAILS(EV_INT);

	/* cpu, peer and root are -1 or more: a negative one must be "-1"
	 * (a test of the text holds whether they were converted or not). */
	if (bad || f[TR_EV_OP].n == 0 || ev->end < ev->start ||
	    BELOW_M1(f[TR_EV_CPU]) || BELOW_M1(f[TR_EV_PEER]) ||
	    BELOW_M1(f[TR_EV_ROOT]))
		return -1;
	ev->op = f[TR_EV_OP];
	ev->site = f[TR_EV_SITE];
	r->decl = d;
	r->type = TR_EV;
	check_order(in, r, ev->rank, ev->seq, ev->start, ev->end);
	return 0;
}

/* Checks and parses the fields of a record of another known type,
 * already split: 0, or -1 if anything at all is wrong, for the careful
 * path to find and report. */
static int
fast_rec(struct tr_in *in, const struct tr_decl *d, struct tr_rec *r)
{
	const char *k = d->schema->kinds;
	enum tr_type type = d->schema->type;
	int64_t v[TR_MAXF] = {0};
	double x;
	int i;

	for (i = 1; i < d->nf; i++) {
		switch (k[i - 1]) {
		case TR_INT:
		case TR_NNEG:
			if (fast_int(&r->f[i], k[i - 1] == TR_INT, &v[i]))
				return -1;
			break;
		case TR_FLT:
			if (tr_parse_f64(r->f[i].p, r->f[i].n, &x) != 0)
				return -1;
			break;
		default:
			if (r->f[i].n == 0)
				return -1;
		}
	}
	r->decl = d;
	r->type = type;
	if (type == TR_REG) {
		struct tr_reg *g = &r->u.reg;
		struct tr_field kind = r->f[TR_REG_KIND];

		if (kind.n != 5 || (memcmp(kind.p, "enter", 5) != 0 &&
		    memcmp(kind.p, "leave", 5) != 0))
			return -1;
		g->rank = v[TR_REG_RANK];
		g->seq = v[TR_REG_SEQ];
		g->leave = kind.p[0] == 'l';
		g->name = r->f[TR_REG_NAME];
		g->time = v[TR_REG_TIME];
		g->cpu = v[TR_REG_CPU];
		g->wtime = v[TR_REG_WTIME];
		check_order(in, r, g->rank, g->seq, g->time, g->time);
	}
	return 0;
}

/* The declaration whose type starts the line s, if some does. */
static const struct tr_decl *
fast_decl(struct tr_in *in, const char *s, const char *e)
{
	const struct tr_decl *d;
	size_t i, j, k, n;

	/* The previous record's type first, then the others. */
	for (k = 0; k < in->ndecl; k++) {
		i = k == 0 ? in->lastdecl : k - 1 + (k - 1 >= in->lastdecl);
		d = in->decls[i];
		n = d->namelen;
		if ((size_t)(e - s) <= n || s[n] != '\t')
			continue;
		for (j = 0; j < n && s[j] == d->name[j]; j++)
			;
		if (j == n) {
			in->lastdecl = i;
			return d;
		}
	}
	return NULL;
}

#endif

static void
parse_rec(struct tr_in *in, const char *s, size_t n, struct tr_rec *r)
{
	const char *e = s + n, *t;
	struct tr_decl *d;
	size_t i;
	int nf;

	r->line = s;
	r->len = n;
#ifdef FASTREC
	{
		const struct tr_decl *fd = fast_decl(in, s, e);

		if (fd && !in->nul && fast_split(s, e, r, fd->nf) == 0) {
			if (!fd->schema) {
				r->decl = fd;
				r->type = TR_OTHER;
				return;
			}
			/* fail records, rare, are parsed as ev records are
			 * on the slow path */
			if (fd->schema->type != TR_FAIL &&
			    (fd->schema->type == TR_EV ? fast_ev(in, fd, r) :
			    fast_rec(in, fd, r)) == 0)
				return;
		}
	}
#endif
	/* One pass finds the tabs and any NUL, eight bytes at a time: a
	 * call per field costs more than the bytes do on lines this short. */
	r->f[0].p = s;
	nf = 0;
	t = s;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; t + 8 <= e; t += 8) {
		uint64_t w, hit;

		memcpy(&w, t, 8);
		hit = zero_bytes(w ^ 0x0909090909090909ULL) | zero_bytes(w);
		while (hit) {
			const char *c = t + (__builtin_ctzll(hit) >> 3);

			if (*c == '\0')
				tr_in_die(in, "binary data (a NUL byte)");
			r->f[nf].n = (size_t)(c - r->f[nf].p);
			if (++nf == TR_MAXF)
				tr_in_die(in, "more than %d fields", TR_MAXF);
			r->f[nf].p = c + 1;
			hit &= hit - 1;
		}
	}
#endif
	for (; t < e; t++) {
		if ((unsigned char)*t > '\t')
			continue;
		if (*t == '\t') {
			r->f[nf].n = (size_t)(t - r->f[nf].p);
			if (++nf == TR_MAXF)
				tr_in_die(in, "more than %d fields", TR_MAXF);
			r->f[nf].p = t + 1;
		} else if (*t == '\0')
			tr_in_die(in, "binary data (a NUL byte)");
	}
	r->f[nf].n = (size_t)(e - r->f[nf].p);
	r->nf = nf + 1;
	if (r->f[0].n == 0)
		tr_in_die(in, "empty record type");
	d = in->ndecl ? in->decls[in->lastdecl] : NULL;
	if (!d || d->namelen != r->f[0].n ||
	    memcmp(d->name, r->f[0].p, r->f[0].n) != 0) {
		for (d = NULL, i = 0; i < in->ndecl; i++) {
			const char *nm = in->decls[i]->name;

			if (strlen(nm) == r->f[0].n &&
			    memcmp(nm, r->f[0].p, r->f[0].n) == 0) {
				d = in->decls[i];
				in->lastdecl = i;
				break;
			}
		}
		if (!d)
			tr_in_die(in, "record type '%.*s' has no #fields line",
			    (int)(r->f[0].n > 40 ? 40 : r->f[0].n), r->f[0].p);
	}
	r->decl = d;
	if (r->nf != d->nf)
		tr_in_die(in, "expected %d fields for '%s', got %d", d->nf,
		    d->name, r->nf);
	r->type = d->schema ? d->schema->type : TR_OTHER;
	switch (r->type) {
	case TR_FAIL:
		/* an ev's columns, in the rank's order of seq, then err */
		check_kinds(in, r);
		/* FALLTHROUGH */
	case TR_EV:
		parse_ev(in, r);
		break;
	case TR_REG:
		parse_reg(in, r);
		break;
	case TR_OTHER:
		break;
	default:
		check_kinds(in, r);
	}
}

static int
same_names(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && memcmp(s, want, n) == 0;
}

/* Header lines of a known type must name its columns exactly (those of
 * this revision or of the earlier one). */
static void
check_known_fields(const struct tr_in *in, const char *s, size_t n)
{
	struct tr_decl *d = parse_fields(in, s, n);
	const char *want = "";
	size_t i;
	int ok = 1;

	if (d->schema) {
		const char *old = tr_schema_older(d->schema);

		want = d->schema->fields;
		i = strlen(d->name) + 9;
		ok = n >= i && same_names(s + i, n - i, want);
		if (!ok && old)
			ok = n >= i && same_names(s + i, n - i, old);
	}
	free_decl(d);
	if (!ok)
		tr_in_die(in, "#fields of a type that tr %d defines must be: "
		    "%s", TR_FORMAT, want);
}

int
tr_next_line(struct tr_in *in, const char **line, size_t *n)
{
	int first;

	return next_line(in, line, n, &first);
}

int
tr_next(struct tr_in *in, struct tr_rec *r)
{
	const char *s;
	size_t n;
	int first, k;

	for (;;) {
		if (in->nq) {
			k = in->q[0];
			memmove(in->q, in->q + 1, --in->nq * sizeof *in->q);
			if (k == TR_END && in->checks)
				tr_ranks_end(in);
			if (k != TR_INSTALL)
				return k;
			new_section(in);
			return TR_HDR;
		}
		if (in->held) {
			s = in->held;
			n = in->heldn;
			in->held = NULL;
			first = 0;
		} else if (!next_line(in, &s, &n, &first)) {
			if (in->nblk) {
				apply_block(in);
				continue;
			}
			if (in->open) {
				in->open = 0;
				if (in->checks)
					tr_ranks_end(in);
				return TR_END;
			}
			return TR_EOF;
		}
		if (first && (n < 4 || memcmp(s, "#tr ", 4) != 0))
			tr_in_die(in, "missing header: the first line must be "
			    "'#tr %d'", TR_FORMAT);
		if (n > 0 && s[0] == '#') {
			k = header_kind(in, s, n);
			if (k == 't' && in->nblk) {
				/* A header with no records before the next. */
				in->held = s;
				in->heldn = n;
				apply_block(in);
				continue;
			}
			if (k == 'f')
				check_known_fields(in, s, n);
			block_add(in, s, n, k, tr_in_file(in), in->line);
			continue;
		}
		if (n == 0)
			tr_in_die(in, "empty line");
		if (in->nblk) {
			in->held = s;
			in->heldn = n;
			apply_block(in);
			continue;
		}
		parse_rec(in, s, n, r);
		return TR_REC;
	}
}
