/* tr-to-otf2 - a tr stream as an OTF2 archive that Score-P's readers,
 * Vampir and Scalasca open. */
#include <stdlib.h>
#include <unistd.h>

#include "libtr.h"

static int qflag;

#ifdef __SANITIZE_ADDRESS__
/* libotf2 keeps what it allocated for an archive it failed to make. */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:otf2_archive_open\nleak:otf2_file_posix_open\n"
	    "leak:OTF2_UTILS_IO_JoinPath\nleak:OTF2_UTILS_CStr_dup\n";
}
#endif

static void
usage(void)
{
	fprintf(stderr, "usage: tr-to-otf2 [-q] -o dir [file ...]\n");
	exit(TR_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct tr_otf2out *x;
	struct tr_in *in;
	struct tr_rec rec;
	const char *dir = NULL;
	int c, k, st;
	long sections = 0;

	tr_init(argv[0]);
	while ((c = getopt(argc, argv, "o:q")) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'q':
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
		if (k == TR_END) {
			if (sections++)
				tr_in_die(in, "more than one run (section) in "
				    "the input");
			tr_otf2out_close(x, in, qflag);
			x = NULL;
		} else if (k == TR_REC) {
			tr_otf2out_add(x, in, &rec);
		}
	if (x)
		tr_otf2out_close(x, NULL, qflag);
	st = tr_in_status(in);
	tr_close(in);
	return st;
}
