/* tr-gen - deterministic synthetic traces of common MPI patterns.
 *
 * Ranks advance in lock step, one iteration at a time, under a simple
 * timing model (latency L, bandwidth B, per-call overhead o), so that
 * waits, late senders and collective skew come out as they would in a
 * real run: a slow rank delays its neighbours and everybody at an
 * allreduce. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libtr.h"

enum pat { RING, ST1, ST2, ST3, A2A, MASTER };
static const char *patname[] = {"ring", "stencil1d", "stencil2d",
	"stencil3d", "alltoall", "master", NULL};

static int np = 4, iters = 10, every = 1, onlyrank = -1, ndims;
static int64_t bytes = 1024, comp = 100000, lat = 1000, ovh = 300;
static double bw = 1e10, noise, slowf = 1;
static int slowrank = -1;
static uint64_t seed = 1;
static int64_t probN = -1;
static enum pat pat = ST2;

static struct tr_out *out;
static int64_t *t, *seq, *req, *post, *pcpu;
static int dims[3];

static const struct tr_opts opts = {
	"tr-gen [-P pattern] [-n ranks] [-i iters] [-b bytes] [-c compute] "
	"[-j noise] [-R seed]\n"
	"              [-a every] [-S rank:factor] [-r rank] [-L latency] "
	"[-B bandwidth] [-N size]\n"
	"patterns: ring stencil1d stencil2d stencil3d alltoall master",
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

static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The compute burst of rank r in iteration it: deterministic noise. */
static int64_t
burst(int r, int it)
{
	double u = (double)(mix(seed ^ mix((uint64_t)r << 32 | (uint32_t)it))
	    >> 11) / 9007199254740992.0;
	double c = (double)comp * (1 + noise * (2 * u - 1));

	if (r == slowrank)
		c *= slowf;
	return c < 0 ? 0 : (int64_t)c;
}

static int64_t
xfer(int64_t b)
{
	return lat + (int64_t)((double)b / bw * 1e9);
}

/* The cpu field carries the compute done since the rank's last call. */
static void
emit(int r, const char *op, int64_t start, int64_t end, int site,
    int64_t peer, int64_t b, int64_t tag, int64_t rq, int64_t root,
    int sameseq)
{
	char sitebuf[48];
	struct tr_ev e;
	int64_t cpu = pcpu[r];

	if (!sameseq) {
		seq[r]++;
		pcpu[r] = 0;
	} else
		cpu = 0;
	if (onlyrank >= 0 && r != onlyrank)
		return;
	snprintf(sitebuf, sizeof sitebuf, "%s+0x%x", patname[pat], site);
	e.rank = r;
	e.seq = seq[r];
	e.op.p = op;
	e.op.n = strlen(op);
	e.start = start;
	e.end = end;
	e.cpu = cpu;
	e.site.p = sitebuf;
	e.site.n = strlen(sitebuf);
	e.peer = peer;
	e.bytes = b;
	e.tag = tag;
	e.comm = 0;
	e.req = rq;
	e.root = root;
	tr_out_ev(out, &e);
}

/* Balanced factors of np, largest first, as MPI_Dims_create does. */
static void
factor(int n, int nd, int *d)
{
	int i, f;

	for (i = 0; i < nd; i++)
		d[i] = 1;
	for (f = 2; n > 1;) {
		if (n % f) {
			f++;
			continue;
		}
		n /= f;
		/* the smallest dimension takes the next factor */
		{
			int k = 0;

			for (i = 1; i < nd; i++)
				if (d[i] < d[k])
					k = i;
			d[k] *= f;
		}
	}
	/* largest first */
	for (i = 0; i < nd; i++)
		for (f = i + 1; f < nd; f++)
			if (d[f] > d[i]) {
				int x = d[i];

				d[i] = d[f];
				d[f] = x;
			}
}

/* Neighbours of r in the (non-periodic) grid; returns how many. */
static int
neighbours(int r, int *nb, int *dir)
{
	int c[3], i, k = 0, s, rr = r;

	for (i = ndims - 1; i >= 0; i--) {
		c[i] = rr % dims[i];
		rr /= dims[i];
	}
	for (i = 0; i < ndims; i++) {
		for (s = -1; s <= 1; s += 2) {
			int q = c[i] + s, j, id = 0;

			if (q < 0 || q >= dims[i])
				continue;
			for (j = 0; j < ndims; j++)
				id = id * dims[j] + (j == i ? q : c[j]);
			nb[k] = id;
			dir[k++] = 2 * i + (s > 0);
		}
	}
	return k;
}

static void
collective(const char *op, int site, int64_t b, int64_t cost)
{
	int64_t mx = 0;
	int r;

	for (r = 0; r < np; r++)
		if (t[r] > mx)
			mx = t[r];
	for (r = 0; r < np; r++) {
		emit(r, op, t[r], mx + cost, site, -1, b, -1, -1, -1, 0);
		t[r] = mx + cost;
	}
}

static int64_t
log2ceil(int n)
{
	int64_t k = 0;

	while ((1 << k) < n)
		k++;
	return k;
}

static void
stencil_iter(int it)
{
	int nb[6], dir[6], k, i, r;
	int64_t c;

	for (r = 0; r < np; r++) {
		c = burst(r, it);
		t[r] += c;
		pcpu[r] += c;
		k = neighbours(r, nb, dir);
		for (i = 0; i < k; i++) {
			emit(r, "MPI_Irecv", t[r], t[r] + ovh / 2,
			    0x100 + dir[i], nb[i], bytes, dir[i] ^ 1,
			    ++req[r], -1, 0);
			t[r] += ovh / 2;
		}
		for (i = 0; i < k; i++) {
			emit(r, "MPI_Isend", t[r], t[r] + ovh,
			    0x200 + dir[i], nb[i], bytes, dir[i], ++req[r],
			    -1, 0);
			t[r] += ovh;
		}
		post[r] = t[r] - (int64_t)k * ovh;	/* first send posted */
	}
	for (r = 0; r < np; r++) {
		int64_t end = t[r] + ovh;

		k = neighbours(r, nb, dir);
		for (i = 0; i < k; i++) {
			/* The neighbour posts its sends in the same order;
			 * the message to r leaves at its index of r. */
			int nb2[6], dir2[6], k2 = neighbours(nb[i], nb2, dir2),
			    j;
			int64_t arr;

			for (j = 0; j < k2 && nb2[j] != r; j++)
				;
			arr = post[nb[i]] + (int64_t)j * ovh + ovh +
			    xfer(bytes);
			if (arr > end)
				end = arr;
		}
		/* One record per completed request, sharing seq and times. */
		for (i = 0; i < 2 * k; i++)
			emit(r, "MPI_Waitall", t[r], end, 0x300, -1, 0, -1,
			    req[r] - 2 * k + 1 + i, -1, i > 0);
		t[r] = end;
	}
	if ((it + 1) % every == 0)
		collective("MPI_Allreduce", 0x400, 8,
		    2 * log2ceil(np) * xfer(8));
}

static void
ring_iter(int it)
{
	int r;

	for (r = 0; r < np; r++) {
		pcpu[r] += burst(r, it);
		t[r] += burst(r, it);
		post[r] = t[r];
	}
	for (r = 0; r < np; r++) {
		int src = (r + np - 1) % np;
		int64_t end = post[src] + ovh + xfer(bytes);

		if (end < t[r] + ovh)
			end = t[r] + ovh;
		emit(r, "MPI_Sendrecv", t[r], end, 0x100, (r + 1) % np, bytes,
		    7, 7, src, 0);
		t[r] = end;
	}
}

static void
a2a_iter(int it)
{
	int r;

	for (r = 0; r < np; r++) {
		pcpu[r] += burst(r, it);
		t[r] += burst(r, it);
	}
	collective("MPI_Alltoall", 0x100, bytes * np,
	    (int64_t)(np - 1) * xfer(bytes));
}

static int
cmp_arrival(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

static void
master_iter(int it)
{
	static int64_t (*arr)[2];
	int w, i;

	if (!arr)
		arr = tr_calloc((size_t)np, sizeof *arr);
	for (w = 1; w < np; w++) {
		int64_t s = t[0];

		emit(0, "MPI_Send", s, s + ovh, 0x100, w, bytes, 1, -1, -1, 0);
		t[0] = s + ovh;
		{
			int64_t got = s + ovh + xfer(bytes), st = t[w];
			int64_t end = got > st + ovh ? got : st + ovh;

			emit(w, "MPI_Recv", st, end, 0x200, 0, bytes, 1, -1,
			    -1, 0);
			pcpu[w] += burst(w, it);
			t[w] = end + burst(w, it);
			emit(w, "MPI_Send", t[w], t[w] + ovh, 0x300, 0, bytes,
			    2, -1, -1, 0);
			arr[w - 1][0] = t[w] + ovh + xfer(bytes);
			arr[w - 1][1] = w;
			t[w] += ovh;
		}
	}
	tr_sort(arr, (size_t)np - 1, sizeof *arr, cmp_arrival);
	for (i = 0; i < np - 1; i++) {
		int64_t st = t[0], end = arr[i][0] > st + ovh ? arr[i][0] :
		    st + ovh;

		emit(0, "MPI_Recv", st, end, 0x400, arr[i][1], bytes, 2, -1,
		    -1, 0);
		t[0] = end;
	}
	if (it + 1 == iters)
		free(arr);
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
	int c, r, it;
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
	check_span();
	ndims = pat == ST1 ? 1 : pat == ST2 ? 2 : pat == ST3 ? 3 : 0;
	if (ndims)
		factor(np, ndims, dims);
	t = tr_calloc((size_t)np, sizeof *t);
	seq = tr_calloc((size_t)np, sizeof *seq);
	req = tr_calloc((size_t)np, sizeof *req);
	post = tr_calloc((size_t)np, sizeof *post);
	pcpu = tr_calloc((size_t)np, sizeof *pcpu);
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
	for (r = 0; r < np; r++) {
		seq[r] = -1;
		t[r] = 1000 + (int64_t)(mix(seed + (uint64_t)r) % 1000);
		emit(r, "MPI_Init", t[r], t[r] + 1000000, 0x10, -1, 0, -1, -1,
		    -1, 0);
		t[r] += 1000000;
	}
	for (it = 0; it < iters; it++) {
		switch (pat) {
		case RING: ring_iter(it); break;
		case A2A: a2a_iter(it); break;
		case MASTER: master_iter(it); break;
		default: stencil_iter(it);
		}
	}
	collective("MPI_Finalize", 0x20, 0, 2 * log2ceil(np) * xfer(0));
	tr_out_close(out);
	free(t);
	free(seq);
	free(req);
	free(post);
	free(pcpu);
	return 0;
}
