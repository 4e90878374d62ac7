// SPDX-License-Identifier: GPL-2.0-or-later
#include "timerange.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "strutil.h"

static const struct {
	const char *name;
	uint64_t ns;
	unsigned digits;	/* decimals this unit can carry before nanoseconds run out */
} units[] = {
	{ "ns", 1, 0 }, { "us", 1000, 3 }, { "ms", 1000000, 6 }, { "s", 1000000000, 9 },
};

static int unit_of(const char *s, size_t *unit)
{
	if (!*s) {
		*unit = 3;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, units[i].name)) {
			*unit = i;
			return 0;
		}
	return -1;
}

int time_parse(const char *text, struct kt_time *out, char *err, size_t errlen)
{
	const char *p = text;
	uint64_t whole = 0, frac = 0;
	unsigned ndig = 0, nfrac = 0;
	size_t unit;

	out->relative = *p == '+';
	if (out->relative)
		p++;
	for (; *p >= '0' && *p <= '9'; p++, ndig++) {
		if (whole > (UINT64_MAX - 9) / 10)
			goto range;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, ndig++, nfrac++)
			if (nfrac < 9)
				frac = frac * 10 + (uint64_t)(*p - '0');
	if (!ndig || unit_of(p, &unit) < 0) {
		str_seterr(err, errlen,
			   "time '%s' is not a number of seconds: write +40.1 (after the start), "
			   "205.060123 (a timestamp as printed) or a unit: 40100ms, 300us", text);
		return -1;
	}
	if (nfrac > units[unit].digits) {
		str_seterr(err, errlen, "time '%s' is finer than a nanosecond", text);
		return -1;
	}
	for (unsigned i = nfrac; i < units[unit].digits; i++)
		frac *= 10;
	if (whole > UINT64_MAX / units[unit].ns)
		goto range;
	out->ns = whole * units[unit].ns + frac;
	out->grain = 1;
	for (unsigned i = nfrac; i < units[unit].digits; i++)
		out->grain *= 10;
	return 0;
range:
	str_seterr(err, errlen, "time '%s' is out of range", text);
	return -1;
}

int time_range_parse(const char *text, struct kt_time_range *out, char *err, size_t errlen)
{
	const char *dots = strstr(text, "..");
	char from[64];

	memset(out, 0, sizeof(*out));
	if (!dots) {
		out->has_from = true;
		return time_parse(text, &out->from, err, errlen);
	}
	if ((size_t)(dots - text) >= sizeof(from)) {
		str_seterr(err, errlen, "range '%.20s...' is too long", text);
		return -1;
	}
	memcpy(from, text, (size_t)(dots - text));
	from[dots - text] = '\0';
	out->has_from = from[0] != '\0';
	out->has_to = dots[2] != '\0';
	if (!out->has_from && !out->has_to) {
		str_seterr(err, errlen, "range '..' names no time: write +40.1..+40.3");
		return -1;
	}
	if ((out->has_from && time_parse(from, &out->from, err, errlen) < 0) ||
	    (out->has_to && time_parse(dots + 2, &out->to, err, errlen) < 0))
		return -1;
	if (out->has_from && out->has_to && out->from.relative == out->to.relative &&
	    out->to.ns < out->from.ns) {
		str_seterr(err, errlen, "range '%s' ends before it starts", text);
		return -1;
	}
	return 0;
}

uint64_t time_resolve(const struct kt_time *t, uint64_t capture_start)
{
	if (!t->relative)
		return t->ns;
	return t->ns > UINT64_MAX - capture_start ? UINT64_MAX : capture_start + t->ns;
}

void time_range_resolve(const struct kt_time_range *r, uint64_t capture_start, uint64_t *from,
			uint64_t *to)
{
	*from = r->has_from ? time_resolve(&r->from, capture_start) : 0;
	*to = UINT64_MAX;
	if (r->has_to) {
		*to = time_resolve(&r->to, capture_start);
		if (r->to.grain > 1 && r->to.grain <= 1000 && *to <= UINT64_MAX - r->to.grain)
			*to += r->to.grain - 1;
	}
}

bool time_range_contains(const struct kt_time_range *r, uint64_t capture_start, uint64_t ts)
{
	uint64_t from, to;

	time_range_resolve(r, capture_start, &from, &to);
	return ts >= from && ts <= to;
}

void time_format(const struct kt_time *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s%" PRIu64 ".%06" PRIu64, t->relative ? "+" : "",
		 t->ns / 1000000000, t->ns % 1000000000 / 1000);
}
