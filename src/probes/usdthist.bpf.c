// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A histogram of a USDT probe (usdt:PATH:PROVIDER:PROBE[.argN]): libbpf attaches it to every
 * site of the probe (bpf_program__attach_usdt, the semaphore counted up as for a uprobe
 * event) and bpf_usdt_arg() reads the arguments as the note's specs describe them. The value
 * is an argument (value_arg, 1-based), or 0 for counts only; by=argN keys by an argument,
 * a number or, with key_string, the text its char pointer points to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile unsigned int value_arg = 0;
const volatile unsigned int key_arg = 0;
const volatile unsigned int key_string = 0;

SEC("usdt")
int usdt_hist(struct pt_regs *ctx)
{
	struct kt_hist_key k = {};
	long v = 0, a = 0;

	if (!hist_wanted())
		return 0;
	if (value_arg && bpf_usdt_arg(ctx, value_arg - 1, &v))
		return 0;
	if (v < 0) /* not a size or a count */
		return 0;
	if (hist_by != KT_BY_FIELD)
		hist_key_current(&k);
	else if (bpf_usdt_arg(ctx, key_arg - 1, &a))
		return 0;
	else if (key_string)
		bpf_probe_read_user_str(k.name, sizeof(k.name), (const void *)a);
	else
		k.id = (unsigned long long)a;
	hist_add(&k, (unsigned long long)v);
	return 0;
}
