/* SPDX-License-Identifier: GPL-2.0 */
/* The table that ends a sweep: one row per point. */
#ifndef CHATBENCH_SWEEP_TEXT_H
#define CHATBENCH_SWEEP_TEXT_H

#include <stddef.h>
#include <stdio.h>

struct series;

/*
 * slo_ms > 0 (--slo): a rate sweep also names the highest rate whose
 * median p99 stayed under it.
 */
void sweep_print(FILE *f, const struct series *s, size_t n, double slo_ms);
/* The index of that highest rate, or -1 when no point met it. */
long sweep_slo_point(const struct series *s, size_t n, double slo_ms);

#endif
