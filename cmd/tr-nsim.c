/* tr-nsim - predict an MPI run on a modelled network from its trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const struct tr_opts opts = {
	"tr-nsim [-Pvw] [-M netfile] [-s factor] [file ...]",
	"-M netfile\tthe network description, tr-net(5) (default: a "
	"crossbar)\n"
	"-P\tkeep the time of tests and probes that found nothing\n"
	"-s factor\tmultiply compute times by factor (0.5: a machine twice "
	"as fast)\n"
	"-v\tprint the engine's counts to stderr after each section\n"
	"-w\ttake compute times from wall-clock gaps, not CPU time\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

int
main(int argc, char **argv)
{
	struct tr_net *net = NULL;
	struct tr_nsim *sim;
	struct tr_in *in;
	struct tr_out *out;
	struct tr_rec rec;
	double scale = 1;
	int c, k, wall = 0, verbose = 0, pollwork = 0, st;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "M:Ps:vw", &opts)) != -1)
		switch (c) {
		case 'M':
			tr_net_free(net);
			net = tr_net_load(optarg);
			break;
		case 's':
			scale = tr_opt_num('s', optarg, 0, INFINITY);
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
	in = tr_open(argc, argv);
	tr_in_check(in, TR_CHECK_RANKS);
	out = tr_out_open(1, 0);
	tr_out_declare(out, TR_SIMRANK);
	tr_out_declare(out, TR_SIMLINK);
	tr_out_declare(out, TR_SIMRUN);
	while ((k = tr_next(in, &rec)) != TR_EOF)
		if (k == TR_HDR)
			tr_out_sync(out, in);
		else if (k == TR_REC && tr_nsim_takes(rec.type)) {
			tr_nsim_section(sim, in, &rec, out);	/* to its end */
			tr_meta_unrecorded(in);
			tr_meta_ended(in, 0, "the replay ends where their "
			    "records do");
		} else if (k == TR_REC)
			tr_out_rec(out, &rec);
	st = tr_in_status(in);
	tr_close(in);
	tr_out_close(out);
	tr_nsim_free(sim);
	tr_net_free(net);
	return st;
}
