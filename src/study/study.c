// SPDX-License-Identifier: GPL-2.0
/*
 * Repeated runs and sweeps.  Each run is printed and written to JSON as
 * soon as it ends, so an interrupted study keeps what it measured; the
 * sweep table comes last and puts throughput next to message latency and
 * the main kernel figures of each point.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/baseline.h"
#include "output/text/diag_text.h"
#include "analysis/diagnose.h"
#include "analysis/kfigures.h"
#include "tracer/kstats.h"
#include "output/json/json_out.h"
#include "output/text/run_text.h"
#include "output/text/progress.h"
#include "study/study.h"
#include "analysis/summary.h"
#include "util/fmt.h"

/*
 * Verdicts of the series' runs against the reference (the runs' own
 * median, or the baseline's), in the text report and merged into each
 * run's JSON object.
 */
static void diagnose_series(const struct client_opts *o, struct series *s,
			    const struct study_io *io)
{
	struct diag_run *dr = calloc(s->attempted + 1, sizeof(*dr));
	struct diag_verdict *v = calloc(s->attempted + 1, sizeof(*v));
	struct diag_dip dips[DIAG_MAX_DIPS];
	struct diag_ref ref;
	size_t i, n = 0;
	int nd;

	if (!dr || !v)
		goto out;
	for (i = 0; i < s->attempted; i++) {
		if (!s->runs[i].ok)
			continue;
		dr[n].throughput = s->runs[i].throughput;
		dr[n].steal_pct = s->runs[i].steal_pct;
		dr[n].k = s->runs[i].kernel;
		n++;
	}
	if (io->baseline) {
		bool exact;

		if (baseline_ref(io->baseline, s->rooms, s->messages, s->users,
				 o->slow_pct, &ref, &exact))
			goto out;
		if (!exact)
			fprintf(io->text, "Baseline           : no saved run of %d rooms x %d messages, %d users: comparing with all of its runs\n",
				s->rooms, s->messages, s->users);
	} else {
		diag_reference(dr, n, o->slow_pct, &ref);
	}
	for (i = 0, n = 0; i < s->attempted; i++) {
		if (!s->runs[i].ok)
			continue;
		diag_explain(&dr[n++], &ref, &v[i]);
		if (!io->json)
			continue;
		json_out_set(io->json, i, "slow", json_boolean(v[i].slow));
		if (v[i].slow)
			json_out_set(io->json, i, "causes",
				     diag_causes_json(&v[i]));
		nd = diag_find_dips(s->runs[i].kernel, o->slow_pct, dips,
				    DIAG_MAX_DIPS);
		if (nd)
			json_out_set(io->json, i, "dips",
				     diag_dips_json(dips, nd));
	}
	diag_print(io->text, s, &ref, v, o->slow_pct, io->baseline != NULL);
out:
	free(dr);
	free(v);
}

/* --pause, in slices so that SIGINT still ends the study at once. */
static int pause_between(struct client_ctx *ctx, unsigned int ms)
{
	while (ms && !client_stopped(ctx)) {
		unsigned int slice = ms < 50 ? ms : 50;

		usleep(slice * 1000);
		ms -= slice;
	}
	return client_stopped(ctx) ? -1 : 0;
}

int study_run_series(struct client_ctx *ctx, struct client_opts *o,
		     struct series *s, const struct study_io *io)
{
	struct summary_meta meta;
	struct progress *prog;
	long i;

	s->rooms = o->rooms;
	s->messages = o->messages;
	s->users = o->users;
	s->runs = calloc((size_t)o->runs, sizeof(*s->runs));
	if (!s->runs)
		return -1;
	for (i = 0; i < o->runs && !client_stopped(ctx); i++) {
		struct run_result *r = &s->runs[i];

		if (i && pause_between(ctx, o->pause_ms))
			break;
		if (o->runs > 1 && !o->quiet)
			fprintf(io->text, "Run %ld of %ld\n", i + 1, o->runs);
		fflush(io->text);
		prog = progress_start(ctx, i + 1, o->runs,
				      (uint64_t)o->rooms * (uint64_t)o->users *
					      (uint64_t)o->messages *
					      (uint64_t)o->users);
		client_run(ctx, (int)i + 1, r);
		progress_stop(prog);
		r->sweep_param = s->sweep_param;
		r->sweep_value = s->sweep_value;
		s->attempted++;
		if (r->ok) {
			if (!o->quiet)
				fprintf(io->text, "Test complete.\n");
			out_text_run(io->text, r, o->verbose);
		} else {
			fprintf(stderr, "chat_c: run %ld failed: %s\n", i + 1,
				r->error);
		}
		if (io->json && json_out_run(io->json, r)) {
			/* Measuring on without a place to keep it is waste. */
			fprintf(stderr, "chat_c: writing JSON to %s failed: %s\n",
				io->json_path, strerror(errno));
			break;
		}
		if (!r->ok)
			break;
	}
	summary_compute(s->runs, s->attempted, &s->st);
	if (o->runs > 1)
		out_text_summary(io->text, o, &s->st, s->attempted);
	diagnose_series(o, s, io);
	meta.attempted = s->attempted;
	meta.trace_state = io->trace_state;
	meta.interrupted = *io->got_signal != 0;
	meta.sweep_param = s->sweep_param;
	meta.sweep_value = s->sweep_value;
	meta.client_cpus = io->client_cpus;
	meta.client_pin = o->pin;
	meta.server = &io->server;
	if (io->json && json_out_summary(io->json, o, &s->st, &meta))
		fprintf(stderr, "chat_c: writing JSON to %s failed\n",
			io->json_path);
	return s->st.n == (size_t)o->runs ? 0 : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Median over the completed runs of a series of one per-run figure. */
static uint64_t median_u64(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct point_row {
	uint64_t lat_p99, rq_p99;
	double invol, xcpu, idle;
	bool traced;
};

static void point_figures(const struct series *s, struct point_row *row)
{
	uint64_t *lat = calloc(s->attempted + 1, sizeof(*lat));
	uint64_t *rq = calloc(s->attempted + 1, sizeof(*rq));
	size_t i, nl = 0, nk = 0;

	memset(row, 0, sizeof(*row));
	if (!lat || !rq)
		goto out;
	for (i = 0; i < s->attempted; i++) {
		const struct run_result *r = &s->runs[i];
		struct kfigures f;

		if (!r->ok)
			continue;
		if (r->latency)
			lat[nl++] = r->latency->p99;
		kfigures_from(r->kernel, &f);
		if (!f.valid)
			continue;
		rq[nk++] = f.rq_p99_ns;
		row->invol += f.invol_per_s;
		row->xcpu += f.xcpu_pct;
		row->idle += f.idle_pct;
	}
	row->lat_p99 = median_u64(lat, nl);
	row->rq_p99 = median_u64(rq, nk);
	row->traced = nk > 0;
	if (nk) {
		row->invol /= (double)nk;
		row->xcpu /= (double)nk;
		row->idle /= (double)nk;
	}
out:
	free(lat);
	free(rq);
}

void study_print_sweep(FILE *f, const struct series *s, size_t n)
{
	char a[24], b[24];
	size_t i;

	if (!n)
		return;
	fprintf(f, "\nSweep of %s:", s[0].sweep_param);
	if (strcmp(s[0].sweep_param, "rooms"))
		fprintf(f, " %d rooms,", s[0].rooms);
	if (strcmp(s[0].sweep_param, "messages"))
		fprintf(f, " %d messages%s", s[0].messages,
			strcmp(s[0].sweep_param, "users") ? "," : "");
	if (strcmp(s[0].sweep_param, "users"))
		fprintf(f, " %d users per room", s[0].users);
	/* The legend on its own line keeps the text under 100 columns. */
	fprintf(f, "\n(msg p99 = message latency, rq p99 = run-queue latency,"
		" invol/s = involuntary switches)\n");
	fprintf(f, "%9s %4s %10s %10s %10s %9s %9s %9s %6s %6s\n",
		s[0].sweep_param, "runs", "avg msg/s", "min", "max",
		"msg p99", "rq p99", "invol/s", "xcpu%", "idle%");
	for (i = 0; i < n; i++) {
		struct point_row row;

		point_figures(&s[i], &row);
		fprintf(f, "%9ld %4zu %10.0f %10.0f %10.0f %9s", s[i].sweep_value,
			s[i].st.n, s[i].st.avg, s[i].st.min, s[i].st.max,
			fmt_ns(a, sizeof(a), row.lat_p99));
		if (row.traced)
			fprintf(f, " %9s %9.0f %6.1f %6.1f\n",
				fmt_ns(b, sizeof(b), row.rq_p99), row.invol,
				row.xcpu, row.idle);
		else
			fprintf(f, " %9s %9s %6s %6s\n", "-", "-", "-", "-");
	}
	fflush(f);
}

void study_free_series(struct series *s)
{
	size_t i;

	for (i = 0; s->runs && i < s->attempted; i++) {
		kstats_free(s->runs[i].kernel);
		free(s->runs[i].latency);
	}
	free(s->runs);
	s->runs = NULL;
}
