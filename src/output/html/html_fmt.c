// SPDX-License-Identifier: GPL-2.0
/*
 * Text for the HTML report: every string the page shows goes through
 * here, so that one escaping rule covers task names from the kernel
 * (which may hold anything, and must still leave well-formed XML) and
 * one set of units covers every figure, whichever section writes it.
 * The numbers come out short and in the unit a reader expects, with
 * thresholds that never print "1000.0 µs", and axis steps that land on
 * round values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "output/html/html_fmt.h"

/* ---- escaping ---------------------------------------------------------- */

/* Where escaped text goes: a stream, or a bounded buffer (for tests). */
struct sink {
	FILE *f;
	char *buf;
	size_t len;
	size_t pos;
};

static void sink_put(struct sink *s, const char *p, size_t n)
{
	size_t i;

	if (s->f) {
		fwrite(p, 1, n, s->f);
		return;
	}
	for (i = 0; i < n; i++, s->pos++)
		if (s->len && s->pos < s->len - 1)
			s->buf[s->pos] = p[i];
}

/*
 * Length of the well-formed UTF-8 sequence at p that XML 1.0 accepts, 0
 * when there is none: overlong forms, surrogates and U+FFFE/U+FFFF are
 * refused, so that a parser never chokes on what a kernel comm held.
 */
static size_t utf8_len(const unsigned char *p)
{
	uint32_t cp;
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static void escape_to(struct sink *s, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;
	size_t n;

	while (p && *p) {
		switch (*p) {
		case '&':
			sink_put(s, "&amp;", 5);
			break;
		case '<':
			sink_put(s, "&lt;", 4);
			break;
		case '>':
			sink_put(s, "&gt;", 4);
			break;
		case '"':
			sink_put(s, "&quot;", 6);
			break;
		case '\'':
			sink_put(s, "&#39;", 5);
			break;
		default:
			if (*p >= 0x80) {
				n = utf8_len(p);
				if (n) {
					sink_put(s, (const char *)p, n);
					p += n;
				} else {
					sink_put(s, "\xef\xbf\xbd", 3);
					p++;
				}
				continue;
			}
			/* XML 1.0 has no way to write most control codes. */
			if ((*p < 0x20 && *p != '\t' && *p != '\n' &&
			     *p != '\r') || *p == 0x7f)
				sink_put(s, "?", 1);
			else
				sink_put(s, (const char *)p, 1);
		}
		p++;
	}
}

size_t report_html_escape(char *dst, size_t len, const char *s)
{
	struct sink k = { .buf = dst, .len = len };

	escape_to(&k, s);
	if (len)
		dst[k.pos < len ? k.pos : len - 1] = '\0';
	return k.pos;
}

/* s escaped as report_html_escape does, straight into f. */
void html_esc(FILE *f, const char *s)
{
	struct sink k = { .f = f };

	escape_to(&k, s);
}

/* ---- numbers ----------------------------------------------------------- */

/* "512 B", "64.0 kB", "1.5 MB". */
const char *fmt_bytes(char *b, size_t n, double v)
{
	if (v < 999.5)
		snprintf(b, n, "%.0f B", v);
	else if (v < 999.95e3)
		snprintf(b, n, "%.1f kB", v / 1e3);
	else
		snprintf(b, n, "%.1f MB", v / 1e6);
	return b;
}

/* A rate with three significant digits: "950", "95.5 k", "1.23 M". */
const char *fmt_rate(char *b, size_t n, double v)
{
	if (v < 999.5)
		snprintf(b, n, "%.0f", v);
	else if (v < 999.5e3)
		snprintf(b, n, "%.3g k", v / 1e3);
	else
		snprintf(b, n, "%.3g M", v / 1e6);
	return b;
}

/* fmt_rate as an axis tick label (its step does not change how it reads). */
const char *fmt_rate_tick(char *b, size_t n, double v, double step)
{
	(void)step;
	return fmt_rate(b, n, v);
}

/* Decade tick labels: 1 µs, 10 µs ... or 100 B, 1 kB ... */
const char *fmt_decade(char *b, size_t n, double v, bool bytes)
{
	static const char *const ns_units[] = { "ns", "µs", "ms", "s" };
	static const char *const b_units[] = { "B", "kB", "MB", "GB" };
	const char *const *u = bytes ? b_units : ns_units;
	int i = 0;

	while (v >= 999.5 && i < 3) {
		v /= 1000;
		i++;
	}
	snprintf(b, n, "%.0f %s", v, u[i]);
	return b;
}

/* An axis tick in the unit its step is counted in: "0", "200 ms". */
const char *fmt_ns_tick(char *b, size_t n, double v, double step)
{
	static const struct {
		double scale;
		const char *unit;
	} u[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" }, { 1, "ns" } };
	size_t i;

	if (v <= 0) {
		snprintf(b, n, "0");
		return b;
	}
	for (i = 0; i < 3 && step < u[i].scale; i++)
		;
	snprintf(b, n, "%g %s", v / u[i].scale, u[i].unit);
	return b;
}

/* A step of 1, 2 or 5 times a power of ten giving about want ticks. */
double nice_step(double max, int want)
{
	double raw, mag, r;

	if (max <= 0)
		return 1;
	raw = max / want;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	return mag * (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10);
}
