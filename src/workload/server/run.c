// SPDX-License-Identifier: GPL-2.0
/*
 * The run object that the control plane and the data-plane models share,
 * and the few services a model may call on it.  They live apart from the
 * control plane so that a model depends on this file alone and never
 * calls back into server.c: the control plane drives the models through
 * struct srv_model, the models report through these functions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workload/proto.h"
#include "workload/server/run.h"

struct srv_run *srv_run_new(const struct chat_start *st,
			    const struct srv_model *model)
{
	struct srv_run *run = calloc(1, sizeof(*run));
	unsigned int i;

	if (!run)
		return NULL;
	run->rooms = st->rooms;
	run->messages = st->messages;
	run->users = st->users;
	run->nconn = (unsigned int)st->rooms * (unsigned int)st->users;
	run->model = model;
	run->conns = calloc(run->nconn, sizeof(*run->conns));
	if (!run->conns) {
		free(run);
		return NULL;
	}
	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
	for (i = 0; i < run->nconn; i++) {
		run->conns[i].fd = -1;
		run->conns[i].idx = i;
	}
	return run;
}

void srv_run_free(struct srv_run *run)
{
	unsigned int i;

	run->model->finish(run);
	for (i = 0; i < run->nconn; i++)
		if (run->conns[i].fd >= 0)
			close(run->conns[i].fd);
	pthread_mutex_destroy(&run->lock);
	pthread_cond_destroy(&run->cond);
	free(run->conns);
	free(run);
}

void srv_run_fail(struct srv_run *run, const char *fmt, ...)
{
	unsigned int i;
	va_list ap;

	pthread_mutex_lock(&run->lock);
	if (atomic_exchange(&run->failed, true)) {
		pthread_mutex_unlock(&run->lock);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(run->why, sizeof(run->why), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&run->lock);
	for (i = 0; i < run->nconn; i++)
		if (run->conns[i].fd >= 0)
			shutdown(run->conns[i].fd, SHUT_RDWR);
	/*
	 * The shutdowns can end the workers, and the control thread's
	 * finish() with them, while this (a signal's stop on the main
	 * thread) still wakes: under the lock, wake() sees the model's
	 * data whole or not at all (see srv_run_take_model()).
	 */
	pthread_mutex_lock(&run->lock);
	if (run->model && run->model->wake)
		run->model->wake(run);
	pthread_mutex_unlock(&run->lock);
}

void *srv_run_take_model(struct srv_run *run)
{
	void *data;

	pthread_mutex_lock(&run->lock);
	data = run->model_data;
	run->model_data = NULL;
	pthread_mutex_unlock(&run->lock);
	return data;
}

void srv_worker_started(struct srv_run *run)
{
	pthread_mutex_lock(&run->lock);
	run->workers++;
	pthread_mutex_unlock(&run->lock);
}

void srv_worker_done(struct srv_run *run)
{
	pthread_mutex_lock(&run->lock);
	run->finished++;
	pthread_cond_signal(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

const char *srv_io_why(long r)
{
	if (r >= 0)
		return "connection closed by the client";
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return "timed out";
	return strerror(errno);
}
