// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for probe definitions (probe_parse in src/backend/tracefs/probes.c), as the probe
 * editor and --kprobe/--uprobe hand them over, parsed as each of the four kinds. A refusal
 * gives a one-line reason and a caret inside the text. An accepted definition, written back
 * in its canonical form, parses to the same definition.
 */
#include "config.h"

#include <inttypes.h>

#include "backend/tracefs/probes.h"
#include "fuzz_parser.h"

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* [NAME=][MODULE:|PATH:]FUNC[+0xOFF] or PATH:0xOFF[(0xREF)], [ARG...] [pid=PID], from def. */
static char *canonical(const struct kt_probe_def *d)
{
	char *s = NULL, off[64] = "", pid[32] = "";
	int r;

	if (d->offset || !d->func)
		snprintf(off, sizeof(off), "%s0x%" PRIx64, d->func ? "+" : "", d->offset);
	if (d->ref_ctr_offset)
		snprintf(off + strlen(off), sizeof(off) - strlen(off), "(0x%" PRIx64 ")",
			 d->ref_ctr_offset);
	if (d->pid)
		snprintf(pid, sizeof(pid), " pid=%d", (int)d->pid);
	r = asprintf(&s, "%s%s%s%s%s%s%s%s%s%s%s", d->name ? d->name : "", d->name ? "=" : "",
		     d->module ? d->module : "", d->module ? ":" : "", d->path ? d->path : "",
		     d->path ? ":" : "", d->func ? d->func : "", off, *d->args ? " " : "",
		     d->args, pid);
	FUZZ_ASSERT(r >= 0 && s, "out of memory");
	return s;
}

static void check(enum kt_probe_kind kind, const char *text)
{
	struct kt_probe_def def, again;
	char err[512] = "", *back;
	int pos = -7;

	if (probe_parse(kind, text, &def, err, sizeof(err), &pos) < 0) {
		fuzz_check_reason(text, err);
		fuzz_check_pos(text, pos);
		return;
	}
	FUZZ_ASSERT(def.kind == kind && def.args, "kind %d, args %p", (int)def.kind,
		    (void *)def.args);
	FUZZ_ASSERT(def.func || probe_kind_is_user(kind), "a kprobe without a function");
	FUZZ_ASSERT(!def.name || strlen(def.name) < KT_PROBE_NAME_MAX, "name '%s'", def.name);
	FUZZ_ASSERT(def.pid >= 0, "pid %d", (int)def.pid);
	back = canonical(&def);
	FUZZ_ASSERT(probe_parse(kind, back, &again, err, sizeof(err), &pos) == 0,
		    "'%s' written back as '%s' is refused: %s", text, back, err);
	FUZZ_ASSERT(same(def.name, again.name) && same(def.module, again.module) &&
			    same(def.path, again.path) && same(def.func, again.func) &&
			    def.offset == again.offset && same(def.args, again.args) &&
			    def.ref_ctr_offset == again.ref_ctr_offset &&
			    def.pid == again.pid,
		    "'%s' written back as '%s' parses differently", text, back);
	probe_def_free(&again);
	probe_def_free(&def);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_line(data, size);

	check(KT_PROBE_KPROBE, text);
	check(KT_PROBE_KRETPROBE, text);
	check(KT_PROBE_UPROBE, text);
	check(KT_PROBE_URETPROBE, text);
	free(text);
	return 0;
}
