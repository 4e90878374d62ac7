// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe editor (P): ktop's dynamic probes (group ktop_<pid>) with their on/off
 * state; k, K, u, U start a kprobe, kretprobe, uprobe, uretprobe. A kernel probe is one
 * definition on the prompt, "[NAME=]FUNC [ARG...]", Tab completing the function from the
 * kernel's names and the fetchargs' variables and types; a user probe asks for the binary
 * first (Tab completes paths), then "FUNC [ARG...]" with Tab over the binary's ELF functions.
 * Every key re-parses the definition (probe_parse) and the pane shows the reason with a caret
 * under the offending byte; the kernel's own rejection (error_log, with its caret) replaces
 * it after Enter, and the prompt comes back with the text to fix. A created probe is enabled,
 * and it is in the event picker like any tracepoint; a turns it off and on, Enter edits
 * its filter in the picker, d deletes it. Probes show the kernel's hit counts, kernel probes
 * their misses too (kprobe_profile, uprobe_profile); when the selected one misses, the bottom
 * line says why and what to do.
 * s starts a USDT probe (usdt.h): a binary, library or pid first, then
 * "PROVIDER:PROBE [argN:TYPE...]" (a pid's: "PATH:PROVIDER:PROBE ...") with Tab over its
 * notes; it becomes one uprobe per site.
 * Over agents (a remote source) the binary and the definition go whole to the agent, which
 * checks them and reads a USDT probe's notes on its machine; the counts are the agents',
 * asked for on each tick; with several hosts the title names each host's group and the
 * bottom line the selected probe's hits per host. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "backend/symbols/elfsyms.h"
#include "backend/symbols/ksyms.h"
#include "backend/tracefs/probes.h"
#include "backend/tracefs/owner.h"
#include "backend/tracefs/session.h" /* KT_GROUP_PREFIX */
#include "source/source.h"
#include "backend/symbols/symlist.h"
#include "backend/tracefs/usdt.h"
#include "util/log.h"
#include "ui/complete.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"
#include "util/clock.h"

#define PROMPT_BINARY 1
#define PROMPT_DEF 2
#define PATH_CANDS_MAX 512

struct ppane {
	int sel;
	enum kt_probe_kind kind; /* being edited */
	char path[4096];	 /* uprobe: the resolved binary */
	struct kt_symlist *ksyms, *usyms;
	char text[512];		 /* the definition as typed (uprobe: after "PATH:") */
	char error[1024];	 /* live check or the kernel's answer */
	int errpos;		 /* live check: caret offset into text, -1: none */
	char hint[256];		 /* Tab's candidates */
	bool editing;
	bool usdt;		 /* a USDT probe is being edited (kind is KT_PROBE_UPROBE) */
	pid_t usdt_pid;		 /* its process, 0 when a file was given */
	struct kt_symlist *notes; /* its probes: "PROVIDER:PROBE" (a pid's: with "PATH:") */
};

/* What the arguments of a USDT definition complete from. */
static const char *const usdt_arg_words[] = {
	"arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7", "arg8", "arg9", "arg10",
	"arg11", "arg12", NULL,
};

static struct ppane *PP(struct kt_view *v)
{
	return v->data;
}

static void probes_init(struct kt_view *v)
{
	struct ppane *pp = xcalloc(1, sizeof(*pp));

	pp->errpos = -1;
	v->data = pp;
}

static void probes_free_view(struct kt_view *v)
{
	struct ppane *pp = PP(v);

	symlist_free(pp->ksyms);
	symlist_free(pp->usyms);
	symlist_free(pp->notes);
	free(pp);
	v->data = NULL;
}

static void probes_resize(struct kt_view *v)
{
	(void)v;
}

static size_t nprobes(struct kt_view *v)
{
	return source_probe_count(v->app->source);
}

/* --- drawing --- */

static int draw_wrapped(struct kt_view *v, int y, int ymax, const char *text)
{
	int room = v->w - 2, used = 0;

	if (room < 4)
		return 0;
	while (*text && y + used < ymax) {
		size_t l = strcspn(text, "\n"), cut = l <= (size_t)room ? l : (size_t)room;
		char buf[1100];

		/* the kernel's command and caret lines stay verbatim, cut rather than wrapped */
		if (*text == ' ')
			cut = l;
		snprintf(buf, sizeof(buf), "%.*s", (int)cut, text);
		crt_put(v->win, y + used++, 1, buf, room);
		text += cut;
		if (*text == '\n')
			text++;
	}
	return used;
}

static void draw_editor(struct kt_view *v, struct ppane *pp, int y)
{
	char buf[1100];
	int ymax = v->h, x;

	wattrset(v->win, crt_attr(CRT_BORDER));
	crt_fill(v->win, y, 0, v->w);
	if (pp->usdt && pp->notes)
		snprintf(buf, sizeof(buf), "new USDT probe (%zu in %s): %.900s", pp->notes->count,
			 pp->usdt_pid ? "the process" : "the file", pp->path[0] ? pp->path :
										   "its files");
	else if (pp->usdt)
		snprintf(buf, sizeof(buf), "new USDT probe");
	else if (probe_kind_is_user(pp->kind) && pp->usyms && pp->path[0])
		snprintf(buf, sizeof(buf), "new %s (%zu functions): %.900s",
			 probe_kind_name(pp->kind), pp->usyms->count, pp->path);
	else
		snprintf(buf, sizeof(buf), "new %s", probe_kind_name(pp->kind));
	crt_put(v->win, y++, 1, buf, v->w - 2);
	if (y >= ymax)
		return;
	wattrset(v->win, crt_attr(CRT_NORMAL));
	snprintf(buf, sizeof(buf), "  Def: %s", pp->text);
	crt_put(v->win, y++, 1, buf, v->w - 2);
	if (pp->error[0] && y < ymax) {
		wattrset(v->win, crt_attr(CRT_ERROR));
		if (pp->errpos >= 0) {
			x = 8 + pp->errpos;
			if (x > v->w - 3)
				x = v->w - 3;
			snprintf(buf, sizeof(buf), "^ %s", pp->error);
			crt_put(v->win, y++, x, buf, v->w - x - 1);
			/* a long reason continues on the next row */
			if ((int)strlen(buf) > v->w - x - 1 && y < ymax)
				y += draw_wrapped(v, y, ymax, buf + (v->w - x - 1));
		} else {
			y += draw_wrapped(v, y, ymax, pp->error);
		}
	} else if (y < ymax) {
		wattrset(v->win, crt_attr(CRT_ENABLED));
		crt_put(v->win, y++, 3, pp->editing && pp->text[0] ? "ok" : "", v->w - 4);
	}
	if (pp->hint[0] && y < ymax) {
		wattrset(v->win, crt_attr(CRT_DIM));
		snprintf(buf, sizeof(buf), "Tab: %s", pp->hint);
		crt_put(v->win, y, 1, buf, v->w - 2);
	}
	wattrset(v->win, A_NORMAL);
}

/* Several hosts: each one's probe group, or how many they are when that does not fit. */
static void hosts_title(struct kt_view *v, const struct kt_source_desc *d, char *title,
			size_t len)
{
	size_t used = (size_t)snprintf(title, len, "Probes");

	for (unsigned k = 0; k < d->n_hosts && used < len; k++) {
		if (!d->hosts[k].group[0]) {
			used = len;
			break;
		}
		used += (size_t)snprintf(title + used, len - used, " %s %s", d->hosts[k].label,
					 d->hosts[k].group);
	}
	if (used >= len || (int)used > v->w - 14)
		snprintf(title, len, "Probes on %u hosts", d->n_hosts);
}

/* Several hosts: the i-th probe's counts on each ("hits via1 23, via2 23"). false with one,
 * or before any host has said. */
static bool hosts_counts(struct kt_view *v, size_t i, char *buf, size_t len)
{
	const struct kt_probe *p = source_probe_get(v->app->source, i);
	struct kt_source_desc d;
	struct kt_probe_health h;
	size_t used;
	bool any = false;

	if (!p)
		return false;
	source_describe(v->app->source, &d);
	if (d.n_hosts < 2)
		return false;
	used = (size_t)snprintf(buf, len, "%s", probe_kind_is_user(p->kind) ? "hits" :
					     "hits/misses");
	for (unsigned k = 0; k < d.n_hosts && used < len; k++) {
		bool known = source_probe_host_health(v->app->source, i, k, &h) == 0;

		any |= known;
		if (!known)
			used += (size_t)snprintf(buf + used, len - used, "%s %s ?", k ? "," : "",
						 d.hosts[k].label);
		else if (probe_kind_is_user(p->kind))
			used += (size_t)snprintf(buf + used, len - used, "%s %s %llu", k ? "," : "",
						 d.hosts[k].label, (unsigned long long)h.hits);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s %s %llu/%llu",
						 k ? "," : "", d.hosts[k].label,
						 (unsigned long long)h.hits,
						 (unsigned long long)h.misses);
	}
	return any;
}

static void probes_draw(struct kt_view *v)
{
	struct ppane *pp = PP(v);
	attr_t cursor = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	size_t n = nprobes(v), i;
	char title[200], right[48], buf[512], group[64];
	const struct kt_probe *miss = NULL;
	struct kt_source_desc d;
	int y = 2, list_h;

	source_describe(v->app->source, &d);
	if (d.n_hosts > 1) {
		hosts_title(v, &d, title, sizeof(title));
	} else {
		source_probe_group(v->app->source, group, sizeof(group));
		snprintf(title, sizeof(title), "Probes %s", group);
	}
	snprintf(right, sizeof(right), "%zu probe%s", n, n == 1 ? "" : "s");
	view_draw_title(v, title, right);
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, 1, 1, "new: i kprobe K kret u uprobe U uret s USDT", v->w - 2);
	wattrset(v->win, A_NORMAL);
	list_h = v->h - 2 - (pp->editing || pp->error[0] ? 6 : 1);
	if (list_h < 1)
		list_h = 1;
	if (!n) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 1, "no probes yet", v->w - 2);
	}
	if (pp->sel >= (int)n)
		pp->sel = n ? (int)n - 1 : 0;
	for (i = 0; i < n && (int)i < list_h; i++) {
		size_t k = n > (size_t)list_h && pp->sel >= list_h ? i + pp->sel - list_h + 1 : i;
		const struct kt_probe *p = source_probe_get(v->app->source, k);
		bool on = source_is_enabled(v->app->source, p->system, p->event);
		struct kt_probe_health h;
		char health[64] = "";

		/* the kernel's hit and miss counts (kprobe_profile); uprobes count no misses */
		if (source_probe_health(v->app->source, k, &h) == 0) {
			size_t len = (size_t)snprintf(health, sizeof(health), " hits=%llu",
						      (unsigned long long)h.hits);

			if (!probe_kind_is_user(p->kind))
				snprintf(health + len, sizeof(health) - len, " misses=%llu",
					 (unsigned long long)h.misses);
			if (h.misses && (int)k == pp->sel)
				miss = p;
		}
		snprintf(buf, sizeof(buf), "%s %-16s %-9s%s %s", on ? "[x]" : "[ ]", p->event,
			 probe_kind_name(p->kind), health, p->definition);
		wattrset(v->win, (int)k == pp->sel ? cursor : crt_attr(on ? CRT_ENABLED :
									  CRT_NORMAL));
		crt_put(v->win, y + (int)i, 1, buf, v->w - 2);
	}
	if (!pp->editing && !pp->error[0]) {
		/* the selected probe misses: why, and the way out, in place of the key hints;
		 * with several hosts, each one's counts of it */
		if (miss)
			snprintf(buf, sizeof(buf), "misses: %s", probe_miss_reason(miss->kind));
		else if (!hosts_counts(v, (size_t)pp->sel, buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), "a: on/off  Enter: filter  d: delete");
		wattrset(v->win, crt_attr(miss ? CRT_ERROR : CRT_DIM));
		crt_put(v->win, v->h - 1, 1, buf, v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	draw_editor(v, pp, v->h - 6 > 2 ? v->h - 6 : 2);
}

/* --- the editor --- */

/* The whole definition for the backend: uprobes get "PATH:" in front. */
static void full_def(struct ppane *pp, char *buf, size_t len, size_t *prefix)
{
	const char *eq = NULL, *sp;

	if (!probe_kind_is_user(pp->kind) || !pp->path[0]) {
		snprintf(buf, len, "%s", pp->text);
		*prefix = 0;
		return;
	}
	/* "NAME=FUNC args" becomes "NAME=PATH:FUNC args" */
	sp = pp->text + strcspn(pp->text, " ");
	eq = memchr(pp->text, '=', (size_t)(sp - pp->text));
	if (eq) {
		snprintf(buf, len, "%.*s%s:%s", (int)(eq + 1 - pp->text), pp->text, pp->path,
			 eq + 1);
		*prefix = 0; /* offsets after NAME= shift; fixed below by the caller */
	} else {
		snprintf(buf, len, "%s:%s", pp->path, pp->text);
		*prefix = strlen(pp->path) + 1;
	}
}

/* A USDT definition as it stands: usdt_parse, then the probe against the notes read. */
static void check_usdt(struct ppane *pp, const char *def)
{
	char err[512], probe[512];
	const char *t = pp->text;
	size_t n = strcspn(t, " "), eq = strcspn(t, "=");

	if (usdt_parse(def, NULL, err, sizeof(err)) < 0) {
		snprintf(pp->error, sizeof(pp->error), "%s", err);
		return;
	}
	if (eq < n) {
		t += eq + 1;
		n -= eq + 1;
	}
	snprintf(probe, sizeof(probe), "%.*s", (int)n, t);
	if (pp->notes && !symlist_contains(pp->notes, probe)) {
		snprintf(pp->error, sizeof(pp->error), "no USDT probe '%.200s' in %.300s (Tab "
			 "completes the ones there are)", probe, pp->path[0] ? pp->path : "its files");
		pp->errpos = (int)(t - pp->text);
	}
}

/* Checks the text as it stands: probe_parse, then the function against the ELF list. */
static void check_def(struct ppane *pp)
{
	char def[5000], err[512];
	size_t prefix;
	int pos = -1;
	const char *fn;
	size_t fl;

	pp->error[0] = '\0';
	pp->errpos = -1;
	if (!pp->text[0])
		return;
	full_def(pp, def, sizeof(def), &prefix);
	if (pp->usdt) {
		check_usdt(pp, def);
		return;
	}
	if (probe_parse(pp->kind, def, NULL, err, sizeof(err), &pos) < 0) {
		snprintf(pp->error, sizeof(pp->error), "%s", err);
		if (probe_kind_is_user(pp->kind) && pos >= 0) {
			const char *eq = memchr(pp->text, '=', strcspn(pp->text, " "));
			size_t shift = eq ? strlen(pp->path) + 1 : prefix;
			int at = pos - (eq && pos <= (int)(eq - pp->text) ? 0 : (int)shift);

			pp->errpos = at < 0 ? 0 : at;
		} else {
			pp->errpos = pos;
		}
		return;
	}
	if (!probe_kind_is_user(pp->kind) || !pp->usyms)
		return;
	/* the function must be one of the binary's: said now rather than after Enter */
	fn = pp->text;
	fl = strcspn(fn, " ");
	if (memchr(fn, '=', fl)) {
		const char *eq = memchr(fn, '=', fl);

		fl -= (size_t)(eq + 1 - fn);
		fn = eq + 1;
	}
	fl = strcspn(fn, " +");
	if (fl && !(fn[0] == '0' && fn[1] == 'x')) {
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)fl, fn);
		if (!symlist_contains(pp->usyms, name)) {
			snprintf(pp->error, sizeof(pp->error),
				 "no function '%.200s' in %.500s (Tab completes its ELF functions)", name,
				 pp->path);
			pp->errpos = (int)(fn - pp->text);
		}
	}
}

/* check: the text is checked again (not after the kernel answered: that answer stays). */
static void open_def_prompt(struct kt_view *v, struct ppane *pp, bool check)
{
	char label[160];

	if (pp->usdt && pp->usdt_pid) {
		snprintf(label, sizeof(label), "usdt pid %d: ", (int)pp->usdt_pid);
	} else if (probe_kind_is_user(pp->kind)) {
		const char *base = strrchr(pp->path, '/');

		snprintf(label, sizeof(label), "%s %.140s: ", pp->usdt ? "usdt" :
			 probe_kind_name(pp->kind), base ? base + 1 : pp->path);
	} else {
		snprintf(label, sizeof(label), "%s [NAME=]FUNC [ARGS]> ", probe_kind_name(pp->kind));
	}
	pp->editing = true;
	ui_prompt_open(v->ui, v, PROMPT_DEF, label, pp->text);
	if (check)
		check_def(pp);
}

/* Names read where the source's kernel is (source_names: what, arg; an agent's on its
 * machine) as a list the editor completes from; NULL with the source's line in reply. */
static struct kt_symlist *source_symlist(struct kt_view *v, const char *what, const char *arg,
				      char *reply, size_t len)
{
	char **names = source_names(v->app->source, what, arg, reply, len);
	struct kt_symlist *l = names ? symlist_new() : NULL;

	for (size_t i = 0; names && names[i]; i++) {
		if (l)
			symlist_add(l, names[i]);
		free(names[i]);
	}
	free(names);
	if (l)
		symlist_finish(l);
	else if (names)
		snprintf(reply, len, "out of memory");
	return l;
}

static void start(struct kt_view *v, struct ppane *pp, enum kt_probe_kind kind)
{
	char why[256] = "", err[256] = "", label[96];
	struct kt_source_desc d;

	if (!app_can(v->app, KT_CAP_PROBES)) {
		ui_message(v->ui, true, "no probe support in this session");
		return;
	}
	if (!source_probe_supported(v->app->source, kind, why, sizeof(why))) {
		ui_message(v->ui, true, "%s", why[0] ? why : "this kernel has no such probes");
		return;
	}
	pp->kind = kind;
	pp->text[0] = pp->error[0] = pp->hint[0] = '\0';
	pp->errpos = -1;
	if (probe_kind_is_user(kind)) {
		source_describe(v->app->source, &d);
		snprintf(label, sizeof(label), "USDT in %s%sbinary, library or pid: ", d.files_of,
			 d.files_of[0] ? " " : "");
		pp->editing = true;
		ui_prompt_open(v->ui, v, PROMPT_BINARY, !pp->usdt ? "binary or library: " : label,
			       pp->path[0] ? pp->path : "");
		return;
	}
	if (!pp->ksyms) {
		/* the source's kernel's (an agent's are its kernel's) */
		pp->ksyms = source_symlist(v, "ksyms", "", err, sizeof(err));
		if (!pp->ksyms)
			ui_message(v->ui, true, "no kernel function names to complete: %s", err);
	}
	open_def_prompt(v, pp, true);
}

/* Paths for Tab on the binary prompt: the entries of the typed directory. */
static void complete_path(struct kt_view *v, struct ppane *pp, const char *text)
{
	const char *slash = strrchr(text, '/');
	char dir[4096], *names[PATH_CANDS_MAX], full[4096 + 256], err[512];
	struct kt_symlist *there;
	size_t n = 0, i, dl;

	if (!slash) {
		ui_message(v->ui, false, "Tab completes paths: start with / (names are looked up "
			   "in $PATH on Enter)");
		return;
	}
	dl = (size_t)(slash - text) + 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)dl, text);
	/* the directory where the source's kernel is (an agent's machine's) */
	there = source_symlist(v, "dir", dir, err, sizeof(err));
	if (!there) {
		ui_message(v->ui, true, "%s", err);
		return;
	}
	for (i = 0; i < there->count && n < PATH_CANDS_MAX; i++) {
		snprintf(full, sizeof(full), "%s%s", dir, there->names[i]);
		names[n++] = xstrdup(full);
	}
	symlist_free(there);
	pp->hint[0] = '\0';
	if (ui_prompt_complete(v->ui, (const char *const *)names, n, "/.-+@", pp->hint,
			       sizeof(pp->hint)) <= 1)
		pp->hint[0] = '\0';
	for (i = 0; i < n; i++)
		free(names[i]);
}

static void complete_def(struct kt_view *v, struct ppane *pp, const char *text)
{
	size_t cur = ui_prompt_cursor(v->ui), first_end = strcspn(text, " "), m;
	const char *const *cands;
	size_t n = 0;
	const struct kt_symlist *l = pp->usdt ? pp->notes :
				     probe_kind_is_user(pp->kind) ? pp->usyms : pp->ksyms;
	const char *extra = pp->usdt ? ":./-+" : ".";

	pp->hint[0] = '\0';
	if (cur <= first_end) {
		if (!l)
			return;
		cands = (const char *const *)l->names;
		n = l->count;
	} else if (pp->usdt) {
		size_t ws = complete_word_start(text, cur, "");

		cands = ws > 0 && text[ws - 1] == ':' ? probe_fetch_types : usdt_arg_words;
		extra = "";
		while (cands[n])
			n++;
	} else {
		size_t ws = cur;

		while (ws > 0 && text[ws - 1] != ' ' && text[ws - 1] != '(' &&
		       text[ws - 1] != '=')
			ws--;
		if (text[ws] == '$' || (ws < cur && strchr(text + ws, ':') == NULL)) {
			cands = probe_fetch_vars;
			extra = "$";
		} else {
			cands = probe_fetch_types;
		}
		while (cands[n])
			n++;
	}
	m = ui_prompt_complete(v->ui, cands, n, extra, pp->hint, sizeof(pp->hint));
	if (m <= 1)
		pp->hint[0] = '\0';
	if (!m)
		ui_message(v->ui, true, "nothing to complete here");
}

/* The USDT prompt's answer: a file's notes, or a process's (its libraries too), read where
 * the source's kernel is (an agent's on its machine, where the sites are made too). */
static void usdt_accepted(struct kt_view *v, struct ppane *pp, const char *text)
{
	pp->usdt_pid = 0;
	pp->path[0] = '\0';
	symlist_free(pp->notes);
	pp->notes = source_symlist(v, "usdt", text, pp->path, sizeof(pp->path));
	if (pp->notes && text[0] && strspn(text, "0123456789") == strlen(text)) {
		pp->usdt_pid = (pid_t)atoi(text); /* its notes name their files */
		pp->path[0] = '\0';
	}
	if (!pp->notes) {
		snprintf(pp->error, sizeof(pp->error), "%.1000s", pp->path);
		pp->path[0] = '\0';
		pp->errpos = -1;
		ui_message(v->ui, true, "%s", pp->error);
		pp->editing = false;
		return;
	}
	pp->text[0] = pp->hint[0] = '\0';
	open_def_prompt(v, pp, true);
}

/* The binary prompt's answer: the file resolved and its functions read where the source's
 * kernel is (an agent's on its machine; the reply its path). */
static void binary_accepted(struct kt_view *v, struct ppane *pp, const char *text)
{
	char path[4096];
	unsigned long long t0 = clock_mono_ns();

	symlist_free(pp->usyms);
	pp->usyms = source_symlist(v, "elf", text, path, sizeof(path));
	if (!pp->usyms) {
		snprintf(pp->error, sizeof(pp->error), "%.1000s", path);
		pp->errpos = -1;
		ui_message(v->ui, true, "%s", path);
		pp->editing = false;
		return;
	}
	snprintf(pp->path, sizeof(pp->path), "%s", path);
	log_debug("%s: %zu functions in %s (%llu ms)", __func__, pp->usyms->count, path,
		  (clock_mono_ns() - t0) / 1000000);
	pp->text[0] = pp->hint[0] = '\0';
	open_def_prompt(v, pp, true);
}

static void def_accepted(struct kt_view *v, struct ppane *pp)
{
	char def[5000], event[160], err[1024] = "";
	size_t prefix;

	check_def(pp);
	if (pp->error[0]) {
		/* Not sent: the prompt comes back with the text to fix. */
		open_def_prompt(v, pp, false);
		return;
	}
	full_def(pp, def, sizeof(def), &prefix);
	if (pp->usdt ? app_usdt_create(v->app, def, true, event, sizeof(event), err,
				       sizeof(err)) < 0 :
		       app_probe_create(v->app, pp->kind, def, true, event, sizeof(event), err,
					sizeof(err)) < 0) {
		snprintf(pp->error, sizeof(pp->error), "%s", err[0] ? err : "probe refused");
		pp->errpos = -1;
		open_def_prompt(v, pp, false);
		return;
	}
	pp->editing = false;
	pp->text[0] = pp->error[0] = pp->hint[0] = '\0';
	pp->sel = (int)nprobes(v) - 1;
	ui_broadcast(v->ui, KT_EV_CATALOG);
	ui_broadcast(v->ui, KT_EV_EVENTS);
	ui_message(v->ui, false, "created and enabled %s (a: off, Enter: filter)", event);
}

static void probes_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	struct ppane *pp = PP(v);

	v->dirty = true;
	if (ev == KT_PROMPT_CANCEL) {
		pp->editing = false;
		pp->error[0] = pp->hint[0] = '\0';
		return;
	}
	if (id == PROMPT_BINARY) {
		if (ev == KT_PROMPT_COMPLETE)
			complete_path(v, pp, text);
		else if (ev == KT_PROMPT_ACCEPT && pp->usdt)
			usdt_accepted(v, pp, text);
		else if (ev == KT_PROMPT_ACCEPT)
			binary_accepted(v, pp, text);
		return;
	}
	switch (ev) {
	case KT_PROMPT_CHANGED:
		snprintf(pp->text, sizeof(pp->text), "%s", text);
		pp->hint[0] = '\0';
		check_def(pp);
		break;
	case KT_PROMPT_COMPLETE:
		complete_def(v, pp, text);
		break;
	case KT_PROMPT_ACCEPT:
		snprintf(pp->text, sizeof(pp->text), "%s", text);
		def_accepted(v, pp);
		break;
	case KT_PROMPT_CANCEL:
		break;
	}
}

/* --- the list --- */

static void toggle(struct kt_view *v, const struct kt_probe *p)
{
	char spec[160], err[512] = "";
	bool on = !source_is_enabled(v->app->source, p->system, p->event);

	snprintf(spec, sizeof(spec), "%s:%s", p->system, p->event);
	if (app_set_events(v->app, spec, on, err, sizeof(err)) < 0)
		ui_message(v->ui, true, "%s: %s", spec, err);
	else
		ui_message(v->ui, false, "%s %s", on ? "enabled" : "disabled", spec);
	ui_broadcast(v->ui, KT_EV_EVENTS);
}

static void delete_probe(struct kt_view *v, const struct kt_probe *p)
{
	char name[160], err[512] = "";

	snprintf(name, sizeof(name), "%s:%s", p->system, p->event);
	if (app_probe_delete(v->app, name, err, sizeof(err)) < 0) {
		ui_message(v->ui, true, "%s", err);
		return;
	}
	ui_broadcast(v->ui, KT_EV_CATALOG);
	ui_broadcast(v->ui, KT_EV_EVENTS);
	ui_message(v->ui, false, "deleted %s (its captured rows stay)", name);
}

static int probes_key(struct kt_view *v, int key)
{
	struct ppane *pp = PP(v);
	const struct kt_probe *p;
	char spec[160];

	/* a delete just shortened the list: the next key (a second d typed at once) acts on
	 * the row the cursor now stands on, not on one past the end before the next draw */
	if (pp->sel >= (int)nprobes(v))
		pp->sel = nprobes(v) ? (int)nprobes(v) - 1 : 0;
	p = source_probe_get(v->app->source, (size_t)pp->sel);

	switch (key) {
	case 'i':
	case 'K':
	case 'u':
	case 'U':
	case 's':
		pp->usdt = key == 's';
		start(v, pp, key == 'i' ? KT_PROBE_KPROBE : key == 'K' ? KT_PROBE_KRETPROBE :
			     key == 'U' ? KT_PROBE_URETPROBE : KT_PROBE_UPROBE);
		break;
	case KEY_UP:
		if (pp->sel > 0)
			pp->sel--;
		break;
	case KEY_DOWN:
		if (pp->sel + 1 < (int)nprobes(v))
			pp->sel++;
		break;
	case 'a':
		if (p)
			toggle(v, p);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!p)
			break;
		snprintf(spec, sizeof(spec), "%s:%s", p->system, p->event);
		ui_edit_filter(v->ui, spec);
		return KT_KEY_HANDLED;
	case 'd':
	case KEY_DC:
		if (p)
			delete_probe(v, p);
		break;
	case 27:
		if (pp->error[0]) {
			pp->error[0] = '\0';
			break;
		}
		return KT_KEY_CLOSE;
	default:
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void probes_tick(struct kt_view *v)
{
	v->dirty = true; /* on/off states set elsewhere (the picker) */
	source_probe_refresh(v->app->source); /* an agent's counts, for a later draw */
}

static const struct funcbar_item probe_items[] = {
	{ "i/K", "Kprobe" }, { "u/U", "Uprobe" }, { "s", "USDT" }, { "a", "On/off" },
	{ "Enter", "Filter" },
	{ "d", "Delete" },   { "Esc", "Close" },  { "F10", "Quit" },
};

static int probes_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	(void)v;
	*items = probe_items;
	return (int)(sizeof(probe_items) / sizeof(probe_items[0]));
}

static const struct kt_keyhelp probes_keys[] = {
	{ "i K", "new kprobe / kretprobe" },
	{ "u U", "new uprobe / uretprobe" },
	{ "s", "new USDT probe: binary or pid" },
	{ "a", "on / off" },
	{ "d Del", "delete" },
	{ "Enter", "its filter in the picker" },
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_probes_ops = {
	.name = "probes",
	.title = "Probes (P)",
	.keys = probes_keys,
	.pref_width = 52,
	.init = probes_init,
	.free = probes_free_view,
	.resize = probes_resize,
	.draw = probes_draw,
	.key = probes_key,
	.tick = probes_tick,
	.prompt = probes_prompt,
	.funcbar = probes_funcbar,
};
