/* tr-barrier-correct - per-phase times less the cost of the timer reads
 * and barriers the measurement itself added (lib/fit/correct.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static struct tr_corropt opt = { .timer = -1, .barrier = -1, .N = -1 };
static int zflag;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-barrier-correct [-Cz] [-t cost] [-b cost] "
	    "[-p params] [-k [phase:]timers:barriers] [-c config] "
	    "[-B config] [-n N] [file ...]\n");
	exit(TR_EXIT_USAGE);
}

static struct tr_corr *k;

static void
hdr(struct tr_in *in, struct tr_out *o)
{
	tr_out_sync(o, in);	/* the header, then tr_corr_hdr's meta */
	tr_corr_hdr(k, in, o);
}

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *o)
{
	(void)o;
	return !tr_corr_add(k, in, r);
}

static void
end(struct tr_in *in, struct tr_out *o)
{
	tr_corr_end(k, in, o);
}

static void
done(struct tr_in *in, struct tr_out *o)
{
	(void)in;
	tr_corr_finish(k, o);
}

static const struct tr_loop loop = {
	.hdr = hdr, .rec = record, .end = end, .done = done,
	.checks = TR_CHECK_RANKS | TR_CHECK_ENDED,
};

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status;
	char *end;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "B:b:Cc:k:n:p:t:z")) != -1) {
		switch (c) {
		case 'B': opt.baseline = optarg; break;
		case 'b': opt.barrier = tr_corr_cost('b', optarg); break;
		case 'C': opt.cpu = 1; break;
		case 'c': opt.config = optarg; break;
		case 'k': tr_corr_count(&opt, optarg); break;
		case 'n':
			opt.N = strtod(optarg, &end);
			if (end == optarg || *end || !(opt.N > 0))
				tr_die(TR_EXIT_USAGE, "-n %s: not a positive "
				    "number", optarg);
			break;
		case 'p': opt.params = optarg; break;
		case 't': opt.timer = tr_corr_cost('t', optarg); break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.config && (!*opt.config || strpbrk(opt.config, "\t\n ")))
		tr_die(TR_EXIT_USAGE, "-c %s: a config is one word",
		    opt.config);
	k = tr_corr_new(&opt);
	o = tr_out_open(1, zflag);
	tr_out_declare(o, TR_PHASE);
	tr_out_declare(o, TR_OVERHEAD);
	tr_out_drop(o, "ev");
	tr_out_drop(o, "reg");
	tr_out_drop(o, "prof");
	status = tr_loop(argc, argv, o, &loop);
	tr_corr_free(k);
	return status;
}
