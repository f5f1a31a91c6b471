# SPDX-License-Identifier: GPL-2.0
#
# The only build entry of chatbench.  BPF objects are compiled with clang for
# the bpf target, turned into skeleton headers with bpftool, and linked into
# chat_c together with the benchmark; chat_s needs no BPF at all.

# Sanitizer builds (SAN=address,undefined or SAN=thread) get their own
# output directory, so their objects never mix with the normal build's, and
# clang, whose runtimes (ASan, UBSan, TSan, libFuzzer) Debian ships with it.
comma := ,
ifneq ($(SAN),)
OUT ?= build-san-$(subst $(comma),-,$(SAN))
ifeq ($(origin CC),default)
CC := clang
endif
else
OUT ?= build
endif
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
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
CPPFLAGS += -D_GNU_SOURCE -I$(OUT) -Isrc -Ibpf
LDLIBS_BPF := -lbpf -lelf -lz
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

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))

# Objects shared by both programs, then each program's own.
COMMON := proto netio stats reslimit numarg cpuacct
SERVER := $(COMMON) server srv_threads srv_evloop cpuset chat_s_opts
CLIENT := $(COMMON) client client_opts local_server server_info cpuset \
	output_text \
	output_json summary study progress kfigures diagnose diag_out trace \
	discover \
	kstats kstats_text kstats_json kstats_load results baseline \
	report_html

obj = $(patsubst %,$(OUT)/%.o,$(1))
ALL_OBJS := $(sort $(call obj,$(SERVER) $(CLIENT) chat_s chat_c))

BINS := $(OUT)/chat_s $(OUT)/chat_c
# Tools around the binaries and their result files (no BPF in them).
TOOLS := $(OUT)/chatbench-compare $(OUT)/chatbench-hog \
	$(OUT)/chatbench-report

.PHONY: all run check check-only deps-test bench install clean vmlinux format tests
all: $(BINS) $(TOOLS)

$(OUT):
	$(Q)mkdir -p $@

$(OUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) \
		-Ivmlinux/$(ARCH) -Ibpf -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

$(OUT)/trace.o: $(SKELS)

$(OUT)/%.o: src/%.c $(wildcard src/*.h) $(wildcard bpf/*.h) | $(OUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c $< -o $@

$(OUT)/chat_s: $(call obj,$(SERVER) chat_s)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(OUT)/chat_c: $(call obj,$(CLIENT) chat_c)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ -o $@ $(LDLIBS_BPF) $(LDLIBS)

$(OUT)/chatbench-compare: tools/compare.c $(call obj,results stats numarg) \
		$(wildcard src/*.h) | $(OUT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $< \
		$(call obj,results stats numarg) -o $@ $(LDLIBS)

# The report renders with the same object chat_c --report links.
REPORT_OBJS := $(call obj,results stats numarg report_html)
$(OUT)/chatbench-report: tools/report.c $(REPORT_OBJS) $(wildcard src/*.h) \
		| $(OUT)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(LDFLAGS) $< $(REPORT_OBJS) \
		-o $@ $(LDLIBS)

$(OUT)/chatbench-hog: tools/hog.c | $(OUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $< -o $@ $(LDFLAGS) -lpthread

# Unit tests (cmocka), one binary per file under tests/unit.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRCS))
UNIT_LIBS := $(call obj,$(sort $(CLIENT) $(SERVER)))

$(OUT)/tests:
	$(Q)mkdir -p $@

$(OUT)/tests/%: tests/unit/%.c $(UNIT_LIBS) | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $< $(UNIT_LIBS) -o $@ \
		$(LDFLAGS) -lcmocka $(LDLIBS_BPF) $(LDLIBS)

tests: $(BINS) $(TOOLS) $(UNIT_BINS)

# The one test command: unit tests, then the loopback integration suite.
# The test tools are installed first when missing (a no-op otherwise).
check: deps-test
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)OUT=$(OUT) tests/run.sh

deps-test:
	$(Q)tools/install-deps.sh --test

check-only: tests
	$(Q)OUT=$(OUT) tests/run.sh

run: $(BINS)
	$(Q)$(OUT)/chat_c --local $(or $(RUN_ARGS),--runs 5 -q \
		--report $(OUT)/report.html 10 1000)

bench: $(BINS)
	$(Q)OUT=$(OUT) tools/bench.sh

install: $(BINS) $(TOOLS)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BINS) $(TOOLS) $(DESTDIR)$(PREFIX)/bin

vmlinux:
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c \
		> vmlinux/$(ARCH)/vmlinux.h

format:
	clang-format -i src/*.c src/*.h bpf/*.c bpf/*.h tests/unit/*.c tools/*.c

clean:
	rm -rf $(OUT)

# The wire parsers under libFuzzer (clang's, with ASan and UBSan) for
# FUZZ_SECONDS (60), after a replay of the seeds and of every input that
# once crashed (tests/fuzz/regressions/, where a new crash is saved).
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) CLANG=$(CLANG) WERROR=$(WERROR) \
		tests/fuzz/run.sh
