// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs for the HTML report (svg_flame.h).  The tree is an array
 * in which a callee always comes after its caller, so that every pass
 * over it is a loop in index order, never a recursion a deep stack from
 * a file could exhaust.  Callees are drawn widest first (ties by name),
 * so that the same profile always draws the same picture and the heavy
 * paths sit on the left.  The weight of a graph is bounded twice: frames
 * too narrow to read are summed into one per caller, and the bar they
 * must pass rises until at most max_frames remain.  Labels are cut to
 * the width of their frame by counting characters of a monospace font,
 * since an SVG cannot clip text to a box without a clip path per frame.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "output/html/html_fmt.h"
#include "output/html/svg_flame.h"

#define FL_W		1100.0	/* viewBox width: the page's text */
#define FL_ROW		16.0	/* one level of the stack */
#define FL_CHAR_W	6.7	/* 11px monospace is 6.6: never overflow */
#define FL_PAD		3.0	/* text inside its frame */
#define FL_BAR_STEP	1.25	/* the bar's rise while over budget */
#define FL_SMALL_COLOUR	"#d4d4d4"
#define STR_(x)		#x
#define STR(x)		STR_(x)

/* ---- the tree ---------------------------------------------------------- */

static size_t new_node(struct flame *fl, size_t parent, const char *name,
		       size_t len)
{
	struct flame_node *n;

	if (fl->len == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 64;

		n = realloc(fl->n, cap * sizeof(*n));
		if (!n)
			return FLAME_NONE;
		fl->n = n;
		fl->cap = cap;
	}
	n = &fl->n[fl->len];
	memset(n, 0, sizeof(*n));
	n->name = strndup(name, len);
	if (!n->name)
		return FLAME_NONE;
	n->parent = parent;
	n->child = n->next = n->last = FLAME_NONE;
	if (parent != FLAME_NONE) {
		struct flame_node *p = &fl->n[parent];

		n->depth = p->depth + 1;
		if (p->last == FLAME_NONE)
			p->child = fl->len;
		else
			fl->n[p->last].next = fl->len;
		p->last = fl->len;
	}
	return fl->len++;
}

int flame_init(struct flame *fl, const char *root)
{
	memset(fl, 0, sizeof(*fl));
	if (new_node(fl, FLAME_NONE, root, strlen(root)) == FLAME_NONE) {
		flame_free(fl);
		return -1;
	}
	return 0;
}

void flame_free(struct flame *fl)
{
	size_t i;

	for (i = 0; i < fl->len; i++)
		free(fl->n[i].name);
	free(fl->n);
	memset(fl, 0, sizeof(*fl));
}

size_t flame_child(struct flame *fl, size_t at, const char *name,
		   size_t len)
{
	size_t c;

	for (c = fl->n[at].child; c != FLAME_NONE; c = fl->n[c].next)
		if (!strncmp(fl->n[c].name, name, len) &&
		    !fl->n[c].name[len])
			return c;
	return new_node(fl, at, name, len);
}

/*
 * Sums saturate: a file's counts may add up past 64 bits, and a callee
 * must never come out wider than its caller.
 */
static void sat_add(uint64_t *to, uint64_t v)
{
	*to = v > UINT64_MAX - *to ? UINT64_MAX : *to + v;
}

int flame_add(struct flame *fl, size_t at, const char *stack, uint64_t v)
{
	const char *s = stack ? stack : "", *e;
	size_t p;

	for (p = at; p != FLAME_NONE; p = fl->n[p].parent)
		sat_add(&fl->n[p].value, v);
	while (*s) {
		e = strchr(s, ';');
		if (!e)
			e = s + strlen(s);
		if (e > s) {
			at = flame_child(fl, at, s, (size_t)(e - s));
			if (at == FLAME_NONE)
				return -1;
			sat_add(&fl->n[at].value, v);
		}
		s = *e ? e + 1 : e;
	}
	sat_add(&fl->n[at].self, v);
	return 0;
}

/* ---- colour ------------------------------------------------------------ */

/*
 * FNV-1a of the name picks a point of the "hot" palette of the classic
 * flame graphs (red through orange to yellow): the same function has the
 * same colour in every graph of the page, and neighbours differ.
 */
const char *flame_colour(char *b, size_t n, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 2166136261u;

	for (; *p; p++)
		h = (h ^ *p) * 16777619u;
	snprintf(b, n, "#%02x%02x%02x", 205 + (h >> 16 & 0xff) * 50 / 255,
		 (h & 0xff) * 230 / 255, (h >> 8 & 0xff) * 55 / 255);
	return b;
}

/* ---- layout ------------------------------------------------------------ */

struct kid {
	uint64_t value;
	const char *name;
	size_t i;
};

/* What is drawn at one bar: callees widest first, places, merged tails. */
struct layout {
	struct kid *kids;	/* by caller: kids[first[i] .. first[i + 1]) */
	size_t *first;
	double *x;		/* drawn frames' left edge, in root values */
	uint64_t *small;	/* narrow callees' values, summed by caller */
	size_t *nsmall;
	double bar;		/* narrower than this: not drawn alone */
};

static int by_width(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void layout_free(struct layout *l)
{
	free(l->kids);
	free(l->first);
	free(l->x);
	free(l->small);
	free(l->nsmall);
}

static int layout_init(struct layout *l, const struct flame *fl)
{
	size_t i, n = fl->len, *fill;

	memset(l, 0, sizeof(*l));
	l->kids = calloc(n, sizeof(*l->kids));
	l->first = calloc(n + 1, sizeof(*l->first));
	l->x = calloc(n, sizeof(*l->x));
	l->small = calloc(n, sizeof(*l->small));
	l->nsmall = calloc(n, sizeof(*l->nsmall));
	fill = calloc(n, sizeof(*fill));
	if (!l->kids || !l->first || !l->x || !l->small || !l->nsmall ||
	    !fill) {
		free(fill);
		layout_free(l);
		return -1;
	}
	for (i = 1; i < n; i++)
		l->first[fl->n[i].parent + 1]++;
	for (i = 0; i < n; i++)
		l->first[i + 1] += l->first[i];
	for (i = 1; i < n; i++) {
		size_t p = fl->n[i].parent;
		struct kid *k = &l->kids[l->first[p] + fill[p]++];

		k->value = fl->n[i].value;
		k->name = fl->n[i].name;
		k->i = i;
	}
	free(fill);
	for (i = 0; i < n; i++)
		qsort(l->kids + l->first[i], l->first[i + 1] - l->first[i],
		      sizeof(*l->kids), by_width);
	return 0;
}

static bool drawn(const struct flame *fl, const struct layout *l, size_t i)
{
	return !i || (double)fl->n[i].value >= l->bar;
}

/*
 * Places the frames drawn at l->bar and sums the narrow callees of each;
 * returns how many frames that draws, merged ones included.  A callee is
 * never wider than its caller, so a drawn frame's callers are drawn.
 */
static size_t place(const struct flame *fl, struct layout *l)
{
	size_t i, j, n = 0;
	double cur;

	memset(l->small, 0, fl->len * sizeof(*l->small));
	memset(l->nsmall, 0, fl->len * sizeof(*l->nsmall));
	for (i = 0; i < fl->len; i++) {
		if (!drawn(fl, l, i))
			continue;
		n++;
		cur = l->x[i];
		for (j = l->first[i]; j < l->first[i + 1]; j++) {
			const struct kid *k = &l->kids[j];

			if (drawn(fl, l, k->i)) {
				l->x[k->i] = cur;
				cur += (double)k->value;
			} else {
				sat_add(&l->small[i], k->value);
				l->nsmall[i]++;
			}
		}
		n += (double)l->small[i] >= l->bar;
	}
	return n;
}

/* ---- drawing ----------------------------------------------------------- */

/* Bytes of the first chars characters of s (UTF-8), for a cut label. */
static size_t utf8_prefix(const char *s, size_t chars, size_t *total)
{
	size_t i, n = 0, cut = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (n++ == chars)
			cut = i;
	}
	*total = n;
	return n > chars ? cut : i;
}

/* The name as much of it fits w units, ".." marking a cut; "" if none. */
static void label(FILE *f, const char *name, double w)
{
	double room = floor((w - 2 * FL_PAD) / FL_CHAR_W);
	char buf[1024];
	size_t chars, n, total;

	if (room < 3)
		return;
	chars = (size_t)room;
	n = utf8_prefix(name, chars, &total);
	if (total <= chars) {
		html_esc(f, name);
		return;
	}
	n = utf8_prefix(name, chars - 2, &total);
	if (n > sizeof(buf) - 3)
		n = 0;	/* cannot be: the widest frame holds 160 chars */
	memcpy(buf, name, n);
	memcpy(buf + n, "..", 3);
	html_esc(f, buf);
}

static const char *plain_value(char *b, size_t n, double v)
{
	snprintf(b, n, "%.0f", v);
	return b;
}

struct frame {
	const char *name;
	const char *cls;
	const char *colour;
	double x, w;		/* in units of the root */
	unsigned int depth;
	uint64_t value;
};

static void frame(FILE *f, const struct frame *fr, uint64_t total,
		  flame_value_fn *fn)
{
	char v[48], c[8];
	double share = 100.0 * (double)fr->value / (double)total;

	fprintf(f, "<g class=\"%s\" data-x=\"%.6g\" data-w=\"%.6g\"><title>",
		fr->cls, fr->x, fr->w);
	html_esc(f, fr->name);
	fprintf(f, "\n%s · %.3g %%</title>",
		fn(v, sizeof(v), (double)fr->value), share);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"/>",
		fr->x * FL_W, fr->depth * FL_ROW, fr->w * FL_W, FL_ROW - 1,
		fr->colour ? fr->colour :
			     flame_colour(c, sizeof(c), fr->name));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", fr->x * FL_W + FL_PAD,
		fr->depth * FL_ROW + 11.5);
	label(f, fr->name, fr->w * FL_W);
	fputs("</text></g>\n", f);
}

/* The frame of the narrow callees of drawn frame i, when wide enough. */
static void small_frame(FILE *f, const struct flame *fl,
			const struct layout *l, size_t i, flame_value_fn *fn)
{
	uint64_t total = fl->n[0].value;
	struct frame fr = {
		.cls = "fr small",
		.colour = FL_SMALL_COLOUR,
		.depth = fl->n[i].depth + 1,
		.value = l->small[i],
	};
	char name[48];
	size_t j;

	if ((double)l->small[i] < l->bar)
		return;
	fr.x = l->x[i];
	for (j = l->first[i]; j < l->first[i + 1]; j++)
		if (drawn(fl, l, l->kids[j].i))
			fr.x += (double)l->kids[j].value;
	fr.x /= (double)total;
	fr.w = (double)l->small[i] / (double)total;
	snprintf(name, sizeof(name), "[%zu small frames]", l->nsmall[i]);
	fr.name = name;
	frame(f, &fr, total, fn);
}

size_t flame_draw(FILE *f, const struct flame *fl,
		  const struct flame_opts *o)
{
	size_t max = o && o->max_frames ? o->max_frames : FLAME_MAX_FRAMES;
	double share = o && o->min_share > 0 ? o->min_share : FLAME_MIN_SHARE;
	flame_value_fn *fn = o && o->value ? o->value : plain_value;
	uint64_t total = fl->len ? fl->n[0].value : 0;
	unsigned int depth = 0;
	struct layout l;
	size_t i, n;

	if (!total || layout_init(&l, fl))
		return 0;
	/* Zero-valued frames (a stack of count 0) are never drawn. */
	l.bar = share * (double)total > 1 ? share * (double)total : 1;
	n = place(fl, &l);
	while (n > max && l.bar <= (double)total) {
		l.bar *= FL_BAR_STEP;
		n = place(fl, &l);
	}
	for (i = 0; i < fl->len; i++) {
		unsigned int d = fl->n[i].depth +
				 ((double)l.small[i] >= l.bar);

		if (drawn(fl, &l, i) && d > depth)
			depth = d;
	}
	fprintf(f, "<svg class=\"flame\" viewBox=\"0 0 %.0f %.0f\" width=\"100%%\" data-frames=\"%zu\" data-total=\"%llu\">\n",
		FL_W, (depth + 1) * FL_ROW, n, (unsigned long long)total);
	for (i = 0; i < fl->len; i++) {
		struct frame fr = {
			.name = fl->n[i].name,
			.cls = "fr",
			.colour = i ? NULL : o ? o->root_colour : NULL,
			.x = l.x[i] / (double)total,
			.w = (double)fl->n[i].value / (double)total,
			.depth = fl->n[i].depth,
			.value = fl->n[i].value,
		};

		if (!drawn(fl, &l, i))
			continue;
		frame(f, &fr, total, fn);
		small_frame(f, fl, &l, i, fn);
	}
	fputs("</svg>\n", f);
	layout_free(&l);
	return n;
}

/* ---- the page's parts -------------------------------------------------- */

void flame_css(FILE *f)
{
	fputs(".flame{margin:2px 0 8px}\n"
	      ".flame .fr{cursor:pointer}\n"
	      ".flame .fr rect{stroke:#fff;stroke-width:.5}\n"
	      ".flame .fr:hover rect{stroke:#1d1d1f;stroke-width:1}\n"
	      ".flame text{font-family:'DejaVu Sans Mono',Menlo,Consolas,"
	      "monospace;"
	      "font-size:11px;fill:#1d1d1f;pointer-events:none}\n", f);
}

/*
 * The zoom, written for both parsers that read the page: the HTML one
 * (the script is raw text) and the XML one of the tests (so no '<' and
 * no '&' in it, and no "//", which the tests take for a fetch).  A
 * frame's depth is its rect's y; containment allows for the six
 * decimals of data-x and data-w, far below the narrowest frame drawn.
 */
static const char zoom_js[] =
	"(function () {\n"
	"var CW = " STR(FL_CHAR_W) ", PAD = " STR(FL_PAD) ", EPS = 1e-5;\n"
	"function num(e, a) { return parseFloat(e.getAttribute(a)); }\n"
	"function fit(s, w) {\n"
	"\tvar n = Math.floor((w - 2 * PAD) / CW);\n"
	"\tif (3 > n) return '';\n"
	"\treturn n >= s.length ? s : s.slice(0, n - 2) + '..';\n"
	"}\n"
	"function zoom(g) {\n"
	"\tvar svg = g.ownerSVGElement, W = svg.viewBox.baseVal.width;\n"
	"\tvar x0 = num(g, 'data-x'), w0 = num(g, 'data-w');\n"
	"\tvar d0 = num(g.querySelector('rect'), 'y');\n"
	"\tvar all = svg.querySelectorAll('g.fr'), i;\n"
	"\tfor (i = 0; all.length > i; i++) {\n"
	"\t\tvar f = all[i], r = f.querySelector('rect');\n"
	"\t\tvar t = f.querySelector('text'), s = f.querySelector('title');\n"
	"\t\tvar x = num(f, 'data-x'), w = num(f, 'data-w'), d = num(r, 'y');\n"
	"\t\tvar up = d0 > d, show, nx, nw;\n"
	"\t\tif (d0 >= d)\n"
	"\t\t\tshow = x0 + EPS >= x ? x + w + EPS >= x0 + w0 : false;\n"
	"\t\telse\n"
	"\t\t\tshow = x + EPS >= x0 ? x0 + w0 + EPS >= x + w : false;\n"
	"\t\tf.style.display = show ? '' : 'none';\n"
	"\t\tif (!show)\n"
	"\t\t\tcontinue;\n"
	"\t\tnx = up ? 0 : (x - x0) / w0;\n"
	"\t\tnw = up ? 1 : w / w0;\n"
	"\t\tf.style.opacity = up ? '0.6' : '';\n"
	"\t\tr.setAttribute('x', (nx * W).toFixed(1));\n"
	"\t\tr.setAttribute('width', (nw * W).toFixed(1));\n"
	"\t\tt.setAttribute('x', (nx * W + PAD).toFixed(1));\n"
	"\t\ts = s.textContent;\n"
	"\t\tt.textContent = fit(s.slice(0, s.lastIndexOf('\\n')), nw * W);\n"
	"\t}\n"
	"}\n"
	"document.addEventListener('click', function (e) {\n"
	"\tvar g = e.target.closest ?\n"
	"\t\te.target.closest('svg.flame g.fr') : null;\n"
	"\tif (g)\n"
	"\t\tzoom(g);\n"
	"});\n"
	"})();\n";

void flame_script(FILE *f)
{
	fputs("<script>\n", f);
	fputs(zoom_js, f);
	fputs("</script>\n", f);
}
