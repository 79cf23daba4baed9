/* tr-cat - concatenate or time-merge traces, checking every line. */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int mflag, zflag, qflag;

static const struct tr_opts opts = {
	"tr-cat [-mQz] [file ...]",
	"-m\tmerge the files of one run by time\n"
	"-Q\tno progress of a merge on stderr when it is a terminal\n"
	"-z\twrite gzip\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Copies the files in turn. A per-rank file cut short gets its mark
 * after its last record, as in a merge: where the reader next stops. */
static const char *cfile;
static int64_t crank = -1;
static long ncut;

static inline void
cut_mark(struct tr_in *in, struct tr_out *o)
{
	if (tr_in_ncut(in) != ncut) {
		ncut = tr_in_ncut(in);
		if (crank >= 0)
			tr_merge_mark(o, crank);
	}
	if (tr_in_file(in) != cfile) {
		cfile = tr_in_file(in);
		crank = -1;
	}
}

static int
concat_rec(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	cut_mark(in, o);
	tr_merge_note(&crank, r);
	return 1;
}

static void
concat_done(struct tr_in *in, struct tr_out *o)
{
	if (tr_in_ncut(in) != ncut && crank >= 0)
		tr_merge_mark(o, crank);
}

static const struct tr_loop concat = {
	.hdr = cut_mark, .rec = concat_rec, .done = concat_done,
	.want = 1u << TR_EV_RANK, .checks = TR_CHECK_TRUNC,
};

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "mQz", &opts)) != -1) {
		switch (c) {
		case 'm': mflag = 1; break;
		case 'Q': qflag = 1; break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	o = tr_out_open(1, zflag);
	if (!mflag)
		return tr_loop(argc, argv, o, &concat);
	status = tr_merge(argc, argv, o, !qflag);
	tr_out_close(o);
	return status;
}
