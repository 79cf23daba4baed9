/* fuzz-net.c - the network file of tr-nsim -n, loaded and built for a
 * few ranks as a section would build it, and routed between each pair
 * of them as a replay routes its messages. */
#include "fuzz.h"

static void
route(const struct tr_net *n, long np)
{
	long *l = malloc((size_t)tr_net_maxroute(n) * sizeof *l + 1);
	long a, b;
	int k, nl;
	double lat;
	char name[128];

	for (a = 0; a < np; a++)
		for (b = 0; b < np; b++) {
			nl = tr_net_route(n, tr_net_node(n, a),
			    tr_net_node(n, b), l, &lat);
			for (k = 0; k < nl; k++) {
				if (l[k] < 0)
					abort();
				tr_net_linkname(n, l[k], name, sizeof name);
			}
		}
	tr_net_intra(n, 0);
	tr_net_intra(n, 1 << 20);
	free(l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = fuzz_file(".net", data, size);
	/* loaded, and freed whether or not building it failed */
	static struct tr_net *volatile n;
	long np = 1 + (size ? data[0] % 16 : 0);

	if (FUZZ_TRY()) {
		n = tr_net_load(p);
		tr_net_build(n, np);
		route(n, np);
	}
	tr_net_free(n);
	n = NULL;
	fuzz_end();
	return 0;
}
