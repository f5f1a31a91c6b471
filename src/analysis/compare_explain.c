// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison's rows explained: each row against the base file's
 * group at the same sweep point (never across points), by the budgets
 * and figures of both (analysis/explain.c).
 */
#include <stdlib.h>

#include "analysis/compare.h"
#include "analysis/explain.h"
#include "util/fmt.h"

int cmp_explain_rows(struct cmp_row *rows, size_t n, const struct cmp_ctx *c,
		     char *err, size_t len)
{
	const struct result_group *bg;
	size_t i;

	for (i = 0; i < n; i++) {
		struct cmp_row *r = &rows[i];

		bg = results_find_group(&c->in[c->base].file, r->g->sweep);
		if (!bg || r->is_base)
			continue;
		r->ex = malloc(sizeof(*r->ex));
		if (!r->ex) {
			fmt_err(err, len, "out of memory");
			return -1;
		}
		if (explain_groups(r->g, bg, r->ex, err, len))
			return -1;
	}
	return 0;
}

void cmp_free_rows(struct cmp_row *rows, size_t n)
{
	size_t i;

	for (i = 0; rows && i < n; i++)
		free(rows[i].ex);
	free(rows);
}
