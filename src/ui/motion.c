// SPDX-License-Identifier: GPL-2.0-or-later
/* The movement keys' one table (see motion.h). */
#include "config.h"

#include "ui/action.h"
#include "ui/crt.h"
#include "ui/motion.h"

static const struct kt_motion motions[] = {
	{ "Up k", "up one row", KEY_UP },
	{ "Down j", "down one row", KEY_DOWN },
	{ "Left h", "left: scroll, parent, fold", KEY_LEFT },
	{ "Right l", "right: scroll, child, unfold", KEY_RIGHT },
	{ "PgUp ^B", "one page up", KEY_PPAGE },
	{ "PgDn ^F Space", "one page down", KEY_NPAGE },
	{ "^U", "half a page up", KT_MOTION_HALF_UP },
	{ "^D", "half a page down", KT_MOTION_HALF_DOWN },
	{ "Home g", "first row (oldest)", KEY_HOME },
	{ "End G", "last row (newest, follow)", KEY_END },
};

#define NMOTIONS ((int)(sizeof(motions) / sizeof(motions[0])))

const struct kt_motion *motion_at(int i)
{
	return i >= 0 && i < NMOTIONS ? &motions[i] : NULL;
}

/* Whether key is one of the keys named in keys. */
static bool among(const char *keys, int key)
{
	int i, k;

	for (i = 0; (k = action_keys_at(keys, i)) >= 0; i++)
		if (k == key)
			return true;
	return false;
}

const struct kt_motion *motion_of(int key, bool text)
{
	int i;

	if (text && key < KEY_MIN)
		return NULL;
	for (i = 0; i < NMOTIONS; i++)
		if (among(motions[i].keys, key))
			return &motions[i];
	return NULL;
}
