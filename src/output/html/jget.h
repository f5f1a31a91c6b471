/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a member of a result file's JSON where absent means empty: a
 * string or NULL, a number or 0.  The report's view and its sections read
 * a run's small objects (causes, dips, stealers) with these.
 */
#ifndef CHATBENCH_REPORT_JGET_H
#define CHATBENCH_REPORT_JGET_H

#include <stdint.h>
#include <jansson.h>

static inline const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static inline double jnum(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static inline uint64_t ju64(const json_t *v)
{
	json_int_t i = json_integer_value(v);

	return i > 0 ? (uint64_t)i : 0;
}

#endif
