/* tr-gen - deterministic synthetic traces of common MPI patterns, under
 * a simple timing model (latency L, bandwidth B, per-call overhead o). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

enum pat { RING, ST1, ST2, ST3, A2A, MASTER };
static const char *patname[] = {"ring", "stencil1d", "stencil2d",
	"stencil3d", "alltoall", "master"};

static int np = 4, iters = 10, every = 1, onlyrank = -1, ndims;
static int64_t bytes = 1024, comp = 100000, lat = 1000, ovh = 300;
static double bw = 1e10, noise, slowf = 1;
static int slowrank = -1;
static uint64_t seed = 1;
static int64_t probN = -1;
static enum pat pat = ST2;

static int dims[3];

static void
usage(void)
{
	fprintf(stderr, "usage: tr-gen [-p pattern] [-n ranks] [-i iters] "
	    "[-b bytes] [-c compute] [-j noise] [-s seed]\n"
	    "              [-a every] [-S rank:factor] [-r rank] [-L latency] "
	    "[-B bandwidth] [-N size]\n"
	    "patterns: ring stencil1d stencil2d stencil3d alltoall master\n");
	exit(TR_EXIT_USAGE);
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

static int
parse_int(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	if (tr_parse_i64(s, strlen(s), v) < 0 || *v < lo || *v > hi)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct tr_genopt g;
	struct tr_out *out;
	int c, r;
	int64_t v;
	char *e;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "p:n:i:b:c:j:s:a:S:r:L:B:N:")) != -1) {
		switch (c) {
		case 'p':
			for (r = 0; r <= MASTER && strcmp(optarg, patname[r]);
			    r++)
				;
			if (r > MASTER)
				usage();
			pat = (enum pat)r;
			break;
		case 'n': if (parse_int(optarg, 1, 1 << 22, &v)) usage(); np = (int)v; break;
		case 'i': if (parse_int(optarg, 0, 1 << 30, &v)) usage(); iters = (int)v; break;
		case 'a': if (parse_int(optarg, 1, 1 << 30, &v)) usage(); every = (int)v; break;
		case 'r': if (parse_int(optarg, 0, 1 << 22, &v)) usage(); onlyrank = (int)v; break;
		case 'b':
			if (tr_parse_size(optarg, &bytes) || bytes < 0 ||
			    bytes > (int64_t)1 << 40)
				tr_die(TR_EXIT_USAGE, "-b %s: not a size from 0 "
				    "to 1024GiB", optarg);
			break;
		case 'c': if (tr_parse_dur(optarg, &comp) || comp < 0) usage(); break;
		case 'L': if (tr_parse_dur(optarg, &lat) || lat < 0) usage(); break;
		case 'N': if (parse_int(optarg, 1, INT64_MAX, &probN)) usage(); break;
		case 's': if (parse_int(optarg, 0, INT64_MAX, &v)) usage(); seed = (uint64_t)v; break;
		case 'j':
			noise = strtod(optarg, &e);
			if (*e || e == optarg || !(noise >= 0 && noise <= 1))
				tr_die(TR_EXIT_USAGE, "-j %s: not a number from 0 "
				    "to 1", optarg);
			break;
		case 'B':
			bw = strtod(optarg, &e);
			if (*e || e == optarg || !(bw >= 1 && isfinite(bw)))
				tr_die(TR_EXIT_USAGE, "-B %s: not a bandwidth of "
				    "1 byte/s or more", optarg);
			break;
		case 'S':
			slowrank = (int)strtol(optarg, &e, 10);
			if (e == optarg || *e != ':' || slowrank < 0)
				usage();
			slowf = strtod(e + 1, &e);
			if (*e || !(slowf > 0 && slowf <= 1e6))
				tr_die(TR_EXIT_USAGE, "-S %s: the factor must be "
				    "above 0 and at most 1e6", optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || (pat == MASTER && np < 2) ||
	    (onlyrank >= np))
		usage();
	check_span();
	ndims = pat == ST1 ? 1 : pat == ST2 ? 2 : pat == ST3 ? 3 : 0;
	if (ndims)
		tr_gen_dims(np, ndims, dims);
	g = (struct tr_genopt){
		.kind = pat == RING ? TR_GEN_RING : pat == A2A ?
		    TR_GEN_ALLTOALL : pat == MASTER ? TR_GEN_MASTER :
		    TR_GEN_STENCIL,
		.ndims = ndims, .name = patname[pat], .np = np, .iters = iters,
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
	if (ndims)
		tr_out_printf(out, "#meta gen.dims=%d%s%.0d%s%.0d\n", dims[0],
		    ndims > 1 ? "x" : "", ndims > 1 ? dims[1] : 0,
		    ndims > 2 ? "x" : "", ndims > 2 ? dims[2] : 0);
	if (probN > 0)
		tr_out_printf(out, "#meta N=%lld\n", (long long)probN);
	tr_out_fields(out, TR_EV);
	tr_gen_run(&g, out);
	tr_out_close(out);
	return 0;
}
