/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A time or a time range as a user types it (--from/--to, the range prompt): "+40.1" is
 * seconds after the capture's start, "205.060123" is a trace timestamp as ktop and trace-cmd
 * print it; either may carry a unit (s, ms, us, ns). Parsed exactly to nanoseconds, never
 * through a double, so that a typed timestamp selects the event printed with it. */
#ifndef KTOP_TIMERANGE_H
#define KTOP_TIMERANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_time {
	bool relative;	/* ns counts from the capture's start */
	uint64_t ns;
	uint64_t grain;	/* ns one step of the last typed digit is worth (1000 for µs) */
};

/* [from, to], both inclusive; an absent end is open. */
struct kt_time_range {
	bool has_from, has_to;
	struct kt_time from, to;
};

/* 0, or -1 with a one-line reason in err. */
int time_parse(const char *text, struct kt_time *out, char *err, size_t errlen);
/* "A..B", "A..", "..B" or a single time "A" (from A on). 0, or -1 with a reason; a range
 * whose ends are both of one kind and run backwards is refused. */
int time_range_parse(const char *text, struct kt_time_range *out, char *err, size_t errlen);

/* The trace timestamp t names in a capture that starts at capture_start. */
uint64_t time_resolve(const struct kt_time *t, uint64_t capture_start);
/* Whether ts lies in r, resolved against capture_start. */
bool time_range_contains(const struct kt_time_range *r, uint64_t capture_start, uint64_t ts);
/* r's ends as timestamps: open ends become 0 and UINT64_MAX. An end typed to the µs or finer
 * (a timestamp as printed) covers its last digit's whole step, so that --to 205.060123
 * keeps the row printed as 205.060123 whatever its nanoseconds; "+40.3" stays a point. */
void time_range_resolve(const struct kt_time_range *r, uint64_t capture_start,
			uint64_t *from, uint64_t *to);

/* "+40.100000" or "205.060123" (microseconds, as the stream prints them) into buf. */
void time_format(const struct kt_time *t, char *buf, size_t len);

#endif
