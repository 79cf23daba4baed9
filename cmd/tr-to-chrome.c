/* tr-to-chrome - a tr stream as trace-event JSON, for Perfetto,
 * chrome://tracing and speedscope. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int qflag;
static int64_t t0, t1 = INT64_MAX;
static unsigned char *ranks;
static size_t nranks;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-to-chrome [-q] [-r ranks] [-w t0:t1] "
	    "[file ...]\n");
	exit(TR_EXIT_USAGE);
}

/* A members list, "0-3,8", as flags by rank. */
static void
parse_ranks(const char *s)
{
	long *v, n, i, max = -1;

	if (tr_members(s, strlen(s), NULL, &n) < 0 || n == 0)
		tr_die(TR_EXIT_USAGE, "-r: '%s': not a rank list such as "
		    "0-3,8", s);
	if (n > TR_MAXNP)
		tr_die(TR_EXIT_USAGE, "-r: '%s': more ranks than a run has", s);
	tr_members(s, strlen(s), &v, &n);
	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	if (max >= TR_MAXNP)
		tr_die(TR_EXIT_USAGE, "-r: '%s': ranks are below %d", s,
		    TR_MAXNP);
	free(ranks);
	nranks = (size_t)max + 1;
	ranks = tr_calloc(nranks, 1);
	for (i = 0; i < n; i++)
		ranks[v[i]] = 1;
	free(v);
}

/* T0:T1 as tr-filter -w takes it: durations, either one left out. */
static void
parse_window(const char *s)
{
	if (tr_parse_window(s, &t0, &t1) < 0)
		tr_die(TR_EXIT_USAGE, "-w: '%s': not a window T0:T1 of "
		    "durations, such as 1ms:2.5ms", s);
}

int
main(int argc, char **argv)
{
	struct tr_chrome *c;
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
	int k, status;

	tr_init(argv[0]);
	while ((k = getopt(argc, argv, "qr:w:")) != -1) {
		switch (k) {
		case 'q': qflag = 1; break;
		case 'r': parse_ranks(optarg); break;
		case 'w': parse_window(optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	o = tr_out_open(1, 0);
	in = tr_open(argc, argv);
	c = tr_chrome_new(o, t0, t1, ranks, nranks, qflag);
	while ((k = tr_next(in, &r)) != TR_EOF) {
		if (k == TR_REC)
			tr_chrome_rec(c, in, &r);
		else if (k == TR_END)
			tr_chrome_end(c, in);
	}
	tr_chrome_close(c);
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	free(ranks);
	return status;
}
