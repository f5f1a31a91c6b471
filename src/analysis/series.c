// SPDX-License-Identifier: GPL-2.0
/*
 * The analysis of one series, done once when its last run ends: the
 * outputs (text, JSON, HTML) only render what is filled in here, so that
 * they cannot disagree about which run was slow or why.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/baseline.h"
#include "analysis/diag_merge.h"
#include "analysis/series.h"
#include "analysis/summary.h"
#include "tracer/kstats.h"
#include "util/stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t median_u64(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The open-loop figures of a --rate point, each the median over runs. */
static void open_row(const struct series *s, struct sweep_row *row)
{
	size_t i, n = 0, k = s->attempted + 1;
	uint64_t *p50 = calloc(k, sizeof(*p50));
	uint64_t *p99 = calloc(k, sizeof(*p99));
	uint64_t *p999 = calloc(k, sizeof(*p999));
	double *ach = calloc(k, sizeof(*ach));

	if (!p50 || !p99 || !p999 || !ach)
		goto out;
	for (i = 0; i < s->attempted; i++) {
		const struct open_result *op = s->runs[i].open;

		if (!s->runs[i].ok || !op)
			continue;
		row->rate = op->rate;
		row->arrival = op->arrival;
		row->offered = op->offered;
		p50[n] = op->lat.p50;
		p99[n] = op->lat.p99;
		p999[n] = op->lat.p999;
		ach[n++] = op->achieved;
	}
	row->open = n > 0;
	row->ol_p50 = median_u64(p50, n);
	row->ol_p99 = median_u64(p99, n);
	row->ol_p999 = median_u64(p999, n);
	row->achieved = n ? stats_median(ach, n) : 0;
out:
	free(p50);
	free(p99);
	free(p999);
	free(ach);
}

static void sweep_row(const struct series *s, struct sweep_row *row)
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
	open_row(s, row);
	row->slo_ms = s->slo_ms;
	row->slo_met = row->open && s->slo_ms > 0 &&
		       (double)row->ol_p99 < s->slo_ms * 1e6;
out:
	free(lat);
	free(rq);
}

/*
 * The runs of one host as the diagnosis sees them, judged against the
 * baseline's records of that host or the series' own: the verdicts in
 * out (n of them, the ok runs, which come first: runs stop at the first
 * failure).
 */
static int judge_host(struct series *s, const struct baseline *baseline,
		      enum diag_host host, struct diag_run *dr, size_t n,
		      struct diag_ref *ref, struct diag_verdict *out)
{
	struct series_verdict *v = &s->verdict;
	size_t i;

	for (i = 0; i < n; i++)
		dr[i].k = host == DIAG_HOST_SERVER ? s->runs[i].server_kernel :
						     s->runs[i].kernel;
	if (baseline) {
		if (baseline_ref(baseline, s->rooms, s->messages, s->users,
				 v->pct, host, ref, &v->baseline_exact))
			return -1;
		for (i = 0; i < n; i++)
			diag_explain(&dr[i], ref, &out[i]);
	} else {
		diag_judge(dr, n, v->pct, ref, out);
	}
	return 0;
}

/*
 * With the server's host traced (chat_s on another machine), its records
 * are judged as the client's are, and each run's two verdicts merged;
 * a run untraced on the client is judged by the server's host alone.
 */
static int judge_server(struct series *s, const struct baseline *baseline,
			struct diag_run *dr, size_t n)
{
	struct series_verdict *v = &s->verdict;
	struct diag_verdict *sv = calloc(n + 1, sizeof(*sv));
	struct diag_verdict c;
	struct diag_ref ref;
	bool client_traced = false;
	size_t i;
	int ret = -1;

	if (!sv)
		return -1;
	if (judge_host(s, baseline, DIAG_HOST_SERVER, dr, n, &ref, sv))
		goto out;
	for (i = 0; i < n; i++) {
		c = v->run[i];
		client_traced |= s->runs[i].kernel != NULL;
		diag_merge(&v->run[i], &c, &sv[i], s->runs[i].kernel != NULL,
			   s->runs[i].server_host);
	}
	/* No run traced on the client: the server's host decided. */
	if (!client_traced)
		v->ref = ref;
	ret = 0;
out:
	free(sv);
	return ret;
}

static int judge(struct series *s, const struct baseline *baseline)
{
	struct series_verdict *v = &s->verdict;
	struct diag_run *dr = calloc(s->attempted + 1, sizeof(*dr));
	bool server = false;
	size_t i, n = 0;
	int ret = -1;

	if (!dr)
		return -1;
	for (i = 0; i < s->attempted; i++) {
		if (!s->runs[i].ok)
			continue;
		dr[n].throughput = s->runs[i].throughput;
		dr[n].steal_pct = s->runs[i].steal_pct;
		server |= s->runs[i].server_kernel != NULL;
		n++;
	}
	if (judge_host(s, baseline, DIAG_HOST_CLIENT, dr, n, &v->ref, v->run))
		goto out;
	if (server && judge_server(s, baseline, dr, n))
		goto out;
	if (v->ref.tp_median > 0) {
		v->spread_pct = 100.0 * v->ref.tp_sd / v->ref.tp_median;
		v->min_slow_pct = 100.0 * v->ref.margin / v->ref.tp_median;
		v->min_slow_evidence_pct = 100.0 * v->ref.drop /
					   v->ref.tp_median;
	}
	v->judged = true;
	ret = 0;
out:
	free(dr);
	return ret;
}

/*
 * The phases of a run from its intervals: the client's, else those of
 * the server's host, whose dips then say where they were seen.
 */
static void run_phases(const struct run_result *r, double pct,
		       struct run_phases *p)
{
	int i;

	if (r->kernel || !r->server_kernel) {
		diag_run_phases(r->kernel, pct, p);
		return;
	}
	diag_run_phases(r->server_kernel, pct, p);
	p->host = DIAG_HOST_SERVER;
	for (i = 0; i < p->ndips; i++)
		diag_server_prefix(p->dip[i].why, sizeof(p->dip[i].why),
				   r->server_host);
}

int series_analyse(struct series *s, const struct baseline *baseline,
		   double pct)
{
	struct series_verdict *v = &s->verdict;
	size_t i;

	summary_compute(s->runs, s->attempted, &s->st);
	sweep_row(s, &s->row);
	memset(v, 0, sizeof(*v));
	v->pct = pct;
	v->baseline = baseline != NULL;
	for (i = 0; i < s->attempted; i++)
		v->nok += s->runs[i].ok;
	v->run = calloc(s->attempted + 1, sizeof(*v->run));
	v->phases = calloc(s->attempted + 1, sizeof(*v->phases));
	if (!v->run || !v->phases)
		return -1;
	for (i = 0; i < s->attempted; i++)
		if (s->runs[i].ok)
			run_phases(&s->runs[i], pct, &v->phases[i]);
	if (v->nok == 1 && !baseline) {
		v->profile = true;
		kfigures_from(s->runs[0].kernel, &v->profile_kf);
		v->profile_kf.steal_pct = s->runs[0].steal_pct;
		return 0;
	}
	return judge(s, baseline);
}

void series_free(struct series *s)
{
	size_t i;

	for (i = 0; s->runs && i < s->attempted; i++)
		run_record_release(&s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	free(s->verdict.run);
	free(s->verdict.phases);
	s->verdict.run = NULL;
	s->verdict.phases = NULL;
}

long series_slo_point(const struct series *s, size_t n)
{
	long best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i].row.slo_met &&
		    (best < 0 || s[i].sweep_value > s[best].sweep_value))
			best = (long)i;
	return best;
}
