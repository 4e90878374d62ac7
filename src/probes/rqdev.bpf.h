/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A block request's device as the block_rq_* tracepoints record it (blockio.bpf.c, and the
 * overview's per-disk latency in overview.bpf.c). */
#ifndef KTOP_PROBES_RQDEV_BPF_H
#define KTOP_PROBES_RQDEV_BPF_H

#define MINORBITS 20

/* The tracepoints' dev: disk_devt(rq->q->disk), MKDEV(major, first_minor); 0 without a
 * disk. */
static __always_inline unsigned int rq_dev(struct request *rq)
{
	struct gendisk *d = BPF_CORE_READ(rq, q, disk);

	if (!d)
		return 0;
	return ((unsigned int)BPF_CORE_READ(d, major) << MINORBITS) |
	       (unsigned int)BPF_CORE_READ(d, first_minor);
}

#endif
