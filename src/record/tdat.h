/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Constants of trace-cmd's trace.dat format (trace-cmd.dat(5)), shared by the writer and the
 * structure check. */
#ifndef KTOP_TDAT_H
#define KTOP_TDAT_H

#define TDAT_MAGIC "\027\010\104tracing"
#define TDAT_MAGIC_LEN 10

/* Option ids (trace-cmd's enum tracecmd_option_id). */
enum {
	TDAT_OPT_DONE = 0,
	TDAT_OPT_DATE = 1,
	TDAT_OPT_CPUSTAT = 2,
	TDAT_OPT_BUFFER = 3,
	TDAT_OPT_TRACECLOCK = 4,
	TDAT_OPT_UNAME = 5,
	TDAT_OPT_HOOK = 6,
	TDAT_OPT_OFFSET = 7,
	TDAT_OPT_CPUCOUNT = 8,
	TDAT_OPT_VERSION = 9,
	/* ktop's own (trace-cmd and libtracecmd skip options they do not know): a --profile's
	 * stacks, batch_profile.h's text */
	TDAT_OPT_KTOP_STACKS = 0x4b54,
};

/* Flags in the high bits of a ring-buffer page's commit word (kernel ring_buffer.c). */
#define TDAT_PAGE_MISSED_EVENTS (1ull << 31)
#define TDAT_PAGE_MISSED_STORED (1ull << 30)
#define TDAT_PAGE_HDR 16 /* u64 timestamp, u64 commit */

/* Ring-buffer event header: type_len in the low 5 bits, time delta in the upper 27. */
#define TDAT_TYPE_LEN_MAX_DATA 28 /* type_len 1..28: data of type_len * 4 bytes */
#define TDAT_TYPE_PADDING 29
#define TDAT_TYPE_TIME_EXTEND 30
#define TDAT_TYPE_TIME_STAMP 31
#define TDAT_DELTA_BITS 27

#endif
