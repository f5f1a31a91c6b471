// SPDX-License-Identifier: GPL-2.0
/*
 * The time budget (tracer/budget.h) as JSON: every line by name, in ns,
 * so that a saved record can be judged again and its lines summed by
 * anyone (each role's lines add up to its total_ns, the CPUs' to
 * supply_ns).
 */
#include "tracer/budget.h"
#include "util/roles.h"
#include "output/json/budget_json.h"

static json_t *threads_json(const struct kb_threads *t)
{
	json_t *wait = json_object(), *blk = json_object();
	int i;

	for (i = 0; i < KB_NR_HOLDERS; i++)
		if (t->wait_by[i])
			json_object_set_new(wait, kb_holder_name(i),
				json_integer((json_int_t)t->wait_by[i]));
	if (t->wait_unknown_ns)
		json_object_set_new(wait, "unknown",
			json_integer((json_int_t)t->wait_unknown_ns));
	for (i = 0; i < CB_NR_BLOCKS; i++)
		if (t->blocked_by[i])
			json_object_set_new(blk, kb_block_names[i],
				json_integer((json_int_t)t->blocked_by[i]));
	return json_pack("{s:I,s:I,s:I,s:I,s:o,s:I,s:o,s:I}",
			 "threads", (json_int_t)t->threads,
			 "total_ns", (json_int_t)t->total_ns,
			 "oncpu_ns", (json_int_t)t->oncpu_ns,
			 "wait_ns", (json_int_t)t->wait_ns,
			 "wait_by", wait,
			 "blocked_ns", (json_int_t)t->blocked_ns,
			 "blocked_by", blk,
			 "gone_ns", (json_int_t)t->gone_ns);
}

static json_t *cpus_json(const struct kb_cpus *c)
{
	json_t *lines = json_object(), *off = json_array();
	int i;

	for (i = 0; i < KB_NR_CPU_LINES; i++)
		json_object_set_new(lines, kb_cpu_names[i],
				    json_integer((json_int_t)c->line[i]));
	for (i = 0; i < 64; i++)
		if (c->offline_cpus & (1ULL << i))
			json_array_append_new(off, json_integer(i));
	return json_pack("{s:I,s:I,s:o,s:o}",
			 "ncpus", (json_int_t)c->ncpus,
			 "supply_ns", (json_int_t)c->supply_ns,
			 "offline_cpus", off, "lines", lines);
}

/*
 * An interval's roles in brief: [threads, total_ns, oncpu_ns, wait_ns,
 * blocked_ns, gone_ns] each, about 60 bytes a role where the whole lines
 * would be 400 (a 30 s run has 300 intervals).  The subjects' whole
 * lines beside them say what waiting and blocking were made of.
 */
static json_t *threads_brief(const struct kb_threads *t)
{
	return json_pack("[I,I,I,I,I,I]", (json_int_t)t->threads,
			 (json_int_t)t->total_ns, (json_int_t)t->oncpu_ns,
			 (json_int_t)t->wait_ns, (json_int_t)t->blocked_ns,
			 (json_int_t)t->gone_ns);
}

json_t *budget_to_json(const struct ks_budget *b, bool brief)
{
	json_t *threads, *by_role = NULL;
	int r;

	if (!b || !b->valid)
		return json_null();
	threads = json_object();
	if (brief)
		by_role = json_object();
	for (r = 0; r < CB_NR_ROLES; r++) {
		if (!b->role[r].threads && !b->role[r].total_ns)
			continue;
		if (brief)
			json_object_set_new(by_role, role_name(r),
					    threads_brief(&b->role[r]));
		else
			json_object_set_new(threads, role_name(r),
					    threads_json(&b->role[r]));
	}
	if (by_role)
		json_object_set_new(threads, "by_role", by_role);
	json_object_set_new(threads, "subjects", threads_json(&b->subjects));
	return json_pack("{s:I,s:o,s:o}", "wall_ns", (json_int_t)b->wall_ns,
			 "threads", threads, "cpus", cpus_json(&b->cpus));
}
