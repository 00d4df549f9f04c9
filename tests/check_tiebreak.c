/* check_tiebreak.c - the --tie-break rules.
 *
 * The orders by hand; splitmix64 against its published first outputs;
 * every exact allocator (dp, milp with the count and the node model on
 * every backend compiled in) under each rule against an exhaustive search
 * that applies the rule written out again (keys 1-3 of alloc/objective.h,
 * then the lexicographically largest vector in the rule's order, the
 * order computed here by a sort of its own); and a replay whose counts
 * the rule changes, worked out by hand.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/objective.h"
#include "engine/replay.h"
#include "engine/tiebreak.h"
#include "solver/solver.h"
#include "testalloc.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_parse)
{
    struct tiebreak t;

    tiebreak_default(&t);
    ck_assert_int_eq(t.kind, TIEBREAK_FIRST_ADMITTED);
    ck_assert_str_eq(t.name, "first-admitted");
    ck_assert_int_eq(tiebreak_parse("least-remaining", &t), 0);
    ck_assert_int_eq(t.kind, TIEBREAK_LEAST_REMAINING);
    ck_assert_int_eq(tiebreak_parse("most-remaining", &t), 0);
    ck_assert_int_eq(t.kind, TIEBREAK_MOST_REMAINING);
    ck_assert_int_eq(tiebreak_parse("fewest-node-seconds", &t), 0);
    ck_assert_int_eq(t.kind, TIEBREAK_FEWEST_NODE_SECONDS);
    ck_assert_str_eq(t.name, "fewest-node-seconds");
    ck_assert_int_eq(tiebreak_parse("random:18446744073709551615", &t), 0);
    ck_assert_int_eq(t.kind, TIEBREAK_RANDOM);
    ck_assert(t.seed == UINT64_MAX);
    ck_assert_str_eq(t.name, "random:18446744073709551615");
    ck_assert_int_eq(tiebreak_parse("random:007", &t), 0);
    ck_assert_str_eq(t.name, "random:7");
    ck_assert_int_eq(tiebreak_parse("random:", &t), -1);
    ck_assert_int_eq(tiebreak_parse("random:-1", &t), -1);
    ck_assert_int_eq(tiebreak_parse("random:1x", &t), -1);
    ck_assert_int_eq(tiebreak_parse("random:18446744073709551616", &t), -1);
    ck_assert_int_eq(tiebreak_parse("Least-remaining", &t), -1);
    ck_assert_int_eq(tiebreak_parse("", &t), -1);
    ck_assert_str_eq(t.name, "random:7"); /* unchanged by the failures */
}
END_TEST

/* splitmix64 from state 0: the reference outputs published with the
 * generator (and in every port of it). */
START_TEST(test_splitmix64)
{
    uint64_t s = 0;

    ck_assert(bfs_splitmix64(&s) == 0xE220A8397B1DCDAFull);
    ck_assert(bfs_splitmix64(&s) == 0x6E789E6AA1B965F4ull);
    ck_assert(bfs_splitmix64(&s) == 0x06C45D188009454Full);
}
END_TEST

/* Four jobs: remaining 5 2 5 1, node-seconds 10 30 0 10. */
START_TEST(test_order_by_hand)
{
    static const struct tiebreak_job jobs[4] = {
        {5, 10}, {2, 30}, {5, 0}, {1, 10}};
    static const struct {
        const char *rule;
        size_t want[4];
    } cases[] = {
        {"first-admitted", {0, 1, 2, 3}},
        /* 1 (job 3), 2 (job 1), 5 (jobs 0, 2 in admission order) */
        {"least-remaining", {3, 1, 0, 2}},
        /* 5 (0, 2), 2 (1), 1 (3) */
        {"most-remaining", {0, 2, 1, 3}},
        /* 0 (2), 10 (0, 3), 30 (1) */
        {"fewest-node-seconds", {2, 0, 3, 1}},
        /* seed 7, event 5: state 7 + 5 x 0xD1B54A32D192ED03 (mod 2^64);
         * the three draws mod 4, 3, 2 are 3, 1, 0 (an independent
         * splitmix64 in Python): 0 1 2 3 (3<->3), 0 2 1 3 (2<->1),
         * 2 0 1 3 (1<->0). */
        {"random:7", {2, 0, 1, 3}},
    };
    size_t order[4];
    struct tiebreak t;

    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ck_assert_int_eq(tiebreak_parse(cases[c].rule, &t), 0);
        tiebreak_order(&t, jobs, 4, 5, order);
        for (size_t k = 0; k < 4; k++)
            ck_assert_msg(order[k] == cases[c].want[k], "%s: order[%zu] = %zu",
                          cases[c].rule, k, order[k]);
    }
}
END_TEST

/* ---- every exact method under each rule, against exhaustive search ---- */

#define MAXJ 5
#define MAXN 8

struct inst {
    struct alloc_problem p;
    struct alloc_job jobs[MAXJ];
    double o[MAXJ][MAXN + 1];
    int owner[MAXN];
    struct tiebreak_job keys[MAXJ];
};

/* Small integers everywhere, so that every sum is exact whatever its
 * order, and many ties: jobs often share a curve, curves have plateaus,
 * keys repeat. */
static void gen(struct inst *in, unsigned seed)
{
    int used = 0;

    memset(in, 0, sizeof *in);
    rng = 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed * 0x2545F491u);
    in->p.pool = (int)rnd(MAXN + 1);
    in->p.tfwd = (double)(1 + rnd(3)) * 10.0;
    in->p.n_jobs = 1 + rnd(MAXJ);
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        struct alloc_job *jb = &in->jobs[j];
        jb->jmin = 1 + (int)rnd(2);
        jb->jmax = jb->jmin + (int)rnd(3);
        if (j > 0 && rnd(2)) {
            *jb = in->jobs[j - 1];
            memcpy(in->o[j], in->o[j - 1], sizeof in->o[j]);
        } else {
            for (int n = 1; n <= jb->jmax; n++)
                in->o[j][n] = in->o[j][n - 1] + (double)rnd(3);
            jb->tcup = (double)rnd(3);
            jb->tcdw = (double)rnd(3);
        }
        jb->o = in->o[j];
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
        in->keys[j].remaining = (double)rnd(3);
        in->keys[j].node_seconds = (double)rnd(3);
    }
    for (int k = used; k < in->p.pool; k++)
        in->owner[k] = -1;
    in->p.jobs = in->jobs;
    in->p.owner = in->owner;
}

/* The rule's order, by a selection sort of its own: repeatedly the
 * unplaced job with the smallest key, the earliest admitted among equal
 * ones. */
static void rule_order(enum tiebreak_kind kind, const struct inst *in,
                       size_t *order)
{
    int placed[MAXJ] = {0};

    for (size_t k = 0; k < in->p.n_jobs; k++) {
        size_t best = SIZE_MAX;
        double bk = 0;
        for (size_t j = 0; j < in->p.n_jobs; j++) {
            double key =
                kind == TIEBREAK_LEAST_REMAINING  ? in->keys[j].remaining
                : kind == TIEBREAK_MOST_REMAINING ? -in->keys[j].remaining
                : kind == TIEBREAK_FEWEST_NODE_SECONDS
                    ? in->keys[j].node_seconds
                    : 0.0;
            if (!placed[j] && (best == SIZE_MAX || key < bk)) {
                best = j;
                bk = key;
            }
        }
        placed[best] = 1;
        order[k] = best;
    }
}

static const char *const rules[] = {"first-admitted", "least-remaining",
                                    "most-remaining", "fewest-node-seconds",
                                    "random:1",       "random:99"};
#define N_RULES (sizeof rules / sizeof *rules)

START_TEST(test_methods_by_rule)
{
    int mi = _i / (int)N_RULES;
    const char *rule = rules[_i % (int)N_RULES];
    struct allocator *a;
    struct tiebreak tb;
    struct bfs_error e;
    int node = strcmp(methods[mi].model, "node") == 0;
    int rounds = node ? 40 : 300, differs = 0;

    ck_assert_int_eq(tiebreak_parse(rule, &tb), 0);
    bfs_error_clear(&e);
    a = method_allocator(mi);
    for (int s = 0; s < rounds; s++) {
        unsigned seed = 77 + (unsigned)s * 7919u;
        struct inst in;
        size_t order[MAXJ], mine[MAXJ];
        int want[MAXJ], got[MAXJ], want_adm[MAXJ];
        struct alloc_result r;

        gen(&in, seed);
        tiebreak_order(&tb, in.keys, in.p.n_jobs, (uint64_t)s, order);
        if (tb.kind != TIEBREAK_RANDOM) {
            rule_order(tb.kind, &in, mine);
            for (size_t k = 0; k < in.p.n_jobs; k++)
                ck_assert_uint_eq(order[k], mine[k]);
        }
        ck_assert(ordered_brute_force(&in.p, order, alloc_objective, want));
        for (size_t k = 0; k < in.p.n_jobs; k++)
            mine[k] = k;
        ordered_brute_force(&in.p, mine, alloc_objective, want_adm);
        differs += memcmp(want, want_adm, in.p.n_jobs * sizeof *want) != 0;
        memset(&r, 0, sizeof r);
        r.counts = got;
        ck_assert_int_eq(allocator_solve_order(a, &in.p, order, &r, &e), 0);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            ck_assert_msg(got[j] == want[j],
                          "%s %s/%s %s seed %u: job %zu gets %d, want %d", rule,
                          methods[mi].name, methods[mi].model,
                          methods[mi].solver, seed, j, got[j], want[j]);
    }
    /* The instances do have ties that the rule settles differently
     * from admission order (else this test could not fail). */
    if (tb.kind != TIEBREAK_FIRST_ADMITTED)
        ck_assert_int_gt(differs, 0);
    allocator_free(a);
}
END_TEST

/* ---- a replay the rule changes ----------------------------------------- */

/* Two nodes, two identical jobs submitted at T (Jmin = Jmax = 1, P = O =
 * 1 sample/s on one node, no rescale cost), A with Pmax 10^6, B with
 * 5 x 10^5.  T: n0 idle; T+100: n0 leaves, n1 joins.  Default mode.
 *
 * evt 0 (T): one node, two jobs: (1,0) and (0,1) tie on every key but
 *   the last (one job keeps its count 0, one node used), so the rule's
 *   first job gets n0.
 * evt 1 (T+100): the holder loses n0 (its count drops to 0), n1 joins:
 *   the same tie.  By then the holder has 100 node-seconds and 100
 *   samples done; the other 0 of each.
 *   first-admitted: A, A.      most-remaining: A (10^6 > 5 x 10^5), A.
 *   least-remaining: B, B (B's 5 x 10^5 - 100 < 10^6).
 *   fewest-node-seconds: A (0 = 0, admission order), then B (0 < 100).
 *   random:0: event 0's draw 0xE220A8397B1DCDAF is odd: no swap, A;
 *     event 1's first draw from 0xD1B54A32D192ED03 is even: swap, B.
 *   random:2: event 0 even: B; event 1 odd: A (Python's splitmix64).
 * The allocations recorded (event:job=count; every job has a record at
 * its first decision, then one at each change):
 */
static const struct {
    const char *rule, *want;
} replay_cases[] = {
    {"first-admitted", "0:0=1;0:1=0;"},
    {"most-remaining", "0:0=1;0:1=0;"},
    {"least-remaining", "0:0=0;0:1=1;"},
    {"fewest-node-seconds", "0:0=1;0:1=0;1:0=0;1:1=1;"},
    {"random:0", "0:0=1;0:1=0;1:0=0;1:1=1;"},
    {"random:2", "0:0=0;0:1=1;1:0=1;1:1=0;"},
};

static int record_alloc(void *arg, const struct rec_alloc *ra)
{
    char *buf = arg;
    size_t len = strlen(buf);

    snprintf(buf + len, 256 - len, "%zu:%zu=%d;", ra->evt, ra->job, ra->count);
    return 0;
}

START_TEST(test_replay_by_hand)
{
    const char *trace = tu_write("tb.trace", "bfsim-trace 1\n"
                                             "node n0\nnode n1\n"
                                             "1612988400 +0\n"
                                             "1612988500 -0 +1\n");
    const char *jobs = tu_write("tb.jobs", "# bfsim-jobs 1\n"
                                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,"
                                           "curve\n"
                                           "A,1612988400,1,1,1e6,0,0,0:0:0 "
                                           "1:1:1\n"
                                           "B,1612988400,1,1,5e5,0,0,0:0:0 "
                                           "1:1:1\n");
    char got[256] = "";
    struct rec_sink sink = {.arg = got, .alloc = record_alloc};
    struct rec_sink *sinks[] = {&sink};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.sinks = sinks;
    o.n_sinks = 1;
    ck_assert_int_eq(tiebreak_parse(replay_cases[_i].rule, &o.tie_break), 0);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_msg(strcmp(got, replay_cases[_i].want) == 0, "%s: %s, want %s",
                  replay_cases[_i].rule, got, replay_cases[_i].want);
    ck_assert_str_eq(st.tie_break, replay_cases[_i].rule);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tiebreak");
    TCase *tc = tcase_create("rules");

    list_methods(0);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_splitmix64);
    tcase_add_test(tc, test_order_by_hand);
    tcase_add_loop_test(tc, test_methods_by_rule, 0, n_methods * (int)N_RULES);
    tcase_add_loop_test(tc, test_replay_by_hand, 0,
                        (int)(sizeof replay_cases / sizeof *replay_cases));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
