/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration file ($XDG_CONFIG_HOME/ktop/ktoprc) and profiles
 * ($XDG_CONFIG_HOME/ktop/profiles/NAME, plus the compiled-in ones): "key = value" lines,
 * parsed and written here without curses, so the unit tests cover them. A file that fails
 * to parse is never written over. */
#ifndef KTOP_KTOPRC_H
#define KTOP_KTOPRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define KT_CONFIG_MAX_EVENTS 64
#define KT_CONFIG_MAX_BINDS 32
#define KT_UNSET (-1)

enum kt_cfg_orient { KT_CFG_AUTO, KT_CFG_SIDE, KT_CFG_STACK };

struct kt_binding {
	char action[24]; /* "quit": an action's name (ui/action.h) */
	char key[16];	 /* "Q", "F10", "^X" */
};

struct kt_config {
	char theme[64];	  /* "": not set */
	unsigned delay_ms; /* 0: not set */
	int orient;	  /* enum kt_cfg_orient, or KT_UNSET */
	int zoom, picker, counters, mouse; /* 0/1, or KT_UNSET */
	int overview; /* 0: nothing named, start on the stream, not the overview; or KT_UNSET */
	int split;	  /* the stream pane's share of the panes' area, 20-80 %, 0 auto;
			   * KT_UNSET: not set */
	char ov_hide[128]; /* overview-hide: the overview's columns the user hid ("" none) */
	struct kt_binding binds[KT_CONFIG_MAX_BINDS];
	int nbinds;
	/* profiles only */
	char *events[KT_CONFIG_MAX_EVENTS]; /* -e specs; globs that match nothing are skipped */
	int nevents;
	char *filter; /* like --filter, or NULL */
};

void config_init(struct kt_config *c);
void config_free(struct kt_config *c);
/* Same settings (theme, delay, layout, mouse, bindings; events and filter too). */
bool config_equal(const struct kt_config *a, const struct kt_config *b);

/* Parses text (profile: event and filter lines allowed). Returns 0; or -1 with
 * "FILE:LINE: reason" in err and c back to config_init(). */
int config_parse(struct kt_config *c, const char *text, const char *file, bool profile,
		 char *err, size_t errlen);
/* Reads path. Returns 0, 1 when the file does not exist (c stays empty), -1 as above, -2
 * when it cannot be opened (err says why). */
int config_load(struct kt_config *c, const char *path, bool profile, char *err, size_t errlen);
/* Writes what is set, one "key = value" per line. */
void config_write(const struct kt_config *c, FILE *f, bool profile);
/* Writes path atomically (a temporary file renamed over it), creating its directories.
 * Returns 0, or -1 with the reason in err. */
int config_save(const struct kt_config *c, const char *path, bool profile, char *err,
		size_t errlen);

/* $XDG_CONFIG_HOME/ktop/REL (default ~/.config/ktop/REL) into buf. Returns 0, or -1 when
 * neither variable is set. */
int config_path(char *buf, size_t len, const char *rel);

/* "q", "F10", "^L": a key a binding may name. */
bool config_key_valid(const char *key);

/* The built-in profiles: "sched, block, syscalls, memory, net". */
const char *config_profile_names(void);
/* Loads profile name: ~/.config/ktop/profiles/NAME when it exists, else the built-in one.
 * Returns 0, or -1 with a one-line reason in err (unknown: the built-ins listed). */
int config_load_profile(struct kt_config *c, const char *name, char *err, size_t errlen);

struct kt_options;
/* Start-up (main.c): --theme list prints the themes (returns 1); -P loads the profile into
 * prof and adds its events and filter to o (unknown profile: -1, err says which exist); the
 * explorer loads ktoprc into rc (a bad file: a warning on stderr, o->config_bad, and the
 * defaults) and takes its delay unless -d was given. Returns 0 to go on. */
int ktoprc_startup(struct kt_options *o, struct kt_config *rc, struct kt_config *prof,
		   char *err, size_t errlen);

#endif
