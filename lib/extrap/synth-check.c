/* synth-check.c - whether the messages of the synthesised trace
 * balance: those sent less those received, per (source, destination,
 * tag) and per pair. */
#include "synth-int.h"

static void
count(struct tr_syn *s, int64_t src, int64_t dst, int64_t tag, int d)
{
	int64_t k[3] = {src, dst, tag};
	long i;
	int j;

	for (j = 0; j < 2; j++) {
		if (j)
			k[2] = INT64_MIN;	/* the pair, any tag */
		i = tr_map_get(s->msgs, (const char *)k, sizeof k, 1);
		tr_growz(&s->mcount, &s->mcap, (size_t)i + 1, sizeof *s->mcount);
		s->mcount[i] += d;
	}
}

void
syn_count_ev(struct tr_syn *s, const struct tr_ev *x, int cls)
{
	switch (cls) {
	case TR_MPI_SEND:
	case TR_MPI_SSEND:
	case TR_MPI_ISEND:
		if (x->peer >= 0)
			count(s, x->rank, x->peer, x->tag, 1);
		break;
	case TR_MPI_RECV:
	case TR_MPI_IRECV:
		/* A receive of no source is one from MPI_PROC_NULL, which
		 * moves nothing, where it is blocking (a wildcard's record
		 * names the source it got) or of 0 bytes; else one from
		 * MPI_ANY_SOURCE, whose source only its completion says, and
		 * the check is not made. */
		if (x->tag < 0 || (x->peer < 0 && cls == TR_MPI_IRECV &&
		    x->bytes > 0))
			s->wild = 1;
		else if (x->peer >= 0)
			count(s, x->peer, x->rank, x->tag, -1);
		break;
	case TR_MPI_SENDRECV:
		s->untagged = 1;
		if (x->peer >= 0)
			count(s, x->rank, x->peer, x->tag, 1);
		if (x->root >= 0)
			count(s, x->root, x->rank, x->tag, -1);
		break;
	}
}

int
tr_syn_end(struct tr_syn *s)
{
	int64_t k[3];
	char g[64], tag[40], name[1024];
	size_t i, n;

	if (s->wild)
		return 0;
	for (i = 0; i < tr_map_len(s->msgs); i++) {
		if (!s->mcount[i])
			continue;
		/* Keys lie in the map's arena at any byte offset. */
		memcpy(k, tr_map_key(s->msgs, (long)i, &n), sizeof k);
		if (k[2] != INT64_MIN && s->untagged)
			continue;
		syn_grid_str(&s->g, g, sizeof g);
		if (k[2] != INT64_MIN)
			snprintf(tag, sizeof tag, " with tag %lld",
			    (long long)k[2]);
		tr_warn("%s: -T: the grown trace does not balance: "
		    "messages from rank %lld to rank %lld%s, %lld more %s; a "
		    "template grid of %s cannot be grown this way: record at "
		    "least 3 ranks along each dimension", tr_files_str(name,
		    sizeof name, s->nfiles, s->files), (long long)k[0],
		    (long long)k[1], k[2] != INT64_MIN ? tag : "",
		    (long long)llabs(s->mcount[i]), s->mcount[i] > 0 ?
		    "sent than received" : "received than sent", g);
		return TR_EXIT_DATA;
	}
	return 0;
}
