/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Percentiles from the histograms of saved runs (results/results_hist.c):
 * the buckets as the files store them, read the way the live record's
 * are, and the run-queue latency of the benchmark's own threads merged
 * from a run's "kernel" object.
 */
#ifndef CHATBENCH_RESULTS_HIST_H
#define CHATBENCH_RESULTS_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

/* One histogram bucket as the files store it: [lo, hi), hi open at MAX. */
struct results_bucket {
	uint64_t lo;
	uint64_t hi;		/* UINT64_MAX for the open last bucket */
	uint64_t count;
};

/*
 * Percentile p (0..100) of buckets sorted by lo, interpolated inside the
 * bucket it falls in the way ks_hist_percentile does; 0 when empty.
 */
uint64_t results_buckets_percentile(const struct results_bucket *b, size_t n,
				    double p);

/*
 * Percentile p of the run-queue latency of the benchmark's own threads
 * (cli_snd, cli_rcv, srv_rcv, srv_snd, srv_loop) in a run's "kernel"
 * object: their histograms merged bucket by bucket, then read.  1 and
 * *out when there were samples, 0 when none, -1 with err when the object
 * is malformed.
 */
int results_kernel_rq_percentile(const json_t *kernel, double p, uint64_t *out,
				 char *err, size_t len);

#endif
