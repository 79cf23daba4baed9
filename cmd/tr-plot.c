/* tr-plot - draw tr records as a standalone SVG chart. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static const char *const units[] = {"ns", "bytes", "none", NULL};
static const int unitnum[] = {TR_UNIT_NS, TR_UNIT_BYTES, TR_UNIT_NONE};

static const struct tr_opts opts = {
	"tr-plot [-lL] [-g kind] [-H title] [-w width] [-c count] "
	"[-m limit] [-n np] [-t type] [-x col] [-y col] [-K key] [-u unit] "
	"[-s label,...] [file ...]",
	"-c count\tpanels of histograms and scaling plots, rows of diff and "
	"bar charts (default 12)\n"
	"-g kind\ttimeline, hist, scaling, diff, jobs, matrix or bar "
	"(default: from the records)\n"
	"-H title\tthe chart's title\n"
	"-K key\tonly the histograms or models of this key\n"
	"-L\tlog scale for y (scaling plots)\n"
	"-l\tlog scale for x (histograms)\n"
	"-m limit\tcalls a timeline draws one by one (default 20000)\n"
	"-n np\tthe process count of the extrapolation target\n"
	"-s label,...\tseries names, one per input file in order\n"
	"-t type\tthe record type of bar charts and raw-value histograms\n"
	"-u unit\tunit of values: ns (default), bytes or none\n"
	"-w width\twidth in pixels, 300 to 20000 (default 1000)\n"
	"-x col\tthe x column of bar charts and histograms\n"
	"-y col\tthe y columns of bar charts and histograms, "
	"comma-separated\n",
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
	struct tr_plotopt opt;
	struct tr_plot *p;
	struct tr_out *o;
	char *labels = NULL, *lab, *save = NULL;
	char *stdin_only[] = {"-"};
	int c, kind = TR_PLOT_AUTO, status = 0, kinds[TR_PLOT_NKIND], i;
	const char *knames[TR_PLOT_NKIND + 1];

	tr_init(argv[0]);
	memset(&opt, 0, sizeof opt);
	opt.unit = -1;
	for (i = 0; i < TR_PLOT_NKIND; i++)
		knames[i] = tr_plot_kindname(i);
	knames[i] = NULL;
	while ((c = tr_getopt(argc, argv, "c:g:H:K:lLm:n:s:t:u:w:x:y:",
	    &opts)) != -1)
		switch (c) {
		case 'c':
			opt.topn = (int)tr_opt_int('c', optarg, 1, 1000);
			break;
		case 'g':
			kind = tr_opt_oneof('g', optarg, knames);
			break;
		case 'H': opt.title = optarg; break;
		case 'K': opt.key = optarg; break;
		case 'l': opt.logx = 1; break;
		case 'L': opt.logy = 1; break;
		case 'm':
			opt.limit = (long)tr_opt_int('m', optarg, 1, LONG_MAX);
			break;
		case 'n':
			opt.target = (double)tr_opt_int('n', optarg, 1,
			    INT64_MAX);
			break;
		case 's': labels = optarg; break;
		case 't': opt.type = optarg; break;
		case 'u':
			opt.unit = unitnum[tr_opt_oneof('u', optarg, units)];
			break;
		case 'w':
			opt.width = (double)tr_opt_int('w', optarg, 300, 20000);
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
	/* Counting messages costs every ev record: only for the matrix asked. */
	opt.matrix = kind == TR_PLOT_MATRIX;
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
			tr_die_files(argc, argv, "nothing to plot: no ev, "
			    "model, "
			    "bin, diff, job, simrank or opstat records");
		kind = kinds[0];
	}
	o = tr_out_open(1, 0);
	if (tr_plot_draw(p, kind, o) < 0) {
		if (status)
			exit(status);
		tr_die_files(argc, argv, "no records for a %s chart",
		    tr_plot_kindname(kind));
	}
	tr_out_close(o);
	tr_plot_free(p);
	return status;
}
