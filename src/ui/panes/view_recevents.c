// SPDX-License-Identifier: GPL-2.0-or-later
/* The events of a recording (ktop -i), in the event picker's place: every event the file
 * has a format for, with how many records of it the file holds, most first (the empty ones
 * last); typed letters narrow the list to the names holding them, as live. Space hides or
 * shows an event in the stream, Enter sets its filter (libtraceevent's syntax, the
 * kernel's), as enabling events and setting filters choose what live ktop records. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "source/source.h"
#include "ui/funcbar.h"
#include "ui/header.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define PROMPT_FILTER 1
#define COUNT_W 8

struct recev {
	int id;
	char name[128];
	uint64_t count;
	bool match; /* its name holds the typed text */
};

struct recevents {
	struct recev *evs;
	int n;
	int nmatch;	/* the first nmatch of evs hold the typed text: the list */
	char text[64];	/* typed: narrows the list */
	int sel, top;
	int filter_id; /* the event the filter prompt is for */
	char err[256]; /* why the filter typed was refused: on the pane's last row */
};

static struct recevents *RE(struct kt_view *v)
{
	return v->data;
}

static int by_count(const void *a, const void *b)
{
	const struct recev *x = a, *y = b;

	if (x->match != y->match)
		return x->match ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The counts grow while the file is indexed: sorted again on each tick, and when the typed
 * text changes; the selection stays on its event while that is listed. */
static void recount(struct kt_view *v)
{
	struct recevents *re = RE(v);
	int i, sel_id = re->nmatch ? re->evs[re->sel].id : -1;

	re->nmatch = 0;
	for (i = 0; i < re->n; i++) {
		re->evs[i].count = source_type_count(v->app->source, re->evs[i].id);
		re->evs[i].match = strcasestr(re->evs[i].name, re->text) != NULL;
		re->nmatch += re->evs[i].match;
	}
	qsort(re->evs, (size_t)re->n, sizeof(*re->evs), by_count);
	re->sel = 0;
	for (i = 0; i < re->nmatch; i++)
		if (re->evs[i].id == sel_id)
			re->sel = i;
}

/* Typed text: key added (0: the last character taken off, -1: all of it). */
static void type_key(struct kt_view *v, int key)
{
	struct recevents *re = RE(v);
	size_t len = strlen(re->text);

	if (key < 0)
		re->text[0] = '\0';
	else if (!key && len)
		re->text[len - 1] = '\0';
	else if (key && len + 1 < sizeof(re->text))
		snprintf(re->text + len, sizeof(re->text) - len, "%c", key);
	recount(v);
	re->sel = re->top = 0; /* the first listed, the events with records first */
}

static void recevents_init(struct kt_view *v)
{
	struct recevents *re = xcalloc(1, sizeof(*re));
	struct tep_event **evs = NULL;
	int i;

	v->data = re;
	/* the decoder holds the source's formats (a recording's: all of the file's) */
	if (v->app->decoder)
		evs = tep_list_events(decoder_tep(v->app->decoder), TEP_EVENT_SORT_SYSTEM);
	for (i = 0; evs && evs[i]; i++)
		;
	re->evs = xcalloc((size_t)i + 1, sizeof(*re->evs));
	for (i = 0; evs && evs[i]; i++) {
		re->evs[i].id = evs[i]->id;
		snprintf(re->evs[i].name, sizeof(re->evs[i].name), "%s:%s", evs[i]->system,
			 evs[i]->name);
	}
	re->n = i;
	recount(v);
}

static void recevents_free(struct kt_view *v)
{
	free(RE(v)->evs);
	free(v->data);
	v->data = NULL;
}

static void recevents_resize(struct kt_view *v)
{
}

static void recevents_draw(struct kt_view *v)
{
	struct recevents *re = RE(v);
	char line[512], cnt[32], right[64];
	const char *filter;
	int y, i, rows = v->h - 1, shown = 0;
	bool hidden;

	if (re->sel < re->top)
		re->top = re->sel;
	if (rows > 0 && re->sel >= re->top + rows)
		re->top = re->sel - rows + 1;
	for (i = 0; i < re->n; i++)
		shown += re->evs[i].count > 0;
	snprintf(right, sizeof(right), "%d of %d in the file", shown, re->n);
	snprintf(line, sizeof(line), "Recorded events%s%s", re->text[0] ? ": " : "", re->text);
	view_draw_title(v, line, right);
	for (y = 1; y < v->h; y++) {
		i = re->top + y - 1;
		wattrset(v->win, crt_attr(i == re->sel && v->focused ? CRT_CURSOR : CRT_NORMAL));
		crt_fill(v->win, y, 0, v->w);
		if (i >= re->nmatch)
			continue;
		hidden = source_type_hidden(v->app->source, re->evs[i].id);
		filter = source_type_filter(v->app->source, re->evs[i].id);
		header_fmt_count((double)re->evs[i].count, cnt, sizeof(cnt));
		snprintf(line, sizeof(line), "%*s [%c] %s%s%s", COUNT_W, cnt, hidden ? ' ' : 'x',
			 re->evs[i].name, filter ? "  if " : "", filter ? filter : "");
		if (!re->evs[i].count && !(i == re->sel && v->focused))
			wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 0, line, v->w);
	}
	if (re->err[0] && v->h > 2) {
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put_pad(v->win, v->h - 1, 0, re->err, v->w);
	}
	wattrset(v->win, A_NORMAL);
}

/* The name of the event the filter prompt is for (the list is sorted again each tick). */
static const char *filter_name(const struct recevents *re)
{
	int i;

	for (i = 0; i < re->n; i++)
		if (re->evs[i].id == re->filter_id)
			return re->evs[i].name;
	return "?";
}

/* The filter prompt for the event filter_id, holding text. */
static void open_filter(struct kt_view *v, const char *text)
{
	char label[200];

	snprintf(label, sizeof(label), "filter %s: ", filter_name(RE(v)));
	ui_prompt_open(v->ui, v, PROMPT_FILTER, label, text);
}

/* Tab in the filter prompt: the event's field names, the common ones too. */
static void complete_field(struct kt_view *v)
{
	struct recevents *re = RE(v);
	struct tep_event *e = v->app->decoder ?
		tep_find_event(decoder_tep(v->app->decoder), re->filter_id) : NULL;
	struct tep_format_field **f[2] = { NULL, NULL };
	const char **names;
	size_t n = 0, k, i;

	if (!e)
		return;
	f[0] = tep_event_common_fields(e);
	f[1] = tep_event_fields(e);
	for (k = 0; k < 2; k++)
		for (i = 0; f[k] && f[k][i]; i++)
			n++;
	names = xcalloc(n + 1, sizeof(*names));
	for (n = 0, k = 0; k < 2; k++)
		for (i = 0; f[k] && f[k][i]; i++)
			names[n++] = f[k][i]->name;
	if (!ui_prompt_complete(v->ui, names, n, NULL, NULL, 0))
		ui_message(v->ui, true, "no field of %s starts so", filter_name(re));
	free(names);
	free(f[0]);
	free(f[1]);
}

static int recevents_key(struct kt_view *v, int key)
{
	struct recevents *re = RE(v);
	int page = v->h > 2 ? v->h - 2 : 1;
	const char *f;

	switch (key) {
	case KEY_UP:
		re->sel--;
		break;
	case KEY_DOWN:
		re->sel++;
		break;
	case KEY_PPAGE:
		re->sel -= page;
		break;
	case KEY_NPAGE:
		re->sel += page;
		break;
	case KEY_HOME:
		re->sel = 0;
		break;
	case KEY_END:
		re->sel = re->nmatch - 1;
		break;
	case ' ':
		if (!re->nmatch)
			break;
		source_type_set_hidden(v->app->source, re->evs[re->sel].id,
				       !source_type_hidden(v->app->source, re->evs[re->sel].id));
		ui_broadcast(v->ui, KT_EV_CLEAR);
		ui_message(v->ui, false, "%s %s", re->evs[re->sel].name,
			   source_type_hidden(v->app->source, re->evs[re->sel].id) ?
				   "hidden (Space shows it again)" : "shown");
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!re->nmatch)
			break;
		re->filter_id = re->evs[re->sel].id;
		f = source_type_filter(v->app->source, re->filter_id);
		open_filter(v, f ? f : "");
		break;
	case 27: /* the typed text first, as the live picker */
		if (!re->text[0])
			return KT_KEY_CLOSE;
		type_key(v, -1);
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		type_key(v, 0);
		break;
	case 'U' & 0x1f:
		type_key(v, -1);
		break;
	case 'T' & 0x1f: /* the live picker's trigger and stack keys: said, not silent */
	case 'R' & 0x1f:
		ui_message(v->ui, false, "%s", app_refusal(v->app, KT_CAP_TRIGGERS));
		break;
	case 'K' & 0x1f:
		ui_message(v->ui, false, "%s", app_refusal(v->app, KT_CAP_STACKS));
		break;
	default:
		if (key <= ' ' || key >= 0x7f)
			return KT_KEY_IGNORED;
		type_key(v, key);
		break;
	}
	if (re->sel >= re->nmatch)
		re->sel = re->nmatch - 1;
	if (re->sel < 0)
		re->sel = 0;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void recevents_prompt(struct kt_view *v, int id, const char *text,
			     enum kt_prompt_event ev)
{
	struct recevents *re = RE(v);
	char err[256] = "";

	if (id != PROMPT_FILTER)
		return;
	if (ev == KT_PROMPT_COMPLETE)
		complete_field(v);
	if (ev != KT_PROMPT_ACCEPT && ev != KT_PROMPT_CANCEL)
		return;
	v->dirty = true;
	re->err[0] = '\0';
	if (ev == KT_PROMPT_CANCEL)
		return;
	if (source_type_set_filter(v->app->source, re->filter_id, text, err, sizeof(err)) < 0) {
		/* the text stays to be fixed, the reason under the list */
		snprintf(re->err, sizeof(re->err), "filter rejected: %s", err[0] ? err :
			 "cannot parse it");
		open_filter(v, text);
		return;
	}
	ui_broadcast(v->ui, KT_EV_CLEAR);
	ui_message(v->ui, false, *text ? "filter set: the stream shows matching records only" :
					 "filter cleared");
	v->dirty = true;
}

static void recevents_tick(struct kt_view *v)
{
	recount(v);
	v->dirty = true;
}

/* the live picker's bar, Space's word apart */
static const struct funcbar_item recevents_items[] = {
	{ "F1", "Help" }, { "Spc", "Show/hide" }, { "Enter", "Filter" }, { "Esc", "Back" },
	{ "F2", "Close" }, { "Tab", "Focus" },	   { "F9", "Zoom" },	   { "F10", "Quit" },
};

static int recevents_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = recevents_items;
	return (int)(sizeof(recevents_items) / sizeof(recevents_items[0]));
}

static const struct kt_keyhelp recevents_keys[] = {
	{ "letters", "narrow the list, as live" },
	{ "Backspace ^U", "edit / clear the typed text" },
	{ "Space", "show / hide its rows" },
	{ "Enter", "its filter (prompt)" },
	{ "Esc", "clear the typed text / close the pane" },
	{ "^T ^R ^K", "triggers, stacks: live only (says why)" },
	{ NULL, NULL },
};

static bool recevents_typing(struct kt_view *v)
{
	return true;
}

const struct kt_view_ops view_recevents_ops = {
	.name = "recorded events",
	.title = "Recording's events (e)",
	.keys = recevents_keys,
	.typing = recevents_typing,
	.pref_width = 56,
	.init = recevents_init,
	.free = recevents_free,
	.resize = recevents_resize,
	.draw = recevents_draw,
	.key = recevents_key,
	.tick = recevents_tick,
	.prompt = recevents_prompt,
	.funcbar = recevents_funcbar,
};
