/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket side of the tracer: how full the benchmark's TCP sockets ran.
 * Receive-queue depth when data arrives (sk_data_ready), the send queue
 * against the send buffer sampled at every snapshot (a syscall program
 * that user space runs), and the rare memory-pressure events.  Sockets
 * are selected by port: local port == server port on the server side,
 * remote port == server port on the client side.  sk_data_ready fires for
 * every packet delivered, so it can be sampled one in 2^sample_shift
 * (rodata); the rare ones are always counted.  Handlers exist as tp_btf
 * and raw_tp, like sched.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "chatbench.h"
#include "core_fixes.h"

char LICENSE[] SEC("license") = "GPL";

#define CB_TCP_ESTABLISHED	1
#define CB_MSG_PEEK		2

const volatile __u32 sample_shift = 0;

/* Host order; .bss so that it may be set or changed after load. */
volatile __u32 server_port;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct cb_sock_cpu);
	__uint(max_entries, 1);		/* possible CPUs, set before load */
} sock_stats SEC(".maps");

/* Which side of the benchmark sk belongs to, or -1. */
static __always_inline int side_of(const struct sock *sk, const bool btf)
{
	__u16 port = server_port;

	if (!port)
		return -1;
	if (CB_RD(btf, sk, __sk_common.skc_num) == port)
		return CB_SIDE_SERVER;
	if (CB_RD(btf, sk, __sk_common.skc_dport) == bpf_htons(port))
		return CB_SIDE_CLIENT;
	return -1;
}

static __always_inline struct cb_sock_cpu *stats_here(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&sock_stats, &cpu);
}

/* One more run of the program of hook, on this CPU. */
static __always_inline void hit(enum cb_sock_hook hook)
{
	struct cb_sock_cpu *st = stats_here();

	if (st)
		st->hits[hook]++;
}

static __always_inline bool skip_sample(__u64 *seen)
{
	return (*seen)++ & ((1ULL << sample_shift) - 1);
}

/*
 * The benchmark's sockets, for the send-queue sampler at the end.  Every one
 * of them receives (each connection carries messages both ways), so the
 * receive hook learns them all; it records one event in 16, which still
 * finds each socket within its first few messages.  LRU: sockets of past
 * runs make room by themselves when the sampler has not dropped them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u64);		/* struct sock address */
	__type(value, __u32);		/* enum cb_sock_side */
	__uint(max_entries, CB_MAX_SOCKS);
} socks SEC(".maps");

static __always_inline void remember(const struct sock *sk, __u32 side,
				     __u64 seen)
{
	__u64 key = (__u64)sk;

	if (!(seen & 15))
		bpf_map_update_elem(&socks, &key, &side, BPF_ANY);
}

static __always_inline int on_data_ready(const struct sock *sk,
					 const bool btf)
{
	struct cb_sock_side_stats *ss;
	struct cb_sock_cpu *st;
	__u32 rcv_nxt, copied;
	__u64 rcvbuf;
	__s32 queued;
	int side;

	side = side_of(sk, btf);
	if (side < 0)
		return 0;
	if (CB_RD(btf, sk, __sk_common.skc_state) != CB_TCP_ESTABLISHED)
		return 0;
	st = stats_here();
	if (!st)
		return 0;
	remember(sk, side & 1, st->ready_seen);
	if (skip_sample(&st->ready_seen))
		return 0;
	/* tcp_sock is past the end of struct sock: no direct load. */
	rcv_nxt = BPF_CORE_READ((struct tcp_sock *)sk, rcv_nxt);
	copied = BPF_CORE_READ((struct tcp_sock *)sk, copied_seq);
	queued = rcv_nxt - copied;
	if (queued < 0)
		queued = 0;
	rcvbuf = (__u32)CB_RD(btf, sk, sk_rcvbuf);
	ss = &st->side[side & 1];
	ss->data_ready++;
	if ((__u64)queued > ss->rq_bytes_max)
		ss->rq_bytes_max = queued;
	if (rcvbuf > ss->rcvbuf_max)
		ss->rcvbuf_max = rcvbuf;
	cb_hist_add(st->rq_hist[side & 1], queued);
	return 0;
}

static __always_inline int on_pressure(const struct sock *sk, bool rcvq,
				       const bool btf)
{
	struct cb_sock_cpu *st;
	int side;

	side = side_of(sk, btf);
	if (side < 0)
		return 0;
	st = stats_here();
	if (!st)
		return 0;
	if (rcvq)
		st->side[side & 1].rcvqueue_full++;
	else
		st->side[side & 1].exceed_buf_limit++;
	return 0;
}

SEC("tp_btf/sk_data_ready")
int BPF_PROG(btf_sk_data_ready, const struct sock *sk)
{
	hit(CB_HOOK_SK_DATA_READY);
	return on_data_ready(sk, true);
}

SEC("tp_btf/sock_exceed_buf_limit")
int BPF_PROG(btf_sock_exceed_buf_limit, struct sock *sk)
{
	hit(CB_HOOK_SOCK_EXCEED_BUF_LIMIT);
	return on_pressure(sk, false, true);
}

SEC("tp_btf/sock_rcvqueue_full")
int BPF_PROG(btf_sock_rcvqueue_full, struct sock *sk)
{
	hit(CB_HOOK_SOCK_RCVQUEUE_FULL);
	return on_pressure(sk, true, true);
}

SEC("raw_tp/sk_data_ready")
int BPF_PROG(raw_sk_data_ready, const struct sock *sk)
{
	hit(CB_HOOK_SK_DATA_READY);
	return on_data_ready(sk, false);
}

SEC("raw_tp/sock_exceed_buf_limit")
int BPF_PROG(raw_sock_exceed_buf_limit, struct sock *sk)
{
	hit(CB_HOOK_SOCK_EXCEED_BUF_LIMIT);
	return on_pressure(sk, false, false);
}

SEC("raw_tp/sock_rcvqueue_full")
int BPF_PROG(raw_sock_rcvqueue_full, struct sock *sk)
{
	hit(CB_HOOK_SOCK_RCVQUEUE_FULL);
	return on_pressure(sk, true, false);
}

/*
 * A foreign server's threads, classed by what they do.  chatbench's own
 * threads name themselves by role (cb_role_of_comm); the original 1.0.1
 * server's all carry the process's name, so with --server-pid every one
 * of them was "other".  Here a thread of the server that receives a data
 * unit from a benchmark socket is a receiver, and one that sends units
 * and never receives is a sender (a receiver wins: a thread that does
 * both is told by its reading).  The control connection moves at most
 * CB_CTL_MAX_BYTES at a time, so the thread that serves it stays other.
 *
 * The original's workers are processes, children of the server's (raw
 * clone()): a task of the server is one whose tgid is server_tgid or
 * whose parent's is.
 *
 * These programs fire on every send and receive of the machine, so user
 * space loads them only for a foreign server (it sets server_foreign
 * then, rodata: for ours the verifier drops what tests it, and these
 * programs do not exist), and attaches them only until the run's threads
 * are classed (src/tracer/trace.c).  classify() tests the flag only for
 * the server's tasks whose name says other, and for tasks every cheaper
 * test rejected.  The tests here run cheapest first: a socket whose local
 * port is not the server's (the client's, any other program's) costs a
 * load, and only the server's data calls read the task; a thread
 * already classed then costs one hash lookup.
 */
const volatile __u32 server_foreign;
extern volatile __u32 server_tgid;	/* sched.bpf.c's */

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);		/* tid */
	__type(value, __u32);		/* enum cb_role */
	__uint(max_entries, CB_MAX_FOREIGN_THREADS);	/* 1 unless foreign */
} foreign_roles SEC(".maps");

extern struct cb_open open_acc;	/* sched.bpf.c's */

/*
 * The role learned for tid, CB_ROLE_OTHER for none.  A global function:
 * the verifier checks it once, not at each of classify()'s call sites.
 */
__noinline int foreign_role(__u32 tid)
{
	__u32 *r = bpf_map_lookup_elem(&foreign_roles, &tid);

	return r && *r < CB_NR_SUBJECT_ROLES ? (int)*r : CB_ROLE_OTHER;
}

/* The current task is the server's: a thread of it, or a worker process. */
static __always_inline bool current_is_server(__u64 id, const bool btf)
{
	if ((__u32)(id >> 32) == server_tgid)
		return true;
	if (btf)
		return cb_parent_tgid(bpf_get_current_task_btf(), true) ==
		       server_tgid;
	return cb_parent_tgid((struct task_struct *)bpf_get_current_task(),
			      false) == server_tgid;
}

static __always_inline int on_sock_io(const struct sock *sk, int ret,
				      int flags, bool rcv, const bool btf)
{
	__u32 tid, role, *old;
	__u64 id, comm[2];

	if (!server_foreign || ret <= CB_CTL_MAX_BYTES ||
	    (flags & CB_MSG_PEEK) || !sk || !server_port || !server_tgid)
		return 0;
	if (CB_RD(btf, sk, __sk_common.skc_num) != server_port)
		return 0;
	id = bpf_get_current_pid_tgid();
	if (!current_is_server(id, btf))
		return 0;
	tid = (__u32)id;
	role = rcv ? CB_ROLE_SRV_RCV : CB_ROLE_SRV_SND;
	old = bpf_map_lookup_elem(&foreign_roles, &tid);
	if (old && (*old == role || *old == CB_ROLE_SRV_RCV))
		return 0;
	/* A thread named by one of our roles keeps it. */
	bpf_get_current_comm(comm, sizeof(comm));
	if (cb_role_of_comm(comm[0]) != CB_ROLE_OTHER)
		return 0;
	if (bpf_map_update_elem(&foreign_roles, &tid, &role, BPF_ANY))
		return 0;
	if (old)
		__sync_fetch_and_add(&open_acc.learned[CB_ROLE_SRV_SND], -1);
	/*
	 * Indexed by a constant (rcv is a literal at each call): role,
	 * spilled around the update call, came back unbounded.
	 */
	if (rcv)
		__sync_fetch_and_add(&open_acc.learned[CB_ROLE_SRV_RCV], 1);
	else
		__sync_fetch_and_add(&open_acc.learned[CB_ROLE_SRV_SND], 1);
	return 0;
}

SEC("tp_btf/sock_recv_length")
int BPF_PROG(btf_sock_recv_length, struct sock *sk, int ret, int flags)
{
	hit(CB_HOOK_SOCK_RECV_LENGTH);
	return on_sock_io(sk, ret, flags, true, true);
}

SEC("tp_btf/sock_send_length")
int BPF_PROG(btf_sock_send_length, struct sock *sk, int ret, int flags)
{
	hit(CB_HOOK_SOCK_SEND_LENGTH);
	return on_sock_io(sk, ret, flags, false, true);
}

SEC("raw_tp/sock_recv_length")
int BPF_PROG(raw_sock_recv_length, struct sock *sk, int ret, int flags)
{
	hit(CB_HOOK_SOCK_RECV_LENGTH);
	return on_sock_io(sk, ret, flags, true, false);
}

SEC("raw_tp/sock_send_length")
int BPF_PROG(raw_sock_send_length, struct sock *sk, int ret, int flags)
{
	hit(CB_HOOK_SOCK_SEND_LENGTH);
	return on_sock_io(sk, ret, flags, false, false);
}

struct sndq_visit {
	struct cb_sock_cpu *st;
	__u16 port;
};

/*
 * One remembered socket: its send queue against its send buffer, as
 * sk_stream_memory_free() sees it (a sender stops once sk_wmem_queued
 * reaches sk_sndbuf).  The socket may have been freed and its memory
 * reused since it was seen: the probe reads cannot fault, and a socket
 * that is no longer an established one of ours on the same side is
 * forgotten.
 */
static long visit_sndq(struct bpf_map *map, __u64 *key, __u32 *side,
		       struct sndq_visit *v)
{
	const struct sock *sk = (const struct sock *)*key;
	struct cb_sock_side_stats *ss;
	__u16 num, dport;
	__u32 state, wmem, sndbuf;
	int now;

	num = BPF_CORE_READ(sk, __sk_common.skc_num);
	dport = BPF_CORE_READ(sk, __sk_common.skc_dport);
	state = BPF_CORE_READ(sk, __sk_common.skc_state);
	now = num == v->port ? CB_SIDE_SERVER :
	      dport == bpf_htons(v->port) ? CB_SIDE_CLIENT : -1;
	if (state != CB_TCP_ESTABLISHED || now != (int)*side) {
		bpf_map_delete_elem(map, key);
		return 0;
	}
	wmem = (__u32)BPF_CORE_READ(sk, sk_wmem_queued);
	sndbuf = (__u32)BPF_CORE_READ(sk, sk_sndbuf);
	ss = &v->st->side[*side & 1];
	ss->sends++;
	ss->wmem_sum += wmem;
	if (wmem > ss->wmem_max)
		ss->wmem_max = wmem;
	if (sndbuf > ss->sndbuf_max)
		ss->sndbuf_max = sndbuf;
	if (wmem >= sndbuf)
		ss->sndbuf_full++;
	return 0;
}

/*
 * The send queues of every benchmark socket, sampled when user space
 * runs this program (at each snapshot: run begin, every interval, run
 * end).  It replaces a hook on tcp_sendmsg_locked, which fired once per
 * message delivered (two thirds of all the events chatbench traced) to
 * record the same figures: a few hundred reads per interval instead of
 * half a million program runs per second.
 */
SEC("syscall")
int sample_send_queues(void *ctx)
{
	struct sndq_visit v = { .port = server_port };

	hit(CB_HOOK_SAMPLE_SEND_QUEUES);
	v.st = stats_here();
	if (!v.st || !v.port)
		return 0;
	bpf_for_each_map_elem(&socks, visit_sndq, &v, 0);
	return 0;
}
