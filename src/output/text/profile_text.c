// SPDX-License-Identifier: GPL-2.0
/*
 * The profile in words and in folded stacks.  The summary line checks
 * itself: samples against what the sampling rate and the CPU the run's
 * accounting charged to both processes predict, so a profile that missed
 * threads (or sampled outsiders as ours) shows at once.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/text/profile_text.h"
#include "tracer/profile_data.h"
#include "util/fmt.h"
#include "util/roles.h"

#define TOP_FUNCS	3

const char *profile_owner(const struct profile *p, size_t i)
{
	const struct prof_stack *s = &p->st[i];

	if (s->role == CB_PROF_OUTSIDER)
		return s->comm[0] ? s->comm : "outsider";
	return role_name(s->role);
}

/* The leaf: where the samples were taken (self time). */
static const char *leaf(const char *frames)
{
	const char *l = strrchr(frames, ';');

	return l ? l + 1 : *frames ? frames : "[no stack]";
}

struct func_count {
	const char *name;
	uint64_t n;
};

/* The hottest leaf functions of one role, in samples. */
static void print_hot(FILE *f, const struct profile *p, int role,
		      uint64_t total)
{
	struct func_count top[TOP_FUNCS] = { 0 };
	struct func_count *all;
	size_t i, j, n = 0;
	int k;

	all = calloc(p->n ? p->n : 1, sizeof(*all));
	if (!all)
		return;
	for (i = 0; i < p->n; i++) {
		const char *name;

		if (p->st[i].role != role || p->st[i].kind != CB_PROF_ONCPU)
			continue;
		name = leaf(p->st[i].frames);
		for (j = 0; j < n && strcmp(all[j].name, name); j++)
			;
		if (j == n)
			all[n++].name = name;
		all[j].n += p->st[i].value;
	}
	for (j = 0; j < n; j++)
		for (k = 0; k < TOP_FUNCS; k++)
			if (all[j].n > top[k].n) {
				memmove(&top[k + 1], &top[k],
					(TOP_FUNCS - 1 - k) * sizeof(top[0]));
				top[k] = all[j];
				break;
			}
	if (top[0].n * 200 >= total) {
		fprintf(f, "  %-9s", role_name(role));
		/* Under half a percent is noise at 99 Hz. */
		for (k = 0; k < TOP_FUNCS && top[k].n * 200 >= total; k++)
			fprintf(f, "%s %s %.0f %%", k ? "," : "", top[k].name,
				100.0 * (double)top[k].n / (double)total);
		fputc('\n', f);
	}
	free(all);
}

void profile_print_text(FILE *f, const struct profile *p)
{
	char rq[24], bl[24];
	int role;

	if (!p)
		return;
	fprintf(f, "Stack samples      : %" PRIu64 " at %u Hz of the benchmark's threads",
		p->samples, p->hz);
	if (p->expected_samples > 0)
		fprintf(f, " (%.2fx the %.0f its CPU time predicts)",
			(double)p->samples / p->expected_samples,
			p->expected_samples);
	fprintf(f, ", %" PRIu64 " of outsiders\n", p->outsider_samples);
	fprintf(f, "Off CPU            : waiting to run %s, blocked %s (our threads' time away, summed)\n",
		fmt_ns(rq, sizeof(rq), p->offcpu_ns[CB_PROF_RUNQ]),
		fmt_ns(bl, sizeof(bl), p->offcpu_ns[CB_PROF_BLOCKED]));
	fprintf(f, "Profiler cost      : %.3f %% of the CPUs (%" PRIu64 " program runs)",
		100.0 * p->cpu_share, p->run_cnt);
	if (p->lost || p->stack_errors)
		fprintf(f, "; lost %" PRIu64 " stacks (map full), %" PRIu64 " stack errors",
			p->lost, p->stack_errors);
	fputc('\n', f);
	if (!p->samples)
		return;
	fprintf(f, "Hottest functions  : self time, %% of the benchmark's samples\n");
	for (role = 0; role < CB_NR_ROLES; role++)
		print_hot(f, p, role, p->samples);
}

int profile_write_folded(FILE *on, FILE *off, const struct profile *p)
{
	static const char *const kind[CB_NR_PROF_KINDS] = {
		[CB_PROF_RUNQ] = "[runqueue]",
		[CB_PROF_BLOCKED] = "[blocked]",
	};
	size_t i;
	int rc = 0;

	for (i = 0; p && i < p->n; i++) {
		const struct prof_stack *s = &p->st[i];
		const char *sep = *s->frames ? ";" : "";

		if (s->kind == CB_PROF_ONCPU && on) {
			if (fprintf(on, "%s%s%s %" PRIu64 "\n",
				    profile_owner(p, i), sep, s->frames,
				    s->value) < 0)
				rc = -1;
		} else if (s->kind != CB_PROF_ONCPU && off &&
			   s->value >= 1000) {
			if (fprintf(off, "%s;%s%s%s %" PRIu64 "\n",
				    profile_owner(p, i), kind[s->kind], sep,
				    s->frames, s->value / 1000) < 0)
				rc = -1;
		}
	}
	return rc;
}
