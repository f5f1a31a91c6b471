// SPDX-License-Identifier: GPL-2.0
/*
 * The profile in the run's JSON line: the figures of the text summary
 * and the stacks, root first as in folded files, with the role (or
 * "outsider" and the command name) beside each rather than inside it.
 * The list is bounded, the totals are not: what is cut is summed.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "output/json/profile_json.h"
#include "output/text/profile_text.h"
#include "tracer/profile_data.h"
#include "util/roles.h"

static const char *kind_name(int kind)
{
	return kind == CB_PROF_RUNQ ? "runqueue" : "blocked";
}

static json_t *stack_json(const struct profile *p, size_t i,
			  const char *frames, uint64_t v)
{
	const struct prof_stack *s = &p->st[i];
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (s->role == CB_PROF_OUTSIDER) {
		json_object_set_new(o, "role", json_string("outsider"));
		json_object_set_new(o, "comm", json_string(profile_owner(p, i)));
	} else {
		json_object_set_new(o, "role", json_string(role_name(s->role)));
	}
	if (s->kind != CB_PROF_ONCPU)
		json_object_set_new(o, "kind", json_string(kind_name(s->kind)));
	json_object_set_new(o, "stack", json_string(frames));
	json_object_set_new(o, s->kind == CB_PROF_ONCPU ? "count" : "ns",
			    json_integer((json_int_t)v));
	return o;
}

static const struct profile *sort_p;

static int by_value(const void *a, const void *b)
{
	uint64_t x = sort_p->st[*(const size_t *)a].value;
	uint64_t y = sort_p->st[*(const size_t *)b].value;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* One kind group's stacks, largest first, the tail summed per owner. */
static json_t *stacks_json(const struct profile *p, bool oncpu)
{
	json_t *arr = json_array();
	size_t *idx, n = 0, i, j;
	bool *done;

	idx = calloc(p->n ? p->n : 1, sizeof(*idx));
	if (!arr || !idx) {
		free(idx);
		return arr;
	}
	for (i = 0; i < p->n; i++)
		if ((p->st[i].kind == CB_PROF_ONCPU) == oncpu)
			idx[n++] = i;
	sort_p = p;
	qsort(idx, n, sizeof(*idx), by_value);
	for (i = 0; i < n && i < PROFILE_JSON_MAX_STACKS; i++)
		json_array_append_new(arr, stack_json(p, idx[i],
						      p->st[idx[i]].frames,
						      p->st[idx[i]].value));
	/* The rest: one entry per owner and kind, in first-seen order. */
	done = calloc(n ? n : 1, sizeof(*done));
	for (; done && i < n; i++) {
		const struct prof_stack *s = &p->st[idx[i]];
		uint64_t sum = 0;

		if (done[i])
			continue;
		for (j = i; j < n; j++) {
			const struct prof_stack *t = &p->st[idx[j]];

			if (!done[j] && t->role == s->role &&
			    t->kind == s->kind &&
			    !strcmp(profile_owner(p, idx[j]),
				    profile_owner(p, idx[i]))) {
				sum += t->value;
				done[j] = true;
			}
		}
		json_array_append_new(arr, stack_json(p, idx[i],
						      "[other stacks]", sum));
	}
	free(done);
	free(idx);
	return arr;
}

json_t *profile_to_json(const struct profile *p)
{
	json_t *o;

	if (!p)
		return NULL;
	o = json_pack("{s:i, s:I, s:I, s:I, s:f, s:I, s:I}",
		      "hz", (int)p->hz,
		      "samples", (json_int_t)p->samples,
		      "outsider_samples", (json_int_t)p->outsider_samples,
		      "idle_samples", (json_int_t)p->idle_samples,
		      "expected_samples", p->expected_samples,
		      "lost", (json_int_t)p->lost,
		      "stack_errors", (json_int_t)p->stack_errors);
	if (!o)
		return NULL;
	json_object_set_new(o, "offcpu_ns", json_pack("{s:I, s:I}",
		"runqueue", (json_int_t)p->offcpu_ns[CB_PROF_RUNQ],
		"blocked", (json_int_t)p->offcpu_ns[CB_PROF_BLOCKED]));
	json_object_set_new(o, "cost", json_pack("{s:I, s:I, s:f}",
		"run_time_ns", (json_int_t)p->run_time_ns,
		"run_cnt", (json_int_t)p->run_cnt,
		"cpu_share", p->cpu_share));
	json_object_set_new(o, "oncpu", stacks_json(p, true));
	json_object_set_new(o, "offcpu", stacks_json(p, false));
	return o;
}
