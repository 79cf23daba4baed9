/* merge.c - the per-rank files of one run merged by time into one
 * stream, each checked on its own and against the others (tr-cat -m). */
#include <sys/stat.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

struct input {
	struct tr_in *in;
	struct tr_rec rec;
	int64_t key;		/* time of the held record */
	int tcol;		/* column of a time in other types, per decl */
	const struct tr_decl *tdecl;
	int64_t rank;		/* of its ev and reg records; -2 several */
};

static struct input *inp;
static int *heap, nheap;

/* Each rank's last record in the merged stream, and its input: each
 * input is checked alone, so a rank in two of them (a file given twice)
 * would be merged into a stream that goes back. */
struct last {
	int64_t seq, end;
	int from, seen;
};
static struct last *last;
static size_t nlast;

static int
before(int a, int b)
{
	if (inp[a].key != inp[b].key)
		return inp[a].key < inp[b].key;
	return a < b;
}

static void
heap_down(int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, t;

		if (l < nheap && before(heap[l], heap[m]))
			m = l;
		if (l + 1 < nheap && before(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

static void
heap_up(int i)
{
	while (i > 0 && before(heap[i], heap[(i - 1) / 2])) {
		int p = (i - 1) / 2, t = heap[i];

		heap[i] = heap[p];
		heap[p] = t;
		i = p;
	}
}

/* Records without a time of their own keep the time of the record before
 * them in the same input, so they stay next to it. */
static void
set_key(struct input *p)
{
	const struct tr_rec *r = &p->rec;

	if (r->type == TR_EV || r->type == TR_REG) {
		p->key = r->type == TR_EV ? r->u.ev.start : r->u.reg.time;
		tr_merge_note(&p->rank, r);
	} else {
		if (p->tdecl != r->decl) {
			p->tdecl = r->decl;
			p->tcol = tr_decl_col(r->decl, "start");
			if (p->tcol < 0)
				p->tcol = tr_decl_col(r->decl, "time");
		}
		if (p->tcol > 0)
			p->key = tr_get_i64(p->in, r, p->tcol);
	}
}

/* A rank's file cut short (SIGKILL) lacks the mark tr-record writes
 * when a rank ends early: the merged stream gets one in its place, after
 * the rank's last record, or a tool reading it through a pipe whose
 * status nobody checks would take the rank's end for its finish. */
void
tr_merge_mark(struct tr_out *o, int64_t rank)
{
	char line[64];
	int n;

	n = snprintf(line, sizeof line, "#tr %d\n#meta end.%lld=truncated\n",
	    TR_FORMAT, (long long)rank);
	tr_out_write(o, line, (size_t)n);
}

static void
mark_cut(const struct input *p, struct tr_out *o)
{
	if (o && p->rank >= 0 && tr_in_status(p->in))
		tr_merge_mark(o, p->rank);
}

/* Advances input i to its next record; 0 at its end. */
static int
advance(int i, struct tr_in *hdr, struct tr_out *o)
{
	struct input *p = &inp[i];

	for (;;) {
		switch (tr_next(p->in, &p->rec)) {
		case TR_REC:
			set_key(p);
			return 1;
		case TR_HDR:
			if (tr_in_section(p->in) > 1)
				tr_in_die(p->in, "holds several runs: -m merges "
				    "the files of one run");
			if (hdr && hdr != p->in) {
				if (tr_in_merge_header(hdr, p->in) < 0)
					tr_in_die(p->in, "header disagrees with "
					    "that of %s: -m merges the files of "
					    "one run", tr_in_file(hdr));
			}
			if (o)
				tr_out_sync(o, hdr);
			break;
		case TR_END:
			break;
		default:
			mark_cut(p, o);
			return 0;
		}
	}
}

static void
check_merged(int i)
{
	const struct tr_rec *r = &inp[i].rec;
	int64_t rank, seq, start, end;
	struct last *l;

	if (r->type == TR_EV) {
		rank = r->u.ev.rank;
		seq = r->u.ev.seq;
		start = r->u.ev.start;
		end = r->u.ev.end;
	} else if (r->type == TR_REG) {
		rank = r->u.reg.rank;
		seq = r->u.reg.seq;
		start = end = r->u.reg.time;
	} else
		return;
	tr_growz(&last, &nlast, (size_t)rank + 1, sizeof *last);
	l = &last[rank];
	/* A call's records (one seq) are in one file, the rank's. */
	if (l->seen && l->from != i && (seq <= l->seq || start < l->end))
		tr_in_die(inp[i].in, "rank %lld's records here and in %s "
		    "overlap (seq %lld after %lld): a file given twice?",
		    (long long)rank, tr_in_file(inp[l->from].in),
		    (long long)seq, (long long)l->seq);
	l->seq = seq;
	l->end = end;
	l->from = i;
	l->seen = 1;
}

/* Bytes and lines read over all the inputs, for the progress line. */
static void
progress(struct tr_progress *p, int n, int64_t total)
{
	int64_t done = 0, lines = 0, l, b;
	int i;

	for (i = 0; i < n; i++) {
		b = tr_in_pos(inp[i].in, &l);
		if (b < 0)
			total = -1;
		done += b;
		lines += l;
	}
	tr_progress_tick(p, done, total, lines);
}

/* What a merge holds, freed at its end and at an error exit that
 * returns (tr_undo_push): a later merge starts from nothing. The
 * readers are tr_close_all's. */
static void
merge_free(void *arg)
{
	(void)arg;
	free(inp);
	free(heap);
	free(last);
	inp = NULL;
	heap = NULL;
	last = NULL;
	nheap = 0;
	nlast = 0;
}

/* SMALL: each input with tr_in_small's buffers, for a merge beside a
 * reader of its stream (tr_merge_start), whose memory it adds to. */
static int
merge(int nfiles, char **files, struct tr_out *o, int show, int small)
{
	int i, n = nfiles, status = 0;
	struct tr_in **ins;
	struct tr_progress *prog = show ? tr_progress_new() : NULL;
	int64_t total = 0;
	unsigned long nrec = 0;
	struct stat st;

	tr_need_input(n);
	if (n == 0) {
		static char *dash[] = {"-"};
		files = dash;
		n = 1;
	}
	inp = tr_calloc((size_t)n, sizeof *inp);
	heap = tr_calloc((size_t)n, sizeof *heap);
	tr_undo_push(merge_free, NULL);
	/* Read every header first, so the output starts with all of it. */
	for (i = 0; i < n; i++) {
		inp[i].in = tr_open(1, files + i);
		if (small)
			tr_in_small(inp[i].in);
		inp[i].rank = -1;
		tr_in_want(inp[i].in, 0);	/* only the start, always set */
		/* A rank killed mid-write: the other ranks' records after
		 * its last one are still the run's. */
		tr_in_check(inp[i].in, TR_CHECK_TRUNC);
		if (advance(i, inp[0].in, NULL))
			heap[nheap++] = i;
	}
	tr_out_sync(o, inp[0].in);
	for (i = nheap / 2; i >= 0; i--)
		heap_down(i);
	for (i = 0; prog && i < n; i++)
		total = total < 0 || strcmp(files[i], "-") == 0 ||
		    stat(files[i], &st) < 0 ? -1 : total + st.st_size;
	while (nheap > 0) {
		if (prog && (++nrec & 0xffff) == 0)
			progress(prog, n, total);
		i = heap[0];
		check_merged(i);
		tr_out_rec(o, &inp[i].rec);
		if (advance(i, inp[0].in, o)) {
			heap_down(0);
			heap_up(0);
		} else {
			heap[0] = heap[--nheap];
			heap_down(0);
		}
	}
	ins = tr_calloc((size_t)n, sizeof *ins);
	for (i = 0; i < n; i++) {
		ins[i] = inp[i].in;
		if (!status)
			status = tr_in_status(inp[i].in);
	}
	/* The records are copied right, so a warning; the tools that
	 * need every rank stop at the merged stream. */
	tr_ranks_check_merged(inp[0].in, ins, n, 0);
	for (i = 0; i < n; i++)
		tr_close(inp[i].in);
	tr_progress_end(prog);
	free(ins);
	tr_undo_pop();
	merge_free(NULL);
	return status;
}

int
tr_merge(int nfiles, char **files, struct tr_out *o, int show)
{
	return merge(nfiles, files, o, show, 0);
}

static struct {
	pthread_t th;
	int nfiles, fd, status;
	char **files;
} bg;

static void *
merge_run(void *arg)
{
	struct tr_out *o = tr_out_open(bg.fd, 0);

	(void)arg;
	bg.status = merge(bg.nfiles, bg.files, o, 0, 1);
	tr_out_close(o);	/* the reader's end of input */
	return NULL;
}

int
tr_merge_start(int nfiles, char **files)
{
	int p[2];

	if (pipe(p) < 0)
		tr_die(TR_EXIT_SYS, "pipe:");
	bg.nfiles = nfiles;
	bg.files = files;
	bg.fd = p[1];
	if (pthread_create(&bg.th, NULL, merge_run, NULL) != 0)
		tr_die(TR_EXIT_SYS, "pthread_create: cannot start the merge");
	return p[0];
}

int
tr_merge_wait(void)
{
	pthread_join(bg.th, NULL);
	return bg.status;
}
