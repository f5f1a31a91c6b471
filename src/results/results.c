// SPDX-License-Identifier: GPL-2.0
/*
 * Loading chat_c --json result files: one JSON object per line, run lines
 * followed by the summary line that closes them, one such group per sweep
 * point.  The reader is strict about what it uses (a run without a numeric
 * throughput is an error, not a zero) and lenient about what it does not
 * know (objects that are neither runs nor summaries are skipped), so that
 * files from later versions that add fields or line kinds still load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/jfield.h"
#include "results/results.h"
#include "util/fmt.h"

/*
 * Reads the listed fields of one object; a required field must be there,
 * any field present must have the right type.
 */
enum field_kind { F_DOUBLE, F_INT, F_U64, F_BOOL, F_STR };

struct field {
	const char *key;
	enum field_kind kind;
	bool required;
	void *dst;
};

static int get_fields(const json_t *o, const char *what,
		      const struct field *f, size_t n, size_t line, char *err,
		      size_t len)
{
	static const char *const kind_name[] = {
		[F_DOUBLE] = "a number", [F_INT] = "an integer",
		[F_U64] = "a non-negative integer", [F_BOOL] = "true or false",
		[F_STR] = "a string",
	};
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		switch (f[i].kind) {
		case F_DOUBLE:
			rc = jf_double(o, f[i].key, f[i].dst);
			break;
		case F_INT:
			rc = jf_int(o, f[i].key, f[i].dst);
			break;
		case F_U64:
			rc = jf_u64(o, f[i].key, f[i].dst);
			break;
		case F_BOOL:
			rc = jf_bool(o, f[i].key, f[i].dst);
			break;
		default:
			rc = jf_str(o, f[i].key, f[i].dst);
			break;
		}
		if (rc < 0) {
			fmt_err(err, len, "line %zu: %s field \"%s\" is not %s",
				line, what, f[i].key, kind_name[f[i].kind]);
			return -1;
		}
		if (rc > 0 && f[i].required) {
			fmt_err(err, len, "line %zu: %s has no \"%s\"", line,
				what, f[i].key);
			return -1;
		}
	}
	return 0;
}

bool results_sweep_equal(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return a == b;
	return json_equal((json_t *)a, (json_t *)b);
}

/* The "sweep" member of o: NULL when absent, -1 when malformed. */
static int read_sweep(const json_t *o, size_t line, const json_t **out,
		      char *err, size_t len)
{
	const json_t *s = json_object_get(o, "sweep");

	*out = NULL;
	if (!s || json_is_null(s))
		return 0;
	if (!json_is_object(s) || !json_is_string(json_object_get(s, "param")) ||
	    !json_object_get(s, "value")) {
		fmt_err(err, len,
			"line %zu: \"sweep\" is not {\"param\": NAME, \"value\": V}",
			line);
		return -1;
	}
	*out = s;
	return 0;
}

static void sweep_label(struct result_group *g)
{
	const json_t *v = json_object_get(g->sweep, "value");
	char *dump;

	if (json_is_integer(v)) {
		snprintf(g->sweep_label, sizeof(g->sweep_label), "%s=%lld",
			 g->sweep_param, (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		snprintf(g->sweep_label, sizeof(g->sweep_label), "%s=%g",
			 g->sweep_param, json_real_value(v));
	} else if (json_is_string(v)) {
		snprintf(g->sweep_label, sizeof(g->sweep_label), "%s=%s",
			 g->sweep_param, json_string_value(v));
	} else {
		dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(g->sweep_label, sizeof(g->sweep_label), "%s=%s",
			 g->sweep_param, dump ? dump : "?");
		free(dump);
	}
}

/*
 * The group a line at this sweep point belongs to: the latest one still
 * waiting for its summary, or a new one.  A summary closes its group, so
 * two chat_c outputs concatenated into one file stay two groups.
 */
static struct result_group *open_group(struct result_file *f,
				       const json_t *sweep, char *err,
				       size_t len)
{
	struct result_group *g, *ng;
	size_t i;

	for (i = f->nr_groups; i-- > 0;) {
		g = &f->groups[i];
		if (!g->summary.present && results_sweep_equal(g->sweep, sweep))
			return g;
	}
	ng = realloc(f->groups, (f->nr_groups + 1) * sizeof(*ng));
	if (!ng) {
		fmt_err(err, len, "out of memory");
		return NULL;
	}
	f->groups = ng;
	g = &f->groups[f->nr_groups++];
	memset(g, 0, sizeof(*g));
	if (sweep) {
		g->sweep = json_deep_copy(sweep);
		if (!g->sweep) {
			f->nr_groups--;
			fmt_err(err, len, "out of memory");
			return NULL;
		}
		g->sweep_param = json_string_value(json_object_get(g->sweep,
								   "param"));
		sweep_label(g);
	}
	return g;
}

static int parse_run(json_t *o, size_t line, struct result_run *r, char *err,
		     size_t len)
{
	const struct field fields[] = {
		{ "run", F_INT, true, &r->run },
		{ "ok", F_BOOL, true, &r->ok },
		{ "throughput", F_DOUBLE, true, &r->throughput },
		{ "rooms", F_INT, false, &r->rooms },
		{ "messages", F_INT, false, &r->messages },
		{ "users_per_room", F_INT, false, &r->users_per_room },
		{ "messages_sent", F_U64, false, &r->messages_sent },
		{ "messages_received", F_U64, false, &r->messages_received },
		{ "total_messages", F_U64, false, &r->total_messages },
		{ "elapsed_s", F_DOUBLE, false, &r->elapsed_s },
		{ "error", F_STR, false, &r->error },
	};
	const struct field lat[] = {
		{ "count", F_U64, true, &r->lat_count },
		{ "p50_ns", F_U64, false, &r->lat_p50_ns },
		{ "p90_ns", F_U64, false, &r->lat_p90_ns },
		{ "p99_ns", F_U64, true, &r->lat_p99_ns },
		{ "max_ns", F_U64, false, &r->lat_max_ns },
	};
	const json_t *latency, *kernel;
	char why[160];
	int rc;

	memset(r, 0, sizeof(*r));
	r->line = line;
	if (get_fields(o, "run", fields, sizeof(fields) / sizeof(fields[0]),
		       line, err, len))
		return -1;
	latency = json_object_get(o, "latency");
	if (latency && !json_is_null(latency)) {
		if (!json_is_object(latency)) {
			fmt_err(err, len, "line %zu: run \"latency\" is not an object",
				line);
			return -1;
		}
		if (get_fields(latency, "run latency", lat,
			       sizeof(lat) / sizeof(lat[0]), line, err, len))
			return -1;
		r->has_latency = r->lat_count > 0;
	}
	kernel = json_object_get(o, "kernel");
	if (kernel && !json_is_null(kernel)) {
		r->traced = true;
		rc = results_kernel_rq_percentile(kernel, 99, &r->rq_p99_ns, why,
						  sizeof(why));
		if (rc < 0) {
			fmt_err(err, len, "line %zu: %s", line, why);
			return -1;
		}
		r->has_rq_p99 = rc > 0;
	}
	r->json = json_incref(o);
	return 0;
}

static int add_run(struct result_file *f, json_t *o, size_t line, char *err,
		   size_t len)
{
	struct result_group *g;
	const json_t *sweep;
	struct result_run r;

	if (read_sweep(o, line, &sweep, err, len))
		return -1;
	if (parse_run(o, line, &r, err, len))
		return -1;
	g = open_group(f, sweep, err, len);
	if (!g)
		goto fail;
	if (g->nr_runs == g->cap_runs) {
		size_t ncap = g->cap_runs ? g->cap_runs * 2 : 8;
		struct result_run *nr = realloc(g->runs, ncap * sizeof(*nr));

		if (!nr) {
			fmt_err(err, len, "out of memory");
			goto fail;
		}
		g->runs = nr;
		g->cap_runs = ncap;
	}
	g->runs[g->nr_runs++] = r;
	return 0;
fail:
	json_decref(r.json);
	return -1;
}

static int add_summary(struct result_file *f, json_t *line_obj, size_t line,
		       char *err, size_t len)
{
	json_t *o = json_object_get(line_obj, "summary");
	struct result_summary s;
	const struct field fields[] = {
		{ "runs", F_INT, true, &s.runs },
		{ "avg", F_DOUBLE, true, &s.avg },
		{ "min", F_DOUBLE, true, &s.min },
		{ "max", F_DOUBLE, true, &s.max },
		{ "schema_version", F_INT, false, &s.schema_version },
		{ "runs_attempted", F_INT, false, &s.runs_attempted },
		{ "median", F_DOUBLE, false, &s.median },
		{ "mad", F_DOUBLE, false, &s.mad },
		{ "rel_spread", F_DOUBLE, false, &s.rel_spread },
		{ "rooms", F_INT, false, &s.rooms },
		{ "messages", F_INT, false, &s.messages },
		{ "users_per_room", F_INT, false, &s.users_per_room },
		{ "message_size", F_INT, false, &s.message_size },
		{ "cpus", F_INT, false, &s.cpus },
		{ "interrupted", F_BOOL, false, &s.interrupted },
		{ "kernel_release", F_STR, false, &s.kernel_release },
		{ "host", F_STR, false, &s.host },
		{ "version", F_STR, false, &s.version },
		{ "command_line", F_STR, false, &s.command_line },
		{ "tracing", F_STR, false, &s.tracing },
	};
	struct result_group *g;
	const json_t *sweep;

	memset(&s, 0, sizeof(s));
	if (!json_is_object(o)) {
		fmt_err(err, len, "line %zu: \"summary\" is not an object", line);
		return -1;
	}
	if (get_fields(o, "summary", fields, sizeof(fields) / sizeof(fields[0]),
		       line, err, len))
		return -1;
	/* The sweep point sits inside the summary; accept it beside it too. */
	if (read_sweep(o, line, &sweep, err, len))
		return -1;
	if (!sweep && read_sweep(line_obj, line, &sweep, err, len))
		return -1;
	g = open_group(f, sweep, err, len);
	if (!g)
		return -1;
	s.present = true;
	s.line = line;
	s.json = json_incref(o);
	g->summary = s;
	if (!f->kernel_release)
		f->kernel_release = s.kernel_release;
	return 0;
}

static int add_line(struct result_file *f, const char *buf, size_t n,
		    size_t line, char *err, size_t len)
{
	json_error_t jerr;
	json_t *o;
	int rc = 0;

	o = json_loadb(buf, n, 0, &jerr);
	if (!o) {
		fmt_err(err, len, "line %zu: not JSON (%s)", line, jerr.text);
		return -1;
	}
	if (!json_is_object(o)) {
		fmt_err(err, len, "line %zu: not a JSON object", line);
		rc = -1;
	} else if (json_object_get(o, "summary")) {
		rc = add_summary(f, o, line, err, len);
	} else if (json_object_get(o, "run")) {
		rc = add_run(f, o, line, err, len);
	}
	/* Anything else is a line kind from a later version: skipped. */
	json_decref(o);
	return rc;
}

static bool blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

bool results_run_throughput(const struct result_run *r, double *v)
{
	if (!r->ok)
		return false;
	*v = r->throughput;
	return true;
}

double *results_values(const struct result_group *g, results_value_fn fn,
		       size_t *n)
{
	double *v = malloc((g->nr_runs ? g->nr_runs : 1) * sizeof(*v));
	size_t i, k = 0;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < g->nr_runs; i++)
		if (fn(&g->runs[i], &v[k]))
			k++;
	*n = k;
	return v;
}

static void finish_groups(struct result_file *f)
{
	size_t i, k;
	double *v;

	for (i = 0; i < f->nr_groups; i++) {
		struct result_group *g = &f->groups[i];

		v = results_values(g, results_run_throughput, &k);
		stats_compute(v, k, &g->stats);
		free(v);
	}
}

int results_load_flags(const char *path, unsigned int flags,
		       struct result_file *out, char *err, size_t len)
{
	size_t line = 0, nonblank = 0, cap = 0, runs = 0, i;
	bool have_summary = false;
	char *buf = NULL;
	ssize_t n;
	FILE *fp;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	fp = fopen(path, "r");
	if (!fp) {
		fmt_err(err, len, "cannot open: %s", strerror(errno));
		return -1;
	}
	out->path = strdup(path);
	if (!out->path) {
		fmt_err(err, len, "out of memory");
		goto cleanup;
	}
	errno = 0;
	while ((n = getline(&buf, &cap, fp)) >= 0) {
		line++;
		if (blank(buf, (size_t)n))
			continue;
		nonblank++;
		if (add_line(out, buf, (size_t)n, line, err, len))
			goto cleanup;
	}
	if (ferror(fp)) {
		fmt_err(err, len, "read error: %s",
			strerror(errno ? errno : EIO));
		goto cleanup;
	}
	if (!nonblank) {
		fmt_err(err, len, "empty file");
		goto cleanup;
	}
	for (i = 0; i < out->nr_groups; i++) {
		runs += out->groups[i].nr_runs;
		have_summary |= out->groups[i].summary.present;
	}
	if (!have_summary && !(flags & RESULTS_ALLOW_NO_SUMMARY)) {
		if (runs)
			fmt_err(err, len,
				"no summary line (%zu run lines; chat_c stopped before the end?)",
				runs);
		else
			fmt_err(err, len,
				"no run or summary line: not a chat_c --json file");
		goto cleanup;
	}
	if (!out->nr_groups) {
		fmt_err(err, len, "no run or summary line: not a chat_c --json file");
		goto cleanup;
	}
	finish_groups(out);
	ret = 0;
cleanup:
	free(buf);
	fclose(fp);
	if (ret)
		results_free(out);
	return ret;
}

int results_load(const char *path, struct result_file *out, char *err,
		 size_t len)
{
	return results_load_flags(path, 0, out, err, len);
}

void results_free(struct result_file *f)
{
	size_t i, j;

	if (!f)
		return;
	for (i = 0; i < f->nr_groups; i++) {
		struct result_group *g = &f->groups[i];

		for (j = 0; j < g->nr_runs; j++)
			json_decref(g->runs[j].json);
		free(g->runs);
		json_decref(g->summary.json);
		json_decref(g->sweep);
	}
	free(f->groups);
	free(f->path);
	memset(f, 0, sizeof(*f));
}
