// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-compare: the seed's kernel comparison table from several
 * chat_c --json result files (one per kernel, or per setting): average,
 * minimum and maximum throughput, the ratio of each average to the base
 * file's, the median message latency p99 and the median run-queue latency
 * p99 of the benchmark's threads.  Files are read by src/output/json/results.c, the
 * same loader the other tools use, so that every tool reads the same
 * numbers out of a file.  With sweep files there is one row per file and
 * sweep point, and ratios compare the same point.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/proto.h"
#include "util/numarg.h"
#include "output/json/results.h"
#include "util/fmt.h"

#define PROG	"chatbench-compare"

enum { EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };
enum label_by { LABEL_FILE, LABEL_KERNEL };
enum sort_by { SORT_NONE, SORT_LABEL, SORT_AVG };

static const char usage[] =
	"Usage: " PROG " [OPTIONS] FILE.json...\n"
	"Compare chat_c --json result files (e.g. one per kernel): a row per\n"
	"file (per file and sweep point for sweeps) with the average, min and\n"
	"max throughput, the ratio of the average to the base file's, the\n"
	"median over runs of the message latency p99 and of the run-queue\n"
	"latency p99 of the benchmark's threads ('-' when not traced), and the\n"
	"kernel release.  Throughput figures come from each summary line.\n"
	"\n"
	"  -b, --base LABEL       ratios against this row's label (default:\n"
	"                         the first file)\n"
	"  -c, --csv              comma-separated values with a header line\n"
	"  -l, --label-by WHAT    'file' (default: the file name without its\n"
	"                         directory and .json) or 'kernel' (its kernel\n"
	"                         release); equal labels get told apart\n"
	"  -s, --sort KEY         'none' (command-line order, default), 'label'\n"
	"                         or 'avg' (fastest first)\n"
	"  -h, --help             this text\n"
	"  -V, --version          version\n"
	"\n"
	"Examples:\n"
	"  chat_c --local -r 10 -j 6.1.json 10 1000     # on each kernel\n"
	"  " PROG " 6.1.json 6.6.json 6.12.json\n"
	"  " PROG " --label-by kernel --base 6.6.0 */results.json\n"
	"  " PROG " --csv --sort avg *.json > compare.csv\n"
	"\n"
	"Exit status: 0 on success, 1 when a file cannot be used, 2 on bad\n"
	"usage.\n";

struct opts {
	const char *base;
	bool csv;
	enum label_by label_by;
	enum sort_by sort_by;
};

struct input {
	struct result_file file;
	char *label;
};

struct row {
	size_t input;		/* index into the inputs */
	size_t group;		/* index into its file's groups */
	size_t point;		/* rank of its sweep point (rank_points) */
	const struct result_group *g;
	char label[192];
	int runs;
	int attempted;
	double avg, min, max;
	bool has_ratio;
	double ratio;
	bool has_lat;
	double lat_p99;
	bool has_rq;
	double rq_p99;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	char err[160];
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "csv", no_argument, NULL, 'c' },
		{ "label-by", required_argument, NULL, 'l' },
		{ "sort", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:cl:s:hV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'b':
			o->base = optarg;
			break;
		case 'c':
			o->csv = true;
			break;
		case 'l':
			if (!strcmp(optarg, "file")) {
				o->label_by = LABEL_FILE;
			} else if (!strcmp(optarg, "kernel")) {
				o->label_by = LABEL_KERNEL;
			} else {
				fprintf(stderr, PROG ": --label-by wants 'file' or 'kernel', not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			if (!strcmp(optarg, "none")) {
				o->sort_by = SORT_NONE;
			} else if (!strcmp(optarg, "label")) {
				o->sort_by = SORT_LABEL;
			} else if (!strcmp(optarg, "avg")) {
				o->sort_by = SORT_AVG;
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
	if (optind >= argc) {
		fprintf(stderr, PROG ": no result files given (see --help)\n");
		return EXIT_USAGE;
	}
	return -1;	/* go on */
}

/* "dir/6.1.json" -> "6.1"; with parent, "dir/6.1". */
static char *file_label(const char *path, bool parent)
{
	const char *start = strrchr(path, '/'), *end;
	size_t n;
	char *s;

	start = start ? start + 1 : path;
	if (parent && start > path) {
		const char *p = start - 1;

		while (p > path && p[-1] != '/')
			p--;
		if (p == start - 1)	/* "/x.json": no parent name */
			return NULL;
		start = p;
	} else if (parent) {
		return NULL;
	}
	n = strlen(start);
	end = start + n;
	if (n > 5 && !strcmp(end - 5, ".json"))
		end -= 5;
	else if (n > 6 && !strcmp(end - 6, ".jsonl"))
		end -= 6;
	s = strndup(start, (size_t)(end - start));
	return s;
}

static char *kernel_label(const struct input *in)
{
	if (in->file.kernel_release && *in->file.kernel_release)
		return strdup(in->file.kernel_release);
	return file_label(in->file.path, false);
}

static size_t count_label(const struct input *in, size_t n, const char *l)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(in[i].label, l))
			k++;
	return k;
}

/*
 * Equal labels (two runs on one kernel, or dir1/res.json and dir2/res.json)
 * are told apart first by saying more (the file beside the kernel, the
 * directory beside the file), then by numbering what is still equal.
 */
static int disambiguate(struct input *in, size_t n, enum label_by by)
{
	bool *dup = calloc(n, sizeof(*dup));
	size_t i, j, k;
	char *l, *f, *same;
	int ret = -1;

	if (!dup)
		return -1;
	for (i = 0; i < n; i++)
		dup[i] = count_label(in, n, in[i].label) > 1;
	for (i = 0; i < n; i++) {
		if (!dup[i])
			continue;
		if (by == LABEL_KERNEL) {
			f = file_label(in[i].file.path, false);
			if (!f || asprintf(&l, "%s (%s)", in[i].label, f) < 0)
				l = NULL;
			free(f);
		} else {
			l = file_label(in[i].file.path, true);
		}
		if (!l)
			continue;
		free(in[i].label);
		in[i].label = l;
	}
	for (i = 0; i < n; i++)
		dup[i] = count_label(in, n, in[i].label) > 1;
	for (i = 0; i < n; i++) {
		if (!dup[i])
			continue;
		same = strdup(in[i].label);
		if (!same)
			goto cleanup;
		for (j = i, k = 0; j < n; j++) {
			if (!dup[j] || strcmp(in[j].label, same))
				continue;
			if (asprintf(&l, "%s#%zu", same, ++k) < 0) {
				free(same);
				goto cleanup;
			}
			free(in[j].label);
			in[j].label = l;
			dup[j] = false;
		}
		free(same);
	}
	ret = 0;
cleanup:
	free(dup);
	return ret;
}

static int make_labels(struct input *in, size_t n, enum label_by by)
{
	size_t i;

	for (i = 0; i < n; i++) {
		in[i].label = by == LABEL_KERNEL ? kernel_label(&in[i]) :
						   file_label(in[i].file.path,
							      false);
		if (!in[i].label)
			return -1;
		if (!*in[i].label) {
			free(in[i].label);
			in[i].label = strdup(in[i].file.path);
			if (!in[i].label)
				return -1;
		}
	}
	return disambiguate(in, n, by);
}

static void warn_group(const struct input *in, const struct result_group *g)
{
	const char *at = *g->sweep_label ? " at " : "";
	char msg[320];

	if (!g->summary.present) {
		fprintf(stderr, PROG ": warning: %s%s%s: %zu run line%s without a summary line; figures computed from the runs\n",
			in->file.path, at, g->sweep_label, g->nr_runs,
			g->nr_runs == 1 ? "" : "s");
		return;
	}
	if (results_check_summary(g, msg, sizeof(msg)))
		fprintf(stderr, PROG ": warning: %s%s%s: %s; using the summary\n",
			in->file.path, at, g->sweep_label, msg);
	if (g->summary.interrupted)
		fprintf(stderr, PROG ": warning: %s%s%s: interrupted, %d of %d runs completed\n",
			in->file.path, at, g->sweep_label, g->summary.runs,
			g->summary.runs_attempted);
}

static void fill_row(struct row *r, const struct input *in)
{
	const struct result_group *g = r->g;

	results_throughput(g, &r->avg, &r->min, &r->max, &r->runs);
	r->attempted = g->summary.present ? g->summary.runs_attempted :
					    (int)g->nr_runs;
	r->has_lat = results_median(g, results_run_lat_p99, &r->lat_p99) > 0;
	r->has_rq = results_median(g, results_run_rq_p99, &r->rq_p99) > 0;
	snprintf(r->label, sizeof(r->label), "%s", in->label);
}

/* Sweep points in the order they first appear, inputs taken in order. */
static size_t point_index(const json_t **points, size_t *nr_points,
			  const json_t *sweep)
{
	size_t i;

	for (i = 0; i < *nr_points; i++) {
		if (!points[i] || !sweep) {
			if (points[i] == sweep)
				return i;
			continue;
		}
		if (json_equal((json_t *)points[i], (json_t *)sweep))
			return i;
	}
	points[(*nr_points)++] = sweep;
	return i;
}

struct point_key {
	size_t first;		/* first-appearance index */
	size_t param;		/* first appearance of its parameter */
	bool numeric;
	double value;
};

static int cmp_point_keys(const void *pa, const void *pb)
{
	const struct point_key *a = pa, *b = pb;

	if (a->param != b->param)
		return a->param < b->param ? -1 : 1;
	if (a->numeric && b->numeric && a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

static const char *point_param(const json_t *sweep)
{
	return sweep ? json_string_value(json_object_get(sweep, "param")) :
		       "";
}

/*
 * Rank of every sweep point: points of one parameter together, numeric
 * values in increasing order (rooms=4 before rooms=8 whichever file came
 * first), anything else in first-appearance order.
 */
static int rank_points(const json_t **points, size_t n, size_t *rank)
{
	struct point_key *k = calloc(n ? n : 1, sizeof(*k));
	const json_t *v;
	size_t i, j;

	if (!k)
		return -1;
	for (i = 0; i < n; i++) {
		k[i].first = i;
		for (j = 0; j < i; j++)
			if (!strcmp(point_param(points[j]),
				    point_param(points[i])))
				break;
		k[i].param = j < i ? k[j].param : i;
		v = points[i] ? json_object_get(points[i], "value") : NULL;
		k[i].numeric = json_is_number(v);
		k[i].value = k[i].numeric ? json_number_value(v) : 0;
	}
	qsort(k, n, sizeof(*k), cmp_point_keys);
	for (i = 0; i < n; i++)
		rank[k[i].first] = i;
	free(k);
	return 0;
}

static int cmp_rows_none(const struct row *a, const struct row *b)
{
	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	return (a->group > b->group) - (a->group < b->group);
}

static enum sort_by sort_key;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int c;

	if (a->point != b->point)
		return a->point < b->point ? -1 : 1;
	if (sort_key == SORT_LABEL) {
		c = strcmp(a->label, b->label);
		if (c)
			return c;
	} else if (sort_key == SORT_AVG && a->avg != b->avg) {
		return a->avg > b->avg ? -1 : 1;
	}
	return cmp_rows_none(a, b);
}

/*
 * Builds the rows, one per group of every input; a file holding the same
 * sweep point twice (two outputs concatenated) gets "#2" on the second.
 */
static struct row *build_rows(const struct input *in, size_t n_in,
			      size_t *n_rows)
{
	size_t i, j, k, n = 0, nr_points = 0, same, *rank = NULL;
	const json_t **points;
	struct row *rows;

	for (i = 0; i < n_in; i++)
		n += in[i].file.nr_groups;
	rows = calloc(n ? n : 1, sizeof(*rows));
	points = calloc(n ? n : 1, sizeof(*points));
	rank = calloc(n ? n : 1, sizeof(*rank));
	if (!rows || !points || !rank)
		goto fail;
	for (i = 0, k = 0; i < n_in; i++) {
		for (j = 0; j < in[i].file.nr_groups; j++, k++) {
			struct row *r = &rows[k];

			r->input = i;
			r->group = j;
			r->g = &in[i].file.groups[j];
			r->point = point_index(points, &nr_points, r->g->sweep);
			fill_row(r, &in[i]);
			same = (size_t)(r->g - results_find_group(&in[i].file,
								  r->g->sweep));
			if (same)
				snprintf(r->label, sizeof(r->label), "%s#%zu",
					 in[i].label, same + 1);
			warn_group(&in[i], r->g);
		}
	}
	if (rank_points(points, nr_points, rank))
		goto fail;
	for (k = 0; k < n; k++)
		rows[k].point = rank[rows[k].point];
	free(points);
	free(rank);
	*n_rows = n;
	return rows;
fail:
	free(rows);
	free(points);
	free(rank);
	return NULL;
}

static int find_base(const struct input *in, size_t n, const char *base,
		     size_t *out)
{
	char list[512] = "";
	size_t i, used = 0;

	if (!base) {
		*out = 0;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(in[i].label, base)) {
			*out = i;
			return 0;
		}
	}
	/* The path as given on the command line is accepted too. */
	for (i = 0; i < n; i++) {
		if (!strcmp(in[i].file.path, base)) {
			*out = i;
			return 0;
		}
	}
	for (i = 0; i < n && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", i ? ", " : "", in[i].label);
	fprintf(stderr, PROG ": unknown --base label '%s' (labels: %s)\n", base,
		list);
	return -1;
}

static void set_ratios(struct row *rows, size_t n, const struct input *in,
		       size_t base)
{
	const struct result_group *bg;
	double bavg, bmin, bmax;
	int bn;
	size_t i;

	for (i = 0; i < n; i++) {
		bg = results_find_group(&in[base].file, rows[i].g->sweep);
		if (!bg)
			continue;
		results_throughput(bg, &bavg, &bmin, &bmax, &bn);
		if (bn <= 0 || bavg <= 0)
			continue;
		rows[i].has_ratio = true;
		rows[i].ratio = rows[i].avg / bavg;
	}
}

enum col {
	COL_LABEL, COL_SWEEP, COL_RUNS, COL_AVG, COL_MIN, COL_MAX, COL_RATIO,
	COL_LAT, COL_RQ, COL_KERNEL, NR_COLS,
};

static const char *const col_title[NR_COLS] = {
	"label", "sweep", "runs", "avg msg/s", "min", "max", "ratio",
	"msg p99", "rq p99", "kernel",
};

static void row_cells(const struct row *r, const struct input *in,
		      char cell[NR_COLS][192])
{
	const char *kernel = in[r->input].file.kernel_release;

	if (r->g->summary.present && r->g->summary.kernel_release)
		kernel = r->g->summary.kernel_release;
	snprintf(cell[COL_LABEL], 192, "%s", r->label);
	snprintf(cell[COL_SWEEP], 192, "%s",
		 *r->g->sweep_label ? r->g->sweep_label : "-");
	if (r->attempted > r->runs)
		snprintf(cell[COL_RUNS], 192, "%d/%d", r->runs, r->attempted);
	else
		snprintf(cell[COL_RUNS], 192, "%d", r->runs);
	if (r->runs > 0) {
		snprintf(cell[COL_AVG], 192, "%.0f", r->avg);
		snprintf(cell[COL_MIN], 192, "%.0f", r->min);
		snprintf(cell[COL_MAX], 192, "%.0f", r->max);
	} else {
		strcpy(cell[COL_AVG], "-");
		strcpy(cell[COL_MIN], "-");
		strcpy(cell[COL_MAX], "-");
	}
	if (r->has_ratio)
		snprintf(cell[COL_RATIO], 192, "%.3f", r->ratio);
	else
		strcpy(cell[COL_RATIO], "-");
	if (r->has_lat)
		fmt_ns(cell[COL_LAT], 192, r->lat_p99);
	else
		strcpy(cell[COL_LAT], "-");
	if (r->has_rq)
		fmt_ns(cell[COL_RQ], 192, r->rq_p99);
	else
		strcpy(cell[COL_RQ], "-");
	snprintf(cell[COL_KERNEL], 192, "%s", kernel ? kernel : "-");
}

static int print_table(const struct row *rows, size_t n,
		       const struct input *in)
{
	char (*cells)[NR_COLS][192] = calloc(n ? n : 1, sizeof(*cells));
	size_t width[NR_COLS], i, c;
	bool show_sweep = false, left;

	if (!cells)
		return -1;
	for (c = 0; c < NR_COLS; c++)
		width[c] = strlen(col_title[c]);
	for (i = 0; i < n; i++) {
		row_cells(&rows[i], in, cells[i]);
		show_sweep |= *rows[i].g->sweep_label != '\0';
		for (c = 0; c < NR_COLS; c++)
			if (strlen(cells[i][c]) > width[c])
				width[c] = strlen(cells[i][c]);
	}
	for (i = 0; i <= n; i++) {
		for (c = 0; c < NR_COLS; c++) {
			const char *s = i ? cells[i - 1][c] : col_title[c];

			if (c == COL_SWEEP && !show_sweep)
				continue;
			left = c == COL_LABEL || c == COL_SWEEP;
			if (c == COL_KERNEL)
				printf("  %s\n", s);	/* last: no padding */
			else if (c == COL_LABEL)
				printf("%-*s", (int)width[c], s);
			else
				printf("  %*s", left ? -(int)width[c] :
						       (int)width[c], s);
		}
	}
	free(cells);
	return 0;
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static void csv_field(const char *s, bool last)
{
	const char *p;

	if (s && strpbrk(s, ",\"\r\n")) {
		putchar('"');
		for (p = s; *p; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	} else if (s) {
		fputs(s, stdout);
	}
	putchar(last ? '\n' : ',');
}

static void csv_num(bool have, int decimals, double v)
{
	if (have)
		printf("%.*f", decimals, v);
	putchar(',');
}

static void print_csv(const struct row *rows, size_t n,
		      const struct input *in)
{
	char value[192];
	size_t i;

	puts("label,sweep_param,sweep_value,runs,runs_attempted,avg,min,max,ratio,msg_p99_ns,rq_p99_ns,kernel_release,file");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct result_group *g = r->g;
		const char *kernel = in[r->input].file.kernel_release;
		const char *eq = strchr(g->sweep_label, '=');

		if (g->summary.present && g->summary.kernel_release)
			kernel = g->summary.kernel_release;
		snprintf(value, sizeof(value), "%s", eq ? eq + 1 : "");
		csv_field(r->label, false);
		csv_field(g->sweep_param ? g->sweep_param : "", false);
		csv_field(value, false);
		printf("%d,%d,", r->runs, r->attempted);
		csv_num(r->runs > 0, 3, r->avg);
		csv_num(r->runs > 0, 3, r->min);
		csv_num(r->runs > 0, 3, r->max);
		csv_num(r->has_ratio, 3, r->ratio);
		csv_num(r->has_lat, 0, r->lat_p99);
		csv_num(r->has_rq, 0, r->rq_p99);
		csv_field(kernel ? kernel : "", false);
		csv_field(in[r->input].file.path, true);
	}
}

int main(int argc, char **argv)
{
	struct input *in = NULL;
	struct row *rows = NULL;
	size_t n_in = 0, n_rows = 0, base = 0, i;
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
		fprintf(stderr, PROG ": out of memory\n");
		goto cleanup;
	}
	for (i = 0; i < n_in; i++) {
		if (results_load(argv[optind + i], &in[i].file, err,
				 sizeof(err))) {
			fprintf(stderr, PROG ": %s: %s\n", argv[optind + i],
				err);
			goto cleanup;
		}
	}
	if (make_labels(in, n_in, o.label_by)) {
		fprintf(stderr, PROG ": out of memory\n");
		goto cleanup;
	}
	if (find_base(in, n_in, o.base, &base))
		goto cleanup;
	rows = build_rows(in, n_in, &n_rows);
	if (!rows) {
		fprintf(stderr, PROG ": out of memory\n");
		goto cleanup;
	}
	set_ratios(rows, n_rows, in, base);
	sort_key = o.sort_by;
	qsort(rows, n_rows, sizeof(*rows), cmp_rows);
	if (o.csv) {
		print_csv(rows, n_rows, in);
	} else if (print_table(rows, n_rows, in)) {
		fprintf(stderr, PROG ": out of memory\n");
		goto cleanup;
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror(PROG ": writing the table");
		goto cleanup;
	}
	ret = EXIT_SUCCESS;
cleanup:
	free(rows);
	for (i = 0; in && i < n_in; i++) {
		results_free(&in[i].file);
		free(in[i].label);
	}
	free(in);
	return ret;
}
