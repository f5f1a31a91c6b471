// SPDX-License-Identifier: GPL-2.0
/* The table of cause kinds (causes.h), as strings. */
#include <string.h>

#include "analysis/causes.h"

#define CAUSE_INFO(id, n, w, m, e)					\
	[CAUSE_##id] = { .name = n, .words = w, .meaning = m, .evidence = e },
const struct cause_info cause_table[CAUSE_NR] = {
	CAUSES(CAUSE_INFO)
};
#undef CAUSE_INFO

int cause_by_name(const char *name)
{
	int k;

	for (k = 0; k < CAUSE_NR; k++)
		if (!strcmp(cause_table[k].name, name))
			return k;
	return -1;
}

const char *diag_host_name(enum diag_host h)
{
	return h == DIAG_HOST_SERVER ? "server" : "client";
}
