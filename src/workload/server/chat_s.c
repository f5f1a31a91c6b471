// SPDX-License-Identifier: GPL-2.0
/* chat_s: the chat benchmark server.  Parses arguments and serves. */
#include <stdio.h>

#include "workload/server/chat_s_opts.h"
#include "workload/server/server.h"

int main(int argc, char **argv)
{
	struct server_opts o;
	char err[256];
	int rc;

	rc = chat_s_parse(argc, argv, &o, err, sizeof(err));
	if (rc == OPTS_EXIT)
		return 0;
	if (rc == OPTS_ERROR) {
		fprintf(stderr, "chat_s: %s\n", err);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return server_serve(&o);
}
