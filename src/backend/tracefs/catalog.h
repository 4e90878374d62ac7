/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The catalogue of available trace events (system:event), read from available_events
 * without parsing any format, plus the matching used by -e globs and the picker's fuzzy
 * typing. */
#ifndef KTOP_CATALOG_H
#define KTOP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

struct kt_event_desc {
	char *system;
	char *name;
};

struct kt_catalog {
	struct kt_event_desc *events; /* sorted by system, then name */
	size_t count;
};

/* Loads from a file in available_events format ("sys:event" per line). Returns NULL with
 * errno set on failure. */
struct kt_catalog *catalog_load_file(const char *path);
/* Parses text in available_events format; used by catalog_load_file and the tests. */
struct kt_catalog *catalog_parse(const char *text);
void catalog_free(struct kt_catalog *cat);

/* Splits "sys:event" (or "sys/event", or a bare "event" meaning any system) into its
 * parts, malloc'd. Returns 0, or -1 when spec is empty or malformed. */
int catalog_split_spec(const char *spec, char **system, char **event);
/* Glob match of a -e spec against one event (fnmatch). */
bool catalog_spec_matches(const char *spec, const struct kt_event_desc *ev);
/* True when spec may name more than one event: a glob in either part, or no system. */
bool catalog_spec_is_glob(const char *spec);

/* Fuzzy subsequence score of pattern in text, case-insensitive: higher is better, -1 for
 * no match. Consecutive runs and matches at word starts ('_', ':', start) score more. */
int catalog_fuzzy_score(const char *pattern, const char *text);

#endif
