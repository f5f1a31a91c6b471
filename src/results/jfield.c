// SPDX-License-Identifier: GPL-2.0
/*
 * Field readers for the result files: each tells an absent field (or
 * null) from a malformed one, which jansson's json_unpack does not, so
 * that a loader can be strict about what it needs and lenient about what
 * it does not.
 */
#include <math.h>

#include "results/jfield.h"

int jf_double(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return isfinite(*out) ? 0 : -1;
}

int jf_int(const json_t *o, const char *key, int *out)
{
	const json_t *v = json_object_get(o, key);
	json_int_t i;

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_integer(v))
		return -1;
	i = json_integer_value(v);
	if (i < -2147483647LL - 1 || i > 2147483647LL)
		return -1;
	*out = (int)i;
	return 0;
}

int jf_u64(const json_t *o, const char *key, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int jf_bool(const json_t *o, const char *key, bool *out)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_boolean(v))
		return -1;
	*out = json_is_true(v);
	return 0;
}

int jf_str(const json_t *o, const char *key, const char **out)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 1;
	if (!json_is_string(v))
		return -1;
	*out = json_string_value(v);
	return 0;
}

uint64_t jf_u64_or0(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}
