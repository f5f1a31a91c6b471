/* SPDX-License-Identifier: GPL-2.0 */
/* CSV fields on stdout, for the comparison's tables. */
#ifndef CHATBENCH_CSV_H
#define CHATBENCH_CSV_H

#include <stdbool.h>

/* s (NULL: empty), quoted per RFC 4180 when it must be, then ',' or '\n'. */
void csv_field(const char *s, bool last);
/* v with decimals, or nothing when !have; then ','. */
void csv_num(bool have, int decimals, double v);

#endif
