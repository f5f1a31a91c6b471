// SPDX-License-Identifier: GPL-2.0
/*
 * For tools/disturb.sh drop: a tc ingress program for lo that drops
 * DROP_PER_MILLE of every thousand TCP segments carrying data, so that
 * the benchmark's connections lose segments for real and retransmit them
 * (an egress drop on lo is retried locally at once, and netem is not
 * built into every kernel).  Pure ACKs pass: losing those alone costs
 * nothing measurable.  Not part of chatbench's tracer.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define TC_ACT_OK	0
#define TC_ACT_SHOT	2
#define ETH_P_IP	0x0800
#define PROTO_TCP	6

#ifndef DROP_PER_MILLE
#define DROP_PER_MILLE 50
#endif

SEC("tc")
int tc_drop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	struct tcphdr *tcp;
	__u32 hdrs;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return TC_ACT_OK;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->protocol != PROTO_TCP)
		return TC_ACT_OK;
	tcp = (void *)ip + ip->ihl * 4;
	if ((void *)(tcp + 1) > end)
		return TC_ACT_OK;
	hdrs = ip->ihl * 4 + tcp->doff * 4;
	if (bpf_ntohs(ip->tot_len) <= hdrs)
		return TC_ACT_OK;
	if (bpf_get_prandom_u32() % 1000 < DROP_PER_MILLE)
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
