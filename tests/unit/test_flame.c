// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the HTML report's flame graphs (src/output/html/
 * svg_flame.c): stacks read from JSON text into a tree, drawn into a
 * memory stream, and the SVG read back.  A known tree must draw one rect
 * per frame, every frame as wide as its callees plus its own value,
 * widest callee first; frames under the bar must be summed per caller
 * or left out; the frame budget must hold; names must be escaped and cut
 * to their frame without breaking a character; colours must be warm and
 * the same for the same name; the zoom script must survive an XML
 * parser and never look like a fetch.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "unit_util.h"
#include <jansson.h>

#include "output/html/svg_flame.h"

#define ROW	16	/* FL_ROW: a level's height */

/* A tree from [{"stack": ..., "count": n}, ...]. */
static void load(struct flame *fl, const char *root, const char *text)
{
	json_error_t e;
	json_t *a = json_loads(text, 0, &e), *s;
	size_t i;

	if (!a)
		fail_msg("bad test JSON: %s", e.text);
	assert_int_equal(flame_init(fl, root), 0);
	json_array_foreach(a, i, s)
		assert_int_equal(flame_add(fl, 0, json_string_value(
				 json_object_get(s, "stack")),
				 (uint64_t)json_integer_value(
				 json_object_get(s, "count"))), 0);
	json_decref(a);
}

static char *draw(const struct flame *fl, const struct flame_opts *o,
		  size_t *frames)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*frames = flame_draw(f, fl, o);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A frame as the SVG has it. */
struct pf {
	char name[128];
	double x, w;
	int depth;
};

static size_t parse(const char *svg, struct pf *out, size_t max)
{
	const char *p = svg, *t, *nl;
	size_t n = 0;
	int y;

	while ((p = strstr(p, "<g class=\"fr")) && n < max) {
		p = strstr(p, "data-x=");
		assert_non_null(p);
		assert_int_equal(sscanf(p, "data-x=\"%lf\" data-w=\"%lf\"",
					&out[n].x, &out[n].w), 2);
		t = strstr(p, "<title>") + 7;
		nl = strchr(t, '\n');
		assert_true(nl - t < (long)sizeof(out[n].name));
		memcpy(out[n].name, t, (size_t)(nl - t));
		out[n].name[nl - t] = '\0';
		p = strstr(nl, "<rect");
		p = strstr(p, " y=\"");
		assert_non_null(p);
		assert_int_equal(sscanf(p, " y=\"%d\"", &y), 1);
		out[n++].depth = y / ROW;
	}
	return n;
}

static const struct pf *find(const struct pf *f, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	fail_msg("no frame %s", name);
	return NULL;
}

static uint64_t self_of(const struct flame *fl, const char *name)
{
	size_t i;

	for (i = 0; i < fl->len; i++)
		if (!strcmp(fl->n[i].name, name))
			return fl->n[i].self;
	return 0;
}

/* Every frame: its callees' widths plus its own value make its width. */
static void assert_widths_add_up(const struct flame *fl, const struct pf *f,
				 size_t n)
{
	double total = (double)fl->n[0].value, sum;
	size_t i, j;

	for (i = 0; i < n; i++) {
		sum = (double)self_of(fl, f[i].name) / total;
		for (j = 0; j < n; j++)
			if (f[j].depth == f[i].depth + 1 &&
			    f[j].x >= f[i].x - 1e-6 &&
			    f[j].x + f[j].w <= f[i].x + f[i].w + 1e-6)
				sum += f[j].w;
		assert_float_equal(sum, f[i].w, 1e-5);
	}
}

static void test_tree(void **state)
{
	struct flame fl;
	struct pf f[16];
	size_t frames, n;
	char *svg;

	(void)state;
	load(&fl, "cli_snd",
	     "[{\"stack\":\"a;b\",\"count\":3},{\"stack\":\"a;c\",\"count\":2},"
	     "{\"stack\":\"a\",\"count\":1},{\"stack\":\"d\",\"count\":4},"
	     "{\"stack\":\"\",\"count\":2},{\"stack\":\"a;;b;\",\"count\":0}]");
	assert_int_equal(fl.n[0].value, 12);
	assert_int_equal(fl.n[0].self, 2);	/* the empty stack */
	assert_int_equal(fl.len, 5);		/* empty frames skipped */
	svg = draw(&fl, NULL, &frames);
	assert_int_equal(frames, 5);
	assert_int_equal(count(svg, "<rect"), 5);
	assert_int_equal(count(svg, "<g class=\"fr\""), 5);
	assert_non_null(strstr(svg, "data-frames=\"5\" data-total=\"12\""));
	n = parse(svg, f, 16);
	assert_int_equal(n, 5);
	assert_widths_add_up(&fl, f, n);
	/* Widest first: a (6) then d (4); under a, b (3) then c (2). */
	assert_float_equal(find(f, n, "cli_snd")->w, 1, 1e-9);
	assert_float_equal(find(f, n, "a")->x, 0, 1e-9);
	assert_float_equal(find(f, n, "a")->w, 0.5, 1e-6);
	assert_float_equal(find(f, n, "d")->x, 0.5, 1e-6);
	assert_float_equal(find(f, n, "b")->x, 0, 1e-9);
	assert_float_equal(find(f, n, "c")->x, 0.25, 1e-6);
	assert_float_equal(find(f, n, "c")->w, 2.0 / 12, 1e-6);
	assert_int_equal(find(f, n, "c")->depth, 2);
	/* The title: name, value, share of the root. */
	assert_non_null(strstr(svg, "<title>a\n6 · 50 %</title>"));
	free(svg);
	flame_free(&fl);
}

static void test_small_frames(void **state)
{
	struct flame fl;
	struct pf f[16];
	size_t frames, n;
	char *svg;

	(void)state;
	/* The bar is 0.1 % of 10000: 10. */
	load(&fl, "root",
	     "[{\"stack\":\"big\",\"count\":9964},"
	     "{\"stack\":\"x;t1\",\"count\":5},"
	     "{\"stack\":\"x;t2\",\"count\":6},"
	     "{\"stack\":\"y\",\"count\":20},"
	     "{\"stack\":\"y;t3\",\"count\":5}]");
	svg = draw(&fl, NULL, &frames);
	/* root, big, x, y, and x's two narrow callees as one frame. */
	assert_int_equal(frames, 5);
	assert_int_equal(count(svg, "<rect"), 5);
	assert_int_equal(count(svg, "class=\"fr small\""), 1);
	assert_non_null(strstr(svg, "<title>[2 small frames]\n11 · 0.11 %"));
	assert_null(strstr(svg, "<title>t1"));
	assert_null(strstr(svg, "<title>t2"));
	/* t3 alone, 5 of 10000: left out, y keeps its whole width. */
	assert_null(strstr(svg, "<title>t3"));
	n = parse(svg, f, 16);
	assert_float_equal(find(f, n, "y")->w, 25.0 / 10000, 1e-7);
	assert_float_equal(find(f, n, "[2 small frames]")->x,
			   find(f, n, "x")->x, 1e-7);
	free(svg);
	/* A lower bar draws them all. */
	svg = draw(&fl, &(struct flame_opts){ .min_share = 1e-4 }, &frames);
	assert_int_equal(frames, 7);
	assert_non_null(strstr(svg, "<title>t3"));
	assert_null(strstr(svg, "small frames"));
	n = parse(svg, f, 16);
	assert_widths_add_up(&fl, f, n);
	free(svg);
	flame_free(&fl);
}

static void test_budget(void **state)
{
	struct flame fl;
	size_t frames, i;
	char *svg, stack[32];

	(void)state;
	/* 1 + 1000 x 5 frames of exactly 0.1 %: more than the budget. */
	assert_int_equal(flame_init(&fl, "r"), 0);
	for (i = 0; i < 1000; i++) {
		snprintf(stack, sizeof(stack), "f%03zu;a;b;c;d", i);
		assert_int_equal(flame_add(&fl, 0, stack, 1), 0);
	}
	svg = draw(&fl, NULL, &frames);
	assert_true(frames <= FLAME_MAX_FRAMES);
	assert_true(frames >= 1);
	assert_int_equal(count(svg, "<rect"), frames);
	free(svg);
	/* A hot path among many cold ones: a small budget keeps the hot. */
	assert_int_equal(flame_add(&fl, 0, "hot;x;y", 5000), 0);
	svg = draw(&fl, &(struct flame_opts){ .max_frames = 10 }, &frames);
	assert_true(frames <= 10);
	assert_int_equal(count(svg, "<rect"), frames);
	assert_non_null(strstr(svg, "<title>hot\n"));
	assert_non_null(strstr(svg, "<title>y\n"));
	assert_null(strstr(svg, "<title>f000\n"));
	free(svg);
	flame_free(&fl);
}

static void test_escape_and_cut(void **state)
{
	struct flame fl;
	size_t frames;
	char *svg;

	(void)state;
	assert_int_equal(flame_init(&fl, "<r&t>"), 0);
	assert_int_equal(flame_add(&fl, 0, "<evil&frame>;\"q'", 20), 0);
	assert_int_equal(flame_add(&fl, 0, "narrowest", 1), 0);
	assert_int_equal(flame_add(&fl, 0, "éééééééééé", 1), 0);
	svg = draw(&fl, NULL, &frames);
	assert_int_equal(frames, 5);
	assert_non_null(strstr(svg, "<title>&lt;r&amp;t&gt;\n"));
	assert_non_null(strstr(svg, "&lt;evil&amp;frame&gt;</text>"));
	assert_non_null(strstr(svg, "<title>&quot;q&#39;\n"));
	assert_null(strstr(svg, "<evil"));
	assert_null(strstr(svg, "<r&"));
	/* 1 of 22 is 50 units: 6 characters, cut to 4 and "..". */
	assert_non_null(strstr(svg, ">narr..</text>"));
	assert_non_null(strstr(svg, ">éééé..</text>")); /* not bytes */
	assert_null(strstr(svg, "\xef\xbf\xbd"));
	free(svg);
	flame_free(&fl);
	/* Nothing to draw: nothing written. */
	assert_int_equal(flame_init(&fl, "empty"), 0);
	svg = draw(&fl, NULL, &frames);
	assert_int_equal(frames, 0);
	assert_string_equal(svg, "");
	free(svg);
	flame_free(&fl);
}

static void test_colour(void **state)
{
	char a[8], b[8], name[16];
	unsigned int r, g, bl;
	int i;

	(void)state;
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "func_%d", i);
		flame_colour(a, sizeof(a), name);
		assert_string_equal(a, flame_colour(b, sizeof(b), name));
		assert_int_equal(sscanf(a, "#%2x%2x%2x", &r, &g, &bl), 3);
		assert_true(r >= 205 && g <= 230 && bl <= 55);
	}
	assert_string_not_equal(flame_colour(a, sizeof(a), "tcp_sendmsg"),
				flame_colour(b, sizeof(b), "tcp_recvmsg"));
}

static void test_script(void **state)
{
	char *buf = NULL, *body;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	flame_script(f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(strncmp(buf, "<script>\n", 9), 0);
	body = buf + 9;
	assert_non_null(strstr(body, "</script>\n"));
	*strstr(body, "</script>\n") = '\0';
	/* Raw text for HTML, character data for XML: neither < nor &. */
	assert_null(strchr(body, '<'));
	assert_null(strchr(body, '&'));
	assert_null(strstr(body, "//"));
	assert_null(strstr(body, "http"));
	assert_non_null(strstr(body, "data-x"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_small_frames),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_escape_and_cut),
		cmocka_unit_test(test_colour),
		cmocka_unit_test(test_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
