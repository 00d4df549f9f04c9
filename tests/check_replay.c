/* check_replay.c - golden tests of the BFTrainer-compatible replay.
 *
 * Each test replays a small hand-made trace and job set and compares the
 * step log with rows worked out by hand in the comments (tools/DESIGN.md,
 * "Replay semantics: BFTrainer-compatible mode", steps 1-9, and the
 * even-share rule).  T = 1612988400 = 2021-02-10 20:20:00 UTC.
 */
#include "config.h"

#include "alloc/instance.h"
#include "formats/jobs.h"
#include "engine/completion.h"
#include "engine/replay.h"
#include "engine/replay_impl.h"
#include "solver/solver.h"
#include "testreplay.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct replay_stats run_compat(const char *trace, const char *jobs,
                                      const char *steps, const char *start,
                                      const char *nodes, int max_jobs)
{
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    int rc;

    replay_opts_default(&o);
    o.mode = REPLAY_COMPAT;
    o.alloc.name = "even";
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.max_jobs = max_jobs;
    if (start) {
        o.has_start = 1;
        ck_assert_int_eq(bfs_time_parse(start, &o.start), 0);
    }
    if (nodes) {
        ck_assert_int_eq(sscanf(nodes, "%zu:%zu", &o.node_skip, &o.node_count),
                         2);
    }
    bfs_error_clear(&e);
    rc = tu_replay(&o, steps, &st, &e);
    ck_assert_msg(rc == 0, "replay failed: %s", e.msg);
    return st;
}

#define HEADER                                                                 \
    "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,nNrun,"      \
    "PreCost\n"

/* The job log's columns without features. */
#define JOBLOG_HEADER                                                          \
    "job,tsub,admitted,first_start,finished,completion_s,samples,"             \
    "node_seconds,rescales,preemptions,paused_s,lost_rescale,lost_preempt,"    \
    "starts\n"

/* Three nodes, two jobs.  A: Tsub T, Jmin 1, Jmax 4, Tcup 18, Tcdw 12,
 * P = O = 0:0 1:100 2:180 4:300 (so P(3) = 180 + (300-180)/2 = 240).
 * B: Tsub T+50, Jmin 2, Jmax 4, P = 0:0 2:150 4:250 (P(3) = 200).
 *
 * t0 = T (the trace's first time, nothing idle): A admitted, no node,
 * rate 0, start-up cost 0.
 * evt1 T+10, n0 joins: Thr 0.  Even, N=1, J=1: q=1 is not > Jmin 1, so
 *   quota 0; the leftover 1 raises A to 1.  A takes n0; its cost is
 *   P(0)*18 = 0; rate P(1) = 100.
 * evt2 T+30, n1 n2 join: progress 20*100 - 0 = 2000.  q=3 > 1: quota 3;
 *   A takes n1, n2; cost P(1)*18 = 1800; rate P(3) = 240.
 * evt3 T+60, n0 leaves: 30*240 - 1800 = 5400, preemption 12*240 = 2880,
 *   so Thr 2520 (A has 4520).  B admitted.  N=2, J=2, q=1: both quotas 0;
 *   the leftover 2 goes to A (0+2 >= 1), none to B.  A keeps n1 n2: no
 *   cost; rates 180 and 0.
 * evt4 T+100, n0 joins (appended after n1 n2): 40*180 = 7200.  N=3, q=1:
 *   quotas 0; leftover 3 to A.  A (2 nodes) takes n0; cost P(2)*18 =
 *   3240; rate 240.
 */
#define BASIC_TRACE                                                            \
    "bfsim-trace 1\n"                                                          \
    "node n0\nnode n1\nnode n2\n"                                              \
    "1612988400\n"                                                             \
    "1612988410 +0\n"                                                          \
    "1612988430 +1 +2\n"                                                       \
    "1612988460 -0\n"                                                          \
    "1612988500 +0\n"

#define BASIC_ROWS                                                             \
    HEADER                                                                     \
    "2021-02-10 20:20:10,0.000000,100.000000,0.000000,"                        \
    "1,0,0,1,1,1,1,1,0.000000\n"                                               \
    "2021-02-10 20:20:30,2000.000000,240.000000,1800.000000,"                  \
    "2,0,0,2,1,3,1,3,0.000000\n"                                               \
    "2021-02-10 20:21:00,2520.000000,180.000000,0.000000,"                     \
    "3,1,1,0,2,2,1,2,2880.000000\n"                                            \
    "2021-02-10 20:21:40,7200.000000,240.000000,3240.000000,"                  \
    "4,0,0,1,2,3,1,3,0.000000\n"

START_TEST(test_compat_basic)
{
    const char *trace = tu_write("basic.trace", BASIC_TRACE);
    const char *jobs =
        tu_write("basic.jobs", "# bfsim-jobs 1\n"
                               "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                               "A,1612988400,1,4,1000000000,18,12,0:0:0 "
                               "1:100:100 2:180:180 4:300:300\n"
                               "B,1612988450,2,4,10000,10,5,0:0:0 2:150:150 "
                               "4:250:250\n");
    const char *steps = tu_tmp("basic.csv");
    struct replay_stats st = run_compat(trace, jobs, steps, NULL, NULL, 10);
    char *got = tu_slurp(steps);

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, BASIC_ROWS);
    /* Summary: 4 events; 0+2000+2520+7200 samples; rescale cost charged
     * 0 + 1800 (the 3240 decided at evt4 is never charged); pool 0,1,3,2
     * nodes over 10,20,30,40 s = 190 node-s, all of it allocated. */
    ck_assert_uint_eq(st.events, 4);
    ck_assert_uint_eq(st.jobs_admitted, 2);
    ck_assert_uint_eq(st.jobs_finished, 0);
    ck_assert_double_eq(st.samples_trained, 11720.0);
    ck_assert_double_eq(st.rescale_cost, 1800.0);
    ck_assert_double_eq(st.preempt_cost, 2880.0);
    ck_assert_double_eq(st.idle_node_seconds, 190.0);
    ck_assert_double_eq(st.allocated_node_seconds, 190.0);
    ck_assert_int_eq(st.last_event_time, 1612988500);
    /* A: 0 -> 1 at evt1 is a start (from below Jmin, free), 1 -> 3 at
     * evt2 and 2 -> 3 at evt4 are rescales of a running job; B never
     * gets a node. */
    ck_assert_uint_eq(st.rescales, 2);
    ck_assert_uint_eq(st.starts, 1);
    /* What the nodes held would give at full rate, interval by interval:
     * none for 10 s, A on 1 node (P 100) for 20 s, on 3 (P 240) for 30 s,
     * on 2 (P 180) for 40 s: 2000 + 7200 + 7200 = 16400 samples; the
     * step log's Thr adds up to 11720 of them. */
    ck_assert_double_eq(st.samples_ideal, 16400.0);
    ck_assert_double_eq_tol(st.node_efficiency, 11720.0 / 16400.0, 1e-15);
    free(got);
}
END_TEST

/* Four nodes, --nodes 1:3 (n1 n2 n3; n0 is outside), --start T, at most
 * two jobs at once.  Jobs:
 *   X: Tsub T,      Jmin 1, Jmax 2, Pmax 1000, Tcup 2, Tcdw 1, P 1:10 2:15
 *   Y: Tsub T,      Jmin 1, Jmax 1, Pmax 50,   Tcup 0, Tcdw 0, P 1:5
 *   Z: Tsub T+5,    Jmin 1, Jmax 3, Pmax 100,  Tcup 1, Tcdw 1, P 1:4 3:12
 *   W: Tsub T+1000, Jmin 1, Jmax 1, Pmax 10,   Tcup 0, Tcdw 0, P 1:1
 *
 * t0 = T: n0 n1 n2 idle since T-10, so the pool is [n1 n2].  X and Y
 *   admitted (Z not yet submitted).  Round-robin: n1 to X, n2 to Y.  X
 *   rate 10, start-up cost 10*2 = 20; Y rate 5, cost 0.
 * T+20: only n0 changes, outside the subset: no event.
 * evt1 T+40, n3 joins: X 40*10-20 = 380; Y 40*5 = 200 >= 50: Y done,
 *   overshoot 150 removed, progress 50; n2 freed.  Thr 430.  Pool
 *   [n1 n2 n3]; Z admitted.  N=3, J=2, q=1: quotas 0; leftover: X +2
 *   (left 1), Z +1.  X takes n2, Z takes n3.  Costs X P(1)*2 = 20, Z 0;
 *   rates 15 and 4: Rate 19.
 * evt2 T+50, n1 n2 n3 leave: X 10*15-20 = 130, Z 40.  X loses n1 (and n2):
 *   pays 1*15 once -> 115; Z loses n3: pays 4 -> 36.  Npre 2, PreCost 19,
 *   Thr 151.  The pool is empty: rates and costs become 0.
 * evt3 T+70, n1 joins: no progress.  N=1, q=0: leftover 1 to X.  X takes
 *   n1, cost P(0)*2 = 0, rate 10.
 * evt4 T+200, n2 joins: X 130*10 = 1300, X has 495+1300 = 1795 >= 1000:
 *   done, progress 1300-795 = 505; n1 freed.  Pool [n1 n2], Z alone:
 *   q=2 > 1, quota 2: Z takes n1 n2, cost P(0)*1 = 0, rate P(2) = 8.
 * evt5 T+210, n2 leaves: Z 10*8 = 80, preempted 1*8 -> 72; Z has
 *   36+72 = 108 >= 100: done, progress 64.  No job left but W is still to
 *   come: the row shows the stale nJrun of the last decision (1).
 * evt6 T+1000, n3 joins: no job, Thr 0.  W admitted; N=2, q=2 > 1: quota
 *   min(2, 1) = 1; W takes n1; rate 1.
 * evt7 T+1020, n3 leaves (free): W 20*1 = 20 >= 10: done, progress 10.
 *   No job left and none to come: the last row, with Rate = W's rate 1.
 * T+1100 is never reached.
 */
START_TEST(test_compat_lifecycle)
{
    const char *trace = tu_write("life.trace", "bfsim-trace 1\n"
                                               "node n0\nnode n1\nnode n2\n"
                                               "node n3\n"
                                               "1612988390 +0 +1 +2\n"
                                               "1612988420 -0\n"
                                               "1612988440 +3\n"
                                               "1612988450 -1 -2 -3\n"
                                               "1612988470 +1\n"
                                               "1612988600 +2\n"
                                               "1612988610 -2\n"
                                               "1612989400 +3\n"
                                               "1612989420 -3\n"
                                               "1612989500 +3\n");
    const char *jobs =
        tu_write("life.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "X,1612988400,1,2,1000,2,1,0:0:0 1:10:10 "
                              "2:15:15\n"
                              "Y,1612988400,1,1,50,0,0,0:0:0 1:5:5\n"
                              "Z,1612988405,1,3,100,1,1,0:0:0 1:4:4 3:12:12\n"
                              "W,1612989400,1,1,10,0,0,0:0:0 1:1:1\n");
    const char *steps = tu_tmp("life.csv");
    struct replay_stats st =
        run_compat(trace, jobs, steps, "2021-02-10 20:20:00", "1:3", 2);
    char *got = tu_slurp(steps);

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, HEADER
                     "2021-02-10 20:20:40,430.000000,19.000000,20.000000,"
                     "1,0,0,1,2,3,2,3,0.000000\n"
                     "2021-02-10 20:20:50,151.000000,0.000000,0.000000,"
                     "2,3,2,0,2,0,0,0,19.000000\n"
                     "2021-02-10 20:21:10,0.000000,10.000000,0.000000,"
                     "3,0,0,1,2,1,1,1,0.000000\n"
                     "2021-02-10 20:23:20,505.000000,8.000000,0.000000,"
                     "4,0,0,1,1,2,1,2,0.000000\n"
                     "2021-02-10 20:23:30,64.000000,0.000000,0.000000,"
                     "5,1,1,0,0,1,1,0,8.000000\n"
                     "2021-02-10 20:36:40,0.000000,1.000000,0.000000,"
                     "6,0,0,1,1,2,1,1,0.000000\n"
                     "2021-02-10 20:37:00,10.000000,1.000000,0.000000,"
                     "7,1,0,0,0,1,0,0,0.000000\n");
    /* Every job finished, so the samples add up to the total work 1160.
     * Rescale cost charged: 20 (start-up) + 20 (decided at evt1).
     * Preemption: 19 + 8.  Pool over time: 2 nodes for 40 s, 3 for 10,
     * 0 for 20, 1 for 130, 2 for 10, 1 for 790, 2 for 20 = 1090 node-s;
     * in use: 2x40 + 3x10 + 1x130 + 2x10 + 0x790 + 1x20 = 280. */
    ck_assert_uint_eq(st.events, 7);
    ck_assert_uint_eq(st.jobs_admitted, 4);
    ck_assert_uint_eq(st.jobs_finished, 4);
    ck_assert_double_eq(st.samples_trained, 1160.0);
    ck_assert_double_eq(st.rescale_cost, 40.0);
    ck_assert_double_eq(st.preempt_cost, 27.0);
    ck_assert_double_eq(st.idle_node_seconds, 1090.0);
    ck_assert_double_eq(st.allocated_node_seconds, 280.0);
    ck_assert_int_eq(st.last_event_time, 1612989420);
    /* At full rate, with the counts held in each interval (after the
     * previous decision): X 1 node (10) and Y 1 (5) for 40 s = 600; X 2
     * (15) and Z 1 (4) for 10 s = 190; nothing for 20 s; X 1 (10) for
     * 130 s = 1300; Z 2 (8, between 4 at 1 and 12 at 3) for 10 s = 80;
     * nothing for 790 s; W 1 (1) for 20 s = 20.  2190 samples in all. */
    ck_assert_double_eq(st.samples_ideal, 2190.0);
    ck_assert_double_eq_tol(st.node_efficiency, 1160.0 / 2190.0, 1e-15);
    /* Completion times from Tsub: Y 40, X 200, Z 205 (Tsub T+5), W 20:
     * mean 465 / 4, median (nearest rank 2 of 4) 40, p95 (rank 4) 205;
     * makespan from the first Tsub T to W's end T+1020. */
    ck_assert_double_eq(st.jct_mean, 116.25);
    ck_assert_double_eq(st.jct_median, 40.0);
    ck_assert_double_eq(st.jct_p95, 205.0);
    ck_assert_int_eq(st.makespan, 1020);
    free(got);
}
END_TEST

/* The initial map deals the idle nodes round-robin: with 5 idle nodes and
 * jobs P (Jmax 1) and Q (Jmin 3): P is dealt n0 n2 n4 and keeps only the
 * last (its first extra nodes are dropped); Q is dealt n1 n3, below Jmin
 * 3, and gets none.  P: rate 7, start-up cost 7*3 = 21.
 * evt1 T+10, n5 joins: P 10*7 - 21 = 49.  Even, N=6, J=2, q=3: P has
 * 3 > Jmin 1, quota min(3, Jmax 1) = 1; Q has 3 > Jmin 3 false, quota 0.
 * Leftover 5: P is at Jmax; Q +3 (min(Jmax 3, 5)) reaches Jmin 3: Q=3.
 * P keeps n4.  Q takes the lowest-position free nodes n0 n1 n2, cost 0,
 * rate P(3) = 30.  Rate 37. */
START_TEST(test_compat_initial_map)
{
    const char *trace =
        tu_write("init.trace", "bfsim-trace 1\n"
                               "node n0\nnode n1\nnode n2\nnode n3\n"
                               "node n4\nnode n5\n"
                               "1612988400 +0 +1 +2 +3 +4\n"
                               "1612988410 +5\n");
    const char *jobs =
        tu_write("init.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "P,1612988400,1,1,1000,3,1,0:0:0 1:7:7\n"
                              "Q,1612988400,3,3,1000,2,1,0:0:0 3:30:30\n");
    const char *steps = tu_tmp("init.csv");
    char *got;

    run_compat(trace, jobs, steps, NULL, NULL, 10);
    got = tu_slurp(steps);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got,
                     HEADER "2021-02-10 20:20:10,49.000000,37.000000,0.000000,"
                            "1,0,0,1,2,6,2,4,0.000000\n");
    free(got);
}
END_TEST

/* A bad job file: the replay fails, names the file and line, and leaves
 * no step log behind. */
START_TEST(test_bad_input_leaves_nothing)
{
    const char *trace = tu_write("bad.trace", "bfsim-trace 1\nnode n0\n"
                                              "1612988400 +0\n");
    const char *jobs =
        tu_write("bad.jobs", "# bfsim-jobs 1\n"
                             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                             "A,1612988400,5,4,1000,1,1,0:0:0 4:1:1\n");
    const char *steps = tu_tmp("bad.csv");
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.mode = REPLAY_COMPAT;
    o.trace_path = trace;
    o.jobs_path = jobs;
    bfs_error_clear(&e);
    ck_assert_int_lt(tu_replay(&o, steps, &st, &e), 0);
    ck_assert_msg(strstr(e.msg, "bad.jobs:3") != NULL, "message: %s", e.msg);
    ck_assert_int_eq(tu_exists(steps), 0);
}
END_TEST

/* The published replayer's non-MILP run on its own data (issue 2's worked
 * example): --nodes 10 --start '2021-02-10 20:21:15'.  evt 1 at 20:22:36:
 * one node joins, the only job takes it, Rate 2831.  evt 2 at 20:24:07:
 * the node leaves: Thr = 91 x 2831 - 12 x 2831 = 223649, Npre 1,
 * PreCost 33972. */
START_TEST(test_compat_summit_first_rows)
{
    const char *trace = tu_src("traces/summit-2021-02.trace.gz");
    const char *jobs = tu_src("datasets/hps-shufflenet-10J.jobs");
    const char *steps = tu_tmp("summit.csv");
    const char *row1 = "2021-02-10 20:22:36,0.000000,2831.000000,0.000000,"
                       "1,0,0,1,1,1,1,1,0.000000\n";
    const char *row2_want = "2021-02-10 20:24:07,223649.000000,0.000000,"
                            "0.000000,2,1,1,0,1,0,0,0,33972.000000\n";
    char *got, *row2;

    if (!tu_exists(trace) || !tu_exists(jobs)) {
        fprintf(stderr, "skipped: bundled Summit data not present\n");
        return;
    }
    run_compat(trace, jobs, steps, "2021-02-10 20:21:15", "0:10", 10);
    got = tu_slurp(steps);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(strncmp(got + strlen(HEADER), row1, strlen(row1)) == 0,
                  "row 1: %.90s", got + strlen(HEADER));
    row2 = strchr(got + strlen(HEADER), '\n') + 1;
    ck_assert_msg(strncmp(row2, row2_want, strlen(row2_want)) == 0,
                  "row 2: %.90s", row2);
    free(got);
}
END_TEST

/* The default mode on two nodes, even-share allocator.
 *   A: Tsub T,    Jmin 1, Jmax 2, Pmax 1000, Tcup 5, Tcdw 3, P 1:10 2:18
 *   B: Tsub T+50, Jmin 1, Jmax 1, Pmax 100,  Tcup 0, Tcdw 0, P 1:4
 * t0 = T, n0 idle: A admitted and given n0 (starting is free), rate 10.
 * evt1 T+20, n1 joins: A did 20 x 10 = 200.  Even gives A 2 nodes: it
 *   pauses Tcup = 5 s (until T+25); rate 18, so ReScost 5 x 18 = 90.
 * evt2 T+23, n1 leaves, during the pause: no progress (3 s paused, 54
 *   samples lost to rescaling).  A is preempted: the pause is extended
 *   to T+26 (not added), 1 s more; A keeps n0, rate 10, so PreCost
 *   1 x 10 = 10.
 * evt3 T+50, n1 joins and B arrives at the same second: A pauses 2 s
 *   (rescale, 20 lost) and 1 s (preemption, 10 lost), then runs 24 s: 240,
 *   A has 440.  Even, N=2, J=2, q=1: quotas 0, the leftover 2 to A; A
 *   pauses 5 s again (until T+55), rate 18, ReScost 90; B gets nothing.
 * evt4 T+87: A's completion between trace rows: after the pause it needs
 *   560 / 18 = 31.1 s: T+55+31.1 = T+86.1, so the event is at T+87 and A
 *   trains 560.  B takes n0 (N=2, q=2 > 1: min(2, Jmax 1)), rate 4.
 * evt5 T+100, n0 and n1 leave: B did 13 x 4 = 52; it loses every node
 *   (preempted, Tcdw 0: no cost); the pool is empty.
 * evt6 T+130, n0 joins: B takes it again, rate 4; it needs 48 / 4 = 12 s.
 * evt7 T+142: B done (48 samples); no job left or to come: the last row.
 */
START_TEST(test_default_lifecycle)
{
    const char *trace = tu_write("dflt.trace", "bfsim-trace 1\n"
                                               "node n0\nnode n1\n"
                                               "1612988400 +0\n"
                                               "1612988420 +1\n"
                                               "1612988423 -1\n"
                                               "1612988450 +1\n"
                                               "1612988500 -0 -1\n"
                                               "1612988530 +0\n"
                                               "1612988600 -0\n");
    const char *jobs =
        tu_write("dflt.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A,1612988400,1,2,1000,5,3,0:0:0 1:10:10 "
                              "2:18:18\n"
                              "B,1612988450,1,1,100,0,0,0:0:0 1:4:4\n");
    const char *steps = tu_tmp("dflt.csv");
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    char *got;

    replay_opts_default(&o);
    o.alloc.name = "even";
    o.trace_path = trace;
    o.jobs_path = jobs;
    bfs_error_clear(&e);
    ck_assert_msg(tu_replay(&o, steps, &st, &e) == 0, "%s", e.msg);
    got = tu_slurp(steps);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, HEADER
                     "2021-02-10 20:20:20,200.000000,18.000000,90.000000,"
                     "1,0,0,1,1,2,1,2,0.000000\n"
                     "2021-02-10 20:20:23,0.000000,10.000000,0.000000,"
                     "2,1,1,0,1,1,1,1,10.000000\n"
                     "2021-02-10 20:20:50,240.000000,18.000000,90.000000,"
                     "3,0,0,1,2,2,1,2,0.000000\n"
                     "2021-02-10 20:21:27,560.000000,4.000000,0.000000,"
                     "4,0,0,0,1,2,1,1,0.000000\n"
                     "2021-02-10 20:21:40,52.000000,0.000000,0.000000,"
                     "5,2,1,0,1,0,0,0,0.000000\n"
                     "2021-02-10 20:22:10,0.000000,4.000000,0.000000,"
                     "6,0,0,1,1,1,1,1,0.000000\n"
                     "2021-02-10 20:22:22,48.000000,0.000000,0.000000,"
                     "7,0,0,0,0,1,0,0,0.000000\n");
    /* Samples: every job's Pmax, 1100.  Lost to rescaling: 3 x 18 +
     * 2 x 10 + 5 x 18 = 164 (not ReScost's 90 + 90: the rate of the
     * first pause fell from 18 to 10 at evt2); to preemption: 1 x 10.  Pool: 1
     * node for 20 s, 2 for 3, 1 for 27, 2 for 37, 2 for 13, 0 for 30, 1 for 12
     * = 165 node-s; in use: the same but 1 (not 2) from T+87 to T+100: 152. */
    ck_assert_uint_eq(st.events, 7);
    ck_assert_uint_eq(st.jobs_finished, 2);
    ck_assert_double_eq_tol(st.samples_trained, 1100.0, 1e-9);
    ck_assert_double_eq_tol(st.rescale_cost, 164.0, 1e-9);
    ck_assert_double_eq_tol(st.preempt_cost, 10.0, 1e-9);
    ck_assert_double_eq(st.idle_node_seconds, 165.0);
    ck_assert_double_eq(st.allocated_node_seconds, 152.0);
    ck_assert_int_eq(st.last_event_time, 1612988542);
    /* Starts: A at t0 (0 -> 1), B at evt4 and again at evt6 (0 -> 1);
     * rescales of a running job: A 1 -> 2 at evt1 and evt3. */
    ck_assert_uint_eq(st.starts, 3);
    ck_assert_uint_eq(st.rescales, 2);
    /* A finished 87 s and B 92 s after submission; makespan 142 s.
     * Node shares: A held 1x20 + 2x3 + 1x27 + 2x37 = 127 node-s over its
     * 87 s; B 13 + 12 = 25 node-s over 92 s.  Jain's index of the two;
     * efficiency 1100 / (1100 + 164 + 10). */
    ck_assert_double_eq(st.jct_mean, 89.5);
    ck_assert_double_eq(st.jct_median, 87.0);
    ck_assert_double_eq(st.jct_p95, 92.0);
    ck_assert_int_eq(st.makespan, 142);
    {
        double xa = 127.0 / 87.0, xb = 25.0 / 92.0;
        ck_assert_double_eq_tol(
            st.fairness, (xa + xb) * (xa + xb) / (2 * (xa * xa + xb * xb)),
            1e-12);
    }
    ck_assert_double_eq_tol(st.efficiency, 1100.0 / 1274.0, 1e-12);
    /* At full rate on the nodes held: A 1 node (P 10) for 20 s, 2 (P 18)
     * for 3, 1 for 27, 2 for 37 = 200 + 54 + 270 + 666 = 1190; B 1 node
     * (P 4) for 13 + 12 s = 100.  1290 samples: A's 1000 done, its 174
     * lost, and 16 more because it finished at T+86.1 (560 / 18 s after
     * its pause) but held 2 nodes until its completion event at T+87
     * (32 x 18 - 560 = 16). */
    ck_assert_double_eq_tol(st.samples_ideal, 1290.0, 1e-9);
    ck_assert_double_eq_tol(st.node_efficiency, 1100.0 / 1290.0, 1e-12);
    free(got);
}
END_TEST

/* The default mode's ReScost and PreCost are samples: the pause seconds
 * the event adds, times the job's rate after the event's decision, which
 * is the rate the pause is charged at.  O = P/10, so that a column in
 * objective units would differ tenfold.  Nodes n0..n3, even allocator:
 *   A: Tsub T, Jmin 1, Jmax 2, Pmax 1e6, Tcup 4, Tcdw 2,
 *      P 1:10 2:16, O 1:1 2:1.6
 * t0 = T, n0 n1 idle: N=2, J=1, q=2 > Jmin: A starts on 2 (free), rate 16.
 * evt1 T+10, n0 n1 leave, n2 joins: A did 10 x 16 = 160.  A, running on
 *   2, is preempted down to 0: a pause of Tcdw = 2 s (until T+12).  N=1:
 *   q=1 is not > Jmin, quota 0, the leftover 1 restarts A on n2 (from 0:
 *   a start, free), rate P(1) = 10.  PreCost 2 x 10 = 20 (in objective
 *   units of the old count it would be 2 x O(2) = 3.2).
 * evt2 T+20, n0 joins: A paused 2 s at 10 (20 lost to preemption), then
 *   8 s x 10 = 80.  N=2: A goes 1 -> 2, a rescale of a running job: a
 *   pause of Tcup = 4 s (until T+24), rate 16, ReScost 4 x 16 = 64 (in
 *   objective units 4 x O(1) = 4).
 * evt3 T+40, n3 joins: A paused 4 s at 16 (64 lost to rescaling), then
 *   16 s x 16 = 256.  N=3: A stays at Jmax 2, no cost.  The trace ends.
 * No rate changed during a pause, so the columns sum to the summary's
 * costs: ReScost 64 = rescale_cost, PreCost 20 = preempt_cost. */
#define COSTS_TRACE                                                            \
    "bfsim-trace 1\n"                                                          \
    "node n0\nnode n1\nnode n2\nnode n3\n"                                     \
    "1612988400 +0 +1\n"                                                       \
    "1612988410 -0 -1 +2\n"                                                    \
    "1612988420 +0\n"                                                          \
    "1612988440 +3\n"

START_TEST(test_default_costs_in_samples)
{
    struct replay_stats st;
    char *log = tu_replay_joblog("costs", COSTS_TRACE,
                                 "# bfsim-jobs 1\n"
                                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                                 "A,1612988400,1,2,1e6,4,2,0:0:0 1:10:1 "
                                 "2:16:1.6\n",
                                 &st);
    char *got = tu_slurp(tu_tmp("costs.csv"));

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got,
                     HEADER "2021-02-10 20:20:10,160.000000,10.000000,0.000000,"
                            "1,2,1,1,1,1,1,1,20.000000\n"
                            "2021-02-10 20:20:20,80.000000,16.000000,64.000000,"
                            "2,0,0,1,1,2,1,2,0.000000\n"
                            "2021-02-10 20:20:40,256.000000,16.000000,0.000000,"
                            "3,0,0,1,1,3,1,2,0.000000\n");
    ck_assert_uint_eq(st.events, 3);
    ck_assert_double_eq(st.samples_trained, 496.0);
    ck_assert_double_eq(st.rescale_cost, 64.0);
    ck_assert_double_eq(st.preempt_cost, 20.0);
    ck_assert_uint_eq(st.preemptions, 1);
    /* Pool 2 nodes for 10 s, 1 for 10, 2 for 20; A holds all of them. */
    ck_assert_double_eq(st.idle_node_seconds, 70.0);
    ck_assert_double_eq(st.allocated_node_seconds, 70.0);
    /* A starts at t0 (0 -> 2) and again at evt1 (0 -> 1): free, starts;
     * 1 -> 2 at evt2 is its one rescale. */
    ck_assert_uint_eq(st.starts, 2);
    ck_assert_uint_eq(st.rescales, 1);
    free(got);
    /* The job log: submitted, admitted and started at T, unfinished;
     * 496 samples; 2x10 + 1x10 + 2x20 = 70 node-s; 1 rescale, 1
     * preemption; paused 2 + 4 = 6 s, losing 64 to rescaling and 20 to
     * preemption; 2 starts. */
    ck_assert_ptr_nonnull(log);
    ck_assert_str_eq(log, JOBLOG_HEADER
                     "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                     "2021-02-10 20:20:00,,,496,70,1,1,6,64,20,2\n");
    free(log);
}
END_TEST

/* The job log carries a job file's features, after its own columns:
 * the replay of test_default_costs_in_samples with three feature columns
 * (a blank one, one whose value needs quotes, and one named as a column
 * of the log, samples, written feature:samples) gives the same row with
 * the three values after starts. */
START_TEST(test_joblog_features)
{
    struct replay_stats st;
    char *got = tu_replay_joblog(
        "feat", COSTS_TRACE,
        "# bfsim-jobs 1\n"
        "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,batch,family,samples\n"
        "A,1612988400,1,2,1e6,4,2,0:0:0 1:10:1 2:16:1.6,,\"conv,net\",7\n",
        &st);

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, "job,tsub,admitted,first_start,finished,"
                          "completion_s,samples,node_seconds,rescales,"
                          "preemptions,paused_s,lost_rescale,lost_preempt,"
                          "starts,batch,family,feature:samples\n"
                          "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                          "2021-02-10 20:20:00,,,496,70,1,1,6,64,20,2,,"
                          "\"conv,net\",7\n");
    free(got);
}
END_TEST

/* --align-jobs: the job set of test_compat_basic with its submissions
 * moved to 1970 (A at 1000, B at 1050) is shifted back so that A's is
 * t0 = T and B's T+50: the step log is the one worked out there. */
START_TEST(test_align_jobs)
{
    const char *trace = tu_write("align.trace", BASIC_TRACE);
    const char *jobs =
        tu_write("align.jobs", "# bfsim-jobs 1\n"
                               "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                               "A,1000,1,4,1000000000,18,12,0:0:0 "
                               "1:100:100 2:180:180 4:300:300\n"
                               "B,1050,2,4,10000,10,5,0:0:0 2:150:150 "
                               "4:250:250\n");
    const char *steps = tu_tmp("align.csv");
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    char *got;

    replay_opts_default(&o);
    o.mode = REPLAY_COMPAT;
    o.alloc.name = "even";
    o.align_jobs = 1;
    o.trace_path = trace;
    o.jobs_path = jobs;
    bfs_error_clear(&e);
    ck_assert_msg(tu_replay(&o, steps, &st, &e) == 0, "%s", e.msg);
    got = tu_slurp(steps);
    ck_assert_str_eq(got, BASIC_ROWS);
    free(got);
}
END_TEST

/* --objective decides the first allocation.  Two nodes idle from T to
 * T+100, two jobs submitted at T, neither holding a node (so no rescale
 * cost: r = 0), Jmin 1, Jmax 2, work that never finishes:
 *   A: P = 100, 210 on 1, 2 nodes (speed-up 1, 2.1); O column 1, 1
 *   B: P = 1000, 1500 (speed-up 1, 1.5);           O column 0, 0
 * The candidates (A, B) and their value / Tfwd:
 *   objective   (2,0)         (1,1)            (0,2)       (1,0)
 *   file        1             1                0           1
 *   throughput  210           1100             1500        100
 *   speedup     2.1           2                1.5         1
 *   prop-fair   ln 3.1=1.131  2 ln 2=1.386     ln 2.5=0.916 ln 2=0.693
 * so throughput gives (0,2), speedup (2,0), prop-fair (1,1), and file a
 * three-way tie between (2,0), (1,1) and (1,0) that the tie-break rule
 * settles: (2,0) and (1,0) keep B at 0 (one job kept, against none),
 * and (1,0) uses fewer nodes. */
struct first_counts {
    int n[2];
};

static int record_first(void *arg, const struct rec_alloc *ra)
{
    struct first_counts *fc = arg;

    if (ra->time == 1612988400 && ra->job < 2)
        fc->n[ra->job] = ra->count;
    return 0;
}

START_TEST(test_objectives)
{
    static const struct {
        const char *name;
        int a, b;
    } want[] = {
        {"file", 1, 0},
        {"throughput", 0, 2},
        {"speedup", 2, 0},
        {"prop-fair", 1, 1},
    };
    const char *trace = tu_write("obj.trace", "bfsim-trace 1\n"
                                              "node n0\nnode n1\n"
                                              "1612988400 +0 +1\n"
                                              "1612988500 -0 -1\n");
    const char *jobs =
        tu_write("obj.jobs", "# bfsim-jobs 1\n"
                             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                             "A,1612988400,1,2,1e12,5,3,0:0:0 1:100:1 "
                             "2:210:1\n"
                             "B,1612988400,1,2,1e12,5,3,0:0:0 1:1000:0 "
                             "2:1500:0\n");
    struct first_counts fc;
    struct rec_sink sink = {.arg = &fc, .alloc = record_first};
    struct rec_sink *sinks[] = {&sink};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.objective = job_objective_parse(want[_i].name);
    ck_assert_int_ge(o.objective, 0);
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.sinks = sinks;
    o.n_sinks = 1;
    fc.n[0] = fc.n[1] = 0;
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_msg(fc.n[0] == want[_i].a && fc.n[1] == want[_i].b,
                  "%s: (%d,%d), want (%d,%d)", want[_i].name, fc.n[0], fc.n[1],
                  want[_i].a, want[_i].b);
}
END_TEST

/* --dump-instances: every solve of the replay leaves DIR/evt-NNNNNN.json,
 * and solving that file alone gives the objective the replay recorded
 * (the same allocator on the same numbers: equal to the bit). */
struct solves_seen {
    size_t n;
    size_t evt[64];
    double objective[64];
};

static int record_solve_sink(void *arg, const struct rec_solve *rs)
{
    struct solves_seen *ss = arg;

    ck_assert_uint_lt(ss->n, 64);
    ss->evt[ss->n] = rs->evt;
    ss->objective[ss->n++] = rs->objective;
    return 0;
}

START_TEST(test_dump_instances)
{
    const char *trace = tu_write("dump.trace", "bfsim-trace 1\n"
                                               "node n0\nnode n1\nnode n2\n"
                                               "1612988400 +0\n"
                                               "1612988420 +1 +2\n"
                                               "1612988423 -1\n"
                                               "1612988450 +1\n"
                                               "1612988500 -0 -1\n");
    const char *jobs =
        tu_write("dump.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A,1612988400,1,2,1e9,5,3,0:0:0 1:10:10 "
                              "2:18:18\n"
                              "B,1612988410,1,3,1e9,2,1,0:0:0 1:7:7 "
                              "3:20:20\n");
    const char *dir = tu_tmp("dump.d");
    struct solves_seen ss = {0};
    struct rec_sink sink = {.arg = &ss, .solve = record_solve_sink};
    struct rec_sink *sinks[] = {&sink};
    struct alloc_opts ao;
    struct allocator *a;
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    char path[4096], dirbuf[4096];

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    o.instance = instance_dump;
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    o.instance_arg = dirbuf;
    o.sinks = sinks;
    o.n_sinks = 1;
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    /* a solve at each of the five trace rows and at B's arrival (T+10):
     * the pool is never empty and some job is always admitted */
    ck_assert_uint_eq(ss.n, 6);
    ck_assert_uint_eq(st.solves, ss.n);
    alloc_opts_default(&ao);
    ao.name = "dp";
    ck_assert_int_eq(allocator_create(&ao, &a, &e), 0);
    for (size_t i = 0; i < ss.n; i++) {
        struct instance in;
        struct alloc_result res = {0};
        int counts[2];
        snprintf(path, sizeof path, "%s/evt-%06zu.json", dir, ss.evt[i]);
        ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
        res.counts = counts;
        ck_assert_int_eq(allocator_solve(a, &in.p, &res, &e), 0);
        ck_assert_int_eq(res.status, SOLVE_OPTIMAL);
        ck_assert_double_eq(res.objective, ss.objective[i]);
        instance_release(&in);
    }
    snprintf(path, sizeof path, "%s/evt-%06zu.json", dir, ss.evt[ss.n - 1] + 1);
    ck_assert(!tu_exists(path));
    allocator_free(a);
}
END_TEST

/* A job's bounds far above the machine cost no memory: the replay caps
 * Jmin and Jmax at its node count N + 1 (counts above N are never
 * admissible), so a Jmax of 2e9 is neither a table of 2e9 entries (16 GB
 * each for P and O: a 100-byte job file took 24 GB and was killed) nor a
 * change of result.  Here 2e7 (the 640 MB it would cost if the cap were
 * lost stays bearable).  The dump trace's three nodes (pool 1, 3, 2, 3, 1
 * from T, T+20, T+23, T+50 to T+100); A: Jmin 1, Jmax 2e7, P(n) = O(n) =
 * 10 n, no rescale pause (Tcup = Tcdw = 0), so it holds the whole pool:
 * Thr 20 x 10 + 3 x 30 + 27 x 20 + 50 x 30 = 200 + 90 + 540 + 1500 = 2330.
 * B: Jmin = Jmax = 2e7, admitted at T and never run.  Every solve sees A
 * with Jmax 4 and B with Jmin = Jmax = 4 (N + 1 = 4). */
struct bounds_seen {
    size_t solves;
    int ok;
};

static int record_bounds(void *arg, const struct alloc_problem *p,
                         const char *const *names, size_t evt, int64_t t,
                         struct bfs_error *e)
{
    struct bounds_seen *bs = arg;

    (void)names;
    (void)evt;
    (void)t;
    (void)e;
    bs->solves++;
    if (p->n_jobs != 2 || p->jobs[0].jmin != 1 || p->jobs[0].jmax != 4 ||
        p->jobs[1].jmin != 4 || p->jobs[1].jmax != 4)
        bs->ok = 0;
    return 0;
}

START_TEST(test_huge_jmax)
{
    static const char *const alloc[] = {"dp", "milp", "even"};
    const char *trace = tu_write("huge.trace", "bfsim-trace 1\n"
                                               "node n0\nnode n1\nnode n2\n"
                                               "1612988400 +0\n"
                                               "1612988420 +1 +2\n"
                                               "1612988423 -1\n"
                                               "1612988450 +1\n"
                                               "1612988500 -0 -1\n");
    const char *jobs =
        tu_write("huge.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A,1612988400,1,20000000,1e15,0,0,0:0:0 "
                              "20000000:200000000:200000000\n"
                              "B,1612988400,20000000,20000000,1e15,0,0,0:0:0 "
                              "20000000:1:1\n");
    struct bounds_seen bs = {0, 1};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    if (_i == 1 && solver_count() == 0)
        return;
    replay_opts_default(&o);
    o.alloc.name = alloc[_i];
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.instance = record_bounds;
    o.instance_arg = &bs;
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(bs.solves, 5);
    ck_assert(bs.ok);
    ck_assert_uint_eq(st.jobs_admitted, 2);
    ck_assert_double_eq(st.samples_trained, 2330.0);
}
END_TEST

/* What the allocator sees of each job's table, against values worked out
 * by hand (test_tables_copied). */
struct tables_seen {
    int objective;   /* JOB_OBJ_FILE: O; JOB_OBJ_THROUGHPUT: P */
    size_t checked;  /* tables compared */
    char wrong[128]; /* the first mismatch, or "" */
};

static int check_tables(void *arg, const struct alloc_problem *p,
                        const char *const *names, size_t evt, int64_t t,
                        struct bfs_error *e)
{
    /* jobs A..F: Jmax and O (file), P (throughput) at n = 0..Jmax */
    static const int jmax[] = {2, 2, 2, 2, 1, 2};
    static const double o[][3] = {{0, 1, 2}, {0, 1, 2}, {0, 5, 7},
                                  {0, 5, 7}, {0, 3, 0}, {0, 3, 4}};
    static const double pt[][3] = {{0, 10, 18}, {0, 10, 18}, {0, 10, 18},
                                   {0, 12, 18}, {0, 14, 0},  {0, 14, 20}};
    struct tables_seen *ts = arg;

    (void)evt;
    (void)t;
    (void)e;
    for (size_t a = 0; a < p->n_jobs; a++) {
        int j = names[a][0] - 'A';
        const double *want = ts->objective == JOB_OBJ_FILE ? o[j] : pt[j];
        ts->checked++;
        if (p->jobs[a].jmax != jmax[j] && !ts->wrong[0])
            snprintf(ts->wrong, sizeof ts->wrong, "%s: Jmax %d", names[a],
                     p->jobs[a].jmax);
        for (int n = 0; n <= jmax[j] && !ts->wrong[0]; n++)
            if (p->jobs[a].o[n] != want[n])
                snprintf(ts->wrong, sizeof ts->wrong, "%s: %g at %d, not %g",
                         names[a], p->jobs[a].o[n], n, want[n]);
    }
    return 0;
}

/* Jobs with the same curve and Jmax share the making of their tables
 * (replay.c, same_tables); the others must get their own.  Six jobs,
 * all at T, on two nodes, dp: A; B a copy of A; C with A's P but
 * another O; D with C's O but another P(1); E with another curve and
 * Jmax 1; F with E's curve and Jmax 2.  The tables the allocator gets,
 * O with the file's objective and P with throughput's, are those of
 * each job's own curve: a copy that compared P only would give C A's O;
 * one that compared O only, D C's P; one that did not compare Jmax, F
 * E's two entries and whatever lies past them. */
START_TEST(test_tables_copied)
{
    const char *trace = tu_write("tabs.trace", "bfsim-trace 1\n"
                                               "node n0\nnode n1\n"
                                               "1612988400 +0 +1\n"
                                               "1612990400 -0\n");
    const char *jobs = tu_write(
        "tabs.jobs", "# bfsim-jobs 1\n"
                     "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                     "A,1612988400,1,2,1000,0,0,0:0:0 1:10:1 2:18:2\n"
                     "B,1612988400,1,2,1000,0,0,0:0:0 1:10:1 2:18:2\n"
                     "C,1612988400,1,2,1000,0,0,0:0:0 1:10:5 2:18:7\n"
                     "D,1612988400,1,2,1000,0,0,0:0:0 1:12:5 2:18:7\n"
                     "E,1612988400,1,1,1000,0,0,0:0:0 1:14:3 2:20:4\n"
                     "F,1612988400,1,2,1000,0,0,0:0:0 1:14:3 2:20:4\n");
    const int objectives[] = {JOB_OBJ_FILE, JOB_OBJ_THROUGHPUT};

    for (int k = 0; k < 2; k++) {
        struct tables_seen ts = {objectives[k], 0, ""};
        struct replay_opts o;
        struct replay_stats st;
        struct bfs_error e;

        replay_opts_default(&o);
        o.alloc.name = "dp";
        o.objective = objectives[k];
        o.max_jobs = 0;
        o.trace_path = trace;
        o.jobs_path = jobs;
        o.instance = check_tables;
        o.instance_arg = &ts;
        bfs_error_clear(&e);
        ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
        ck_assert_msg(!ts.wrong[0], "%s", ts.wrong);
        /* every job was seen, at the first decision at least */
        ck_assert_uint_ge(ts.checked, 6);
        ck_assert_uint_eq(st.jobs_admitted, 6);
    }
}
END_TEST

/* The pool's holes (pool.c): departures leave holes until more than a
 * quarter of the pool is holes, and the map rule skips them, in the
 * pool's order.  Ten nodes 0..9 idle at t0, pool [0 1 2 .. 9].
 * 1. n1 leaves: [0 H 2 3 4 5 6 7 8 9], 9 nodes, 1 hole (4 x 1 <= 9).
 * 2. A (job 0) grows to 2, longest-idle (pool order): the first two free
 *    entries past the hole, n0 and n2.
 * 3. n3 leaves (2 holes, 4 x 2 <= 8: kept), n1 joins at the end:
 *    [0 H 2 H 4 5 6 7 8 9 1], 9 nodes, pool_at[1] = 10.
 * 4. lowest-index: A shrinks to 1 and B (job 1) grows to 2.  A releases
 *    first, in take order, lowest index first: n0, keeping n2.  Then the
 *    free nodes are n0, n4..n9 and n1 (at index 10, past two holes), and
 *    B takes the lowest: n0 and n1 (pool order would give n0, n4).
 * 5. n5 leaves: 3 holes, 4 x 3 > 8: squeezed out, [0 2 4 6 7 8 9 1],
 *    pool_at[1] = 7, pool_at[9] = 6. */
START_TEST(test_pool_holes)
{
    struct replay_opts o;
    struct replay r;
    struct rjob jobs[2];
    size_t act[2] = {0, 1};
    uint32_t leave = 0, join = 0;
    const uint32_t want[] = {0, 2, 4, 6, 7, 8, 9, 1};

    replay_opts_default(&o);
    memset(&r, 0, sizeof r);
    memset(jobs, 0, sizeof jobs);
    r.o = &o;
    r.n_nodes = 10;
    r.pool_cap = 20;
    r.pool = calloc(21, sizeof *r.pool);
    r.pool_at = calloc(11, sizeof *r.pool_at);
    r.owner = calloc(11, sizeof *r.owner);
    r.in_pool = calloc(11, 1);
    r.marked = calloc(11, 1);
    r.changed = calloc(11, sizeof *r.changed);
    r.pick = calloc(11, sizeof *r.pick);
    r.jobs = jobs;
    r.act = act;
    r.n_act = 2;
    r.leaves = &leave;
    r.joins = &join;
    for (uint32_t k = 0; k < 10; k++) {
        r.owner[k] = -1;
        pool_append(&r, k);
    }
    /* 1 */
    leave = 1;
    r.n_leaves = 1;
    pool_remove_leaves(&r);
    ck_assert_uint_eq(r.n_pool, 9);
    ck_assert_uint_eq(r.pool_len, 10);
    ck_assert_uint_eq(r.pool[1], POOL_HOLE);
    ck_assert_int_eq(r.in_pool[1], 0);
    /* 2 */
    jobs[0].target = 2;
    apply_targets(&r);
    ck_assert_int_eq(r.owner[0], 0);
    ck_assert_int_eq(r.owner[1], -1);
    ck_assert_int_eq(r.owner[2], 0);
    ck_assert_int_eq(r.owner[3], -1);
    ck_assert_int_eq(jobs[0].held, 2);
    /* 3 */
    leave = 3;
    pool_remove_leaves(&r);
    ck_assert_uint_eq(r.n_pool, 8);
    ck_assert_uint_eq(r.pool_len, 10);
    r.n_leaves = 0;
    r.n_joins = 1;
    join = 1;
    pool_append_joins(&r);
    ck_assert_uint_eq(r.n_pool, 9);
    ck_assert_uint_eq(r.pool_len, 11);
    ck_assert_uint_eq(r.pool_at[1], 10);
    ck_assert_uint_eq(r.pool[10], 1);
    /* 4 */
    o.node_pick.kind = NODEPICK_LOWEST_INDEX;
    jobs[0].target = 1;
    jobs[1].target = 2;
    apply_targets(&r);
    ck_assert_int_eq(r.owner[0], 1);
    ck_assert_int_eq(r.owner[1], 1);
    ck_assert_int_eq(r.owner[2], 0);
    ck_assert_int_eq(r.owner[4], -1);
    ck_assert_int_eq(jobs[0].held, 1);
    ck_assert_int_eq(jobs[1].held, 2);
    /* 5 */
    r.n_joins = 0;
    r.n_leaves = 1;
    leave = 5;
    pool_remove_leaves(&r);
    ck_assert_uint_eq(r.n_pool, 8);
    ck_assert_uint_eq(r.pool_len, 8);
    for (size_t p = 0; p < 8; p++) {
        ck_assert_uint_eq(r.pool[p], want[p]);
        ck_assert_uint_eq(r.pool_at[want[p]], p);
    }
    free(r.pool);
    free(r.pool_at);
    free(r.owner);
    free(r.in_pool);
    free(r.marked);
    free(r.changed);
    free(r.pick);
}
END_TEST

/* A job whose last work takes less time than the clock can add to now
 * is done a second later.  A: one node, P(1) = 10, Pmax 1000.0000001
 * (100.00000001 s of work).  t0 = T: A starts, and T + 100.00000001
 * rounds to T+100 (a double near 1.6e9 moves in steps of 2^-22 s), so
 * its event is at T+100.  There 1000 samples are done and 1e-7 left,
 * more than the 1e-12 x Pmax a job may be short of done: A is not
 * done, and 1e-8 s of work from now rounds to now again.  The first
 * second it reaches Pmax is T+101, where 10 more samples finish it:
 * two events, done 101 s after submission.  (The replay used to come
 * back to T+100 forever, an event of no time each.) */
START_TEST(test_completion_below_a_second)
{
    struct replay_stats st;
    char *log = tu_replay_joblog("tiny",
                                 "bfsim-trace 1\n"
                                 "node n0\n"
                                 "1612988400 +0\n"
                                 "1612989400 -0\n",
                                 "# bfsim-jobs 1\n"
                                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                                 "A,1612988400,1,1,1000.0000001,0,0,"
                                 "0:0:0 1:10:10\n",
                                 &st);

    ck_assert_ptr_nonnull(log);
    ck_assert_str_eq(log, JOBLOG_HEADER
                     "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                     "2021-02-10 20:20:00,2021-02-10 20:21:41,101,"
                     "1000.0000001,101,0,0,0,0,0,1\n");
    ck_assert_uint_eq(st.events, 2);
    ck_assert_uint_eq(st.jobs_finished, 1);
    free(log);
}
END_TEST

/* A completion moves when a pause is added at the same rate, and when
 * the rate changes without a pause; the event queued for the old second
 * must not stay (default.c, "A completion that cannot move").  Nodes n0
 * n1 n2, even allocator, one job each, Pmax 1003.
 *
 * A: Jmin 1, Jmax 2, Tcup 0, Tcdw 5, P 1:10 2:10 (flat).  t0 = T, n0 n1
 *   idle: A starts on 2, rate 10, done at T + 100.3, its event at T+101.
 *   evt1 T+10, n1 leaves: 100 done; A, running, is preempted to 1 node
 *   (rate still 10) and pauses until T+15: 903 left take 90.3 s from
 *   T+15, so its completion moves to T+106.  evt2 T+50, n2 joins: 5 s
 *   paused (50 lost), 35 x 10 = 350 trained, 450 done; A goes 1 -> 2
 *   (a rescale, Tcup 0: no pause), rate 10, still T+106.  evt3 T+106:
 *   56 x 10 >= 553, done.  Three events; had the event stayed at T+101,
 *   a fourth (at T+101, 960 done) would come before it.  Node-seconds
 *   2 x 10 + 1 x 40 + 2 x 56 = 172.
 * B: Jmin 1, Jmax 2, Tcup 0, Tcdw 0, P 1:10 2:20.  t0 = T, n0 idle: B
 *   starts on 1, rate 10, its event at T+101.  evt1 T+50, n1 joins: 500
 *   done; B goes 1 -> 2 without a pause, rate 20: 503 left take 25.15 s,
 *   its completion moves to T+76, where 26 x 20 >= 503.  Two events; had
 *   the event stayed at T+101, B would finish 25 s late.  Node-seconds
 *   1 x 50 + 2 x 26 = 102. */
START_TEST(test_completion_moves)
{
    struct replay_stats st;
    char *log = tu_replay_joblog("moveA",
                                 "bfsim-trace 1\n"
                                 "node n0\nnode n1\nnode n2\n"
                                 "1612988400 +0 +1\n"
                                 "1612988410 -1\n"
                                 "1612988450 +2\n"
                                 "1612988700 -0\n",
                                 "# bfsim-jobs 1\n"
                                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                                 "A,1612988400,1,2,1003,0,5,0:0:0 1:10:10 "
                                 "2:10:10\n",
                                 &st);

    ck_assert_ptr_nonnull(log);
    ck_assert_str_eq(log, JOBLOG_HEADER
                     "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                     "2021-02-10 20:20:00,2021-02-10 20:21:46,106,1003,"
                     "172,1,1,5,0,50,1\n");
    ck_assert_uint_eq(st.events, 3);
    free(log);
    log = tu_replay_joblog("moveB",
                           "bfsim-trace 1\n"
                           "node n0\nnode n1\n"
                           "1612988400 +0\n"
                           "1612988450 +1\n"
                           "1612988700 -0\n",
                           "# bfsim-jobs 1\n"
                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                           "B,1612988400,1,2,1003,0,0,0:0:0 1:10:10 "
                           "2:20:20\n",
                           &st);
    ck_assert_ptr_nonnull(log);
    ck_assert_str_eq(log, JOBLOG_HEADER
                     "B,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                     "2021-02-10 20:20:00,2021-02-10 20:21:16,76,1003,"
                     "102,1,0,0,0,0,1\n");
    ck_assert_uint_eq(st.events, 2);
    free(log);
}
END_TEST

/* Fails, naming what differs and where, unless a and b are the same
 * text (a message of its first difference: Check refuses long ones). */
static void assert_same_text(const char *what, const char *a, const char *b)
{
    size_t i = 0, line = 1;

    for (; a[i] && a[i] == b[i]; i++)
        line += a[i] == '\n';
    ck_assert_msg(a[i] == b[i],
                  "the %s differs at line %zu: '%.60s' against '%.60s'", what,
                  line, a + i, b + i);
}

/* The replay with its completion shortcut and without it (every
 * completion computed at every event, as before the shortcut existed)
 * writes the same bytes, on jobs made to sit near a second's edge:
 * rates of tenths, so that rate x seconds rounds, and work of whole
 * multiples of them, so that their completions fall on whole seconds
 * give or take that rounding; pauses of fractions of seconds; a random
 * trace of 8 nodes and 2,000 rows (a fixed LCG, so the same one each
 * run) from time 0, where doubles are fine enough for that rounding to
 * move a completion across a second's edge. */
START_TEST(test_completion_shortcut_same)
{
    struct replay_opts o;
    struct replay_stats st1, st2;
    char *trace = xmalloc(192 * 1024), *jobs = xmalloc(16 * 1024);
    char *log1, *log2, *steps1, *steps2;
    size_t tn = 0, jn = 0;
    uint64_t x = 12345;
    int idle[8] = {0};
    int64_t t = 0;

    tn += (size_t)sprintf(trace + tn, "bfsim-trace 1\n");
    for (int k = 0; k < 8; k++)
        tn += (size_t)sprintf(trace + tn, "node n%d\n", k);
    for (int row = 0; row < 2000; row++) {
        tn += (size_t)sprintf(trace + tn, "%lld", (long long)t);
        for (int k = 0; k < 8; k++) {
            tu_lcg(&x);
            if ((x >> 60) < 3) {
                idle[k] = !idle[k];
                tn += (size_t)sprintf(trace + tn, " %c%d", idle[k] ? '+' : '-',
                                      k);
            }
        }
        tn += (size_t)sprintf(trace + tn, "\n");
        tu_lcg(&x);
        t += 1 + (int64_t)(x >> 58);
    }
    jn +=
        (size_t)sprintf(jobs + jn, "# bfsim-jobs 1\n"
                                   "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n");
    for (int j = 0; j < 60; j++) {
        int r1 = 1 + j % 7, r2 = 2 + j % 5;
        jn += (size_t)sprintf(jobs + jn,
                              "J%d,%d,1,3,%g,%g,%g,0:0:0 1:%g:1 2:%g:2 "
                              "3:%g:3\n",
                              j, 97 * j, 0.1 * r1 * (3000 + 7 * j), j % 3 * 0.7,
                              j % 4 * 0.3, 0.1 * r1, 0.1 * r2, 0.1 * (r1 + r2));
    }
    replay_opts_default(&o);
    o.alloc.name = "even";
    log1 = tu_replay_joblog_opts("short", trace, jobs, &o, &st1);
    o.every_completion = 1;
    log2 = tu_replay_joblog_opts("every", trace, jobs, &o, &st2);
    steps1 = tu_slurp(tu_tmp("short.csv"));
    steps2 = tu_slurp(tu_tmp("every.csv"));
    ck_assert_ptr_nonnull(log1);
    ck_assert_ptr_nonnull(log2);
    ck_assert_ptr_nonnull(steps1);
    ck_assert_ptr_nonnull(steps2);
    /* the run covers the jobs: most finish, after many events */
    ck_assert_uint_ge(st1.jobs_finished, 50);
    ck_assert_uint_ge(st1.events, 1500);
    assert_same_text("job log", log1, log2);
    assert_same_text("step log", steps1, steps2);
    ck_assert_uint_eq(st1.events, st2.events);
    free(log1);
    free(log2);
    free(steps1);
    free(steps2);
    free(trace);
    free(jobs);
}
END_TEST

/* The completion margin (engine/completion.h) by brute force: jobs
 * trained at one rate in steps of whole seconds, their completion
 * x = t + (Pmax - A) / r computed after every step as default.c computes
 * it; wherever completion_fixed says the second noted still holds,
 * ceil(x) must be that second.  The jobs are made to sit on seconds'
 * edges: Pmax a whole number of seconds of work at rates of tenths, or
 * a hair more, or 0.37 s more (far from the edges), at times from 0
 * (where doubles are fine enough for the rounding of A to move x across
 * an edge) and from 1.6e9.  The test counts the steps where ceil(x)
 * moved at the unchanged rate, where skipping without the margin would
 * be wrong, and requires both those and skips. */
START_TEST(test_completion_margin)
{
    /* the work beyond whole seconds: none, some, and a hair */
    const double offsets[] = {0.0, 0.37, 1e-9, 1e-12};
    uint64_t x = 987654321;
    size_t skips = 0, moves = 0;

    for (int trial = 0; trial < 4000; trial++) {
        struct job def;
        struct rjob rj;
        int64_t t, when;
        double left;

        memset(&def, 0, sizeof def);
        memset(&rj, 0, sizeof rj);
        tu_lcg(&x);
        rj.def = &def;
        rj.rate = 0.1 * (double)(1 + (x >> 59));
        def.pmax =
            rj.rate * ((double)(100 + (x >> 40) % 5000) + offsets[trial % 4]);
        t = (trial / 4) % 2 ? (int64_t)(x >> 56)
                            : 1612988400 + (int64_t)(x >> 56);
        rj.q_time = INT64_MIN;
        for (int step = 0; step < 300; step++) {
            left = (def.pmax - rj.accs) / rj.rate;
            when = (int64_t)ceil((double)t + left);
            if (when < t + 1)
                when = t + 1;
            if (rj.q_time != INT64_MIN && when != rj.q_time)
                moves++;
            if (completion_fixed(&rj, (size_t)step)) {
                ck_assert_msg(when == rj.q_time,
                              "trial %d step %d: the second moved from "
                              "%lld to %lld within the margin",
                              trial, step, (long long)rj.q_time,
                              (long long)when);
                skips++;
            } else {
                completion_margin(&rj, (double)t, left, (double)when,
                                  (size_t)step);
                rj.q_time = when;
            }
            /* a step of 1 to 8 s, as default.c's train() takes it */
            tu_lcg(&x);
            t += 1 + (int64_t)(x >> 61);
            {
                double w = rj.rate * (double)(1 + (x >> 61));
                if (rj.accs + w >= def.pmax)
                    break;
                rj.accs += w;
            }
            if (def.pmax - rj.accs <= 1e-12 * def.pmax)
                break;
        }
    }
    ck_assert_uint_gt(skips, 100000);
    ck_assert_uint_gt(moves, 0);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("compat");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_compat_basic);
    tcase_add_test(tc, test_compat_lifecycle);
    tcase_add_test(tc, test_compat_initial_map);
    tcase_add_test(tc, test_bad_input_leaves_nothing);
    tcase_add_test(tc, test_compat_summit_first_rows);
    tcase_add_test(tc, test_align_jobs);
    tcase_add_test(tc, test_pool_holes);
    suite_add_tcase(s, tc);
    tc = tcase_create("default");
    tcase_add_test(tc, test_default_lifecycle);
    tcase_add_test(tc, test_default_costs_in_samples);
    tcase_add_test(tc, test_joblog_features);
    tcase_add_loop_test(tc, test_objectives, 0, 4);
    tcase_add_test(tc, test_dump_instances);
    tcase_add_loop_test(tc, test_huge_jmax, 0, 3);
    tcase_add_test(tc, test_completion_below_a_second);
    tcase_add_test(tc, test_completion_moves);
    tcase_add_test(tc, test_completion_shortcut_same);
    tcase_add_test(tc, test_completion_margin);
    tcase_add_test(tc, test_tables_copied);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(replay_suite());
}
