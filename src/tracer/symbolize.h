/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names for the instruction pointers of the stacks a BPF profiler collects
 * (bpf_get_stackid): kernel addresses from /proc/kallsyms, user addresses
 * of a process from the ELF symbol tables of the files it maps (libdwfl).
 * Every name is fit for the folded-stack format ("a;b;c count"): ';',
 * whitespace and control characters become '_', and a name is never
 * empty.  A frame that cannot be named is "[kernel]" (kernel addresses
 * hidden by kptr_restrict), "[file]" (a user address in a mapped file
 * whose symbol tables do not cover it) or "[unknown]" (process gone,
 * address not mapped).
 *
 * User stacks hold return addresses, which point at the instruction
 * after the call and may already belong to the next function (a call at
 * the end of a noreturn path).  A caller passes addr - 1 for every frame
 * but the first (the sampled instruction itself) so that the address
 * lands inside the calling instruction; sym_user does not adjust.  The
 * same holds for kernel stacks, though there it matters less.
 *
 * A process's mappings are read once, at its first address; a library it
 * maps later is picked up once, at the first address no mapping covers.
 * A pid reused by a new process keeps the old one's names: symbolise a
 * profile soon after collecting it.  The kernel's symbols are read once,
 * at the first kernel address.  Not thread-safe; prints nothing.
 */
#ifndef CHATBENCH_SYMBOLIZE_H
#define CHATBENCH_SYMBOLIZE_H

#include <stdint.h>
#include <sys/types.h>

struct symbolizer;

/* NULL on out of memory only. */
struct symbolizer *sym_new(void);
void sym_free(struct symbolizer *s);

/*
 * The function holding kernel text address addr, from /proc/kallsyms
 * (vmlinux and module symbols).  Without root the file shows every
 * address as 0, and every frame is "[kernel]".
 */
const char *sym_kernel(struct symbolizer *s, uint64_t addr);

/*
 * The function holding addr in process tgid, from the .symtab or .dynsym
 * of the file mapped there (separate debuginfo is used when installed
 * under /usr/lib/debug/.build-id, never fetched); else "[<basename of the
 * file>]"; else "[unknown]".
 */
const char *sym_user(struct symbolizer *s, pid_t tgid, uint64_t addr);

/*
 * Rewrites name in place for the folded-stack format: ';', whitespace and
 * control characters become '_'.  For other names a caller puts in a
 * stack (a process's comm as the root frame, say).
 */
void sym_sanitize(char *name);

#endif /* CHATBENCH_SYMBOLIZE_H */
