// SPDX-License-Identifier: GPL-2.0
/*
 * chat_c --clients N.  Each client is this same chat_c, started on its
 * own rooms with --json into a private directory, so that it measures
 * and traces exactly as a single client would (its own threads and the
 * whole server).  The parent only adds up: the counts of a run are the
 * sum of the clients' counts, exact; its elapsed time is the union of
 * their clocks, from the first release to the last end (CLOCK_MONOTONIC,
 * one host), so the sum's throughput never credits a client that started
 * late.  The spread says how far the clients were from one another.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/summary.h"
#include "output/json/json_out.h"
#include "output/text/kstats_text.h"
#include "output/text/run_text.h"
#include "results/jfield.h"
#include "results/kstats_load.h"
#include "results/results.h"
#include "study/clients.h"
#include "tracer/kstats.h"
#include "util/cpuset.h"

extern char **environ;

struct child {
	pid_t pid;
	int status;
	int cpu;		/* --pin: its CPU; -1 otherwise */
	char json[PATH_MAX];
	char log[PATH_MAX];
	struct result_file rf;
	bool loaded;
};

struct argbuf {
	char *argv[40];
	int n;
	char num[12][24];
	int nums;
};

static void arg(struct argbuf *a, const char *s)
{
	a->argv[a->n++] = (char *)s;
}

static void arg_num(struct argbuf *a, const char *opt, long v)
{
	char *b = a->num[a->nums++];

	snprintf(b, sizeof(a->num[0]), "%ld", v);
	if (opt)
		arg(a, opt);
	arg(a, b);
}

/* The command line of client c: the parent's run, one client's share. */
static void child_args(const struct client_opts *o, const struct child *c,
		       pid_t server, char *cpus, size_t len, struct argbuf *a)
{
	char ip[INET_ADDRSTRLEN];

	arg(a, "chat_c");
	arg(a, "-q");
	arg(a, "--json");
	arg(a, c->json);
	arg_num(a, "--runs", o->runs);
	arg_num(a, "--users", o->users);
	arg_num(a, "--timeout", o->timeout_ms / 1000);
	arg_num(a, "--pause", o->pause_ms);
	arg_num(a, "--interval", o->interval_ms);
	if (o->trace != TRACE_AUTO)
		arg(a, o->trace == TRACE_ON ? "--trace" : "--no-trace");
	if (o->nodelay)
		arg(a, "--nodelay");
	if (o->rate) {
		arg_num(a, "--rate", o->rate);
		arg(a, "--arrival");
		arg(a, arrival_name(o->arrival));
	}
	if (server)
		arg_num(a, "--server-pid", server);
	if (c->cpu >= 0)
		snprintf(cpus, len, "%d", c->cpu);
	else if (o->have_cpus)
		cpuset_format(&o->cpus, cpus, len);
	if (c->cpu >= 0 || o->have_cpus) {
		arg(a, "--cpus");
		arg(a, cpus);
	}
	inet_ntop(AF_INET, &o->addr.sin_addr, ip, sizeof(ip));
	/* The buffer outlives the spawn: it is the caller's. */
	snprintf(cpus + strlen(cpus) + 1, len - strlen(cpus) - 1, "%s", ip);
	arg(a, cpus + strlen(cpus) + 1);
	arg_num(a, NULL, o->rooms);
	arg_num(a, NULL, o->messages);
	arg_num(a, NULL, ntohs(o->addr.sin_port));
	a->argv[a->n] = NULL;
}

static int spawn_child(const struct client_opts *o, struct child *c,
		       pid_t server, char *err, size_t len)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	struct argbuf a = { .n = 0 };
	char cpus[128] = "", self[PATH_MAX];
	sigset_t none;
	ssize_t n;
	int rc;

	child_args(o, c, server, cpus, sizeof(cpus), &a);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, c->log,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	/* Ours are blocked for the signal thread; the child sets its own. */
	sigemptyset(&none);
	posix_spawnattr_init(&sa);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK);
	/* By its own path, so that its threads' process is named chat_c. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	rc = posix_spawn(&c->pid, n > 0 ? self : "/proc/self/exe", &fa, &sa,
			 a.argv, environ);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		c->pid = 0;
		snprintf(err, len, "cannot start client: %s", strerror(rc));
		return -1;
	}
	return 0;
}

/* Waits for every client; a signal to us goes on to each of them. */
static void wait_children(struct child *c, unsigned int n,
			  const atomic_int *got_signal)
{
	unsigned int i, alive = n;
	int forwarded = 0;

	while (alive) {
		for (i = 0; i < n; i++) {
			pid_t p = c[i].pid;

			if (p <= 0 || waitpid(p, &c[i].status, WNOHANG) != p)
				continue;
			c[i].pid = -c[i].pid;
			alive--;
		}
		if (*got_signal && !forwarded) {
			for (i = 0; i < n; i++)
				if (c[i].pid > 0)
					kill(c[i].pid, *got_signal);
			forwarded = 1;
		}
		if (alive)
			usleep(20 * 1000);
	}
}

/* The last line a client wrote: its reason when it failed. */
static void last_line(const char *path, char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "no output");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

static const struct result_run *run_of(const struct child *c, long k)
{
	const struct result_group *g;

	if (!c->loaded || !c->rf.nr_groups)
		return NULL;
	g = &c->rf.groups[0];
	return (size_t)k < g->nr_runs ? &g->runs[k] : NULL;
}

static uint64_t start_of(const struct result_run *r)
{
	uint64_t v = 0;

	jf_u64(r->json, "start_ns", &v);
	return v;
}

/* Run k of every client, added up; false when one of them lacks it. */
static bool sum_run(const struct child *c, unsigned int n, long k,
		    struct run_result *sum, uint64_t *skew_ns)
{
	uint64_t first = UINT64_MAX, last_start = 0, end = 0;
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	sum->run = (int)k + 1;
	sum->ok = true;
	for (i = 0; i < n; i++) {
		const struct result_run *r = run_of(&c[i], k);
		uint64_t s, e;

		if (!r)
			return false;
		sum->ok &= r->ok;
		sum->interrupted |= !r->ok && jf_bool(r->json, "interrupted",
						      &sum->interrupted) == 0;
		sum->rooms += r->rooms;
		sum->messages = r->messages;
		sum->users = r->users_per_room;
		sum->sent += r->messages_sent;
		sum->received += r->messages_received;
		s = start_of(r);
		e = s + (uint64_t)(r->elapsed_s * 1e9);
		first = s < first ? s : first;
		last_start = s > last_start ? s : last_start;
		end = e > end ? e : end;
	}
	sum->start_ns = first;
	*skew_ns = last_start - first;
	sum->elapsed_s = (double)(end - first) / 1e9;
	if (sum->elapsed_s > 0)
		sum->throughput = (double)(sum->sent + sum->received) /
				  sum->elapsed_s;
	return true;
}

static void print_clients(FILE *f, const struct client_opts *o,
			  const struct child *c, unsigned int n, long k,
			  uint64_t skew_ns)
{
	double lo = 0, hi = 0;
	unsigned int i;

	fprintf(f, "Clients            : %u, released within %.3f ms of each other; elapsed from the first release to the last end\n",
		n, (double)skew_ns / 1e6);
	for (i = 0; i < n; i++) {
		const struct result_run *r = run_of(&c[i], k);
		char where[32] = "";

		if (c[i].cpu >= 0)
			snprintf(where, sizeof(where), " (cpu %d)", c[i].cpu);
		fprintf(f, "Client %-11u : %" PRIu64 " messages in %.3f s, %.0f messages per second%s\n",
			i + 1, r->total_messages, r->elapsed_s, r->throughput,
			where);
		lo = !i || r->throughput < lo ? r->throughput : lo;
		hi = !i || r->throughput > hi ? r->throughput : hi;
	}
	fprintf(f, "Client spread      : %.0f .. %.0f messages per second, max/min %.3f\n",
		lo, hi, lo > 0 ? hi / lo : 0);
	for (i = 0; i < n; i++) {
		const struct result_run *r = run_of(&c[i], k);
		json_t *kj = json_object_get(r->json, "kernel");
		struct kstats *ks = kj ? kstats_from_json(kj) : NULL;

		if (!ks)
			continue;
		fprintf(f, "Kernel of client %u (its threads and the whole server):\n",
			i + 1);
		kstats_print_text(f, ks, o->verbose);
		kstats_free(ks);
	}
	fflush(f);
}

/* The sum's JSON line holds every client's own line under "clients". */
static int json_run(const struct study_io *io, const struct child *c,
		    unsigned int n, long k, const struct run_result *sum)
{
	unsigned int i;
	json_t *arr;

	if (!io->json)
		return 0;
	if (json_out_run(io->json, sum))
		return -1;
	arr = json_array();
	for (i = 0; arr && i < n; i++)
		json_array_append(arr, run_of(&c[i], k)->json);
	return json_out_set(io->json, (size_t)k, "clients", arr);
}

static const char *tracing_of(const struct child *c)
{
	const struct result_group *g;

	if (!c->loaded || !c->rf.nr_groups)
		return "unknown";
	g = &c->rf.groups[0];
	return g->summary.present && g->summary.tracing ?
		       g->summary.tracing : "unknown";
}

/* The sums, as a series: the original's lines, the summary, the JSON. */
static int report(const struct client_opts *o, struct child *c,
		  unsigned int n, const struct study_io *io)
{
	struct run_result *sums = calloc((size_t)o->runs, sizeof(*sums));
	struct summary_meta meta = { 0 };
	char tracing[160];
	uint64_t skew;
	struct stats st;
	long k, done = 0;
	int rc = 0;

	if (!sums)
		return -1;
	for (k = 0; k < o->runs && sum_run(c, n, k, &sums[k], &skew); k++) {
		done++;
		if (o->runs > 1)
			fprintf(io->text, "Run %ld of %ld\n", k + 1, o->runs);
		out_text_run(io->text, &sums[k], false);
		print_clients(io->text, o, c, n, k, skew);
		if (json_run(io, c, n, k, &sums[k]))
			rc = -1;
	}
	summary_compute(sums, (size_t)done, &st);
	if (o->runs > 1)
		out_text_summary(io->text, o->rooms, o->messages, &st,
				 (size_t)done);
	snprintf(tracing, sizeof(tracing), "in each client: %s",
		 tracing_of(&c[0]));
	study_meta(&meta, o, io);
	meta.attempted = (size_t)done;
	meta.trace_state = tracing;
	meta.interrupted = *io->got_signal != 0;
	if (io->json && json_out_summary(io->json, &st, &meta))
		rc = -1;
	free(sums);
	return rc;
}

int clients_study(const struct client_opts *o, pid_t server,
		  const struct study_io *io)
{
	char dir[] = "/tmp/chatbench-clients-XXXXXX", err[256], why[400];
	unsigned int i, n = (unsigned int)o->clients;
	struct child *c = calloc(n, sizeof(*c));
	int rc = -1;

	if (!c || !mkdtemp(dir)) {
		snprintf(io->failure, io->failure_len,
			 "--clients: cannot make a directory for the clients' results: %s",
			 strerror(errno));
		free(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(c[i].json, sizeof(c[i].json), "%s/client%u.json", dir,
			 i + 1);
		snprintf(c[i].log, sizeof(c[i].log), "%s/client%u.log", dir,
			 i + 1);
		c[i].cpu = o->pin ? cpuset_nth(&o->cpus, i) : -1;
		if (spawn_child(o, &c[i], server, err, sizeof(err))) {
			snprintf(io->failure, io->failure_len, "client %u: %s",
				 i + 1, err);
			break;
		}
	}
	wait_children(c, i, io->got_signal);
	for (i = 0; i < n; i++)
		c[i].loaded = !results_load_flags(c[i].json,
						  RESULTS_ALLOW_NO_SUMMARY,
						  &c[i].rf, err, sizeof(err));
	if (!*io->failure)
		rc = report(o, c, n, io);
	for (i = 0; i < n; i++) {
		int st = c[i].status;

		if (c[i].pid < 0 && WIFEXITED(st) && !WEXITSTATUS(st))
			continue;
		rc = -1;
		if (*io->failure)
			continue;
		last_line(c[i].log, why, sizeof(why));
		snprintf(io->failure, io->failure_len, "client %u: %s", i + 1,
			 strncmp(why, "chat_c: ", 8) ? why : why + 8);
	}
	for (i = 0; i < n; i++) {
		results_free(&c[i].rf);
		unlink(c[i].json);
		unlink(c[i].log);
	}
	rmdir(dir);
	free(c);
	return rc;
}
