/* svg.c - the pieces of SVG charts: scales with nice ticks, axes,
 * legends, a palette and XML escaping. */
#include <math.h>
#include <string.h>

#include "plot.h"

/* Distinct hues that stay apart for common colour blindness, then
 * darker and lighter variants; index 0 is the first data series. */
static const char *palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#2f4b7c", "#a05195", "#d45087",
	"#665191", "#ffa600", "#003f5c", "#7a5195", "#ef5675", "#8cd17d",
};

const char *
tr_svg_color(int i)
{
	int n = (int)(sizeof palette / sizeof palette[0]);

	if (i < 0)
		return "#c8c8c8";
	return palette[i % n];
}

/* U+FFFE and U+FFFF, the K bytes at S: UTF-8, but no character of XML
 * 1.0, whose parsers stop at them as at a byte that is not UTF-8. */
static int
xml_nonchar(const char *s, size_t k)
{
	const unsigned char *u = (const unsigned char *)s;

	return k == 3 && u[0] == 0xef && u[1] == 0xbf && (u[2] & 0xfe) == 0xbe;
}

void
tr_svg_esc(struct tr_out *o, const char *s, size_t n)
{
	size_t i, j, k;

	for (i = j = 0; i < n; i++) {
		const char *r;
		unsigned char c = (unsigned char)s[i];
		size_t skip = 1;

		switch (c) {
		case '<': r = "&lt;"; break;
		case '>': r = "&gt;"; break;
		case '&': r = "&amp;"; break;
		case '"': r = "&quot;"; break;
		case '\'': r = "&#39;"; break;
		default:
			/* Control characters are not allowed in XML 1.0, nor
			 * bytes that are not UTF-8 (a parser stops there): a
			 * replacement character stands for the latter. */
			r = c < 0x20 && c != '\t' && c != '\n' ? "?" : NULL;
			if (c >= 0x80) {
				k = tr_utf8_len(s + i, n - i);
				if (k && !xml_nonchar(s + i, k)) {
					i += k - 1;
					continue;
				}
				r = "\xef\xbf\xbd";
				skip = k ? k : 1;
			}
		}
		if (!r)
			continue;
		tr_out_write(o, s + j, i - j);
		tr_out_str(o, r);
		j = i + skip;
		i = j - 1;
	}
	tr_out_write(o, s + j, n - j);
}

void
tr_svg_escs(struct tr_out *o, const char *s)
{
	tr_svg_esc(o, s, strlen(s));
}

void
tr_scale_set(struct tr_scale *s, double d0, double d1, double r0, double r1,
    int log)
{
	s->log = log;
	/* A range given backwards (a bin with its hi below its lo, in bad
	 * input) would give NaN ticks. */
	if (d0 > d1) {
		double x = d0;

		d0 = d1;
		d1 = x;
	}
	if (log) {
		if (!(d0 > 0))
			d0 = d1 > 0 ? d1 / 10 : 1;
		if (!(d1 > 0))
			d1 = d0 * 10;
	}
	if (d1 == d0) {
		if (log) {
			d0 /= 2;
			d1 *= 2;
		} else {
			double e = d0 == 0 ? 1 : fabs(d0) / 2;

			d0 -= e;
			d1 += e;
		}
	}
	s->d0 = d0;
	s->d1 = d1;
	s->r0 = r0;
	s->r1 = r1;
}

double
tr_scale_map(const struct tr_scale *s, double v)
{
	double f;

	if (s->log) {
		if (!(v > 0))
			v = s->d0;
		f = (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0));
	} else {
		f = (v - s->d0) / (s->d1 - s->d0);
	}
	return s->r0 + f * (s->r1 - s->r0);
}

static double
nice_step(double range, int max)
{
	double raw = range / (max > 1 ? max : 1);
	double p = pow(10, floor(log10(raw)));
	double f = raw / p;

	if (f <= 1)
		f = 1;
	else if (f <= 2)
		f = 2;
	else if (f <= 5)
		f = 5;
	else
		f = 10;
	return f * p;
}

void
tr_scale_nice(struct tr_scale *s, int max)
{
	double st;

	if (s->log) {
		s->d0 = pow(10, floor(log10(s->d0) + 1e-9));
		s->d1 = pow(10, ceil(log10(s->d1) - 1e-9));
		if (s->d1 <= s->d0)
			s->d1 = s->d0 * 10;
		return;
	}
	st = nice_step(s->d1 - s->d0, max);
	s->d0 = floor(s->d0 / st + 1e-9) * st;
	s->d1 = ceil(s->d1 / st - 1e-9) * st;
}

int
tr_scale_ticks(const struct tr_scale *s, int max, double *t)
{
	int n = 0;

	if (max > TR_MAXTICKS)
		max = TR_MAXTICKS;
	if (s->log) {
		double e0 = floor(log10(s->d0) + 1e-9);
		double e1 = ceil(log10(s->d1) - 1e-9), e, every;
		static const double sub[] = {1, 2, 5};
		int k;

		every = ceil((e1 - e0 + 1) / max);
		if (every < 1)
			every = 1;
		/* Few decades: 1-2-5 steps say more than powers alone. */
		for (e = e0; e <= e1 && n < max; e += every)
			for (k = 0; k < (e1 - e0 <= 3 ? 3 : 1); k++) {
				double v = sub[k] * pow(10, e);

				if (v >= s->d0 * (1 - 1e-9) &&
				    v <= s->d1 * (1 + 1e-9) && n < max)
					t[n++] = v;
			}
		return n;
	} else {
		double st = nice_step(s->d1 - s->d0, max), v;
		double v0 = ceil(s->d0 / st - 1e-9) * st;
		int i;

		/* A range beyond a double's (-1e308 to 1e308) has no step. */
		if (!isfinite(v0) || !(st > 0) || !isfinite(st))
			return 0;
		for (i = 0; n < max; i++) {
			v = v0 + i * st;
			if (v > s->d1 + st * 1e-9)
				break;
			t[n++] = fabs(v) < st * 1e-9 ? 0 : v;
		}
		return n;
	}
}

/* The unit that suits a tick step, for time (ns) and size (bytes) axes. */
double
tr_svg_unit(int unit, double step, const char **name)
{
	static const char *tn[] = {"ns", "us", "ms", "s"};
	static const char *bn[] = {"B", "KB", "MB", "GB", "TB"};
	double f = 1;
	int i = 0;

	*name = NULL;
	if (unit == TR_UNIT_NS) {
		while (i < 3 && fabs(step) >= f * 1000) {
			f *= 1000;
			i++;
		}
		*name = tn[i];
	} else if (unit == TR_UNIT_BYTES) {
		while (i < 4 && fabs(step) >= f * 1000) {
			f *= 1000;
			i++;
		}
		*name = bn[i];
	}
	return f;
}

char *
tr_svg_num(char *buf, double v)
{
	double a = fabs(v);

	if (v == 0) {
		snprintf(buf, 32, "0");
	} else if (a >= 1e6 || a < 1e-3 || isnan(a)) {
		snprintf(buf, 32, "%.3g", v);
	} else {
		/* Plain decimals with 4 significant digits, no exponent. */
		int d = 3 - (int)floor(log10(a));
		char *e;

		snprintf(buf, 32, "%.*f", d < 0 ? 0 : d, v);
		if (strchr(buf, '.')) {
			for (e = buf + strlen(buf) - 1; *e == '0'; e--)
				*e = 0;
			if (*e == '.')
				*e = 0;
		}
	}
	return buf;
}

char *
tr_svg_qty(char *buf, size_t n, int unit, double v)
{
	const char *u;
	double f = tr_svg_unit(unit, v, &u);
	char b[32];

	snprintf(buf, n, "%s %s", tr_svg_num(b, v / f), u);
	return buf;
}

void
tr_svg_begin(struct tr_out *o, double w, double h, const char *id)
{
	tr_out_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "font-family=\"sans-serif\" font-size=\"12\" class=\"trplot\"",
	    w, h, w, h);
	if (id) {
		tr_out_str(o, " id=\"");
		tr_svg_escs(o, id);
		tr_out_c(o, '"');
	}
	tr_out_str(o, ">\n<rect width=\"100%\" height=\"100%\" "
	    "fill=\"#ffffff\"/>\n");
}

void
tr_svg_end(struct tr_out *o)
{
	tr_out_str(o, "</svg>\n");
}

void
tr_svg_text(struct tr_out *o, double x, double y, const char *anchor,
    const char *attr, const char *s)
{
	tr_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>",
	    x, y, anchor, attr ? " " : "", attr ? attr : "");
	tr_svg_escs(o, s);
	tr_out_str(o, "</text>\n");
}

void
tr_svg_title(struct tr_out *o, double w, const char *title)
{
	if (title && *title)
		tr_svg_text(o, w / 2, 20, "middle",
		    "font-size=\"15\" font-weight=\"bold\"", title);
}

/* An axis along the range of s at pos (y for TR_AXIS_X, x for
 * TR_AXIS_Y), with grid lines across to gridto. The label gets the
 * unit chosen for the ticks appended. */
void
tr_svg_axis(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label)
{
	double t[TR_MAXTICKS];
	int n = tr_scale_ticks(s, which == TR_AXIS_X ? 8 : 6, t);

	tr_svg_axis_at(o, s, which, pos, gridto, unit, label, t, n);
}

void
tr_svg_axis_at(struct tr_out *o, const struct tr_scale *s, int which,
    double pos, double gridto, int unit, const char *label,
    const double *t, int n)
{
	double f, step;
	const char *un;
	char buf[32], lab[256];
	int i;

	step = n > 1 ? t[1] - t[0] : fabs(s->d1 - s->d0);
	if (s->log)
		step = n > 0 ? t[0] : 1;
	f = tr_svg_unit(unit, step, &un);
	tr_out_str(o, "<g class=\"axis\" stroke=\"#000\">\n");
	if (which == TR_AXIS_X)
		tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		    "y2=\"%.1f\"/>\n", s->r0, s->r1, pos, pos);
	else
		tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		    "y2=\"%.1f\"/>\n", pos, pos, s->r0, s->r1);
	for (i = 0; i < n; i++) {
		double p = tr_scale_map(s, t[i]);

		if (which == TR_AXIS_X)
			tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" "
			    "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#e4e4e4\"/>\n", p, p, pos, pos + 5, p,
			    p, pos, gridto);
		else
			tr_out_printf(o, "<line x1=\"%.1f\" x2=\"%.1f\" "
			    "y1=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" "
			    "x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"#e4e4e4\"/>\n", pos - 5, pos, p, p,
			    pos, gridto, p, p);
	}
	tr_out_str(o, "</g>\n<g class=\"ticks\">\n");
	for (i = 0; i < n; i++) {
		double p = tr_scale_map(s, t[i]);

		tr_svg_num(buf, t[i] / f);
		if (which == TR_AXIS_X)
			tr_svg_text(o, p, pos + 18, "middle", NULL, buf);
		else
			tr_svg_text(o, pos - 8, p + 4, "end", NULL, buf);
	}
	tr_out_str(o, "</g>\n");
	if (!label)
		return;
	if (un)
		snprintf(lab, sizeof lab, "%s (%s)", label, un);
	else
		snprintf(lab, sizeof lab, "%s", label);
	if (which == TR_AXIS_X) {
		tr_svg_text(o, (s->r0 + s->r1) / 2, pos + 36, "middle",
		    "class=\"label\"", lab);
	} else {
		double y = (s->r0 + s->r1) / 2, x = pos - 52;

		tr_out_printf(o, "<text transform=\"translate(%.1f,%.1f) "
		    "rotate(-90)\" text-anchor=\"middle\" class=\"label\">",
		    x, y);
		tr_svg_escs(o, lab);
		tr_out_str(o, "</text>\n");
	}
}

/* Legend entries in a row that wraps at width w; each entry names the
 * class its data elements carry, so the report can toggle them.
 * Returns the height used. */
double
tr_svg_legend(struct tr_out *o, double x, double y, double w, int n,
    const char *const *names, const char *const *colors,
    const char *const *classes)
{
	double cx = x, cy = y;
	int i;

	tr_out_str(o, "<g class=\"legend\">\n");
	for (i = 0; i < n; i++) {
		double tw = 7.0 * (double)strlen(names[i]) + 28;

		if (cx > x && cx + tw > x + w) {
			cx = x;
			cy += 18;
		}
		tr_out_str(o, "<g class=\"legend-item\" data-series=\"");
		tr_svg_escs(o, classes[i]);
		tr_out_printf(o, "\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
		    "height=\"12\" fill=\"%s\" stroke=\"#555\" "
		    "stroke-width=\"0.5\"/>", cx, cy - 10, colors[i]);
		tr_svg_text(o, cx + 16, cy, "start", NULL, names[i]);
		tr_out_str(o, "</g>\n");
		cx += tw;
	}
	tr_out_str(o, "</g>\n");
	return cy - y + 18;
}
