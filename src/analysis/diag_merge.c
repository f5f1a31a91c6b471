// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts of a run's two hosts merged into one.  chat_s on another
 * machine traces that machine, and a run can be slowed there as much as
 * on the client's: each host's record is judged by the same rules against
 * the same host's records of the other runs (diagnose.c), so that neither
 * host's figures are ever held against the other's, and only then are
 * the conclusions put together.  Shares stay fractions of the run's lost
 * throughput as each host's account saw it; they are ranked, not summed.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/diag_merge.h"

void diag_server_prefix(char *text, size_t len, const char *server_host)
{
	char head[96];
	size_t h, t = strlen(text);

	if (!len)
		return;
	h = (size_t)snprintf(head, sizeof(head), "on the server's host (%s): ",
			     server_host && *server_host ? server_host :
							   "unnamed");
	h = h < sizeof(head) ? h : sizeof(head) - 1;
	h = h < len ? h : len - 1;
	/* The sentence's end is what gives way when it does not fit. */
	if (h + t >= len)
		t = len - 1 - h;
	memmove(text + h, text, t);
	memcpy(text, head, h);
	text[h + t] = '\0';
}

/* What the named causes of v explain of its loss. */
static double named(const struct diag_verdict *v)
{
	double sum = 0;
	int i;

	for (i = 0; i < v->ncauses; i++)
		sum += v->causes[i].share;
	return sum;
}

/*
 * Inserts c in v's causes, kept in falling order of share (the client's
 * first of equals, since they are inserted first), the smallest dropped.
 */
static void insert(struct diag_verdict *v, const struct diag_cause *c)
{
	int i = v->ncauses;

	if (i == DIAG_MAX_CAUSES) {
		if (v->causes[i - 1].share >= c->share)
			return;
		i--;
	} else {
		v->ncauses++;
	}
	for (; i > 0 && v->causes[i - 1].share < c->share; i--)
		v->causes[i] = v->causes[i - 1];
	v->causes[i] = *c;
}

void diag_merge(struct diag_verdict *v, const struct diag_verdict *c,
		const struct diag_verdict *s, bool client_traced,
		const char *server_host)
{
	const struct diag_verdict *acct = NULL;
	struct diag_cause sc;
	int i;

	*v = client_traced ? *c : *s;
	v->ncauses = 0;
	if (client_traced) {
		v->slow = c->slow || s->slow;
		v->disturbed = c->disturbed || s->disturbed;
		v->evidence = c->evidence | s->evidence;
		if (c->slow) {
			for (i = 0; i < c->ncauses; i++)
				insert(v, &c->causes[i]);
			if (c->by_budget)
				acct = c;
		}
	}
	if (s->slow) {
		for (i = 0; i < s->ncauses; i++) {
			sc = s->causes[i];
			sc.host = DIAG_HOST_SERVER;
			diag_server_prefix(sc.text, sizeof(sc.text),
					   server_host);
			insert(v, &sc);
		}
		if (s->by_budget && (!acct || named(s) > named(acct)))
			acct = s;
	}
	v->by_budget = acct != NULL;
	v->unexplained = acct ? acct->unexplained : -1;
	if (acct)
		v->acct = acct->acct;
	else
		memset(&v->acct, 0, sizeof(v->acct));
	v->acct_host = acct == s ? DIAG_HOST_SERVER : DIAG_HOST_CLIENT;
	v->nothing_stands_out = v->slow && !v->ncauses;
}
