/* tr-waits - wait states: late senders and receivers, waits at barriers
 * and N x N collectives, late broadcasts and early reduces (lib/analyse/waits.c). */
#include <getopt.h>
#include <stdlib.h>

#include "libtr.h"

static int mflag, pflag;
static struct tr_range *shard;
static size_t nshard;
static int64_t eager = -1;	/* sends this large wait; -1: the trace says */

static const struct tr_opts opts = {
	"tr-waits [-mp] [-e bytes] [-G ranks] [file ...]",
	"-e bytes\tsends of this size or more use a rendezvous "
	"(default: as the trace says)\n"
	"-G ranks\tonly the waits of these ranks, a shard (the input holds "
	"their partners too)\n"
	"-m\tmerge the outputs of shards\n"
	"-p\tpass ev records through too\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_waits *w;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	if (mflag)
		return !tr_waits_merge(w, in, r);
	if (r->type != TR_EV && r->type != TR_COMM)
		return tr_rec_in_shard(in, r);
	tr_waits_section(w, in, r, o, pflag);	/* to its end */
	tr_meta_unrecorded(in);
	return 0;
}

/* A section of other records. */
static void
section(struct tr_in *in, struct tr_out *o)
{
	if (mflag)
		tr_waits_merged(w, o);
	else
		tr_waits_section(w, in, NULL, o, pflag);
}

static const struct tr_loop loop = {
	.rec = record, .end = section,
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
	while ((c = tr_getopt(argc, argv, "e:G:mp", &opts)) != -1) {
		switch (c) {
		case 'e':
			eager = tr_opt_size('e', optarg, 0, INT64_MAX);
			break;
		case 'G': tr_opt_ranks('G', optarg, &shard, &nshard);
			tr_shard('G', optarg, shard, nshard,
			    TR_SHARD_PEERS); break;
		case 'm': mflag = 1; break;
		case 'p': pflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (mflag && (nshard || pflag || eager >= 0))
		usage();
	w = tr_waits_new(eager);
	o = tr_out_open(1, 0);
	tr_out_declare(o, TR_WAIT);
	tr_out_declare(o, TR_BLAME);
	if (!pflag)
		tr_out_drop(o, "ev");
	status = tr_loop(argc, argv, o, mflag ? &mloop : &loop);
	tr_waits_free(w);
	free(shard);
	return status;
}
