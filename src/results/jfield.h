/* SPDX-License-Identifier: GPL-2.0 */
/* Field readers for the JSON result files. */
#ifndef CHATBENCH_JFIELD_H
#define CHATBENCH_JFIELD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0 and *out, 1 when absent or null (out untouched), -1 when malformed. */
int jf_double(const json_t *o, const char *key, double *out);
int jf_int(const json_t *o, const char *key, int *out);
int jf_u64(const json_t *o, const char *key, uint64_t *out);
/*
 * The counter at key, 0 when absent or not an integer: for the kernel
 * record's many counters, where an older file's missing one reads as none.
 */
uint64_t jf_u64_or0(const json_t *o, const char *key);
int jf_bool(const json_t *o, const char *key, bool *out);
int jf_str(const json_t *o, const char *key, const char **out);

#endif
