/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics over the completed runs of one chat_c invocation. */
#ifndef CHATBENCH_SUMMARY_H
#define CHATBENCH_SUMMARY_H

#include <stddef.h>

#include "workload/client/run_record.h"
#include "util/stats.h"

/* Throughput statistics of the runs that completed (ok). */
void summary_compute(const struct run_result *rs, size_t n, struct stats *s);

#endif
