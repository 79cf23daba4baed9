/* tr-from-otf2 - an OTF2 archive (Score-P, Scalasca, TAU) as a tr
 * stream of MPI calls, user regions and communicators. */
#include <stdlib.h>
#include <unistd.h>

#include "libtr.h"

static int qflag;

#ifdef __SANITIZE_ADDRESS__
/* libotf2 keeps what it allocated for an archive it failed to open. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

/* The report of suppressions used would make an error of one line
 * several. */
const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}

const char *
__lsan_default_suppressions(void)
{
	return "leak:otf2_archive_open\nleak:otf2_file_posix_open\n"
	    "leak:OTF2_UTILS_IO_JoinPath\nleak:OTF2_UTILS_CStr_dup\n";
}
#endif

static const struct tr_opts opts = {
	"tr-from-otf2 [-Q] archive.otf2",
	"-Q\tsay nothing of the events left out\n",
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
	struct tr_out *o;
	int c;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "Q", &opts)) != -1) {
		switch (c) {
		case 'Q':
			qflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	o = tr_out_open(1, 0);
	tr_otf2_read(argv[0], o, qflag);
	return tr_out_close(o);
}
