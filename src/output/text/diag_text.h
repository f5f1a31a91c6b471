/* SPDX-License-Identifier: GPL-2.0 */
/* The verdict of a series as text, after the series summary. */
#ifndef CHATBENCH_DIAG_TEXT_H
#define CHATBENCH_DIAG_TEXT_H

#include <stdio.h>

struct series;

/*
 * Slow runs with their causes, then dips; for a lone run a profile
 * instead.  Nothing when no run completed or nothing was judged.
 */
void diag_print(FILE *f, const struct series *s);

#endif
