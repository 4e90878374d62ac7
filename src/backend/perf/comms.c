// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comms.h"

/* pids, in sets of COMMS_WAYS slots: a pid takes a free slot of its set, else the slot whose
 * last rename is oldest, so two live pids that hash alike both keep their history. The side
 * band notes every fork and exec on the machine, so a build's thousands of short tasks must
 * fit. */
#define COMMS_SLOTS 16384
#define COMMS_WAYS 4
/* Renames kept per pid: a fork, an exec and a few prctl(PR_SET_NAME). When it is full the
 * oldest in time goes, not the first to arrive: the side band's CPUs are drained one after
 * another, so a fork can arrive after the renames that followed it. */
#define COMMS_PER_PID 6

struct rename {
	uint64_t ts;
	uint64_t seq; /* arrival: of two renames at one time, the later wins */
	char oldcomm[KT_COMM_LEN], newcomm[KT_COMM_LEN];
};

struct pid_slot {
	int pid; /* 0: free */
	unsigned n;
	uint64_t newest; /* the latest ts held */
	struct rename r[COMMS_PER_PID];
};

struct kt_comms {
	pthread_mutex_t lock;
	uint64_t seq;
	struct pid_slot slots[COMMS_SLOTS];
};

struct kt_comms *comms_new(void)
{
	struct kt_comms *c = calloc(1, sizeof(*c));

	if (c)
		pthread_mutex_init(&c->lock, NULL);
	return c;
}

void comms_free(struct kt_comms *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The offset of "field:<type> <name>[...];\toffset:N;" in a format, or -1. */
static int field_offset(const char *format, const char *name, int *size)
{
	char pat[64];
	const char *p = format, *semi;
	int off, sz;

	snprintf(pat, sizeof(pat), " %s", name);
	while ((p = strstr(p, "field:"))) {
		semi = strchr(p, ';');
		if (!semi)
			return -1;
		/* the name ends the declaration, before ';' or '[' */
		{
			const char *end = memchr(p, '[', (size_t)(semi - p));
			size_t n = strlen(pat);

			if (!end)
				end = semi;
			if ((size_t)(end - p) >= n && !strncmp(end - n, pat, n) &&
			    sscanf(semi, "; offset:%d; size:%d;", &off, &sz) == 2) {
				*size = sz;
				return off;
			}
		}
		p = semi;
	}
	return -1;
}

int comms_parse_format(const char *format, struct kt_rename_layout *out)
{
	const char *id = strstr(format, "\nID: ");
	int psz, osz, nsz;

	out->id = id ? atoi(id + 5) : -1;
	out->pid = field_offset(format, "pid", &psz);
	out->oldcomm = field_offset(format, "oldcomm", &osz);
	out->newcomm = field_offset(format, "newcomm", &nsz);
	if (out->id <= 0 || out->pid < 0 || out->oldcomm < 0 || out->newcomm < 0 || psz != 4 ||
	    osz < KT_COMM_LEN || nsz < KT_COMM_LEN)
		return -1;
	out->size = out->pid + 4;
	if (out->oldcomm + KT_COMM_LEN > out->size)
		out->size = out->oldcomm + KT_COMM_LEN;
	if (out->newcomm + KT_COMM_LEN > out->size)
		out->size = out->newcomm + KT_COMM_LEN;
	return 0;
}

static struct pid_slot *slot_find(struct kt_comms *c, int pid)
{
	struct pid_slot *set = &c->slots[((unsigned)pid * 2654435761u) % COMMS_SLOTS &
					 ~(unsigned)(COMMS_WAYS - 1)];
	unsigned i;

	for (i = 0; i < COMMS_WAYS; i++)
		if (set[i].pid == pid)
			return &set[i];
	return NULL;
}

/* pid's slot, or a new one for it: a free one of its set, else the stalest. */
static struct pid_slot *slot_take(struct kt_comms *c, int pid)
{
	struct pid_slot *set = &c->slots[((unsigned)pid * 2654435761u) % COMMS_SLOTS &
					 ~(unsigned)(COMMS_WAYS - 1)],
			*s = slot_find(c, pid), *stalest = &set[0];
	unsigned i;

	if (s)
		return s;
	for (i = 0; i < COMMS_WAYS; i++) {
		if (!set[i].pid) {
			stalest = &set[i];
			break;
		}
		if (set[i].newest < stalest->newest)
			stalest = &set[i];
	}
	stalest->pid = pid;
	stalest->n = 0;
	stalest->newest = 0;
	return stalest;
}

static void copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, KT_COMM_LEN);
	dst[KT_COMM_LEN - 1] = '\0';
}

/* Appends one rename of pid at ts: from a record (both names fixed-size fields), or with
 * oldcomm NULL (not known) and newcomm a string. */
static void note(struct kt_comms *c, int pid, uint64_t ts, const char *oldcomm,
		 const char *newcomm)
{
	struct pid_slot *s;
	struct rename *r;

	pthread_mutex_lock(&c->lock);
	s = slot_take(c, pid);
	if (s->n < COMMS_PER_PID) {
		r = &s->r[s->n++];
	} else {
		/* full: the oldest goes, unless this one is older still */
		unsigned i, old = 0;

		for (i = 1; i < COMMS_PER_PID; i++)
			if (s->r[i].ts < s->r[old].ts)
				old = i;
		if (ts < s->r[old].ts) {
			pthread_mutex_unlock(&c->lock);
			return;
		}
		r = &s->r[old];
	}
	r->ts = ts;
	r->seq = ++c->seq;
	if (ts > s->newest)
		s->newest = ts;
	if (oldcomm)
		copy_comm(r->oldcomm, oldcomm);
	else
		r->oldcomm[0] = '\0';
	if (oldcomm) /* a record's fixed-size field */
		copy_comm(r->newcomm, newcomm);
	else /* a string */
		snprintf(r->newcomm, sizeof(r->newcomm), "%s", newcomm);
	pthread_mutex_unlock(&c->lock);
}

void comms_note(struct kt_comms *c, const struct kt_rename_layout *l, uint64_t ts,
		const void *data, uint32_t size)
{
	const char *d = data;
	int pid;

	if (!c || (int)size < l->size)
		return;
	memcpy(&pid, d + l->pid, sizeof(pid));
	if (pid > 0)
		note(c, pid, ts, d + l->oldcomm, d + l->newcomm);
}

void comms_set(struct kt_comms *c, int pid, uint64_t ts, const char *comm)
{
	if (c && pid > 0)
		note(c, pid, ts, NULL, comm);
}

bool comms_at(struct kt_comms *c, int pid, uint64_t ts, char out[KT_COMM_LEN])
{
	const struct rename *r, *first = NULL, *best = NULL;
	struct pid_slot *s;
	unsigned i;

	if (!c || pid <= 0)
		return false;
	pthread_mutex_lock(&c->lock);
	s = slot_find(c, pid);
	/* By time, not by arrival: a fork seen on one CPU can arrive after the exec that
	 * followed it on another. Of two at one time, the later to arrive. */
	for (i = 0; s && i < s->n; i++) {
		r = &s->r[i];
		if (!first || r->ts < first->ts || (r->ts == first->ts && r->seq < first->seq))
			first = r;
		if (r->ts <= ts && (!best || r->ts > best->ts ||
				    (r->ts == best->ts && r->seq > best->seq)))
			best = r;
	}
	if (best)
		memcpy(out, best->newcomm, KT_COMM_LEN);
	else if (first && first->oldcomm[0]) /* before the first rename: its old name */
		memcpy(out, first->oldcomm, KT_COMM_LEN);
	else
		best = first = NULL;
	pthread_mutex_unlock(&c->lock);
	return best || first;
}
