/* plot-jobs.c - the workflow chart: tr-jobsh's jobs in time, a lane per
 * worker of each host. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

struct job {
	size_t row;
	double start, end;
	long host, cmd;
	int lane;
	long nin;		/* jobs nested in it (a recursive make's) */
};

/* By host, then the jobs that ran others (whose lanes come first), then
 * start. */
static int
job_cmp(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if ((x->nin > 0) != (y->nin > 0))
		return x->nin > 0 ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Counts into each job's nin the jobs that ran in it. */
static void
count_nested(const struct table *t, struct job *j)
{
	int cp = plot_col(t, "parent"), cpid = plot_col(t, "pid");
	struct tr_job *n;
	size_t i;

	if (cp < 0 || cpid < 0)
		return;
	n = tr_calloc(t->n, sizeof *n);
	for (i = 0; i < t->n; i++) {
		double pid = plot_num(t, i, cpid), up = plot_num(t, i, cp);

		n[i].host = j[i].host;
		n[i].pid = isnan(pid) ? -1 : (int64_t)pid;
		n[i].parent = isnan(up) ? -1 : (int64_t)up;
		n[i].start = (int64_t)j[i].start;
		n[i].end = (int64_t)j[i].end;
	}
	tr_jobs_nest(n, t->n);
	for (i = 0; i < t->n; i++)
		if (n[i].up >= 0)
			j[n[i].up].nin++;
	free(n);
}

int
plot_jobs_draw(struct tr_plot *p, struct tr_out *o)
{
	struct table *t = plot_find(p, "job", NULL);
	struct tr_map *hosts, *cmds;
	struct job *j;
	double *laneend = NULL, lo = INFINITY, hi = 0, w = p->opt.width;
	double left = 130, top = 50, lh = 22, h;
	size_t i, lcap = 0, nlane = 0, hostfirst = 0;
	long curhost = -1;
	int cs, ce, ch, cc, ct, k;
	char id[64];
	struct tr_scale xs;
	const char *names[13], *colors[13], *classes[13];
	char nm[13][48], cls[13][16];
	size_t *lanehost = NULL, lhcap = 0, lkcap = 0;
	unsigned char *lanemake = NULL;

	if (!t || t->n == 0)
		return -1;
	cs = plot_col(t, "start");
	ce = plot_col(t, "elapsed");
	ch = plot_col(t, "host");
	cc = plot_col(t, "cmd");
	ct = plot_col(t, "target");
	hosts = tr_map_new();
	cmds = tr_map_new();
	j = tr_calloc(t->n, sizeof *j);
	for (i = 0; i < t->n; i++) {
		size_t hn, cn, m;
		const char *hs = plot_fld(t->rows[i], ch, &hn);
		const char *c = plot_fld(t->rows[i], cc, &cn);

		/* A command is named by its program, without its path. */
		while (cn && (*c == ' ' || *c == '\t'))
			c++, cn--;
		for (m = 0; m < cn && c[m] != ' '; m++)
			;
		cn = m;
		for (m = cn; m > 0 && c[m - 1] != '/'; m--)
			;
		c += m;
		cn -= m;
		j[i].row = i;
		j[i].start = plot_num(t, i, cs);
		j[i].end = j[i].start + plot_num(t, i, ce);
		j[i].host = tr_map_get(hosts, hs, hn, 1);
		j[i].cmd = tr_map_get(cmds, cn ? c : "-", cn ? cn : 1, 1);
		if (isnan(j[i].start) || isnan(j[i].end))
			tr_die(TR_EXIT_DATA, "job record %zu: bad start or "
			    "elapsed", i + 1);
		lo = fmin(lo, j[i].start);
		hi = fmax(hi, j[i].end);
	}
	count_nested(t, j);
	/* Jobs that overlap on one host ran on different workers: give
	 * each the first free lane of its host. A job that ran a sub-make
	 * held no worker while its jobs ran, and gets a lane of the
	 * host's makes. */
	tr_sort(j, t->n, sizeof *j, job_cmp);
	for (i = 0; i < t->n; i++) {
		size_t l;

		if (j[i].host != curhost) {
			curhost = j[i].host;
			hostfirst = nlane;
		}
		for (l = hostfirst; l < nlane; l++)
			if (laneend[l] <= j[i].start &&
			    lanemake[l] == (j[i].nin > 0))
				break;
		if (l == nlane) {
			tr_grow(&laneend, &lcap, nlane + 1, sizeof *laneend);
			tr_grow(&lanehost, &lhcap, nlane + 1, sizeof *lanehost);
			tr_grow(&lanemake, &lkcap, nlane + 1, 1);
			lanehost[nlane] = (size_t)curhost;
			lanemake[nlane] = j[i].nin > 0;
			nlane++;
		}
		laneend[l] = j[i].end;
		j[i].lane = (int)l;
	}
	h = top + (double)nlane * lh + 90;
	tr_scale_set(&xs, 0, hi - lo, left, w - 30, 0);
	tr_svg_begin(o, w, h, plot_id(p, id, "jobs"));
	tr_svg_title(o, w, p->opt.title ? p->opt.title :
	    "workflow: jobs per worker");
	tr_svg_axis(o, &xs, TR_AXIS_X, top + (double)nlane * lh, top,
	    TR_UNIT_NS, "time since the first job");
	for (i = 0; i < nlane; i++) {
		size_t hn;
		const char *hs = tr_map_key(hosts, (long)lanehost[i], &hn);
		char lab[80];
		size_t w = 0, l;

		for (l = 0; l < i; l++)
			w += lanehost[l] == lanehost[i] &&
			    lanemake[l] == lanemake[i];
		snprintf(lab, sizeof lab, "%.*s/%s%zu",
		    (int)(hn < 60 ? hn : 60), hs, lanemake[i] ? "make" : "",
		    w);
		tr_svg_text(o, left - 6, top + (double)i * lh + lh / 2 + 4,
		    "end", "font-size=\"11\"", lab);
	}
	for (i = 0; i < t->n; i++) {
		double x0 = tr_scale_map(&xs, j[i].start - lo);
		double x1 = tr_scale_map(&xs, j[i].end - lo);
		int c = j[i].cmd < 12 ? (int)j[i].cmd : 12;
		size_t tn2, cn2;
		const char *tg = plot_fld(t->rows[j[i].row], ct, &tn2);
		const char *cm = plot_fld(t->rows[j[i].row], cc, &cn2);

		tr_out_printf(o, "<rect class=\"s%d\" x=\"%.2f\" y=\"%.1f\" "
		    "width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s "
		    "stroke=\"#fff\" stroke-width=\"0.5\"><title>", c, x0,
		    top + j[i].lane * lh + 2, fmax(x1 - x0, 0.5), lh - 4,
		    tr_svg_color(c), j[i].nin ? " fill-opacity=\"0.35\"" : "");
		tr_svg_esc(o, tg, tn2);
		tr_out_str(o, ": ");
		tr_svg_esc(o, cm, cn2 < 200 ? cn2 : 200);
		tr_out_printf(o, " (%.3f s", (j[i].end - j[i].start) / 1e9);
		if (j[i].nin)
			tr_out_printf(o, ", %ld job%s in it", j[i].nin,
			    j[i].nin > 1 ? "s" : "");
		tr_out_str(o, ")</title></rect>\n");
	}
	for (k = 0; k < 13 && (size_t)k < tr_map_len(cmds); k++) {
		size_t cn;
		const char *c = tr_map_key(cmds, k, &cn);

		if (k == 12)
			snprintf(nm[k], sizeof nm[k], "other");
		else
			snprintf(nm[k], sizeof nm[k], "%.*s",
			    (int)(cn < 40 ? cn : 40), c);
		snprintf(cls[k], sizeof cls[k], "s%d", k);
		names[k] = nm[k];
		colors[k] = tr_svg_color(k);
		classes[k] = cls[k];
	}
	tr_svg_legend(o, left, h - 30, w - left, k, names, colors, classes);
	tr_svg_end(o);
	free(j);
	free(laneend);
	free(lanehost);
	free(lanemake);
	tr_map_free(hosts);
	tr_map_free(cmds);
	return 0;
}
