// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line is drawn by its own thread twice a second; it reads
 * the run's message counters with relaxed loads (through the function the
 * study passes, client_progress) and so costs the run nothing measurable.
 * It waits half a second before the first draw, so short runs never show
 * it.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "output/text/progress.h"
#include "util/timeutil.h"

#define PERIOD_MS 500

struct progress {
	uint64_t (*done)(void *arg);
	void *arg;
	long run, runs;
	uint64_t total, start_ns;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, drawn;
};

static void draw(struct progress *p)
{
	uint64_t done = p->done(p->arg);

	fprintf(stderr, "\r\033[Krun %ld of %ld: %llu of %llu messages (%.0f %%), %.1f s",
		p->run, p->runs, (unsigned long long)done,
		(unsigned long long)p->total,
		p->total ? 100.0 * (double)done / (double)p->total : 0.0,
		(double)(now_ns() - p->start_ns) / 1e9);
	fflush(stderr);
	p->drawn = true;
}

static void *progress_main(void *arg)
{
	struct progress *p = arg;
	struct timespec ts;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += PERIOD_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->cond, &p->lock, &ts);
		if (!p->stop)
			draw(p);
	}
	if (p->drawn)
		fputs("\r\033[K", stderr);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(uint64_t (*done)(void *arg), void *arg,
				long run, long runs, uint64_t total)
{
	struct progress *p;

	if (!isatty(STDERR_FILENO))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->done = done;
	p->arg = arg;
	p->run = run;
	p->runs = runs;
	p->total = total;
	p->start_ns = now_ns();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->thread, NULL, progress_main, p)) {
		free(p);
		return NULL;
	}
	pthread_setname_np(p->thread, "cb_progress");
	return p;
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
