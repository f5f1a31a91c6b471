// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-report: the HTML report of chat_c --json result files, after
 * the fact.  It renders with the same code as chat_c --report
 * (src/output/html/) from files read by the same loader as every other
 * tool (src/results/), so a page made later says what the page made at
 * the time would have said.  One file gives its runs; several files add
 * the comparison table.  Files cut short (no summary line, because chat_c
 * was killed) are reported with what they hold.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/clients_judge.h"
#include "analysis/series.h"
#include "util/numarg.h"
#include "workload/proto.h"
#include "output/html/report_html.h"
#include "results/merge_clients.h"
#include "results/results.h"

#define PROG	"chatbench-report"
#define STR_(x)	#x
#define STR(x)	STR_(x)

enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

static const char usage[] =
	"Usage: " PROG " [OPTIONS] FILE.json...\n"
	"Write one self-contained HTML page (inline SVG and CSS, nothing fetched)\n"
	"about chat_c --json result files: throughput per run with the slow runs\n"
	"and their causes, per-interval throughput over a run-queue latency heat\n"
	"map, who took the CPU, latency and socket-queue histograms, flame graphs\n"
	"of runs made with --profile; a sweep's figures against the swept value;\n"
	"with several files, a comparison table.  The files of one run's\n"
	"clients (chat_s --clients N: each run of every file has the same\n"
	"server_host.group) are one view instead: the merged runs' verdict,\n"
	"each client's throughput and the run's, every host's budget.\n"
	"\n"
	"  -o, --output FILE      the page (default: report.html; '-': stdout)\n"
	"  -t, --title TEXT       the page's title (default: chatbench report)\n"
	"  -c, --max-columns N    heat-map columns per series before intervals\n"
	"                         are merged (default: " STR(REPORT_HM_COLUMNS)
	"; keeps the page small)\n"
	"  -h, --help             this text\n"
	"  -V, --version          version\n"
	"\n"
	"Examples:\n"
	"  chat_c --local -r 5 -j runs.json 10 1000\n"
	"  " PROG " -o runs.html runs.json          # then open runs.html\n"
	"  " PROG " -o kernels.html 6.1.json 6.6.json 6.12.json\n"
	"  " PROG " -o - sweep.json > sweep.html\n"
	"\n"
	"Exit status: 0 on success, 1 when a file cannot be read or the page\n"
	"cannot be written, 2 on bad usage.\n";

struct opts {
	const char *output;
	struct report_opts report;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "max-columns", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char err[160];
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->output = "report.html";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:t:c:hV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 't':
			o->report.title = optarg;
			break;
		case 'c':
			if (parse_long(optarg, "--max-columns", 1, 100000, &v,
				       err, sizeof(err))) {
				fprintf(stderr, PROG ": %s\n", err);
				return EXIT_USAGE;
			}
			o->report.max_columns = (size_t)v;
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
	if (optind >= argc) {
		fprintf(stderr, PROG ": no result files given (see --help)\n");
		return EXIT_USAGE;
	}
	if (!*o->output) {
		fprintf(stderr, PROG ": --output wants a file name\n");
		return EXIT_USAGE;
	}
	return -1;	/* go on */
}

int main(int argc, char **argv)
{
	struct result_file *files = NULL;
	struct clients_merge m = { 0 };
	struct series s = { 0 };
	char missing[160];
	size_t n = 0, i;
	struct opts o;
	struct stat st;
	char err[400];
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = EXIT_BAD_INPUT;
	n = (size_t)(argc - optind);
	files = calloc(n, sizeof(*files));
	if (!files) {
		fprintf(stderr, PROG ": out of memory\n");
		goto cleanup;
	}
	for (i = 0; i < n; i++) {
		if (results_load_flags(argv[optind + i],
				       RESULTS_ALLOW_NO_SUMMARY, &files[i], err,
				       sizeof(err))) {
			fprintf(stderr, PROG ": %s: %s\n", argv[optind + i],
				err);
			goto cleanup;
		}
	}
	if (clients_mergeable(files, n)) {
		if (clients_merge(files, n, &m)) {
			fprintf(stderr, PROG ": out of memory\n");
			goto cleanup;
		}
		if (clients_judge(&m, files, &s, missing, sizeof(missing),
				  err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			goto cleanup;
		}
		o.report.clients = &m;
		o.report.clients_series = &s;
	}
	if (report_html_write_opts(o.output, files, n, &o.report, err,
				   sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	if (strcmp(o.output, "-") && !stat(o.output, &st))
		fprintf(stderr, PROG ": wrote %s (%lld kB)\n", o.output,
			(long long)(st.st_size + 999) / 1000);
	ret = EXIT_SUCCESS;
cleanup:
	series_free(&s);
	clients_merge_free(&m);
	for (i = 0; files && i < n; i++)
		results_free(&files[i]);
	free(files);
	return ret;
}
