// SPDX-License-Identifier: GPL-2.0
/*
 * chat_s arguments: the original's positional "ip_addr [port]" plus long
 * options for the bounds the original lacked, the data-plane model and
 * the CPUs the server runs on.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workload/server/chat_s_opts.h"
#include "util/cpuset.h"
#include "workload/netio.h"
#include "util/numarg.h"
#include "workload/server/models.h"

#define DEFAULT_HANDSHAKE_MS 3000
#define DEFAULT_MAX_RUNS 8
/* Far more loops than CPUs only measures the scheduler. */
#define POOL_MAX_LOOPS 1024

static const char usage[] =
	"Usage: chat_s [OPTIONS] ip_addr [port]\n"
	"Serve chat benchmark runs on ip_addr:port (port 9999 by default),\n"
	"several clients at once, until SIGINT or SIGTERM (the runs in\n"
	"progress end first; a second signal aborts them).\n"
	"\n"
	"  -t, --timeout SEC       bound on every wait inside a run (30)\n"
	"      --handshake-timeout MS  a connection that has not sent its start\n"
	"                          message within MS is closed (3000); data\n"
	"                          connections of a run are not bound by it\n"
	"      --max-runs N        runs in progress at once (8); the clients of\n"
	"                          more runs are queued and told so\n"
	"      --clients N         hold every run's 0x11 until N clients have\n"
	"                          connected all their rooms, then release the\n"
	"                          N together (1)\n"
	"      --max-rooms N       refuse runs with more rooms (1000)\n"
	"      --max-messages N    refuse runs with more messages (10000000)\n"
	"  -q, --quiet             no SRV: lines per run\n"
	"      --ready-fd FD       write the bound port to FD once listening\n"
	"      --exit-after N      exit once N runs have ended (0: never)\n"
	"      --model MODEL       data plane: threads (two per connection, the\n"
	"                          original's; default), epoll (one event-loop\n"
	"                          thread), pool[=N] (N event-loop threads, each\n"
	"                          serving whole rooms; N defaults to the CPUs\n"
	"                          of --cpus, else the online CPUs)\n"
	"      --cpus LIST         run every server thread on these CPUs, a list\n"
	"                          like 0-3,6 (default: where chat_s was started)\n"
	"      --nodelay           TCP_NODELAY on every connection (the original\n"
	"                          leaves Nagle on: at low rates it delays echoes)\n"
	"      --sched ROLE=P[:PRIO]  policy of the data-plane threads: P other,\n"
	"                          batch, idle, fifo, rr; ROLE all, srv_rcv,\n"
	"                          srv_snd or srv_loop (set and read back by\n"
	"                          each thread; a failure fails the run)\n"
	"      --nice ROLE=N       their nice value (-20..19)\n"
	"      --slice ROLE=US     their EEVDF slice request (100..100000 us)\n"
	"      --pin               one CPU per thread: threads take the allowed\n"
	"                          CPUs round-robin\n"
	"      --trace             trace this host for clients of other hosts\n"
	"                          that ask (chat_c does by default when the\n"
	"                          server is not on its host): fail at start\n"
	"                          if tracing is not possible\n"
	"      --no-trace          never trace; by default chat_s traces when\n"
	"                          it can (root, kernel BTF) and says once why\n"
	"                          not.  Only asked runs are traced, one at a\n"
	"                          time; others cost nothing\n"
	"  -h, --help              this text\n"
	"  -V, --version           version\n"
	"\n"
	"Examples:\n"
	"  chat_s 127.0.0.1 &                 the original's way\n"
	"  chat_s --max-rooms 100 0.0.0.0 9000\n"
	"  chat_s --model pool=2 --cpus 0-1 --pin 127.0.0.1\n"
	"  chat_s --clients 2 0.0.0.0         two clients measured as one run\n";

/* More runs at once than this only measure the scheduler. */
#define MAX_RUNS_CAP 1024

static int parse_model(const char *s, struct server_opts *o, char *err,
		       size_t len)
{
	long n;

	if (!strcmp(s, "threads")) {
		o->model = &srv_model_threads;
		return 0;
	}
	if (!strcmp(s, "epoll")) {
		o->model = &srv_model_epoll;
		o->loops = 1;
		return 0;
	}
	if (!strcmp(s, "pool")) {
		o->model = &srv_model_pool;
		o->loops = 0;	/* resolved once --cpus is known */
		return 0;
	}
	if (!strncmp(s, "pool=", 5)) {
		if (parse_long(s + 5, "--model pool=N", 1, POOL_MAX_LOOPS, &n,
			       err, len))
			return -1;
		o->model = &srv_model_pool;
		o->loops = (unsigned int)n;
		return 0;
	}
	snprintf(err, len, "--model must be threads, epoll or pool[=N], not '%s'",
		 s);
	return -1;
}

/* Only CPUs this process may use: others would fail at the first thread. */
static int parse_cpus(const char *s, struct server_opts *o, char *err,
		      size_t len)
{
	cpu_set_t avail;
	char why[200];

	if (cpuset_parse(s, &o->cpus, cpuset_allowed(&avail) ? NULL : &avail,
			 why, sizeof(why))) {
		snprintf(err, len, "--cpus: %s", why);
		return -1;
	}
	o->cpus_set = true;
	return 0;
}

static const struct option longopts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ "max-rooms", required_argument, NULL, 'R' },
	{ "max-messages", required_argument, NULL, 'M' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "ready-fd", required_argument, NULL, 'F' },
	{ "max-runs", required_argument, NULL, 'N' },
	{ "exit-after", required_argument, NULL, 'X' },
	{ "handshake-timeout", required_argument, NULL, 'H' },
	{ "clients", required_argument, NULL, 'c' },
	{ "model", required_argument, NULL, 'm' },
	{ "cpus", required_argument, NULL, 'C' },
	{ "pin", no_argument, NULL, 'P' },
	{ "nodelay", no_argument, NULL, 'D' },
	{ "sched", required_argument, NULL, 'S' },
	{ "nice", required_argument, NULL, 'n' },
	{ "slice", required_argument, NULL, 's' },
	{ "trace", no_argument, NULL, 'T' },
	{ "no-trace", no_argument, NULL, 'U' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 }
};

/* Threads, the original's data plane, and the bounds it lacked. */
static void server_defaults(struct server_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_ms = 30000;
	o->caps.max_rooms = CHAT_MAX_ROOMS;
	o->caps.max_messages = CHAT_MAX_MESSAGES;
	o->ready_fd = -1;
	o->model = &srv_model_threads;
	o->handshake_ms = DEFAULT_HANDSHAKE_MS;
	o->max_runs = DEFAULT_MAX_RUNS;
	o->clients = 1;
}

/* --sched, --nice and --slice fill one spec, each its own field. */
static int parse_sched(int c, const char *arg, struct server_opts *o,
		       char *err, size_t len)
{
	enum sched_what what = c == 'S' ? SCHED_WHAT_POLICY :
			       c == 'n' ? SCHED_WHAT_NICE :
					  SCHED_WHAT_SLICE;

	return sched_spec_parse(&o->sched, what, arg, err, len);
}

/*
 * Each option on its own, in the order given.  max_runs_set says whether
 * --max-runs was given: only the default may grow to fit --clients.
 */
static int parse_options(int argc, char **argv, struct server_opts *o,
			 bool *max_runs_set, char *err, size_t len)
{
	long v;
	int c;

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
			if (parse_long(optarg, "--max-runs", 1, MAX_RUNS_CAP,
				       &v, err, len))
				return OPTS_ERROR;
			o->max_runs = (unsigned int)v;
			*max_runs_set = true;
			break;
		case 'X':
			if (parse_long(optarg, "--exit-after", 0, 1L << 40, &v,
				       err, len))
				return OPTS_ERROR;
			o->exit_after = v;
			break;
		case 'H':
			if (parse_long(optarg, "--handshake-timeout", 10,
				       3600000, &v, err, len))
				return OPTS_ERROR;
			o->handshake_ms = (int)v;
			break;
		case 'c':
			if (parse_long(optarg, "--clients", 1, MAX_RUNS_CAP,
				       &v, err, len))
				return OPTS_ERROR;
			o->clients = (unsigned int)v;
			break;
		case 'm':
			if (parse_model(optarg, o, err, len))
				return OPTS_ERROR;
			break;
		case 'C':
			if (parse_cpus(optarg, o, err, len))
				return OPTS_ERROR;
			break;
		case 'P':
			o->pin = true;
			break;
		case 'D':
			o->nodelay = true;
			break;
		case 'S':
		case 'n':
		case 's':
			if (parse_sched(c, optarg, o, err, len))
				return OPTS_ERROR;
			break;
		case 'T':
			o->trace = SRV_TRACE_ON;
			break;
		case 'U':
			o->trace = SRV_TRACE_OFF;
			break;
		case 'h':
			fputs(usage, stdout);
			return OPTS_EXIT;
		case 'V':
			printf("chat_s (chatbench) %s, protocol of chat %s\n",
			       CHATBENCH_VERSION, CHAT_VERSION);
			return OPTS_EXIT;
		default:
			opt_error(c, argv, err, len);
			return OPTS_ERROR;
		}
	}
	return OPTS_OK;
}

/* The original's "ip_addr [port]"; port 0 lets the kernel pick one. */
static int parse_positionals(int argc, char **argv, struct server_opts *o,
			     char *err, size_t len)
{
	long port = CHAT_DEFAULT_PORT;

	if (optind >= argc) {
		snprintf(err, len, "missing ip_addr (see --help)");
		return -1;
	}
	if (argc - optind > 2) {
		snprintf(err, len, "too many arguments (see --help)");
		return -1;
	}
	if (optind + 1 < argc &&
	    parse_long(argv[optind + 1], "port", 0, 65535, &port, err, len))
		return -1;
	return net_parse_addr(argv[optind], (int)port, &o->addr, err, len);
}

/*
 * The options against each other, once all are known: --clients against
 * --max-runs, and pool's loops from --cpus, which may come after --model.
 */
static int cross_check(struct server_opts *o, bool max_runs_set, char *err,
		       size_t len)
{
	long n;

	/* A group is released at once: it must fit in the runs allowed. */
	if (o->clients > o->max_runs) {
		if (max_runs_set) {
			snprintf(err, len,
				 "--clients %u needs --max-runs of at least %u, not %u",
				 o->clients, o->clients, o->max_runs);
			return -1;
		}
		o->max_runs = o->clients;
	}
	if (o->model == &srv_model_pool && !o->loops) {
		n = o->cpus_set ? CPU_COUNT(&o->cpus) :
				  sysconf(_SC_NPROCESSORS_ONLN);
		o->loops = n > 0 ? (unsigned int)n : 1;
	}
	return 0;
}

int chat_s_parse(int argc, char **argv, struct server_opts *o, char *err,
		 size_t len)
{
	bool max_runs_set = false;
	int rc;

	server_defaults(o);
	rc = parse_options(argc, argv, o, &max_runs_set, err, len);
	if (rc != OPTS_OK)
		return rc;
	if (parse_positionals(argc, argv, o, err, len) ||
	    cross_check(o, max_runs_set, err, len))
		return OPTS_ERROR;
	return OPTS_OK;
}
