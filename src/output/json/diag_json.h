/* SPDX-License-Identifier: GPL-2.0 */
/* The verdict of a series, merged into its runs' JSON objects. */
#ifndef CHATBENCH_DIAG_JSON_H
#define CHATBENCH_DIAG_JSON_H

struct json_out;
struct series;

void diag_json_series(struct json_out *json, const struct series *s);

#endif
