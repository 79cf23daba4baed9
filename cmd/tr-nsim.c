/* tr-nsim - predict an MPI run on a modelled network from its trace. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static void
usage(void)
{
	fprintf(stderr, "usage: tr-nsim [-Pvw] [-n netfile] [-s factor] "
	    "[file ...]\n");
	exit(TR_EXIT_USAGE);
}

static struct tr_nsim *sim;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	if (!tr_nsim_takes(r->type))
		return 1;
	tr_nsim_section(sim, in, r, o);	/* to its end */
	tr_meta_unrecorded(in);
	tr_meta_ended(in, 0, "the replay ends where their records do");
	return 0;
}

static const struct tr_loop loop = {
	.rec = record, .checks = TR_CHECK_RANKS,
};

int
main(int argc, char **argv)
{
	struct tr_net *net = NULL;
	struct tr_out *out;
	double scale = 1;
	int c, wall = 0, verbose = 0, pollwork = 0, st;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "Pn:s:vw")) != -1)
		switch (c) {
		case 'n':
			tr_net_free(net);
			net = tr_net_load(optarg);
			break;
		case 's':
			if (tr_parse_f64(optarg, strlen(optarg), &scale) < 0 ||
			    scale < 0)
				usage();
			break;
		case 'P':
			pollwork = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			wall = 1;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (!net)
		net = tr_net_default();
	sim = tr_nsim_new(net, scale, wall);
	tr_nsim_stats(sim, verbose);
	tr_nsim_pollwork(sim, pollwork);
	out = tr_out_open(1, 0);
	tr_out_declare(out, TR_SIMRANK);
	tr_out_declare(out, TR_SIMLINK);
	tr_out_declare(out, TR_SIMRUN);
	st = tr_loop(argc, argv, out, &loop);
	tr_nsim_free(sim);
	tr_net_free(net);
	return st;
}
