// SPDX-License-Identifier: GPL-2.0-or-later
/* Theme files and the colour fallback (htop ColorElements, tmux colour.c). No curses. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strutil.h"
#include "ui/theme.h"

#ifndef KTOP_PKGDATADIR
#define KTOP_PKGDATADIR "/usr/local/share/ktop"
#endif

/* In enum crt_elem order. */
static const char *const elem_names[KT_THEME_NELEM] = {
	"normal",     "header",	     "header_label", "header_value", "header_warn",
	"header_state", "paused",    "title",	     "title_focus",  "border",
	"cursor",     "cursor_dim",  "lost",	     "match",	     "time",
	"cpu",	      "task",	     "event",	     "system",	     "enabled",
	"dim",	      "fkey",	     "flabel",	     "status",	     "error",
	"prompt",     "help",	     "help_key",     "help_title",   "flame",
	"flame_alt",  "flame_grow",  "flame_shrink", "flame_jit",    "flame_task",
};

/* themes/default.theme, compiled in so ktop runs without its data files (check_theme
 * checks that the two agree). */
static const char default_text[] =
	"# ktop default theme: the terminal's own background, the 8 basic colours.\n"
	"name = default\n"
	"normal       = default default\n"
	"header       = default default\n"
	"header_label = cyan    default\n"
	"header_value = default default bold\n"
	"header_warn  = red     default bold\n"
	"header_state = green   default bold\n"
	"paused       = black   yellow  bold\n"
	"title        = black   white\n"
	"title_focus  = black   green   bold\n"
	"border       = blue    default\n"
	"cursor       = black   cyan\n"
	"cursor_dim   = black   white\n"
	"lost         = white   red     bold\n"
	"match        = black   yellow\n"
	"time         = default default\n"
	"cpu          = cyan    default\n"
	"task         = default default bold\n"
	"event        = green   default\n"
	"system       = cyan    default bold\n"
	"enabled      = green   default bold\n"
	"dim          = blue    default bold\n"
	"fkey         = default default\n"
	"flabel       = black   cyan\n"
	"status       = default default\n"
	"error        = red     default bold\n"
	"prompt       = default default bold\n"
	"help         = default default\n"
	"help_key     = cyan    default bold\n"
	"help_title   = black   green   bold\n"
	"flame        = black   white\n"
	"flame_alt    = black   green\n"
	"flame_grow   = white   red     bold\n"
	"flame_shrink = white   blue    bold\n"
	"flame_jit    = black   magenta\n"
	"flame_task   = default default bold\n";

static const char *const colour_names[16] = {
	"black",       "red",	    "green",	     "yellow",	    "blue",	   "magenta",
	"cyan",	       "white",	    "brightblack",   "brightred",   "brightgreen", "brightyellow",
	"brightblue",  "brightmagenta", "brightcyan", "brightwhite",
};

static const char *const shipped[] = { "default", "light", "mono", "high-contrast" };

const char *theme_elem_name(int elem)
{
	return elem >= 0 && elem < KT_THEME_NELEM ? elem_names[elem] : NULL;
}

int theme_elem_find(const char *name)
{
	int i;

	for (i = 0; i < KT_THEME_NELEM; i++)
		if (!strcmp(elem_names[i], name))
			return i;
	return -1;
}

static int parse_index(const char *s, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 255)
		return -1;
	*out = (int)v;
	return 0;
}

int theme_parse_colour(const char *s, int *out)
{
	int i;

	if (!s || !*s)
		return -1;
	if (!strcasecmp(s, "default")) {
		*out = KT_COLOUR_DEFAULT;
		return 0;
	}
	if (s[0] == '#') {
		unsigned v = 0;

		if (strlen(s) != 7)
			return -1;
		for (i = 1; i < 7; i++) {
			if (!isxdigit((unsigned char)s[i]))
				return -1;
			v = v * 16 + (unsigned)(isdigit((unsigned char)s[i]) ?
							s[i] - '0' :
							tolower((unsigned char)s[i]) - 'a' + 10);
		}
		*out = KT_COLOUR_RGB | (int)v;
		return 0;
	}
	for (i = 0; i < 16; i++)
		if (!strcasecmp(s, colour_names[i])) {
			*out = i;
			return 0;
		}
	if (!strcasecmp(s, "grey") || !strcasecmp(s, "gray")) {
		*out = 8;
		return 0;
	}
	if (!strncasecmp(s, "colour", 6))
		return parse_index(s + 6, out);
	if (!strncasecmp(s, "color", 5))
		return parse_index(s + 5, out);
	return parse_index(s, out);
}

int theme_parse_attr(const char *s, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned bit;
	} attrs[] = {
		{ "bold", KT_ATTR_BOLD },	    { "reverse", KT_ATTR_REVERSE },
		{ "underline", KT_ATTR_UNDERLINE }, { "dim", KT_ATTR_DIM },
		{ "normal", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!strcasecmp(s, attrs[i].name)) {
			*out |= attrs[i].bit;
			return 0;
		}
	return -1;
}

static char *trim_start(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* A comment is a line starting with '#', or "# ..." after a blank: "#ff8000" is a colour. */
static void strip_comment(char *line)
{
	char *p;

	for (p = line; *p; p++)
		if (*p == '#' && (p == line || isspace((unsigned char)p[-1])) &&
		    (!p[1] || isspace((unsigned char)p[1]) || p == trim_start(line))) {
			*p = '\0';
			return;
		}
}

/* One line, comments and blanks allowed. Returns 0, or -1 with the reason in err. */
static int parse_line(struct kt_theme *t, char *line, char *err, size_t errlen)
{
	struct kt_theme_style st = { KT_COLOUR_DEFAULT, KT_COLOUR_DEFAULT, 0 };
	char *eq, *key, *val, *tok, *save = NULL;
	int elem, n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	strip_comment(line);
	line = str_trim(line);
	if (!*line)
		return 0;
	eq = strchr(line, '=');
	if (!eq) {
		snprintf(err, errlen, "expected 'element = fg bg [attributes]', not '%.60s'", line);
		return -1;
	}
	*eq = '\0';
	key = str_trim(line);
	val = str_trim(eq + 1);
	if (!strcmp(key, "name")) {
		if (!*val || strlen(val) >= sizeof(t->name)) {
			snprintf(err, errlen, "a theme name is 1 to %zu characters",
				 sizeof(t->name) - 1);
			return -1;
		}
		snprintf(t->name, sizeof(t->name), "%s", val);
		return 0;
	}
	elem = theme_elem_find(key);
	if (elem < 0) {
		snprintf(err, errlen, "unknown element '%.40s' (see themes/README.md)", key);
		return -1;
	}
	for (tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
		if (n == 0 || n == 1) {
			if (theme_parse_colour(tok, n == 0 ? &st.fg : &st.bg) < 0) {
				snprintf(err, errlen,
					 "bad colour '%.40s' for %s (a name, 0-255 or #rrggbb)", tok,
					 key);
				return -1;
			}
			continue;
		}
		if (theme_parse_attr(tok, &st.attrs) < 0) {
			snprintf(err, errlen,
				 "bad attribute '%.40s' for %s (bold, reverse, underline, dim)", tok,
				 key);
			return -1;
		}
	}
	if (n < 2) {
		snprintf(err, errlen, "%s needs a foreground and a background colour", key);
		return -1;
	}
	t->style[elem] = st;
	return 0;
}

static void set_defaults(struct kt_theme *t)
{
	char err[128];
	char *copy = strdup(default_text), *line, *save = NULL;
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < KT_THEME_NELEM; i++)
		t->style[i].fg = t->style[i].bg = KT_COLOUR_DEFAULT;
	snprintf(t->name, sizeof(t->name), "default");
	if (!copy)
		return;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parse_line(t, line, err, sizeof(err));
	free(copy);
}

void theme_default(struct kt_theme *t)
{
	set_defaults(t);
}

/* Lines from text or f, each at most sizeof(buf) - 1 characters: a longer one is refused
 * whole, from text and from a file alike. */
static int parse_lines(struct kt_theme *t, FILE *f, const char *text, const char *file,
		       char *err, size_t errlen)
{
	char buf[1024], why[256], *fline = NULL;
	const char *line, *p = text;
	size_t cap = 0, n;
	int lineno = 0, r = 0;

	set_defaults(t);
	for (;;) {
		if (f) {
			if (getline(&fline, &cap, f) < 0)
				break;
			line = fline;
		} else {
			if (!*p)
				break;
			line = p;
			p += strcspn(p, "\n");
			if (*p)
				p++;
		}
		lineno++;
		n = strcspn(line, "\n");
		if (n >= sizeof(buf)) {
			snprintf(why, sizeof(why), "line too long (at most %zu characters)",
				 sizeof(buf) - 1);
			r = -1;
		} else {
			memcpy(buf, line, n);
			buf[n] = '\0';
			r = parse_line(t, buf, why, sizeof(why));
		}
		if (r < 0) {
			snprintf(err, errlen, "%s:%d: %s", file, lineno, why);
			set_defaults(t);
			break;
		}
	}
	free(fline);
	return r;
}

int theme_parse(struct kt_theme *t, const char *text, const char *file, char *err,
		size_t errlen)
{
	return parse_lines(t, NULL, text, file, err, errlen);
}

int theme_parse_file(struct kt_theme *t, FILE *f, const char *file, char *err, size_t errlen)
{
	return parse_lines(t, f, NULL, file, err, errlen);
}

int theme_dirs(char dirs[][4096], int max)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	const char *env = getenv("KTOP_THEMES_DIR");
	int n = 0;

	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], 4096, "%s/ktop/themes", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], 4096, "%s/.config/ktop/themes", home);
	if (n < max && env && *env)
		snprintf(dirs[n++], 4096, "%s", env);
	if (n < max)
		snprintf(dirs[n++], 4096, "%s/themes", KTOP_PKGDATADIR);
#ifdef KTOP_THEMES_SRCDIR
	if (n < max)
		snprintf(dirs[n++], 4096, "%s", KTOP_THEMES_SRCDIR);
#endif
	return n;
}

static bool valid_name(const char *name)
{
	return *name && strlen(name) < KT_THEME_NAME_MAX && !strchr(name, '/') && name[0] != '.';
}

int theme_load(struct kt_theme *t, const char *name, char *err, size_t errlen)
{
	char dirs[4][4096], path[4200];
	FILE *f = NULL;
	int n, i, r;

	if (strchr(name, '/')) {
		snprintf(path, sizeof(path), "%s", name);
		f = fopen(path, "r");
	} else if (valid_name(name)) {
		n = theme_dirs(dirs, 4);
		for (i = 0; i < n && !f; i++) {
			snprintf(path, sizeof(path), "%.4095s/%.63s.theme", dirs[i], name);
			f = fopen(path, "r");
		}
	}
	if (!f) {
		set_defaults(t);
		if (!strcmp(name, "default"))
			return 0;
		snprintf(err, errlen, "no theme '%.60s' (ktop --theme list shows them)", name);
		return -1;
	}
	r = theme_parse_file(t, f, path, err, errlen);
	fclose(f);
	if (r == 0 && !strchr(name, '/'))
		snprintf(t->name, sizeof(t->name), "%s", name);
	return r;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static bool have_name(char names[][KT_THEME_NAME_MAX], int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

int theme_list(char names[][KT_THEME_NAME_MAX], int max)
{
	char dirs[4][4096];
	int n = 0, first, nd, i;
	size_t k;

	for (k = 0; k < sizeof(shipped) / sizeof(shipped[0]) && n < max; k++) {
		if (strcmp(shipped[k], "default")) {
			struct kt_theme t;
			char err[64];

			/* a shipped theme that is not installed is not offered */
			if (theme_load(&t, shipped[k], err, sizeof(err)) < 0)
				continue;
		}
		snprintf(names[n++], KT_THEME_NAME_MAX, "%s", shipped[k]);
	}
	first = n;
	nd = theme_dirs(dirs, 4);
	for (i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d)) && n < max) {
			size_t len = strlen(de->d_name);
			char name[KT_THEME_NAME_MAX];

			if (len <= 6 || len - 6 >= KT_THEME_NAME_MAX ||
			    strcmp(de->d_name + len - 6, ".theme"))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(len - 6), de->d_name);
			if (valid_name(name) && !have_name(names, n, name))
				snprintf(names[n++], KT_THEME_NAME_MAX, "%s", name);
		}
		closedir(d);
	}
	qsort(names[first], (size_t)(n - first), sizeof(names[0]), cmp_names);
	return n;
}

/* tmux colour_find_rgb: the 6x6x6 cube or the grey ramp, whichever is nearer. */
int theme_rgb_to_256(int rgb)
{
	static const int q2c[6] = { 0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff };
	int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
	int qr, qg, qb, cr, cg, cb, grey_avg, grey_idx, grey, d_cube, d_grey;

#define TO6(v) ((v) < 48 ? 0 : (v) < 114 ? 1 : ((v) - 35) / 40)
#define DIST(R, G, B) (((R) - r) * ((R) - r) + ((G) - g) * ((G) - g) + ((B) - b) * ((B) - b))
	qr = TO6(r);
	qg = TO6(g);
	qb = TO6(b);
	cr = q2c[qr];
	cg = q2c[qg];
	cb = q2c[qb];
	if (cr == r && cg == g && cb == b)
		return 16 + 36 * qr + 6 * qg + qb;
	grey_avg = (r + g + b) / 3;
	grey_idx = grey_avg > 238 ? 23 : grey_avg < 3 ? 0 : (grey_avg - 3) / 10;
	grey = 8 + 10 * grey_idx;
	d_cube = DIST(cr, cg, cb);
	d_grey = DIST(grey, grey, grey);
#undef TO6
#undef DIST
	return d_grey < d_cube ? 232 + grey_idx : 16 + 36 * qr + 6 * qg + qb;
}

/* tmux colour_256to16. */
int theme_256_to_16(int c)
{
	static const unsigned char table[256] = {
		0,  1,	2,  3,	4,  5,	6,  7,	8,  9,	10, 11, 12, 13, 14, 15, 0,  4,	4,  4,
		12, 12, 2,  6,	4,  4,	12, 12, 2,  2,	6,  4,	12, 12, 2,  2,	2,  6,	12, 12,
		10, 10, 10, 10, 14, 12, 10, 10, 10, 10, 10, 14, 1,  5,	4,  4,	12, 12, 3,  8,
		4,  4,	12, 12, 2,  2,	6,  4,	12, 12, 2,  2,	2,  6,	12, 12, 10, 10, 10, 10,
		14, 12, 10, 10, 10, 10, 10, 14, 1,  1,	5,  4,	12, 12, 1,  1,	5,  4,	12, 12,
		3,  3,	8,  4,	12, 12, 2,  2,	2,  6,	12, 12, 10, 10, 10, 10, 14, 12, 10, 10,
		10, 10, 10, 14, 1,  1,	1,  5,	12, 12, 1,  1,	1,  5,	12, 12, 1,  1,	1,  5,
		12, 12, 3,  3,	3,  7,	12, 12, 10, 10, 10, 10, 14, 12, 10, 10, 10, 10, 10, 14,
		9,  9,	9,  9,	13, 12, 9,  9,	9,  9,	13, 12, 9,  9,	9,  9,	13, 12, 9,  9,
		9,  9,	13, 12, 11, 11, 11, 11, 7,  12, 10, 10, 10, 10, 10, 14, 9,  9,	9,  9,
		9,  13, 9,  9,	9,  9,	9,  13, 9,  9,	9,  9,	9,  13, 9,  9,	9,  9,	9,  13,
		9,  9,	9,  9,	9,  13, 11, 11, 11, 11, 11, 15, 0,  0,	0,  0,	0,  0,	8,  8,
		8,  8,	8,  8,	7,  7,	7,  7,	7,  7,	15, 15, 15, 15, 15, 15,
	};

	return c >= 0 && c < 256 ? table[c] : 7;
}

int theme_colour_fit(int c, int ncolours, bool *bold)
{
	if (c == KT_COLOUR_DEFAULT || ncolours < 8)
		return KT_COLOUR_DEFAULT;
	if (c & KT_COLOUR_RGB) {
		c = theme_rgb_to_256(c & 0xffffff);
	}
	if (c < ncolours)
		return c;
	if (c >= 16)
		c = theme_256_to_16(c);
	if (c < ncolours)
		return c;
	/* 8 colours: a bright one is its base colour, bold (tmux tty_check_fg) */
	if (bold)
		*bold = true;
	return c - 8;
}
