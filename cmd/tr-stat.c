/* tr-stat - counts and bytes per operation, the communication matrix,
 * message sizes and the load imbalance of compute, per section. */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int mflag, pflag, sflag;
static struct tr_range *shard;
static size_t nshard;

static const struct tr_opts opts = {
	"tr-stat [-mps] [-G ranks] [file ...]",
	"-G ranks\tthe input is these ranks of the run, a shard: imbal per "
	"rank\n"
	"-m\tmerge the outputs of shards\n"
	"-p\tpass ev records through too\n"
	"-s\twrite msite records too\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_opstat *st;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	if (mflag)
		return !tr_opstat_merge(st, in, r);
	return !tr_opstat_rec(st, in, r) || pflag;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	tr_opstat_end(st, o);
}

/* root: the bytes a fetching atomic sends (ARMCI-MPI's Fetch_and_op),
 * lost from the matrix when left unread */
static const struct tr_loop loop = {
	.rec = record, .end = section,
	.want = 1u << TR_EV_PEER | 1u << TR_EV_BYTES | 1u << TR_EV_ROOT,
	.checks = TR_CHECK_RANKS | TR_CHECK_ENDED,
};

/* Shards' records: each rank's are whole, as the shard checked. */
static const struct tr_loop mloop = { .rec = record, .end = section };

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "G:mps", &opts)) != -1) {
		switch (c) {
		case 'G': tr_opt_ranks('G', optarg, &shard, &nshard);
			tr_shard('G', optarg, shard, nshard,
			    TR_SHARD_OWN); break;
		case 'm': mflag = 1; break;
		case 'p': pflag = 1; break;
		case 's': sflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (mflag && (nshard || pflag))
		usage();
	st = tr_opstat_new(sflag, nshard > 0);
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_OPSTAT);
	if (sflag)
		tr_out_declare(o, TR_MSITE);
	tr_out_declare(o, TR_CMAT);
	tr_out_declare(o, TR_MSIZE);
	tr_out_declare(o, TR_IMBAL);
	if (!pflag)
		tr_out_drop(o, "ev");
	status = tr_loop(argc, argv, o, mflag ? &mloop : &loop);
	tr_opstat_free(st);
	free(shard);
	return status;
}
