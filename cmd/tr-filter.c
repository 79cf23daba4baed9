/* tr-filter - keep the records for which an expression holds. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int vflag;

static const struct option longopts[] = {
	{"ranks", required_argument, NULL, 'r'},
	{"window", required_argument, NULL, 'w'},
	{"invert", no_argument, NULL, 'v'},
	{"expr", required_argument, NULL, 'e'},
	{NULL, 0, NULL, 0}
};

static const struct tr_opts opts = {
	"tr-filter [-v] [-r ranks] [-w t0:t1] [-e expr | expr] [file ...]",
	"-e, --expr expr\tthe expression (or the first operand)\n"
	"-r, --ranks list\tonly the records of these ranks, e.g. 0-7,12\n"
	"-v, --invert\tkeep the records for which it does not hold\n"
	"-w, --window t0:t1\tonly the records in this time window, e.g. "
	"1ms:2.5ms\n",
	longopts
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Rank lists: "0-7,12". */
static struct tr_range *ranks;
static size_t nranks;

static int wflag;
static int64_t t0, t1 = INT64_MAX;

static void
parse_window(const char *s)
{
	if (!strchr(s, ':'))
		tr_opt_bad('w', s, "not a window T0:T1");
	if (tr_parse_window(s, &t0, &t1) < 0)
		tr_opt_bad('w', s, "not a window T0:T1 of durations, such as "
		    "1ms:2.5ms");
	wflag = 1;
}

static struct tr_select *sel;

static void
hdr(struct tr_in *in, struct tr_out *o)
{
	/* Whatever the test, a rank may lose all its records: the checks
	 * for a rank's missing file must not take a trace's selection for
	 * one. */
	tr_out_meta(o, "subset", tr_decl_find(in, "ev") ||
	    tr_decl_find(in, "reg") ? "tr-filter" : NULL);
	tr_select_hdr(sel, in);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	return tr_select_rec(sel, in, r, o);
}

static void
end(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	(void)o;
	tr_select_end(sel);
}

int
main(int argc, char **argv)
{
	struct tr_loop loop = { .hdr = hdr, .rec = record, .end = end,
	    .checks = TR_CHECK_RANKS_WARN };
	const char *src = NULL, *name;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "e:r:vw:", &opts)) != -1) {
		switch (c) {
		case 'e': src = optarg; break;
		case 'r': tr_opt_ranks('r', optarg, &ranks, &nranks); break;
		case 'v': vflag = 1; break;
		case 'w': parse_window(optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!src && !nranks && !wflag) {
		if (argc < 1)
			usage();
		src = *argv++;
		argc--;
	}
	sel = tr_select_new(&(struct tr_selopt){ .expr = src, .ranks = ranks,
	    .nranks = nranks, .window = wflag, .t0 = t0, .t1 = t1,
	    .invert = vflag });
	/* with the rank, always read: no columns would mean all */
	loop.want = tr_select_want(sel) | 1u << TR_EV_RANK;
	status = tr_loop(argc, argv, tr_out_open(1, 0), &loop);
	/* A record without the field passes: a name no type has would pass
	 * everything, silently. */
	if (status == 0 && (name = tr_select_undeclared(sel)))
		tr_die(TR_EXIT_USAGE, "no record type has a field '%s' (a "
		    "string is written in double quotes)", name);
	tr_select_free(sel);
	free(ranks);
	return status;
}
