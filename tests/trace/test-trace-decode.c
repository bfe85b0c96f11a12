/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder's event parsing (src/trace/trace.c, compiled in for
 * its static functions; no tracefs call is made): a raw record decoded by
 * the fields its format gives (numbers, signed or not; fixed strings,
 * __data_loc and __rel_loc strings, anything unprintable as '?'; fields
 * past the record's end left out) into the history, and the names of the
 * instances a dead run may have left ("audiolat-<pid>[-<seq>]").
 */
#include "../../src/trace/trace.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define ID_SWITCH 7
#define ID_IRQ 9

static struct al_trace *t;
static struct al_tev evs[8];

static void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4); /* the host's order, as the file's (set below) */
}

static struct field
fld(int offset, int size, unsigned long flags)
{
	return (struct field){ .offset = offset, .size = size, .flags = flags, .present = true };
}

static int
setup(void **state)
{
	(void)state;
	t = calloc(1, sizeof(*t));
	assert_non_null(t);
	t->tep = tep_alloc();
	assert_non_null(t->tep);
	tep_set_file_bigendian(t->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	t->ring = (struct al_tev_ring){ .ev = evs, .cap = 8 };
	t->dec = calloc(2, sizeof(*t->dec));
	assert_non_null(t->dec);
	t->n_dec = 2;
	/* sched_switch: common_pid 4, prev_comm 8[16], prev_pid 24, next_comm 28[16], next_pid 44 */
	t->dec[0] = (struct decoder){
		.id = ID_SWITCH, .type = AL_TEV_SWITCH, .common_pid = fld(4, 4, TEP_FIELD_IS_SIGNED),
		.prev_name = fld(8, 16, 0), .prev_pid = fld(24, 4, TEP_FIELD_IS_SIGNED),
		.name = fld(28, 16, 0), .pid = fld(44, 4, TEP_FIELD_IS_SIGNED),
	};
	/* irq_handler_entry: common_pid 4, irq 8, name __data_loc (or __rel_loc) at 12 */
	t->dec[1] = (struct decoder){
		.id = ID_IRQ, .type = AL_TEV_IRQ_ENTRY, .common_pid = fld(4, 4, TEP_FIELD_IS_SIGNED),
		.pid = fld(8, 4, TEP_FIELD_IS_SIGNED), .name = fld(12, 4, TEP_FIELD_IS_DYNAMIC),
	};
	t->dec_of_id[ID_SWITCH] = 1;
	t->dec_of_id[ID_IRQ] = 2;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	tep_free(t->tep);
	free(t->dec);
	free(t);
	return 0;
}

static const struct al_tev *
last(void)
{
	assert_true(t->ring.n > 0);
	return al__tev_at(&t->ring, t->ring.n - 1);
}

static void
switch_record(void **state)
{
	uint8_t rec[48] = { 0 };
	const struct al_tev *e;

	(void)state;
	rec[0] = ID_SWITCH;
	put32(rec + 4, 4321);
	memcpy(rec + 8, "al-hog", 6);
	put32(rec + 24, 4321);
	/* a comm with a control character and one past 0x7e: both shown as '?' */
	memcpy(rec + 28, "audio\tlat\x80x", 11);
	put32(rec + 44, (uint32_t)-1);
	decode(t, rec, sizeof(rec), 5000);
	assert_int_equal(t->events, 1);
	e = last();
	assert_int_equal(e->ts_ns, 5000);
	assert_int_equal(e->type, AL_TEV_SWITCH);
	assert_int_equal(e->prev_pid, 4321);
	assert_string_equal(e->prev_name, "al-hog");
	assert_string_equal(e->name, "audio?lat?x");
	assert_int_equal(e->pid, -1);

	/* cut short: a field that ends past the record is not read */
	decode(t, rec, 46, 5500);
	assert_int_equal(last()->pid, 0);
	assert_string_equal(last()->name, "audio?lat?x");
	decode(t, rec, 30, 6000);
	e = last();
	assert_int_equal(e->prev_pid, 4321);
	assert_string_equal(e->prev_name, "al-hog");
	assert_string_equal(e->name, "");
	assert_int_equal(e->pid, 0);

	/* an id that is not ours: nothing */
	rec[0] = 3;
	decode(t, rec, sizeof(rec), 7000);
	assert_int_equal(t->events, 3);
}

static void
dynamic_strings(void **state)
{
	uint8_t rec[40] = { 0 };
	const struct al_tev *e;

	(void)state;
	rec[0] = ID_IRQ;
	put32(rec + 4, 0);
	put32(rec + 8, 25);
	/* __data_loc: offset 20 from the record's start, 5 bytes with the NUL */
	put32(rec + 12, (5u << 16) | 20);
	memcpy(rec + 20, "eth0", 5);
	decode(t, rec, sizeof(rec), 100);
	e = last();
	assert_int_equal(e->type, AL_TEV_IRQ_ENTRY);
	assert_int_equal(e->pid, 25);
	assert_string_equal(e->name, "eth0");

	/* __rel_loc: the offset counts from the end of the field (12 + 4) */
	t->dec[1].name.flags |= TEP_FIELD_IS_RELATIVE;
	memset(rec + 20, 0, 20);
	put32(rec + 12, (6u << 16) | 8);
	memcpy(rec + 24, "nvme0", 6);
	decode(t, rec, sizeof(rec), 200);
	assert_string_equal(last()->name, "nvme0");

	/* a location past the record: no name */
	put32(rec + 12, (6u << 16) | 36);
	decode(t, rec, sizeof(rec), 300);
	assert_string_equal(last()->name, "");
	t->dec[1].name.flags &= ~(unsigned long)TEP_FIELD_IS_RELATIVE;
}

static void
instance_names(void **state)
{
	long pid = -7, seq = -7;

	(void)state;
	assert_int_equal(parse_instance_name("audiolat-1234", &pid, &seq), 0);
	assert_int_equal(pid, 1234);
	assert_int_equal(seq, 0);
	assert_int_equal(parse_instance_name("audiolat-1234-2", &pid, &seq), 0);
	assert_int_equal(pid, 1234);
	assert_int_equal(seq, 2);
	assert_int_equal(parse_instance_name("audiolat-0", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("audiolat-12x", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("audiolat-12-", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("audiolat-12-0", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("audiolat-", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("other-12", &pid, &seq), -1);
	assert_int_equal(parse_instance_name("audiolat-99999999999", &pid, &seq), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switch_record),
		cmocka_unit_test(dynamic_strings),
		cmocka_unit_test(instance_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
