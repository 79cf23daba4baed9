/* ti-platform.c - the SimGrid platform of an export: platform.xml,
 * hostfile and smpirun.sh. */
#include "nsim-int.h"

static const char *sg_alg[TR_ALG_N] = {"binomial", "linear", "rdb", "ring",
	"ompi_bruck", "ring"};

/* SimGrid's name of the algorithm tr-nsim uses for OP. */
static const char *
sg_coll(const struct tr_net *n, int op)
{
	int a = n->coll[op];

	switch (op) {
	case TR_COLL_BCAST:
		return a == TR_ALG_LINEAR ? "flattree" : "binomial_tree";
	case TR_COLL_GATHER:
	case TR_COLL_SCATTER:
		return a == TR_ALG_LINEAR ? "ompi_basic_linear" : "ompi_binomial";
	case TR_COLL_REDUCE:
		return a == TR_ALG_LINEAR ? "ompi_basic_linear" : "binomial";
	case TR_COLL_ALLREDUCE:
		return a == TR_ALG_RING ? "lr" : "rdb";
	case TR_COLL_ALLGATHER:
		return "NTSLR";	/* SimGrid's "ring" sends to r+i at step i */
	default:
		return sg_alg[a];
	}
}

FILE *
ti_fopen(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		tr_die(TR_EXIT_SYS, "%s:", path);
	return f;
}

void
ti_fclose(FILE *f, const char *what)
{
	if (ferror(f) | fclose(f))
		tr_die(TR_EXIT_SYS, "%s: write:", what);
}

/* A network SimGrid has no cluster for (the dragonfly, or any with
 * node-bandwidth): the hosts of the nodes that hold ranks, every link,
 * and the route between every two of them as tr-nsim takes it. A
 * route's switches add their latency as a fat pipe of the link's
 * bandwidth, which never limits a flow. A node's route to itself is its
 * loopback, a fat pipe (each flow at most intra-bandwidth, none
 * slowing another), and with node-bandwidth then its memory, a shared
 * link: a cluster's loopback can only be a fat pipe. */
static void
ti_routes(struct tr_nsim *s, FILE *f, long cores)
{
	const struct tr_net *n = s->net;
	int max = tr_net_maxroute(n), nl, i;
	long *l = tr_malloc((size_t)max * sizeof *l), a, b, k, sw;
	char *used = tr_calloc((size_t)n->nodes, 1), name[64];
	double lat;

	for (a = 0; a < s->np; a++)
		used[tr_net_node(n, a)] = 1;
	for (a = 0; a < n->nodes; a++)
		if (used[a])
			fprintf(f, "<host id=\"n%ld\" speed=\"1Gf\" "
			    "core=\"%ld\"/>\n<link id=\"n%ld.lo\" "
			    "bandwidth=\"%.17gBps\" latency=\"%.17gns\" "
			    "sharing_policy=\"FATPIPE\"/>\n", a, cores, a,
			    n->intra_bw * 1e9, n->intra_lat);
	for (a = 0; a < n->nodes && n->node_bw > 0; a++)
		if (used[a])
			fprintf(f, "<link id=\"n%ld.mem\" bandwidth=\"%.17gBps\" "
			    "latency=\"0ns\" sharing_policy=\"SHARED\"/>\n", a,
			    n->node_bw * 1e9);
	for (k = 0; k < n->nlinks; k++)
		fprintf(f, "<link id=\"%s\" bandwidth=\"%.17gBps\" "
		    "latency=\"%.17gns\"/>\n", tr_net_linkname(n, k, name,
		    sizeof name), n->link_bw * 1e9, n->link_lat);
	for (k = 1; n->sw_lat > 0 && k <= max; k++)
		fprintf(f, "<link id=\"sw%ld\" bandwidth=\"%.17gBps\" "
		    "latency=\"%.17gns\" sharing_policy=\"FATPIPE\"/>\n", k,
		    n->link_bw * 1e9, (double)k * n->sw_lat);
	for (a = 0; a < n->nodes; a++)
		for (b = 0; used[a] && b < n->nodes; b++) {
			if (!used[b])
				continue;
			fprintf(f, "<route src=\"n%ld\" dst=\"n%ld\" "
			    "symmetrical=\"NO\">", a, b);
			if (a == b) {
				fprintf(f, "<link_ctn id=\"n%ld.lo\"/>", a);
				if (n->node_bw > 0)
					fprintf(f, "<link_ctn id=\"n%ld.mem\"/>", a);
				fprintf(f, "</route>\n");
				continue;
			}
			nl = tr_net_route(n, a, b, l, &lat);
			for (i = 0; i < nl; i++)
				fprintf(f, "<link_ctn id=\"%s\"/>",
				    tr_net_linkname(n, l[i], name, sizeof name));
			sw = n->sw_lat > 0 ? lround((lat - nl * n->link_lat) /
			    n->sw_lat) : 0;
			if (sw > 0)
				fprintf(f, "<link_ctn id=\"sw%ld\"/>", sw);
			fprintf(f, "</route>\n");
		}
	free(l);
	free(used);
}

/* SMPI has one eager threshold for all messages: a section on one node
 * takes the intra-node one, others the one between nodes. Sets *LOST if
 * messages within a node then change protocol. */
int64_t
ti_eager(const struct tr_nsim *s, int *lost)
{
	const struct tr_net *n = s->net;
	unsigned char *seen = tr_calloc((size_t)n->nodes, 1);
	long r, nodes = 0;

	for (r = 0; r < s->np; r++)
		if (!seen[tr_net_node(n, r)]++)
			nodes++;
	free(seen);
	*lost = nodes > 1 && nodes < s->np && n->intra_eager != n->eager;
	return nodes == 1 ? n->intra_eager : n->eager;
}

void
ti_platform(struct tr_nsim *s, const char *dir)
{
	const struct tr_net *n = s->net;
	FILE *f = ti_fopen(dir, "platform.xml");
	char topo[256] = "";
	int i, lost;
	long r, cores = 1, *per = tr_calloc((size_t)n->nodes, sizeof *per);
	int64_t eager = ti_eager(s, &lost);

	/* A core for each rank of the fullest node: SimGrid's hosts share
	 * one core among their ranks' computations, and tr-nsim's ranks do
	 * not wait for each other's. */
	for (r = 0; r < s->np; r++)
		if (++per[tr_net_node(n, r)] > cores)
			cores = per[tr_net_node(n, r)];
	free(per);
	if (n->topo == TR_TOPO_FATTREE) {
		size_t m = (size_t)snprintf(topo, sizeof topo,
		    " topology=\"FAT_TREE\" topo_parameters=\"%d;", n->dim[1]);
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s%d",
			    i ? "," : "", n->dim[0]);
		m += (size_t)snprintf(topo + m, sizeof topo - m, ";");
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s%d",
			    i ? "," : "", i ? n->dim[0] : 1);
		m += (size_t)snprintf(topo + m, sizeof topo - m, ";");
		for (i = 0; i < n->dim[1]; i++)
			m += (size_t)snprintf(topo + m, sizeof topo - m, "%s1",
			    i ? "," : "");
		snprintf(topo + m, sizeof topo - m, "\"");
	} else if (n->topo == TR_TOPO_TORUS) {
		/* Dimensions of size 1 left out: SimGrid gives each node a
		 * link to itself in every one of them, and two such names
		 * clash (a ring, torus N 1 1, aborted smpirun). Routes and
		 * node numbers stay the same without them. */
		size_t m = (size_t)snprintf(topo, sizeof topo,
		    " topology=\"TORUS\" topo_parameters=\"");
		const char *sep = "";

		for (i = 0; i < 3; i++)
			if (n->dim[i] > 1 || (i == 2 && !*sep)) {
				m += (size_t)snprintf(topo + m, sizeof topo - m,
				    "%s%d", sep, n->dim[i]);
				sep = ",";
			}
		snprintf(topo + m, sizeof topo - m, "\"");
	}
	fprintf(f, "<?xml version='1.0'?>\n"
	    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	    "<!-- written by tr-to-ti: one host per node, a core per rank, "
	    "1 Gflop/s, so that\n     a flop is a ns -->\n"
	    "<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n");
	if (n->topo == TR_TOPO_DRAGONFLY || n->node_bw > 0)
		ti_routes(s, f, cores);
	else {
		fprintf(f, "<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
		    "radical=\"0-%ld\" speed=\"1Gf\" core=\"%ld\" "
		    "bw=\"%.17gBps\" lat=\"%.17gns\" "
		    "sharing_policy=\"SPLITDUPLEX\"", n->nodes - 1, cores,
		    n->link_bw * 1e9, n->link_lat);
		if (n->topo == TR_TOPO_CROSSBAR)
			fprintf(f, " bb_bw=\"%.17gBps\" bb_lat=\"%.17gns\" "
			    "bb_sharing_policy=\"FATPIPE\"", n->link_bw * 1e9,
			    n->sw_lat);
		fprintf(f, "%s loopback_bw=\"%.17gBps\" "
		    "loopback_lat=\"%.17gns\"/>\n", topo, n->intra_bw * 1e9,
		    n->intra_lat);
	}
	fprintf(f, "</zone>\n</platform>\n");
	ti_fclose(f, "platform.xml");
	f = ti_fopen(dir, "hostfile");
	for (r = 0; r < s->np; r++)
		fprintf(f, "n%ld\n", tr_net_node(n, r));
	ti_fclose(f, "hostfile");
	f = ti_fopen(dir, "smpirun.sh");
	/* network/optim:Full: SimGrid's default lazy update can leave a
	 * link oversubscribed when a flow's latency ends while other flows
	 * run (seen on tori); Full re-solves each change exactly.
	 * TCP-gamma:0: no TCP window bound (4 MiB / round trip), which
	 * tr-nsim does not model and which slows long-latency routes. */
	fprintf(f, "#!/bin/sh\n# Replays the trace with SMPI configured as "
	    "tr-nsim's model: no latency or\n# bandwidth correction factors, "
	    "sharing weighted by route latency, exact\n# re-solving, no TCP "
	    "window, eager below %lld bytes.\n"
	    "cd \"$(dirname \"$0\")\" && exec smpirun -np %ld -platform "
	    "platform.xml -hostfile hostfile \\\n"
	    "\t-replay index.txt --cfg=smpi/lat-factor:0:1 "
	    "--cfg=smpi/bw-factor:0:1 \\\n"
	    "\t--cfg=network/weight-S:0 --cfg=network/crosstraffic:0 "
	    "--cfg=network/optim:Full \\\n"
	    "\t--cfg=network/TCP-gamma:0 \\\n"
	    "\t--cfg=smpi/async-small-thresh:%lld "
	    "--cfg=smpi/send-is-detached-thresh:%lld \\\n",
	    (long long)eager, s->np, (long long)eager, (long long)eager);
	for (i = 0; i < TR_COLL_NOPS; i++)
		if (i != TR_COLL_SCAN && i != TR_COLL_REDSCAT)
			fprintf(f, "\t--cfg=smpi/%s:%s \\\n", tr_coll_name(i),
			    sg_coll(n, i));
	fprintf(f, "\t\"$@\"\n");
	ti_fclose(f, "smpirun.sh");
}
