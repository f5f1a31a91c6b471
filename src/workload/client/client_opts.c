// SPDX-License-Identifier: GPL-2.0
/*
 * chat_c arguments: the original's positional
 * "ip_addr [num_rooms] [num_messages] [port]" with its defaults, and long
 * options for what the original could not do.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analysis/series.h"
#include "workload/client/client_opts.h"
#include "workload/netio.h"
#include "util/numarg.h"
#include "util/cpuset.h"
#include "workload/proto.h"

static const char usage[] =
	"Usage: chat_c [OPTIONS] ip_addr [num_rooms] [num_messages] [port]\n"
	"       chat_c --local [OPTIONS] [num_rooms] [num_messages]\n"
	"Run the chat room benchmark against chat_s: num_rooms rooms (10) of 20\n"
	"users, each sending num_messages messages (100) of 100 bytes that the\n"
	"server echoes to the 19 others; port 9999.  Prints messages per second.\n"
	"\n"
	"  -r, --runs N           repeat the run N times, then a summary (1)\n"
	"      --pause MS         idle time between runs (0)\n"
	"  -j, --json FILE        one JSON object per run and a summary line;\n"
	"                         '-' for stdout (the text then goes to stderr)\n"
	"      --report FILE      a self-contained HTML report (heat maps, causes)\n"
	"      --local            start chat_s on an ephemeral loopback port\n"
	"                         for the duration; ip_addr is then optional\n"
	"  -u, --users N          users per room (20; other sizes need our chat_s)\n"
	"      --sweep P=V1,V2..  run each value of P (rooms, messages, users,\n"
	"                         rate, or sched, nice, slice of all threads)\n"
	"                         with --runs repeats, then a table\n"
	"      --rate N           open loop: each user sends N messages per\n"
	"                         second on a schedule fixed in advance; latency\n"
	"                         counts from the scheduled time (0: saturate)\n"
	"      --arrival A        --rate's schedule: fixed (evenly spaced) or\n"
	"                         poisson (random, same mean) (fixed)\n"
	"      --duration SEC     with --rate: each user sends rate x SEC\n"
	"                         messages (num_messages is then ignored), so\n"
	"                         every point of a rate sweep lasts as long\n"
	"      --slo P99_MS       with --sweep rate=...: name the highest rate\n"
	"                         whose p99 latency stays under P99_MS\n"
	"      --sched ROLE=P[:PRIO]  scheduling policy of the benchmark's\n"
	"                         threads: P other, batch, idle, fifo, rr; ROLE\n"
	"                         all, client, server, cli_snd, cli_rcv, srv_rcv,\n"
	"                         srv_snd, srv_loop (server: needs its pid)\n"
	"      --nice ROLE=N      their nice value (-20..19)\n"
	"      --slice ROLE=US    their EEVDF slice request (100..100000 us)\n"
	"      --nodelay          TCP_NODELAY on the client's sockets (and the\n"
	"                         --local server's): no Nagle delay at low rates\n"
	"      --background burn=N[:NICE]  N CPU-bound threads (cb_burn) run\n"
	"                         through every run; their loops/s is reported\n"
	"      --profile[=HZ]     sample on-CPU stacks of every CPU at HZ (99),\n"
	"                         and off-CPU stacks of the benchmark's threads\n"
	"                         weighted by the time away; in the JSON and\n"
	"                         the report (flame graphs)\n"
	"      --profile-out FILE the profile as folded stacks (flame-graph\n"
	"                         tools' format), off-CPU in FILE.offcpu\n"
	"      --timeline FILE    the scheduler events of the benchmark's threads\n"
	"                         over the slowest second, as a JSON trace for\n"
	"                         Perfetto or chrome://tracing\n"
	"  -t, --timeout SEC      bound on every wait of a run (30)\n"
	"      --trace            trace with eBPF, fail if it cannot load\n"
	"      --no-trace         do not trace (default: trace when possible)\n"
	"  -i, --interval MS      period of the per-interval series (100)\n"
	"      --server-pid PID   the chat_s process to trace (default: found\n"
	"                         from the listening port)\n"
	"      --server-trace     ask chat_s for its host's kernel record at the\n"
	"                         end of each run (default: when the server is\n"
	"                         not on this host); the verdict judges both\n"
	"      --no-server-trace  never ask (the original client never does)\n"
	"      --slow-threshold PCT  a run is slow below the median by more than\n"
	"                         max(PCT %, 3 robust SDs) (15); causes named\n"
	"      --baseline FILE    judge runs against a --json file saved earlier\n"
	"      --cpus LIST        confine the client's threads to LIST (0-3,6)\n"
	"      --pin              one CPU per thread, round-robin over the CPUs;\n"
	"                         with --clients, one CPU per client\n"
	"      --clients N        N chat_c processes, each with its own rooms,\n"
	"                         released together by a chat_s --clients N (the\n"
	"                         --local one is); prints their sum, the spread\n"
	"                         and each client's kernel record\n"
	"      --model M          --local: the server's model (threads, epoll,\n"
	"                         pool[=N])\n"
	"      --server-cpus LIST --local: the server's threads on LIST\n"
	"      --server-pin       --local: one CPU per server thread\n"
	"  -q, --quiet            no 'Creating room' progress lines\n"
	"  -v, --verbose          kernel histograms as star charts\n"
	"  -h, --help             this text\n"
	"  -V, --version          version\n"
	"\n"
	"Examples:\n"
	"  chat_s 127.0.0.1 & chat_c 127.0.0.1 30 1000      the original's way\n"
	"  chat_c --local --runs 10 10 1000                  ten traced runs\n"
	"  chat_c --local -r 5 -j results.json 20 500        results as JSON\n"
	"  chat_c --local -r 3 --sweep rooms=1,2,4,8 10 300  a load sweep\n"
	"  chat_c --local --sweep rate=100,400,1600 2 400     latency vs load\n"
	"  chat_c --local --model epoll --cpus 1 --server-cpus 0 10 1000\n"
	"  chat_c --local --clients 2 --pin 10 1000          one client per CPU\n"
	"  chat_c 127.0.0.1 | grep Average | awk '{print $4}'\n";

/* One client per CPU of a large machine, and some to spare. */
#define MAX_CLIENTS 256

enum {
	OPT_LOCAL = 256,
	OPT_SWEEP,
	OPT_SLOW,
	OPT_BASELINE,
	OPT_CPUS,
	OPT_PIN,
	OPT_MODEL,
	OPT_SERVER_CPUS,
	OPT_SERVER_PIN,
	OPT_REPORT,
	OPT_PAUSE,
	OPT_TRACE,
	OPT_NO_TRACE,
	OPT_SERVER_TRACE,
	OPT_NO_SERVER_TRACE,
	OPT_SERVER_PID,
	OPT_CLIENTS,
	OPT_RATE,
	OPT_ARRIVAL,
	OPT_SLO,
	OPT_SCHED,
	OPT_NICE,
	OPT_SLICE,
	OPT_BACKGROUND,
	OPT_NODELAY,
	OPT_DURATION,
	OPT_PROFILE,
	OPT_PROFILE_OUT,
	OPT_TIMELINE,
};

/* A million per user is far beyond what one socket can carry. */
#define MAX_RATE 1000000

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * One value of a sweep: a number in range, or for sched a policy that
 * --sched all=VALUE would take (kept as text, its index as the value).
 */
static int sweep_value(const char *param, const char *tok, long lo, long hi,
		       struct client_opts *o, char *err, size_t len)
{
	struct sched_spec probe = { 0 };
	char arg[40];

	if (strcmp(param, "sched"))
		return parse_long(tok, "--sweep value", lo, hi,
				  &o->sweep_values[o->sweep_n], err, len);
	if (strlen(tok) >= sizeof(o->sweep_texts[0])) {
		snprintf(err, len, "--sweep sched: '%s' is not a policy", tok);
		return -1;
	}
	snprintf(arg, sizeof(arg), "all=%s", tok);
	if (sched_spec_parse(&probe, SCHED_WHAT_POLICY, arg, err, len))
		return -1;
	snprintf(o->sweep_texts[o->sweep_n], sizeof(o->sweep_texts[0]), "%s",
		 tok);
	o->sweep_values[o->sweep_n] = o->sweep_n;
	return 0;
}

/* --sweep rooms=1,2,4: the parameter and up to 64 values in range. */
static int parse_sweep(const char *arg, struct client_opts *o, char *err,
		       size_t len)
{
	static const struct {
		const char *name;
		long lo, hi;
	} params[] = {
		{ "rooms", 1, CHAT_MAX_ROOMS },
		{ "messages", 1, CHAT_MAX_MESSAGES },
		{ "users", CHAT_MIN_USERS, CHAT_MAX_USERS },
		{ "rate", 1, MAX_RATE },
		/* The scheduling axes set every worker role (ROLE all). */
		{ "sched", 0, 0 },
		{ "nice", -20, 19 },
		{ "slice", 100, 100000 },
	};
	const char *eq = strchr(arg, '=');
	char list[512], *tok, *save;
	size_t i, n;

	if (!eq) {
		snprintf(err, len, "--sweep wants PARAM=V1,V2,... (rooms, messages, users, rate, sched, nice or slice), not '%s'",
			 arg);
		return -1;
	}
	n = (size_t)(eq - arg);
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		if (strlen(params[i].name) == n && !strncmp(arg, params[i].name, n))
			break;
	if (i == sizeof(params) / sizeof(params[0])) {
		snprintf(err, len, "--sweep: unknown parameter '%.*s' (rooms, messages, users, rate, sched, nice or slice)",
			 (int)n, arg);
		return -1;
	}
	o->sweep_param = params[i].name;
	o->sweep_n = 0;
	snprintf(list, sizeof(list), "%s", eq + 1);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->sweep_n == (int)(sizeof(o->sweep_values) /
					sizeof(o->sweep_values[0]))) {
			snprintf(err, len, "--sweep: at most 64 values");
			return -1;
		}
		if (sweep_value(params[i].name, tok, params[i].lo,
				params[i].hi, o, err, len))
			return -1;
		o->sweep_n++;
	}
	if (!o->sweep_n) {
		snprintf(err, len, "--sweep %s= needs at least one value",
			 o->sweep_param);
		return -1;
	}
	return 0;
}

static int parse_cpus(const char *arg, struct client_opts *o, char *err,
		      size_t len)
{
	cpu_set_t avail;
	char why[200];

	if (cpuset_allowed(&avail) ||
	    cpuset_parse(arg, &o->cpus, &avail, why, sizeof(why))) {
		snprintf(err, len, "--cpus %s: %s", arg, why);
		return -1;
	}
	o->have_cpus = true;
	return 0;
}

static int parse_positionals(int argc, char **argv, struct client_opts *o,
			     char *err, size_t len)
{
	const char *host = "127.0.0.1";
	int first = optind, n = argc - optind;
	long v;

	/* With --local the address may be left out: numbers are counts. */
	if (n > 0 && !(o->local && all_digits(argv[first]))) {
		host = argv[first];
		first++;
		n--;
		o->have_addr = true;
	} else if (!o->local) {
		snprintf(err, len, "missing ip_addr (see --help)");
		return -1;
	}
	if (n > 3 || (o->local && n > 2)) {
		snprintf(err, len, "too many arguments (see --help)");
		return -1;
	}
	if (n > 0) {
		if (parse_long(argv[first], "num_rooms", 1, CHAT_MAX_ROOMS, &v,
			       err, len))
			return -1;
		o->rooms = (int)v;
	}
	if (n > 1) {
		if (parse_long(argv[first + 1], "num_messages", 1,
			       CHAT_MAX_MESSAGES, &v, err, len))
			return -1;
		o->messages = (int)v;
	}
	if (n > 2) {
		if (parse_long(argv[first + 2], "port", 1, 65535, &v, err, len))
			return -1;
		o->port = (int)v;
	}
	return net_parse_addr(host, o->port, &o->addr, err, len);
}

static const struct option longopts[] = {
	{ "runs", required_argument, NULL, 'r' },
	{ "users", required_argument, NULL, 'u' },
	{ "json", required_argument, NULL, 'j' },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "slow-threshold", required_argument, NULL, OPT_SLOW },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "pin", no_argument, NULL, OPT_PIN },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "server-cpus", required_argument, NULL, OPT_SERVER_CPUS },
	{ "server-pin", no_argument, NULL, OPT_SERVER_PIN },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "pause", required_argument, NULL, OPT_PAUSE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "timeout", required_argument, NULL, 't' },
	{ "trace", no_argument, NULL, OPT_TRACE },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "server-trace", no_argument, NULL, OPT_SERVER_TRACE },
	{ "no-server-trace", no_argument, NULL, OPT_NO_SERVER_TRACE },
	{ "interval", required_argument, NULL, 'i' },
	{ "server-pid", required_argument, NULL, OPT_SERVER_PID },
	{ "clients", required_argument, NULL, OPT_CLIENTS },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "arrival", required_argument, NULL, OPT_ARRIVAL },
	{ "slo", required_argument, NULL, OPT_SLO },
	{ "sched", required_argument, NULL, OPT_SCHED },
	{ "nice", required_argument, NULL, OPT_NICE },
	{ "slice", required_argument, NULL, OPT_SLICE },
	{ "background", required_argument, NULL, OPT_BACKGROUND },
	{ "nodelay", no_argument, NULL, OPT_NODELAY },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "profile", optional_argument, NULL, OPT_PROFILE },
	{ "profile-out", required_argument, NULL, OPT_PROFILE_OUT },
	{ "timeline", required_argument, NULL, OPT_TIMELINE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 }
};

/* The original's run (10 rooms, 20 users, 100 messages), traced if we can. */
static void client_defaults(struct client_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->port = CHAT_DEFAULT_PORT;
	o->rooms = CHAT_DEFAULT_ROOMS;
	o->messages = CHAT_DEFAULT_MESSAGES;
	o->users = CHAT_USERS_PER_ROOM;
	o->runs = 1;
	o->clients = 1;
	o->timeout_ms = 30000;
	o->trace = TRACE_AUTO;
	o->interval_ms = 100;
	o->slow_pct = SLOW_PCT_DEFAULT;
	o->argc = argc;
	o->argv = argv;
}

/* An output file; only --json may be '-', the others are not text. */
static int parse_path(const char *arg, const char *name, bool dash_ok,
		      const char **path, char *err, size_t len)
{
	if (!*arg || (!dash_ok && !strcmp(arg, "-"))) {
		snprintf(err, len, "%s needs a file name", name);
		return -1;
	}
	*path = arg;
	return 0;
}

static int parse_arrival(const char *arg, struct client_opts *o, char *err,
			 size_t len)
{
	if (arrival_parse(arg, &o->arrival)) {
		snprintf(err, len, "--arrival: '%s' is not fixed or poisson",
			 arg);
		return -1;
	}
	return 0;
}

/* --profile[=HZ]: the value is optional, 99 Hz without one. */
static int parse_profile(const char *arg, struct client_opts *o, char *err,
			 size_t len)
{
	long v;

	o->profile_hz = 99;
	if (!arg)
		return 0;
	if (parse_long(arg, "--profile", 1, 10000, &v, err, len))
		return -1;
	o->profile_hz = (unsigned int)v;
	return 0;
}

/* --sched, --nice and --slice fill one spec, each its own field. */
static int parse_sched(int c, const char *arg, struct client_opts *o,
		       char *err, size_t len)
{
	enum sched_what what = c == OPT_SCHED ? SCHED_WHAT_POLICY :
			       c == OPT_NICE ? SCHED_WHAT_NICE :
					       SCHED_WHAT_SLICE;

	return sched_spec_parse(&o->sched, what, arg, err, len);
}

/*
 * Each option on its own, in the order given.  have_arrival says whether
 * --arrival was given at all: fixed, its default, is also a value.
 */
static int parse_options(int argc, char **argv, struct client_opts *o,
			 bool *have_arrival, char *err, size_t len)
{
	long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:u:j:t:i:qvhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_long(optarg, "--runs", 1, 100000, &v, err,
				       len))
				return COPTS_ERROR;
			o->runs = v;
			break;
		case 'u':
			if (parse_long(optarg, "--users", CHAT_MIN_USERS,
				       CHAT_MAX_USERS, &v, err, len))
				return COPTS_ERROR;
			o->users = (int)v;
			break;
		case 'j':
			if (parse_path(optarg, "--json", true, &o->json_path,
				       err, len))
				return COPTS_ERROR;
			break;
		case OPT_LOCAL:
			o->local = true;
			break;
		case OPT_SLOW:
			if (parse_long(optarg, "--slow-threshold", 1, 99, &v,
				       err, len))
				return COPTS_ERROR;
			o->slow_pct = (double)v;
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
			break;
		case OPT_CPUS:
			if (parse_cpus(optarg, o, err, len))
				return COPTS_ERROR;
			break;
		case OPT_PIN:
			o->pin = true;
			break;
		case OPT_MODEL:
			o->server_model = optarg;
			break;
		case OPT_SERVER_CPUS:
			o->server_cpus = optarg;
			break;
		case OPT_SERVER_PIN:
			o->server_pin = true;
			break;
		case OPT_PAUSE:
			if (parse_long(optarg, "--pause", 0, 600000, &v, err,
				       len))
				return COPTS_ERROR;
			o->pause_ms = (unsigned int)v;
			break;
		case OPT_REPORT:
			if (parse_path(optarg, "--report", false,
				       &o->report_path, err, len))
				return COPTS_ERROR;
			break;
		case OPT_SWEEP:
			if (parse_sweep(optarg, o, err, len))
				return COPTS_ERROR;
			break;
		case 't':
			if (parse_long(optarg, "--timeout", 1, 86400, &v, err,
				       len))
				return COPTS_ERROR;
			o->timeout_ms = (int)v * 1000;
			break;
		case OPT_TRACE:
			o->trace = TRACE_ON;
			break;
		case OPT_SERVER_TRACE:
			o->server_trace = TRACE_ON;
			break;
		case OPT_NO_SERVER_TRACE:
			o->server_trace = TRACE_OFF;
			break;
		case OPT_NO_TRACE:
			o->trace = TRACE_OFF;
			break;
		case 'i':
			if (parse_long(optarg, "--interval", 10, 60000, &v, err,
				       len))
				return COPTS_ERROR;
			o->interval_ms = (unsigned int)v;
			break;
		case OPT_SERVER_PID:
			if (parse_long(optarg, "--server-pid", 1, 1L << 22, &v,
				       err, len))
				return COPTS_ERROR;
			o->server_pid = (pid_t)v;
			break;
		case OPT_CLIENTS:
			if (parse_long(optarg, "--clients", 1, MAX_CLIENTS, &v,
				       err, len))
				return COPTS_ERROR;
			o->clients = (int)v;
			break;
		case OPT_RATE:
			if (parse_long(optarg, "--rate", 0, MAX_RATE, &v, err,
				       len))
				return COPTS_ERROR;
			o->rate = v;
			break;
		case OPT_ARRIVAL:
			if (parse_arrival(optarg, o, err, len))
				return COPTS_ERROR;
			*have_arrival = true;
			break;
		case OPT_SLO:
			if (parse_double(optarg, "--slo", 0.001, 3600000,
					 &o->slo_ms, err, len))
				return COPTS_ERROR;
			break;
		case OPT_SCHED:
		case OPT_NICE:
		case OPT_SLICE:
			if (parse_sched(c, optarg, o, err, len))
				return COPTS_ERROR;
			break;
		case OPT_DURATION:
			if (parse_double(optarg, "--duration", 0.01, 86400,
					 &o->duration_s, err, len))
				return COPTS_ERROR;
			break;
		case OPT_NODELAY:
			o->nodelay = true;
			break;
		case OPT_PROFILE:
			if (parse_profile(optarg, o, err, len))
				return COPTS_ERROR;
			break;
		case OPT_PROFILE_OUT:
			if (parse_path(optarg, "--profile-out", false,
				       &o->profile_out, err, len))
				return COPTS_ERROR;
			break;
		case OPT_TIMELINE:
			if (parse_path(optarg, "--timeline", false,
				       &o->timeline_path, err, len))
				return COPTS_ERROR;
			break;
		case OPT_BACKGROUND:
			if (bg_parse(optarg, &o->background, err, len))
				return COPTS_ERROR;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return COPTS_EXIT;
		case 'V':
			printf("chat_c (chatbench) %s, protocol of chat %s\n",
			       CHATBENCH_VERSION, CHAT_VERSION);
			return COPTS_EXIT;
		default:
			opt_error(c, argv, err, len);
			return COPTS_ERROR;
		}
	}
	return COPTS_OK;
}

/* A rate sweep gives every point a rate: what the open-loop options need. */
static bool sweeps_rate(const struct client_opts *o)
{
	return o->sweep_param && !strcmp(o->sweep_param, "rate");
}

/*
 * The options against each other, once all are known, whatever their
 * order: combinations that cannot work are refused (the first found is
 * named), and what one option implies for another is set.
 */
static int cross_check(struct client_opts *o, bool have_arrival, char *err,
		       size_t len)
{
	if ((o->server_model || o->server_cpus || o->server_pin) && !o->local) {
		snprintf(err, len,
			 "--model, --server-cpus and --server-pin set up the --local server; give them to chat_s otherwise");
		return -1;
	}
	if (o->clients > 1 && (o->sched.any || o->background.burners)) {
		snprintf(err, len,
			 "--clients with --sched, --nice, --slice or --background is not supported yet: run the clients by hand");
		return -1;
	}
	if (o->clients > 1 &&
	    (o->sweep_param || o->report_path || o->baseline)) {
		snprintf(err, len,
			 "--clients sums one run of several clients: not with --sweep, --report or --baseline");
		return -1;
	}
	if (have_arrival && !o->rate && !sweeps_rate(o)) {
		snprintf(err, len,
			 "--arrival shapes the open-loop schedule: give --rate N (or --sweep rate=...)");
		return -1;
	}
	if (o->duration_s && !o->rate && !sweeps_rate(o)) {
		snprintf(err, len,
			 "--duration sizes an open-loop run: give --rate N (or --sweep rate=...)");
		return -1;
	}
	if (o->slo_ms && !sweeps_rate(o)) {
		snprintf(err, len,
			 "--slo picks a rate out of a sweep: give --sweep rate=V1,V2,...");
		return -1;
	}
	/* The folded stacks come from the sampler: --profile-out starts it. */
	if (o->profile_out && !o->profile_hz)
		o->profile_hz = 99;
	if ((o->profile_hz || o->timeline_path) && o->trace == TRACE_OFF) {
		snprintf(err, len,
			 "--profile and --timeline are read by the tracer: not with --no-trace");
		return -1;
	}
	if ((o->profile_hz || o->timeline_path) && o->clients > 1) {
		snprintf(err, len,
			 "--profile and --timeline profile one client: not with --clients");
		return -1;
	}
	/* --pin alone spreads the threads over every CPU allowed. */
	if (o->pin && !o->have_cpus && cpuset_allowed(&o->cpus) == 0)
		o->have_cpus = true;
	return 0;
}

int client_parse(int argc, char **argv, struct client_opts *o, char *err,
		 size_t len)
{
	bool have_arrival = false;
	int rc;

	client_defaults(o, argc, argv);
	rc = parse_options(argc, argv, o, &have_arrival, err, len);
	if (rc != COPTS_OK)
		return rc;
	if (parse_positionals(argc, argv, o, err, len) ||
	    cross_check(o, have_arrival, err, len))
		return COPTS_ERROR;
	return COPTS_OK;
}
