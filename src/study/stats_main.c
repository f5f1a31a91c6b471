// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-stats: the project's statistics for shell harnesses.  Reads
 * numbers from standard input (one value per line, or with --ratio a pair
 * "a b" per line, taken as b / a) and prints their median with its
 * bootstrap interval, robust spread and how many values would resolve a
 * difference, from the same code that chatbench-compare and the verdict
 * use (src/analysis/infer.c, src/util/stats.c), so that a harness needs
 * no statistics of its own.  Pairs taken alternately against one server
 * are the only way a small cost shows on a noisy VM: the ratio of each
 * pair cancels the drift that separate series would carry.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/infer.h"
#include "util/numarg.h"
#include "util/stats.h"
#include "workload/proto.h"

#define PROG	"chatbench-stats"

static const char usage[] =
	"Usage: " PROG " [OPTIONS] < NUMBERS\n"
	"The median of the numbers on standard input with its bootstrap\n"
	"interval, their robust spread, and the values needed to resolve a\n"
	"relative difference.  One number per line, or with --ratio a pair\n"
	"'a b' per line, taken as the ratio b / a (say untraced, traced).\n"
	"\n"
	"  -r, --ratio            pairs 'a b' per line: statistics of b / a\n"
	"  -l, --level L          confidence level of the interval (0.95)\n"
	"  -d, --resolve PCT      difference to resolve, in % (2)\n"
	"  -h, --help             this text\n"
	"  -V, --version          version\n"
	"\n"
	"Prints one line: n N median M ci LOW HIGH robust_sd S needed K\n"
	"(K: values needed to tell the median from 1 by PCT with --ratio,\n"
	"at two-sided 5 % and power 0.8).\n"
	"\n"
	"Example:\n"
	"  printf '500 490\\n510 497\\n480 470\\n' | " PROG " --ratio\n"
	"\n"
	"Exit status: 0 on success, 1 on bad input, 2 on bad usage.\n";

struct opts {
	bool ratio;
	double level;
	double resolve;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "ratio", no_argument, NULL, 'r' },
		{ "level", required_argument, NULL, 'l' },
		{ "resolve", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char err[160];
	int c;

	o->ratio = false;
	o->level = INFER_LEVEL;
	o->resolve = 100 * INFER_RESOLVE;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":rl:d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->ratio = true;
			break;
		case 'l':
			if (parse_double(optarg, "--level", 0.5, 0.999,
					 &o->level, err, sizeof(err)))
				goto bad;
			break;
		case 'd':
			if (parse_double(optarg, "--resolve", 0.01, 100,
					 &o->resolve, err, sizeof(err)))
				goto bad;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'V':
			printf(PROG " (chatbench) %s\n", CHATBENCH_VERSION);
			return 0;
		default:
			opt_error(c, argv, err, sizeof(err));
			goto bad;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof(err), "unexpected argument '%s'",
			 argv[optind]);
		goto bad;
	}
	return -1;	/* go on */
bad:
	fprintf(stderr, PROG ": %s\n", err);
	return 2;
}

/* The values of stdin (ratios of pairs with ratio); -1 after one line. */
static int read_values(bool ratio, double **out, size_t *n)
{
	size_t cap = 0, lineno = 0;
	double *v = NULL, a, b;
	char line[256], extra;
	int got;

	*n = 0;
	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		got = sscanf(line, "%lf %lf %c", &a, &b, &extra);
		if (got != (ratio ? 2 : 1) || !isfinite(a) ||
		    (ratio && (!isfinite(b) || a <= 0))) {
			fprintf(stderr, PROG ": line %zu: expected %s\n", lineno,
				ratio ? "two numbers 'a b' with a > 0" :
					"one number");
			goto fail;
		}
		if (*n == cap) {
			double *nv;

			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				fprintf(stderr, PROG ": out of memory\n");
				goto fail;
			}
			v = nv;
		}
		v[(*n)++] = ratio ? b / a : a;
	}
	*out = v;
	return 0;
fail:
	free(v);
	return -1;
}

int main(int argc, char **argv)
{
	struct infer_boot boot = { 0 };
	double *v = NULL, ci[2] = { NAN, NAN }, sd, med;
	struct opts o;
	size_t n;
	int ret, needed = 0;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (read_values(o.ratio, &v, &n))
		return 1;
	if (!n) {
		fprintf(stderr, PROG ": no numbers on standard input\n");
		return 1;
	}
	boot.level = o.level;
	med = stats_median(v, n);
	sd = stats_robust_sd(v, n);
	if (n >= 2)
		infer_median_ci(v, n, &boot, ci);
	/* One sample against a fixed 1: half the two-sample count. */
	if (o.ratio && med > 0)
		needed = (infer_runs_needed(sd / med, o.resolve / 100,
					    INFER_ALPHA, INFER_POWER) + 1) / 2;
	printf("n %zu median %.4f ci %.4f %.4f robust_sd %.4f needed %d\n", n,
	       med, ci[0], ci[1], sd, needed);
	free(v);
	return 0;
}
