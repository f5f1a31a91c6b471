// SPDX-License-Identifier: GPL-2.0
/*
 * Repeated runs and sweeps.  Each run is printed and written to JSON as
 * soon as it ends, so an interrupted study keeps what it measured; when
 * the series ends it is analysed once (src/analysis/series.c) and the
 * outputs render the verdict.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/json/diag_json.h"
#include "output/json/json_out.h"
#include "output/text/diag_text.h"
#include "output/text/progress.h"
#include "output/text/run_text.h"
#include "study/profile_out.h"
#include "study/study.h"

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

void study_meta(struct summary_meta *m, const struct client_opts *o,
		const struct study_io *io)
{
	memset(m, 0, sizeof(*m));
	m->rooms = o->rooms;
	m->messages = o->messages;
	m->users = o->users;
	m->argc = o->argc;
	m->argv = o->argv;
	m->nodelay = o->nodelay;
	m->client_cpus = io->client_cpus;
	m->client_pin = o->pin;
	m->client_autogroup = io->client_autogroup;
	m->server = &io->server;
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
		prog = progress_start(client_progress, ctx, i + 1, o->runs,
				      (uint64_t)o->rooms * (uint64_t)o->users *
					      (uint64_t)o->messages *
					      (uint64_t)o->users);
		client_run(ctx, (int)i + 1, r);
		progress_stop(prog);
		r->sweep_param = s->sweep_param;
		r->sweep_value = s->sweep_value;
		r->sweep_text = s->sweep_text;
		s->attempted++;
		if (r->ok) {
			if (!o->quiet)
				fprintf(io->text, "Test complete.\n");
			out_text_run(io->text, r, o->verbose);
		} else if (r->interrupted && r->start_ns) {
			/* What was measured before the signal, marked so. */
			out_text_run(io->text, r, o->verbose);
			fprintf(io->text, "Interrupted        : yes (%s), after %.3f s: the counts are partial\n",
				r->error, r->elapsed_s);
			snprintf(io->failure, io->failure_len,
				 "run %ld %s: the counts above are partial",
				 i + 1, r->error);
		} else {
			snprintf(io->failure, io->failure_len,
				 "run %ld failed: %s", i + 1, r->error);
		}
		if (io->prof && prof_out_run(io->prof, io->text, r,
					     io->failure, io->failure_len))
			break;
		if (io->json && json_out_run(io->json, r)) {
			/* Measuring on without a place to keep it is waste. */
			fprintf(stderr, "chat_c: writing JSON to %s failed: %s\n",
				io->json_path, strerror(errno));
			break;
		}
		if (!r->ok)
			break;
	}
	s->slo_ms = o->slo_ms;
	series_analyse(s, io->baseline, o->slow_pct);
	if (o->runs > 1)
		out_text_summary(io->text, s->rooms, s->messages, &s->st,
				 s->attempted);
	diag_print(io->text, s);
	if (io->json)
		diag_json_series(io->json, s);
	study_meta(&meta, o, io);
	meta.attempted = s->attempted;
	meta.trace_state = io->trace_state;
	meta.interrupted = *io->got_signal != 0;
	meta.sweep_param = s->sweep_param;
	meta.sweep_value = s->sweep_value;
	meta.sweep_text = s->sweep_text;
	meta.verdict = io->json ? diag_json_summary(s) : NULL;
	meta.row = &s->row;
	if (io->json && json_out_summary(io->json, &s->st, &meta))
		fprintf(stderr, "chat_c: writing JSON to %s failed\n",
			io->json_path);
	return s->st.n == (size_t)o->runs ? 0 : -1;
}
