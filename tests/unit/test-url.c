/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Passwords out of URLs and command lines; document UUIDs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/url.h"

static void
expect_redacted(const char *in, const char *want)
{
	char out[256];

	al_url_redact(in, out, sizeof(out));
	assert_string_equal(out, want);
	/* in place, as the command lines are */
	strcpy(out, in);
	al_url_redact(out, out, sizeof(out));
	assert_string_equal(out, want);
}

static void
passwords_are_removed(void **state)
{
	(void)state;
	expect_redacted("postgresql://al:secret@db.lan:5432/audiolat",
			"postgresql://al@db.lan:5432/audiolat");
	expect_redacted("postgres://al:s%40cr%3At@/audiolat?host=/tmp/pg",
			"postgres://al@/audiolat?host=/tmp/pg");
	/* an unencoded '@' in the password: up to the last '@' of the authority */
	expect_redacted("postgresql://al:p@ss@host/db", "postgresql://al@host/db");
	expect_redacted("postgresql://al@host/db?password=secret&sslmode=require",
			"postgresql://al@host/db?password=***&sslmode=require");
	expect_redacted("postgresql://al@host/db?sslmode=require&password=secret",
			"postgresql://al@host/db?sslmode=require&password=***");
	expect_redacted("host=db password=secret dbname=x", "host=db password=*** dbname=x");
	/* no password: unchanged, a port is not a password */
	expect_redacted("postgresql://host:5432/db", "postgresql://host:5432/db");
	expect_redacted("/home/me/results.db", "/home/me/results.db");
	expect_redacted("", "");
	/* a whole command line */
	expect_redacted("audiolat run -d 1s --db postgresql://u:pw@h/d --label 'x'",
			"audiolat run -d 1s --db postgresql://u@h/d --label 'x'");
	expect_redacted("audiolat run --db=postgresql://u:pw@h/d",
			"audiolat run --db=postgresql://u@h/d");
}

static void
a_short_buffer_is_cut(void **state)
{
	char out[12];

	(void)state;
	al_url_redact("postgresql://u:pw@host/db", out, sizeof(out));
	assert_string_equal(out, "postgresql:");
	assert_false(strstr(out, "pw"));
}

static void
postgres_urls_are_told(void **state)
{
	(void)state;
	assert_true(al_url_is_postgres("postgresql://h/db"));
	assert_true(al_url_is_postgres("postgres://h/db"));
	assert_false(al_url_is_postgres("/tmp/postgresql://x"));
	assert_false(al_url_is_postgres("results.db"));
	assert_false(al_url_is_postgres(NULL));
}

static void
uuids(void **state)
{
	char a[AL_UUID_LEN + 1], b[AL_UUID_LEN + 1];

	(void)state;
	assert_int_equal(al_uuid_random(a), 0);
	assert_int_equal(al_uuid_random(b), 0);
	assert_true(al_uuid_valid(a));
	assert_string_not_equal(a, b);
	assert_int_equal(a[14], '4');                  /* version 4 */
	assert_non_null(strchr("89ab", a[19]));        /* the RFC variant */
	al_uuid_of_bytes("{}", 2, a);
	al_uuid_of_bytes("{}", 2, b);
	assert_string_equal(a, b);                     /* the same bytes, the same UUID */
	assert_int_equal(a[14], '8');                  /* version 8 */
	al_uuid_of_bytes("{ }", 3, b);
	assert_string_not_equal(a, b);
	assert_true(al_uuid_valid("0123ABCD-0000-4000-8000-00000000000f"));
	assert_false(al_uuid_valid("0123abcd-0000-4000-8000-00000000000"));
	assert_false(al_uuid_valid("0123abcd+0000-4000-8000-000000000000"));
	assert_false(al_uuid_valid("0123abcg-0000-4000-8000-000000000000"));
	assert_false(al_uuid_valid(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(passwords_are_removed),
		cmocka_unit_test(a_short_buffer_is_cut),
		cmocka_unit_test(postgres_urls_are_told),
		cmocka_unit_test(uuids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
