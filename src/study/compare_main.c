// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-compare: the seed's kernel comparison table from several
 * chat_c --json result files (one per kernel, or per setting): average,
 * minimum and maximum throughput, the ratio of each average to the base
 * file's with its 95 % interval and a rank test (runs spread by up to
 * 30 %, so a ratio alone proves nothing), the median message latency p99
 * and the median run-queue latency p99 of the benchmark's threads.  Files
 * are read by src/results/, the loader the other tools use, so that every
 * tool reads the same numbers out of a file.  With sweep files there is one row per file and
 * sweep point, and ratios compare the same point.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clients_judge.h"
#include "analysis/compare.h"
#include "analysis/infer.h"
#include "analysis/series.h"
#include "output/text/clients_text.h"
#include "results/merge_clients.h"
#include "util/numarg.h"
#include "workload/proto.h"

#define PROG	CMP_PROG

enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

static const char usage[] =
	"Usage: " PROG " [OPTIONS] FILE.json...\n"
	"Compare chat_c --json result files (e.g. one per kernel): a row per\n"
	"file (per file and sweep point for sweeps) with the average, min and\n"
	"max throughput, the ratio of the average to the base file's, that\n"
	"ratio's 95% interval (bootstrap of the runs) and the p-value of a\n"
	"Mann-Whitney rank test of the runs against the base's, the median\n"
	"over runs of the message latency p99 and of the run-queue latency p99\n"
	"of the benchmark's threads ('-' when not traced), and the kernel\n"
	"release.  A '*' marks the ratios whose interval excludes 1: the\n"
	"difference is more than the noise of the runs.  The legend says how\n"
	"many runs per side would resolve a 2% difference at the noise\n"
	"measured.  Throughput figures come from each summary line.\n"
	"The files of one run's clients (chat_s --clients N: every run of\n"
	"every file has the same server_host.group) are one series instead:\n"
	"a table of its runs, each client's throughput and the run's (their\n"
	"messages summed over the longest client's time), and the verdict\n"
	"on the merged runs, judged on the server's host's record (the\n"
	"table and --json, --csv or --explain compare the files as settings).\n"
	"\n"
	"  -b, --base LABEL       ratios against this row's label (default:\n"
	"                         the first file)\n"
	"  -c, --csv              comma-separated values with a header line\n"
	"                         (with --explain: one line per row and budget\n"
	"                         line or figure)\n"
	"  -e, --explain          why each file differs from the base: the\n"
	"                         threads' and the CPUs' time per message side\n"
	"                         by side (on a CPU, waiting to run behind whom,\n"
	"                         blocked why; benchmark, outsiders, softirq,\n"
	"                         idle) and the figures behind them (switches,\n"
	"                         wakeups, run-queue latency per role, socket\n"
	"                         queues, CPU time per message), each\n"
	"                         difference with its 95% interval, the lines\n"
	"                         ranked by their share of the throughput\n"
	"                         difference, and one sentence per file; needs\n"
	"                         traced runs (a time budget in each)\n"
	"  -j, --json             JSON lines: a header object {\"compare\": ...},\n"
	"                         then one object per row (ratio, ratio_ci95,\n"
	"                         p_value, runs_needed, ...; null when unknown)\n"
	"  -l, --label-by WHAT    'file' (default: the file name without its\n"
	"                         directory and .json) or 'kernel' (its kernel\n"
	"                         release); equal labels get told apart\n"
	"  -r, --resolve PCT      the difference runs_needed is for, in percent\n"
	"                         (default 2)\n"
	"  -s, --sort KEY         'none' (command-line order, default), 'label'\n"
	"                         or 'avg' (fastest first)\n"
	"  -h, --help             this text\n"
	"  -V, --version          version\n"
	"\n"
	"Rows need 2 ok runs on each side for an interval and a p-value ('-'\n"
	"otherwise); the base row has ratio 1 and neither.\n"
	"\n"
	"Examples:\n"
	"  chat_c --local -r 10 -j 6.1.json 10 1000     # on each kernel\n"
	"  " PROG " 6.1.json 6.6.json 6.12.json\n"
	"  " PROG " --label-by kernel --base 6.6.0 */results.json\n"
	"  " PROG " --csv --sort avg *.json > compare.csv\n"
	"  " PROG " --explain free.json pinned.json\n"
	"  " PROG " --json --resolve 5 6.1.json 6.6.json |\n"
	"      jq -c 'select(.label) | [.label, .ratio, .ratio_ci95, .p_value]'\n"
	"\n"
	"Exit status: 0 on success, 1 when a file cannot be used, 2 on bad\n"
	"usage.\n";

struct opts {
	const char *base;
	bool csv;
	bool json;
	bool explain;
	double resolve;		/* relative, 0.02 for --resolve 2 */
	enum cmp_label_by label_by;
	enum cmp_sort_by sort_by;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	char err[160];
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "csv", no_argument, NULL, 'c' },
		{ "explain", no_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "label-by", required_argument, NULL, 'l' },
		{ "resolve", required_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	double pct;
	int c;

	memset(o, 0, sizeof(*o));
	o->resolve = INFER_RESOLVE;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:cejl:r:s:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->base = optarg;
			break;
		case 'c':
			o->csv = true;
			break;
		case 'e':
			o->explain = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'r':
			if (parse_double(optarg, "--resolve", 0.01, 100, &pct,
					 err, sizeof(err))) {
				fprintf(stderr, PROG ": %s\n", err);
				return EXIT_USAGE;
			}
			o->resolve = pct / 100;
			break;
		case 'l':
			if (!strcmp(optarg, "file")) {
				o->label_by = CMP_LABEL_FILE;
			} else if (!strcmp(optarg, "kernel")) {
				o->label_by = CMP_LABEL_KERNEL;
			} else {
				fprintf(stderr, PROG ": --label-by wants 'file' or 'kernel', not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			if (!strcmp(optarg, "none")) {
				o->sort_by = CMP_SORT_NONE;
			} else if (!strcmp(optarg, "label")) {
				o->sort_by = CMP_SORT_LABEL;
			} else if (!strcmp(optarg, "avg")) {
				o->sort_by = CMP_SORT_AVG;
			} else {
				fprintf(stderr, PROG ": --sort wants 'none', 'label' or 'avg', not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_SUCCESS;
		case 'V':
			printf(PROG " (chatbench) %s\n", CHATBENCH_VERSION);
			return EXIT_SUCCESS;
		default:
			opt_error(c, argv, err, sizeof(err));
			fprintf(stderr, PROG ": %s\n", err);
			return EXIT_USAGE;
		}
	}
	if (o->csv && o->json) {
		fprintf(stderr, PROG ": --csv and --json exclude each other\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, PROG ": no result files given (see --help)\n");
		return EXIT_USAGE;
	}
	return -1;	/* go on */
}

/*
 * The files of one run's clients: merged, judged and printed as one
 * series.  0, or EXIT_BAD_INPUT with the reason on stderr.
 */
static int print_clients(const struct cmp_input *in, size_t n)
{
	struct result_file *files = calloc(n, sizeof(*files));
	struct clients_merge m = { 0 };
	struct series s = { 0 };
	char err[400], missing[160];
	int ret = EXIT_BAD_INPUT;
	size_t i;

	/* Shallow copies: the merge reads an array of files. */
	for (i = 0; files && i < n; i++)
		files[i] = in[i].file;
	if (!files || clients_merge(files, n, &m)) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	if (clients_judge(&m, files, &s, missing, sizeof(missing), err,
			  sizeof(err))) {
		fprintf(stderr, CMP_PROG ": %s\n", err);
		goto cleanup;
	}
	clients_print(stdout, &m, &s, missing);
	ret = EXIT_SUCCESS;
cleanup:
	series_free(&s);
	clients_merge_free(&m);
	free(files);
	return ret;
}

int main(int argc, char **argv)
{
	struct cmp_input *in = NULL;
	struct cmp_row *rows = NULL;
	size_t n_in = 0, n_rows = 0, base = 0, i;
	struct cmp_ctx ctx;
	char err[400];
	struct opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = EXIT_BAD_INPUT;
	n_in = (size_t)(argc - optind);
	in = calloc(n_in, sizeof(*in));
	if (!in) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	for (i = 0; i < n_in; i++) {
		if (results_load(argv[optind + i], &in[i].file, err,
				 sizeof(err))) {
			fprintf(stderr, CMP_PROG ": %s: %s\n", argv[optind + i],
				err);
			goto cleanup;
		}
	}
	if (!o.csv && !o.json && !o.explain) {
		struct result_file *f = calloc(n_in, sizeof(*f));
		bool merge;

		for (i = 0; f && i < n_in; i++)
			f[i] = in[i].file;
		merge = f && clients_mergeable(f, n_in);
		free(f);
		if (merge) {
			ret = print_clients(in, n_in);
			goto cleanup;
		}
	}
	if (cmp_make_labels(in, n_in, o.label_by)) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	if (cmp_find_base(in, n_in, o.base, &base))
		goto cleanup;
	rows = cmp_build_rows(in, n_in, &n_rows);
	if (!rows) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	ctx = (struct cmp_ctx){ .in = in, .n_in = n_in, .base = base,
				.resolve = o.resolve, .explain = o.explain };
	if (cmp_set_ratios(rows, n_rows, &ctx)) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	if (o.explain && cmp_explain_rows(rows, n_rows, &ctx, err,
					  sizeof(err))) {
		fprintf(stderr, CMP_PROG ": %s\n", err);
		goto cleanup;
	}
	cmp_sort_rows(rows, n_rows, o.sort_by);
	if (o.csv && o.explain) {
		cmp_print_explain_csv(rows, n_rows, &ctx);
	} else if (o.csv) {
		cmp_print_csv(rows, n_rows, &ctx);
	} else if (o.json ? cmp_print_json(rows, n_rows, &ctx) :
			    cmp_print_table(rows, n_rows, &ctx) ||
			    (o.explain &&
			     cmp_print_explain(rows, n_rows, &ctx))) {
		fprintf(stderr, CMP_PROG ": out of memory\n");
		goto cleanup;
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror(CMP_PROG ": writing the table");
		goto cleanup;
	}
	ret = EXIT_SUCCESS;
cleanup:
	cmp_free_rows(rows, n_rows);
	for (i = 0; in && i < n_in; i++) {
		results_free(&in[i].file);
		free(in[i].label);
	}
	free(in);
	return ret;
}
