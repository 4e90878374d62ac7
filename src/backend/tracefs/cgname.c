// SPDX-License-Identifier: GPL-2.0-or-later
/* Readable cgroup names (cgname.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cgname.h"

#define SHORT_ID 12 /* as docker ps shows a container id */

/* The container id in component c after prefix and before ".scope" (or the end), cut to
 * SHORT_ID; false when c is not one. */
static bool container_id(const char *c, size_t clen, const char *prefix, const char **id,
			 size_t *idlen)
{
	size_t plen = strlen(prefix), n;

	if (clen <= plen || strncmp(c, prefix, plen))
		return false;
	n = clen - plen;
	if (n > 6 && !strncmp(c + clen - 6, ".scope", 6))
		n -= 6;
	*id = c + plen;
	*idlen = n < SHORT_ID ? n : SHORT_ID;
	return true;
}

/* The component of path ending before end (exclusive), its start in *c. */
static size_t component_before(const char *path, const char *end, const char **c)
{
	const char *s = end;

	while (s > path && s[-1] != '/')
		s--;
	*c = s;
	return (size_t)(end - s);
}

/* kubepods: ".../kubepods[-burstable]-pod<UID>.slice/<runtime>-<ID>.scope" (systemd driver)
 * or ".../kubepods/burstable/pod<UID>/<ID>" (cgroupfs driver). */
static bool kube_name(const char *path, const char *last, size_t lastlen, char *out, size_t len)
{
	const char *pod = path, *id = last, *dash = NULL, *p;
	size_t podlen = 0, idlen = lastlen;

	if (!strstr(path, "kubepods"))
		return false;
	/* "pod" right after a '-' or a '/': not the one in "kubepods" */
	while ((pod = strstr(pod, "pod")) && pod > path && pod[-1] != '-' && pod[-1] != '/')
		pod += 3;
	if (!pod || pod >= last)
		return false;
	pod += 3;
	while (pod[podlen] && pod[podlen] != '/' && pod[podlen] != '.')
		podlen++;
	for (p = last; p < last + lastlen; p++)
		if (*p == '-')
			dash = p;
	if (dash) {
		idlen -= (size_t)(dash + 1 - last);
		id = dash + 1;
	}
	if (idlen > 6 && !strncmp(id + idlen - 6, ".scope", 6))
		idlen -= 6;
	snprintf(out, len, "k8s:%.*s/%.*s", (int)(podlen < 8 ? podlen : 8), pod,
		 (int)(idlen < SHORT_ID ? idlen : SHORT_ID), id);
	return true;
}

void cgname_readable(const char *path, char *out, size_t len)
{
	static const struct {
		const char *prefix, *name;
	} runtimes[] = { { "docker-", "docker" },     { "cri-containerd-", "containerd" },
			 { "crio-", "crio" },	      { "libpod-", "podman" } };
	size_t plen = strlen(path), clen, idlen, i;
	const char *c, *id;

	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	clen = component_before(path, path + plen, &c);
	if (!clen) {
		snprintf(out, len, "/");
		return;
	}
	if (kube_name(path, c, clen, out, len))
		return;
	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++)
		if (container_id(c, clen, runtimes[i].prefix, &id, &idlen)) {
			snprintf(out, len, "%s:%.*s", runtimes[i].name, (int)idlen, id);
			return;
		}
	/* cgroupfs docker: /docker/<64 hex> */
	if (c - path >= 8 && !strncmp(c - 8, "/docker/", 8)) {
		snprintf(out, len, "docker:%.*s", (int)(clen < SHORT_ID ? clen : SHORT_ID), c);
		return;
	}
	snprintf(out, len, "%.*s", (int)clen, c);
}

void cgname_of_pid(int pid, char *out, size_t len)
{
	char file[64], line[4096], best[4096] = "";
	int rank = 0, r;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	f = fopen(file, "re");
	if (!f) {
		snprintf(out, len, "?");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, ':');

		path = path ? strchr(path + 1, ':') : NULL;
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		/* v2's "0::" first, then systemd's own hierarchy, then any */
		r = !strncmp(line, "0::", 3) ? 3 : strstr(line, ":name=systemd:") ? 2 : 1;
		if (r > rank && !(r == 3 && !strcmp(path + 1, "/") && rank == 2)) {
			rank = r;
			snprintf(best, sizeof(best), "%s", path + 1);
		}
	}
	fclose(f);
	cgname_readable(*best ? best : "/", out, len);
}
