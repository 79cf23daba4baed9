/* feed.c - a section read on as a replay needs its records.
 *
 * tr-nsim and tr-waits replay a section rank by rank in step. When the
 * ranks are known before the end (#meta np) they start at once and a
 * rank whose spooled records are used up has the input read on, each
 * record handed to the replay's own reader, until one of its records
 * (or the completion of its wildcard receive) has come. */
#include "mpi.h"

int
tr_feed(struct tr_in *in, struct tr_out *out, tr_feed_fn take, void *ctx,
    const int64_t *got, int64_t want)
{
	struct tr_rec r;
	int k;

	while ((k = tr_next(in, &r)) != TR_END && k != TR_EOF) {
		if (k == TR_HDR)
			tr_out_sync(out, in);
		else
			take(ctx, &r);
		if (want >= 0 && *got == want)
			return 1;
	}
	return 0;
}
