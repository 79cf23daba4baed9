/* tr-accuracy - compare predicted with measured records key by key. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static struct tr_acc *acc;
static struct tr_flat *fl;
static int side;
static double minpct = -INFINITY;
static int pflag, mflag;

static const struct tr_opts opts = {
	"tr-accuracy [-T] [-m pct] [-k columns] [-K keys] [-q quantities] "
	"[-t types] [-P predicted] ... [predicted] measured ...",
	"-K keys\tonly these keys, comma-separated, as model records write "
	"them (key=*)\n"
	"-k columns\tbuild keys from these columns only, comma-separated\n"
	"-m pct\texit 1 if an accuracy compared is below pct\n"
	"-P file\ta predicted file; may be repeated\n"
	"-q quantities\tonly these quantities, comma-separated\n"
	"-T\twrite a text table instead of records\n"
	"-t types\tonly these record types, comma-separated\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static void
add(void *ctx, const struct tr_flatval *fv)
{
	tr_acc_set(acc, side, ctx, fv);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	tr_flat_add(fl, in, r, add, in);
	return 0;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	(void)o;
	tr_flat_end(fl, add, NULL);
}

static const struct tr_loop loop = {.rec = record, .end = section};

static void
readside(int nf, char **files)
{
	int st = tr_loop(nf, files, NULL, &loop);

	if (st)
		exit(st);
}

static void
hdist(void *ctx, const char *fld, const char *key, double emd, double ks)
{
	struct tr_out *o = ctx;

	if (pflag) {
		tr_out_printf(o, "%-8s %-40s emd %-14.6g ks %.4f\n", fld, key,
		    emd, ks);
	} else {
		tr_out_printf(o, "hdist\t%s\t%s\t", fld, key);
		tr_out_f64(o, emd);
		tr_out_tf64(o, ks);
		tr_out_c(o, '\n');
	}
}

/* Both sides' files named, predicted first. */
static _Noreturn void
nothing_compared(int npred, char **pred, int nmeas, char **meas)
{
	char **all = tr_calloc((size_t)(npred + nmeas), sizeof *all);

	memcpy(all, pred, (size_t)npred * sizeof *all);
	memcpy(all + npred, meas, (size_t)nmeas * sizeof *all);
	tr_die_files(npred + nmeas, all,
	    "no key is both predicted and measured");
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	const char *types = NULL, *keycols = NULL, *qsel = NULL, *ksel = NULL;
	char **pred = NULL;
	size_t i, len, predcap = 0;
	int npred = 0;
	int c, below = 0, compared = 0, missing = 0, unpaired = 0;
	double *score = NULL;
	long *at = NULL;
	size_t scap = 0, acap = 0;
	struct tr_accsum sm;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "K:k:m:P:q:Tt:", &opts)) != -1) {
		switch (c) {
		case 'P':
			tr_grow(&pred, &predcap, (size_t)npred + 1, sizeof *pred);
			pred[npred++] = optarg;
			break;
		case 'K': ksel = optarg; break;
		case 'k': keycols = optarg; break;
		case 'm':
			minpct = tr_opt_num('m', optarg, -INFINITY, INFINITY);
			mflag = 1;
			break;
		case 'T': pflag = 1; break;
		case 'q': qsel = optarg; break;
		case 't': types = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (npred == 0) {
		if (argc < 2)
			usage();
		tr_grow(&pred, &predcap, 1, sizeof *pred);
		pred[npred++] = argv[0];
		argc--;
		argv++;
	}
	if (argc < 1)
		usage();
	acc = tr_acc_new();
	tr_acc_only(acc, qsel, ksel);
	fl = tr_flat_new(types, keycols, NULL);
	/* Read off the bins on both sides as tr-fit reads them, so that
	 * predicted and measured histograms meet at the same quantiles. */
	tr_flat_quantiles(fl, 1);
	side = 0;
	readside(npred, pred);
	side = 1;
	readside(argc, argv);
	o = tr_out_open(1, 0);
	if (pflag) {
		tr_out_printf(o, "%-6s %-44s %-12s %14s %14s %9s\n", "type",
		    "key", "quantity", "predicted", "measured", "accuracy");
	} else {
		tr_out_begin(o);
		tr_out_printf(o, "#meta tool=tr-accuracy %s\n", TR_VERSION);
		tr_out_fields(o, TR_ACC);
		tr_out_fields(o, TR_HDIST);
		tr_out_fields(o, TR_ACCSUM);
		tr_out_fields(o, TR_ACCWORST);
	}
	for (i = 0; i < tr_acc_len(acc); i++) {
		const char *name = tr_acc_key(acc, (long)i, &len);
		double a, v[2];

		/* A histogram's bins are as many as its range and spread
		 * call for: one bin more on one side is no missing key. */
		if (tr_acc_get(acc, (long)i, v) != 3) {
			if (strncmp(name, "bin\t", 4) == 0)
				unpaired++;
			else
				missing++;
			continue;
		}
		if (!tr_acc_comparable(acc, (long)i)) {
			unpaired++;
			continue;
		}
		a = tr_accuracy(v[0], v[1]);
		tr_grow(&score, &scap, (size_t)compared + 1, sizeof *score);
		tr_grow(&at, &acap, (size_t)compared + 1, sizeof *at);
		score[compared] = a;
		at[compared++] = (long)i;
		if (mflag && a < minpct)
			below++;
		tr_acc_row(o, pflag ? NULL : "acc", name, len, v, a);
	}
	tr_acc_hists(acc, hdist, o);
	tr_acc_summary(score, compared, &sm);
	if (pflag) {
		tr_out_printf(o, "compared %d, missing on one side %d, median "
		    "accuracy %.2f%%, min %.2f%%, within 5/10/25%%: %.0f/%.0f/"
		    "%.0f%% of keys", compared, missing, sm.median, sm.min,
		    sm.in5, sm.in10, sm.in25);
		if (mflag)
			tr_out_printf(o, ", below %g%%: %d", minpct, below);
		if (unpaired)
			tr_out_printf(o, ", not compared value by value %d "
			    "(bins of other ranges, binnings)", unpaired);
		tr_out_c(o, '\n');
	} else {
		tr_out_printf(o, "accsum\t%d\t%d\t", compared, missing);
		tr_out_f64(o, sm.median);
		tr_out_tf64(o, sm.min);
		tr_out_tf64(o, sm.in5);
		tr_out_tf64(o, sm.in10);
		tr_out_tf64(o, sm.in25);
		tr_out_printf(o, "\t%d\n", below);
	}
	/* Only when some key is off and the table is longer than them. */
	if (pflag && sm.min < 100 && compared > TR_ACC_WORST)
		tr_out_str(o, "worst keys:\n");
	for (c = 0; c < sm.nworst && sm.min < 100 &&
	    (!pflag || compared > TR_ACC_WORST); c++) {
		const char *name = tr_acc_key(acc, at[sm.worst[c]], &len);
		double v[2];

		tr_acc_get(acc, at[sm.worst[c]], v);
		tr_acc_row(o, pflag ? NULL : "accworst", name, len, v,
		    score[sm.worst[c]]);
	}
	free(score);
	free(at);
	tr_out_close(o);
	tr_flat_free(fl);
	tr_acc_free(acc);
	if (compared == 0)
		nothing_compared(npred, pred, argc, argv);
	free(pred);
	return mflag && below ? TR_EXIT_CHECK : 0;
}
