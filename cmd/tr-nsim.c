/* tr-nsim - predict an MPI run on a modelled network from its trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const struct tr_opts opts = {
	"tr-nsim [-mPQvw] [-M netfile] [-s factor] [file ...]",
	"-M netfile\tthe network description, tr-net(5) (default: a "
	"crossbar)\n"
	"-m\tmerge the files of one run by time, as tr-cat -m does, on a "
	"thread of its own\n"
	"-P\tkeep the time of tests and probes that found nothing\n"
	"-Q\tno progress on stderr when it is a terminal\n"
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

static struct tr_loop loop = {
	.rec = record, .checks = TR_CHECK_RANKS, .progress = 1,
};

int
main(int argc, char **argv)
{
	struct tr_net *net = NULL;
	struct tr_out *out;
	double scale = 1;
	int c, wall = 0, verbose = 0, pollwork = 0, merge = 0, st;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "mM:PQs:vw", &opts)) != -1)
		switch (c) {
		case 'M':
			tr_net_free(net);
			net = tr_net_load(optarg);
			break;
		case 'm':
			merge = 1;
			break;
		case 's':
			scale = tr_opt_num('s', optarg, 0, INFINITY);
			break;
		case 'P':
			pollwork = 1;
			break;
		case 'Q':
			loop.progress = 0;
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
	for (c = 0; c < argc; c++)
		if (strcmp(argv[c], "-") == 0)
			merge = 0;	/* the merged stream comes in there */
	if (merge && argc > 1) {
		/* Read one after the other, each file of one rank is read to
		 * its end, and spooled, before the next rank's first record:
		 * merged, they are read together as the replay goes, and
		 * parsed twice, but the merge's half on the other core. */
		static char *merged[] = {"-"};
		int fd = tr_merge_start(argc, argv);

		if (dup2(fd, 0) < 0)
			tr_die(TR_EXIT_SYS, "dup2:");
		close(fd);
		st = tr_loop(1, merged, out, &loop);
		if (tr_merge_wait() && !st)
			st = TR_EXIT_DATA;
	} else
		st = tr_loop(argc, argv, out, &loop);
	tr_nsim_free(sim);
	tr_net_free(net);
	return st;
}
