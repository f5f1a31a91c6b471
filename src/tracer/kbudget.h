/* SPDX-License-Identifier: GPL-2.0 */
/* The time budget (tracer/budget.h) between two snapshots. */
#ifndef CHATBENCH_KBUDGET_H
#define CHATBENCH_KBUDGET_H

struct ks_budget;
struct ks_snap;

/* The budget from snapshot a to b (a taken first); invalid without BTF
 * iterators (no open spans: the lines would not add up). */
void kb_from_snaps(struct ks_budget *kb, const struct ks_snap *a,
		   const struct ks_snap *b);
/* Sums the benchmark's own roles into kb->subjects. */
void kb_sum_subjects(struct ks_budget *kb);
/* Adds budget b to sum, as the next stretch of time: several intervals. */
void kb_add(struct ks_budget *sum, const struct ks_budget *b);

#endif
