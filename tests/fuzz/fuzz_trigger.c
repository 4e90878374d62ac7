// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for event triggers (trigger_parse and trigger_parse_stop,
 * src/backend/tracefs/triggers.c), as --trigger, --stop-when and the picker's trigger prompt hand
 * them over. A refusal gives a one-line reason; an accepted trigger names its event (with
 * --trigger's SYS:EV), a command with no blank in it, a count of -1 or above 0, and reads
 * back the same from what trigger_format writes (what the picker shows and the kernel gets).
 */
#include "config.h"

#include "backend/tracefs/triggers.h"
#include "fuzz_parser.h"

/* t as trigger_format writes it parses, without the event, into the same trigger. */
static void check_round_trip(const struct kt_trigger *t)
{
	char buf[KT_TRIGGER_MAX * 2 + 64], err[256] = "";
	struct kt_trigger again = *t;

	trigger_format(t, buf, sizeof(buf));
	FUZZ_ASSERT(trigger_parse(buf, false, &again, err, sizeof(err)) == 0,
		    "'%s' as formatted is refused: %s", buf, err);
	FUZZ_ASSERT(!strcmp(again.cmd, t->cmd) && again.count == t->count &&
			    !strcmp(again.filter, t->filter),
		    "'%s' reads back as '%s' count %ld filter '%s'", buf, again.cmd, again.count,
		    again.filter);
}

static void check_accepted(const struct kt_trigger *t, bool with_event)
{
	FUZZ_ASSERT(t->cmd[0] && !strpbrk(t->cmd, " \t\n\v\f\r"), "command '%s'", t->cmd);
	FUZZ_ASSERT(t->count == -1 || t->count > 0, "count %ld", t->count);
	if (with_event)
		FUZZ_ASSERT(t->system[0] && t->event[0], "event '%s:%s'", t->system, t->event);
	check_round_trip(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_line(data, size), err[256] = "";
	struct kt_trigger t;

	err[0] = '\0';
	if (trigger_parse(text, true, &t, err, sizeof(err)) < 0)
		fuzz_check_reason(text, err);
	else
		check_accepted(&t, true);
	memset(&t, 0, sizeof(t));
	err[0] = '\0';
	if (trigger_parse(text, false, &t, err, sizeof(err)) < 0)
		fuzz_check_reason(text, err);
	else
		check_accepted(&t, false);
	err[0] = '\0';
	if (trigger_parse_stop(text, &t, err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
	} else {
		FUZZ_ASSERT(!strcmp(t.cmd, "traceoff") && t.count == 1, "--stop-when gave '%s:%ld'",
			    t.cmd, t.count);
		check_accepted(&t, true);
	}
	free(text);
	return 0;
}
