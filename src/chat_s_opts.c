// SPDX-License-Identifier: GPL-2.0
/*
 * chat_s arguments: the original's positional "ip_addr [port]" plus long
 * options for the bounds the original lacked.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "chat_s_opts.h"
#include "netio.h"
#include "numarg.h"

static const char usage[] =
	"Usage: chat_s [OPTIONS] ip_addr [port]\n"
	"Serve chat benchmark runs on ip_addr:port (port 9999 by default),\n"
	"one run after another, until SIGINT or SIGTERM.\n"
	"\n"
	"  -t, --timeout SEC       bound on every wait inside a run (30)\n"
	"      --max-rooms N       refuse runs with more rooms (1000)\n"
	"      --max-messages N    refuse runs with more messages (10000000)\n"
	"  -q, --quiet             no SRV: lines per run\n"
	"      --ready-fd FD       write the bound port to FD once listening\n"
	"      --max-runs N        exit after N runs (0: serve forever)\n"
	"  -h, --help              this text\n"
	"  -V, --version           version\n"
	"\n"
	"Examples:\n"
	"  chat_s 127.0.0.1 &                 the original's way\n"
	"  chat_s --max-rooms 100 0.0.0.0 9000\n";

int chat_s_parse(int argc, char **argv, struct server_opts *o, char *err,
		 size_t len)
{
	static const struct option longopts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "max-rooms", required_argument, NULL, 'R' },
		{ "max-messages", required_argument, NULL, 'M' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "ready-fd", required_argument, NULL, 'F' },
		{ "max-runs", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	long v, port = CHAT_DEFAULT_PORT;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 30000;
	o->caps.max_rooms = CHAT_MAX_ROOMS;
	o->caps.max_messages = CHAT_MAX_MESSAGES;
	o->ready_fd = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_long(optarg, "--timeout", 1, 86400, &v, err,
				       len))
				return OPTS_ERROR;
			o->timeout_ms = (int)v * 1000;
			break;
		case 'R':
			if (parse_long(optarg, "--max-rooms", 1, 100000, &v,
				       err, len))
				return OPTS_ERROR;
			o->caps.max_rooms = (int)v;
			break;
		case 'M':
			if (parse_long(optarg, "--max-messages", 1, 1000000000,
				       &v, err, len))
				return OPTS_ERROR;
			o->caps.max_messages = (int)v;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'F':
			if (parse_long(optarg, "--ready-fd", 0, 1 << 20, &v,
				       err, len))
				return OPTS_ERROR;
			o->ready_fd = (int)v;
			break;
		case 'N':
			if (parse_long(optarg, "--max-runs", 0, 1L << 40, &v,
				       err, len))
				return OPTS_ERROR;
			o->max_runs = v;
			break;
		case 'h':
			fputs(usage, stdout);
			return OPTS_EXIT;
		case 'V':
			printf("chat_s (chatbench) %s, protocol of chat %s\n",
			       CHATBENCH_VERSION, CHAT_VERSION);
			return OPTS_EXIT;
		case ':':
			snprintf(err, len, "option %s needs a value",
				 argv[optind - 1]);
			return OPTS_ERROR;
		default:
			snprintf(err, len, "unknown option '%s' (see --help)",
				 argv[optind - 1]);
			return OPTS_ERROR;
		}
	}
	if (optind >= argc) {
		snprintf(err, len, "missing ip_addr (see --help)");
		return OPTS_ERROR;
	}
	if (argc - optind > 2) {
		snprintf(err, len, "too many arguments (see --help)");
		return OPTS_ERROR;
	}
	if (optind + 1 < argc &&
	    parse_long(argv[optind + 1], "port", 0, 65535, &port, err, len))
		return OPTS_ERROR;
	if (net_parse_addr(argv[optind], (int)port, &o->addr, err, len))
		return OPTS_ERROR;
	return OPTS_OK;
}
