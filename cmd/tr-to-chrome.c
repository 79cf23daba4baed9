/* tr-to-chrome - a tr stream as trace-event JSON, for Perfetto,
 * chrome://tracing and speedscope. */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "libtr.h"

static int qflag;
static int64_t t0, t1 = INT64_MAX;
static unsigned char *ranks;
static size_t nranks;

static const struct tr_opts opts = {
	"tr-to-chrome [-Q] [-r ranks] [-w t0:t1] [file ...]",
	"-Q\tsay nothing of messages without their other end\n"
	"-r ranks\tonly these ranks, a list such as 0-3,8\n"
	"-w t0:t1\tonly what overlaps this time window, as tr-filter -w\n",
	NULL
};

static _Noreturn void
usage(void)
{
	tr_usage(&opts);
}

/* A members list, "0-3,8", as flags by rank. */
static void
parse_ranks(const char *s)
{
	long *v, n, i, max = -1;

	if (tr_members(s, strlen(s), NULL, &n) < 0 || n == 0)
		tr_opt_bad('r', s, "not a rank list such as 0-3,8");
	if (n > TR_MAXNP)
		tr_opt_bad('r', s, "more ranks than a run has");
	tr_members(s, strlen(s), &v, &n);
	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	if (max >= TR_MAXNP)
		tr_opt_bad('r', s, "ranks are below 16777216");
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
		tr_opt_bad('w', s, "not a window T0:T1 of durations, such "
		    "as 1ms:2.5ms");
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
	while ((k = tr_getopt(argc, argv, "Qr:w:", &opts)) != -1) {
		switch (k) {
		case 'Q': qflag = 1; break;
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
