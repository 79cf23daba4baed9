/* tr-from-strace - convert `strace -f -tt -T` output into sys records:
 * one per completed system call, with the path it worked on. */
#include <stdlib.h>
#include <unistd.h>

#include "libtr.h"

static const struct tr_opts opts = {
	"tr-from-strace [file ...]",
	"",
	NULL
};

static void
usage(void)
{
	tr_usage(&opts);
}

int
main(int argc, char **argv)
{
	struct tr_in *in;
	struct tr_out *o;
	struct tr_strace *st;
	const char *line;
	size_t n;
	int c, status;

	tr_init(argv[0]);
	while ((c = tr_getopt(argc, argv, "", &opts)) != -1)
		usage();
	argc -= optind;
	argv += optind;
	o = tr_out_open(1, 0);
	in = tr_open_text(argc, argv);
	st = tr_strace_new(in, o);
	while (tr_next_line(in, &line, &n))
		tr_strace_line(st, line, n);
	tr_strace_end(st);
	status = tr_in_status(in);
	tr_close(in);
	tr_out_close(o);
	tr_strace_free(st);
	return status;
}
