// SPDX-License-Identifier: GPL-2.0
/* The usual suspects' counters, read from /proc and /sys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
