/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The error numbers libbpf's <bpf/usdt.bpf.h> returns (it includes <linux/errno.h>, whose
 * <asm/errno.h> a -target bpf build cannot find in a multiarch include directory). */
#ifndef KTOP_PROBES_LINUX_ERRNO_H
#define KTOP_PROBES_LINUX_ERRNO_H

#define ENOENT 2
#define ESRCH 3
#define EINVAL 22

#endif
