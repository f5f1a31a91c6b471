# SPDX-License-Identifier: GPL-2.0
#
# The only build entry of chatbench.  BPF objects are compiled with clang for
# the bpf target, turned into skeleton headers with bpftool, and linked into
# chat_c and chat_s (which traces its own host for clients of other hosts).

# ARCH is the machine we build for, in the kernel's names (x86, arm64):
# it picks vmlinux/$(ARCH)/vmlinux.h and __TARGET_ARCH_$(ARCH) for the BPF
# objects.  A CROSS_COMPILE prefix (aarch64-linux-gnu-) names it when ARCH
# is not given, and ARCH=arm64 on another machine takes Debian's prefix,
# so that user code and BPF objects are always built for one machine.
kernel_arch = $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(1)))
# The machine of a prefix: aarch64-linux-gnu- builds for arm64.
cross_arch = $(call kernel_arch,$(firstword $(subst -, ,$(notdir $(1)))))
HOST_ARCH := $(call kernel_arch,$(shell uname -m))
ifneq ($(CROSS_COMPILE),)
ARCH ?= $(call cross_arch,$(CROSS_COMPILE))
endif
ARCH ?= $(HOST_ARCH)
ifneq ($(ARCH),$(HOST_ARCH))
ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
endif
endif
ifneq ($(CROSS_COMPILE),)
ifneq ($(call cross_arch,$(CROSS_COMPILE)),$(ARCH))
$(error CROSS_COMPILE=$(CROSS_COMPILE) does not build for ARCH=$(ARCH))
endif
ifneq ($(SAN),)
$(error SAN= builds are native only (the sanitizers' runtimes are the host's))
endif
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
endif

# Sanitizer builds (SAN=address,undefined or SAN=thread) get their own
# output directory, so their objects never mix with the normal build's, and
# clang, whose runtimes (ASan, UBSan, TSan, libFuzzer) Debian ships with it.
# So does a cross build (build-arm64): its objects are another machine's.
comma := ,
ifneq ($(SAN),)
OUT ?= build-san-$(subst $(comma),-,$(SAN))
ifeq ($(origin CC),default)
CC := clang
endif
else ifneq ($(ARCH),$(HOST_ARCH))
OUT ?= build-$(ARCH)
else
OUT ?= build
endif
CC ?= cc
CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
PREFIX ?= /usr/local

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra
ifeq ($(WERROR),1)
WARN += -Werror
endif
ifneq ($(SAN),)
# UBSan must stop the process at the first report, like ASan and TSan do.
SAN_FLAGS := -fsanitize=$(SAN) -fno-omit-frame-pointer
ifneq ($(findstring undefined,$(SAN)),)
SAN_FLAGS += -fno-sanitize-recover=undefined
endif
CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
# For the tests: CHATBENCH_SAN lets a suite skip what a sanitizer cannot
# carry (thousands of threads under TSan); every report is fatal, so the
# test that provoked it fails.  Options already set in the environment win.
export CHATBENCH_SAN := $(SAN)
export ASAN_OPTIONS ?= detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1
endif
# Frame pointers in every build: --profile walks user stacks by them, and
# without them a sample stops at its first frame.
CFLAGS += -fno-omit-frame-pointer
# arm64 compilers also drop the frame record of leaf functions unless told
# (x86's keep it): the kernel's unwinder follows x29 only, so a sample in
# a leaf would lose its caller.
ifeq ($(ARCH),arm64)
CFLAGS += -mno-omit-leaf-frame-pointer
endif
CPPFLAGS += -D_GNU_SOURCE -I$(OUT) -Isrc -Ibpf
# libdw (elfutils) names the user frames of --profile's stacks.
LDLIBS_BPF := -lbpf -ldw -lelf -lz
LDLIBS += -ljansson -lpthread -lm

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDEXPANSION:

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
# The tracer's scheduler and socket programs are linked into one object
# with one skeleton: libbpf parses the kernel's BTF once per object it
# loads.  The profiler, loaded only with --profile, stays apart.
TRACE_PARTS := $(OUT)/sched.bpf.o $(OUT)/sock.bpf.o
SKELS := $(OUT)/trace.skel.h $(OUT)/profile.skel.h
# tools/disturb.sh drop's packet dropper on lo: a test harness, not the
# tracer, so it stays out of bpf/ and of every skeleton.
HARNESS_BPF := $(OUT)/tc_drop.bpf.o

# Every C file under src/ is one object; the files that hold a main() are
# the programs, and every other object goes into one static archive that
# the programs link against, so a program takes from it only what it uses
# (the tools never pull in the tracer, hence no libbpf).
# The archive is thin (it names the objects in place), so that two files
# of one name in different parts never replace each other in it.
SRCS := $(wildcard src/*/*.c src/*/*/*.c)
MAIN_chat_c := src/study/chat_c.c
MAIN_chat_s := src/workload/server/chat_s.c
MAIN_chatbench-compare := src/study/compare_main.c
MAIN_chatbench-report := src/output/html/report_main.c
MAIN_chatbench-hog := src/workload/hog.c
MAIN_chatbench-stats := src/study/stats_main.c
MAIN_chatbench-judge := src/study/judge_main.c
MAINS := $(MAIN_chat_c) $(MAIN_chat_s) $(MAIN_chatbench-compare) \
	$(MAIN_chatbench-report) $(MAIN_chatbench-hog) $(MAIN_chatbench-stats) \
	$(MAIN_chatbench-judge)
LIB_SRCS := $(filter-out $(MAINS),$(SRCS))

obj = $(patsubst src/%.c,$(OUT)/obj/%.o,$(1))
LIB := $(OUT)/libchatbench.a

BINS := $(OUT)/chat_s $(OUT)/chat_c
# Tools around the binaries and their result files (no BPF in them).
TOOLS := $(OUT)/chatbench-compare $(OUT)/chatbench-hog \
	$(OUT)/chatbench-report $(OUT)/chatbench-stats $(OUT)/chatbench-judge

.PHONY: all run check check-only deps-test bench bench-diagnosis corpus pairs overhead \
	study-interactivity \
	install uninstall man clean \
	vmlinux format tests
all: $(BINS) $(TOOLS) $(HARNESS_BPF)

$(OUT):
	$(Q)mkdir -p $@

$(OUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) \
		-Ivmlinux/$(ARCH) -Ibpf -c $< -o $@

$(OUT)/tc_drop.bpf.o: tools/tc_drop.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) \
		-Ivmlinux/$(ARCH) -c $< -o $@

$(OUT)/trace.bpf.o: $(TRACE_PARTS)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(call obj,$(wildcard src/tracer/*.c)): $(SKELS)

# -MMD: each object depends on exactly the headers it includes.
$(OUT)/obj/%.o: src/%.c | $(OUT)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c $< -o $@

-include $(patsubst %.o,%.d,$(call obj,$(SRCS)))

$(LIB): $(call obj,$(LIB_SRCS))
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcsT $@ $^

$(OUT)/chat_c $(OUT)/chat_s: $(OUT)/%: $$(call obj,$$(MAIN_%)) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS_BPF) $(LDLIBS)

$(OUT)/chatbench-compare $(OUT)/chatbench-report \
		$(OUT)/chatbench-stats $(OUT)/chatbench-judge: \
		$(OUT)/%: $$(call obj,$$(MAIN_%)) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(OUT)/chatbench-hog: $(call obj,$(MAIN_chatbench-hog))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ -lpthread

# Unit tests (cmocka), one binary per file under tests/unit.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRCS))

$(OUT)/tests:
	$(Q)mkdir -p $@

$(OUT)/tests/%: tests/unit/%.c $(LIB) | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $< $(LIB) -o $@ \
		$(LDFLAGS) -lcmocka $(LDLIBS_BPF) $(LDLIBS)

tests: $(BINS) $(TOOLS) $(HARNESS_BPF) $(UNIT_BINS)

# The one test command: unit tests, then the loopback integration suite.
# The test tools are installed first when missing (a no-op otherwise).
check: deps-test
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)OUT=$(OUT) tests/run.sh

deps-test:
	$(Q)tools/install-deps.sh --test

check-only: tests
	$(Q)OUT=$(OUT) tests/run.sh

# chat_c, chat_s, the tools and the unit tests built for arm64 (into
# build-arm64 on another machine), the unit tests and a loopback smoke
# suite run under qemu-user.  The integration suites need an arm64 kernel
# (BPF, perf events, namespaces), which qemu-user cannot give: they are
# counted as skipped.
.PHONY: check-arm64 deps-arm64
QEMU_AARCH64 ?= qemu-aarch64-static
ifeq ($(ARCH),arm64)
ifneq ($(HOST_ARCH),arm64)
TEST_RUNNER ?= $(QEMU_AARCH64)
endif
check-arm64: deps-arm64
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)OUT=$(OUT) TEST_RUNNER="$(TEST_RUNNER)" \
		SUITES=tests/cross/qemu.bats \
		SKIP_SUITES="$(wildcard tests/integration/*.bats)" \
		SKIP_REASON="needs an arm64 kernel, not qemu-user" \
		tests/run.sh
else
check-arm64:
	$(Q)$(MAKE) --no-print-directory ARCH=arm64 check-arm64
endif

deps-arm64:
	$(Q)tools/install-deps.sh --arm64

run: $(BINS)
	$(Q)$(OUT)/chat_c --local $(or $(RUN_ARGS),--runs 5 -q \
		--report $(OUT)/report.html 10 1000)

bench: $(BINS)
	$(Q)OUT=$(OUT) tools/bench.sh

# What tracing costs: alternating rounds against one server, median ratio
# and its interval (OVERHEAD_ARGS: ROOMS MSGS PAIRS).
overhead: $(BINS) $(TOOLS)
	$(Q)OUT=$(OUT) tools/overhead.sh $(OVERHEAD_ARGS)

# Open-loop latency against load, {other, batch} x {alone, with burners}
# (STUDY_ARGS: ROOMS RATES SECONDS RUNS).
study-interactivity: $(BINS) $(TOOLS)
	$(Q)OUT=$(OUT) tools/study-interactivity.sh $(STUDY_ARGS)

# The verdict's hit and false-alarm rates on provoked and clean series
# (KINDS=all: every kind of disturbance of tools/kinds.sh in turn).
bench-diagnosis: $(BINS) $(TOOLS) $(HARNESS_BPF)
	$(Q)OUT=$(OUT) tools/bench-diagnosis.sh

# Re-records the series the verdict's replay tests judge (tests/data/).
corpus: $(BINS) $(TOOLS) $(HARNESS_BPF)
	$(Q)OUT=$(OUT) tools/record-corpus.sh $(CORPUS_KINDS)

# Re-records the pairs of series compare --explain's replay tests read
# (tests/data/pairs; PAIRS: which, default all).
pairs: $(BINS) $(TOOLS)
	$(Q)OUT=$(OUT) tools/record-pairs.sh $(PAIRS)

# Man pages, one per program, from scdoc sources (docs/man/NAME.1.scd);
# a program without one fails the build of the pages.  Their footer names
# the version and their date is that of the page's last commit.
PROGS := $(notdir $(BINS) $(TOOLS))
MANS := $(patsubst %,$(OUT)/man/%.1,$(PROGS))
SCDOC ?= scdoc
VERSION = $(shell sed -n 's/^\#define CHATBENCH_VERSION[^"]*"\(.*\)"/\1/p' \
	src/workload/proto.h)

man: $(MANS)

$(OUT)/man/%.1: docs/man/%.1.scd src/workload/proto.h
	$(call msg,SCDOC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)d=$$(git log -1 --format=%ct -- $< 2>/dev/null); \
		sed 's/@VERSION@/$(VERSION)/' $< | \
		SOURCE_DATE_EPOCH=$${d:-$$(date +%s)} $(SCDOC) >$@

# GNU's directory variables; DESTDIR stages the tree (packaging, tests).
# uninstall removes what install put there and no directory but ours.
bindir ?= $(PREFIX)/bin
mandir ?= $(PREFIX)/share/man
man1dir ?= $(mandir)/man1
docdir ?= $(PREFIX)/share/doc/chatbench
DOCS := README.md $(wildcard docs/*.md)

install: $(BINS) $(TOOLS) $(MANS)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(docdir)
	install -m 0755 $(BINS) $(TOOLS) $(DESTDIR)$(bindir)
	install -m 0644 $(MANS) $(DESTDIR)$(man1dir)
	install -m 0644 $(DOCS) $(DESTDIR)$(docdir)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,$(PROGS)) \
		$(addprefix $(DESTDIR)$(man1dir)/,$(notdir $(MANS))) \
		$(addprefix $(DESTDIR)$(docdir)/,$(notdir $(DOCS)))
	rmdir $(DESTDIR)$(docdir) 2>/dev/null || true

# x86's header is the running kernel's BTF.  arm64's is cut from the
# kernel image of Debian 12's linux-image-arm64, downloaded, so that any
# machine makes the same header; KERNEL= names another package, a .deb,
# an Image, or raw BTF (an arm64 machine's /sys/kernel/btf/vmlinux).
vmlinux:
ifeq ($(ARCH),arm64)
	BPFTOOL=$(BPFTOOL) tools/vmlinux-arm64.sh \
		vmlinux/arm64/vmlinux.h $(KERNEL)
else
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c \
		> vmlinux/$(ARCH)/vmlinux.h
endif

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h src/*/*/*.h) bpf/*.c \
		bpf/*.h tests/unit/*.c

clean:
	rm -rf $(OUT)

# The wire parsers and the result loader under libFuzzer (clang's, with
# ASan and UBSan) for FUZZ_SECONDS (60) each, after a replay of the seeds
# and of every input that once crashed (tests/fuzz/regressions*/, where a
# new crash is saved).
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) CLANG=$(CLANG) WERROR=$(WERROR) \
		tests/fuzz/run.sh
