// SPDX-License-Identifier: GPL-2.0
/*
 * Where a run's profile and timeline go besides its JSON line.  The
 * timeline's window is the one the analysis picks (diag_slowest_second():
 * the slowest second of the run's steady part); the slowest over the
 * runs is kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dips.h"
#include "output/json/profile_json.h"
#include "output/text/profile_text.h"
#include "study/profile_out.h"
#include "tracer/kstats.h"
#include "tracer/profile.h"
#include "util/safe_file.h"
#include "workload/client/client.h"

int prof_out_open(struct prof_out *po, const struct client_opts *o,
		  char *err, size_t len)
{
	memset(po, 0, sizeof(*po));
	po->tl_best = -1;
	po->tl_path = o->timeline_path;
	po->slow_pct = o->slow_pct;
	if (po->tl_path) {
		/* Checked, not created: it is written whole when a run ends. */
		const char *why = safe_file_check(po->tl_path);

		if (why) {
			snprintf(err, len, "--timeline: cannot write %s: %s",
				 po->tl_path, why);
			return -1;
		}
	}
	if (!o->profile_out)
		return 0;
	po->on_path = o->profile_out;
	if (asprintf(&po->off_path, "%s.offcpu", po->on_path) < 0) {
		po->off_path = NULL;
		snprintf(err, len, "out of memory");
		return -1;
	}
	/*
	 * New files in place of the old, appended to as runs end (a crash
	 * keeps the stacks so far).  Never opened through a name that is
	 * there already: the .offcpu one is made up, not the user's.
	 */
	po->on = safe_file_fresh(po->on_path);
	po->off = po->on ? safe_file_fresh(po->off_path) : NULL;
	if (!po->off) {
		snprintf(err, len, "--profile-out: cannot write %s: %s",
			 po->on ? po->off_path : po->on_path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_timeline(struct prof_out *po, FILE *text,
			  struct run_result *r, char *err, size_t len)
{
	const struct kstats *k = r->kernel;
	const struct tl_events *tl = k->timeline;
	static const char *const what[] = {
		[SLOW_WINDOW_RUN] = "the whole run: too short for a steady second",
		[SLOW_WINDOW_STEADY] = "the slowest second of the steady part",
		[SLOW_WINDOW_ANY] = "the slowest second (no steady part to choose from)",
	};
	struct slow_window w;
	uint64_t from, to;
	double rate;

	diag_slowest_second(k, r->throughput, po->slow_pct, &w);
	from = w.from_ns;
	to = w.to_ns;
	rate = w.rate;
	if (po->tl_best >= 0 && rate >= po->tl_best) {
		fprintf(text, "Timeline           : run %d's slowest second (%.0f msg/s) is not slower than the one in %s\n",
			r->run, rate, po->tl_path);
		return 0;
	}
	if (timeline_write(po->tl_path, tl, tl->start_ns + from,
			   tl->start_ns + to, err, len))
		return -1;
	po->tl_best = rate;
	fprintf(text, "Timeline           : %.2f-%.2f s of run %d, %s (%.0f msg/s), in %s (%zu events in the run, %llu dropped)\n",
		(double)from / 1e9, (double)to / 1e9, r->run, what[w.kind], rate,
		po->tl_path, tl->n, (unsigned long long)tl->dropped);
	return 0;
}

int prof_out_run(struct prof_out *po, FILE *text, struct run_result *r,
		 char *err, size_t len)
{
	struct kstats *k = r->kernel;
	int rc = 0;

	if (!k)
		return 0;
	if (po->on && k->profile &&
	    profile_write_folded(po->on, po->off, k->profile)) {
		snprintf(err, len, "--profile-out: writing %s failed",
			 po->on_path);
		rc = -1;
	}
	if (po->tl_path && k->timeline && !rc)
		rc = write_timeline(po, text, r, err, len);
	/* The events are the study's largest memory: gone once written. */
	tl_events_free(k->timeline);
	k->timeline = NULL;
	return rc;
}

int prof_out_close(struct prof_out *po, char *err, size_t len)
{
	int rc = 0;

	if (po->on && fclose(po->on) && !rc) {
		snprintf(err, len, "--profile-out: writing %s failed",
			 po->on_path);
		rc = -1;
	}
	if (po->off && fclose(po->off) && !rc) {
		snprintf(err, len, "--profile-out: writing %s failed",
			 po->off_path);
		rc = -1;
	}
	free(po->off_path);
	memset(po, 0, sizeof(*po));
	return rc;
}
