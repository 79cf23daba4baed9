/* tr-runs - the run store: add runs, select them by their labels,
 * enable or disable them, summarize exec times per condition. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static const char *store;
static const char *by = "app,np,nodes,place,lib,fs,input";
static int aflag;
static char **labels;
static int nlabels;
static size_t lcap;

static const struct tr_opts opts = {
	"tr-runs [-d store] add [-l label=value]... path ...\n"
	"       tr-runs [-d store] list | paths [-a] [expr]\n"
	"       tr-runs [-d store] summary [-a] [-g label,...] [expr]\n"
	"       tr-runs [-d store] values [-a] label [expr]\n"
	"       tr-runs [-d store] enable | disable id ...\n"
	"       tr-runs [-d store] reindex",
	"-a\tdisabled runs too\n"
	"-d store\tthe store (default $TR_RUNS, or runs)\n"
	"-g label,...\tthe labels a summary groups by, comma-separated\n"
	"-l label=value\ta label of the runs added; may be repeated\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* list, paths, values, summary: the selected runs of the index. */
static void
query(const char *cmd, const char *label, const char *expr)
{
	struct tr_runsel *sel = tr_runsel_new(expr, aflag);
	struct tr_run *v;
	const char **vals;
	size_t n, i, nv;
	char *line;

	v = tr_store_read(store, &n);
	if (cmd[0] == 's') {
		struct tr_out *o = tr_out_open(1, 0);

		tr_runsel_summary(o, sel, v, n, by);
		tr_out_close(o);
	} else if (label) {
		vals = tr_runsel_values(sel, v, n, label, &nv);
		for (i = 0; i < nv; i++)
			printf("%s\n", vals[i]);
		free(vals);
	} else {
		for (i = 0; i < n; i++) {
			if (!tr_runsel_match(sel, &v[i]))
				continue;
			if (cmd[0] == 'l') {
				line = tr_run_format(&v[i], '\t', &nv);
				fwrite(line, 1, nv, stdout);
				free(line);
			} else {
				printf("%s/runs/%s/data.tr.gz\n", store,
				    tr_run_get(&v[i], "id"));
			}
		}
	}
	for (i = 0; i < n; i++)
		tr_run_free(&v[i]);
	free(v);
	tr_runsel_free(sel);
}

int
main(int argc, char **argv)
{
	const char *cmd, *label = NULL;
	char *id, *eq;
	int c, lk;

	tr_init(argv[0]);
	store = getenv("TR_RUNS");
	if (!store || !*store)
		store = "runs";
	while ((c = tr_getopt(argc, argv, "+d:", &opts)) != -1) {
		switch (c) {
		case 'd': store = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	cmd = argv[0];
	optind = 1;
	while ((c = tr_getopt(argc, argv, "+ag:l:", &opts)) != -1) {
		switch (c) {
		case 'a': aflag = 1; break;
		case 'g': by = optarg; break;
		case 'l':
			eq = strchr(optarg, '=');
			if (strcmp(cmd, "add") != 0)
				usage();
			if (!eq || !tr_label_ok(optarg, (size_t)(eq - optarg)))
				tr_opt_bad('l', optarg, "not label=value");
			tr_grow(&labels, &lcap, (size_t)nlabels + 1,
			    sizeof *labels);
			labels[nlabels++] = optarg;
			break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (strcmp(cmd, "add") == 0) {
		if (argc < 1)
			usage();
		for (c = 0; c < argc; c++) {
			id = tr_store_add(store, argv[c], nlabels, labels);
			printf("%s\n", id);
			free(id);
		}
		free(labels);
		/* The ids are how a script finds its runs again. */
		if (fflush(stdout) == EOF || ferror(stdout))
			tr_die(TR_EXIT_SYS, "stdout:");
		return 0;
	}
	if (strcmp(cmd, "enable") == 0 || strcmp(cmd, "disable") == 0) {
		if (argc < 1)
			usage();
		/* An id of no run is a bad operand, as tr(7) has it: no
		 * data is bad, and the others given are still set. */
		if (tr_store_enable(store, argc, argv, cmd[0] == 'e') < 0)
			exit(TR_EXIT_USAGE);
		return 0;
	}
	if (strcmp(cmd, "reindex") == 0) {
		if (argc != 0)
			usage();
		lk = tr_store_lock(store);
		tr_store_reindex(store);
		tr_store_unlock(lk);
		return 0;
	}
	if (strcmp(cmd, "values") == 0) {
		if (argc < 1)
			usage();
		label = argv[0];
		argc--;
		argv++;
	} else if (strcmp(cmd, "list") != 0 && strcmp(cmd, "paths") != 0 &&
	    strcmp(cmd, "summary") != 0) {
		usage();
	}
	if (argc > 1)
		usage();
	query(cmd, label, argc ? argv[0] : NULL);
	if (fflush(stdout) == EOF || ferror(stdout))
		tr_die(TR_EXIT_SYS, "stdout:");
	return 0;
}
