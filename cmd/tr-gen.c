/* tr-gen - deterministic synthetic traces of common MPI patterns, under
 * a simple timing model (latency L, bandwidth B, per-call overhead o). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

enum pat {
	RING, ST1, ST2, ST3, A2A, MASTER, ST27, BFLY, TRANS, TREE, GRID2,
	PAIRW, REDUCE
};
static const char *patname[] = {"ring", "stencil1d", "stencil2d",
	"stencil3d", "alltoall", "master", "stencil27", "butterfly",
	"transpose", "tree", "grid2d", "pairwise", "reduce", NULL};

static int np = 4, iters = 10, every = 1, onlyrank = -1, ndims;
static int64_t bytes = 1024, comp = 100000, lat = 1000, ovh = 300;
static double bw = 1e10, noise, slowf = 1;
static int slowrank = -1;
static uint64_t seed = 1;
static int64_t probN = -1;
static enum pat pat = ST2;

static int dims[3];

static const struct tr_opts opts = {
	"tr-gen [-P pattern] [-n ranks] [-i iters] [-b bytes] [-c compute] "
	"[-j noise] [-R seed]\n"
	"              [-a every] [-S rank:factor] [-r rank] [-L latency] "
	"[-B bandwidth] [-N size]\n"
	"patterns: ring stencil1d stencil2d stencil3d alltoall master "
	"stencil27 butterfly transpose tree grid2d\n"
	"          pairwise reduce",
	"-a every\tallreduce every that many iterations (default 1)\n"
	"-B bandwidth\tbytes per second, at least 1 (default 1e10)\n"
	"-b bytes\tmessage size, at most 1024GiB (default 1024)\n"
	"-c compute\tcompute time per iteration (default 100us)\n"
	"-i iters\titerations (default 10)\n"
	"-j noise\trelative noise of compute times, from 0 to 1 (default 0)\n"
	"-L latency\tnetwork latency (default 1us)\n"
	"-N size\tthe problem size written as #meta N\n"
	"-n ranks\tnumber of ranks (default 4)\n"
	"-P pattern\tthe pattern (default stencil2d)\n"
	"-R seed\tthe seed of the noise (default 1)\n"
	"-r rank\twrite only the records of this rank\n"
	"-S rank:factor\tmultiply the compute time of one rank by factor\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

/* Times are integer ns: options under which the run could pass 2^62 ns
 * (146 years) are refused rather than overflowed. An iteration takes at
 * most two bursts and a few messages per rank (the master's, the
 * alltoall's) or per level of a collective. */
static void
check_span(void)
{
	double burst = (double)comp * (1 + noise) * (slowf > 1 ? slowf : 1);
	double x = (double)lat + (double)bytes / bw * 1e9;
	double iter = 2 * burst + (4.0 * np + 64) * ((double)ovh + x);

	if (!(2e6 + (iters + 1.0) * iter < 4.6e18))
		tr_die(TR_EXIT_USAGE, "-c %lld, -L %lld, -b %lld, -B %g, -S "
		    "factor %g, -i %d: the run would last over 2^62 ns",
		    (long long)comp, (long long)lat, (long long)bytes, bw,
		    slowf, iters);
}

int
main(int argc, char **argv)
{
	struct tr_genopt g;
	struct tr_out *out;
	int c;
	char *e;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "a:B:b:c:i:j:L:N:n:P:R:r:S:",
	    &opts)) != -1) {
		switch (c) {
		case 'P':
			pat = (enum pat)tr_opt_oneof('P', optarg, patname);
			break;
		case 'n': np = (int)tr_opt_int('n', optarg, 1, 1 << 22); break;
		case 'i':
			iters = (int)tr_opt_int('i', optarg, 0, 1 << 30);
			break;
		case 'a':
			every = (int)tr_opt_int('a', optarg, 1, 1 << 30);
			break;
		case 'r':
			onlyrank = (int)tr_opt_int('r', optarg, 0, 1 << 22);
			break;
		case 'b':
			bytes = tr_opt_size('b', optarg, 0, (int64_t)1 << 40);
			break;
		case 'c': comp = tr_opt_dur('c', optarg, 0); break;
		case 'L': lat = tr_opt_dur('L', optarg, 0); break;
		case 'N': probN = tr_opt_int('N', optarg, 1, INT64_MAX); break;
		case 'R':
			seed = (uint64_t)tr_opt_int('R', optarg, 0, INT64_MAX);
			break;
		case 'j': noise = tr_opt_num('j', optarg, 0, 1); break;
		case 'B': bw = tr_opt_num('B', optarg, 1, INFINITY); break;
		case 'S':
			slowrank = (int)strtol(optarg, &e, 10);
			if (e == optarg || *e != ':' || slowrank < 0)
				tr_opt_bad('S', optarg, "not rank:factor");
			slowf = strtod(e + 1, &e);
			if (*e || !(slowf > 0 && slowf <= 1e6))
				tr_opt_bad('S', optarg, "the factor is not "
				    "above 0 and at most 1e6");
			break;
		default:
			usage();
		}
	}
	if (optind != argc || (pat == MASTER && np < 2) ||
	    (onlyrank >= np))
		usage();
	if (pat == BFLY && (np & (np - 1)))
		tr_die(TR_EXIT_USAGE, "-P butterfly: -n %d is not a power of 2",
		    np);
	check_span();
	ndims = pat == ST1 ? 1 : pat == ST2 ? 2 : pat == ST3 || pat == ST27 ?
	    3 : 0;
	if (ndims)
		tr_gen_dims(np, ndims, dims);
	if (pat == GRID2)
		tr_grid_dims(np, 2, dims);
	g = (struct tr_genopt){
		.kind = pat == RING ? TR_GEN_RING : pat == A2A ?
		    TR_GEN_ALLTOALL : pat == MASTER ? TR_GEN_MASTER :
		    pat == BFLY ? TR_GEN_BUTTERFLY : pat == TRANS ?
		    TR_GEN_TRANSPOSE : pat == TREE ? TR_GEN_TREE :
		    pat == GRID2 ? TR_GEN_GRID2D : pat == PAIRW ?
		    TR_GEN_PAIRWISE : pat == REDUCE ? TR_GEN_REDUCE :
		    TR_GEN_STENCIL,
		.ndims = ndims, .diag = pat == ST27, .name = patname[pat], .np = np, .iters = iters,
		.every = every, .onlyrank = onlyrank, .bytes = bytes,
		.comp = comp, .lat = lat, .ovh = ovh, .bw = bw, .noise = noise,
		.slowrank = slowrank, .slowf = slowf, .seed = seed,
	};
	out = tr_out_open(1, 0);
	tr_out_begin(out);
	tr_out_printf(out, "#meta np=%d\n#meta app=tr-gen-%s\n"
	    "#meta clock=synthetic\n#meta tool=tr-gen %s\n"
	    "#meta gen.pattern=%s\n#meta gen.iters=%d\n#meta gen.bytes=%lld\n"
	    "#meta gen.compute=%lld\n#meta gen.seed=%llu\n", np, patname[pat],
	    TR_VERSION, patname[pat], iters, (long long)bytes,
	    (long long)comp, (unsigned long long)seed);
	if (pat == GRID2)
		tr_out_printf(out, "#meta gen.dims=%dx%d\n", dims[0], dims[1]);
	if (ndims)
		tr_out_printf(out, "#meta gen.dims=%d%s%.0d%s%.0d\n", dims[0],
		    ndims > 1 ? "x" : "", ndims > 1 ? dims[1] : 0,
		    ndims > 2 ? "x" : "", ndims > 2 ? dims[2] : 0);
	if (probN > 0)
		tr_out_printf(out, "#meta N=%lld\n", (long long)probN);
	tr_out_fields(out, TR_EV);
	if (pat == GRID2)
		tr_out_fields(out, TR_COMM);
	tr_gen_run(&g, out);
	tr_out_close(out);
	return 0;
}
