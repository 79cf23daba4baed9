/* sim/sim.h - networks and the trace-driven simulator. */
#ifndef TR_SIM_H
#define TR_SIM_H

#include "../mpi/mpi.h"

/* ---- net.c: network descriptions for tr-nsim, tr-to-ti (tr-net(5)) ---- */

enum { TR_TOPO_CROSSBAR, TR_TOPO_FATTREE, TR_TOPO_TORUS, TR_TOPO_DRAGONFLY };
enum { TR_MAP_BLOCK, TR_MAP_RR, TR_MAP_FILE };
enum { TR_MODEL_FLOW, TR_MODEL_LOGGP };
enum { TR_SHARE_LATENCY, TR_SHARE_FAIR };
/* When a nonblocking collective takes its next step: once its owner is
 * in an MPI call, or at once. */
enum { TR_PROGRESS_CALLS, TR_PROGRESS_BACKGROUND };

/* Times in ns, bandwidths in bytes per ns. */
#define TR_NET_ITIME 32
struct tr_net {
	int topo, dim[4];	/* fattree K N; torus X Y Z; dragonfly G A P H */
	long xnodes;		/* a crossbar's nodes; 0: as the ranks need */
	long nline;		/* the line that set the nodes, for errors */
	/* nodes auto: a fat tree grows by levels, a torus by its smallest
	 * extent, from the file's size (base) until the ranks fit;
	 * autoline is its line, 0 without it */
	long autoline;
	int base[4];
	int ppn, map, model, sharing, progress;
	char *mapfile;
	double link_bw, link_lat, sw_lat, intra_bw, intra_lat;
	/* intra-time: a message within a node takes the time interpolated
	 * between these (bytes, ns) points, sorted by size, the first at
	 * 0 bytes; none: intra_lat + bytes / intra_bw */
	double itime[TR_NET_ITIME][2];
	int nitime;
	double o, g, G, L;	/* LogGP */
	double red_bw;		/* bytes per ns a rank reduces into its own
				 * in a reduction; 0: no time */
	double node_bw;		/* bytes per ns a node's messages within it
				 * share; 0: they do not contend */
	double rma_o;		/* ns of CPU each one-sided call costs */
	double rma_bw;		/* bytes per ns an origin copies a one-sided
				 * transfer within a node in its call; 0: a
				 * transfer there moves as between nodes */
	/* eager-threshold [0], intra-eager-threshold [1] as the file gives
	 * them: messages below so many bytes, between nodes and within one,
	 * are eager; TR_NET_TRACE: the trace's, else efall (-1: none);
	 * eline: their line, 0 for the intra one not given */
	int64_t efile[2], efall[2];
	long eline[2];
	char *path;
	int64_t eager, intra_eager;	/* the section's, by tr_net_eager */
	int coll[TR_COLL_NOPS];
	/* Set by tr_net_build. */
	long nodes, np, nlinks, sw, base_up, base_down, *rank_node;
};

struct tr_net *tr_net_default(void);
/* Parses FILE; a bad line dies with "FILE:LINE: msg" (TR_EXIT_DATA). */
struct tr_net *tr_net_load(const char *file);
#define TR_NET_TRACE (-1)
/* Sets eager and intra_eager for the section IN is reading (NULL: none),
 * from its #meta eager.net and eager.shm where the file says "trace";
 * dies at the file's line if the trace lacks them. */
void tr_net_eager(struct tr_net *n, const struct tr_in *in);
/* Sizes the network for NP ranks (dies if they do not fit). */
void tr_net_build(struct tr_net *n, long np);
void tr_net_free(struct tr_net *n);
long tr_net_node(const struct tr_net *n, long rank);
/* The links from node A to node B (at most tr_net_maxroute) and the
 * latency of the route; 0 links within a node. */
int tr_net_route(const struct tr_net *n, long a, long b, long *links,
    double *lat);
int tr_net_maxroute(const struct tr_net *n);
/* The time of a message of BYTES between two ranks of one node. */
double tr_net_intra(const struct tr_net *n, int64_t bytes);
const char *tr_net_linkname(const struct tr_net *n, long link, char *buf,
    size_t sz);
const char *tr_coll_name(int op);
const char *tr_alg_name(int alg);

/* ---- nsim*.c: trace-driven simulation (tr-nsim) ---- */

struct tr_nsim;
/* Compute bursts are scaled by SCALE; WALL takes them from wall-clock
 * gaps instead of the cpu field. NET is used, not owned. */
struct tr_nsim *tr_nsim_new(struct tr_net *net, double scale, int wall);
/* Whether tests and probes that found nothing keep their recorded time
 * (default: they take none). */
void tr_nsim_pollwork(struct tr_nsim *s, int on);
/* The sections will be exported by tr_ti_export, not simulated: it counts
 * the sends between each pair as they are read, to find the receives of
 * synchronous sends. */
void tr_nsim_for_ti(struct tr_nsim *s);
/* 1 for the records a replay takes: ev, reg, comm and cart. */
int tr_nsim_takes(int type);
/* Takes such a record of the current section (tr-to-ti). */
void tr_nsim_add(struct tr_nsim *s, const struct tr_in *in,
    const struct tr_rec *r);
/* Simulates the section of IN from REC, a record it takes, just read, to
 * the section's end, reading on as the replay needs records
 * (all of them first when the section has no #meta np). Writes the ev
 * and reg records with simulated times, passes through the others, then
 * writes simrank, simlink and simrun records; returns the count of
 * records simulated. Dies (TR_EXIT_DATA) on deadlock or inconsistency. */
int64_t tr_nsim_section(struct tr_nsim *s, struct tr_in *in,
    const struct tr_rec *rec, struct tr_out *out);
/* With ON, each tr_nsim_section prints counts and cpu times to stderr. */
void tr_nsim_stats(struct tr_nsim *s, int on);
void tr_nsim_free(struct tr_nsim *s);

/* ---- ti.c: export to SimGrid's time-independent traces (tr-to-ti) ---- */

/* Writes the section S has taken (tr_nsim_for_ti, tr_nsim_add) to
 * directory DIR as SimGrid time-independent traces (rankR.txt,
 * index.txt), platform.xml, hostfile and smpirun.sh; collectives become
 * point-to-point when ALL is set (else only those SimGrid cannot replay:
 * sub-communicators, v-variants, scans). */
void tr_ti_export(struct tr_nsim *s, const struct tr_in *in,
    const char *dir, int all);

#endif
