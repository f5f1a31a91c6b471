// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the one role table (bpf/chatbench.h, src/util/roles.c):
 * the word the BPF side matches a thread name with must be the name user
 * space gives its threads, and every role must be found by its name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/roles.h"

#define COMM_WORD(id, name, words, colour, comm) (uint64_t)(comm),
static const uint64_t comm_words[CB_NR_ROLES] = { CB_ROLES(COMM_WORD) };
#undef COMM_WORD

static void test_comm_word_is_the_name(void **state)
{
	int r, named = 0;

	(void)state;
	for (r = 0; r < CB_NR_ROLES; r++) {
		uint64_t w = 0;
		size_t n = strlen(role_name(r));

		if (!comm_words[r])
			continue;
		named++;
		/* What the kernel holds in task->comm after setname. */
		memcpy(&w, role_name(r), n < sizeof(w) ? n : sizeof(w));
		assert_true((w & CB_COMM7_MASK) == comm_words[r]);
		assert_int_equal(cb_role_of_comm(w), r);
		assert_true(role_is_worker(r));
	}
	assert_int_equal(named, CB_ROLE_OTHER);
}

static void test_names_unique_and_found(void **state)
{
	int r, q;

	(void)state;
	for (r = 0; r < CB_NR_ROLES; r++) {
		assert_non_null(role_table[r].words);
		assert_int_equal(strlen(role_table[r].colour), 7);
		assert_int_equal(role_by_name(role_name(r)), r);
		for (q = 0; q < r; q++)
			assert_string_not_equal(role_name(q), role_name(r));
	}
	assert_int_equal(role_by_name("nobody"), -1);
	assert_false(role_is_worker(CB_ROLE_OTHER));
	assert_false(role_is_worker(CB_ROLE_KSOFTIRQD));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm_word_is_the_name),
		cmocka_unit_test(test_names_unique_and_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
