/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The overview's system strip, the USE method one line per resource: CPU utilisation per
 * CPU and its saturation (tasks runnable, PSI), memory (available, PSI), block I/O per disk
 * (IOPS, bytes, average latency, PSI io), network (packets, bytes, drops) and ktop's own
 * cost. Read from /proc/stat, /proc/meminfo, /proc/pressure, /proc/diskstats and
 * /proc/net/dev; counts are over the interval between two samples.
 */
#ifndef KTOP_BACKEND_SYSSTRIP_H
#define KTOP_BACKEND_SYSSTRIP_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/ingest/selfstat.h"

#define KT_SYS_MAX_CPUS 256
#define KT_SYS_MAX_DISKS 8

struct kt_sys_disk {
	char name[32];
	unsigned int dev;				 /* MKDEV(major, minor), 20 minor bits */
	uint64_t reads, writes, read_bytes, write_bytes; /* over the interval */
	double avg_ms;					/* average time per request */
	/* the requests' latency counted in the kernel (overview_disk_latency): lat_counted
	 * false where it is not (no BPF), and then only avg_ms, /proc's mean, stands */
	bool lat_counted;
	uint64_t lat_count;
	double lat_mean_ms, p99_ms, lat_max_ms; /* max: the top of the highest bucket */
	/* private: the totals at the last sample */
	uint64_t t_reads, t_writes, t_rsect, t_wsect, t_ms;
};

struct kt_sysstrip {
	double interval_s;
	int ncpus;
	double cpu_pct;			   /* all CPUs, 100 = all busy */
	double cpu_busy[KT_SYS_MAX_CPUS];  /* per CPU, percent */
	unsigned int procs_running, procs_blocked;
	uint64_t mem_total_kb, mem_available_kb;
	/* PSI avg10, percent; -1 where the kernel has no PSI */
	double psi_cpu_some, psi_mem_some, psi_mem_full, psi_io_some, psi_io_full;
	struct kt_sys_disk disks[KT_SYS_MAX_DISKS];
	int ndisks;
	uint64_t net_rx_packets, net_tx_packets, net_rx_bytes, net_tx_bytes, net_drops;
	struct kt_selfstat self;
	/* private: the totals at the last sample */
	uint64_t cpu_t[KT_SYS_MAX_CPUS + 1][2]; /* busy, all (jiffies); [0] is every CPU's */
	uint64_t net_t[5];
	uint64_t last_ns;
};

/* Takes a sample: the figures since the previous one (the first: since boot). */
void sysstrip_sample(struct kt_sysstrip *s);

#endif
