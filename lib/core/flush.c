/* flush.c - tr-record writing its buffer (region tr.flush): time the
 * program spent, but not its own work. */
#include <string.h>

#include "core.h"

int
tr_reg_flush(const struct tr_reg *g)
{
	return g->name.n == 8 && memcmp(g->name.p, "tr.flush", 8) == 0;
}

int64_t
tr_flush_step(const struct tr_in *in, struct tr_flushing *f,
    const struct tr_reg *g)
{
	if (!g->leave) {
		f->in = 1;
		f->start = g->time;
		return -1;
	}
	if (!f->in)
		tr_in_die(in, "rank %lld leaves region tr.flush that it is "
		    "not in", (long long)g->rank);
	f->in = 0;
	return g->time - f->start;
}
