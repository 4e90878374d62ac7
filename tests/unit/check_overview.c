// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview's arithmetic that needs no kernel: readable cgroup names (cgname.h) and the
 * quantile of log2 buckets (overview.h). */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "backend/cgname.h"
#include "backend/overview.h"
#include "check_main.h"

static const char *name(const char *path)
{
	static char out[64];

	cgname_readable(path, out, sizeof(out));
	return out;
}

START_TEST(test_cgroup_names)
{
	ck_assert_str_eq(name("/"), "/");
	ck_assert_str_eq(name(""), "/");
	ck_assert_str_eq(name("/system.slice/nginx.service"), "nginx.service");
	ck_assert_str_eq(name("/user.slice/user-1000.slice/session-3.scope"), "session-3.scope");
	ck_assert_str_eq(name("/system.slice/docker-3f2a1b4c5d6e7f8091a2b3c4d5e6f708.scope"),
			 "docker:3f2a1b4c5d6e");
	ck_assert_str_eq(name("/docker/3f2a1b4c5d6e7f8091a2b3c4d5e6f708"), "docker:3f2a1b4c5d6e");
	ck_assert_str_eq(name("/machine.slice/libpod-0123456789abcdef0123.scope"),
			 "podman:0123456789ab");
	ck_assert_str_eq(name("/kubepods.slice/kubepods-burstable.slice/"
			      "kubepods-burstable-pod1234abcd_5678.slice/"
			      "cri-containerd-89abcdef0123456789.scope"),
			 "k8s:1234abcd/89abcdef0123");
	ck_assert_str_eq(name("/kubepods/burstable/pod1234abcd-5678/89abcdef01234567"),
			 "k8s:1234abcd/89abcdef0123");
	ck_assert_str_eq(name("/process_api/db30e175de72/"), "db30e175de72");
}
END_TEST

START_TEST(test_quantile)
{
	uint32_t slots[KT_OV_ROW_SLOTS] = { 0 };

	ck_assert_uint_eq(overview_quantile(slots, 0.99), 0);
	slots[10] = 99; /* [1024, 2048) */
	slots[20] = 1;	/* [1 Mi, 2 Mi) */
	ck_assert_uint_eq(overview_quantile(slots, 0.99), 2048);
	ck_assert_uint_eq(overview_quantile(slots, 1.0), 2u << 20);
	slots[20] = 2;
	ck_assert_uint_eq(overview_quantile(slots, 0.99), 2u << 20);
}
END_TEST

static Suite *overview_suite(void)
{
	Suite *s = suite_create("overview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cgroup_names);
	tcase_add_test(tc, test_quantile);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(overview_suite());
}
