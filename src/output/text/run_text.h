/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text output.  The original's result lines are kept byte for byte (scripts
 * run grep Average | awk '{print $4}'); everything we add comes after them
 * and never starts with "Average".
 */
#ifndef CHATBENCH_OUTPUT_TEXT_H
#define CHATBENCH_OUTPUT_TEXT_H

#include <stdio.h>

#include "workload/client/run_record.h"
#include "util/stats.h"

void out_text_run(FILE *f, const struct run_result *r, bool verbose);
/* The series' summary: rooms x messages of its point, its statistics. */
void out_text_summary(FILE *f, int rooms, int messages,
		      const struct stats *s, size_t attempted);
/* Where the processes ran: the study's last line. */
void out_text_placement(FILE *f, const char *client_cpus, bool client_pin,
			bool nodelay, const char *server_model,
			const char *server_cpus, bool server_pin);

#endif
