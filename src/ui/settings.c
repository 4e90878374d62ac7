// SPDX-License-Identifier: GPL-2.0-or-later
/* Themes, ktoprc and profiles as the explorer uses them (see settings.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "source/source.h"
#include "ktoprc.h"
#include "app/options.h"
#include "ui/crt.h"
#include "ui/layout.h"
#include "ui/settings.h"
#include "ui/theme.h"

static void apply_layout(struct kt_ui_settings *s, const struct kt_config *c)
{
	if (!c)
		return;
	if (c->orient != KT_UNSET)
		s->orient = c->orient == KT_CFG_SIDE    ? KT_ORIENT_SIDE :
			    c->orient == KT_CFG_STACK ? KT_ORIENT_STACK :
							KT_ORIENT_AUTO;
	if (c->zoom != KT_UNSET)
		s->zoom = c->zoom;
	if (c->split != KT_UNSET)
		s->split = c->split;
	if (c->picker != KT_UNSET)
		s->picker = c->picker;
	if (c->counters != KT_UNSET)
		s->counters = c->counters;
	if (c->mouse != KT_UNSET)
		s->mouse = c->mouse;
	if (c->theme[0])
		snprintf(s->theme, sizeof(s->theme), "%s", c->theme);
	if (c->ov_hide[0])
		snprintf(s->ov_hide, sizeof(s->ov_hide), "%s", c->ov_hide);
}

void settings_start(const struct kt_options *o, struct kt_ui_settings *s, char *msg,
		    size_t msglen)
{
	struct kt_theme t;
	char err[512];

	memset(s, 0, sizeof(*s));
	msg[0] = '\0';
	snprintf(s->theme, sizeof(s->theme), "default");
	s->orient = KT_ORIENT_AUTO;
	s->mouse = 1;
	s->delay_ms = o->delay_ms;
	if (o->config_bad)
		snprintf(msg, msglen, "%s (defaults in use; the file is left as it is)",
			 o->config_error);
	else
		apply_layout(s, o->config);
	apply_layout(s, o->profile_config);
	if (o->theme)
		snprintf(s->theme, sizeof(s->theme), "%s", o->theme);
	if (o->pmu)
		s->counters = 1;
	if (o->no_mouse)
		s->mouse = 0;
	if (theme_load(&t, s->theme, err, sizeof(err)) < 0) {
		snprintf(msg, msglen, "%s; the default theme is in use", err);
		snprintf(s->theme, sizeof(s->theme), "default");
	}
	crt_set_theme(&t);
}

void settings_next_theme(struct kt_ui_settings *s, char *msg, size_t msglen, bool *error)
{
	char names[64][KT_THEME_NAME_MAX], err[512];
	struct kt_theme t;
	int n = theme_list(names, 64), i, cur = -1, tries;

	*error = false;
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s->theme))
			cur = i;
	/* a theme that does not parse is skipped, with its reason */
	for (tries = 0; tries < n; tries++) {
		cur = (cur + 1) % n;
		if (theme_load(&t, names[cur], err, sizeof(err)) == 0) {
			snprintf(s->theme, sizeof(s->theme), "%s", names[cur]);
			crt_set_theme(&t);
			snprintf(msg, msglen, "theme %s (%d of %d)%s", names[cur], cur + 1, n,
				 crt_colors() ? "" : "; this terminal shows no colours");
			return;
		}
		snprintf(msg, msglen, "%s", err);
		*error = true;
	}
}

static void fill(struct kt_config *c, const struct kt_ui_settings *s)
{
	snprintf(c->theme, sizeof(c->theme), "%s", s->theme);
	c->delay_ms = s->delay_ms;
	c->orient = s->orient == KT_ORIENT_SIDE	 ? KT_CFG_SIDE :
		    s->orient == KT_ORIENT_STACK ? KT_CFG_STACK :
						   KT_CFG_AUTO;
	c->zoom = s->zoom;
	c->split = s->split;
	c->picker = s->picker;
	c->counters = s->counters;
	c->mouse = s->mouse;
	snprintf(c->ov_hide, sizeof(c->ov_hide), "%s", s->ov_hide);
}

void settings_save(const struct kt_options *o, const struct kt_ui_settings *now, char *msg,
		   size_t msglen, bool *error)
{
	struct kt_config c;
	char err[512];

	*error = true;
	if (!o->config_path[0]) {
		snprintf(msg, msglen, "nowhere to save: neither XDG_CONFIG_HOME nor HOME is set");
		return;
	}
	if (o->config_bad) {
		snprintf(msg, msglen, "not saved: %s is malformed; fix or remove it first",
			 o->config_path);
		return;
	}
	config_init(&c);
	if (o->config)
		memcpy(c.binds, o->config->binds, sizeof(c.binds)), c.nbinds = o->config->nbinds;
	fill(&c, now);
	if (config_save(&c, o->config_path, false, err, sizeof(err)) < 0) {
		snprintf(msg, msglen, "%s", err);
		return;
	}
	if (o->config)
		*o->config = c;
	*error = false;
	snprintf(msg, msglen, "saved %s", o->config_path);
}

void settings_exit(const struct kt_options *o, const struct kt_ui_settings *start,
		   const struct kt_ui_settings *now)
{
	struct kt_config c;
	char err[512];
	bool changed = false;

	if (!o->config || o->config_bad || !o->config_path[0])
		return;
	c = *o->config;
#define CHANGED(f) (start->f != now->f)
	if (strcmp(start->theme, now->theme)) {
		snprintf(c.theme, sizeof(c.theme), "%s", now->theme);
		changed = true;
	}
	if (CHANGED(orient) || CHANGED(zoom) || CHANGED(picker) || CHANGED(counters) ||
	    CHANGED(split)) {
		struct kt_config l;

		config_init(&l);
		fill(&l, now);
		c.orient = l.orient;
		c.zoom = l.zoom;
		c.split = l.split;
		c.picker = l.picker;
		c.counters = l.counters;
		changed = true;
	}
#undef CHANGED
	if (strcmp(start->ov_hide, now->ov_hide)) {
		snprintf(c.ov_hide, sizeof(c.ov_hide), "%s", now->ov_hide);
		changed = true;
	}
	if (!changed)
		return;
	/* stderr is the terminal again here */
	if (config_save(&c, o->config_path, false, err, sizeof(err)) < 0)
		fprintf(stderr, "ktop: %s\n", err);
}


static void add_event(const char *system, const char *event, void *ctx)
{
	struct kt_config *c = ctx;
	char spec[256];

	if (c->nevents >= KT_CONFIG_MAX_EVENTS)
		return;
	snprintf(spec, sizeof(spec), "%s:%s", system, event);
	c->events[c->nevents++] = strdup(spec);
}

/* A recording (KT_CAP_HIDE) enables nothing: the events it shows (recorded, not hidden) are
 * what a profile made from it turns on live. Returns how many. */
static int each_shown_type(struct kt_app *app, struct kt_config *c)
{
	struct tep_event **evs = app->decoder ?
		tep_list_events(decoder_tep(app->decoder), TEP_EVENT_SORT_SYSTEM) : NULL;
	int n = 0;

	for (; evs && *evs; evs++) {
		if (!source_type_count(app->source, (*evs)->id) ||
		    source_type_hidden(app->source, (*evs)->id) ||
		    !strcmp((*evs)->system, "ftrace")) /* the tracer's records, not events */
			continue;
		add_event((*evs)->system, (*evs)->name, c);
		n++;
	}
	return n;
}

void settings_save_profile(struct kt_app *app, const char *name,
			   const struct kt_ui_settings *now, char *msg, size_t msglen,
			   bool *error)
{
	struct kt_config c;
	char rel[128], path[4096], err[512];
	int n;

	*error = true;
	if (!*name || strchr(name, '/') || name[0] == '.' || strlen(name) > 64) {
		snprintf(msg, msglen, "a profile name is a word such as mylatency");
		return;
	}
	snprintf(rel, sizeof(rel), "profiles/%s", name);
	if (config_path(path, sizeof(path), rel) < 0) {
		snprintf(msg, msglen, "nowhere to save: neither XDG_CONFIG_HOME nor HOME is set");
		return;
	}
	config_init(&c);
	n = app_can(app, KT_CAP_HIDE) ? each_shown_type(app, &c) :
					 source_for_each_enabled(app->source, add_event, &c);
	if (app->opts->filter)
		c.filter = strdup(app->opts->filter);
	fill(&c, now);
	c.theme[0] = '\0';
	c.delay_ms = 0;
	c.mouse = KT_UNSET;
	if (config_save(&c, path, true, err, sizeof(err)) < 0) {
		snprintf(msg, msglen, "%s", err);
	} else {
		snprintf(msg, msglen, "saved profile %s (%d events%s): ktop -P %s", path,
			 c.nevents, n > c.nevents ? ", more were on" : "", name);
		*error = false;
	}
	config_free(&c);
}
