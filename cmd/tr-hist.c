/* tr-hist - histograms of a field, grouped by a key, that merge exactly:
 * bin edges depend only on the options and the range of the values, and
 * sums of integer values are kept exactly. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

#define MAXBINS TR_HIST_MAXBINS

static int mflag, pflag, tflag;
static int seen, typed;	/* records read; the type counted declared */
static int scale;		/* 0 lin, 1 log */
static double width = 1;	/* lin: bin width; log: bins per decade */
static int nbins = 20;		/* lin with -b: at most this many bins */
static const char *type = "delta", *field = "wall", *keyname = "key";

static const struct tr_opts opts = {
	"tr-hist [-mp] [-b bins | -w width | -l perdecade] [-t type] "
	"[-f field] [-k key] [file ...]",
	"-b bins\tat most this many bins of a power-of-two width (default "
	"20)\n"
	"-f field\tthe field counted (default wall)\n"
	"-k key\tthe field that groups the values (default key)\n"
	"-l perdecade\tlogarithmic bins, this many per decade\n"
	"-m\tmerge hist and bin records made with the same binning\n"
	"-p\tpass the counted records through too\n"
	"-t type\tthe record type counted (default delta)\n"
	"-w width\tbins of this width: a number or a duration\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* A misspelt -f or -k is the user's, though found at the data: exit 2,
 * as tr-filter and tr-diff do for a field no record has. */
static _Noreturn void
nofield(const struct tr_in *in, char opt, const char *name)
{
	tr_die(TR_EXIT_USAGE, "%s:%ld: -%c %s: type %s has no such field",
	    tr_in_file(in), tr_in_line(in), opt, name, type);
}

/* Records, and the type counted declared by no section: a misspelt -t,
 * or records that tr-delta has not made yet, would pass for a run with
 * nothing to count. A declared type without records is an empty count
 * (tr-delta on ranks of one call each). */
static _Noreturn void
notype(void)
{
	if (tflag)
		tr_die(TR_EXIT_USAGE, "-t %s: no section of the input declares "
		    "this type", type);
	tr_die(TR_EXIT_USAGE, "no delta record in the input (tr-delta makes "
	    "them; -t names another type)");
}

static struct tr_hists *hists;
static size_t fieldlen;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	static const struct tr_decl *decl;
	static int fcol = -1, kcol = -1;

	(void)o;
	seen = 1;
	if (mflag)
		return !tr_hist_merge(hists, in, r);
	if (r->decl != decl) {
		decl = r->decl;
		fcol = kcol = -1;
		if (strcmp(decl->name, type) == 0) {
			fcol = tr_decl_col(decl, field);
			if (fcol < 0)
				nofield(in, 'f', field);
			kcol = *keyname && strcmp(keyname, "-") ?
			    tr_decl_col(decl, keyname) : -1;
			if (kcol < 0 && *keyname && strcmp(keyname, "-") &&
			    strcmp(keyname, "key"))
				nofield(in, 'k', keyname);
		}
	}
	if (fcol < 0)
		return 1;
	typed = 1;
	tr_hist_add(hists, in, field, fieldlen, kcol > 0 ? r->f[kcol].p : "*",
	    kcol > 0 ? r->f[kcol].n : 1, &r->f[fcol]);
	return pflag;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	if (tr_decl_find(in, type))
		typed = 1;
	tr_hist_write(hists, o);
	tr_hist_clear(hists);
}

static void
done(struct tr_in *in, struct tr_out *o)
{
	(void)o;
	if (seen && !typed && !mflag && !tr_in_status(in))
		notype();
}

static const struct tr_loop loop = {
	.rec = record, .end = section, .done = done,
};

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;
	int64_t v;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "b:f:k:l:mpt:w:", &opts)) != -1) {
		switch (c) {
		case 'b':
			nbins = (int)tr_opt_int('b', optarg, 1, MAXBINS);
			scale = 0;
			width = 1;
			break;
		case 'f': field = optarg; break;
		case 'k': keyname = optarg; break;
		case 'l':
			if (tr_parse_f64(optarg, strlen(optarg), &width) ||
			    width <= 0 || width > 1000)
				tr_opt_bad('l', optarg, "not a number above 0 "
				    "and at most 1000");
			scale = 1;
			nbins = 0;
			break;
		case 'm': mflag = 1; break;
		case 'p': pflag = 1; break;
		case 't': type = optarg; tflag = 1; break;
		case 'w':
			if (tr_parse_f64(optarg, strlen(optarg), &width) ||
			    width <= 0) {
				if (tr_parse_dur(optarg, &v) || v <= 0)
					tr_opt_bad('w', optarg, "not a "
					    "positive number or duration");
				width = (double)v;
			}
			scale = 0;
			nbins = 0;
			break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	hists = tr_hist_new(scale, width, nbins);
	fieldlen = strlen(field);
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_HIST);
	tr_out_declare(o, TR_BIN);
	if (!pflag && !mflag)
		tr_out_drop(o, type);
	status = tr_loop(argc, argv, o, &loop);
	tr_hist_free(hists);
	return status;
}
