/* tr-from-extrap - an Extra-P text input file as a tr stream: one
 * section per point, a metric record per repetition. */
#include <stdlib.h>
#include <unistd.h>

#include "libtr.h"

static const struct tr_opts opts = {
	"tr-from-extrap [-n param] [-N param] [file]",
	"-n param\tthe parameter that is the process count (default: p, P, "
	"np, nprocs, procs or ranks)\n"
	"-N param\tthe parameter that is the problem size (default: the "
	"other one)\n",
	NULL
};

static _Noreturn void
usage(void)
{
	tr_usage(&opts);
}

int
main(int argc, char **argv)
{
	const char *nname = NULL, *Nname = NULL;
	struct tr_expt *e;
	struct tr_out *o;
	struct tr_in *in;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "n:N:", &opts)) != -1) {
		switch (c) {
		case 'n': nname = optarg; break;
		case 'N': Nname = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* One file is one experiment: its POINTS hold for its DATA. */
	if (argc > 1)
		usage();
	o = tr_out_open(1, 0);
	in = tr_open_text(argc, argv);
	e = tr_expt_read(in, nname, Nname);
	status = tr_in_status(in);
	tr_close(in);
	if (!status)
		tr_expt_write_tr(e, o);
	tr_out_close(o);
	tr_expt_free(e);
	return status;
}
