/* tr-waits - wait states: late senders and receivers, waits at barriers
 * and N x N collectives, late broadcasts and early reduces (lib/analyse/waits.c). */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int pflag;
static int64_t eager = -1;	/* sends this large wait; -1: the trace says */

static const struct tr_opts opts = {
	"tr-waits [-p] [-e bytes] [file ...]",
	"-e bytes\tsends of this size or more use a rendezvous "
	"(default: as the trace says)\n"
	"-p\tpass ev records through too\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_waits *w;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	if (r->type != TR_EV && r->type != TR_COMM)
		return 1;
	tr_waits_section(w, in, r, o, pflag);	/* to its end */
	tr_meta_unrecorded(in);
	return 0;
}

/* A section of other records. */
static void
section(struct tr_in *in, struct tr_out *o)
{
	tr_waits_section(w, in, NULL, o, pflag);
}

static const struct tr_loop loop = {
	.rec = record, .end = section,
	.checks = TR_CHECK_RANKS | TR_CHECK_ENDED,
};

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "e:p", &opts)) != -1) {
		switch (c) {
		case 'e':
			eager = tr_opt_size('e', optarg, 0, INT64_MAX);
			break;
		case 'p': pflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	w = tr_waits_new(eager);
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_WAIT);
	tr_out_declare(o, TR_BLAME);
	if (!pflag)
		tr_out_drop(o, "ev");
	status = tr_loop(argc, argv, o, &loop);
	tr_waits_free(w);
	return status;
}
