/* tr-to-ti - export a trace to SimGrid's time-independent trace format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libtr.h"

static void
usage(void)
{
	fprintf(stderr, "usage: tr-to-ti [-dPw] [-n netfile] [-s factor] "
	    "-o dir [file ...]\n");
	exit(TR_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct tr_net *net = NULL;
	struct tr_nsim *sim;
	struct tr_in *in;
	struct tr_rec rec;
	const char *dir = NULL;
	double scale = 1;
	int c, k, all = 0, wall = 0, pollwork = 0, st;
	long sections = 0;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "dn:o:Ps:w")) != -1)
		switch (c) {
		case 'd':
			all = 1;
			break;
		case 'n':
			tr_net_free(net);
			net = tr_net_load(optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		case 'P':
			pollwork = 1;
			break;
		case 's':
			if (tr_parse_f64(optarg, strlen(optarg), &scale) < 0 ||
			    scale < 0)
				usage();
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
	in = tr_open(argc, argv);
	tr_in_check(in, TR_CHECK_RANKS);
	while ((k = tr_next(in, &rec)) != TR_EOF)
		if (k == TR_END) {
			if (sections++)
				tr_in_die(in, "more than one run (section) in "
				    "the input");
			tr_ti_export(sim, dir, all);
			tr_meta_unrecorded(in);
			tr_meta_ended(in, 0, "smpirun's replay of the export "
			    "stops (deadlocks) where their records end");
		} else if (k == TR_REC && tr_nsim_takes(rec.type))
			tr_nsim_add(sim, in, &rec);
	st = tr_in_status(in);
	tr_close(in);
	tr_nsim_free(sim);
	tr_net_free(net);
	return st;
}
