/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CO-RE accessors for kernel fields that were renamed or moved, so that the
 * same BPF object runs on kernels older than the vmlinux.h it was built
 * against.  Each accessor takes "btf": true in tp_btf programs, whose task
 * pointers the verifier lets us dereference directly (no helper call on the
 * hot path), false in raw_tp programs, which must use bpf_probe_read.
 * The flag is always a literal, so clang drops the unused half.
 */
#ifndef CHATBENCH_CORE_FIXES_H
#define CHATBENCH_CORE_FIXES_H

#include <bpf/bpf_core_read.h>

/* One field read, direct in tp_btf, probe-read in raw_tp. */
#define CB_RD(btf, p, field) ((btf) ? (p)->field : BPF_CORE_READ(p, field))

/*
 * Kernel 5.14 renamed task_struct::state to __state (and made it unsigned
 * int), commit 2f064a59a11f ("sched: Change task_struct::state").
 */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 cb_task_state(struct task_struct *p,
					   const bool btf)
{
	struct task_struct___pre514 *o = (void *)p;

	if (bpf_core_field_exists(p->__state))
		return CB_RD(btf, p, __state);
	return (__u32)CB_RD(btf, o, state);
}

/*
 * Kernel 5.16 moved the CPU number from task_struct::cpu back into
 * thread_info when THREAD_INFO_IN_TASK, commit bcf9033e5449 ("sched: move
 * CPU field back into thread_info if THREAD_INFO_IN_TASK").
 */
struct task_struct___pre516 {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __u32 cb_task_cpu(struct task_struct *p,
					 const bool btf)
{
	struct task_struct___pre516 *o = (void *)p;

	if (bpf_core_field_exists(p->thread_info.cpu))
		return CB_RD(btf, p, thread_info.cpu);
	return CB_RD(btf, o, cpu);
}

/*
 * The process (tgid) that made p: real_parent, not parent, which is a
 * ptracer while one is attached.  Two dependent loads, so callers test it
 * last.
 */
static __always_inline __u32 cb_parent_tgid(struct task_struct *p,
					    const bool btf)
{
	if (btf)
		return p->real_parent->tgid;
	return BPF_CORE_READ(p, real_parent, tgid);
}

/* First 8 bytes of comm: one load instead of a string compare. */
static __always_inline __u64 cb_comm8(struct task_struct *p, const bool btf)
{
	__u64 w = 0;

	if (btf)
		return *(__u64 *)p->comm;
	bpf_core_read(&w, sizeof(w), &p->comm);
	return w;
}

/*
 * The system call a task sleeps in, from the registers saved at its
 * kernel entry; -1 where we cannot tell.  tp_btf has the kernel's
 * bpf_task_pt_regs() (5.15+), which needs a typed pointer; raw_tp has
 * only a number, so it computes task_pt_regs() as x86-64 and arm64
 * define it: the registers sit at the top of the 16 KiB task stack
 * (a KASAN kernel's larger stack reads garbage, never faults; so does an
 * arm64 kernel with 64 KiB pages, whose stacks may be a page).  The
 * number is the one saved at entry (x86's orig_ax, as ax is overwritten
 * by the return value; arm64's syscallno, saved from x8), in the
 * architecture's own numbering: user space fills sys_reason from its
 * <sys/syscall.h>, built for the same architecture.
 */
#define CB_THREAD_SIZE	16384

static __always_inline long cb_syscall_nr(struct task_struct *p,
					  const bool btf)
{
	struct pt_regs *regs;

	if (btf) {
		regs = (struct pt_regs *)bpf_task_pt_regs(p);
	} else {
		void *stack = BPF_CORE_READ(p, stack);

		if (!stack)
			return -1;
		regs = (struct pt_regs *)(stack + CB_THREAD_SIZE -
					  bpf_core_type_size(struct pt_regs));
	}
#if defined(__TARGET_ARCH_x86)
	return BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
	return BPF_CORE_READ(regs, syscallno);
#else
	/* Another arch: no reason from the system call, never a wrong one. */
	(void)regs;
	return -1;
#endif
}

/*
 * Count v in a log-linear histogram.  The asm hides the bucket's range
 * from clang, which would otherwise drop the mask as redundant after the
 * clamp in cb_hist_bucket() and leave the verifier an unbounded index.
 */
static __always_inline void cb_hist_add(__u32 *hist, __u64 v)
{
	__u32 b = cb_hist_bucket(v);

	asm volatile("" : "+r"(b));
	hist[b & (CB_HIST_BUCKETS - 1)]++;
}

#endif
