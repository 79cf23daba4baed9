/* tr-to-otf2 - a tr stream as an OTF2 archive that Score-P's readers,
 * Vampir and Scalasca open. */
#include <stdlib.h>
#include <unistd.h>

#include "libtr.h"

static int qflag;

static const struct tr_opts opts = {
	"tr-to-otf2 [-Q] -o dir [file ...]",
	"-o dir\tthe archive's directory, made: dir/traces.otf2\n"
	"-Q\tsay nothing of what readers will number otherwise\n",
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
	struct tr_otf2out *x;
	struct tr_in *in;
	struct tr_rec rec;
	const char *dir = NULL;
	int c, k, st;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "o:Q", &opts)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'Q':
			qflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!dir)
		usage();
	tr_need_input(argc);
	x = tr_otf2out_open(dir);
	in = tr_open(argc, argv);
	while ((k = tr_next(in, &rec)) != TR_EOF)
		if (k == TR_END && x) {
			tr_otf2out_close(x, in, qflag);
			x = NULL;
		} else if (k == TR_REC) {
			if (!x)
				tr_in_die(in, "more than one run (section) in "
				    "the input");
			tr_otf2out_add(x, in, &rec);
		}
	if (x)
		tr_otf2out_close(x, NULL, qflag);
	st = tr_in_status(in);
	tr_close(in);
	return st;
}
