/* ranks.c - is a section the whole run? Per-rank files are concatenated
 * by glob, so a file left out (or unreadable) gives a stream that reads
 * as a smaller run; and a rank that died wrote only what it had
 * (tr-record marks it: #meta end.R). Both are checked as a section ends
 * (tr-format(5), "Ranks"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr-int.h"

static void __attribute__((format(printf, 4, 5)))
say(int die, const char *file, long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (die)
		tr_die(TR_EXIT_DATA, "%s:%ld: %s", file, line, msg);
	tr_warn("%s:%ld: %s", file, line, msg);
}

/* The rank of key "end.R", or -1 for another key. */
static int64_t
end_rank(const char *key)
{
	int64_t r;

	if (strncmp(key, "end.", 4) != 0 ||
	    tr_parse_i64(key + 4, strlen(key + 4), &r) < 0 || r < 0)
		return -1;
	return r;
}

size_t
tr_meta_nended(const struct tr_in *in)
{
	size_t i, n = tr_meta_count(in), k = 0;
	const char *key, *val;

	for (i = 0; i < n; i++)
		if ((key = tr_meta_at(in, i, &val)) && end_rank(key) >= 0)
			k++;
	return k;
}

int
tr_meta_ended(const struct tr_in *in, int die, const char *what)
{
	size_t i, n = tr_meta_count(in), cause = n, k = 0;
	const char *key, *val, *why = NULL, *same = NULL;
	int64_t *r = NULL, cr = -1;
	struct tr_ranklist l;
	char list[256];

	for (i = 0; i < n; i++) {
		key = tr_meta_at(in, i, &val);
		if (!key || end_rank(key) < 0)
			continue;
		if (cause == n || ((strcmp(why, "SIGTERM") == 0 ||
		    strcmp(why, "SIGINT") == 0) && strcmp(val, "SIGTERM") != 0
		    && strcmp(val, "SIGINT") != 0)) {
			cause = i;
			why = val;
		}
		k++;
	}
	if (k == 0)
		return 0;
	r = tr_malloc(k * sizeof *r);
	cr = end_rank(tr_meta_at(in, cause, &why));
	for (i = 0, k = 0; i < n; i++) {
		key = tr_meta_at(in, i, &val);
		if (!key || end_rank(key) < 0 || i == cause)
			continue;
		r[k++] = end_rank(key);
		same = !same || strcmp(same, val) == 0 ? val : "";
	}
	tr_sort(r, k, sizeof *r, tr_cmp_i64);
	tr_ranklist_init(&l, list, sizeof list);
	for (i = 0; i < k; i++)
		tr_ranklist_add(&l, r[i]);
	tr_ranklist_end(&l);
	free(r);
	say(die, in->meta[cause].file, in->meta[cause].line,
	    "rank %lld's recording ended early (%s)%s%s%s%s%s%s%s%s",
	    (long long)cr, why, k ? ", as did those of rank" : "",
	    k > 1 ? "s " : k ? " " : "", list, k && *same ? " (" : "",
	    k && *same ? same : "", k && *same ? ")" : "", what ? ": " : "",
	    what ? what : "");
	return 1;
}

static int
has_records(struct tr_in *const *v, int n, int64_t r)
{
	int i;

	for (i = 0; i < n; i++)
		if ((size_t)r < v[i]->nranks && v[i]->ranks[r].seq >= 0)
			return 1;
	return 0;
}

static const struct tr_range *shard;
static size_t nshard;
static char shardopt[64];
static int shardpeers;

void
tr_shard(int opt, const char *arg, const struct tr_range *v, size_t n,
    int kind)
{
	shardpeers = kind;
	shard = v;
	nshard = n;
	snprintf(shardopt, sizeof shardopt, "-%c %s", opt, arg);
}

int
tr_sharded(void)
{
	return nshard > 0;
}

int
tr_in_shard(int64_t rank)
{
	size_t i;

	for (i = 0; i < nshard; i++)
		if (rank >= shard[i].lo && rank <= shard[i].hi)
			return 1;
	return nshard == 0;
}

int
tr_rec_in_shard(const struct tr_in *in, const struct tr_rec *r)
{
	int64_t rank;

	if (!nshard || r->nf < 2 || !r->decl || r->decl->nf < 2 ||
	    strcmp(r->decl->names[1], "rank") != 0)
		return 1;
	rank = tr_get_i64(in, r, 1);
	return rank < 0 || tr_in_shard(rank);
}

int
tr_meta_in_shard(const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n), *d;
	int64_t rank;

	if (!nshard || !eq || shardpeers == TR_SHARD_WRITES)
		return 1;
	for (d = eq; d > line && d[-1] != '.'; d--)
		;
	if (d == line || tr_parse_i64(d, (size_t)(eq - d), &rank) < 0)
		return 1;
	return tr_in_shard(rank);
}

/* The shard's own ranks (those below np) each have records or a mark of
 * their end, and no other rank has any: a rank in two shards would count
 * twice in their merge. */
static void
shard_check(struct tr_in *in, struct tr_in *const *v, int nv, int die)
{
	struct tr_ranklist l, x;
	const char *file = tr_in_file(in);
	long line = in->line;
	char list[256], xlist[256], key[32];
	int64_t r, top = -1, hi = 0;
	size_t i;
	int k;

	for (k = 0; k < nv; k++)
		for (i = 0; i < v[k]->nranks; i++)
			if (v[k]->ranks[i].seq >= 0 && (int64_t)i > top)
				top = (int64_t)i;
	if (top < 0)
		return;
	for (i = 0; i < nshard; i++)
		hi = shard[i].hi > hi ? shard[i].hi : hi;
	if (in->np >= 0 && hi >= in->np)
		hi = in->np - 1;
	tr_ranklist_init(&l, list, sizeof list);
	tr_ranklist_init(&x, xlist, sizeof xlist);
	for (r = 0; r <= (hi > top ? hi : top); r++) {
		int has = has_records(v, nv, r), own = tr_in_shard(r);

		snprintf(key, sizeof key, "end.%lld", (long long)r);
		if (own && r <= hi && !has && !tr_meta(in, key))
			tr_ranklist_add(&l, r);
		else if (!own && has && shardpeers == TR_SHARD_OWN)
			tr_ranklist_add(&x, r);
	}
	tr_ranklist_end(&l);
	tr_ranklist_end(&x);
	if (in->np >= 0) {
		i = (size_t)tr_map_get(in->mmap, "np", 2, 0);
		file = in->meta[i].file;
		line = in->meta[i].line;
	}
	if (l.n)
		say(die, file, line, "rank%s %s of the shard (%s) ha%s no "
		    "records: a rank's file missing?", l.n > 1 ? "s" : "",
		    list, shardopt, l.n > 1 ? "ve" : "s");
	if (x.n)
		say(1, file, line, "rank%s %s ha%s records but %s not in the "
		    "shard (%s): the shards of a run must not overlap",
		    x.n > 1 ? "s" : "", xlist, x.n > 1 ? "ve" : "s",
		    x.n > 1 ? "are" : "is", shardopt);
}

/* Ranks below np (or below the highest one seen) without records in any
 * of V, the readers of one section whose header IN holds. */
static void
missing(struct tr_in *in, struct tr_in *const *v, int nv, int die)
{
	int64_t np = in->np, top = -1, r;
	struct tr_ranklist l;
	const char *file = tr_in_file(in);
	long line = in->line;
	char list[256], key[32];
	int ends = 0, k;
	size_t i;

	if (nshard && shardpeers != TR_SHARD_WRITES) {
		shard_check(in, v, nv, die);
		return;
	}
	if (tr_meta(in, "subset"))
		return;
	for (k = 0; k < nv; k++)
		for (i = 0; i < v[k]->nranks; i++)
			if (v[k]->ranks[i].seq >= 0 && (int64_t)i > top)
				top = (int64_t)i;
	if (top < 0)
		return;		/* no ev or reg records: not a trace */
	ends = tr_meta_nended(in) > 0;
	if (np < 0)
		np = top + 1;
	tr_ranklist_init(&l, list, sizeof list);
	for (r = 0; r < np; r++) {
		if (has_records(v, nv, r))
			continue;
		/* A rank that died before its first call: said as such. */
		if (ends) {
			snprintf(key, sizeof key, "end.%lld", (long long)r);
			if (tr_meta(in, key))
				continue;
		}
		tr_ranklist_add(&l, r);
	}
	tr_ranklist_end(&l);
	if (l.n == 0)
		return;
	if (in->np < 0) {
		say(die, file, line, "rank%s %s of ranks up to %lld ha%s no "
		    "records: a rank's file missing? (a selection of ranks "
		    "says #meta subset)", l.n > 1 ? "s" : "", list,
		    (long long)top, l.n > 1 ? "ve" : "s");
		return;
	}
	i = (size_t)tr_map_get(in->mmap, "np", 2, 0);
	say(die, in->meta[i].file, in->meta[i].line, "np=%lld, but rank%s %s "
	    "ha%s no records: a rank's file missing? (a selection of ranks "
	    "says #meta subset)", (long long)in->np, l.n > 1 ? "s" : "", list,
	    l.n > 1 ? "ve" : "s");
}

void
tr_ranks_check_merged(struct tr_in *hdr, struct tr_in *const *v, int n,
    int die)
{
	missing(hdr, v, n, die);
}

static void
section_end(struct tr_in *in)
{
	if (in->checks & (TR_CHECK_RANKS | TR_CHECK_RANKS_WARN))
		missing(in, &in, 1, in->checks & TR_CHECK_RANKS);
	if (in->checks & TR_CHECK_ENDED)
		tr_meta_ended(in, 0, "what followed is not in the trace");
}

/* The reader calls back as each section ends: it knows nothing of what
 * makes a run whole. */
void
tr_in_check(struct tr_in *in, unsigned checks)
{
	in->checks = checks;
	in->atend = checks & ~(unsigned)TR_CHECK_TRUNC ? section_end : NULL;
}
