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
 *
 * "span" (--mixed-types): n0, n1 of type A and n2 of type B, all idle
 * at T; n3 of type A idle at T+60; n2 taken back at T+100, the last
 * event.  One job J: Jmin = Jmax
 * = 3, P(n) = O(n) = 10 n (the curve 0:0:0 3:30:30), speed A:1 B:0.5;
 * Tcup = Tcdw = 10; Tfwd 10.
 *
 * Each aware case runs with every allocator that takes it: dp, even
 * and milp's count and node models on CBC and GLPK; and, as nothing in
 * "split" or "move" gains from spanning types, with --mixed-types on
 * milp's count model and even, to the same answers.
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

/* The allocator of the aware cases: a name, and for milp a solver and a
 * model; mixed sets --mixed-types. */
struct how {
    const char *alloc, *solver, *model;
    int mixed;
};

/* Replays trace and jobs with allocator h->alloc (and, for milp,
 * h->solver and h->model) and the given awareness; the job log into
 * *log (malloc'd). */
static struct replay_stats run_how(const char *trace, const char *jobs,
                                   const struct how *h, int aware, double tfwd,
                                   char **log)
{
    const char *path = tu_tmp("types.jobs.csv");
    struct rec_sink js, *sinks[] = {&js};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.alloc.name = h->alloc;
    if (h->solver)
        o.alloc.solver = h->solver;
    if (h->model)
        o.alloc.model = h->model;
    o.mixed_types = h->mixed;
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

static struct replay_stats run(const char *trace, const char *jobs,
                               const char *alloc, const char *solver, int aware,
                               double tfwd, char **log)
{
    struct how h = {alloc, solver, NULL, 0};

    return run_how(trace, jobs, &h, aware, tfwd, log);
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
static void check_split_aware(const struct how *h)
{
    char *log;
    struct replay_stats st =
        run_how(split_trace(), split_jobs(), h, 1, 10, &log);

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
static void check_move_aware(const struct how *h)
{
    char *log;
    struct replay_stats st =
        run_how(move_trace(), move_jobs(), h, 1, 100, &log);

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
    check_split_aware(&(struct how){"dp", NULL, NULL, 0});
}
END_TEST

START_TEST(test_move_aware_dp)
{
    check_move_aware(&(struct how){"dp", NULL, NULL, 0});
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

#if defined(HAVE_CBC) || defined(HAVE_GLPK)
/* The milp cases: the count and node models and the count model with
 * --mixed-types, on each backend compiled in. */
static const struct how milp_how[] = {
#if defined(HAVE_CBC)
    {"milp", "cbc", "count", 0},  {"milp", "cbc", "node", 0},
    {"milp", "cbc", "count", 1},
#endif
#if defined(HAVE_GLPK)
    {"milp", "glpk", "count", 0}, {"milp", "glpk", "node", 0},
    {"milp", "glpk", "count", 1},
#endif
};

START_TEST(test_aware_milp)
{
    check_split_aware(&milp_how[_i]);
    check_move_aware(&milp_how[_i]);
}
END_TEST

/* Aware, "span": J needs 3 nodes.  One type at a time, it cannot run
 * until n3 joins at T+60 (A then has 3): on 3 nodes of A (worth 10
 * O_A(3) = 300 > 0) it trains at 30 for 40 s = 1200 samples, A 120
 * node-seconds, B none; n2 leaving at T+100 is not its node.
 * Spanning types, at T its only admissible holding is all three nodes (2
 * of A, 1 of B), worth Tfwd min(O_A(3), O_B(3)) = 10 min(30, 15) = 150 >
 * 0 (idle), at no cost (it holds nothing, r = 0): it trains at the
 * slower type's P_B(3) = 15.  At T+60 keeping that holding is worth 150,
 * while 3 nodes of A, 10 O_A(3) = 300, grow A and shrink B, a move
 * costing (Tcdw + Tcup) r = 20 x 15 = 300: worth 0; so it keeps.  At
 * T+100 it loses n2 (a preemption) and holds 2 < Jmin nodes of A (r = 0):
 * 3 of A are worth 300 at no cost, so it takes n3 (a start, its second;
 * no type move: nothing shrinks).  Samples 15 x 100 = 1500; node-seconds
 * A 200, B 100. */
static void check_span(const struct how *h)
{
    char *log;
    const char *trace =
        tu_write("span.trace",
                 "bfsim-trace 1\n"
                 "node n0 A\nnode n1 A\nnode n2 B\nnode n3 A\n" T " +0 +1 +2\n"
                 "1612988460 +3\n"
                 "1612988500 -2\n");
    const char *jobs = tu_write("span.jobs", "# bfsim-jobs 1\n"
                                             "job,tsub,jmin,jmax,pmax,tcup,"
                                             "tcdw,curve,speed\n"
                                             "J," T ",3,3,1e9,10,10,0:0:0 "
                                             "3:30:30,A:1 B:0.5\n");
    struct how one = *h;
    struct replay_stats st;

    one.mixed = 0;
    st = run_how(trace, jobs, &one, 1, 10, &log);
    ck_assert_double_eq(st.samples_trained, 1200.0);
    ck_assert_double_eq(st.alloc_ns_t[0], 120.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 0.0);
    free(log);
    st = run_how(trace, jobs, h, 1, 10, &log);
    ck_assert_int_eq(st.mixed_types, 1);
    ck_assert_double_eq(st.samples_trained, 1500.0);
    ck_assert_uint_eq(st.preemptions, 1);
    ck_assert_uint_eq(st.rescales, 0);
    ck_assert_uint_eq(st.type_moves, 0);
    ck_assert_double_eq(st.alloc_ns_t[0], 200.0);
    ck_assert_double_eq(st.alloc_ns_t[1], 100.0);
    ck_assert_str_eq(log, LOG_HEAD "J,2021-02-10 20:20:00,2021-02-10 "
                                   "20:20:00,2021-02-10 20:20:00,,,1500,300,"
                                   "0,1,0,0,0,2,0,200,100\n");
    free(log);
}

/* "span" on milp's count model with --mixed-types, each backend. */
START_TEST(test_span)
{
    size_t n = 0;

    for (size_t i = 0; i < sizeof milp_how / sizeof *milp_how; i++)
        if (milp_how[i].mixed) {
            check_span(&milp_how[i]);
            n++;
        }
    ck_assert_uint_gt(n, 0);
}
END_TEST
#endif

/* The even-share baseline per type: J holds nothing and is dealt to the
 * type with the most idle nodes per job, A (2 / 1) before B (2 / 1, a
 * tie, to the lower index); on A it gets its quota min(2, 4) = 2: the
 * aware "split" answer, 2000 samples. */
START_TEST(test_split_even)
{
    check_split_aware(&(struct how){"even", NULL, NULL, 0});
    check_split_aware(&(struct how){"even", NULL, NULL, 1});
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
    /* --mixed-types: only milp's count model and even take it, and it
     * needs the types seen */
    o.mixed_types = 1;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, "--mixed-types") != NULL, "%s", e.msg);
    o.alloc.name = "milp";
    o.alloc.model = "node";
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, "--mixed-types") != NULL, "%s", e.msg);
    o.alloc.model = "count";
    o.types_aware = 0;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "--types-aware yes") != NULL, "%s", e.msg);
    o.alloc.name = "dp";
    o.types_aware = 1;
    o.mixed_types = 0;
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
#if defined(HAVE_CBC) || defined(HAVE_GLPK)
    tcase_add_loop_test(tc, test_aware_milp, 0,
                        (int)(sizeof milp_how / sizeof *milp_how));
    tcase_add_test(tc, test_span);
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
