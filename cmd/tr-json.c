/* tr-json - records as JSON Lines, named by their #fields, for jq. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int mflag;
static struct tr_out *out;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-json [-m] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

static void
jstr(const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *e = s + n, *p = s;

	tr_out_c(out, '"');
	for (; s < e; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		tr_out_write(out, p, (size_t)(s - p));
		p = s + 1;
		tr_out_c(out, '\\');
		if (c == '"' || c == '\\') {
			tr_out_c(out, c);
		} else {
			tr_out_str(out, "u00");
			tr_out_c(out, hex[c >> 4]);
			tr_out_c(out, hex[c & 15]);
		}
	}
	tr_out_write(out, p, (size_t)(e - p));
	tr_out_c(out, '"');
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

static void
value(const char *s, size_t n, int kind)
{
	if (kind == TR_STR || !jnum(s, n))
		jstr(s, n);
	else
		tr_out_write(out, s, n);
}

static void
record(const struct tr_rec *r)
{
	const struct tr_decl *d = r->decl;
	const char *k = d->schema ? d->schema->kinds : NULL;
	int i;

	tr_out_str(out, "{\"type\":");
	jstr(r->f[0].p, r->f[0].n);
	for (i = 1; i < r->nf; i++) {
		tr_out_c(out, ',');
		jstr(d->names[i], strlen(d->names[i]));
		tr_out_c(out, ':');
		value(r->f[i].p, r->f[i].n, k ? k[i - 1] : 0);
	}
	tr_out_str(out, "}\n");
}

/* Metadata new since the last call, as one object. */
static void
meta(struct tr_in *in)
{
	static long sect;
	static size_t done;
	size_t n = tr_meta_count(in);
	const char *k, *v;

	if (sect != tr_in_section(in)) {
		sect = tr_in_section(in);
		done = 0;
	}
	if (done == n)
		return;
	tr_out_str(out, "{\"type\":\"#meta\",\"section\":");
	tr_out_i64(out, sect);
	for (; done < n; done++) {
		k = tr_meta_at(in, done, &v);
		tr_out_c(out, ',');
		jstr(k, strlen(k));
		tr_out_c(out, ':');
		value(v, strlen(v), 0);
	}
	tr_out_str(out, "}\n");
}

int
main(int argc, char **argv)
{
	struct tr_in *in;
	struct tr_rec r;
	int c, st;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "m")) != -1) {
		switch (c) {
		case 'm': mflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	out = tr_out_open(1, 0);
	in = tr_open(argc, argv);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_REC)
			record(&r);
		else if (c == TR_HDR && mflag)
			meta(in);
	}
	st = tr_in_status(in);
	tr_close(in);
	tr_out_close(out);
	return st;
}
