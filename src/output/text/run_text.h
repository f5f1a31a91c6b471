/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output.  The original's result lines are kept byte for byte (scripts
 * run grep Average | awk '{print $4}'); everything we add comes after them
 * and never starts with "Average".
 */
#ifndef CHATBENCH_OUTPUT_TEXT_H
#define CHATBENCH_OUTPUT_TEXT_H

#include <stdio.h>

#include "workload/client/client.h"
#include "util/stats.h"

void out_text_run(FILE *f, const struct run_result *r, bool verbose);
void out_text_summary(FILE *f, const struct client_opts *o,
		      const struct stats *s, size_t attempted);

#endif
