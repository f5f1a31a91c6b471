/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel record of one run as a compact text block under its result. */
#ifndef CHATBENCH_KSTATS_TEXT_H
#define CHATBENCH_KSTATS_TEXT_H

#include <stdbool.h>
#include <stdio.h>

struct kstats;

/* verbose adds star-chart histograms. */
void kstats_print_text(FILE *f, const struct kstats *k, bool verbose);

#endif
