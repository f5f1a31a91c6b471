// SPDX-License-Identifier: GPL-2.0
/* The role table of bpf/chatbench.h, as strings for user space. */
#include <pthread.h>
#include <string.h>

#include "util/roles.h"

#define ROLE_INFO(id, n, w, c, comm) \
	[CB_ROLE_##id] = { .name = n, .words = w, .colour = c },
const struct role_info role_table[CB_NR_ROLES] = {
	CB_ROLES(ROLE_INFO)
};
#undef ROLE_INFO

void role_name_self(int role)
{
	pthread_setname_np(pthread_self(), role_name(role));
}

int role_by_name(const char *name)
{
	int r;

	for (r = 0; r < CB_NR_ROLES; r++)
		if (!strcmp(role_table[r].name, name))
			return r;
	return -1;
}
