// SPDX-License-Identifier: GPL-2.0
/* The usual suspects' counters, read from /proc and /sys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer/sysstat.h"
#include "util/procfs.h"

/*
 * In /proc/net/snmp and /proc/net/netstat a protocol has two lines, the
 * names and then the values ("Tcp: RtoAlgorithm ..." / "Tcp: 1 ...").
 */
static uint64_t snmp_field(const char *file, const char *proto,
			   const char *name)
{
	char names[4096], values[4096], *n, *v, *sn, *sv;
	size_t plen = strlen(proto);
	uint64_t out = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(names, sizeof(names), f) &&
	       fgets(values, sizeof(values), f)) {
		if (strncmp(names, proto, plen) || names[plen] != ':')
			continue;
		n = strtok_r(names + plen + 1, " \n", &sn);
		v = strtok_r(values + plen + 1, " \n", &sv);
		for (; n && v; n = strtok_r(NULL, " \n", &sn),
			       v = strtok_r(NULL, " \n", &sv)) {
			if (!strcmp(n, name)) {
				out = strtoull(v, NULL, 10);
				break;
			}
		}
		break;
	}
	fclose(f);
	return out;
}

static uint64_t psi_some(const char *file)
{
	char buf[256], *p;
	FILE *f = fopen(file, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "total=");
	return p ? strtoull(p + 6, NULL, 10) : 0;
}

static uint64_t allocstalls(void)
{
	char line[128];
	uint64_t sum = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "allocstall_", 11))
			sum += strtoull(line + strcspn(line, " "), NULL, 10);
	fclose(f);
	return sum;
}

/*
 * The mean of the CPUs' current clocks; 0 where the machine has no
 * cpufreq (VMs like ours), which cpu0 tells at once.
 */
static uint64_t mean_freq_khz(void)
{
	char path[96], buf[32];
	uint64_t sum = 0, n = 0;
	int c;
	FILE *f;

	for (c = 0; c < 1024; c++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
			 c);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fgets(buf, sizeof(buf), f)) {
			sum += strtoull(buf, NULL, 10);
			n++;
		}
		fclose(f);
	}
	return n ? sum / n : 0;
}

void sys_read(struct ks_sys_snap *s)
{
	s->retrans_segs = snmp_field("/proc/net/snmp", "Tcp", "RetransSegs");
	s->rto_timeouts = snmp_field("/proc/net/netstat", "TcpExt",
				     "TCPTimeouts");
	s->psi_mem_some_us = psi_some("/proc/pressure/memory");
	s->allocstall = allocstalls();
	s->freq_khz = mean_freq_khz();
}

/* "cpuN user nice system idle iowait irq softirq ..." lines. */
static int softirq_time(struct sys_softirq *cpu, int ncpus)
{
	unsigned long long v;
	long hz = sysconf(_SC_CLK_TCK);
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %*u %*u %*u %*u %*u %*u %llu", &c,
			   &v) == 2 && c >= 0 && c < ncpus && hz > 0)
			cpu[c].ns = v * (1000000000ULL / (unsigned long)hz);
	}
	fclose(f);
	return 0;
}

/*
 * A header of "CPUn" columns, then one line per vector in the kernel's
 * order, which is ours (ks_softirq_names).
 */
static int softirq_counts(struct sys_softirq *cpu, int ncpus)
{
	int col[1024], ncol = 0, vec = 0, i, c;
	char *line = NULL, *p, *end, *sp;
	size_t cap = 0;
	FILE *f = fopen("/proc/softirqs", "r");

	if (!f)
		return -1;
	if (getline(&line, &cap, f) < 0)
		goto out;
	for (p = strtok_r(line, " \t\n", &sp); p && ncol < 1024;
	     p = strtok_r(NULL, " \t\n", &sp))
		col[ncol++] = strncmp(p, "CPU", 3) ? -1 : atoi(p + 3);
	while (vec < SYS_NR_SOFTIRQS && getline(&line, &cap, f) > 0) {
		p = strchr(line, ':');
		if (!p)
			break;
		for (i = 0, p++; i < ncol; i++, p = end) {
			unsigned long long n = strtoull(p, &end, 10);

			if (end == p)
				break;
			c = col[i];
			if (c >= 0 && c < ncpus)
				cpu[c].cnt[vec] = n;
		}
		vec++;
	}
out:
	free(line);
	fclose(f);
	return vec ? 0 : -1;
}

int sys_read_softirqs(struct sys_softirq *cpu, int ncpus)
{
	memset(cpu, 0, sizeof(*cpu) * ncpus);
	if (softirq_time(cpu, ncpus) || softirq_counts(cpu, ncpus))
		return -1;
	return 0;
}

int sys_read_cpustat(struct sys_cpustat *cpu, int ncpus)
{
	unsigned long long irq, sirq, steal;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t tick;
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int c;

	memset(cpu, 0, sizeof(*cpu) * ncpus);
	if (!f || hz <= 0) {
		if (f)
			fclose(f);
		return -1;
	}
	tick = 1000000000ULL / (unsigned long)hz;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %*u %*u %*u %*u %*u %llu %llu %llu",
			   &c, &irq, &sirq, &steal) != 4 || c < 0 ||
		    c >= ncpus)
			continue;
		cpu[c].irq_ns = irq * tick;
		cpu[c].softirq_ns = sirq * tick;
		cpu[c].steal_ns = steal * tick;
		cpu[c].online = true;
	}
	fclose(f);
	return 0;
}

uint64_t proc_majflt(pid_t pid)
{
	unsigned long long majflt;
	char buf[1024], *p;

	if (proc_read(pid, "stat", buf, sizeof(buf)) < 0)
		return 0;
	/* comm may hold spaces and parentheses: fields start after ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %llu",
			 &majflt) != 1)
		return 0;
	return majflt;
}
