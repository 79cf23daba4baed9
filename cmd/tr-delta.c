/* tr-delta - the computation between MPI calls: for each rank, the time
 * from the end of one call to the start of the next (ScalaExtrap's
 * delta), keyed by the interval. */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int mflag, oflag, pflag, rflag, sflag;
static struct tr_range *shard;
static size_t nshard;

static const struct tr_opts opts = {
	"tr-delta [-cmprs] [-G ranks] [file ...]",
	"-c\tkey by call names (MPI_Send>MPI_Wait) instead of sites\n"
	"-G ranks\tthe input is these ranks of the run, a shard\n"
	"-m\tmerge the dsum records of shards (implies -s)\n"
	"-p\tpass ev and reg records through too\n"
	"-r\tkey by the innermost user region open at the next call\n"
	"-s\twrite the totals per rank and key (dsum) and the slowest "
	"rank's (dmax) instead of delta records\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_delta *delta;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	if (mflag)
		return !tr_delta_merge(delta, in, r);
	return !tr_delta_rec(delta, in, o, r) || pflag;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	tr_delta_end(delta, o);
}

static const struct tr_loop loop = {
	.rec = record, .end = section,
	.want = 1u << TR_EV_CPU, .checks = TR_CHECK_RANKS | TR_CHECK_ENDED,
};

/* Shards' sums: each rank's are whole, as the shard checked. */
static const struct tr_loop mloop = { .rec = record, .end = section };

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "cG:mprs", &opts)) != -1) {
		switch (c) {
		case 'c': oflag = 1; break;
		case 'G': tr_opt_ranks('G', optarg, &shard, &nshard);
			tr_shard('G', optarg, shard, nshard,
			    TR_SHARD_OWN); break;
		case 'm': mflag = sflag = 1; break;
		case 'p': pflag = 1; break;
		case 'r': rflag = 1; break;
		case 's': sflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((oflag && rflag) || (mflag && (nshard || oflag || rflag || pflag)))
		usage();
	delta = tr_delta_new(oflag ? TR_DELTA_OP : rflag ? TR_DELTA_REGION :
	    TR_DELTA_SITE, sflag);
	o = tr_out_open(1, 0);
	if (sflag) {
		tr_out_declare(o, TR_DSUM);
		tr_out_declare(o, TR_DMAX);
	} else
		tr_out_declare(o, TR_DELTA);
	if (!pflag) {
		tr_out_drop(o, "ev");
		tr_out_drop(o, "reg");
	}
	status = tr_loop(argc, argv, o, mflag ? &mloop : &loop);
	tr_delta_free(delta);
	free(shard);
	return status;
}
