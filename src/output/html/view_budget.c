// SPDX-License-Identifier: GPL-2.0
/*
 * A run's time budget as the report draws it: the budget read back by the
 * loader's own function (so that a budget that does not add up is refused
 * here as everywhere), a slow run's loss account from its "loss" object
 * by the names the JSON gives the lines (loss_line_name), and the
 * threads' lines gathered into the segments of their bar.  Waits are
 * grouped by who held the CPU, since a reader asks "behind whom", not
 * "behind which of our roles"; a group's growth is its lines' summed.
 * Failed runs get no budget: their figures stop where the run did.
 */
#include <stdio.h>
#include <string.h>

#include "output/html/jget.h"
#include "output/html/view_budget.h"
#include "results/budget_load.h"

static const char *const bt_words_tab[BT_BLOCKED] = {
	[BT_ONCPU] = "on a CPU",
	[BT_WAIT_OWN] = "waiting behind the benchmark's own threads",
	[BT_WAIT_KSOFTIRQD] = "waiting behind ksoftirqd",
	[BT_WAIT_IDLE] = "waiting on an idle CPU (a late wakeup)",
	[BT_WAIT_OUTSIDER] = "waiting behind outsiders",
	[BT_WAIT_KERNEL] = "waiting while the CPU was in softirq, interrupts or steal",
	[BT_WAIT_THROTTLED] = "waiting while their cgroup was throttled (CPU quota)",
	[BT_WAIT_UNKNOWN] = "waiting, holder not known",
};

static const char *const bt_names_tab[BT_BLOCKED] = {
	[BT_ONCPU] = "oncpu",
	[BT_WAIT_OWN] = "wait_own",
	[BT_WAIT_KSOFTIRQD] = "wait_ksoftirqd",
	[BT_WAIT_IDLE] = "wait_idle_cpu",
	[BT_WAIT_OUTSIDER] = "wait_outsider",
	[BT_WAIT_KERNEL] = "wait_kernel",
	[BT_WAIT_THROTTLED] = "wait_throttled",
	[BT_WAIT_UNKNOWN] = "wait_unknown",
};

const char *bt_name(int seg, char *buf, size_t len)
{
	if (seg >= 0 && seg < BT_BLOCKED)
		snprintf(buf, len, "%s", bt_names_tab[seg]);
	else if (seg >= BT_BLOCKED && seg < BT_GONE)
		snprintf(buf, len, "blocked_%s",
			 kb_block_names[seg - BT_BLOCKED]);
	else if (seg == BT_GONE)
		snprintf(buf, len, "gone");
	else
		snprintf(buf, len, "?");
	return buf;
}

const char *bt_words(int seg)
{
	if (seg >= 0 && seg < BT_BLOCKED)
		return bt_words_tab[seg];
	if (seg >= BT_BLOCKED && seg < BT_GONE)
		return kb_block_words[seg - BT_BLOCKED];
	if (seg == BT_GONE)
		return "gone (threads that had ended)";
	return "?";
}

/* The segment of the threads' bar a waiting thread's holder h is in. */
static int holder_seg(int h)
{
	if (h == CB_ROLE_KSOFTIRQD)
		return BT_WAIT_KSOFTIRQD;
	if (h >= 0 && h < CB_NR_ROLES)
		return BT_WAIT_OWN;
	if (h == CB_HOLD_IDLE)
		return BT_WAIT_IDLE;
	if (h == CB_HOLD_THROTTLED)
		return BT_WAIT_THROTTLED;
	if (h >= CB_NR_HOLDERS)
		return BT_WAIT_KERNEL;
	return BT_WAIT_OUTSIDER;
}

/* The segment of a line of the loss account; -1 for a CPU line. */
static int line_seg(int l)
{
	if (l == LL_ONCPU)
		return BT_ONCPU;
	if (l >= LL_WAIT(0) && l < LL_WAIT_UNKNOWN)
		return holder_seg(l - LL_WAIT(0));
	if (l == LL_WAIT_UNKNOWN)
		return BT_WAIT_UNKNOWN;
	if (l >= LL_BLOCK(0) && l < LL_GONE)
		return BT_BLOCKED + (l - LL_BLOCK(0));
	if (l == LL_GONE)
		return BT_GONE;
	return -1;
}

/*
 * The account in a run's "loss" (written only for a slow run judged by
 * the budget): lines the file does not name did not grow.
 */
static void load_loss(const json_t *o, struct loss_account *a)
{
	const json_t *lines = json_object_get(o, "lines_ns_per_msg");
	char name[48];
	int l;

	memset(a, 0, sizeof(*a));
	a->unexplained = -1;
	if (!json_is_object(o))
		return;
	for (l = 0; l < LL_NR; l++)
		a->grown[l] = json_number_value(json_object_get(lines,
				loss_line_name(l, name, sizeof(name))));
	a->lost_ns = jnum(o, "lost_ns_per_msg");
	a->grown_ns = jnum(o, "grown_ns_per_msg");
	if (json_is_number(json_object_get(o, "unexplained")))
		a->unexplained = jnum(o, "unexplained");
	a->valid = true;
}

/*
 * The budget of one host's kernel record k, with the account's growths
 * marked on its threads' bar when acct (the run's, if it is this host's).
 */
static void host_budget(const json_t *k, const struct loss_account *acct,
			struct ks_budget *b, struct run_budget *bv)
{
	const struct kb_threads *t = &b->subjects;
	int i, s;

	memset(bv, 0, sizeof(*bv));
	memset(b, 0, sizeof(*b));
	if (!k || budget_from_json(json_object_get(k, "budget"), b) ||
	    !b->valid || !b->cpus.supply_ns || !t->total_ns) {
		b->valid = false;
		return;
	}
	bv->valid = true;
	bv->thr[BT_ONCPU] = (double)t->oncpu_ns;
	for (i = 0; i < KB_NR_HOLDERS; i++)
		bv->thr[holder_seg(i)] += (double)t->wait_by[i];
	bv->thr[BT_WAIT_UNKNOWN] = (double)t->wait_unknown_ns;
	for (i = 0; i < CB_NR_BLOCKS; i++)
		bv->thr[BT_BLOCKED + i] = (double)t->blocked_by[i];
	bv->thr[BT_GONE] = (double)t->gone_ns;
	if (!acct || !acct->valid)
		return;
	for (i = KB_NR_CPU_LINES; i < LL_NR; i++) {
		s = line_seg(i);
		if (s >= 0)
			bv->thr_grown[s] += acct->grown[i];
	}
}

void view_host_budget(const json_t *k, struct host_budget *hb)
{
	memset(hb, 0, sizeof(*hb));
	host_budget(k, NULL, &hb->budget, &hb->bv);
}

void view_budget(struct run_view *rv)
{
	const json_t *loss = rv->failed ? NULL :
			     json_object_get(rv->r->json, "loss");
	const char *host = json_string_value(json_object_get(loss, "host"));
	bool server_acct;

	load_loss(loss, &rv->acct);
	rv->acct_is_server = host && !strcmp(host, "server");
	/* Whose bars the account's growths belong on. */
	server_acct = rv->acct_is_server && rv->server_kernel;
	rv->server.has_loss = server_acct;
	if (rv->failed) {
		memset(&rv->bv, 0, sizeof(rv->bv));
		memset(&rv->budget, 0, sizeof(rv->budget));
		memset(&rv->server, 0, sizeof(rv->server));
		return;
	}
	host_budget(rv->kernel, server_acct ? NULL : &rv->acct, &rv->budget,
		    &rv->bv);
	host_budget(rv->server_kernel, server_acct ? &rv->acct : NULL,
		    &rv->server.budget, &rv->server.bv);
}
