/* opt.c - options as every program takes them: -h and --help, the usage
 * line, and one message for a bad value, as tr(7) has them. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define MAXLONG 16

/* Through tr_atdie, as tr_die: tr-bench ends MPI there. */
static _Noreturn void
leave(int status)
{
	void (*f)(void) = tr_atdie;

	tr_atdie = NULL;
	if (f)
		f();
	exit(status);
}

_Noreturn void
tr_usage(const struct tr_opts *o)
{
	fprintf(stderr, "usage: %s\n", o->usage);
	leave(TR_EXIT_USAGE);
}

/* The synopsis, then each "-x arg\twhat" line of o->help with the whats
 * in one column. */
_Noreturn void
tr_help(const struct tr_opts *o)
{
	const char *p, *tab, *nl;
	int w = 0;

	for (p = o->help; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		tab = memchr(p, '\t', (size_t)(nl - p));
		if (tab && tab - p > w)
			w = (int)(tab - p);
	}
	printf("usage: %s\n", o->usage);
	for (p = o->help; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		tab = memchr(p, '\t', (size_t)(nl - p));
		if (tab)
			printf("  %-*.*s  %.*s\n", w, (int)(tab - p), p,
			    (int)(nl - tab - 1), tab + 1);
		else
			printf("  %.*s\n", (int)(nl - p), p);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		tr_die(TR_EXIT_SYS, "stdout:");
	leave(TR_EXIT_OK);
}

int
tr_getopt(int argc, char **argv, const char *optstring,
    const struct tr_opts *o)
{
	struct option lo[MAXLONG + 2];
	char os[128];
	size_t n = 0, len = strlen(optstring);
	int c;

	if (len + 2 > sizeof os)
		tr_die(TR_EXIT_SYS, "tr_getopt: option string too long");
	memcpy(os, optstring, len);
	memcpy(os + len, "h", 2);
	for (; o->longopts && o->longopts[n].name; n++) {
		if (n == MAXLONG)
			tr_die(TR_EXIT_SYS, "tr_getopt: too many long options");
		lo[n] = o->longopts[n];
	}
	lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n] = (struct option){NULL, 0, NULL, 0};
	c = getopt_long(argc, argv, os, lo, NULL);
	if (c == 'h')
		tr_help(o);
	if (c == '?')
		tr_usage(o);
	return c;
}

_Noreturn void
tr_opt_bad(int opt, const char *val, const char *what)
{
	tr_die(TR_EXIT_USAGE, "-%c: '%s': %s", opt, val, what);
}

int64_t
tr_opt_int(int opt, const char *s, int64_t lo, int64_t hi)
{
	char what[80];
	int64_t v;

	if (tr_parse_i64(s, strlen(s), &v) == 0 && v >= lo && v <= hi)
		return v;
	if (lo == INT64_MIN && hi == INT64_MAX)
		tr_opt_bad(opt, s, "not an integer");
	if (lo == 1 && hi == INT64_MAX)
		tr_opt_bad(opt, s, "not a positive integer");
	if (hi == INT64_MAX)
		snprintf(what, sizeof what, "not an integer of %lld or more",
		    (long long)lo);
	else
		snprintf(what, sizeof what, "not an integer from %lld to %lld",
		    (long long)lo, (long long)hi);
	tr_opt_bad(opt, s, what);
}

double
tr_opt_num(int opt, const char *s, double lo, double hi)
{
	char what[96], a[32], b[32];
	double v;

	if (tr_parse_f64(s, strlen(s), &v) == 0 && isfinite(v) && v >= lo &&
	    v <= hi)
		return v;
	if (lo == -INFINITY && hi == INFINITY)
		tr_opt_bad(opt, s, "not a number");
	if (hi == INFINITY)
		snprintf(what, sizeof what, "not a number of %s or more",
		    tr_f64str(a, lo));
	else
		snprintf(what, sizeof what, "not a number from %s to %s",
		    tr_f64str(a, lo), tr_f64str(b, hi));
	tr_opt_bad(opt, s, what);
}

double
tr_opt_pos(int opt, const char *s)
{
	double v;

	if (tr_parse_f64(s, strlen(s), &v) == 0 && isfinite(v) && v > 0)
		return v;
	tr_opt_bad(opt, s, "not a positive number");
}

int64_t
tr_opt_dur(int opt, const char *s, int64_t lo)
{
	int64_t v;

	if (tr_parse_dur(s, &v) == 0 && v >= lo)
		return v;
	tr_opt_bad(opt, s, lo > 0 ? "not a positive duration" :
	    "not a duration of 0 or more");
}

/* V in the largest binary unit that divides it: 1024GiB, 64MiB, 100. */
static void
fmt_size(char *p, int64_t v)
{
	static const char *const unit[] = {"", "KiB", "MiB", "GiB"};
	int i = 0;

	while (i < 3 && v != 0 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	strcpy(tr_fmt_i64(p, v), unit[i]);
}

int64_t
tr_opt_size(int opt, const char *s, int64_t lo, int64_t hi)
{
	char what[96], a[32], b[32];
	int64_t v;

	if (tr_parse_size(s, &v) == 0 && v >= lo && v <= hi)
		return v;
	if (hi == INT64_MAX)
		tr_opt_bad(opt, s, lo > 0 ? "not a positive size" :
		    "not a size of 0 or more");
	fmt_size(a, lo);
	fmt_size(b, hi);
	snprintf(what, sizeof what, "not a size from %s to %s", a, b);
	tr_opt_bad(opt, s, what);
}

int
tr_opt_oneof(int opt, const char *s, const char *const *v)
{
	char what[256];
	size_t n;
	int i;

	for (i = 0; v[i]; i++)
		if (strcmp(s, v[i]) == 0)
			return i;
	n = (size_t)snprintf(what, sizeof what, "not one of");
	for (i = 0; v[i] && n < sizeof what; i++)
		n += (size_t)snprintf(what + n, sizeof what - n, "%s %s",
		    i ? "," : "", v[i]);
	tr_opt_bad(opt, s, what);
}

void
tr_opt_ranks(int opt, const char *s, struct tr_range **v, size_t *n)
{
	const char *p = s, *e, *d;
	struct tr_range r;

	for (;;) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		d = memchr(p, '-', (size_t)(e - p));
		if (d ? tr_parse_i64(p, (size_t)(d - p), &r.lo) ||
		    tr_parse_i64(d + 1, (size_t)(e - d - 1), &r.hi) :
		    tr_parse_i64(p, (size_t)(e - p), &r.lo))
			tr_opt_bad(opt, s, "not a rank list such as 0-7,12");
		if (!d)
			r.hi = r.lo;
		if (r.lo < 0 || r.hi < r.lo)
			tr_opt_bad(opt, s, "a range goes up from rank 0");
		*v = tr_realloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = r;
		if (!*e)
			break;
		p = e + 1;
	}
}
