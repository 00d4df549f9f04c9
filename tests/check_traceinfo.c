/* check_traceinfo.c - placeholder until the module lands. */
#include "config.h"

#include "testutil.h"

START_TEST(test_placeholder)
{
    ck_assert_int_eq(1, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("traceinfo");
    TCase *tc = tcase_create("traceinfo");

    tcase_add_test(tc, test_placeholder);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
