// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of a run's profile outputs: the folded-stack lines, the
 * bounded JSON list whose cut tail still sums to the totals, and the
 * timeline's trace events from a hand-made sequence of switches.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "output/json/profile_json.h"
#include "output/text/profile_text.h"
#include "tracer/profile.h"

static struct profile *make(size_t n)
{
	struct profile *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->st = calloc(n, sizeof(*p->st));
	assert_non_null(p->st);
	p->hz = 99;
	return p;
}

static void put(struct profile *p, int role, int kind, const char *comm,
		const char *frames, uint64_t v)
{
	struct prof_stack *s = &p->st[p->n++];

	s->role = role;
	s->kind = kind;
	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	s->frames = strdup(frames);
	s->value = v;
}

static void test_folded_lines(void **state)
{
	struct profile *p = make(5);
	char *on = NULL, *off = NULL;
	size_t onl, offl;
	FILE *fon = open_memstream(&on, &onl);
	FILE *foff = open_memstream(&off, &offl);

	(void)state;
	put(p, CB_ROLE_CLI_SND, CB_PROF_ONCPU, "", "start_thread;send_one", 7);
	put(p, CB_PROF_OUTSIDER, CB_PROF_ONCPU, "qx_hog", "burn", 3);
	put(p, CB_ROLE_SRV_RCV, CB_PROF_ONCPU, "", "", 2);
	put(p, CB_ROLE_SRV_RCV, CB_PROF_BLOCKED, "", "recv;schedule", 2500000);
	/* Under a microsecond: nothing to draw, left out. */
	put(p, CB_ROLE_SRV_RCV, CB_PROF_RUNQ, "", "recv", 999);
	assert_int_equal(profile_write_folded(fon, foff, p), 0);
	fclose(fon);
	fclose(foff);
	assert_string_equal(on, "cli_snd;start_thread;send_one 7\n"
				"qx_hog;burn 3\n"
				"srv_rcv 2\n");
	assert_string_equal(off, "srv_rcv;[blocked];recv;schedule 2500\n");
	free(on);
	free(off);
	profile_free(p);
}

static void test_json_bounded_and_whole(void **state)
{
	size_t n = PROFILE_JSON_MAX_STACKS + 50, i, k;
	struct profile *p = make(n + 1);
	json_t *j, *arr, *e;
	uint64_t sum = 0, want = 0;
	char frames[32];

	(void)state;
	for (i = 0; i < n; i++) {
		snprintf(frames, sizeof(frames), "f%zu", i);
		put(p, CB_ROLE_CLI_RCV, CB_PROF_ONCPU, "", frames, i + 1);
		want += i + 1;
	}
	put(p, CB_ROLE_CLI_RCV, CB_PROF_RUNQ, "", "x", 5000);
	p->samples = want;
	j = profile_to_json(p);
	assert_non_null(j);
	arr = json_object_get(j, "oncpu");
	/* The largest kept, the 50 smallest summed into one entry. */
	assert_int_equal(json_array_size(arr), PROFILE_JSON_MAX_STACKS + 1);
	json_array_foreach(arr, k, e)
		sum += json_integer_value(json_object_get(e, "count"));
	assert_int_equal(sum, want);
	e = json_array_get(arr, 0);
	assert_int_equal(json_integer_value(json_object_get(e, "count")), n);
	e = json_array_get(arr, PROFILE_JSON_MAX_STACKS);
	assert_string_equal(json_string_value(json_object_get(e, "stack")),
			    "[other stacks]");
	assert_int_equal(json_integer_value(json_object_get(e, "count")),
			 50 * 51 / 2);
	arr = json_object_get(j, "offcpu");
	assert_int_equal(json_array_size(arr), 1);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(arr, 0), "kind")),
			    "runqueue");
	json_decref(j);
	profile_free(p);
}

static struct cb_tl_event ev(uint64_t ts, int type, uint32_t pid,
			     uint32_t other, int role, int other_role,
			     int state)
{
	struct cb_tl_event e = {
		.ts = ts, .type = type, .pid = pid, .tgid = 100,
		.other = other, .other_tgid = other ? 100 : 0, .cpu = 1,
		.state = state, .role = role, .other_role = other_role,
	};

	if (other_role == CB_PROF_OUTSIDER)
		memcpy(e.comm, "qx_hog", 7);
	return e;
}

static void test_timeline_slices(void **state)
{
	char path[] = "/tmp/test_timeline_XXXXXX";
	struct cb_tl_event e[4];
	struct tl_events t = { .ev = e, .n = 4 };
	json_t *j, *evs, *x;
	size_t i, running = 0, waiting = 0, taken = 0;
	char err[128];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* Out of order on purpose: CPUs interleave in the ring. */
	e[1] = ev(2000000, CB_TL_SWITCH, 7, 9, CB_ROLE_CLI_SND,
		  CB_PROF_OUTSIDER, CB_TL_PREEMPTED);
	e[0] = ev(1000000, CB_TL_SWITCH, 9, 7, CB_PROF_OUTSIDER,
		  CB_ROLE_CLI_SND, 0);
	e[2] = ev(3000000, CB_TL_SWITCH, 9, 7, CB_PROF_OUTSIDER,
		  CB_ROLE_CLI_SND, 0);
	e[3] = ev(9000000, CB_TL_SWITCH, 7, 0, CB_ROLE_CLI_SND, CB_ROLE_OTHER,
		  CB_TL_BLOCKED);
	/* The window cuts the last slice at 5 ms. */
	assert_int_equal(timeline_write(path, &t, 500000, 5000000, err,
					sizeof(err)), 0);
	j = json_load_file(path, 0, NULL);
	unlink(path);
	assert_non_null(j);
	evs = json_object_get(j, "traceEvents");
	json_array_foreach(evs, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));
		double ts = json_number_value(json_object_get(x, "ts"));
		double dur = json_number_value(json_object_get(x, "dur"));

		if (!strcmp(name, "running") &&
		    json_integer_value(json_object_get(x, "tid")) == 7) {
			running++;
			/* [1, 2) ms and [3, 5) ms, from the window's start. */
			assert_true((ts == 500 && dur == 1000) ||
				    (ts == 2500 && dur == 2000));
		}
		if (!strcmp(name, "waiting to run")) {
			waiting++;
			assert_true(ts == 1500 && dur == 1000);
		}
		if (!strcmp(name, "CPU taken"))
			taken++;
	}
	assert_int_equal(running, 2);
	assert_int_equal(waiting, 1);
	assert_int_equal(taken, 1);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_lines),
		cmocka_unit_test(test_json_bounded_and_whole),
		cmocka_unit_test(test_timeline_slices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
