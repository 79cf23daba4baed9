/* tr-barrier-correct - per-phase times less the cost of the timer reads
 * and barriers the measurement itself added (lib/fit/correct.c). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

static struct tr_corropt opt = { .timer = -1, .barrier = -1, .N = -1 };
static int zflag;

static const struct tr_opts opts = {
	"tr-barrier-correct [-Cz] [-T cost] [-b cost] [-P params] "
	"[-m [phase:]timers:barriers] [-c config] [-B config] [-N N] "
	"[file ...]",
	"-B config\tthe baseline configuration of the overhead comparison "
	"(default: the first run of each size)\n"
	"-b cost\tcost of one barrier, a duration\n"
	"-C\ttake the compute part of a phase from the CPU times "
	"tr-record samples\n"
	"-c config\tthe instrumentation configuration of the input runs\n"
	"-m [phase:]timers:barriers\tthe timer reads and barriers the "
	"measurement made, per rank; may be repeated\n"
	"-N N\tthe problem size of traced runs without #meta N\n"
	"-P params\ttake the costs from this tr-bench output\n"
	"-T cost\tcost of one timer read, a duration\n"
	"-z\twrite gzip\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
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
	tr_corr_finish(k, in, o);
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

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "B:b:Cc:m:N:P:T:z", &opts)) != -1) {
		switch (c) {
		case 'B': opt.baseline = optarg; break;
		case 'b': opt.barrier = tr_corr_cost('b', optarg); break;
		case 'C': opt.cpu = 1; break;
		case 'c': opt.config = optarg; break;
		case 'm': tr_corr_count(&opt, optarg); break;
		case 'N': opt.N = tr_opt_pos('N', optarg); break;
		case 'P': opt.params = optarg; break;
		case 'T': opt.timer = tr_corr_cost('T', optarg); break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.config && (!*opt.config || strpbrk(opt.config, "\t\n ")))
		tr_opt_bad('c', opt.config, "a config is one word");
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
