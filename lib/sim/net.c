/* net.c - network descriptions (formats/net.md): parsing, topology,
 * routing. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static const char *topo_names[] = {"crossbar", "fattree", "torus",
	"dragonfly"};
static const char *coll_names[TR_COLL_NOPS] = {"barrier", "bcast", "reduce",
	"allreduce", "gather", "scatter", "allgather", "alltoall",
	"reduce_scatter", "scan"};
static const char *alg_names[TR_ALG_N] = {"binomial", "linear", "rdb", "ring",
	"dissemination", "pairwise"};

/* Which algorithms each operation accepts; the first is the default. */
static const int coll_algs[TR_COLL_NOPS][3] = {
	[TR_COLL_BARRIER] = {TR_ALG_DISSEM, -1, -1},
	[TR_COLL_BCAST] = {TR_ALG_BINOMIAL, TR_ALG_LINEAR, -1},
	[TR_COLL_REDUCE] = {TR_ALG_BINOMIAL, TR_ALG_LINEAR, -1},
	[TR_COLL_ALLREDUCE] = {TR_ALG_RDB, TR_ALG_RING, -1},
	[TR_COLL_GATHER] = {TR_ALG_BINOMIAL, TR_ALG_LINEAR, -1},
	[TR_COLL_SCATTER] = {TR_ALG_BINOMIAL, TR_ALG_LINEAR, -1},
	[TR_COLL_ALLGATHER] = {TR_ALG_RING, -1, -1},
	[TR_COLL_ALLTOALL] = {TR_ALG_PAIRWISE, -1, -1},
	[TR_COLL_REDSCAT] = {TR_ALG_RING, -1, -1},
	[TR_COLL_SCAN] = {TR_ALG_RDB, -1, -1},
};

const char *
tr_coll_name(int op)
{
	if (op == TR_COLL_NEIGHBOR)
		return "neighbor";
	return op >= 0 && op < TR_COLL_NOPS ? coll_names[op] : "?";
}

const char *
tr_alg_name(int alg)
{
	return alg >= 0 && alg < TR_ALG_N ? alg_names[alg] : "?";
}

struct pctx {
	const char *file;
	long line;
};

static _Noreturn void
bad(const struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tr_vdie_at(c->file, c->line, fmt, ap);
}

/* A non-negative number with an optional unit from TAB (durations and
 * sizes as in options, tr_parse_dur and tr_parse_size's). */
static const struct tr_unit bw_units[] = {{"", 1}, {"B/s", 1},
	{"KB/s", 1e3}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"KiB/s", 1024.0},
	{"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"bps", 0.125},
	{"Kbps", 125.0}, {"Mbps", 125e3}, {"Gbps", 125e6}, {NULL, 0}};

static double
num_unit(const struct pctx *c, const char *s, const struct tr_unit *u,
    const char *what)
{
	char *e;
	double v;

	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno || !isfinite(v) || v < 0)
		bad(c, "bad %s '%s'", what, s);
	for (; u->name; u++) {
		if (strcmp(u->name, e) != 0)
			continue;
		if (!isfinite(v * u->mul))
			bad(c, "%s '%s' out of range", what, s);
		return v * u->mul;
	}
	bad(c, "bad unit in %s '%s'", what, s);
}

/* Bandwidths and durations a machine can have: a bandwidth under 1 B/s
 * or a latency over an hour makes times that overflow, or a replay that
 * stops as if deadlocked. */
#define MINBW 1.0		/* B/s */
#define MAXDUR 3.6e12		/* ns: an hour */

static double
num_bw(const struct pctx *c, const char *s)
{
	double v = num_unit(c, s, bw_units, "bandwidth");

	if (v < MINBW)
		bad(c, "bandwidth '%s' out of range: 1 B/s at least", s);
	return v / 1e9;		/* bytes per ns */
}

static double
num_dur(const struct pctx *c, const char *s, const char *what)
{
	double v = num_unit(c, s, tr_dur_units, what);

	if (v > MAXDUR)
		bad(c, "%s '%s' out of range: an hour at most", what, s);
	return v;
}

static long
num_long(const struct pctx *c, const char *s, long min, const char *what)
{
	int64_t v;

	if (tr_parse_i64(s, strlen(s), &v) != 0 || v < min || v > 1L << 30)
		bad(c, "bad %s '%s'", what, s);
	return (long)v;
}

static int64_t
num_size(const struct pctx *c, const char *s)
{
	double v = num_unit(c, s, tr_size_units, "size");

	/* Any size a message can have: INT64_MAX, all eager. */
	return v < 9.2e18 ? (int64_t)v : INT64_MAX;
}

static int
lookup(const char *s, const char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static void
defaults(struct tr_net *n)
{
	int i;

	memset(n, 0, sizeof *n);
	n->topo = TR_TOPO_CROSSBAR;
	n->ppn = 1;
	n->map = TR_MAP_BLOCK;
	n->link_bw = 12.5;	/* bytes per ns: 100 Gbit/s */
	n->link_lat = 500;
	n->sw_lat = 100;
	n->intra_bw = 10;
	n->intra_lat = 300;
	n->eager = n->intra_eager = n->efile[0] = 65536;
	n->efall[0] = n->efall[1] = -1;
	n->model = TR_MODEL_FLOW;
	n->sharing = TR_SHARE_LATENCY;
	n->progress = TR_PROGRESS_CALLS;
	for (i = 0; i < TR_COLL_NOPS; i++)
		n->coll[i] = coll_algs[i][0];
}

struct tr_net *
tr_net_default(void)
{
	struct tr_net *n = tr_malloc(sizeof *n);

	defaults(n);
	return n;
}

/* Nodes and links a replay allocates and walks: no more nodes than
 * ranks a trace can have, and links for a crossbar of them. */
#define MAXNODES TR_MAXNP
#define MAXLINKS (2L * TR_MAXNP)

/* Counted in floating point, which cannot overflow at these sizes. */
static void
check_size(const struct pctx *c, const struct tr_net *n)
{
	double d[4] = {n->dim[0], n->dim[1], n->dim[2], n->dim[3]};
	double nodes, links;

	switch (n->topo) {
	case TR_TOPO_CROSSBAR:
		if (!n->xnodes)
			return;	/* as the ranks need, TR_MAXNP at most */
		nodes = (double)n->xnodes;
		links = 2 * nodes;
		break;
	case TR_TOPO_FATTREE:
		nodes = pow(d[0], d[1]);
		links = 2 * d[1] * nodes;
		break;
	case TR_TOPO_TORUS:
		nodes = d[0] * d[1] * d[2];
		links = 6 * nodes;
		break;
	default:
		nodes = d[0] * d[1] * d[2];
		links = 2 * nodes + d[0] * d[1] * (d[1] + d[3]);
		if (d[1] * d[3] < d[0] - 1)
			bad(c, "dragonfly needs A*H >= G-1 global links");
	}
	if (!(nodes <= MAXNODES && links <= MAXLINKS))
		bad(c, "network too large: %.3g nodes and %.3g links (at most "
		    "%d and %ld)", nodes, links, MAXNODES, MAXLINKS);
}

static void
parse_line(struct tr_net *n, const struct pctx *c, char **w, int nw,
    const char *dir)
{
	const char *k = w[0];
	int i, op, alg;

	if (strcmp(k, "topology") == 0) {
		n->nline = c->line;
		if (nw < 2 || (n->topo = lookup(w[1], topo_names, 4)) < 0)
			bad(c, "unknown topology '%s'", nw < 2 ? "" : w[1]);
		static const int nargs[] = {0, 2, 3, 4};
		if (n->topo == TR_TOPO_CROSSBAR && nw == 3) {
			n->xnodes = num_long(c, w[2], 1, "node count");
			check_size(c, n);
			return;
		}
		if (nw != 2 + nargs[n->topo])
			bad(c, "topology %s takes %d numbers", w[1],
			    nargs[n->topo]);
		for (i = 0; i < nargs[n->topo]; i++)
			n->dim[i] = num_long(c, w[2 + i],
			    n->topo == TR_TOPO_FATTREE && i == 0 ? 2 : 1,
			    "topology size");
		check_size(c, n);
		return;
	}
	if (strcmp(k, "nodes") == 0 && nw == 2 && strcmp(w[1], "auto") == 0) {
		n->nline = n->autoline = c->line;
		n->xnodes = 0;
		return;
	}
	if (strcmp(k, "nodes") == 0 && nw == 2) {
		n->nline = c->line;
		n->autoline = 0;
		n->xnodes = num_long(c, w[1], 1, "node count");
		check_size(c, n);
		return;
	}
	if (strcmp(k, "ranks-per-node") == 0 && nw == 2) {
		n->ppn = num_long(c, w[1], 1, "ranks per node");
		return;
	}
	if (strcmp(k, "mapping") == 0 && nw >= 2) {
		if (strcmp(w[1], "block") == 0 && nw == 2)
			n->map = TR_MAP_BLOCK;
		else if (strcmp(w[1], "round-robin") == 0 && nw == 2)
			n->map = TR_MAP_RR;
		else if (strcmp(w[1], "file") == 0 && nw == 3) {
			n->map = TR_MAP_FILE;
			free(n->mapfile);
			if (w[2][0] == '/' || !dir)
				n->mapfile = tr_strdup(w[2]);
			else {
				size_t l = strlen(dir) + strlen(w[2]) + 2;
				n->mapfile = tr_malloc(l);
				snprintf(n->mapfile, l, "%s/%s", dir, w[2]);
			}
		} else
			bad(c, "mapping is block, round-robin or file PATH");
		return;
	}
	if (nw == 2) {
		if (strcmp(k, "link-bandwidth") == 0) {
			n->link_bw = num_bw(c, w[1]);
			return;
		}
		if (strcmp(k, "intra-bandwidth") == 0) {
			n->intra_bw = num_bw(c, w[1]);
			return;
		}
		if (strcmp(k, "reduce-bandwidth") == 0) {
			n->red_bw = num_bw(c, w[1]);
			return;
		}
		if (strcmp(k, "node-bandwidth") == 0) {
			n->node_bw = num_bw(c, w[1]);
			return;
		}
		if (strcmp(k, "intra-rma-bandwidth") == 0) {
			n->rma_bw = num_bw(c, w[1]);
			return;
		}
		if (strcmp(k, "rma-overhead") == 0) {
			n->rma_o = num_dur(c, w[1], "overhead");
			return;
		}
		if (strcmp(k, "link-latency") == 0) {
			n->link_lat = num_dur(c, w[1], "latency");
			return;
		}
		if (strcmp(k, "switch-latency") == 0) {
			n->sw_lat = num_dur(c, w[1], "latency");
			return;
		}
		if (strcmp(k, "intra-latency") == 0) {
			n->intra_lat = num_dur(c, w[1], "latency");
			return;
		}
		if (strcmp(k, "sharing") == 0) {
			if (strcmp(w[1], "latency") == 0)
				n->sharing = TR_SHARE_LATENCY;
			else if (strcmp(w[1], "fair") == 0)
				n->sharing = TR_SHARE_FAIR;
			else
				bad(c, "sharing is latency or fair");
			return;
		}
		if (strcmp(k, "progress") == 0) {
			if (strcmp(w[1], "calls") == 0)
				n->progress = TR_PROGRESS_CALLS;
			else if (strcmp(w[1], "background") == 0)
				n->progress = TR_PROGRESS_BACKGROUND;
			else
				bad(c, "progress is calls or background");
			return;
		}
		if (strcmp(k, "model") == 0) {
			if (strcmp(w[1], "flow") == 0)
				n->model = TR_MODEL_FLOW;
			else if (strcmp(w[1], "loggp") == 0)
				n->model = TR_MODEL_LOGGP;
			else
				bad(c, "model is flow or loggp");
			return;
		}
	}
	if ((i = strcmp(k, "intra-eager-threshold") == 0) ||
	    strcmp(k, "eager-threshold") == 0) {
		int tr = nw >= 2 && strcmp(w[1], "trace") == 0;

		if (nw != 2 && !(tr && nw == 3))
			bad(c, "%s takes a size, trace or trace SIZE", k);
		n->efile[i] = tr ? TR_NET_TRACE : num_size(c, w[1]);
		n->efall[i] = tr && nw == 3 ? num_size(c, w[2]) : -1;
		n->eline[i] = c->line;
		return;
	}
	if (strcmp(k, "intra-time") == 0 && nw == 3) {
		double sz = num_unit(c, w[1], tr_size_units, "size"),
		    t = num_dur(c, w[2], "time");

		for (i = 0; i < n->nitime && n->itime[i][0] < sz; i++)
			;
		if (i < n->nitime && n->itime[i][0] == sz)
			n->itime[i][1] = t;
		else if (n->nitime == TR_NET_ITIME - 1)	/* room for 0 */
			bad(c, "more than %d intra-time points",
			    TR_NET_ITIME - 1);
		else {
			memmove(n->itime[i + 1], n->itime[i],
			    (size_t)(n->nitime - i) * sizeof n->itime[0]);
			n->itime[i][0] = sz;
			n->itime[i][1] = t;
			n->nitime++;
		}
		return;
	}
	if (strcmp(k, "loggp") == 0 && nw == 5) {
		n->o = num_dur(c, w[1], "overhead o");
		n->g = num_dur(c, w[2], "gap g");
		n->G = num_dur(c, w[3], "gap per byte G");
		n->L = num_dur(c, w[4], "latency L");
		return;
	}
	if (strcmp(k, "coll") == 0 && nw == 3) {
		if ((op = lookup(w[1], coll_names, TR_COLL_NOPS)) < 0)
			bad(c, "unknown collective '%s'", w[1]);
		alg = lookup(w[2], alg_names, TR_ALG_N);
		for (i = 0; i < 3; i++)
			if (alg >= 0 && coll_algs[op][i] == alg)
				break;
		if (i == 3)
			bad(c, "no algorithm '%s' for %s", w[2], w[1]);
		n->coll[op] = alg;
		return;
	}
	bad(c, "unknown or malformed line '%.40s'", k);
}


/* Measured points need not grow with size (a protocol switch, noise),
 * but past the largest one times must not shrink. The table is made to
 * start at 0 bytes, along its first segment; an envelope (a rendezvous
 * request, a probe's) takes that time. */
static void
intra_table(struct tr_net *n, const char *path)
{
	double (*p)[2] = n->itime, z, rate;
	int k = n->nitime;

	if (k > 1 && p[k - 1][1] < p[k - 2][1])
		tr_die(TR_EXIT_DATA, "%s: intra-time: %.17g ns at %.17g bytes, "
		    "the largest size, is less than at %.17g bytes: larger "
		    "messages would take less time", path, p[k - 1][1],
		    p[k - 1][0], p[k - 2][0]);
	if (p[0][0] > 0) {
		rate = k > 1 ? (p[1][1] - p[0][1]) / (p[1][0] - p[0][0]) :
		    1 / n->intra_bw;
		z = p[0][1] - p[0][0] * rate;
		memmove(p[1], p[0], (size_t)k * sizeof p[0]);
		p[0][0] = 0;
		p[0][1] = z > 0 ? z : 0;
		n->nitime++;
	}
	n->intra_lat = p[0][1];
}

/* What tr_net_load holds, for an error exit (tr_undo_push). */
struct loading {
	struct tr_net *net;
	char **line, *dir;
};

static void
unload(void *arg)
{
	struct loading *l = arg;

	tr_net_free(l->net);
	free(*l->line);
	free(l->dir);
}

struct tr_net *
tr_net_load(const char *path)
{
	struct tr_net *n = tr_net_default();
	struct pctx c = {path, 0};
	struct loading ld;
	char *line = NULL, *w[16], *p, *dir = NULL, *sl;
	size_t cap = 0;
	int nw;
	/* The reader of traces: gzip, and NUL bytes and long lines caught. */
	struct tr_in *in = tr_open_conf(path);

	if ((sl = strrchr(path, '/')))
		dir = tr_strndup(path, (size_t)(sl - path));
	ld.net = n;
	ld.line = &line;
	ld.dir = dir;
	tr_undo_push(unload, &ld);
	while (tr_conf_line(in, &line, &cap)) {
		c.line = tr_in_line(in);
		if ((p = strchr(line, '#')))
			*p = 0;
		nw = 0;
		for (p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
			if (nw == 16)
				bad(&c, "too many words");
			w[nw++] = p;
		}
		if (nw)
			parse_line(n, &c, w, nw, dir);
	}
	tr_undo_pop();
	tr_close(in);
	free(line);
	free(dir);
	if (n->autoline && n->topo == TR_TOPO_DRAGONFLY) {
		c.line = n->autoline;
		bad(&c, "nodes auto sizes a crossbar, a fat tree or a torus, "
		    "not a dragonfly");
	}
	memcpy(n->base, n->dim, sizeof n->base);
	if (n->nitime)
		intra_table(n, path);
	n->path = tr_strdup(path);
	tr_net_eager(n, NULL);
	return n;
}

/* The run's limits are the largest eager messages, ours the smallest
 * that are not. A run without shared memory sent the messages within a
 * host over its network (as tr-waits takes them). */
void
tr_net_eager(struct tr_net *n, const struct tr_in *in)
{
	static const char *keys[2] = {"eager.net", "eager.shm"};
	int64_t v, m, out[2];
	int i, j;

	for (i = 0; i < 2; i++) {
		j = n->eline[1] ? i : 0;
		if ((v = n->efile[j]) != TR_NET_TRACE) {
			out[i] = v;
			continue;
		}
		if (!in) {	/* not yet known: as without meta */
			out[i] = n->efall[j] >= 0 ? n->efall[j] : 65536;
			continue;
		}
		if ((i && tr_meta_i64(in, keys[1], &m) == 0) ||
		    tr_meta_i64(in, keys[0], &m) == 0)
			out[i] = m < INT64_MAX ? m + 1 : INT64_MAX;
		else if ((out[i] = n->efall[j]) < 0) {
			struct pctx c = {n->path, n->eline[j]};

			bad(&c, "%s trace: the trace has no #meta %s",
			    j ? "intra-eager-threshold" : "eager-threshold",
			    i ? "eager.shm or eager.net" : "eager.net");
		}
	}
	n->eager = out[0];
	n->intra_eager = out[1];
}

/* Linear between the points around BYTES; past the last one, at the
 * rate of the last segment, or of intra-bandwidth if there is one
 * point. A message's time changes protocol at the eager threshold, where
 * a table measured at sizes growing by 4 (tr-bench's) has no point: when
 * each side of the threshold has two points or more, a message takes
 * its time from the points of its own side, the side's nearest segment
 * extended (never shrinking) up to or down to the threshold. */
double
tr_net_intra(const struct tr_net *n, int64_t bytes)
{
	double b = (double)bytes, t, rate;
	const double (*p)[2] = n->itime;
	int i, k, lo = 0, hi = n->nitime;

	if (n->nitime == 0)
		return n->intra_lat + b / n->intra_bw;
	if (n->nitime == 1)
		return p[0][1] + b / n->intra_bw;
	for (k = 0; k < n->nitime && p[k][0] < (double)n->intra_eager; k++)
		;
	if (k >= 2 && n->nitime - k >= 2) {
		if (bytes < n->intra_eager)
			hi = k;
		else
			lo = k;
	}
	if (b < p[lo][0]) {	/* below the rendezvous side's first point */
		rate = (p[lo + 1][1] - p[lo][1]) / (p[lo + 1][0] - p[lo][0]);
		t = p[lo][1] - (p[lo][0] - b) * (rate > 0 ? rate : 0);
		return t > 0 ? t : 0;
	}
	for (i = lo + 1; i < hi - 1 && p[i][0] < b; i++)
		;
	rate = (p[i][1] - p[i - 1][1]) / (p[i][0] - p[i - 1][0]);
	if (b > p[i][0] && hi < n->nitime && rate < 0)
		rate = 0;	/* past the eager side's last point */
	return p[i - 1][1] + (b - p[i - 1][0]) * rate;
}

void
tr_net_free(struct tr_net *n)
{
	if (!n)
		return;
	free(n->mapfile);
	free(n->path);
	free(n->rank_node);
	free(n);
}

static long
ipow(long b, int e)
{
	long r = 1;

	while (e-- > 0)
		r *= b;
	return r;
}

/* The whole file is read, lines past the trace's ranks too (a mapping
 * may serve larger runs): their numbers are checked as well, and a gzip
 * file cut short after the ranks' lines is said rather than taken. */
static void
read_mapfile(struct tr_net *n, long np)
{
	struct pctx c = {n->mapfile, 0};
	char *line = NULL, *p;
	size_t cap = 0;
	long r = 0, v;
	struct tr_in *in = tr_open_conf(n->mapfile);

	free(n->rank_node);
	n->rank_node = tr_malloc((size_t)np * sizeof *n->rank_node);
	while (tr_conf_line(in, &line, &cap)) {
		c.line = tr_in_line(in);
		if ((p = strchr(line, '#')))
			*p = 0;
		p = strtok(line, " \t\r");
		if (!p)
			continue;
		v = num_long(&c, p, 0, "node number");
		if (r < np && v >= n->nodes)
			bad(&c, "rank %ld on node %ld, the network has %ld "
			    "nodes", r, v, n->nodes);
		if (r < np)
			n->rank_node[r] = v;
		r++;
	}
	tr_close(in);
	free(line);
	if (r < np)
		bad(&c, "maps %ld ranks, the trace has %ld", r, np);
}

/* The file's size grown until NEED nodes fit, for each section anew:
 * runs of different sizes each get their own. A torus grows its
 * smallest extent, the first of equal ones, so that it stays as near a
 * cube as the file's shape allows. */
static void
autosize(struct tr_net *n, long need)
{
	struct pctx c = {n->path ? n->path : "network", n->autoline};
	int *d = n->dim, i, m;

	memcpy(d, n->base, sizeof n->base);
	if (n->topo == TR_TOPO_FATTREE)
		while (pow(d[0], d[1]) < (double)need && d[1] < 64)
			d[1]++;
	else if (n->topo == TR_TOPO_TORUS)
		while ((double)d[0] * d[1] * d[2] < (double)need) {
			for (m = 0, i = 1; i < 3; i++)
				if (d[i] < d[m])
					m = i;
			d[m]++;
		}
	check_size(&c, n);
}

void
tr_net_build(struct tr_net *n, long np)
{
	long need = (np + n->ppn - 1) / n->ppn;

	n->np = np;
	if (n->autoline)
		autosize(n, need);
	switch (n->topo) {
	case TR_TOPO_CROSSBAR:
		/* Sized again for each section: runs differ in ranks. */
		n->nodes = n->xnodes ? n->xnodes : need;
		n->nlinks = 2 * n->nodes;
		break;
	case TR_TOPO_FATTREE:
		n->nodes = ipow(n->dim[0], n->dim[1]);
		n->sw = ipow(n->dim[0], n->dim[1] - 1);
		n->base_up = 2 * n->nodes;
		n->base_down = n->base_up + (n->dim[1] - 1) * n->sw * n->dim[0];
		n->nlinks = n->base_down + (n->dim[1] - 1) * n->sw * n->dim[0];
		break;
	case TR_TOPO_TORUS:
		n->nodes = (long)n->dim[0] * n->dim[1] * n->dim[2];
		n->nlinks = 6 * n->nodes;
		break;
	case TR_TOPO_DRAGONFLY:
		n->nodes = (long)n->dim[0] * n->dim[1] * n->dim[2];
		n->base_up = 2 * n->nodes;	/* local links */
		n->base_down = n->base_up +
		    (long)n->dim[0] * n->dim[1] * n->dim[1];	/* global */
		n->nlinks = n->base_down + (long)n->dim[0] * n->dim[1] * n->dim[3];
		break;
	}
	if (n->map == TR_MAP_FILE) {
		read_mapfile(n, np);
	} else if (need > n->nodes) {
		/* at the line that made the network this small */
		struct pctx c = {n->path ? n->path : "network", n->nline};

		bad(&c, "%ld ranks at %d per node need %ld nodes, the network "
		    "has %ld", np, n->ppn, need, n->nodes);
	}
}

long
tr_net_node(const struct tr_net *n, long rank)
{
	if (n->map == TR_MAP_FILE)
		return n->rank_node[rank];
	if (n->map == TR_MAP_RR) {
		long used = (n->np + n->ppn - 1) / n->ppn;
		return rank % used;
	}
	return rank / n->ppn;
}

static int
route_fattree(const struct tr_net *n, long a, long b, long *l, double *lat)
{
	long k = n->dim[0], w, pk, up = 0, lv, d;
	int nl = 0, L = 0;

	for (pk = k; a / pk != b / pk; pk *= k)
		L++;
	l[nl++] = 2 * a;
	w = a / k;
	for (lv = 0, pk = 1; lv < L; lv++, pk *= k) {
		d = (b / pk) % k;	/* d-mod-k: the destination picks */
		l[nl++] = n->base_up + (lv * n->sw + w) * k + d;
		w += (d - (w / pk) % k) * pk;
		up++;
	}
	for (lv = L; lv > 0; lv--) {
		pk = ipow(k, (int)lv - 1);
		d = (b / (pk * k)) % k;
		l[nl++] = n->base_down + ((lv - 1) * n->sw + w) * k + d;
		w += (d - (w / pk) % k) * pk;
	}
	l[nl++] = 2 * b + 1;
	*lat = nl * n->link_lat + (2 * L + 1) * n->sw_lat;
	return nl;
}

static int
route_torus(const struct tr_net *n, long a, long b, long *l, double *lat)
{
	long c[3], t[3], x = a, y = b, stride = 1;
	int nl = 0, i, dir, hops;

	for (i = 0; i < 3; i++) {
		c[i] = x % n->dim[i];
		t[i] = y % n->dim[i];
		x /= n->dim[i];
		y /= n->dim[i];
	}
	for (i = 0; i < 3; i++, stride *= n->dim[i - 1]) {
		long fwd = (t[i] - c[i] + n->dim[i]) % n->dim[i];
		long s = fwd < n->dim[i] - fwd ? 1 : -1;

		/* Half way round both ways: forward, but backward from the
		 * middle coordinate, as SimGrid's torus routes. */
		if (fwd == n->dim[i] - fwd)
			s = c[i] == n->dim[i] / 2 ? -1 : 1;

		hops = (int)(s > 0 ? fwd : n->dim[i] - fwd);
		dir = 2 * i + (s < 0);
		while (hops-- > 0) {
			long node = 0, m = 1;
			int j;

			for (j = 0; j < 3; j++) {
				node += c[j] * m;
				m *= n->dim[j];
			}
			l[nl++] = 6 * node + dir;
			c[i] = (c[i] + s + n->dim[i]) % n->dim[i];
		}
	}
	*lat = nl * n->link_lat + (nl + 1) * n->sw_lat;
	return nl;
}

static int
route_dragonfly(const struct tr_net *n, long a, long b, long *l, double *lat)
{
	long A = n->dim[1], P = n->dim[2], H = n->dim[3];
	long ra = a / P, rb = b / P, ga = ra / A, gb = rb / A, t, ri, rj;
	int nl = 0, routers = 1;

	l[nl++] = 2 * a;
	if (ga == gb) {
		if (ra != rb) {
			l[nl++] = n->base_up + ra * A + rb % A;
			routers++;
		}
	} else {
		t = gb < ga ? gb : gb - 1;
		ri = ga * A + t / H;
		if (ri != ra) {
			l[nl++] = n->base_up + ra * A + ri % A;
			routers++;
		}
		l[nl++] = n->base_down + ri * H + t % H;
		routers++;
		t = ga < gb ? ga : ga - 1;
		rj = gb * A + t / H;
		if (rj != rb) {
			l[nl++] = n->base_up + rj * A + rb % A;
			routers++;
		}
	}
	l[nl++] = 2 * b + 1;
	*lat = nl * n->link_lat + routers * n->sw_lat;
	return nl;
}

int
tr_net_route(const struct tr_net *n, long a, long b, long *links, double *lat)
{
	if (a == b) {
		*lat = n->intra_lat;
		return 0;
	}
	switch (n->topo) {
	case TR_TOPO_FATTREE:
		return route_fattree(n, a, b, links, lat);
	case TR_TOPO_TORUS:
		return route_torus(n, a, b, links, lat);
	case TR_TOPO_DRAGONFLY:
		return route_dragonfly(n, a, b, links, lat);
	default:
		links[0] = 2 * a;
		links[1] = 2 * b + 1;
		*lat = 2 * n->link_lat + n->sw_lat;
		return 2;
	}
}

int
tr_net_maxroute(const struct tr_net *n)
{
	switch (n->topo) {
	case TR_TOPO_FATTREE:
		return 2 * n->dim[1] + 2;
	case TR_TOPO_TORUS:
		return n->dim[0] / 2 + n->dim[1] / 2 + n->dim[2] / 2 + 2;
	case TR_TOPO_DRAGONFLY:
		return 6;
	default:
		return 2;
	}
}

const char *
tr_net_linkname(const struct tr_net *n, long id, char *buf, size_t sz)
{
	static const char *dirs[] = {"x+", "x-", "y+", "y-", "z+", "z-"};
	long k = n->dim[0], r;

	if (n->topo == TR_TOPO_TORUS) {
		snprintf(buf, sz, "n%ld.%s", id / 6, dirs[id % 6]);
		return buf;
	}
	if (id < 2 * n->nodes) {
		snprintf(buf, sz, "n%ld.%s", id / 2, id % 2 ? "down" : "up");
		return buf;
	}
	if (n->topo == TR_TOPO_FATTREE) {
		int dn = id >= n->base_down;

		r = id - (dn ? n->base_down : n->base_up);
		snprintf(buf, sz, "s%ld.%ld.%s%ld", r / k / n->sw + dn,
		    r / k % n->sw, dn ? "down" : "up", r % k);
	} else if (id < n->base_down) {
		r = id - n->base_up;
		snprintf(buf, sz, "r%ld-r%ld", r / n->dim[1],
		    r / n->dim[1] / n->dim[1] * n->dim[1] + r % n->dim[1]);
	} else {
		r = id - n->base_down;
		snprintf(buf, sz, "r%ld.g%ld", r / n->dim[3], r % n->dim[3]);
	}
	return buf;
}
