/* check_import_elastisim.c - ElastiSim's node-utilization output to
 * traces (import/import_elastisim.c).
 *
 * The input is written here from ElastiSim's documentation (the page
 * "Simulation results": columns Time, Node, State, Running jobs,
 * Expected jobs; one row per change of a node's state; states free,
 * allocated, reserved), with the expected events worked out by hand in
 * the comments, times counted from simulation time 0.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "formats/trace.h"
#include "testimport.h"
#include "testutil.h"

/* Converts text with options "name=value;..."; returns the trace as text
 * or NULL with the error in *e (nothing written then). */
static char *convert(const char *text, const char *opts,
                     struct import_elastisim_report *rep, char names[256],
                     struct bfs_error *e)
{
    static int n;
    char name[64];
    const char *in, *out;
    struct import_log_opts o;
    struct import_elastisim_report r;

    snprintf(name, sizeof name, "nu%d.csv", n);
    in = tu_write(name, text);
    snprintf(name, sizeof name, "out%d.trace", n++);
    out = tu_tmp(name);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    if (import_elastisim(in, out, NULL, &o, NULL, rep ? rep : &r, e) != 0) {
        ck_assert_int_eq(tu_exists(out), 0);
        return NULL;
    }
    return tu_trace_text(out, o.origin, NULL, names);
}

#define HEADER "Time,Node,State,Running jobs,Expected jobs\n"

/* Four nodes listed free at time 0; job 0 on node_0 and node_1 over
 * [10.2, 40); job 1 reserves node_3 at 25 while starting on node_2, then
 * runs on both from 30 to 55.7; job 2 takes node_0 at 60, the last row.
 * Busy periods (times rounded): node_0 and node_1 [10, 40); node_2 and
 * node_3 [25, 56) (reserved counts as busy); node_0 from 60, the end.
 *
 *   0: all idle; 10: 0, 1 leave; 25: 2, 3 leave; 40: 0, 1 join;
 *   56: 2, 3 join; 60: the end (node_0 busy from then: no time left).
 *
 * Idle node-seconds: 4x10 + 2x15 + 0x15 + 2x16 + 4x4 = 118. */
#define ROWS                                                                   \
    HEADER "0,node_0,free,none,none\n"                                         \
           "0,node_1,free,none,none\n"                                         \
           "0,node_2,free,none,none\n"                                         \
           "0,node_3,free,none,none\n"                                         \
           "10.2,node_0,allocated,0,none\n"                                    \
           "10.2,node_1,allocated,0,none\n"                                    \
           "25,node_2,allocated,1,none\n"                                      \
           "25,node_3,reserved,none,1\n"                                       \
           "30,node_3,allocated,1,none\n"                                      \
           "40,node_0,free,none,none\n"                                        \
           "40,node_1,free,none,none\n"                                        \
           "55.7,node_2,free,none,none\n"                                      \
           "55.7,node_3,free,none,none\n"                                      \
           "60,node_0,allocated,2,none\n"

START_TEST(test_rows)
{
    struct import_elastisim_report r;
    struct bfs_error e;
    char names[256];
    char *t = convert(ROWS, NULL, &r, names, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1 +2 +3\n"
                        "10 -0 -1\n"
                        "25 -2 -3\n"
                        "40 +0 +1\n"
                        "56 +2 +3\n"
                        "60\n");
    ck_assert_str_eq(names, "node_0 node_1 node_2 node_3");
    ck_assert_uint_eq(r.rows, 14);
    ck_assert_uint_eq(r.reserved, 1);
    ck_assert_uint_eq(r.allocated, 5);
    ck_assert_uint_eq(r.periods, 4);
    ck_assert_uint_eq(r.open_at_end, 1);
    ck_assert_uint_eq(r.log.idle_node_s, 118);
    free(t);

    /* --origin and --end: node_0 busy from 60 to the end at 70, where its
     * period ends (it joins at the last event, which offers no time) */
    t = convert(ROWS, "origin=1612988400;end=1612988470", &r, names, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1 +2 +3\n"
                        "10 -0 -1\n"
                        "25 -2 -3\n"
                        "40 +0 +1\n"
                        "56 +2 +3\n"
                        "60 -0\n"
                        "70 +0\n");
    free(t);
}
END_TEST

static void expect_error(const char *text, const char *want)
{
    struct bfs_error e;
    char names[256];
    char *t = convert(text, NULL, NULL, names, &e);

    ck_assert_msg(t == NULL, "converted, expected '%s'", want);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
}

START_TEST(test_errors)
{
    expect_error(HEADER "0,a,free,none,none\n"
                        "20,a,allocated,1,none\n"
                        "10,a,free,none,none\n",
                 ".csv:4: Time 10 is before the previous row's");
    expect_error(HEADER "0,a,busy,none,none\n",
                 ".csv:2: unknown State 'busy' (free, allocated or reserved)");
    expect_error(HEADER "x,a,free,none,none\n",
                 ".csv:2: Time is not a number: 'x'");
    expect_error(HEADER "-5,a,free,none,none\n", ".csv:2: Time -5 is out");
    expect_error(HEADER "0,a b,free,none,none\n",
                 ".csv:2: node name 'a b' is empty or holds a blank");
    expect_error(HEADER "0,a,free,none\n",
                 ".csv:2: 4 fields, but the header has 5");
    expect_error("Time,Host,State\n0,a,free\n",
                 ".csv:1: no column Node in the header");
    expect_error("", "empty file");
    expect_error(HEADER "0,a,free,none,none\n", "nothing to convert");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_elastisim");
    TCase *tc = tcase_create("import_elastisim");

    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
