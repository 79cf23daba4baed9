/* tr-json - records as JSON Lines, named by their #fields, for jq. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int mflag;
static struct tr_out *out;

static const struct tr_opts opts = {
	"tr-json [-m] [file ...]",
	"-m\talso write the metadata, as objects of type #meta\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* JSON's number syntax is stricter than the format's: no leading zeros,
 * no bare dot. Anything else is written as a string. */
static int
jnum(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i == n)
		return 0;
	if (s[i] == '0')
		i++;
	else if (s[i] >= '1' && s[i] <= '9')
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return 0;
	if (i < n && s[i] == '.') {
		if (++i == n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i == n;
}

static char *
value(char *p, const char *s, size_t n, int kind)
{
	if (kind == TR_STR || !jnum(s, n))
		return tr_json_str(p, s, n);
	memcpy(p, s, n);
	return p + n;
}

/* The text before each value, `{"type":"ev","rank":` and `,"seq":` ...,
 * made once per declaration. */
struct keys {
	const struct tr_decl *d;
	long sect;
	char *pre[TR_MAXF];
	size_t n[TR_MAXF], total;
};

static struct keys cache[16];

static struct keys *
keys_for(const struct tr_in *in, const struct tr_decl *d)
{
	struct keys *k;
	char *tmp, *p;
	int i;

	for (k = cache; k < cache + 16 && k->d; k++)
		if (k->d == d && k->sect == tr_in_section(in))
			return k;
	if (k == cache + 16) {
		k = &cache[(size_t)tr_in_section(in) % 16];
		for (i = 0; i < TR_MAXF; i++)
			free(k->pre[i]);
	}
	memset(k, 0, sizeof *k);
	k->d = d;
	k->sect = tr_in_section(in);
	for (i = 0; i < d->nf; i++) {
		size_t n = strlen(d->names[i]);

		/* each byte escapes to at most 6 (\u00XX), plus the quotes and
		 * the {"type": or , and : around it; names are at most a
		 * line's length */
		p = tmp = tr_malloc(6 * (n > strlen(d->name) ? n :
		    strlen(d->name)) + 16);
		if (i == 0) {
			memcpy(p, "{\"type\":", 8);
			p = tr_json_str(p + 8, d->name, strlen(d->name));
		}
		else {
			*p++ = ',';
			p = tr_json_str(p, d->names[i], n);
			*p++ = ':';
		}
		k->n[i] = (size_t)(p - tmp);
		k->pre[i] = tr_strndup(tmp, k->n[i]);
		k->total += k->n[i];
		free(tmp);
	}
	return k;
}

static char *buf;
static size_t bufcap;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	const struct tr_decl *d = r->decl;
	const char *kind = d->schema ? d->schema->kinds : NULL;
	struct keys *k = keys_for(in, d);
	char *p;
	int i;

	tr_grow(&buf, &bufcap, k->total + 6 * r->len + 8, 1);
	p = buf;
	memcpy(p, k->pre[0], k->n[0]);
	p += k->n[0];
	for (i = 1; i < r->nf; i++) {
		memcpy(p, k->pre[i], k->n[i]);
		p = value(p + k->n[i], r->f[i].p, r->f[i].n,
		    kind ? kind[i - 1] : 0);
		if (!p)
			tr_in_die(in, "%s: not UTF-8 text, which JSON cannot "
			    "carry", d->names[i]);
	}
	*p++ = '}';
	*p++ = '\n';
	tr_out_write(out, buf, (size_t)(p - buf));
	(void)o;
	return 0;
}

/* Metadata new since the last call, as one object (-m); checked whole
 * before any of it is written, so that an error leaves no half object. */
static void
meta(struct tr_in *in, struct tr_out *o)
{
	static long sect;
	static size_t done;
	size_t n = tr_meta_count(in), i;
	const char *k, *v, *f;
	char *p;
	long line;

	(void)o;
	if (!mflag)
		return;
	if (sect != tr_in_section(in)) {
		sect = tr_in_section(in);
		done = 0;
	}
	if (done == n)
		return;
	for (i = done; i < n; i++) {
		k = tr_meta_at(in, i, &v);
		tr_grow(&buf, &bufcap, 6 * (strlen(k) + strlen(v)) + 8, 1);
		if (tr_json_str(buf, k, strlen(k)) &&
		    value(buf, v, strlen(v), 0))
			continue;
		line = tr_meta_where(in, k, &f);
		tr_die(TR_EXIT_DATA, "%s:%ld: #meta %s: not UTF-8 text, which "
		    "JSON cannot carry", f, line, k);
	}
	tr_out_str(out, "{\"type\":\"#meta\",\"section\":");
	tr_out_i64(out, sect);
	for (; done < n; done++) {
		k = tr_meta_at(in, done, &v);
		tr_grow(&buf, &bufcap, 6 * (strlen(k) + strlen(v)) + 8, 1);
		p = buf;
		*p++ = ',';
		p = tr_json_str(p, k, strlen(k));
		*p++ = ':';
		p = value(p, v, strlen(v), 0);
		tr_out_write(out, buf, (size_t)(p - buf));
	}
	tr_out_str(out, "}\n");
}

/* The output is JSON, not the format: tr_loop writes none of it. */
static const struct tr_loop loop = { .hdr = meta, .rec = record };

int
main(int argc, char **argv)
{
	int c, st;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "m", &opts)) != -1) {
		switch (c) {
		case 'm': mflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	out = tr_out_open(1, 0);
	st = tr_loop(argc, argv, NULL, &loop);
	tr_out_close(out);
	for (c = 0; c < 16; c++)
		for (int i = 0; i < TR_MAXF; i++)
			free(cache[c].pre[i]);
	free(buf);
	return st;
}
