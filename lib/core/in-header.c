/* in-header.c - a section's header: its lines checked, blocks of them
 * folded into sections, #meta and #fields looked up. */
#include <stdlib.h>
#include <string.h>

#include "tr-int.h"

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

void
tr_hdr_free(struct tr_in *in)
{
	reset_section(in);
	free_hlines(in->blk, in->nblk);
	free(in->blk);
	free(in->hdr);
	free(in->meta);
	free(in->decls);
	tr_map_free(in->hmap);
	tr_map_free(in->mmap);
}

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
tr_meta_where(const struct tr_in *in, const char *key, const char **file)
{
	long i = tr_map_get(in->mmap, key, strlen(key), 0);

	if (i < 0 || (size_t)i >= in->nmeta || !in->meta[i].file) {
		*file = tr_in_file(in);
		return in->line;
	}
	*file = in->meta[i].file;
	return in->meta[i].line;
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

/* A file saved with DOS line ends would otherwise fail on names and
 * numbers that print alike; tr_next checks records, and every header is
 * checked here. */
_Noreturn void
tr_in_die_cr(const struct tr_in *in)
{
	tr_in_die(in, "the line ends in a carriage return (DOS line ends: "
	    "remove them with tr -d '\\r')");
}

int
tr_hdr_kind(const struct tr_in *in, const char *s, size_t n)
{
	int64_t v;

	if (n > 0 && s[n - 1] == '\r')
		tr_in_die_cr(in);
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

/* np, checked by tr_hdr_kind, may come to a section that has records:
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

	/* each line freed as it is installed, and forgotten: an error in
	 * a later one leaves the block to be freed once by tr_close */
	for (i = 0; i < in->nblk; i++) {
		added |= add_hline(in, &in->blk[i]);
		free(in->blk[i].s);
		in->blk[i].s = NULL;
	}
	in->nblk = 0;
	return added;
}

void
tr_hdr_new_section(struct tr_in *in)
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

void
tr_hdr_apply(struct tr_in *in)
{
	const char *what;
	int hastr = in->blk[0].kind == 't';

	if (!in->open) {
		tr_hdr_new_section(in);
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

void
tr_hdr_add(struct tr_in *in, const char *s, size_t n, int kind,
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
		tr_hdr_add(d, src->hdr[i].s, src->hdr[i].n, src->hdr[i].kind,
		    src->hdr[i].file, src->hdr[i].line);
	if (block_conflicts(d, &what)) {
		free_hlines(d->blk, d->nblk);
		d->nblk = 0;
		return -1;
	}
	install_block(d);
	return 0;
}

static int
same_names(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && memcmp(s, want, n) == 0;
}

void
tr_hdr_check_fields(const struct tr_in *in, const char *s, size_t n)
{
	struct tr_decl *d = parse_fields(in, s, n);
	const char *want = "";
	size_t i;
	int ok = 1;

	if (d->schema) {
		const char *old;
		int k;

		want = d->schema->fields;
		i = strlen(d->name) + 9;
		ok = n >= i && same_names(s + i, n - i, want);
		for (k = 0; !ok && (old = tr_schema_older(d->schema, k)); k++)
			ok = n >= i && same_names(s + i, n - i, old);
	}
	free_decl(d);
	if (!ok)
		tr_in_die(in, "#fields of a type that tr %d defines must be: "
		    "%s", TR_FORMAT, want);
}
