// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfobj.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/testhooks.h"
#include "util/xalloc.h"

/* bpftool's generated code casts const away */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#include "src/probes/objects.h"
#pragma GCC diagnostic pop

/* A .rodata or .bss integer in its own width. */
union int_width {
	unsigned char u8;
	unsigned short u16;
	unsigned int u32;
	unsigned long long u64;
};

struct bpf_object *bpfobj_open(const char *name)
{
	const char *env = test_hook_env("KTOP_TEST_BPF_OBJECT"), *file = env ? strchr(env, ':') : NULL;
	char obj_name[64];
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = obj_name);
	const void *elf = NULL;
	void *copy = NULL;
	struct bpf_object *obj;
	size_t i, len = 0;

	snprintf(obj_name, sizeof(obj_name), "ktop_%s", name);
	if (file && (size_t)(file - env) == strlen(name) && !strncmp(env, name, strlen(name))) {
		elf = copy = file_read_all(file + 1, &len);
		if (!elf)
			return NULL;
		log_debug("%s: %s: the test object %s", __func__, name, file + 1);
	}
	for (i = 0; !elf && i < sizeof(bpf_builtin_objects) / sizeof(bpf_builtin_objects[0]); i++)
		if (!strcmp(bpf_builtin_objects[i].name, name))
			elf = bpf_builtin_objects[i].elf(&len);
	if (!elf) {
		errno = ENOENT;
		return NULL;
	}
	obj = bpf_object__open_mem(elf, len, &opts);
	free(copy); /* libbpf copied what it needs */
	return libbpf_get_error(obj) ? NULL : obj;
}

/* The .rodata or .bss map of obj and the offset and size of its variable name. */
static struct bpf_map *find_var(struct bpf_object *obj, const char *section, const char *name,
				size_t *off, size_t *size)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec, *var;
	struct bpf_map *map;
	size_t n = strlen(section);
	const char *mname;
	int id, i;

	if (!btf)
		return NULL;
	id = btf__find_by_name_kind(btf, section, BTF_KIND_DATASEC);
	sec = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
	if (!sec)
		return NULL;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		var = btf__type_by_id(btf, vs->type);
		if (!var || strcmp(btf__name_by_offset(btf, var->name_off), name))
			continue;
		bpf_object__for_each_map(map, obj) {
			mname = bpf_map__name(map);
			/* internal maps are named "<object prefix>.rodata" */
			if (strlen(mname) >= n && !strcmp(mname + strlen(mname) - n, section)) {
				*off = vs->offset;
				*size = vs->size;
				return map;
			}
		}
	}
	return NULL;
}

int bpfobj_set_bytes(struct bpf_object *obj, const char *name, const void *v, size_t len,
		     char *err, size_t errlen)
{
	size_t off = 0, size = 0, total = 0;
	const void *data = NULL;
	struct bpf_map *map;
	char *copy;
	int r;

	map = find_var(obj, ".rodata", name, &off, &size);
	if (map)
		data = bpf_map__initial_value(map, &total);
	if (!data || size != len || off + size > total) {
		snprintf(err, errlen, "the BPF object %s has no %zu-byte .rodata variable %s",
			 bpf_object__name(obj), len, name);
		return -1;
	}
	/* libbpf hands out its initial value read-only: a changed copy replaces it */
	copy = xmalloc(total);
	memcpy(copy, data, total);
	memcpy(copy + off, v, len);
	r = bpf_map__set_initial_value(map, copy, total);
	free(copy);
	if (r) {
		snprintf(err, errlen, "cannot set %s in the BPF object %s: %s", name,
			 bpf_object__name(obj), strerror(-r));
		return -1;
	}
	return 0;
}

int bpfobj_set_int(struct bpf_object *obj, const char *name, unsigned long long v, char *err,
		   size_t errlen)
{
	union int_width w;
	size_t off, size;

	if (!find_var(obj, ".rodata", name, &off, &size))
		size = 0;
	switch (size) {
	case 1: w.u8 = (unsigned char)v; break;
	case 2: w.u16 = (unsigned short)v; break;
	case 4: w.u32 = (unsigned int)v; break;
	case 8: w.u64 = v; break;
	default:
		snprintf(err, errlen, "the BPF object %s has no integer .rodata variable %s",
			 bpf_object__name(obj), name);
		return -1;
	}
	return bpfobj_set_bytes(obj, name, &w, size, err, errlen);
}

int bpfobj_read_bss(struct bpf_object *obj, const char *name, unsigned long long *v)
{
	size_t off, size;
	struct bpf_map *map = find_var(obj, ".bss", name, &off, &size);
	union int_width w;
	unsigned char *buf;
	int key = 0, r = -1;

	if (!map || (size != 1 && size != 2 && size != 4 && size != 8))
		return -1;
	/* the live value: libbpf's own copy of .bss is only its initial value */
	buf = xcalloc(1, bpf_map__value_size(map));
	if (off + size <= bpf_map__value_size(map) &&
	    bpf_map_lookup_elem(bpf_map__fd(map), &key, buf) == 0) {
		memcpy(&w, buf + off, size);
		*v = size == 1 ? w.u8 : size == 2 ? w.u16 : size == 4 ? w.u32 : w.u64;
		r = 0;
	}
	free(buf);
	return r;
}

void bpfobj_autoload_only(struct bpf_object *obj, const char *const *want)
{
	struct bpf_program *p;
	const char *const *w;
	bool on;

	bpf_object__for_each_program(p, obj) {
		on = false;
		for (w = want; *w; w++)
			on |= !strcmp(bpf_program__name(p), *w);
		bpf_program__set_autoload(p, on);
	}
}

struct bpf_program *bpfobj_program(struct bpf_object *obj, const char *name)
{
	return bpf_object__find_program_by_name(obj, name);
}

/* libbpf's messages: always to the log; while loading, also kept to explain a failure. */
static char load_log[16384];
static size_t load_len;
static bool capturing;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	if (capturing && load_len < sizeof(load_log) - 1) {
		va_copy(copy, ap);
		n = vsnprintf(load_log + load_len, sizeof(load_log) - load_len, fmt, copy);
		va_end(copy);
		if (n > 0)
			load_len += (size_t)n < sizeof(load_log) - load_len ?
					    (size_t)n : sizeof(load_log) - 1 - load_len;
	}
	if (level != LIBBPF_DEBUG || log_level() > 1)
		log_vdebug(fmt, ap);
	return 0;
}

void bpfobj_log_capture(void)
{
	static bool set;

	if (!set) {
		libbpf_set_print(libbpf_print);
		set = true;
	}
	load_len = 0;
	load_log[0] = '\0';
	capturing = true;
}

/* The last non-empty line ending before end, trimmed, into out; returns where it starts. */
static const char *last_line(const char *start, const char *end, char *out, size_t len)
{
	const char *b, *e = end, *line;

	while (e > start && (e[-1] == '\n' || e[-1] == ' '))
		e--;
	b = e;
	while (b > start && b[-1] != '\n')
		b--;
	line = b;
	if (!strncmp(b, "libbpf: ", 8))
		b += 8;
	snprintf(out, len, "%.*s", (int)(e - b), b);
	return line;
}

/* libbpf's lines that only repeat an earlier one, or mislead: its "ulimit -l" hint is wrong
 * where the kernel charges BPF memory to the cgroup. */
static bool uninformative(const char *line)
{
	return strstr(line, "failed to load object") || strstr(line, "failed to load BPF skeleton") ||
	       strstr(line, "failed to load: -") || strstr(line, "ulimit") ||
	       strstr(line, "RLIMIT") || !*line;
}

/* One line saying why the load failed: the verifier's last two lines when it spoke, else
 * libbpf's last telling complaint, else errno. */
#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

static void failure_reason(int err, char *out, size_t len)
{
	const char *end = strstr(load_log, "-- END PROG LOAD LOG --"), *b;
	char a[256], c[256];

	capturing = false;
	if (end) {
		b = last_line(load_log, end, c, sizeof(c));
		last_line(load_log, b, a, sizeof(a));
		snprintf(out, len, "verifier: %.200s / %.200s", a, c);
		return;
	}
	for (b = load_log + load_len; b > load_log;) {
		b = last_line(load_log, b, c, sizeof(c));
		if (!uninformative(c)) {
			snprintf(out, len, "%s", c);
			return;
		}
	}
	snprintf(out, len, "%s", strerror(err));
}

void bpfobj_failure_reason(int err, char *out, size_t len)
{
	failure_reason(err, out, len);
	/* libbpf says "Error loading vmlinux BTF: -3": name the file and the way out */
	if (strstr(out, "vmlinux BTF") && access(KERNEL_BTF, R_OK) < 0)
		snprintf(out, len, "no kernel BTF at %s (a kernel built with "
			 "CONFIG_DEBUG_INFO_BTF=y has it)", KERNEL_BTF);
}

void bpfobj_log_release(void)
{
	capturing = false;
}

unsigned long long bpfobj_recursion_misses(struct bpf_object *obj)
{
	unsigned long long n = 0;
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
			n += info.recursion_misses;
	}
	return n;
}
