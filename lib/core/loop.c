/* loop.c - the record loop of a filter, which leaves the tool its own logic. */
#include "core.h"

int
tr_loop(int nfiles, char **files, struct tr_out *o, const struct tr_loop *l)
{
	struct tr_in *in = tr_open(nfiles, files);
	struct tr_rec r;
	int k, pend = 0, status;

	if (l->want)
		tr_in_want(in, l->want);
	tr_in_check(in, l->checks);
	if (l->progress)
		tr_in_progress(in);
	while ((k = tr_next(in, &r)) != TR_EOF) {
		if (k == TR_REC) {
			if ((l->rec && !l->rec(in, &r, o)) || !o)
				continue;
			if (pend)
				tr_out_sync(o, in);
			pend = 0;
			tr_out_rec(o, &r);
		} else if (k == TR_HDR) {
			if (l->hdr)
				l->hdr(in, o);
			if (o && l->lazy)
				pend = 1;
			else if (o)
				tr_out_sync(o, in);
		} else if (l->end)
			l->end(in, o);
	}
	if (l->done)
		l->done(in, o);
	status = tr_in_status(in);
	tr_close(in);
	if (o)
		tr_out_close(o);
	return status;
}
