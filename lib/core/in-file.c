/* in-file.c - a stream's files in turn: each opened, told gzip from
 * plain and read into the buffer; and where the reader is, for messages. */
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
/* tr_in_small's buffers to begin with: a few dozen lines */
#define SMALLCAP ((size_t)4 << 10)

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

_Noreturn void
tr_in_die_all(const struct tr_in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_files(in->nfiles, in->files, fmt, ap);
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

struct tr_in *tr_in_open;

void
tr_close_all(void)
{
	while (tr_in_open)
		tr_close(tr_in_open);
}

static struct tr_in *
open_in(int nfiles, char **files)
{
	static char *dash[] = {"-"};
	struct tr_in *in = tr_calloc(1, sizeof *in);

	if ((in->next = tr_in_open))
		in->next->prev = in;
	tr_in_open = in;
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
	in->src.zcap = TR_RDSZ;
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

void
tr_in_small(struct tr_in *in)
{
	free(in->own);
	in->buf = in->own = tr_calloc(1, SMALLCAP + 64);
	in->cap = SMALLCAP;
	free(in->src.zbuf);
	in->src.zbuf = tr_malloc(SMALLCAP);
	in->src.zcap = SMALLCAP;
	in->small = 1;
}

struct tr_in *
tr_open_text(int nfiles, char **files)
{
	struct tr_in *in = tr_open(nfiles, files);

	in->text = 1;
	return in;
}

void
tr_in_lastlf(struct tr_in *in)
{
	in->lastlf = 1;
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
tr_in_status(const struct tr_in *in)
{
	return in->status;
}

long
tr_in_ncut(const struct tr_in *in)
{
	return in->ncut;
}

void
tr_in_progress(struct tr_in *in)
{
	struct stat st;
	int i;

	if (in->prog || !(in->prog = tr_progress_new()))
		return;
	for (i = 0; i < in->nfiles; i++) {
		if (strcmp(in->files[i], "-") == 0 ||
		    stat(in->files[i], &st) < 0 || !S_ISREG(st.st_mode)) {
			in->prog_total = -1;
			return;
		}
		in->prog_total += st.st_size;
	}
}

/* The thread reading ahead is at most a few blocks ahead of the
 * records. */
int64_t
tr_in_pos(const struct tr_in *in, int64_t *lines)
{
	off_t at = in->src.fd >= 0 ? lseek(in->src.fd, 0, SEEK_CUR) : 0;

	if (lines)
		*lines = in->prog_lines + in->line;
	return at < 0 ? -1 : in->prog_done + at;
}

static void
progress(struct tr_in *in)
{
	int64_t lines, at = tr_in_pos(in, &lines);

	tr_progress_tick(in->prog, at, in->prog_total, lines);
}

void
tr_file_close(struct tr_in *in)
{
	struct stat st;

	if (in->src.fd >= 0) {
		if (fstat(in->src.fd, &st) == 0)
			in->prog_done += st.st_size;
		in->prog_lines += in->line;
	}
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
int
tr_file_next(struct tr_in *in)
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
		    src->zcap - n)) > 0)
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
		if (!in->small && fstat(src->fd, &st) == 0 &&
		    S_ISREG(st.st_mode) && st.st_size >= AHEADMIN)
			in->ah = tr_ahead_start(src);
		return 1;
	}
	return 0;
}

/* More bytes after in->end, those from in->beg kept; 0 at the end of
 * the file. */
size_t
tr_file_fill(struct tr_in *in)
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
		if (in->prog)
			progress(in);
		return n;
	}
	if (in->beg > 0) {
		memmove(in->buf, in->buf + in->beg, left);
		in->end = left;
		in->beg = 0;
	}
	if (in->end == in->cap && in->cap < BUFCAP) {
		/* a line longer than tr_in_small's buffer: zeroed, as
		 * open_in's */
		size_t c = in->cap * 2 < BUFCAP ? in->cap * 2 : BUFCAP;

		in->buf = in->own = tr_realloc(in->own, c + 64);
		memset(in->own + in->cap, 0, c - in->cap + 64);
		in->cap = c;
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
	if (in->prog)
		progress(in);
	return (size_t)r;
}
