// SPDX-License-Identifier: GPL-2.0-or-later
/* USDT (issue 16): argument specs into fetchargs, definitions parsed, the notes of our
 * semaphore-guarded target read from its ELF file (and from a copy made to look prelinked),
 * and the uprobe definitions made of them. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/tracefs/probes.h"
#include "backend/tracefs/usdt.h"
#include "check_main.h"

static char err[512];

static int fake_sym(const char *name, uint64_t *addr, void *ctx)
{
	(void)ctx;
	if (strcmp(name, "counter"))
		return -1;
	*addr = 0x404010;
	return 0;
}

/* spec (with type) -> want, or NULL when it must fail with a reason containing why. */
static void one(const char *spec, const char *type, const char *want, const char *why)
{
	char out[256] = "";
	int r;

	err[0] = '\0';
	r = usdt_fetcharg(spec, 2, type, 0x400000, fake_sym, NULL, out, sizeof(out), err,
			  sizeof(err));
	if (want) {
		ck_assert_msg(r == 0, "%s: %s", spec, err);
		ck_assert_str_eq(out, want);
	} else {
		ck_assert_msg(r < 0, "%s gave %s", spec, out);
		ck_assert_msg(strstr(err, why) && strstr(err, spec) && !strchr(err, '\n'),
			      "%s: '%s'", spec, err);
	}
}

START_TEST(test_fetchargs)
{
	one("-4@%edi", NULL, "%di:s32", NULL);
	one("8@%rax", NULL, "%ax:u64", NULL);
	one("-8@%r12", NULL, "%r12:s64", NULL);
	one("2@%r9w", NULL, "%r9:u16", NULL);
	one("1@%sil", NULL, "%si:u8", NULL);
	one("-1@%al", NULL, "%ax:s8", NULL);
	one("8@-16(%rbp)", NULL, "-16(%bp):u64", NULL);
	one("-4@112(%rsp)", NULL, "+112(%sp):s32", NULL);
	one("4@(%rbx)", NULL, "+0(%bx):u32", NULL);
	one("-4@$5", NULL, "\\5:s32", NULL);
	one("8@$-1", NULL, "\\-1:u64", NULL);
	one("2@$+5", NULL, "\\5:u16", NULL); /* as the kernel writes it: fuzz_usdt found it */
	one("8@counter(%rip)", NULL, "@+0x4010:u64", NULL);
	one("4@counter+8(%rip)", NULL, "@+0x4018:u32", NULL);
	/* char pointers read as strings */
	one("8@%rbp", "string", "+0(%bp):string", NULL);
	one("8@-24(%rbp)", "ustring", "+0(-24(%bp)):ustring", NULL);
	one("8@%r12", "x64", "%r12:x64", NULL);
	/* what uprobes cannot fetch: the spec and the way out in one line */
	one("8@(%rbx,%rax,8)", NULL, NULL, "indexed addressing");
	one("1@%ah", NULL, NULL, "high-byte register");
	one("8@%xmm0", NULL, NULL, "unknown x86-64 register");
	one("-4@$5", "string", NULL, "not a char pointer");
	one("3@%rax", NULL, NULL, "1, 2, 4 or 8");
	one("8@nosuch(%rip)", NULL, NULL, "neither .symtab nor .dynsym");
	one("8@16(%rip)", NULL, NULL, "instruction's length");
	ck_assert_ptr_nonnull(strstr(err, "--uprobe PATH:0xOFFSET"));
}
END_TEST

START_TEST(test_parse)
{
	struct kt_usdt_def d;

	ck_assert_int_eq(usdt_parse("/usr/bin/python3.11:python:function__entry", &d, err,
				    sizeof(err)), 0);
	ck_assert_ptr_null(d.name);
	ck_assert_str_eq(d.path, "/usr/bin/python3.11");
	ck_assert_str_eq(d.provider, "python");
	ck_assert_str_eq(d.probe, "function__entry");
	ck_assert_str_eq(d.args, "");
	usdt_def_free(&d);
	ck_assert_int_eq(usdt_parse("calls=python3.11:python:function__entry arg2:string "
				    "file=arg1:ustring pid=42", &d, err, sizeof(err)), 0);
	ck_assert_str_eq(d.name, "calls");
	ck_assert_str_eq(d.path, "python3.11");
	ck_assert_str_eq(d.args, "arg2:string file=arg1:ustring");
	ck_assert_int_eq(d.pid, 42);
	usdt_def_free(&d);

	ck_assert_int_eq(usdt_parse("/usr/bin/python3.11:function__entry", NULL, err,
				    sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "PATH:PROVIDER:PROBE"));
	ck_assert_int_eq(usdt_parse("p:python:x arg0:string", NULL, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "[NAME=]argN[:TYPE]"));
	ck_assert_int_eq(usdt_parse("p:python:x arg2:", NULL, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "missing type"));
	ck_assert_int_eq(usdt_parse("p:python:x pid=0", NULL, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "pid must be"));
}
END_TEST

START_TEST(test_target_notes)
{
	struct kt_usdt_list l = { 0 };
	struct kt_probe_def pd;
	char **defs, want[512];
	int n;

	ck_assert_int_eq(usdt_read_file(USDT_TARGET, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].provider, "ktop_test");
	ck_assert_str_eq(l.v[0].name, "hit");
	ck_assert_uint_ne(l.v[0].semaphore, 0);
	ck_assert_uint_ne(l.v[0].sema_offset, 0);
	ck_assert_uint_eq(l.v[0].pc - l.v[0].offset, l.v[0].delta);
	/* int, long, char *: signed 4 and 8 bytes, then 8 */
	ck_assert_msg(!strncmp(l.v[0].args, "-4@", 3) && strstr(l.v[0].args, " -8@") &&
		      strstr(l.v[0].args, " 8@"), "args '%s'", l.v[0].args);

	n = usdt_uprobe_defs(USDT_TARGET ":ktop_test:hit arg3:string s=arg1:x32 pid=7", &defs,
			     err, sizeof(err));
	ck_assert_msg(n == 1, "%d: %s", n, err);
	snprintf(want, sizeof(want), "hit=%s:0x%llx(0x%llx) s=", USDT_TARGET,
		 (unsigned long long)l.v[0].offset, (unsigned long long)l.v[0].sema_offset);
	ck_assert_msg(!strncmp(defs[0], want, strlen(want)), "%s", defs[0]);
	ck_assert_msg(strstr(defs[0], ":x32 arg2=") && strstr(defs[0], ":s64 arg3=+0(") &&
		      strstr(defs[0], "):string pid=7"), "%s", defs[0]);
	/* what probes.c makes of it: the reference counter kept */
	ck_assert_int_eq(probe_parse(KT_PROBE_UPROBE, defs[0], &pd, err, sizeof(err), NULL), 0);
	ck_assert_uint_eq(pd.ref_ctr_offset, l.v[0].sema_offset);
	ck_assert_uint_eq(pd.offset, l.v[0].offset);
	probe_def_free(&pd);
	usdt_defs_free(defs, n);

	ck_assert_int_eq(usdt_uprobe_defs(USDT_TARGET ":ktop_test:miss", &defs, err,
					  sizeof(err)), -1);
	snprintf(want, sizeof(want), "no USDT probe 'ktop_test:miss' in %s (ktop --list-usdt %s "
		 "lists its 1)", USDT_TARGET, USDT_TARGET);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(usdt_uprobe_defs(USDT_TARGET ":ktop_test:hit arg4:string", &defs, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, "ktop_test:hit has 3 arguments; there is no arg4");

	usdt_list_free(&l);

	/* a shared library's probe with two sites and no semaphore: two uprobes, the second
	 * named _2 */
	ck_assert_int_eq(usdt_read_file(USDT_LIB, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 2);
	n = usdt_uprobe_defs(USDT_LIB ":ktop_test:twice", &defs, err, sizeof(err));
	ck_assert_msg(n == 2, "%d: %s", n, err);
	snprintf(want, sizeof(want), "twice=%s:0x%llx arg1=\\1:s32", USDT_LIB,
		 (unsigned long long)l.v[0].offset);
	ck_assert_str_eq(defs[0], want);
	snprintf(want, sizeof(want), "twice_2=%s:0x%llx arg1=\\2:s32", USDT_LIB,
		 (unsigned long long)l.v[1].offset);
	ck_assert_str_eq(defs[1], want);
	usdt_defs_free(defs, n);
	usdt_list_free(&l);
}
END_TEST

/* A prelinked file: its notes' base is where .stapsdt.base was at link time, and the
 * section has moved since. Simulated by moving the note's base back by 0x10 in a copy of the
 * target: the probe must move forward by as much, as libbpf reads it. */
START_TEST(test_prelink)
{
	struct kt_usdt_list l = { 0 }, m = { 0 };
	char path[] = "/tmp/ktop-check-usdt-XXXXXX", *buf, *at;
	uint64_t pair[2];
	size_t len;
	FILE *f;
	int fd;

	ck_assert_int_eq(usdt_read_file(USDT_TARGET, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 1);
	f = fopen(USDT_TARGET, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len);
	ck_assert_uint_eq(fread(buf, 1, len, f), len);
	fclose(f);
	/* the note's descriptor: pc, then base */
	pair[0] = l.v[0].pc;
	pair[1] = l.v[0].base;
	at = memmem(buf, len, pair, sizeof(pair));
	ck_assert_ptr_nonnull(at);
	pair[1] -= 0x10;
	memcpy(at, pair, sizeof(pair));
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	free(buf);
	ck_assert_int_eq(usdt_read_file(path, &m, err, sizeof(err)), 0);
	unlink(path);
	ck_assert_uint_eq(m.n, 1);
	ck_assert_uint_eq(m.v[0].pc, l.v[0].pc + 0x10);
	ck_assert_uint_eq(m.v[0].offset, l.v[0].offset + 0x10);
	/* the semaphore as written, as libbpf takes it */
	ck_assert_uint_eq(m.v[0].semaphore, l.v[0].semaphore);
	ck_assert_uint_eq(m.v[0].sema_offset, l.v[0].sema_offset);
	usdt_list_free(&l);
	usdt_list_free(&m);
}
END_TEST

START_TEST(test_ref_ctr_syntax)
{
	struct kt_probe_def d;
	int pos;

	ck_assert_int_eq(probe_parse(KT_PROBE_UPROBE, "/bin/x:0x12df(0x3050) a=%di:s32", &d, err,
				     sizeof(err), &pos), 0);
	ck_assert_uint_eq(d.offset, 0x12df);
	ck_assert_uint_eq(d.ref_ctr_offset, 0x3050);
	probe_def_free(&d);
	ck_assert_int_eq(probe_parse(KT_PROBE_UPROBE, "/bin/x:0x12df(3050)", NULL, err,
				     sizeof(err), &pos), -1);
	ck_assert_int_eq(pos, 13);
	ck_assert_ptr_nonnull(strstr(err, "reference counter"));
}
END_TEST

static Suite *usdt_suite(void)
{
	Suite *s = suite_create("usdt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fetchargs);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_target_notes);
	tcase_add_test(tc, test_prelink);
	tcase_add_test(tc, test_ref_ctr_syntax);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(usdt_suite());
}
