/* SPDX-License-Identifier: GPL-2.0 */
/* The time budget of one run as text (src/output/text/budget_text.c). */
#ifndef CHATBENCH_BUDGET_TEXT_H
#define CHATBENCH_BUDGET_TEXT_H

#include <stdbool.h>
#include <stdio.h>

struct ks_budget;
struct ow_entry;

/* A line per role and one for the CPUs; verbose: every line. */
void budget_print_text(FILE *f, const struct ks_budget *b, bool verbose);

/*
 * The outsiders our threads waited behind (analysis/owait.h), in % of
 * the subjects' threads x wall: the largest three, verbose: all.
 */
void budget_print_outsiders(FILE *f, const struct ks_budget *b,
			    const struct ow_entry *o, int n, bool verbose);

#endif
