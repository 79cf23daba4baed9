/* tr-plot - draw tr records as a standalone SVG chart. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static void
usage(void)
{
	fprintf(stderr, "usage: tr-plot [-lL] [-k kind] [-t title] "
	    "[-w width] [-n top] [-m limit] [-T np] [-r type] [-x col] "
	    "[-y col] [-K key] [-u unit] [-s label,...] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct tr_plotopt opt;
	struct tr_plot *p;
	struct tr_out *o;
	char *labels = NULL, *lab, *save = NULL;
	char *stdin_only[] = {"-"};
	int c, kind = TR_PLOT_AUTO, status = 0, kinds[TR_PLOT_NKIND], i;
	int64_t v;

	tr_init(argv[0]);
	memset(&opt, 0, sizeof opt);
	opt.unit = -1;
	while ((c = getopt(argc, argv, "K:k:lLm:n:r:s:T:t:u:w:x:y:")) != -1)
		switch (c) {
		case 'K': opt.key = optarg; break;
		case 'k':
			if ((kind = tr_plot_kindnum(optarg)) < 0)
				usage();
			break;
		case 'l': opt.logx = 1; break;
		case 'L': opt.logy = 1; break;
		case 'm':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1)
				usage();
			opt.limit = (long)v;
			break;
		case 'n':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1 ||
			    v > 1000)
				usage();
			opt.topn = (int)v;
			break;
		case 'r': opt.type = optarg; break;
		case 's': labels = optarg; break;
		case 'T':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1)
				usage();
			opt.target = (double)v;
			break;
		case 't': opt.title = optarg; break;
		case 'u':
			if (!strcmp(optarg, "ns"))
				opt.unit = TR_UNIT_NS;
			else if (!strcmp(optarg, "bytes"))
				opt.unit = TR_UNIT_BYTES;
			else if (!strcmp(optarg, "none"))
				opt.unit = TR_UNIT_NONE;
			else
				usage();
			break;
		case 'w':
			if (tr_parse_i64(optarg, strlen(optarg), &v) ||
			    v < 300 || v > 20000)
				usage();
			opt.width = (double)v;
			break;
		case 'x': opt.x = optarg; break;
		case 'y': opt.y = optarg; break;
		default: usage();
		}
	argc -= optind;
	argv += optind;
	tr_need_input(argc);
	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	p = tr_plot_new(&opt);
	lab = labels ? strtok_r(labels, ",", &save) : NULL;
	for (i = 0; i < argc; i++) {
		int st = tr_plot_read(p, 1, &argv[i], lab);

		if (st)
			status = st;
		if (lab)
			lab = strtok_r(NULL, ",", &save);
	}
	if (kind == TR_PLOT_AUTO) {
		/* An input that could not be opened was reported already. */
		if (tr_plot_kinds(p, kinds) == 0 && status)
			exit(status);
		if (tr_plot_kinds(p, kinds) == 0)
			tr_die(TR_EXIT_DATA, "nothing to plot: no ev, model, "
			    "bin, diff, job, simrank or opstat records");
		kind = kinds[0];
	}
	o = tr_out_open(1, 0);
	if (tr_plot_draw(p, kind, o) < 0) {
		if (status)
			exit(status);
		tr_die(TR_EXIT_DATA, "no records for a %s chart",
		    tr_plot_kindname(kind));
	}
	tr_out_close(o);
	tr_plot_free(p);
	return status;
}
