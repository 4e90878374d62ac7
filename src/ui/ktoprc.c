// SPDX-License-Identifier: GPL-2.0-or-later
/* ktoprc and profiles: "key = value" lines (see ktop.1, FILES). No curses. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktoprc.h"
#include "util/strutil.h"
#include "app/options.h"
#include "ui/action.h"
#include "ui/ovtable.h"
#include "ui/theme.h"

/* The built-in profiles. Events that this kernel lacks are skipped. */
static const struct {
	const char *name, *text;
} profiles[] = {
	{ "sched",
	  "# scheduler latency: who runs, who waits, who moves\n"
	  "event = sched:sched_switch\n"
	  "event = sched:sched_wakeup\n"
	  "event = sched:sched_wakeup_new\n"
	  "event = sched:sched_migrate_task\n"
	  "event = sched:sched_process_exec\n"
	  "event = sched:sched_process_exit\n"
	  "picker = yes\n" },
	{ "block",
	  "# block I/O: requests issued, completed, merged\n"
	  "event = block:*\n"
	  "picker = yes\n" },
	{ "syscalls",
	  "# every system call entry and exit\n"
	  "event = raw_syscalls:*\n"
	  "picker = yes\n" },
	{ "memory",
	  "# page allocation, reclaim, compaction, OOM\n"
	  "event = kmem:mm_page_alloc\n"
	  "event = kmem:mm_page_free\n"
	  "event = vmscan:mm_vmscan_direct_reclaim_begin\n"
	  "event = vmscan:mm_vmscan_direct_reclaim_end\n"
	  "event = vmscan:mm_vmscan_kswapd_wake\n"
	  "event = vmscan:mm_vmscan_kswapd_sleep\n"
	  "event = compaction:mm_compaction_begin\n"
	  "event = compaction:mm_compaction_end\n"
	  "event = oom:*\n"
	  "picker = yes\n" },
	{ "net",
	  "# networking: device queues, sockets, TCP state\n"
	  "event = net:*\n"
	  "event = sock:*\n"
	  "event = tcp:*\n"
	  "picker = yes\n" },
};

#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))
/* A configuration is read up to this much (more is ignored): it is a few lines of text. */
#define CONFIG_MAX_BYTES (1u << 20)

void config_init(struct kt_config *c)
{
	memset(c, 0, sizeof(*c));
	c->orient = c->zoom = c->picker = c->counters = c->mouse = c->split = KT_UNSET;
	c->overview = KT_UNSET;
}

void config_free(struct kt_config *c)
{
	int i;

	for (i = 0; i < c->nevents; i++)
		free(c->events[i]);
	free(c->filter);
	config_init(c);
}

bool config_equal(const struct kt_config *a, const struct kt_config *b)
{
	int i;

	if (strcmp(a->theme, b->theme) || a->delay_ms != b->delay_ms || a->orient != b->orient ||
	    a->zoom != b->zoom || a->picker != b->picker || a->counters != b->counters ||
	    a->split != b->split || a->overview != b->overview || strcmp(a->ov_hide, b->ov_hide) ||
	    a->mouse != b->mouse || a->nbinds != b->nbinds || a->nevents != b->nevents)
		return false;
	if (!a->filter != !b->filter || (a->filter && strcmp(a->filter, b->filter)))
		return false;
	for (i = 0; i < a->nbinds; i++)
		if (strcmp(a->binds[i].action, b->binds[i].action) ||
		    strcmp(a->binds[i].key, b->binds[i].key))
			return false;
	for (i = 0; i < a->nevents; i++)
		if (strcmp(a->events[i], b->events[i]))
			return false;
	return true;
}

bool config_key_valid(const char *k)
{
	char *end;
	long n;

	if (k[0] && !k[1])
		return isgraph((unsigned char)k[0]) && k[0] != '#';
	if (k[0] == '^' && k[2] == '\0')
		return isalpha((unsigned char)k[1]);
	/* one spelling per key: F2, not F02 (the key is kept as written, and matched so) */
	if (k[0] == 'F' && isdigit((unsigned char)k[1]) && k[1] != '0') {
		n = strtol(k + 1, &end, 10);
		return !*end && n >= 1 && n <= 12;
	}
	return false;
}

static int parse_bool(const char *v)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcasecmp(v, "true") ||
	    !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcasecmp(v, "false") ||
	    !strcmp(v, "0"))
		return 0;
	return KT_UNSET;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int set_bool(int *dst, const char *key, const char *v, char *err, size_t errlen)
{
	int b = parse_bool(v);

	if (b == KT_UNSET)
		BAD("%s takes yes or no, not '%.40s'", key, v);
	*dst = b;
	return 0;
}

/* "unknown action 'NAME' (help, events, ...)": every action named. */
static int unknown_action(const char *name, char *err, size_t errlen)
{
	const struct kt_action *a;
	size_t n;
	int i;

	n = (size_t)snprintf(err, errlen, "unknown action '%.30s' (", name);
	for (i = 0; (a = action_at(i)) && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : "", a->name);
	if (n < errlen)
		snprintf(err + n, errlen - n, ")");
	return -1;
}

static int parse_line(struct kt_config *c, char *line, bool profile, char *err, size_t errlen)
{
	char *eq, *key, *val, *end;
	unsigned long ul;

	/* '#' starts a comment only at the start of a line: filters may hold one */
	line[strcspn(line, "\r\n")] = '\0';
	line = str_trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		BAD("expected 'key = value', not '%.60s'", line);
	*eq = '\0';
	key = str_trim(line);
	val = str_trim(eq + 1);
	if (!strcmp(key, "theme")) {
		if (!*val || strlen(val) >= sizeof(c->theme) || strchr(val, ' '))
			BAD("theme takes a theme name, not '%.40s'", val);
		snprintf(c->theme, sizeof(c->theme), "%s", val);
	} else if (!strcmp(key, "delay")) {
		errno = 0;
		ul = strtoul(val, &end, 10);
		if (errno || !*val || *end || *val == '-' || ul < 1 || ul > 36000)
			BAD("delay takes tenths of a second from 1 to 36000, not '%.40s'", val);
		c->delay_ms = (unsigned)ul * 100;
	} else if (!strcmp(key, "orientation")) {
		if (!strcmp(val, "auto"))
			c->orient = KT_CFG_AUTO;
		else if (!strcmp(val, "side"))
			c->orient = KT_CFG_SIDE;
		else if (!strcmp(val, "stacked"))
			c->orient = KT_CFG_STACK;
		else
			BAD("orientation takes auto, side or stacked, not '%.40s'", val);
	} else if (!strcmp(key, "split")) {
		errno = 0;
		ul = strtoul(val, &end, 10);
		if (!strcmp(val, "auto"))
			c->split = 0;
		else if (errno || !*val || *end || *val == '-' || ul < 20 || ul > 80)
			BAD("split takes auto or the stream pane's share in percent, 20 to 80, "
			    "not '%.40s'", val);
		else
			c->split = (int)ul;
	} else if (!strcmp(key, "zoom")) {
		return set_bool(&c->zoom, key, val, err, errlen);
	} else if (!strcmp(key, "picker")) {
		return set_bool(&c->picker, key, val, err, errlen);
	} else if (!strcmp(key, "counters")) {
		return set_bool(&c->counters, key, val, err, errlen);
	} else if (!strcmp(key, "overview")) {
		return set_bool(&c->overview, key, val, err, errlen);
	} else if (!strcmp(key, "overview-hide")) {
		bool off[OVT_NCOLS];

		if (ovtable_hide_parse(val, off, err, errlen) < 0)
			return -1;
		ovtable_hide_text(off, c->ov_hide, sizeof(c->ov_hide));
	} else if (!strcmp(key, "mouse")) {
		return set_bool(&c->mouse, key, val, err, errlen);
	} else if (!strncmp(key, "key.", 4)) {
		if (!action_find(key + 4))
			return unknown_action(key + 4, err, errlen);
		if (!config_key_valid(val))
			BAD("%s: '%.20s' is not a key (a character, F1-F12 or ^X)", key, val);
		if (c->nbinds >= KT_CONFIG_MAX_BINDS)
			BAD("more than %d key bindings", KT_CONFIG_MAX_BINDS);
		snprintf(c->binds[c->nbinds].action, sizeof(c->binds[0].action), "%s", key + 4);
		snprintf(c->binds[c->nbinds].key, sizeof(c->binds[0].key), "%s", val);
		c->nbinds++;
	} else if (profile && !strcmp(key, "event")) {
		if (!*val || strchr(val, ' '))
			BAD("event takes system:event (globs allowed), not '%.40s'", val);
		if (c->nevents >= KT_CONFIG_MAX_EVENTS)
			BAD("more than %d events", KT_CONFIG_MAX_EVENTS);
		c->events[c->nevents++] = strdup(val);
	} else if (profile && !strcmp(key, "filter")) {
		free(c->filter);
		c->filter = *val ? strdup(val) : NULL;
	} else {
		BAD("unknown setting '%.40s'", key);
	}
	return 0;
}

int config_parse(struct kt_config *c, const char *text, const char *file, bool profile,
		 char *err, size_t errlen)
{
	char buf[1024], why[512];
	const char *p = text;
	int lineno = 0;

	config_init(c);
	while (*p) {
		size_t n = strcspn(p, "\n");

		lineno++;
		if (n >= sizeof(buf)) {
			snprintf(err, errlen, "%s:%d: line too long", file, lineno);
			config_free(c);
			return -1;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n;
		if (*p)
			p++;
		if (parse_line(c, buf, profile, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%d: %s", file, lineno, why);
			config_free(c);
			return -1;
		}
	}
	return 0;
}

int config_load(struct kt_config *c, const char *path, bool profile, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len = 0, n;
	int r;

	config_init(c);
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -2;
	}
	/* one buffer of the most that is read: nothing to grow (pages untouched cost nothing) */
	text = malloc(CONFIG_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	do {
		n = fread(text + len, 1, CONFIG_MAX_BYTES - len, f);
		len += n;
	} while (n > 0 && len < CONFIG_MAX_BYTES);
	fclose(f);
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		snprintf(err, errlen, "%s: not a text file", path);
		return -1;
	}
	r = config_parse(c, text, path, profile, err, errlen);
	free(text);
	return r;
}

static const char *yesno(int v)
{
	return v ? "yes" : "no";
}

void config_write(const struct kt_config *c, FILE *f, bool profile)
{
	static const char *const orient[] = { "auto", "side", "stacked" };
	int i;

	fprintf(f, "# ktop %s (ktop.1, FILES). Lines are 'key = value'; '#' starts a comment.\n",
		profile ? "profile" : "configuration");
	if (profile) {
		for (i = 0; i < c->nevents; i++)
			fprintf(f, "event = %s\n", c->events[i]);
		if (c->filter)
			fprintf(f, "filter = %s\n", c->filter);
	}
	if (c->theme[0])
		fprintf(f, "theme = %s\n", c->theme);
	if (c->delay_ms)
		fprintf(f, "delay = %u\n", c->delay_ms / 100);
	if (c->orient >= KT_CFG_AUTO && c->orient <= KT_CFG_STACK)
		fprintf(f, "orientation = %s\n", orient[c->orient]);
	if (c->split == 0)
		fprintf(f, "split = auto\n");
	else if (c->split != KT_UNSET)
		fprintf(f, "split = %d\n", c->split);
	if (c->zoom != KT_UNSET)
		fprintf(f, "zoom = %s\n", yesno(c->zoom));
	if (c->picker != KT_UNSET)
		fprintf(f, "picker = %s\n", yesno(c->picker));
	if (c->counters != KT_UNSET)
		fprintf(f, "counters = %s\n", yesno(c->counters));
	if (c->mouse != KT_UNSET)
		fprintf(f, "mouse = %s\n", yesno(c->mouse));
	if (c->overview != KT_UNSET)
		fprintf(f, "overview = %s\n", yesno(c->overview));
	if (c->ov_hide[0])
		fprintf(f, "overview-hide = %s\n", c->ov_hide);
	for (i = 0; i < c->nbinds; i++)
		fprintf(f, "key.%s = %s\n", c->binds[i].action, c->binds[i].key);
}

static int mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int config_save(const struct kt_config *c, const char *path, bool profile, char *err,
		size_t errlen)
{
	char dir[4096], tmp[4200];
	FILE *f;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	if (mkdirs(dir) < 0) {
		snprintf(err, errlen, "cannot create the directories of %s: %s", path,
			 strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	fchmod(fd, 0644);
	config_write(c, f, profile);
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int config_path(char *buf, size_t len, const char *rel)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		snprintf(buf, len, "%s/ktop/%s", xdg, rel);
	else if (home && *home)
		snprintf(buf, len, "%s/.config/ktop/%s", home, rel);
	else
		return -1;
	return 0;
}

const char *config_profile_names(void)
{
	return "sched, block, syscalls, memory, net";
}

int config_load_profile(struct kt_config *c, const char *name, char *err, size_t errlen)
{
	char rel[256], path[4096];
	size_t i;
	int r;

	config_init(c);
	if (!*name || strchr(name, '/') || name[0] == '.' || strlen(name) > 64) {
		snprintf(err, errlen, "bad profile name '%.64s'", name);
		return -1;
	}
	snprintf(rel, sizeof(rel), "profiles/%s", name);
	if (config_path(path, sizeof(path), rel) == 0) {
		r = config_load(c, path, true, err, errlen);
		if (r <= 0)
			return r;
	}
	for (i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name)) {
			snprintf(path, sizeof(path), "built-in profile %s", name);
			return config_parse(c, profiles[i].text, path, true, err, errlen);
		}
	snprintf(err, errlen, "no profile '%s' (built-in: %s; yours go in ~/.config/ktop/profiles)",
		 name, config_profile_names());
	return -1;
}

/* -P list: the built-ins, then the user's profile files, one a line. */
static void print_profiles(void)
{
	char dir[4096];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < NPROFILES; i++)
		printf("%s\n", profiles[i].name);
	if (config_path(dir, sizeof(dir), "profiles") < 0 || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			printf("%s\n", e->d_name);
	closedir(d);
}

int ktoprc_startup(struct kt_options *o, struct kt_config *rc, struct kt_config *prof,
		   char *err, size_t errlen)
{
	int i, r;

	config_init(rc);
	config_init(prof);
	if (o->theme && !strcmp(o->theme, "list")) {
		char names[64][KT_THEME_NAME_MAX];
		int n = theme_list(names, 64);

		for (i = 0; i < n; i++)
			printf("%s\n", names[i]);
		return 1;
	}
	if (o->profile && !strcmp(o->profile, "list")) {
		print_profiles();
		return 1;
	}
	if (o->profile) {
		if (config_load_profile(prof, o->profile, err, errlen) < 0)
			return -1;
		o->profile_events = calloc((size_t)prof->nevents + 1, sizeof(*o->profile_events));
		if (!o->profile_events) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (i = 0; i < prof->nevents; i++)
			o->profile_events[i] = prof->events[i];
		o->n_profile_events = (size_t)prof->nevents;
		if (prof->filter && !o->filter)
			o->filter = prof->filter;
		o->profile_config = prof;
	}
	if (o->mode != KT_MODE_INTERACTIVE)
		return 0;
	o->config = rc;
	if (config_path(o->config_path, sizeof(o->config_path), "ktoprc") < 0) {
		o->config_path[0] = '\0';
		return 0;
	}
	r = config_load(rc, o->config_path, false, o->config_error, sizeof(o->config_error));
	if (r < 0) {
		/* never written over; a file ktop cannot open (EACCES) is only reported on the
		 * status line, a malformed one on stderr too */
		o->config_bad = true;
		if (r == -1)
			fprintf(stderr,
				"ktop: %s (starting with the defaults; the file is left as it is)\n",
				o->config_error);
		return 0;
	}
	if (!o->delay_set && rc->delay_ms)
		o->delay_ms = rc->delay_ms;
	return 0;
}
