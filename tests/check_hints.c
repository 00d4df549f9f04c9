/* check_hints.c - the allocator's hints (--hints, tools/DESIGN.md
 * "Hints").
 *
 * Every exact allocator (dp, milp with the count and the node model on
 * every backend compiled in) on small random instances with horizon
 * tables, against an exhaustive search that evaluates the hinted
 * objective itself (h_j(n) O_j(n) less the rescale costs, written out
 * again here) and applies the tie-break keys, in admission order and in
 * a permuted order; the horizon tables a replay builds, worked out by
 * hand on a four-node trace for three combinations of --hints and
 * --node-pick; and dp, milp count and milp node replaying a window of the
 * bundled trace alike under --hints.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "alloc/objective.h"
#include "base/util.h"
#include "engine/replay.h"
#include "solver/solver.h"
#include "testreplay.h"
#include "testalloc.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- every exact method against exhaustive search ---------------------- */

#define MAXJ 5
#define MAXN 8

struct inst {
    struct alloc_problem p;
    struct alloc_job jobs[MAXJ];
    double o[MAXJ][MAXN + 1], h[MAXJ][MAXN + 1];
    int owner[MAXN];
};

/* Small integers everywhere (O, costs and horizons), so that every sum
 * is exact whatever its order; horizons 0..Tfwd in steps of 5 s, some
 * jobs without a table (Tfwd), twins sharing one. */
static void gen(struct inst *in, unsigned seed)
{
    int used = 0;

    memset(in, 0, sizeof *in);
    rng = 0x243F6A8885A308D3ull ^ ((unsigned long long)seed * 0x9E3779B9u);
    in->p.pool = (int)rnd(MAXN + 1);
    in->p.tfwd = (double)(1 + rnd(3)) * 10.0;
    in->p.n_jobs = 1 + rnd(MAXJ);
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        struct alloc_job *jb = &in->jobs[j];
        jb->jmin = 1 + (int)rnd(2);
        jb->jmax = jb->jmin + (int)rnd(3);
        if (j > 0 && rnd(3) == 0) {
            *jb = in->jobs[j - 1];
            memcpy(in->o[j], in->o[j - 1], sizeof in->o[j]);
            memcpy(in->h[j], in->h[j - 1], sizeof in->h[j]);
        } else {
            for (int n = 1; n <= jb->jmax; n++) {
                in->o[j][n] = in->o[j][n - 1] + (double)rnd(3);
                in->h[j][n] =
                    5.0 * (double)rnd((unsigned)(in->p.tfwd / 5.0) + 1);
            }
            in->h[j][0] = in->p.tfwd;
            jb->tcup = (double)rnd(3);
            jb->tcdw = (double)rnd(3);
        }
        jb->o = in->o[j];
        jb->h = rnd(5) ? in->h[j] : NULL;
        jb->cur = 0;
        if (rnd(2)) {
            int c = (int)rnd((unsigned)jb->jmax + 1);
            if (used + c <= in->p.pool) {
                jb->cur = c;
                for (int k = 0; k < c; k++)
                    in->owner[used + k] = (int)j;
                used += c;
            }
        }
    }
    for (int k = used; k < in->p.pool; k++)
        in->owner[k] = -1;
    in->p.jobs = in->jobs;
    in->p.owner = in->owner;
}

/* The hinted objective, written out again: h_j(n) O_j(n) (Tfwd O_j(n)
 * without a table) less Tcup r_j above the current count, Tcdw r_j below
 * it, r_j = O_j(C_j) when C_j >= Jmin_j, else 0. */
static double hinted_objective(const struct alloc_problem *p, const int *n)
{
    double z = 0.0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        double r = jb->cur >= jb->jmin ? jb->o[jb->cur] : 0.0;
        z += (jb->h ? jb->h[n[j]] : p->tfwd) * jb->o[n[j]];
        if (n[j] > jb->cur)
            z -= jb->tcup * r;
        if (n[j] < jb->cur)
            z -= jb->tcdw * r;
    }
    return z;
}

/* _i: method (_i / 2), order (_i % 2: admission order, reversed). */
START_TEST(test_methods_brute_force)
{
    int mi = _i / 2, reversed = _i % 2;
    struct allocator *a;
    struct bfs_error e;
    int node = strcmp(methods[mi].model, "node") == 0;
    int rounds = node ? 60 : 400, changed = 0;

    bfs_error_clear(&e);
    a = method_allocator(mi);
    for (int s = 0; s < rounds; s++) {
        unsigned seed = 11 + (unsigned)s * 104729u;
        struct inst in;
        size_t order[MAXJ];
        int want[MAXJ], got[MAXJ], plain[MAXJ];
        struct alloc_result r;
        struct alloc_job nohint[MAXJ];
        struct alloc_problem q;

        gen(&in, seed);
        for (size_t k = 0; k < in.p.n_jobs; k++)
            order[k] = reversed ? in.p.n_jobs - 1 - k : k;
        ck_assert(ordered_brute_force(&in.p, order, hinted_objective, want));
        /* the hints do change answers (else this test could not fail) */
        q = in.p;
        memcpy(nohint, in.jobs, sizeof nohint);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            nohint[j].h = NULL;
        q.jobs = nohint;
        ordered_brute_force(&q, order, hinted_objective, plain);
        changed += memcmp(want, plain, in.p.n_jobs * sizeof *want) != 0;
        memset(&r, 0, sizeof r);
        r.counts = got;
        ck_assert_int_eq(allocator_solve_order(a, &in.p, order, &r, &e), 0);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            ck_assert_msg(got[j] == want[j],
                          "%s %s/%s order %d seed %u: job %zu gets %d, want %d",
                          methods[mi].name, methods[mi].model,
                          methods[mi].solver, reversed, seed, j, got[j],
                          want[j]);
        ck_assert_double_eq(r.objective, hinted_objective(&in.p, got));
    }
    ck_assert_int_gt(changed, 0);
    allocator_free(a);
}
END_TEST

/* alloc_problem_check refuses a horizon below 0 or not finite. */
START_TEST(test_check_horizon)
{
    static const double o[3] = {0, 1, 2};
    double h[3] = {10, 5, -1};
    struct alloc_job jb = {.cur = 0, .jmin = 1, .jmax = 2, .o = o, .h = h};
    struct alloc_problem p = {.pool = 2, .tfwd = 10, .n_jobs = 1, .jobs = &jb};
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(alloc_problem_check(&p, &e), BFS_EINVAL);
    ck_assert(strstr(e.msg, "h(2)") != NULL);
    h[2] = NAN;
    ck_assert_int_eq(alloc_problem_check(&p, &e), BFS_EINVAL);
    h[2] = 0;
    ck_assert_int_eq(alloc_problem_check(&p, &e), 0);
}
END_TEST

/* An instance file carries the tables: written, read back to the same
 * doubles; a job without "h" reads back without a table; a bad "h" is
 * refused with the job named. */
START_TEST(test_instance_h)
{
    static const double o[3] = {0, 1, 2}, h[3] = {10, 0.1, 7.25};
    const struct alloc_job jobs[2] = {
        {.cur = 0, .jmin = 1, .jmax = 2, .o = o, .h = h},
        {.cur = 1, .jmin = 1, .jmax = 2, .o = o}};
    struct alloc_problem p = {.pool = 3, .tfwd = 10, .n_jobs = 2, .jobs = jobs};
    const char *path = tu_tmp("h.json");
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(instance_write(path, &p, NULL, NULL, &e) == 0, "%s", e.msg);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_ptr_nonnull(in.p.jobs[0].h);
    ck_assert_ptr_null(in.p.jobs[1].h);
    for (int n = 0; n <= 2; n++)
        ck_assert(in.p.jobs[0].h[n] == h[n]);
    instance_release(&in);
    path = tu_write("bad-h.json",
                    "{\"format\": \"bfsim-instance\", \"version\": 1, "
                    "\"pool\": 2, \"tfwd\": 10, \"jobs\": [{\"name\": \"J7\", "
                    "\"cur\": 0, \"jmin\": 1, \"jmax\": 1, \"tcup\": 0, "
                    "\"tcdw\": 0, \"o\": [0, 1], \"h\": [10, -1]}]}\n");
    ck_assert_int_eq(instance_read(path, &in, &e), BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, "J7") && strstr(e.msg, "h[1]"), "%s", e.msg);
}
END_TEST

/* ---- the tables a replay builds, by hand ------------------------------ */

/* Four nodes.  T = 1612988400.
 *   T      n0, n1 join          T+30   n1 leaves
 *   T+1    n2, n3 join          T+50   n0 leaves
 *                               T+200  n2 leaves (the trace's last row:
 *                                      n3 never leaves, "never" = T+201)
 * Job A (Tsub T, 1..1 node), job B (Tsub T+1, 1..4 nodes); O = P = n
 * samples/s, no rescale cost, work enough to outlast the trace.  Tfwd 40,
 * default mode, dp.
 *
 * --hints oracle, --node-pick longest-idle (take and release in pool
 * order):
 *   evt 0 (T): pool n0 n1, remaining 50 30, e = 40 30.  A: free n0 first,
 *     h_A = [40, 40].  A takes n0.
 *   evt 1 (T+1): pool n0 n1 n2 n3, remaining 49 29 199 200, e = 40 29 40
 *     40.  A holds n0: h_A(1) = 40.  B holds none; free n1 n2 n3, then
 *     A's n0: h_B = [40, 29, (29+40)/2, (29+40+40)/3, (29+40+40+40)/4] =
 *     [40, 29, 34.5, 36.33.., 37.25].  dp: A 1 (40) + B 3 (109) = 149,
 *     the best (B 4 would leave A none: 149 - 40 + 40 = 149, but keeps
 *     one job fewer); B takes n1 n2 n3.
 *   evt 2 (T+30): n1 leaves; pool n0 n2 n3, remaining 20 170 171, e = 20
 *     40 40.  h_A(1) = 20.  B holds n2 n3 and releases n2 first, so keeps
 *     n3 at 1: h_B(1) = 40, h_B(2) = 40; then A's n0 (no free node):
 *     h_B(3) = (80+20)/3 = 33.33..; h_B(4) = 0 (beyond the pool).
 * --hints oracle, --node-pick oracle (take the longest remaining first,
 * release the soonest first):
 *   evt 0: take order n0 (50), n1 (30): h_A = [40, 40].
 *   evt 1: take order n3 (200) n2 (199) n0 (49) n1 (29); B: free n3 n2
 *     n1, then n0: h_B = [40, 40, 40, 109/3, 149/4].
 * --hints predicted, --node-pick longest-idle: no hole has ended by T+1,
 *   so a node is predicted to stay as long as it has been idle.  evt 0:
 *   n0 and n1 idle for 0 s, h_A = [40, 0]: A's gain is 0 on one node, so
 *   it keeps its count 0 (key 2) and n0 stays free.  evt 1: n0 and n1
 *   (idle since T) 1 s, n2 and n3 0 s; B: free n0 n1 n2 n3: h_B = [40,
 *   1, 2/2, 2/3, 2/4].
 */
struct seen {
    double h[3][2][5]; /* event, job, count */
    int have[3][2];
};

static int record_instance(void *arg, const struct alloc_problem *p,
                           const char *const *names, size_t evt, int64_t t,
                           struct bfs_error *e)
{
    struct seen *s = arg;

    (void)t;
    (void)e;
    for (size_t j = 0; j < p->n_jobs && evt < 3; j++) {
        int k = names[j][0] - 'A';
        ck_assert_ptr_nonnull(p->jobs[j].h);
        for (int n = 0; n <= p->jobs[j].jmax; n++)
            s->h[evt][k][n] = p->jobs[j].h[n];
        s->have[evt][k] = 1;
    }
    return 0;
}

static const struct {
    const char *hints, *pick;
    int evt, job;
    double want[5];
} table_cases[] = {
    {"oracle", "longest-idle", 0, 0, {40, 40}},
    {"oracle", "longest-idle", 1, 0, {40, 40}},
    {"oracle", "longest-idle", 1, 1, {40, 29, 34.5, 109.0 / 3, 37.25}},
    {"oracle", "longest-idle", 2, 0, {40, 20}},
    {"oracle", "longest-idle", 2, 1, {40, 40, 40, 100.0 / 3, 0}},
    {"oracle", "oracle", 0, 0, {40, 40}},
    {"oracle", "oracle", 1, 1, {40, 40, 40, 109.0 / 3, 149.0 / 4}},
    {"predicted", "longest-idle", 0, 0, {40, 0}},
    {"predicted", "longest-idle", 1, 1, {40, 1, 1, 2.0 / 3, 0.5}},
};

START_TEST(test_tables_by_hand)
{
    const char *trace = tu_write("h.trace", "bfsim-trace 1\n"
                                            "node n0\nnode n1\nnode n2\n"
                                            "node n3\n"
                                            "1612988400 +0 +1\n"
                                            "1612988401 +2 +3\n"
                                            "1612988430 -1\n"
                                            "1612988450 -0\n"
                                            "1612988600 -2\n");
    const char *jobs = tu_write("h.jobs", "# bfsim-jobs 1\n"
                                          "job,tsub,jmin,jmax,pmax,tcup,tcdw,"
                                          "curve\n"
                                          "A,1612988400,1,1,1e9,0,0,0:0:0 "
                                          "1:1:1\n"
                                          "B,1612988401,1,4,1e9,0,0,0:0:0 "
                                          "4:4:4\n");
    struct seen s;
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    int jmax = table_cases[_i].job ? 4 : 1;

    memset(&s, 0, sizeof s);
    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.tfwd = 40;
    o.instance = record_instance;
    o.instance_arg = &s;
    ck_assert_int_eq(nodepick_hints_parse(table_cases[_i].hints, &o.hints), 0);
    ck_assert_int_eq(nodepick_parse(table_cases[_i].pick, &o.node_pick), 0);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(st.hints, table_cases[_i].hints);
    ck_assert(s.have[table_cases[_i].evt][table_cases[_i].job]);
    for (int n = 0; n <= jmax; n++)
        ck_assert_msg(fabs(s.h[table_cases[_i].evt][table_cases[_i].job][n] -
                           table_cases[_i].want[n]) < 1e-12,
                      "case %d: h(%d) = %.17g, want %.17g", _i, n,
                      s.h[table_cases[_i].evt][table_cases[_i].job][n],
                      table_cases[_i].want[n]);
}
END_TEST

/* Without --hints the allocator gets no table. */
static int record_none(void *arg, const struct alloc_problem *p,
                       const char *const *names, size_t evt, int64_t t,
                       struct bfs_error *e)
{
    (void)names;
    (void)evt;
    (void)t;
    (void)e;
    for (size_t j = 0; j < p->n_jobs; j++)
        *(int *)arg += p->jobs[j].h != NULL;
    return 0;
}

START_TEST(test_off_no_table)
{
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    int with = 0;

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = tu_src("traces/summit-2021-02.trace.gz");
    o.jobs_path = tu_src("datasets/hps-shufflenet-10J.jobs");
    o.node_count = 16;
    o.has_end = 1;
    o.end = 1612988400 + 6 * 3600;
    o.instance = record_none;
    o.instance_arg = &with;
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_uint_gt(st.solves, 0);
    ck_assert_int_eq(with, 0);
    ck_assert_str_eq(st.hints, "off");
}
END_TEST

/* ---- replays agree under hints ----------------------------------------- */

/* 32 nodes of the bundled trace up to 2021-02-12, Tfwd 600: the window
 * where the hints change the plain replay and every method proves every
 * solve optimal.  _i: method; the hints and node-pick rule alternate. */
static void hinted(struct replay_opts *o, int i)
{
    o->node_count = 32;
    o->tfwd = 600;
    o->has_end = 1;
    ck_assert_int_eq(bfs_time_parse("2021-02-12 00:00:00", &o->end), 0);
    ck_assert_int_eq(
        nodepick_hints_parse(i % 2 ? "predicted" : "oracle", &o->hints), 0);
    ck_assert_int_eq(
        nodepick_parse(i % 2 ? "longest-idle" : "oracle", &o->node_pick), 0);
}

static char *run_steps(const struct method *m, int i, const char *tag,
                       int hints, struct replay_stats *st)
{
    char path[64];
    struct replay_opts o;
    struct bfs_error e;

    snprintf(path, sizeof path, "%s.csv", tag);
    replay_opts_default(&o);
    o.trace_path = tu_src("traces/summit-2021-02.trace.gz");
    o.jobs_path = tu_src("datasets/hps-shufflenet-10J.jobs");
    o.alloc.name = m->name;
    o.alloc.solver = m->solver[0] ? m->solver : NULL;
    o.alloc.model = m->model[0] ? m->model : NULL;
    o.alloc.time_limit = 600;
    hinted(&o, i);
    if (!hints)
        o.hints = HINTS_OFF;
    bfs_error_clear(&e);
    ck_assert_msg(tu_replay(&o, tu_tmp(path), st, &e) == 0, "%s: %s", tag,
                  e.msg);
    return tu_slurp(tu_tmp(path));
}

START_TEST(test_replays_agree)
{
    static const struct method dp = {"dp", "", ""};
    const struct method *m = &methods[_i];
    struct replay_stats st, st_dp, st_plain;
    char tag[64], *got, *ref, *plain;

    snprintf(tag, sizeof tag, "agree-%s-%s-%d", m->model, m->solver, _i);
    got = run_steps(m, _i, tag, 1, &st);
    ref = run_steps(&dp, _i, "agree-dp", 1, &st_dp);
    plain = run_steps(&dp, _i, "agree-plain", 0, &st_plain);
    ck_assert_uint_eq(st.solves_by_status[SOLVE_OPTIMAL], st.solves);
    ck_assert_msg(strcmp(got, ref) == 0, "%s: the step log differs from dp's",
                  tag);
    ck_assert_msg(strcmp(ref, plain) != 0, "%s: the hints changed nothing",
                  tag);
    xfree(got);
    xfree(ref);
    xfree(plain);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hints");
    TCase *tc = tcase_create("hints");

    list_methods(0);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_check_horizon);
    tcase_add_test(tc, test_instance_h);
    tcase_add_loop_test(tc, test_methods_brute_force, 0, n_methods * 2);
    tcase_add_loop_test(tc, test_tables_by_hand, 0,
                        (int)(sizeof table_cases / sizeof *table_cases));
    tcase_add_test(tc, test_off_no_table);
    tcase_add_loop_test(tc, test_replays_agree, 0, n_methods);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
