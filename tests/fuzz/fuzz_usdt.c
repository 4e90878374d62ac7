// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for USDT definitions and argument specs (src/backend/tracefs/usdt.c), as --usdt,
 * the probe editor and the notes of a binary hand them over. A refusal gives a one-line
 * reason; an argument spec that is accepted becomes a fetcharg that the uprobe parser
 * (probes.c) accepts too, as a string and as its own type.
 */
#include "config.h"

#include "backend/tracefs/probes.h"
#include "backend/tracefs/usdt.h"
#include "fuzz_parser.h"

static void check_fetcharg(const char *text, const char *type)
{
	char out[512], err[512] = "", def[1200], perr[512] = "";
	int pos = -1;

	if (usdt_fetcharg(text, 1, type, 0, NULL, NULL, out, sizeof(out), err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
		return;
	}
	snprintf(def, sizeof(def), "/bin/true:0x10(0x20) a=%s", out);
	FUZZ_ASSERT(probe_parse(KT_PROBE_UPROBE, def, NULL, perr, sizeof(perr), &pos) == 0,
		    "'%s' made '%s', which probes.c refuses: %s (column %d)", text, out, perr,
		    pos + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_line(data, size), err[512] = "";
	struct kt_usdt_def d;

	if (usdt_parse(text, &d, err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
	} else {
		FUZZ_ASSERT(d.path[0] && d.provider[0] && d.probe[0], "'%s': an empty part", text);
		FUZZ_ASSERT(!strchr(d.probe, ' ') && !strchr(d.provider, ':'), "'%s' split wrong",
			    text);
		usdt_def_free(&d);
	}
	if (!strchr(text, ' ')) {
		check_fetcharg(text, NULL);
		check_fetcharg(text, "string");
	}
	free(text);
	return 0;
}
