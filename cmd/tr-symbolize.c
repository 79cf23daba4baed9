/* tr-symbolize - turn call sites MODULE+0xOFFSET into FUNCTION@FILE:LINE
 * (lib/analyse/symbolize.c). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"

static int pflag;

static const struct tr_opts opts = {
	"tr-symbolize [-f] [file ...]",
	"-f\tkeep the source file's full path (default: its last "
	"component)\n",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

static struct tr_symbolize *sym;

static int
record(struct tr_in *in, const struct tr_rec *r, struct tr_out *out)
{
	const char *s;

	if (r->type == TR_EV && (s = tr_symbolize_site(sym, in,
	    r->u.ev.site))) {
		struct tr_ev e = r->u.ev;

		e.site.p = s;
		e.site.n = strlen(s);
		tr_out_ev(out, &e);
	} else if (r->type == TR_FAIL && (s = tr_symbolize_site(sym, in,
	    r->f[TR_EV_SITE]))) {
		/* an ev's columns, then err: only the site changes */
		const char *b = r->f[TR_EV_SITE].p;
		const char *c = b + r->f[TR_EV_SITE].n;

		tr_out_write(out, r->line, (size_t)(b - r->line));
		tr_out_str(out, s);
		tr_out_write(out, c, (size_t)(r->line + r->len - c));
		tr_out_c(out, '\n');
	} else
		return 1;
	return 0;
}

static const struct tr_loop loop = { .rec = record };

int
main(int argc, char **argv)
{
	int c, status;

	tr_init("tr-symbolize");
	while ((c = tr_getopt(argc, argv, "f", &opts)) != -1) {
		switch (c) {
		case 'f':
			pflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	signal(SIGPIPE, SIG_IGN);
	sym = tr_symbolize_new(pflag);
	status = tr_loop(argc, argv, tr_out_open(1, 0), &loop);
	tr_symbolize_free(sym);
	return status;
}
