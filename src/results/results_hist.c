// SPDX-License-Identifier: GPL-2.0
/*
 * Percentiles from the histograms of saved runs.  The files keep every
 * non-empty bucket as {lo, hi, count}, so a percentile read back here is
 * the one chat_c printed, and histograms of several roles or runs merge
 * exactly by adding equal buckets (both sides share one bucket layout).
 */
#include <stdlib.h>

#include "results/jfield.h"
#include "results/results_hist.h"
#include "util/roles.h"
#include "util/fmt.h"

static int cmp_bucket(const void *a, const void *b)
{
	const struct results_bucket *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

uint64_t results_buckets_percentile(const struct results_bucket *b, size_t n,
				    double p)
{
	double rank, before = 0, total = 0, lo, hi, frac;
	size_t i;

	for (i = 0; i < n; i++)
		total += (double)b[i].count;
	if (total <= 0)
		return 0;
	if (p > 100)
		p = 100;
	rank = p / 100.0 * total;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < n; i++) {
		if (!b[i].count || before + (double)b[i].count < rank) {
			before += (double)b[i].count;
			continue;
		}
		lo = (double)b[i].lo;
		if (b[i].hi == UINT64_MAX || b[i].hi <= b[i].lo + 1)
			return b[i].lo;
		hi = (double)b[i].hi;
		/* Samples spread evenly over the bucket, as the kernel side assumes. */
		frac = (rank - before) / (double)b[i].count;
		return (uint64_t)(lo + frac * (hi - lo - 1) + 0.5);
	}
	return n ? b[n - 1].lo : 0;
}

/* Appends the buckets of one histogram object ({"buckets": [...]}) to *v. */
static int append_buckets(const json_t *hist, const char *what,
			  struct results_bucket **v, size_t *n, size_t *cap,
			  char *err, size_t len)
{
	const json_t *arr = json_object_get(hist, "buckets"), *e;
	size_t i;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr)) {
		fmt_err(err, len, "%s.buckets is not an array", what);
		return -1;
	}
	json_array_foreach(arr, i, e) {
		struct results_bucket b = { 0, UINT64_MAX, 0 };
		const json_t *hi = json_object_get(e, "hi");

		if (!json_is_object(e) || jf_u64(e, "lo", &b.lo) ||
		    jf_u64(e, "count", &b.count) ||
		    (hi && !json_is_null(hi) && jf_u64(e, "hi", &b.hi)) ||
		    b.hi <= b.lo) {
			fmt_err(err, len,
				"%s.buckets[%zu] is not {\"lo\", \"hi\", \"count\"}",
				what, i);
			return -1;
		}
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct results_bucket *nv = realloc(*v, ncap * sizeof(*nv));

			if (!nv) {
				fmt_err(err, len, "out of memory");
				return -1;
			}
			*v = nv;
			*cap = ncap;
		}
		(*v)[(*n)++] = b;
	}
	return 0;
}

int results_kernel_rq_percentile(const json_t *kernel, double p, uint64_t *out,
				 char *err, size_t len)
{
	struct results_bucket *b = NULL;
	size_t n = 0, cap = 0, i, k;
	const json_t *roles;
	char what[64];
	uint64_t total = 0;
	int ret = -1;

	if (!json_is_object(kernel)) {
		fmt_err(err, len, "kernel is not an object");
		return -1;
	}
	roles = json_object_get(kernel, "roles");
	if (!json_is_object(roles)) {
		fmt_err(err, len, "kernel.roles is missing or not an object");
		return -1;
	}
	/*
	 * The benchmark's own worker threads only: the run-queue latency of
	 * "other" and "ksoftirqd" is not the benchmark's, and a starved
	 * ksoftirqd would otherwise hide in the workers' figure.
	 */
	for (i = 0; role_is_worker((int)i); i++) {
		const json_t *role = json_object_get(roles, role_name((int)i));
		const json_t *hist;

		/* A role with no thread that ever ran is simply left out. */
		if (!role)
			continue;
		snprintf(what, sizeof(what), "kernel.roles.%s.rq_latency",
			 role_name((int)i));
		hist = json_object_get(role, "rq_latency");
		if (!hist)
			continue;
		if (!json_is_object(hist)) {
			fmt_err(err, len, "%s is not an object", what);
			goto cleanup;
		}
		if (append_buckets(hist, what, &b, &n, &cap, err, len))
			goto cleanup;
	}
	/* One bucket layout on both sides: merge equal buckets by adding. */
	if (n)
		qsort(b, n, sizeof(*b), cmp_bucket);
	for (i = 0, k = 0; i < n; i++) {
		total += b[i].count;
		if (k && b[k - 1].lo == b[i].lo) {
			b[k - 1].count += b[i].count;
			if (b[i].hi > b[k - 1].hi)
				b[k - 1].hi = b[i].hi;
			continue;
		}
		b[k++] = b[i];
	}
	ret = 0;
	if (total) {
		*out = results_buckets_percentile(b, k, p);
		ret = 1;
	}
cleanup:
	free(b);
	return ret;
}
