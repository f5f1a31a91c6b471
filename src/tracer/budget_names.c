// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the budget's lines (src/tracer/budget.h), from the tables
 * of bpf/chatbench.h and budget.h, so that the text, the JSON, its
 * loader and the report name every line alike.
 */
#include <stdio.h>

#include "tracer/budget.h"
#include "util/roles.h"

#define NAME3(id, name, words) name,
#define WORDS3(id, name, words) words,
#define NAME2(id, name) name,

const char *const kb_cpu_names[KB_NR_CPU_LINES] = { KB_CPU_LINES(NAME3) };
const char *const kb_cpu_words[KB_NR_CPU_LINES] = { KB_CPU_LINES(WORDS3) };
const char *const kb_block_names[CB_NR_BLOCKS] = { CB_BLOCKS(NAME3) };
const char *const kb_block_words[CB_NR_BLOCKS] = { CB_BLOCKS(WORDS3) };
const char *const kb_class_names[CB_NR_CLASSES] = { CB_CLASSES(NAME2) };

const char *kb_holder_name(int holder)
{
	static const char *const outsider[CB_NR_CLASSES] = {
#define OUTSIDER(id, name) "outsider_" name,
		CB_CLASSES(OUTSIDER)
#undef OUTSIDER
	};

	if (holder >= 0 && holder < CB_NR_ROLES)
		return role_name(holder);
	if (holder == CB_HOLD_IDLE)
		return "idle_cpu";
	if (holder == CB_HOLD_THROTTLED)
		return "throttled";
	if (holder > CB_HOLD_IDLE && holder < CB_HOLD_THROTTLED)
		return outsider[holder - CB_HOLD_CLASS(0)];
	if (holder == KB_HOLD_SOFTIRQ)
		return "softirq";
	if (holder == KB_HOLD_IRQ)
		return "irq";
	if (holder == KB_HOLD_STEAL)
		return "steal";
	return "?";
}
