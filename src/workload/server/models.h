/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-plane models chat_s offers, each an implementation of struct
 * srv_model (run.h).  Only the option parser names them: it turns --model
 * into one of these, and the control plane runs whichever it is given.
 */
#ifndef CHATBENCH_SRV_MODELS_H
#define CHATBENCH_SRV_MODELS_H

struct srv_model;

/* Two threads per connection, as in the original; the default. */
extern const struct srv_model srv_model_threads;
/* Event loops (model_evloop.c): one loop, or srv_model_cfg.loops loops. */
extern const struct srv_model srv_model_epoll;
extern const struct srv_model srv_model_pool;

#endif
