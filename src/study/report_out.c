// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report of a study's or a judge's lines: saved to a temporary
 * file, loaded back by src/results/ and rendered by src/output/html/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/html/report_html.h"
#include "output/json/json_out.h"
#include "results/results.h"
#include "study/report_out.h"
#include "util/safe_file.h"

int report_out_check(const char *path, char *err, size_t len)
{
	const char *why;

	if (!strcmp(path, "-"))
		return 0;
	/* Nothing created or opened: the report is written whole at the end. */
	why = safe_file_check(path);
	if (why) {
		snprintf(err, len, "cannot write the report to %s: %s", path,
			 why);
		return -1;
	}
	return 0;
}

int report_out_write(struct json_out *json, const char *source,
		     const char *path, const char *prog, char *err,
		     size_t len)
{
	char tmp[] = "/tmp/chatbench-report-XXXXXX";
	struct result_file rf;
	int fd = mkstemp(tmp), rc = -1;

	if (fd < 0) {
		snprintf(err, len, "report: temporary file: %s",
			 strerror(errno));
		return -1;
	}
	close(fd);
	if (json_out_save(json, tmp)) {
		snprintf(err, len, "report: cannot save the results: %s",
			 strerror(errno));
		goto out;
	}
	if (results_load_flags(tmp, RESULTS_ALLOW_NO_SUMMARY, &rf, err, len))
		goto out;
	/* The page names its source, not our temporary. */
	free(rf.path);
	rf.path = strdup(source);
	rc = report_html_write(path, &rf, 1, err, len);
	results_free(&rf);
	if (!rc)
		fprintf(stderr, "%s: report written to %s\n", prog, path);
out:
	unlink(tmp);
	return rc;
}
