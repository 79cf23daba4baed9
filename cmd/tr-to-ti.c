/* tr-to-ti - export a trace to SimGrid's time-independent trace format. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libtr.h"

static const struct tr_opts opts = {
	"tr-to-ti [-dPQw] [-M netfile] [-s factor] -o dir [file ...]",
	"-d\tdecompose every collective into point-to-point actions\n"
	"-M netfile\tthe network description, tr-net(5)\n"
	"-o dir\tthe output directory (required)\n"
	"-P\tkeep the time of tests and probes that found nothing\n"
	"-Q\tno progress on stderr when it is a terminal\n"
	"-s factor\tmultiply compute times by factor\n"
	"-w\ttake compute times from wall-clock gaps, not CPU time\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_nsim *sim;
static const char *dir;
static int all;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	if (tr_nsim_takes(r->type))
		tr_nsim_add(sim, in, r);
	return 0;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	static long sections;

	(void)o;
	if (sections++)
		tr_in_die(in, "more than one run (section) in the input");
	tr_ti_export(sim, in, dir, all);
	tr_meta_unrecorded(in);
	tr_meta_ended(in, 0, "smpirun's replay of the export stops "
	    "(deadlocks) where their records end");
}

static struct tr_loop loop = {
	.rec = record, .end = section, .checks = TR_CHECK_RANKS,
	.progress = 1,
};

int
main(int argc, char **argv)
{
	struct tr_net *net = NULL;
	double scale = 1;
	int c, wall = 0, pollwork = 0, st;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "dM:o:PQs:w", &opts)) != -1)
		switch (c) {
		case 'd':
			all = 1;
			break;
		case 'M':
			tr_net_free(net);
			net = tr_net_load(optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		case 'P':
			pollwork = 1;
			break;
		case 'Q':
			loop.progress = 0;
			break;
		case 's':
			scale = tr_opt_num('s', optarg, 0, INFINITY);
			break;
		case 'w':
			wall = 1;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (!dir)
		usage();
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		tr_die(TR_EXIT_SYS, "%s:", dir);
	if (!net)
		net = tr_net_default();
	sim = tr_nsim_new(net, scale, wall);
	tr_nsim_pollwork(sim, pollwork);
	tr_nsim_for_ti(sim);
	st = tr_loop(argc, argv, NULL, &loop);
	tr_nsim_free(sim);
	tr_net_free(net);
	return st;
}
