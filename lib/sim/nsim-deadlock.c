/* nsim-deadlock.c - the report of a replay that cannot go on. */
#include "nsim-int.h"

static const char *
cls_name(const struct item *it, char *buf, size_t n)
{
	size_t l = 0;
	int f = 0;
	const char *p = ITEM_PRE(it);

	/* the op field is the fourth, before the times */
	while (f < 3 && l < it->npre)
		if (p[l++] == '\t')
			f++;
	snprintf(buf, n, "%.*s", (int)strcspn(p + l, "\t"), p + l);
	return buf;
}

/* The ranks without records in the section (a selection of ranks) that
 * blocked rank R waits for, into L: its collective's, or the partners
 * of the messages it waits for. */
static void
waits_absent(struct tr_nsim *s, long r, struct tr_ranklist *l)
{
	const struct rank *rk = &s->r[r];
	long i, n = rk->incoll ? comm_size(s, rk->gid) : rk->npr + 1, k = 0;
	int64_t *p = tr_malloc((size_t)n * sizeof *p);

	for (i = 0; i < n; i++) {
		const struct sreq *q;

		if (rk->incoll)
			p[k] = rk->gid == 0 ? i : rk->gid == 1 ? r :
			    comm_get(s, rk->gid)->mem[i];
		else if (i < rk->npr) {
			q = i < 2 ? rk->pend[i] : rk->xpend[i - 2];
			if (q->done)
				continue;
			p[k] = q->send ? q->dst : q->src;
		} else
			p[k] = rk->it->peer;
		if (p[k] >= 0 && p[k] < s->np && s->r[p[k]].done &&
		    !s->r[p[k]].it)
			k++;
	}
	tr_sort(p, (size_t)k, sizeof *p, tr_cmp_i64);
	for (i = 0; i < k; i++)
		if (i == 0 || p[i] != p[i - 1])
			tr_ranklist_add(l, p[i]);
	free(p);
	tr_ranklist_end(l);
}

void
nsim_deadlock(struct tr_nsim *s)
{
	char msg[4096], op[64], absent[256];
	size_t m = 0;
	long r, shown = 0, blocked = 0, first = -1;
	struct tr_ranklist l;

	for (r = 0; r < s->np; r++)
		if (!s->r[r].done && blocked++ == 0)
			first = r;
	if (blocked || s->bglive > 0) {
		/* The marks of ranks that died come after their records,
		 * maybe after those of ranks not yet read. */
		while (nsim_pull(s, -1, 0))
			;
		if (blocked == 1)
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: rank %ld blocked in %s seq "
			    "%lld)", first, cls_name(s->r[first].it, op,
			    sizeof op), (long long)s->r[first].it->seq);
		else if (blocked)
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: %ld ranks blocked, the "
			    "first rank %ld in %s seq %lld)", blocked, first,
			    cls_name(s->r[first].it, op, sizeof op),
			    (long long)s->r[first].it->seq);
		else
			snprintf(msg, sizeof msg, "the replay cannot go on past "
			    "their records (deadlock: %ld nonblocking "
			    "collectives never completed)", s->bglive);
		if (s->src && tr_meta_nended(s->src)) {
			/* as nsim_item_die does */
			tr_meta_unrecorded(s->src);
			tr_meta_ended(s->src, 1, msg);
		}
		first = -1;
		blocked = 0;
	}
	for (r = 0; r < s->np; r++) {
		struct rank *rk = &s->r[r];
		if (rk->done)
			continue;
		if (blocked++ == 0)
			first = r;
		if (shown++ < 8 && m < sizeof msg - 200)
			m += (size_t)snprintf(msg + m, sizeof msg - m,
			    "%s rank %ld in %s (seq %lld, peer %lld, tag %lld) "
			    "since %.0f ns", shown > 1 ? ";" : "", r,
			    cls_name(rk->it, op, sizeof op),
			    (long long)rk->it->seq, (long long)rk->it->peer,
			    (long long)rk->it->tag, rk->tblock);
	}
	/* the line is the first blocked rank's call */
	if (blocked) {
		tr_ranklist_init(&l, absent, sizeof absent);
		waits_absent(s, first, &l);
		if (l.n)
			snprintf(op, sizeof op, "; rank %ld waits for", first);
		nsim_item_die(s, s->r[first].it,
		    "deadlock: %ld rank%s blocked:%s%s%s%s%s%s", blocked,
		    blocked > 1 ? "s" : "", msg, blocked > 8 ? "; ..." : "",
		    l.n ? op : "",
		    l.n > 1 ? " ranks " : l.n ? " rank " : "", l.n ? absent : "",
		    l.n > 1 ? ", which have no records in this section" : l.n ?
		    ", which has no records in this section" : "");
	}
	/* Every rank ended, and a collective it started is short of a
	 * rank that never called it. */
	for (r = 0; r < s->nbg && s->bglive > 0; r++)
		if (s->bg[r].req)
			nsim_item_die(s, NULL, "deadlock: %ld nonblocking "
			    "collectives never completed, the first of rank "
			    "%ld (seq %lld): a rank of its communicator did not "
			    "call it",
			    s->bglive, s->bg[r].owner,
			    (long long)s->bg[r].seq);
	/* Eager sends that no receive took: the senders went on, as in
	 * the recorded run (OpenCoarrays' last notifications, say). */
	for (r = 0, blocked = 0; r < s->np; r++)
		while (s->unexp[r]) {
			struct sreq *q = s->unexp[r];

			if (blocked++ == 0)
				m = (size_t)snprintf(msg, sizeof msg, "rank %ld "
				    "seq %lld sent %lld bytes to rank %ld (tag "
				    "%lld)", (long)q->src, (long long)q->seq,
				    (long long)q->bytes, (long)q->dst,
				    (long long)q->tag);
			s->unexp[r] = q->next;
			q->next = NULL;
			req_unref(s, q);
		}
	if (blocked)
		tr_warn("%s: %ld sends never received, the first: %s",
		    s->file ? s->file : "stdin", blocked, msg);
}
