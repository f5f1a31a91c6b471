// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-judge: today's verdict on saved chat_c --json files.  The
 * verdict is a function of the record, so a week of saved series can be
 * judged again after the rules change, and a verdict reproduced from its
 * file.  Options as chat_c's where they mean the same.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/baseline.h"
#include "output/json/json_out.h"
#include "study/judge.h"
#include "study/report_out.h"
#include "util/numarg.h"
#include "workload/proto.h"

#define PROG "chatbench-judge"

enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

static const char usage[] =
	"Usage: " PROG " [OPTIONS] FILE.json...\n"
	"Judge saved chat_c --json series with today's analysis and print what\n"
	"chat_c prints after the last run of a series: the summary, the slow\n"
	"runs and their causes, each run's phases and dips, what the series can\n"
	"resolve (a profile for a lone run), the sweep table, the placement.\n"
	"A file judged with the same rules gives the live text, byte for byte.\n"
	"What an older file lacks (time budgets, intervals) is said, and the\n"
	"series judged without it.\n"
	"\n"
	"  -b, --baseline FILE       judge runs against a saved series' runs\n"
	"  -j, --json FILE           the files' lines with the new verdict ('-':\n"
	"                            stdout, the text then goes to stderr)\n"
	"      --report FILE         an HTML report of the judged series\n"
	"      --slow-threshold PCT  a run is slow below the reference by more\n"
	"                            than PCT % (default: what the file was\n"
	"                            judged with, else 15)\n"
	"  -q, --quiet               no Placement line\n"
	"  -h, --help                this text\n"
	"  -V, --version             version\n"
	"\n"
	"Examples:\n"
	"  chat_c --local -r 5 -j week1.json 10 1000\n"
	"  " PROG " week1.json\n"
	"  " PROG " --baseline good.json --report today.html today.json\n"
	"\n"
	"Exit status: 0 when every file was judged, 1 when a file cannot be\n"
	"read or is malformed (one line saying why), 2 on bad usage.\n";

enum { OPT_REPORT = 256, OPT_SLOW };

struct opts {
	const char *baseline;
	const char *json;
	const char *report;
	double slow_pct;
	bool quiet;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "json", required_argument, NULL, 'j' },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "slow-threshold", required_argument, NULL, OPT_SLOW },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char err[160];
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:j:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->baseline = optarg;
			break;
		case 'j':
			o->json = optarg;
			break;
		case OPT_REPORT:
			o->report = optarg;
			break;
		case OPT_SLOW:
			if (parse_long(optarg, "--slow-threshold", 1, 99, &v,
				       err, sizeof(err))) {
				fprintf(stderr, PROG ": %s\n", err);
				return EXIT_USAGE;
			}
			o->slow_pct = (double)v;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case 'V':
			printf(PROG " (chatbench) %s\n", CHATBENCH_VERSION);
			return -1;
		case ':':
			fprintf(stderr, PROG ": %s needs a value\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, PROG ": unknown option '%s' (--help lists them)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, PROG ": no file to judge (--help for usage)\n");
		return EXIT_USAGE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct judge_opts jo = { .text = stdout };
	struct baseline *bl = NULL;
	struct opts o;
	char err[400];
	int i, rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = EXIT_BAD_INPUT;
	jo.slow_pct = o.slow_pct;
	jo.quiet = o.quiet;
	if (o.report && report_out_check(o.report, err, sizeof(err)))
		goto fail;
	if (o.json || o.report) {
		jo.json = json_out_open(o.json, err, sizeof(err));
		if (!jo.json)
			goto fail;
		if (o.json && !strcmp(o.json, "-"))
			jo.text = stderr;
	}
	if (o.baseline) {
		bl = baseline_load(o.baseline, err, sizeof(err));
		if (!bl)
			goto fail;
		jo.baseline = bl;
	}
	for (i = optind; i < argc; i++) {
		char why[300];

		if (argc - optind > 1)
			fprintf(jo.text, "%sFile               : %s\n",
				i > optind ? "\n" : "", argv[i]);
		if (judge_file(argv[i], &jo, why, sizeof(why))) {
			snprintf(err, sizeof(err), "%s: %s", argv[i], why);
			goto fail;
		}
	}
	if (o.report && report_out_write(jo.json, argc - optind > 1 ?
					 "the judged files" : argv[optind],
					 o.report, PROG, err, sizeof(err)))
		goto fail;
	rc = 0;
	goto out;
fail:
	fflush(jo.text);
	fprintf(stderr, PROG ": %s\n", err);
out:
	if (json_out_close(jo.json)) {
		fprintf(stderr, PROG ": JSON output to %s is incomplete\n",
			o.json);
		rc = EXIT_BAD_INPUT;
	}
	baseline_free(bl);
	return rc;
}
