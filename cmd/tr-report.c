/* tr-report - one self-contained HTML page (inline SVG, CSS and script,
 * nothing fetched) of a pipeline's outputs: tables and charts. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"
#include "report-asset.h"

static struct tr_plotopt opt;
static const char *title = "tr report";
static int topn = 15;
static struct tr_inputs ins;

static const struct tr_opts opts = {
	"tr-report [-c count] [-H title] [-m limit] [-n np] [-w width] "
	"[file|dir ...]",
	"-c count\trows of each table (default 15)\n"
	"-H title\tthe page's title (default \"tr report\")\n"
	"-m limit\tcalls a timeline draws one by one before it bins "
	"(default 20000)\n"
	"-n np\tthe process count of the extrapolation target\n"
	"-w width\twidth of the charts in pixels, 300 to 20000 (default "
	"1000)\n",
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
	struct tr_out *o;
	int c, status = 0, s, k;
	size_t i;

	tr_init(argv[0]);
	memset(&opt, 0, sizeof opt);
	opt.unit = -1;
	opt.sites = opt.matrix = 1;
	while ((c = tr_getopt(argc, argv, "c:H:m:n:w:", &opts)) != -1)
		switch (c) {
		case 'c': topn = (int)tr_opt_int('c', optarg, 1, 1000); break;
		case 'H': title = optarg; break;
		case 'm':
			opt.limit = (long)tr_opt_int('m', optarg, 1, LONG_MAX);
			break;
		case 'n':
			opt.target = (double)tr_opt_int('n', optarg, 1,
			    INT64_MAX);
			break;
		case 'w':
			opt.width = (double)tr_opt_int('w', optarg, 300, 20000);
			break;
		default: usage();
		}
	argc -= optind;
	argv += optind;
	tr_need_input(argc);
	if (argc == 0)
		status = tr_inputs_add(&ins, "-");
	for (k = 0; k < argc; k++)
		if ((s = tr_inputs_add(&ins, argv[k])) != 0)
			status = s;
	/* An input that could not be read has been reported: one cause,
	 * one line. */
	if (ins.n == 0 && status)
		return status;
	if (ins.n == 0)
		tr_die_files(argc, argv, "no tr streams to report on");
	o = tr_out_open(1, 0);
	tr_out_str(o, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\"><title>");
	tr_svg_escs(o, title);
	tr_out_str(o, "</title>\n<style>");
	tr_out_str(o, report_css);
	tr_out_str(o, "</style></head>\n<body>\n<header><h1>");
	tr_svg_escs(o, title);
	tr_out_printf(o, "</h1><p>%zu input%s, made by tr-report "
	    TR_VERSION "</p><nav>", ins.n, ins.n == 1 ? "" : "s");
	for (i = 0; i < ins.n; i++) {
		tr_out_printf(o, "<a href=\"#in%zu\">", i);
		tr_svg_escs(o, ins.v[i].label);
		tr_out_str(o, "</a> ");
	}
	tr_out_str(o, "</nav></header>\n<main>\n");
	if (ins.n > 1 && (s = tr_report_across(o, &opt, &ins)) != 0)
		status = s;
	for (i = 0; i < ins.n; i++)
		if ((s = tr_report_input(o, &opt, topn, &ins.v[i], (int)i)) != 0)
			status = s;
	tr_inputs_free(&ins);
	tr_out_str(o, "</main>\n<pre id=\"selftest\" hidden></pre>\n<script>");
	tr_out_str(o, report_js);
	tr_out_str(o, "</script>\n</body></html>\n");
	tr_out_close(o);
	return status;
}
