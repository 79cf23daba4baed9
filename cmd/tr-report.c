/* tr-report - one self-contained HTML page (inline SVG, CSS and script,
 * nothing fetched) of a pipeline's outputs: tables and charts. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libtr.h"
#include "report-asset.h"

static struct tr_plotopt opt;
static const char *title = "tr report";
static int topn = 15;
static struct tr_inputs ins;

static void
usage(void)
{
	fprintf(stderr, "usage: tr-report [-m limit] [-n top] [-t title] "
	    "[-T np] [-w width] [file|dir ...]\n");
	exit(TR_EXIT_USAGE);
}

int
main(int argc, char **argv)
{
	struct tr_out *o;
	int c, status = 0, s;
	size_t i;
	int64_t v;

	tr_init(argv[0]);
	memset(&opt, 0, sizeof opt);
	opt.unit = -1;
	opt.sites = 1;
	while ((c = getopt(argc, argv, "m:n:T:t:w:")) != -1)
		switch (c) {
		case 'm':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1)
				usage();
			opt.limit = (long)v;
			break;
		case 'n':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1 ||
			    v > 1000)
				usage();
			topn = (int)v;
			break;
		case 'T':
			if (tr_parse_i64(optarg, strlen(optarg), &v) || v < 1)
				usage();
			opt.target = (double)v;
			break;
		case 't': title = optarg; break;
		case 'w':
			if (tr_parse_i64(optarg, strlen(optarg), &v) ||
			    v < 300 || v > 20000)
				usage();
			opt.width = (double)v;
			break;
		default: usage();
		}
	argc -= optind;
	argv += optind;
	tr_need_input(argc);
	if (argc == 0)
		status = tr_inputs_add(&ins, "-");
	for (; argc > 0; argc--, argv++)
		if ((s = tr_inputs_add(&ins, *argv)) != 0)
			status = s;
	/* An input that could not be read has been reported: one cause,
	 * one line. */
	if (ins.n == 0 && status)
		return status;
	if (ins.n == 0)
		tr_die(TR_EXIT_DATA, "no tr streams to report on");
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
