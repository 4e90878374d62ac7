/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's description of its PMUs under /sys/bus/event_source/devices, as perf reads
 * it: <pmu>/type (perf_event_attr.type), <pmu>/format/<term> ("config:0-7,32-35",
 * "config1:0-15", "config:21") saying where a term's bits go, and <pmu>/events/<alias>
 * ("event=0x2e,umask=0x41", with optional <alias>.scale and <alias>.unit). Every function
 * takes the devices directory as its root, so the tests point it at fixture trees. No
 * perf_event_open here: only encoding. */
#ifndef KTOP_PMU_SYSFS_H
#define KTOP_PMU_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_PMU_SYSFS_ROOT "/sys/bus/event_source/devices"
#define KT_PMU_NAME_MAX 64

/* An event's encoding: what perf_event_attr needs, plus how to show the value. */
struct kt_pmu_attr {
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv;
	char pmu[KT_PMU_NAME_MAX]; /* sysfs PMU name ("cpu", "msr"), "" for generic events */
	double scale;		   /* <alias>.scale, 1 when none */
	char unit[16];		   /* <alias>.unit, "" when none */
};

/* Sets a to a blank encoding (scale 1). */
void pmu_attr_init(struct kt_pmu_attr *a);

/* Reads <root>/<pmu>/type. Returns 0, or -1 with err filled. */
int pmu_sysfs_type(const char *root, const char *pmu, uint32_t *type, char *err,
		   size_t errlen);

/* True when <root>/<pmu> is a PMU directory (it has a type file). */
bool pmu_sysfs_exists(const char *root, const char *pmu);

/* Puts value into the bits a format string names ("config:0-7,32-35": the low 8 bits of
 * value go to config bits 0-7, the next 4 to bits 32-35; "config1:3" is one bit). The bits
 * of the field are cleared first, so a later term overrides an earlier one. Returns 0, or
 * -1 with err filled: malformed format, unknown field, or a value wider than the field. */
int pmu_sysfs_format_apply(const char *format, uint64_t value, struct kt_pmu_attr *a,
			   char *err, size_t errlen);

/* Encodes a perf term list for one PMU, as between the slashes of "cpu/.../": terms are
 * comma-separated "name=value" (value decimal or 0x hex), a bare format term (value 1), a
 * bare event alias of that PMU (its own terms, then the rest override them), or
 * config/config1/config2=value. Sets a->type and a->pmu. Returns 0, or -1 with a one-line
 * reason in err ("unknown term 'foo' for PMU cpu (see .../cpu/format)"). */
int pmu_sysfs_encode(const char *root, const char *pmu, const char *terms,
		     struct kt_pmu_attr *a, char *err, size_t errlen);

/* Finds the PMU that has events/<alias>: "cpu" first (perf's core PMU), then the others in
 * name order. Returns 0 with the PMU's name in pmu, or -1 when none has it. */
int pmu_sysfs_find_alias(const char *root, const char *alias, char *pmu, size_t len);

#endif
