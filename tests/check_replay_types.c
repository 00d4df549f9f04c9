/* check_replay_types.c - replays on traces with node types
 * (tools/DESIGN.md, "Node types"), each expected value worked out by hand
 * in the comments.
 *
 * Two small machines:
 *
 * "split": n0, n1 of type A and n2, n3 of type B, all idle at T; n3 is
 * taken back at T+100, the last event.  One job J: Jmin 1, Jmax 4, P(n) =
 * O(n) = 10 n (the curve 0:0:0 4:40:40), speed A:1 B:0.25, so P_A(n) =
 * 10 n and P_B(n) = 2.5 n; Tcup = Tcdw = 10; Tfwd 10 (the default).
 *
 * "move": n0 of type A and n1 of type B; n1 idle at T, n0 idle at
 * T+100, n1 taken back at T+200.  One job J: Jmin = Jmax = 1, P(1) =
 * O(1) = 10, speed A:1 B:0.5, Tcup = Tcdw = 5; Tfwd 100.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "engine/replay.h"
#include "formats/records.h"
#include "testreplay.h"
#include "testutil.h"

#define T "1612988400"

static const char *split_trace(void)
{
    return tu_write("split.trace", "bfsim-trace 1\n"
                                   "node n0 A\nnode n1 A\n"
                                   "node n2 B\nnode n3 B\n" T " +0 +1 +2 +3\n"
                                   "1612988500 -3\n");
}

static const char *split_jobs(void)
{
    return tu_write("split.jobs", "# bfsim-jobs 1\n"
                                  "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,"
                                  "speed\n"
                                  "J," T ",1,4,1e9,10,10,0:0:0 4:40:40,"
                                  "A:1 B:0.25\n");
}

static const char *move_trace(void)
{
    return tu_write("move.trace", "bfsim-trace 1\n"
                                  "node n0 A\nnode n1 B\n" T " +1\n"
                                  "1612988500 +0\n"
                                  "1612988600 -1\n");
}

static const char *move_jobs(void)
{
    return tu_write("move.jobs", "# bfsim-jobs 1\n"
                                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,"
                                 "speed\n"
                                 "J," T ",1,1,1e9,5,5,0:0:0 1:10:10,"
                                 "A:1 B:0.5\n");
}

/* Replays trace and jobs with allocator alloc (and, for milp, solver)
 * and the given awareness; the job log into *log (malloc'd). */
static struct replay_stats run(const char *trace, const char *jobs,
                               const char *alloc, const char *solver, int aware,
                               double tfwd, char **log)
{
    const char *path = tu_tmp("types.jobs.csv");
    struct rec_sink js, *sinks[] = {&js};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.alloc.name = alloc;
    if (solver)
        o.alloc.solver = solver;
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.types_aware = aware;
    o.tfwd = tfwd;
    bfs_error_clear(&e);
    ck_assert_int_eq(joblog_open(path, &js, &e), 0);
    o.sinks = sinks;
    o.n_sinks = 1;
    ck_assert_msg(tu_replay(&o, NULL, &st, &e) == 0, "%s", e.msg);
    *log = tu_slurp(path);
    ck_assert_ptr_nonnull(*log);
    return st;
}

#define LOG_HEAD                                                               \
    "job,tsub,admitted,first_start,finished,completion_s,samples,"             \
    "node_seconds,rescales,preemptions,paused_s,lost_rescale,lost_preempt,"    \
    "starts,type_moves,node_seconds@A,node_seconds@B\n"

/* Unaware, "split": the allocator sees one pool of 4 nodes and P(n) =
 * 10 n, so J takes all 4 (n0..n3, two of each type).  It trains at the
 * slowest type's rate: min(P_A(4), P_B(4)) = min(40, 10) = 10 for 100 s
 * = 1000 samples.  At T+100 it loses n3 (a preemption) and runs on 3
 * nodes at min(30, 7.5) = 7.5.  Node-seconds: A 200, B 200; both types
 * fully used (harvest 1 each). */
START_TEST(test_split_unaware)
{
    char *log;
    struct replay_stats st =
        run(split_trace(), split_jobs(), "dp", NULL, 0, 10, &log);

    ck_assert_double_eq(st.samples_trained, 1000.0);
    ck_assert_uint_eq(st.n_types, 2);
    ck_assert_str_eq(st.type_names[0], "A");
    ck_assert_str_eq(st.type_names[1], "B");
    ck_assert_int_eq(st.types_aware, 0);
    ck_assert_double_eq(st.idle_ns_t[0], 200.0);
    ck_assert_double_eq(st.idle_ns_t[1], 200.0);
    ck_assert_double_eq(st.alloc_ns_t[0], 200.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 200.0);
    ck_assert_double_eq(st.harvest_t[1], 1.0);
    ck_assert_uint_eq(st.type_moves, 0);
    ck_assert_uint_eq(st.preemptions, 1);
    ck_assert_str_eq(log, LOG_HEAD "J,2021-02-10 20:20:00,2021-02-10 "
                                   "20:20:00,2021-02-10 20:20:00,,,1000,400,"
                                   "0,1,0,0,0,1,0,200,200\n");
    free(log);
}
END_TEST

/* Aware, "split": J on type A at n nodes is worth Tfwd O_A(n) = 100 n
 * (n <= 2), on type B 25 n (n <= 2): the best is 2 nodes of A, 200.  J
 * holds n0, n1 and trains at P_A(2) = 20 for 100 s = 2000 samples; n3
 * leaving touches no node of J (no preemption).  Node-seconds: A 200
 * (harvest 1), B 0 of 200 idle (harvest 0). */
static void check_split_aware(const char *alloc, const char *solver)
{
    char *log;
    struct replay_stats st =
        run(split_trace(), split_jobs(), alloc, solver, 1, 10, &log);

    ck_assert_double_eq(st.samples_trained, 2000.0);
    ck_assert_int_eq(st.types_aware, 1);
    ck_assert_double_eq(st.idle_ns_t[0], 200.0);
    ck_assert_double_eq(st.idle_ns_t[1], 200.0);
    ck_assert_double_eq(st.alloc_ns_t[0], 200.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 0.0);
    ck_assert_double_eq(st.harvest_t[0], 1.0);
    ck_assert_double_eq(st.harvest_t[1], 0.0);
    ck_assert_uint_eq(st.preemptions, 0);
    ck_assert_str_eq(log, LOG_HEAD "J,2021-02-10 20:20:00,2021-02-10 "
                                   "20:20:00,2021-02-10 20:20:00,,,2000,200,"
                                   "0,0,0,0,0,1,0,200,0\n");
    free(log);
}

/* Aware, "move" with Tfwd 100: at T only n1 (B) is idle, so J runs on B
 * at P_B(1) = 5.  At T+100 n0 (A) joins: staying on B is worth 100 x 5 =
 * 500; moving to A 100 x 10 - (Tcdw + Tcup) r = 1000 - 10 x 5 = 950, so
 * J moves: a stop and a start, 10 s of pause, then 90 s at 10.  At T+200
 * n1 leaves, free by then.  Samples: 5 x 100 + 10 x 90 = 1400; one
 * rescale, one type move, 10 s paused losing 10 x 10 = 100 samples (the
 * rate after the move); node-seconds A 100, B 100. */
static void check_move_aware(const char *alloc, const char *solver)
{
    char *log;
    struct replay_stats st =
        run(move_trace(), move_jobs(), alloc, solver, 1, 100, &log);

    ck_assert_double_eq(st.samples_trained, 1400.0);
    ck_assert_uint_eq(st.type_moves, 1);
    ck_assert_uint_eq(st.rescales, 1);
    ck_assert_double_eq(st.alloc_ns_t[0], 100.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 100.0);
    ck_assert_str_eq(log, LOG_HEAD "J,2021-02-10 20:20:00,2021-02-10 "
                                   "20:20:00,2021-02-10 20:20:00,,,1400,200,"
                                   "1,0,10,100,0,1,1,100,100\n");
    free(log);
}

START_TEST(test_split_aware_dp)
{
    check_split_aware("dp", NULL);
}
END_TEST

START_TEST(test_move_aware_dp)
{
    check_move_aware("dp", NULL);
}
END_TEST

/* Unaware, "move": J keeps its one node, n1 (B), when n0 joins (the
 * allocator sees one pool and no reason to change): 5 x 200 = 1000
 * samples, no move, B 200 node-seconds, A none. */
START_TEST(test_move_unaware)
{
    char *log;
    struct replay_stats st =
        run(move_trace(), move_jobs(), "dp", NULL, 0, 100, &log);

    ck_assert_double_eq(st.samples_trained, 1000.0);
    ck_assert_uint_eq(st.type_moves, 0);
    ck_assert_double_eq(st.alloc_ns_t[0], 0.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 200.0);
    free(log);
}
END_TEST

#if defined(HAVE_CBC)
START_TEST(test_aware_cbc)
{
    check_split_aware("milp", "cbc");
    check_move_aware("milp", "cbc");
}
END_TEST
#endif

#if defined(HAVE_GLPK)
START_TEST(test_aware_glpk)
{
    check_split_aware("milp", "glpk");
    check_move_aware("milp", "glpk");
}
END_TEST
#endif

/* The even-share baseline per type: J holds nothing and is dealt to the
 * type with the most idle nodes per job, A (2 / 1) before B (2 / 1, a
 * tie, to the lower index); on A it gets its quota min(2, 4) = 2: the
 * aware "split" answer, 2000 samples. */
START_TEST(test_split_even)
{
    check_split_aware("even", NULL);
}
END_TEST

static int last_objective(void *arg, const struct rec_solve *rs)
{
    *(double *)arg = rs->objective;
    return 0;
}

/* A trace of one type: the allocator's table is the type's.  J (the
 * "move" job) on the only node, of type B, is worth Tfwd O_B(1) = 100 x
 * 5 = 500 (the reference table would give 1000), and trains at 5 for the
 * 100 s until the node leaves. */
START_TEST(test_one_type)
{
    const char *trace = tu_write("one.trace", "bfsim-trace 1\n"
                                              "node n1 B\n" T " +0\n"
                                              "1612988500 -0\n");
    double objective = 0;
    struct rec_sink ss = {.arg = &objective, .solve = last_objective};
    struct rec_sink *sinks[] = {&ss};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = move_jobs();
    o.tfwd = 100;
    o.sinks = sinks;
    o.n_sinks = 1;
    bfs_error_clear(&e);
    ck_assert_msg(tu_replay(&o, NULL, &st, &e) == 0, "%s", e.msg);
    ck_assert_double_eq(objective, 500.0);
    ck_assert_double_eq(st.samples_trained, 500.0);
    ck_assert_uint_eq(st.n_types, 1);
}
END_TEST

/* What a typed trace cannot be replayed with is refused by name. */
START_TEST(test_refused)
{
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    const char *bad =
        tu_write("none.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,speed\n"
                              "J," T ",1,1,1e9,5,5,0:0:0 1:10:10,C:1\n");

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = move_trace();
    o.jobs_path = move_jobs();
    o.mode = REPLAY_COMPAT;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, "--compat bftrainer") != NULL, "%s", e.msg);
    o.mode = REPLAY_DEFAULT;
    o.hints = HINTS_ORACLE;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, "--hints") != NULL, "%s", e.msg);
    o.hints = HINTS_OFF;
    /* a job that lists only a type the trace lacks */
    o.jobs_path = bad;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "none.jobs:3") != NULL &&
                      strstr(e.msg, "none of the node types") != NULL,
                  "%s", e.msg);
}
END_TEST

static Suite *types_suite(void)
{
    Suite *s = suite_create("replay_types");
    TCase *tc = tcase_create("types");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_split_unaware);
    tcase_add_test(tc, test_split_aware_dp);
    tcase_add_test(tc, test_move_aware_dp);
    tcase_add_test(tc, test_move_unaware);
    tcase_add_test(tc, test_split_even);
#if defined(HAVE_CBC)
    tcase_add_test(tc, test_aware_cbc);
#endif
#if defined(HAVE_GLPK)
    tcase_add_test(tc, test_aware_glpk);
#endif
    tcase_add_test(tc, test_one_type);
    tcase_add_test(tc, test_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(types_suite());
}
