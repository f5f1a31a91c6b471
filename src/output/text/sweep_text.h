/* SPDX-License-Identifier: GPL-2.0 */
/* The table that ends a sweep: one row per point. */
#ifndef CHATBENCH_SWEEP_TEXT_H
#define CHATBENCH_SWEEP_TEXT_H

#include <stddef.h>
#include <stdio.h>

struct series;

/*
 * With an --slo (the series' slo_ms), a rate sweep also names the highest
 * rate whose median p99 stayed under it (series_slo_point()).
 */
void sweep_print(FILE *f, const struct series *s, size_t n);

#endif
