/* tr-pattern - the peers of each point-to-point call site as a function
 * of (rank, P), learnt from the traces of runs at several scales. */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int pflag;

static const struct tr_opts opts = {
	"tr-pattern [-p] [file ...]",
	"-p\tpass ev records through too\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* File scope: still reachable when a bad record ends the tool. */
static struct tr_pat *pat;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	return !tr_pat_add(pat, in, r) || pflag;
}

static void
done(struct tr_in *in, struct tr_out *o)
{
	tr_out_begin(o);
	tr_out_printf(o, "#meta tool=tr-pattern %s\n", TR_VERSION);
	tr_pat_write(pat, in, o);
}

static const struct tr_loop loop = {
	.rec = record, .done = done,
	.want = 1u << TR_EV_PEER | 1u << TR_EV_COMM | 1u << TR_EV_SITE |
	    1u << TR_EV_TAG | 1u << TR_EV_REQ | 1u << TR_EV_ROOT,
	.checks = TR_CHECK_RANKS,
	.lazy = 1,
};

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "p", &opts)) != -1) {
		switch (c) {
		case 'p': pflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	pat = tr_pat_new();
	tr_pat_subcomms(pat);
	o = tr_out_open(1, 0);
	status = tr_loop(argc, argv, o, &loop);
	tr_pat_free(pat);
	return status;
}
