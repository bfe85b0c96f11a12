/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What audiolat devices gathers per backend (devices.c), on made-up
 * backends: a server backend's rows as its list() emits them, what it
 * returned and its server variable's value; a backend with no list() has
 * no devices; one not built in is never asked; -b NAME lists only it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/sim.h"
#include "core/devices.h"

static int lists;

static int
fake_list(al_device_emit_fn emit, void *ud)
{
	lists++;
	emit(ud, &(struct al_device){ .kind = "fake-server", .name = "srv", .description = "Fake 1.0",
				      .detail = "running" });
	emit(ud, &(struct al_device){ .kind = "fake-port", .name = "srv:out_1",
				      .description = "an output", .detail = "output,physical" });
	return -ENODEV;
}

static const struct al_backend_ops fake = {
	.name = "fake", .summary = "a made-up server backend", .server_env = "FAKE_REMOTE",
	.list = fake_list,
};

static void
a_server_backend_rows(void **state)
{
	struct al_device_group g;

	(void)state;
	lists = 0;
	setenv("FAKE_REMOTE", "studio-2", 1);
	al_backend_devices(&fake, &g);
	assert_int_equal(lists, 1);
	assert_string_equal(g.backend, "fake");
	assert_true(g.listable);
	assert_null(g.unavailable);
	assert_int_equal(g.rc, -ENODEV);
	assert_string_equal(g.server_env, "FAKE_REMOTE");
	assert_non_null(g.server_env_value);
	assert_string_equal(g.server_env_value, "studio-2");
	assert_int_equal(g.n, 2);
	assert_string_equal(g.rows[1].kind, "fake-port");
	assert_string_equal(g.rows[1].name, "srv:out_1");
	assert_string_equal(g.rows[1].description, "an output");
	assert_string_equal(g.rows[1].detail, "output,physical");
	al_device_group_free(&g);
	unsetenv("FAKE_REMOTE");
	al_backend_devices(&fake, &g);
	assert_null(g.server_env_value);
	al_device_group_free(&g);
}

static void
no_list_and_not_built_in(void **state)
{
	struct al_backend_ops none = { .name = "card", .summary = "a simulated card" };
	struct al_backend_ops gone = fake;
	struct al_device_group g;

	(void)state;
	al_backend_devices(&none, &g);
	assert_false(g.listable);
	assert_int_equal(g.n, 0);
	al_device_group_free(&g);
	lists = 0;
	gone.unavailable = "not built in (no libfake)";
	al_backend_devices(&gone, &g);
	assert_int_equal(lists, 0);
	assert_int_equal(g.n, 0);
	assert_string_equal(g.unavailable, "not built in (no libfake)");
	al_device_group_free(&g);
}

static void
only_the_backend_asked_for(void **state)
{
	struct al_device_list l = { 0 };

	(void)state;
	al_backend_device_list(&l, &al_backend_sim);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.groups[0].backend, "sim");
	assert_false(l.groups[0].listable);
	al_device_list_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_server_backend_rows),
		cmocka_unit_test(no_list_and_not_built_in),
		cmocka_unit_test(only_the_backend_asked_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
