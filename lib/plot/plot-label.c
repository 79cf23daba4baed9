/* plot-label.c - what the charts' labels share: element ids, units by
 * quantity name, titles and keys cut to fit. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot-int.h"

const char *
plot_id(struct tr_plot *p, char *buf, const char *kind)
{
	snprintf(buf, 64, "%s%s%d", p->opt.id ? p->opt.id : "", kind, p->ids++);
	return buf;
}

int
plot_unit(const struct tr_plot *p, int def)
{
	return p->opt.unit >= 0 ? p->opt.unit : def;
}

/* The unit of a quantity by its name: counts have none, sizes are bytes,
 * the rest of what the tools write is ns. "wall:max" is named by "wall". */
int
plot_unit_of(const char *q)
{
	static const char *counts[] = {"n", "ranks", "calls", "count", "msgs",
	    "points", "reps", "subrs", "events", "np", "N", "rank", NULL};
	size_t n = strcspn(q, ":");
	int i;

	for (i = 0; counts[i]; i++)
		if (strlen(counts[i]) == n && strncmp(q, counts[i], n) == 0)
			return TR_UNIT_NONE;
	if (n >= 5 && strncmp(q, "bytes", 5) == 0)
		return TR_UNIT_BYTES;
	return TR_UNIT_NS;
}

/* K in at most MAX characters (MAX > 3), its start and end kept: the
 * call sites of an interval differ at either end. */
void
plot_cut_middle(char *buf, size_t bn, const char *k, size_t kn, size_t max)
{
	size_t head = (max - 3) / 2, tail = max - 3 - head;

	/* Cut between characters: a byte 10xxxxxx continues one. */
	while (kn > max && head > 0 && ((unsigned char)k[head] & 0xc0) == 0x80)
		head--;
	while (kn > max && tail > 0 &&
	    ((unsigned char)k[kn - tail] & 0xc0) == 0x80)
		tail--;
	if (kn > max)
		snprintf(buf, bn, "%.*s...%.*s", (int)head, k, (int)tail,
		    k + kn - tail);
	else
		snprintf(buf, bn, "%.*s", (int)kn, k);
}

/* A panel's bold title S at X, Y, cut in the middle to the panel's
 * width PW (about 7.5 px a character, centred 25 px right of the
 * panel's middle): a symbolized interval's key of 200 bytes ran into the
 * next panel. The whole title is the cut one's tooltip. */
void
plot_panel_title(struct tr_out *o, double x, double y, double pw, const char *s)
{
	char buf[512];
	size_t n = strlen(s), room = (size_t)fmax((pw - 60) / 7.5, 16);

	plot_cut_middle(buf, sizeof buf, s, n, room < sizeof buf ? room :
	    sizeof buf - 1);
	tr_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	    "font-weight=\"bold\">", x, y);
	tr_svg_escs(o, buf);
	if (strlen(buf) < n) {
		tr_out_str(o, "<title>");
		tr_svg_escs(o, s);
		tr_out_str(o, "</title>");
	}
	tr_out_str(o, "</text>\n");
}

void
plot_trunc_key(char *buf, size_t bn, const char *k, size_t kn)
{
	plot_cut_middle(buf, bn, k, kn, 34);
}

/* A model's expression for a label: its constants, written by tr-fit
 * with every digit a double holds, to six significant ones
 * (391674874.3529412 reads 391674874; 0.12345678 reads 0.123457).
 * A digit inside a name (log2) is no constant. */
void
plot_expr_label(char *buf, size_t bn, const char *e)
{
	size_t n = 0;
	char num[32];

	while (*e && n + 1 < bn) {
		int word = n > 0 && (isalnum((unsigned char)buf[n - 1]) ||
		    buf[n - 1] == '_');
		char *end;
		double v;

		if (!word && (isdigit((unsigned char)*e) || (*e == '.' &&
		    isdigit((unsigned char)e[1])))) {
			v = strtod(e, &end);
			tr_f64text(num, v);
			if (n + strlen(num) + 1 >= bn)
				break;
			memcpy(buf + n, num, strlen(num));
			n += strlen(num);
			e = end;
			continue;
		}
		buf[n++] = *e++;
	}
	buf[n] = '\0';
}
