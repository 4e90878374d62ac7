// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview's system strip (sysstrip.h): /proc's totals, differenced between samples. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysstrip.h"
#include "util/clock.h"

static uint64_t delta(uint64_t now, uint64_t *last)
{
	uint64_t d = now >= *last ? now - *last : 0;

	*last = now;
	return d;
}

/* One "cpu" or "cpuN" line of /proc/stat into slot i (0: all). */
static double cpu_line(struct kt_sysstrip *s, size_t i, const char *line)
{
	unsigned long long v[8] = { 0 }, busy, all, db, da;

	if (sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return 0;
	all = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	busy = all - v[3] - v[4]; /* idle and iowait are not busy */
	db = delta(busy, &s->cpu_t[i][0]);
	da = delta(all, &s->cpu_t[i][1]);
	return da ? 100.0 * (double)db / (double)da : 0;
}

static void read_stat(struct kt_sysstrip *s)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];
	int cpu;

	if (!f)
		return;
	s->ncpus = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu ", 4))
			s->cpu_pct = cpu_line(s, 0, line);
		else if (sscanf(line, "cpu%d", &cpu) == 1 && cpu >= 0 && cpu < KT_SYS_MAX_CPUS) {
			s->cpu_busy[cpu] = cpu_line(s, (size_t)cpu + 1, line);
			if (cpu + 1 > s->ncpus)
				s->ncpus = cpu + 1;
		} else {
			sscanf(line, "procs_running %u", &s->procs_running);
			sscanf(line, "procs_blocked %u", &s->procs_blocked);
		}
	}
	fclose(f);
}

static void read_meminfo(struct kt_sysstrip *s)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long v;
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &v) == 1)
			s->mem_total_kb = v;
		else if (sscanf(line, "MemAvailable: %llu kB", &v) == 1)
			s->mem_available_kb = v;
	}
	fclose(f);
}

/* /proc/pressure/what's some and full avg10; -1 when absent. */
static void read_psi(const char *what, double *some, double *full)
{
	char path[64], line[256];
	double v;
	FILE *f;

	*some = -1;
	if (full)
		*full = -1;
	snprintf(path, sizeof(path), "/proc/pressure/%s", what);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "some avg10=%lf", &v) == 1)
			*some = v;
		else if (full && sscanf(line, "full avg10=%lf", &v) == 1)
			*full = v;
	}
	fclose(f);
}

/* A whole disk that is not a loop or ram device: /sys/block/NAME exists. */
static bool is_disk(const char *name)
{
	char path[96];

	if (!strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) || !strncmp(name, "zram", 4))
		return false;
	snprintf(path, sizeof(path), "/sys/block/%s", name);
	return access(path, F_OK) == 0;
}

static struct kt_sys_disk *disk_slot(struct kt_sysstrip *s, const char *name)
{
	int i;

	for (i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	if (s->ndisks == KT_SYS_MAX_DISKS)
		return NULL;
	snprintf(s->disks[s->ndisks].name, sizeof(s->disks[0].name), "%s", name);
	return &s->disks[s->ndisks++];
}

static void read_diskstats(struct kt_sysstrip *s)
{
	unsigned long long rd, rs, rms, wr, ws, wms;
	unsigned int major, minor;
	FILE *f = fopen("/proc/diskstats", "re");
	struct kt_sys_disk *d;
	char line[512], name[32];
	uint64_t ms;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %31s %llu %*u %llu %llu %llu %*u %llu %llu", &major, &minor,
			   name, &rd, &rs, &rms, &wr, &ws, &wms) != 9 || !is_disk(name))
			continue;
		d = disk_slot(s, name);
		if (!d)
			continue;
		d->dev = major << 20 | minor;
		d->reads = delta(rd, &d->t_reads);
		d->writes = delta(wr, &d->t_writes);
		d->read_bytes = 512 * delta(rs, &d->t_rsect);
		d->write_bytes = 512 * delta(ws, &d->t_wsect);
		ms = delta(rms + wms, &d->t_ms);
		d->avg_ms = d->reads + d->writes ? (double)ms / (double)(d->reads + d->writes) : 0;
	}
	fclose(f);
}

static void read_netdev(struct kt_sysstrip *s)
{
	unsigned long long rb, rp, rd, tb, tp, td, t[5] = { 0 };
	FILE *f = fopen("/proc/net/dev", "re");
	char line[512], *colon;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon || !strncmp(line + strspn(line, " "), "lo:", 3))
			continue;
		if (sscanf(colon + 1, "%llu %llu %*u %llu %*u %*u %*u %*u %llu %llu %*u %llu", &rb,
			   &rp, &rd, &tb, &tp, &td) != 6)
			continue;
		t[0] += rp, t[1] += tp, t[2] += rb, t[3] += tb, t[4] += rd + td;
	}
	fclose(f);
	s->net_rx_packets = delta(t[0], &s->net_t[0]);
	s->net_tx_packets = delta(t[1], &s->net_t[1]);
	s->net_rx_bytes = delta(t[2], &s->net_t[2]);
	s->net_tx_bytes = delta(t[3], &s->net_t[3]);
	s->net_drops = delta(t[4], &s->net_t[4]);
}

void sysstrip_sample(struct kt_sysstrip *s)
{
	unsigned long long now = clock_mono_ns();

	s->interval_s = s->last_ns ? (double)(now - s->last_ns) / 1e9 : 0;
	s->last_ns = now;
	read_stat(s);
	read_meminfo(s);
	read_psi("cpu", &s->psi_cpu_some, NULL);
	read_psi("memory", &s->psi_mem_some, &s->psi_mem_full);
	read_psi("io", &s->psi_io_some, &s->psi_io_full);
	read_diskstats(s);
	read_netdev(s);
	selfstat_sample(&s->self);
}
