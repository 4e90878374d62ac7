// SPDX-License-Identifier: GPL-2.0-or-later
/* User frames named by someone else (usernames.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize.h"
#include "usernames.h"
#include "util/xalloc.h"

struct way {
	uint64_t addr;
	uint64_t given; /* when, in puts; 0: empty */
	char *name;
	int pid;
	uint8_t kind;
};

struct kt_usernames {
	struct way ways[KT_USERNAMES_SETS][KT_USERNAMES_WAYS];
	uint64_t puts;
	pthread_mutex_t lock;
	struct kt_symbolizer *sym;
};

static unsigned set_of(int pid, uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)(unsigned)pid << 32)) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 40) % KT_USERNAMES_SETS;
}

/* symbolizer_new_given's callback: u's name of the frame. */
static bool given_name(void *ctx, int pid, uint64_t addr, uint8_t *kind, char *buf, size_t len)
{
	return usernames_get(ctx, pid, addr, kind, buf, len);
}

struct kt_usernames *usernames_new(void)
{
	struct kt_usernames *u = xcalloc(1, sizeof(*u));

	pthread_mutex_init(&u->lock, NULL);
	u->sym = symbolizer_new_given(given_name, u);
	return u;
}

void usernames_free(struct kt_usernames *u)
{
	if (!u)
		return;
	symbolizer_free(u->sym);
	for (size_t s = 0; s < KT_USERNAMES_SETS; s++)
		for (size_t w = 0; w < KT_USERNAMES_WAYS; w++)
			free(u->ways[s][w].name);
	pthread_mutex_destroy(&u->lock);
	free(u);
}

void usernames_put(struct kt_usernames *u, int pid, uint64_t addr, uint8_t kind,
		   const char *name)
{
	struct way *set = u->ways[set_of(pid, addr)], *w = &set[0];

	pthread_mutex_lock(&u->lock);
	for (size_t i = 0; i < KT_USERNAMES_WAYS; i++) {
		if (set[i].given && set[i].pid == pid && set[i].addr == addr) {
			w = &set[i];
			break;
		}
		if (set[i].given < w->given)
			w = &set[i];
	}
	free(w->name);
	w->name = xstrdup(name);
	w->pid = pid;
	w->addr = addr;
	w->kind = kind;
	w->given = ++u->puts;
	pthread_mutex_unlock(&u->lock);
}

bool usernames_get(struct kt_usernames *u, int pid, uint64_t addr, uint8_t *kind, char *buf,
		   size_t len)
{
	const struct way *set = u->ways[set_of(pid, addr)];
	bool found = false;

	pthread_mutex_lock(&u->lock);
	for (size_t i = 0; i < KT_USERNAMES_WAYS && !found; i++)
		if (set[i].given && set[i].pid == pid && set[i].addr == addr) {
			*kind = set[i].kind;
			snprintf(buf, len, "%s", set[i].name);
			found = true;
		}
	pthread_mutex_unlock(&u->lock);
	return found;
}

struct kt_symbolizer *usernames_symbolizer(struct kt_usernames *u)
{
	return u->sym;
}
