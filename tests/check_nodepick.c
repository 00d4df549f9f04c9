/* check_nodepick.c - the --node-pick rules.
 *
 * Parsing; the predictor against sums by hand; and a six-node replay
 * whose maps after each decision were worked out by hand for every rule
 * (the random rule's with an independent Python model of the documented
 * generator), with the predicted rule's error; and the preemptions
 * avoided against longest-idle on two small traces, by hand.
 */
#include "config.h"

#include "engine/nodepick.h"
#include "engine/replay.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

START_TEST(test_parse)
{
    struct nodepick p;

    nodepick_default(&p);
    ck_assert_int_eq(p.kind, NODEPICK_LONGEST_IDLE);
    ck_assert_str_eq(p.name, "longest-idle");
    ck_assert_int_eq(nodepick_parse("lowest-index", &p), 0);
    ck_assert_int_eq(p.kind, NODEPICK_LOWEST_INDEX);
    ck_assert_int_eq(nodepick_parse("oracle", &p), 0);
    ck_assert_int_eq(p.kind, NODEPICK_ORACLE);
    ck_assert_int_eq(nodepick_parse("predicted", &p), 0);
    ck_assert_int_eq(p.kind, NODEPICK_PREDICTED);
    ck_assert_int_eq(nodepick_parse("random:0042", &p), 0);
    ck_assert_int_eq(p.kind, NODEPICK_RANDOM);
    ck_assert(p.seed == 42);
    ck_assert_str_eq(p.name, "random:42");
    ck_assert_int_eq(nodepick_parse("random", &p), -1);
    ck_assert_int_eq(nodepick_parse("random:x", &p), -1);
    ck_assert_int_eq(nodepick_parse("Oracle", &p), -1);
    ck_assert_int_eq(nodepick_parse("", &p), -1);
    ck_assert_str_eq(p.name, "random:42");
}
END_TEST

/* Holes of 100, 130, 600 and 4000 s (bins of 60 s: 1, 2, 10, 66). */
START_TEST(test_predict)
{
    struct nodepick_hist h;

    nodepick_hist_init(&h);
    /* nothing seen: a node is predicted to stay as long as it has been */
    ck_assert_double_eq(nodepick_predict(&h, 0), 0.0);
    ck_assert_double_eq(nodepick_predict(&h, 300), 300.0);
    nodepick_hist_add(&h, 100);
    nodepick_hist_add(&h, 130);
    nodepick_hist_add(&h, 600);
    nodepick_hist_add(&h, 4000);
    /* age 0: all four, mean 4830 / 4 = 1207.5 */
    ck_assert_double_eq(nodepick_predict(&h, 0), 1207.5);
    /* age 90 (bin 1): all four again, 1207.5 - 90 */
    ck_assert_double_eq(nodepick_predict(&h, 90), 1117.5);
    /* age 125 (bin 2): 130, 600, 4000: mean 1576.666..., less 125 */
    ck_assert_double_eq_tol(nodepick_predict(&h, 125), 4730.0 / 3 - 125, 1e-9);
    /* age 700 (bin 11): 4000 alone: 3300 */
    ck_assert_double_eq(nodepick_predict(&h, 700), 3300.0);
    /* age 3990 (bin 66, the 4000 s hole's own): 10 */
    ck_assert_double_eq(nodepick_predict(&h, 3990), 10.0);
    /* age 4010, same bin: the mean is below the age: 0 */
    ck_assert_double_eq(nodepick_predict(&h, 4010), 0.0);
    /* age 5000: no hole that long: 5000 */
    ck_assert_double_eq(nodepick_predict(&h, 5000), 5000.0);
    nodepick_hist_release(&h);
}
END_TEST

/* Six nodes; T = 1612988400.  The trace:
 *   T      n2 n3 become idle      T+300  n0 taken back
 *   T+50   n1                     T+350  n1
 *   T+100  n3 taken back          T+400  n2
 *   T+250  n0 n4 n5 idle          T+500  n5
 *                                 T+600  n4,  T+700 n3 idle
 * --start T+200 --end T+280, default mode.  The pool at t0 is [n1 n2]
 * (node order), then n0 n4 n5 are appended at T+250.  Jobs (no rescale
 * cost, O = P = c per node): A (c 1, Jmax 1) at T+250, B (c 10, Jmax 2)
 * at T+270, C (c 100, Jmax 4) at T+280.  Counts: evt 1 (T+250) A 1;
 * evt 2 (T+270) A 1, B 2; evt 3 (T+280) A 0, B 1, C 4 (410 against 320
 * for B 2, C 3).
 *
 * What each rule knows.  True remaining idle time: at T+250 n0 50, n1
 * 100, n2 150, n4 350, n5 250; at T+270 30 80 130 330 230; at T+280 20
 * 70 120 320 220.  Predicted: the holes seen are n3's (T to T+100:
 * 100 s, bin 1).  n2 (idle since T) and n1 (since T+50) are older than
 * any hole: predicted their age, 250 and 200 at T+250, 270 and 220 at
 * T+270, 280 and 230 at T+280.  n0 n4 n5 (since T+250) are in bin 0:
 * 100 - age, so 100, 80, 70.
 *
 * evt 1, A takes one node: longest-idle n1 (position 0), lowest-index
 *   n0, oracle n4 (350), predicted n2 (250).
 * evt 2, B takes two: longest-idle n2 n0 (positions 1, 2), lowest-index
 *   n1 n2, oracle n5 n2 (230, 130), predicted n1 (220) and n0 (80, tied
 *   with n4 and n5: pool position 2 first).
 * evt 3, A gives back its node, B one of two (release order), C takes
 *   four:  longest-idle: B keeps n0 (gives n2, position 1, first);
 *   lowest-index: B has n1 n2, gives n1; oracle: B has n5 n2, gives n2
 *   (120 < 220), the sooner to leave; predicted: B has n1 n0, gives n0
 *   (70 < 230).  C takes every node left free.
 * random:5: the Python model gives the take orders (pool positions)
 *   evt 1: 0 3 1 2 4, evt 2: 1 4 2 3 0, evt 3: 4 0 1 3 2.
 * Maps: owner of n0..n5 (0 = A, 1 = B, 2 = C, -1 free). */
static const struct {
    const char *rule;
    int map[3][6];
    double mae;
} cases[] = {
    {"longest-idle",
     {{-1, 0, -1, -1, -1, -1}, {1, 0, 1, -1, -1, -1}, {1, 2, 2, -1, 2, 2}},
     0},
    {"lowest-index",
     {{0, -1, -1, -1, -1, -1}, {0, 1, 1, -1, -1, -1}, {2, 2, 1, -1, 2, 2}},
     0},
    {"oracle",
     {{-1, -1, -1, -1, 0, -1}, {-1, -1, 1, -1, 0, 1}, {2, 2, 2, -1, 2, 1}},
     0},
    /* the nodes taken: n2 at evt 1 (predicted 250, true 150), n1 (220,
     * 80) and n0 (80, 30) at evt 2, n2 (280, 120), n0 (70, 20), n4 (70,
     * 320) and n5 (70, 220) at evt 3: errors 100 140 50 160 50 250 150,
     * mean 900 / 7 */
    {"predicted",
     {{-1, -1, 0, -1, -1, -1}, {1, 1, 0, -1, -1, -1}, {2, 1, 2, -1, 2, 2}},
     900.0 / 7},
    {"random:5",
     {{-1, 0, -1, -1, -1, -1}, {-1, 0, 1, -1, -1, 1}, {2, 2, 1, -1, 2, 2}},
     0},
};

struct maps {
    int n;
    size_t evt[8];
    int map[8][6];
};

static void record_map(void *arg, size_t evt, const int32_t *owner,
                       size_t n_nodes)
{
    struct maps *m = arg;

    ck_assert_uint_eq(n_nodes, 6);
    ck_assert_int_lt(m->n, 8);
    m->evt[m->n] = evt;
    for (size_t k = 0; k < 6; k++)
        m->map[m->n][k] = owner[k];
    m->n++;
}

START_TEST(test_maps_by_hand)
{
    const char *trace = tu_write("np.trace", "bfsim-trace 1\n"
                                             "node n0\nnode n1\nnode n2\n"
                                             "node n3\nnode n4\nnode n5\n"
                                             "1612988400 +2 +3\n"
                                             "1612988450 +1\n"
                                             "1612988500 -3\n"
                                             "1612988650 +0 +4 +5\n"
                                             "1612988700 -0\n"
                                             "1612988750 -1\n"
                                             "1612988800 -2\n"
                                             "1612988900 -5\n"
                                             "1612989000 -4\n"
                                             "1612989100 +3\n");
    const char *jobs = tu_write("np.jobs", "# bfsim-jobs 1\n"
                                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,"
                                           "curve\n"
                                           "A,1612988650,1,1,1e9,0,0,0:0:0 "
                                           "1:1:1\n"
                                           "B,1612988670,1,2,1e9,0,0,0:0:0 "
                                           "1:10:10 2:20:20\n"
                                           "C,1612988680,1,4,1e9,0,0,0:0:0 "
                                           "1:100:100 4:400:400\n");
    struct maps m;
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    memset(&m, 0, sizeof m);
    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.has_start = o.has_end = 1;
    o.start = 1612988600;
    o.end = 1612988680;
    o.map = record_map;
    o.map_arg = &m;
    ck_assert_int_eq(nodepick_parse(cases[_i].rule, &o.node_pick), 0);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(m.n, 3);
    for (int d = 0; d < 3; d++) {
        char got[64] = "", want[64] = "";
        ck_assert_uint_eq(m.evt[d], (size_t)d + 1);
        for (int k = 0; k < 6; k++) {
            snprintf(got + strlen(got), sizeof got - strlen(got), " %d",
                     m.map[d][k]);
            snprintf(want + strlen(want), sizeof want - strlen(want), " %d",
                     cases[_i].map[d][k]);
        }
        ck_assert_msg(strcmp(got, want) == 0, "%s, evt %d: map%s, want%s",
                      cases[_i].rule, d + 1, got, want);
    }
    ck_assert_double_eq_tol(st.node_pick_mae, cases[_i].mae, 1e-9);
    ck_assert_str_eq(st.node_pick, cases[_i].rule);
}
END_TEST

/* ---- preemptions avoided against longest-idle ------------------------- */

/* Default mode, dp; one job A (1..1 node, O = P = 1 sample/s, Tcdw 5 s,
 * work enough to outlast the trace).  T = 1612988400.
 *
 * Trace 1: n0 n1 n2 idle at T; n0 leaves at T+10, n2 at T+60, n1 at
 * T+100; n0 comes back at T+200 (the last row).  A is submitted at T.
 *   longest-idle: T: A takes n0 (position 0).  T+10: n0 leaves, A is
 *     preempted (1), pauses 5 s and gets n1 (the pool's first), rate 1
 *     after the decision: cost 5 x 1 = 5.  T+60: n2 leaves, A unhurt.
 *     T+100: n1 leaves, A preempted (2), the pool is empty, rate 0:
 *     cost 0.  T+200: A takes n0.  2 preemptions, cost 5.
 *   lowest-index: T: n0 (index 0), then as longest-idle: 2, 5.
 *   oracle: T: remaining n0 10, n1 100, n2 60: A takes n1.  T+10, T+60:
 *     A unhurt.  T+100: n1 leaves, preempted (1), pool empty, cost 0.
 *     1 preemption, cost 0.
 *   So oracle avoids 2 - 1 = 1 preemption and 5 - 0 = 5 samples;
 *   lowest-index 0 and 0; longest-idle is 0 by definition.
 * Trace 2: n1 idle at T, n0 joins at T+5 (pool n1 n0), n0 leaves at
 * T+20, comes back at T+100.  A is submitted at T+5.
 *   longest-idle: A takes n1 and is never preempted: 0, 0.
 *   lowest-index: A takes n0; T+20: preempted, pauses 5 s, gets n1 at
 *     rate 1: 1 preemption, cost 5.  Avoided: 0 - 1 = -1 and -5. */
static const struct {
    int trace;
    const char *rule;
    size_t pre;
    double cost;
    int64_t avoided;
    double cost_avoided;
} avoided_cases[] = {
    {1, "longest-idle", 2, 5, 0, 0},   {1, "lowest-index", 2, 5, 0, 0},
    {1, "oracle", 1, 0, 1, 5},         {2, "longest-idle", 0, 0, 0, 0},
    {2, "lowest-index", 1, 5, -1, -5},
};

START_TEST(test_avoided_by_hand)
{
    const char *trace =
        avoided_cases[_i].trace == 1
            ? tu_write("av1.trace", "bfsim-trace 1\n"
                                    "node n0\nnode n1\nnode n2\n"
                                    "1612988400 +0 +1 +2\n"
                                    "1612988410 -0\n"
                                    "1612988460 -2\n"
                                    "1612988500 -1\n"
                                    "1612988600 +0\n")
            : tu_write("av2.trace", "bfsim-trace 1\n"
                                    "node n0\nnode n1\n"
                                    "1612988400 +1\n"
                                    "1612988405 +0\n"
                                    "1612988420 -0\n"
                                    "1612988500 +0\n");
    char text[256];
    const char *jobs;
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    snprintf(text, sizeof text,
             "# bfsim-jobs 1\n"
             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
             "A,%d,1,1,1e9,0,5,0:0:0 1:1:1\n",
             avoided_cases[_i].trace == 1 ? 1612988400 : 1612988405);
    jobs =
        tu_write(avoided_cases[_i].trace == 1 ? "av1.jobs" : "av2.jobs", text);
    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    /* from T, as worked out above (by default trace 2 would start at A's
     * submission, T+5, with the pool n0 n1 in index order) */
    o.has_start = 1;
    o.start = 1612988400;
    ck_assert_int_eq(nodepick_parse(avoided_cases[_i].rule, &o.node_pick), 0);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(st.preemptions, avoided_cases[_i].pre);
    ck_assert_double_eq(st.preempt_cost, avoided_cases[_i].cost);
    ck_assert_int_eq(st.preemptions_avoided, avoided_cases[_i].avoided);
    ck_assert_double_eq(st.preempt_cost_avoided,
                        avoided_cases[_i].cost_avoided);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("nodepick");
    TCase *tc = tcase_create("rules");

    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_predict);
    tcase_add_loop_test(tc, test_maps_by_hand, 0,
                        (int)(sizeof cases / sizeof *cases));
    tcase_add_loop_test(tc, test_avoided_by_hand, 0,
                        (int)(sizeof avoided_cases / sizeof *avoided_cases));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
