// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-compare --json: the comparison for scripts, as JSON lines
 * like the result files it reads.  A header object says what the
 * statistics are (base, level, resamples, the difference runs_needed is
 * for), so that a row's figures can be read without the command line that
 * made them; every row has every field, null when the table shows '-',
 * so that readers need not test for absent keys.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "analysis/compare.h"
#include "analysis/infer.h"
#include "output/json/explain_json.h"

static json_t *num_or_null(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

/* A string, with the bytes of a name that is not UTF-8 turned to '?'. */
static json_t *text(const char *s)
{
	json_t *j;
	char *c, *p;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	c = strdup(s);
	if (!c)
		return NULL;
	for (p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

/* Sets key to v (reference stolen); -1 when v is NULL or setting failed. */
static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new(o, key, v) ? -1 : 0;
}

static json_t *row_json(const struct cmp_row *r, const struct cmp_ctx *c)
{
	const struct cmp_input *in = c->in;
	json_t *o = json_object(), *ci;
	bool have = r->runs > 0;
	int err = 0;

	if (!o)
		return NULL;
	ci = r->has_ci ? json_pack("[ff]", r->ci[0], r->ci[1]) : json_null();
	err |= set(o, "label", text(r->label));
	err |= set(o, "file", text(in[r->input].file.path));
	err |= set(o, "sweep", r->g->sweep ? json_incref(r->g->sweep) :
					       json_null());
	err |= set(o, "runs", json_integer(r->runs));
	err |= set(o, "runs_attempted", json_integer(r->attempted));
	err |= set(o, "avg", num_or_null(have, r->avg));
	err |= set(o, "min", num_or_null(have, r->min));
	err |= set(o, "max", num_or_null(have, r->max));
	err |= set(o, "base", json_boolean(r->is_base));
	err |= set(o, "ratio", num_or_null(r->has_ratio, r->ratio));
	err |= set(o, "ratio_ci95", ci);
	err |= set(o, "significant", r->has_ci ? json_boolean(r->significant) :
						 json_null());
	err |= set(o, "p_value", num_or_null(r->has_p, r->p));
	err |= set(o, "runs_needed", r->runs_needed ?
				     json_integer(r->runs_needed) :
				     json_null());
	err |= set(o, "noise", num_or_null(!isnan(r->noise), r->noise));
	err |= set(o, "msg_p99_ns", num_or_null(r->has_lat, r->lat_p99));
	err |= set(o, "rq_p99_ns", num_or_null(r->has_rq, r->rq_p99));
	err |= set(o, "kernel_release", text(cmp_row_kernel(r, in)));
	if (c->explain)
		err |= set(o, "explain", r->ex ?
			   explain_json(r->ex, r->label,
					in[c->base].label) :
			   json_null());
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *header_json(const struct cmp_ctx *c)
{
	const struct cmp_input *b = &c->in[c->base];

	return json_pack("{s:{s:o,s:o,s:f,s:f,s:f,s:f,s:i,s:i,s:s,s:s,s:s}}",
			 "compare",
			 "base", text(b->label),
			 "base_file", text(b->file.path),
			 "resolve", c->resolve,
			 "level", INFER_LEVEL,
			 "alpha", INFER_ALPHA,
			 "power", INFER_POWER,
			 "resamples", INFER_BOOT_B,
			 "min_runs", 2,
			 "interval", "percentile bootstrap of the ratio of means",
			 "test", "two-sided Mann-Whitney U",
			 "noise", "pooled relative robust SD, 1.4826 MAD / median");
}

/* One object as one line on stdout; -1 when it could not be made. */
static int put(json_t *o)
{
	char *line;

	if (!o)
		return -1;
	/* 15 digits: 0.95, not 0.94999999999999996 */
	line = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(15));
	json_decref(o);
	if (!line)
		return -1;
	puts(line);
	free(line);
	return 0;
}

int cmp_print_json(const struct cmp_row *rows, size_t n,
		   const struct cmp_ctx *c)
{
	size_t i;

	if (put(header_json(c)))
		return -1;
	for (i = 0; i < n; i++)
		if (put(row_json(&rows[i], c)))
			return -1;
	return 0;
}
