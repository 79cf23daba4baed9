/* tr-waits - wait states: late senders and receivers, waits at barriers
 * and N x N collectives, late broadcasts and early reduces (lib/analyse/waits.c). */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int pflag;
static int64_t eager = -1;	/* sends this large wait; -1: the trace says */

static void
usage(void)
{
	fprintf(stderr, "usage: tr-waits [-p] [-e bytes] [file ...]\n");
	exit(TR_EXIT_USAGE);
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
	while ((c = getopt(argc, argv, "e:p")) != -1) {
		switch (c) {
		case 'e':
			if (tr_parse_size(optarg, &eager) || eager < 0)
				tr_die(TR_EXIT_USAGE, "bad size '%s'", optarg);
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
