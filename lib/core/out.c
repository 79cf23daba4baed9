/* out.c - writing a stream through one large buffer, plain or gzip. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tr-int.h"

#define OUTCAP (1 << 18)
#define MAXDECL 16

struct tr_out {
	int fd, gz;
	z_stream z;
	unsigned char *zbuf;
	char *buf;
	size_t n;
	long sect;		/* the input section last synced */
	size_t nhdr;		/* its header lines written so far */
	int decl_done;
	enum tr_type decl[MAXDECL];
	int ndecl;
	char *drop[MAXDECL];
	int ndrop;
	char *meta[MAXDECL];	/* "key=value" of tr_out_meta */
	int nmeta, meta_done;
};

static struct tr_out *first;

static void
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	ssize_t w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EPIPE) {
			/* The reader is gone: end as a killed filter would. */
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
			exit(TR_EXIT_SYS);
		}
		if (w < 0) {
			/* Flushing the output before dying would fail
			 * again and say so twice. */
			if (first && first->fd == fd)
				first = NULL;
			tr_die(TR_EXIT_SYS, "write error:");
		}
		s += w;
		n -= (size_t)w;
	}
}

static void
deflate_out(struct tr_out *o, const void *p, size_t n, int flush)
{
	int z;

	o->z.next_in = (unsigned char *)p;
	o->z.avail_in = (uInt)n;
	do {
		o->z.next_out = o->zbuf;
		o->z.avail_out = OUTCAP;
		z = deflate(&o->z, flush);
		if (z == Z_STREAM_ERROR)
			tr_die(TR_EXIT_SYS, "zlib: deflate failed");
		write_all(o->fd, o->zbuf, OUTCAP - o->z.avail_out);
	} while (o->z.avail_out == 0);
}

static void
flush(struct tr_out *o)
{
	if (o->n == 0)
		return;
	if (o->gz)
		deflate_out(o, o->buf, o->n, Z_NO_FLUSH);
	else
		write_all(o->fd, o->buf, o->n);
	o->n = 0;
}

static void
finish(struct tr_out *o)
{
	flush(o);
	if (o->gz) {
		deflate_out(o, "", 0, Z_FINISH);
		deflateEnd(&o->z);
		o->gz = 0;
	}
}

/* On a fatal error the records already written out are valid: deliver
 * them, and close a gzip stream properly. */
static void
flush_first(void)
{
	if (first)
		finish(first);
}

struct tr_out *
tr_out_open(int fd, int gz)
{
	struct tr_out *o = tr_calloc(1, sizeof *o);

	o->fd = fd;
	o->buf = tr_malloc(OUTCAP);
	o->sect = -1;
	if (gz) {
		o->gz = 1;
		o->zbuf = tr_malloc(OUTCAP);
		if (deflateInit2(&o->z, 6, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			tr_die(TR_EXIT_SYS, "zlib: out of memory");
	}
	if (!first) {
		first = o;
		tr_atdie = flush_first;
	}
	return o;
}

void
tr_out_finish(struct tr_out *o)
{
	finish(o);
}

int
tr_out_close(struct tr_out *o)
{
	int i;

	finish(o);
	if (o == first) {
		first = NULL;
		tr_atdie = NULL;
	}
	if (close(o->fd) < 0 && errno != EINTR)
		tr_die(TR_EXIT_SYS, "write error:");
	for (i = 0; i < o->ndrop; i++)
		free(o->drop[i]);
	for (i = 0; i < o->nmeta; i++)
		free(o->meta[i]);
	free(o->buf);
	free(o->zbuf);
	free(o);
	return 0;
}

void
tr_out_write(struct tr_out *o, const void *p, size_t n)
{
	if (o->n + n > OUTCAP) {
		flush(o);
		if (n > OUTCAP) {
			if (o->gz)
				deflate_out(o, p, n, Z_NO_FLUSH);
			else
				write_all(o->fd, p, n);
			return;
		}
	}
	memcpy(o->buf + o->n, p, n);
	o->n += n;
}

void
tr_out_str(struct tr_out *o, const char *s)
{
	tr_out_write(o, s, strlen(s));
}

void
tr_out_field(struct tr_out *o, struct tr_field f)
{
	tr_out_write(o, f.p, f.n);
}

void
tr_out_c(struct tr_out *o, int c)
{
	if (o->n == OUTCAP)
		flush(o);
	o->buf[o->n++] = (char)c;
}

void
tr_out_i64(struct tr_out *o, int64_t v)
{
	if (o->n + 24 > OUTCAP)
		flush(o);
	o->n = (size_t)(tr_fmt_i64(o->buf + o->n, v) - o->buf);
}

void
tr_out_f64(struct tr_out *o, double v)
{
	if (o->n + 32 > OUTCAP)
		flush(o);
	o->n = (size_t)(tr_fmt_f64(o->buf + o->n, v) - o->buf);
}

void
tr_out_ti64(struct tr_out *o, int64_t v)
{
	tr_out_c(o, '\t');
	tr_out_i64(o, v);
}

void
tr_out_tf64(struct tr_out *o, double v)
{
	tr_out_c(o, '\t');
	tr_out_f64(o, v);
}

char *
tr_out_room(struct tr_out *o, size_t n)
{
	if (o->n + n > OUTCAP)
		flush(o);
	if (n > OUTCAP)
		tr_die(TR_EXIT_DATA, "record too long");
	return o->buf + o->n;
}

void
tr_out_put(struct tr_out *o, const char *end)
{
	o->n = (size_t)(end - o->buf);
}

void
tr_out_printf(struct tr_out *o, const char *fmt, ...)
{
	char small[1024], *p = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		tr_die(TR_EXIT_SYS, "printf failed");
	if ((size_t)n >= sizeof small) {
		p = tr_malloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	tr_out_write(o, p, (size_t)n);
	if (p != small)
		free(p);
}

void
tr_out_rec(struct tr_out *o, const struct tr_rec *r)
{
	if (o->n + r->len + 1 > OUTCAP)
		flush(o);
	if (r->len + 1 > OUTCAP) {
		tr_out_write(o, r->line, r->len);
		tr_out_c(o, '\n');
		return;
	}
	memcpy(o->buf + o->n, r->line, r->len);
	o->n += r->len;
	o->buf[o->n++] = '\n';
}

static char *
put_field(char *p, struct tr_field f)
{
	memcpy(p, f.p, f.n);
	return p + f.n;
}

void
tr_out_ev(struct tr_out *o, const struct tr_ev *e)
{
	char *p = tr_out_room(o, 13 * 22 + 4 + e->op.n + e->site.n);

	memcpy(p, "ev\t", 3);
	p = tr_fmt_i64(p + 3, e->rank);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->seq);
	*p++ = '\t';
	p = put_field(p, e->op);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->start);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->end);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->cpu);
	*p++ = '\t';
	p = put_field(p, e->site);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->peer);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->bytes);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->tag);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->comm);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->req);
	*p++ = '\t';
	p = tr_fmt_i64(p, e->root);
	*p++ = '\n';
	tr_out_put(o, p);
}

void
tr_out_reg(struct tr_out *o, const struct tr_reg *g)
{
	tr_out_str(o, "reg\t");
	tr_out_i64(o, g->rank);
	tr_out_c(o, '\t');
	tr_out_i64(o, g->seq);
	tr_out_str(o, g->leave ? "\tleave\t" : "\tenter\t");
	tr_out_field(o, g->name);
	tr_out_c(o, '\t');
	tr_out_i64(o, g->time);
	tr_out_c(o, '\t');
	tr_out_i64(o, g->cpu);
	tr_out_c(o, '\t');
	tr_out_i64(o, g->wtime);
	tr_out_c(o, '\n');
}

/* ---- headers ---- */

void
tr_out_begin(struct tr_out *o)
{
	tr_out_printf(o, "#tr %d\n", TR_FORMAT);
}

void
tr_out_fields(struct tr_out *o, enum tr_type t)
{
	const struct tr_schema *s = tr_schema_get(t);

	if (!s)
		tr_die(TR_EXIT_SYS, "internal error: no schema for type %d", t);
	tr_out_printf(o, "#fields\t%s\t%s\n", s->name, s->fields);
}

void
tr_out_declare(struct tr_out *o, enum tr_type t)
{
	if (o->ndecl == MAXDECL)
		tr_die(TR_EXIT_SYS, "internal error: too many declared types");
	o->decl[o->ndecl++] = t;
}

void
tr_out_drop(struct tr_out *o, const char *type)
{
	if (o->ndrop == MAXDECL)
		tr_die(TR_EXIT_SYS, "internal error: too many dropped types");
	o->drop[o->ndrop++] = tr_strdup(type);
}

void
tr_out_meta(struct tr_out *o, const char *key, const char *val)
{
	size_t k = strlen(key), v;
	int i;

	for (i = 0; i < o->nmeta; i++)
		if (strncmp(o->meta[i], key, k) == 0 && o->meta[i][k] == '=') {
			free(o->meta[i]);
			o->meta[i] = o->meta[--o->nmeta];
			break;
		}
	if (!val)
		return;
	if (o->nmeta == MAXDECL)
		tr_die(TR_EXIT_SYS, "internal error: too much metadata");
	v = strlen(val);
	o->meta[o->nmeta] = tr_malloc(k + v + 2);
	memcpy(o->meta[o->nmeta], key, k);
	o->meta[o->nmeta][k] = '=';
	memcpy(o->meta[o->nmeta++] + k + 1, val, v + 1);
	o->meta_done = 0;
}

/* Is "#meta KEY=..." a key this output gives its own value? */
static int
own_meta(const struct tr_out *o, const struct tr_hline *h)
{
	const char *k = h->s + 6, *eq = memchr(k, '=', h->n - 6);
	int i;

	for (i = 0; eq && i < o->nmeta; i++)
		if (strncmp(o->meta[i], k, (size_t)(eq - k + 1)) == 0)
			return 1;
	return 0;
}

/* Is "#fields\tTYPE..." a line this output leaves out or writes itself? */
static int
skip_fields(const struct tr_out *o, const struct tr_hline *h)
{
	const char *t = h->s + 8, *e = memchr(t, '\t', h->n - 8);
	size_t n = e ? (size_t)(e - t) : h->n - 8;
	const struct tr_schema *s;
	int i;

	for (i = 0; i < o->ndrop; i++)
		if (strlen(o->drop[i]) == n && memcmp(o->drop[i], t, n) == 0)
			return 1;
	for (i = 0; i < o->ndecl; i++) {
		s = tr_schema_get(o->decl[i]);
		if (strlen(s->name) == n && memcmp(s->name, t, n) == 0)
			return 1;
	}
	return 0;
}

void
tr_out_sync(struct tr_out *o, const struct tr_in *in)
{
	size_t i;
	int d;

	if (in->section != o->sect) {
		o->sect = in->section;
		o->nhdr = 0;
		o->decl_done = 0;
		o->meta_done = 0;
	}
	for (i = o->nhdr; i < in->nhdr; i++) {
		const struct tr_hline *h = &in->hdr[i];

		if ((h->kind == 'f' && skip_fields(o, h)) ||
		    (h->kind == 'm' && (own_meta(o, h) ||
		    !tr_meta_in_shard(h->s, h->n))))
			continue;
		tr_out_write(o, h->s, h->n);
		tr_out_c(o, '\n');
	}
	o->nhdr = in->nhdr;
	for (d = 0; !o->meta_done && d < o->nmeta; d++) {
		tr_out_str(o, "#meta ");
		tr_out_str(o, o->meta[d]);
		tr_out_c(o, '\n');
	}
	o->meta_done = 1;
	if (!o->decl_done) {
		for (d = 0; d < o->ndecl; d++)
			tr_out_fields(o, o->decl[d]);
		o->decl_done = 1;
	}
}
