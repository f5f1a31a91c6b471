// SPDX-License-Identifier: GPL-2.0
/*
 * A saved time budget read back into struct ks_budget, by the names
 * budget_json.c writes.  Unknown names are ignored (a newer file read by
 * an older build); a budget whose lines do not add up to its whole is
 * refused, since every judgement made from it would be wrong.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/budget.h"
#include "util/roles.h"
#include "results/budget_load.h"

static int get_i64(const json_t *o, const char *key, int64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (!x) {
		*v = 0;
		return 0;
	}
	if (!json_is_integer(x))
		return -1;
	*v = (int64_t)json_integer_value(x);
	return 0;
}

static int get_u64(const json_t *o, const char *key, uint64_t *v)
{
	int64_t x;

	if (get_i64(o, key, &x) || x < 0)
		return -1;
	*v = (uint64_t)x;
	return 0;
}

static int holder_by_name(const char *name)
{
	int h;

	for (h = 0; h < KB_NR_HOLDERS; h++)
		if (!strcmp(name, kb_holder_name(h)))
			return h;
	return -1;
}

static int block_by_name(const char *name)
{
	int i;

	for (i = 0; i < CB_NR_BLOCKS; i++)
		if (!strcmp(name, kb_block_names[i]))
			return i;
	return -1;
}

/* part is whole within 1 % of whole (a whole of 0 takes no part). */
static bool adds_up(int64_t part, uint64_t whole)
{
	return llabs(part - (int64_t)whole) <= (int64_t)(whole / 100);
}

static int load_threads(const json_t *o, struct kb_threads *t)
{
	int64_t waits, blocks = 0;
	const char *key;
	json_t *v;
	int i;

	if (!json_is_object(o))
		return -1;
	if (get_u64(o, "threads", &t->threads) ||
	    get_u64(o, "total_ns", &t->total_ns) ||
	    get_u64(o, "oncpu_ns", &t->oncpu_ns) ||
	    get_u64(o, "wait_ns", &t->wait_ns) ||
	    get_u64(o, "blocked_ns", &t->blocked_ns) ||
	    get_i64(o, "gone_ns", &t->gone_ns))
		return -1;
	json_object_foreach(json_object_get(o, "wait_by"), key, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		if (!strcmp(key, "unknown"))
			t->wait_unknown_ns = (uint64_t)json_integer_value(v);
		else if ((i = holder_by_name(key)) >= 0)
			t->wait_by[i] = (uint64_t)json_integer_value(v);
	}
	json_object_foreach(json_object_get(o, "blocked_by"), key, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		if ((i = block_by_name(key)) >= 0)
			t->blocked_by[i] = (uint64_t)json_integer_value(v);
	}
	/* Each whole is the sum of its lines: 1 % slack for rounding. */
	waits = (int64_t)t->wait_unknown_ns;
	for (i = 0; i < KB_NR_HOLDERS; i++)
		waits += (int64_t)t->wait_by[i];
	for (i = 0; i < CB_NR_BLOCKS; i++)
		blocks += (int64_t)t->blocked_by[i];
	/* wait_by may exceed wait_ns (unknown is then 0), never fall short. */
	if (waits < (int64_t)t->wait_ns - (int64_t)(t->wait_ns / 100) ||
	    !adds_up(blocks, t->blocked_ns) ||
	    !adds_up((int64_t)(t->oncpu_ns + t->wait_ns + t->blocked_ns) +
			     t->gone_ns, t->total_ns))
		return -1;
	return 0;
}

static int load_cpus(const json_t *o, struct kb_cpus *c)
{
	json_t *lines = json_object_get(o, "lines"), *v;
	int64_t sum = 0;
	size_t i;
	int l;

	if (!json_is_object(o) || !json_is_object(lines) ||
	    get_u64(o, "ncpus", &c->ncpus) ||
	    get_u64(o, "supply_ns", &c->supply_ns))
		return -1;
	for (l = 0; l < KB_NR_CPU_LINES; l++) {
		if (get_i64(lines, kb_cpu_names[l], &c->line[l]))
			return -1;
		sum += c->line[l];
	}
	json_array_foreach(json_object_get(o, "offline_cpus"), i, v)
		if (json_integer_value(v) >= 0 && json_integer_value(v) < 64)
			c->offline_cpus |= 1ULL << json_integer_value(v);
	if (!adds_up(sum, c->supply_ns))
		return -1;
	return 0;
}

/* An interval's role in brief (budget_json.c threads_brief). */
static int load_brief(const json_t *a, struct kb_threads *t)
{
	uint64_t v[5];
	int64_t gone;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) != 6 ||
	    !json_is_integer(json_array_get(a, 5)))
		return -1;
	for (i = 0; i < 5; i++) {
		json_t *x = json_array_get(a, i);

		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return -1;
		v[i] = (uint64_t)json_integer_value(x);
	}
	gone = (int64_t)json_integer_value(json_array_get(a, 5));
	t->threads = v[0];
	t->total_ns = v[1];
	t->oncpu_ns = v[2];
	t->wait_ns = v[3];
	t->wait_unknown_ns = v[3];
	t->blocked_ns = v[4];
	t->gone_ns = gone;
	return adds_up((int64_t)(v[2] + v[3] + v[4]) + gone, v[1]) ? 0 : -1;
}

int budget_from_json(const json_t *o, struct ks_budget *b)
{
	json_t *threads, *t;
	int r;

	memset(b, 0, sizeof(*b));
	if (!o || json_is_null(o))
		return 0;
	threads = json_object_get(o, "threads");
	if (!json_is_object(o) || !json_is_object(threads) ||
	    get_u64(o, "wall_ns", &b->wall_ns) ||
	    load_cpus(json_object_get(o, "cpus"), &b->cpus))
		goto bad;
	for (r = 0; r < CB_NR_ROLES; r++) {
		t = json_object_get(threads, role_name(r));
		if (t && load_threads(t, &b->role[r]))
			goto bad;
		t = json_object_get(json_object_get(threads, "by_role"),
				    role_name(r));
		if (t && load_brief(t, &b->role[r]))
			goto bad;
	}
	if (load_threads(json_object_get(threads, "subjects"), &b->subjects))
		goto bad;
	b->valid = true;
	return 0;
bad:
	memset(b, 0, sizeof(*b));
	return -1;
}
