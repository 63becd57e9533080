/* test_flow.c - fio's flow control (io/feat/flow.h): the gate lets two workers
 * of one flow through in the ratio of their weights, holds a worker ahead
 * of its weight (with flow_sleep: after its I/O in flight, then the
 * sleep), and leaving gives the others the flow back; the options refuse
 * bad values. */
#include <check.h>
#include <errno.h>
#include "io/feat/flow.h"

START_TEST(test_gate_ratio)
{
	struct flow *f = flow_join(1001, 1), *g = flow_join(1001, 3);
	struct flow_state a = {0}, b = {0};
	uint64_t wake, now = 1000;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_eq(f, g); /* one flow per id */
	ck_assert_ptr_ne(flow_join(1002, 1), f);
	/* both try once per step: a (weight 1) is held 3 times in 4 */
	for (int i = 0; i < 4000; i++, now += 1000000) {
		flow_gate(f, &a, 1, 0, 0, now, &wake);
		flow_gate(g, &b, 3, 0, 0, now, &wake);
	}
	ck_assert(b.n > 2900 * a.n / 1000 && b.n < 3100 * a.n / 1000);
	/* a ahead: held; with flow_sleep and I/O in flight it waits for it */
	struct flow_state c = {.n = a.n + 1000};
	ck_assert(!flow_gate(f, &c, 1, 5000, 2, now, &wake));
	ck_assert_uint_eq(wake, 0);
	ck_assert(c.quiesce);
	ck_assert(!flow_gate(f, &c, 1, 5000, 1, now, &wake));
	ck_assert(!flow_gate(f, &c, 1, 5000, 0, now, &wake)); /* all in: sleep */
	ck_assert_uint_eq(wake, now + 5000);
	ck_assert(!flow_gate(f, &c, 1, 5000, 0, now + 4999, &wake));
	/* without flow_sleep: a short poll */
	struct flow_state d = {.n = a.n + 1000};
	ck_assert(!flow_gate(f, &d, 1, 0, 3, now, &wake));
	ck_assert_uint_eq(wake, now + FLOW_POLL_NS);
	/* zonemode=zbd without flow_sleep: fio waits for the I/O in flight,
	 * then looks again at once */
	struct flow_state z = {.n = a.n + 1000, .zbd = true};
	ck_assert(!flow_gate(f, &z, 1, 0, 2, now, &wake));
	ck_assert_uint_eq(wake, 0);
	ck_assert(z.quiesce);
	ck_assert(!flow_gate(f, &z, 1, 0, 0, now, &wake)); /* all in: no sleep */
	ck_assert_uint_eq(wake, now);
	ck_assert(!z.quiesce);
	/* b leaves: a alone in the flow is never held */
	flow_leave(g, b.n, 3);
	for (int i = 0; i < 100; i++, now += 1000000)
		ck_assert(flow_gate(f, &a, 1, 0, 0, now, &wake));
	flow_leave(f, a.n, 1);
}
END_TEST

START_TEST(test_options)
{
	struct spec s;
	char err[128];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "flow", "8", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.flow, 8);
	ck_assert_int_eq(opt_set(&s, "flow_id", "3", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.flow_id, 3);
	ck_assert_int_eq(opt_set(&s, "flow_sleep", "1000", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.flow_sleep_ns, 1000000);
	ck_assert_int_eq(opt_set(&s, "flow_watermark", "10", err, sizeof(err)), 0);
	const char *bad[] = {"1001", "-1", "nan", "inf", "1e3", "", "99999999999", "0x10"};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(opt_set(&s, "flow", bad[i], err, sizeof(err)), -EINVAL);
		ck_assert_int_eq(
		    opt_set(&s, "flow_sleep", i ? bad[i] : "4294967296", err, sizeof(err)),
		    -EINVAL);
		ck_assert_int_eq(
		    opt_set(&s, "flow_id", i ? bad[i] : "2147483648", err, sizeof(err)), -EINVAL);
	}
	ck_assert_int_eq(opt_set(&s, "flow", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(s.flow, 8);
}
END_TEST

Suite *flow_suite(void)
{
	Suite *s = suite_create("flow");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_gate_ratio);
	tcase_add_test(tc, test_options);
	suite_add_tcase(s, tc);
	return s;
}
