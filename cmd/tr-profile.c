/* tr-profile - a flat profile per rank and function, with TAU's
 * definitions of calls, subroutine calls, exclusive and inclusive time. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static int mflag, pflag, Rflag;
static struct tr_range *shard;
static size_t nshard;
static int stats[3];		/* mean, min, max */

static const struct tr_opts opts = {
	"tr-profile [-Aamp] [-G ranks] [-s mean,min,max] [file ...]",
	"-A\tleave out the per-rank prof records\n"
	"-a\tthe same as -s mean,min,max\n"
	"-G ranks\tthe input is these ranks of the run, a shard\n"
	"-m\tmerge the prof records of shards\n"
	"-p\tpass ev and reg records through too\n"
	"-s stats\talso write profagg records: these statistics over the "
	"ranks, comma-separated\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_profile *prof;

static void
parse_stats(const char *s)
{
	const char *const *name = tr_profile_stats, *p = s, *e;
	int i;

	for (;;) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		for (i = 0; i < 3; i++)
			if (strlen(name[i]) == (size_t)(e - p) &&
			    memcmp(name[i], p, (size_t)(e - p)) == 0)
				break;
		if (i == 3)
			tr_opt_bad('s', s, "not a list of mean, min and max");
		stats[i] = 1;
		if (!*e)
			break;
		p = e + 1;
	}
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	if (mflag)
		return !tr_profile_merge(prof, in, r);
	return !tr_profile_rec(prof, in, r) || pflag;
}

static void
section(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	tr_profile_end(prof, o);
}

/* Each rank's profile is right without the others; profagg says over
 * how many ranks it is. */
static const struct tr_loop loop = {
	.rec = record, .end = section, .want = 1u << TR_EV_BYTES,
	.checks = TR_CHECK_RANKS_WARN | TR_CHECK_ENDED,
};

/* Shards' records: each rank's are whole, as the shard checked. */
static const struct tr_loop mloop = { .rec = record, .end = section };

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "AaG:mps:", &opts)) != -1) {
		switch (c) {
		case 'a': stats[0] = stats[1] = stats[2] = 1; break;
		case 'G': tr_opt_ranks('G', optarg, &shard, &nshard);
			tr_shard('G', optarg, shard, nshard,
			    TR_SHARD_OWN); break;
		case 'm': mflag = 1; break;
		case 'p': pflag = 1; break;
		case 'A': Rflag = 1; break;
		case 's': parse_stats(optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((mflag && (nshard || pflag)) || (nshard && Rflag))
		usage();
	prof = tr_profile_new(!Rflag, stats);
	o = tr_out_open(1, 0);
	if (!Rflag)
		tr_out_declare(o, TR_PROF);
	else if (mflag)
		tr_out_drop(o, "prof");
	if (stats[0] || stats[1] || stats[2])
		tr_out_declare(o, TR_PROFAGG);
	else if (mflag)
		tr_out_drop(o, "profagg");
	if (!pflag) {
		tr_out_drop(o, "ev");
		tr_out_drop(o, "reg");
	}
	status = tr_loop(argc, argv, o, mflag ? &mloop : &loop);
	tr_profile_free(prof);
	free(shard);
	return status;
}
