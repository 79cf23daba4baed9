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

int
main(int argc, char **argv)
{
	struct tr_waits *w;
	struct tr_out *o;
	struct tr_in *in;
	struct tr_rec r;
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
	in = tr_open(argc, argv);
	tr_in_check(in, TR_CHECK_RANKS | TR_CHECK_ENDED);
	while ((c = tr_next(in, &r)) != TR_EOF) {
		if (c == TR_HDR)
			tr_out_sync(o, in);
		else if (c == TR_END)	/* a section of other records */
			tr_waits_section(w, in, NULL, o, pflag);
		else if (r.type == TR_EV || r.type == TR_COMM) {
			tr_waits_section(w, in, &r, o, pflag);	/* to its end */
			tr_meta_unrecorded(in);
		} else
			tr_out_rec(o, &r);
	}
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	tr_waits_free(w);
	return status;
}
