/* check_agree.c - every exact allocator replays the bundled data alike.
 *
 * The tie-break rule of alloc.h makes dp, milp on CBC and milp on GLPK,
 * with the count and the node model, choose the same counts at every
 * event, so their replays must be the same to the byte.  Each test runs
 * one method on the bundled Summit trace and compares it with dp: the
 * step log's bytes, the whole allocation history (every change of every
 * job's count) and every job's record, printed with %a so that doubles
 * compare exactly.  It also asks that every solve was proven optimal: a
 * time-limited answer is not the rule's choice.  The node model on CBC
 * runs twice: from dp's optimum (the default) and from nothing.
 *
 * The compatible-mode test is the acceptance run: the published
 * replayer's setting (--compat bftrainer --big-m legacy) on 10 nodes from
 * 2021-02-10 20:21:15 with the MILP on CBC, where every solve must be
 * optimal and all 10 jobs must finish; dp under the same cap must give
 * the same step log.
 *
 * The same comparison runs under the other tie-break rules with the
 * predicted node picking (test_rules_64_nodes).
 */
#include "config.h"

#include "engine/replay.h"
#include "testreplay.h"
#include "testutil.h"
#include "base/util.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

/* A replay's history as text. */
struct history {
    char *text;
    size_t len, cap;
};

static void hist_add(struct history *h, const char *line)
{
    size_t n = strlen(line);

    BFS_GROW(h->text, h->cap, h->len + n + 1);
    memcpy(h->text + h->len, line, n + 1);
    h->len += n;
}

static int hist_alloc(void *arg, const struct rec_alloc *a)
{
    char line[128];

    snprintf(line, sizeof line, "alloc %zu %lld %zu %d\n", a->evt,
             (long long)a->time, a->job, a->count);
    hist_add(arg, line);
    return 0;
}

static int hist_job(void *arg, const struct rec_job *j)
{
    char line[512];

    snprintf(line, sizeof line,
             "job %zu %s %lld %lld %lld %lld %a %a %a %a %a %zu %zu\n",
             j->index, j->name, (long long)j->tsub, (long long)j->admitted,
             (long long)j->first_start, (long long)j->finished, j->samples,
             j->node_seconds, j->paused_s, j->lost_rescale, j->lost_preempt,
             j->rescales, j->preemptions);
    hist_add(arg, line);
    return 0;
}

struct method {
    const char *alloc, *solver, *model;
};

struct outcome {
    char *steps;   /* the step log */
    char *history; /* allocation changes and job records */
    struct replay_stats st;
    int ran; /* 0 when the method's solver is not compiled in */
};

/* Replays with method m; opts_fn adjusts the options. */
static struct outcome replay_with(const struct method *m, const char *tag,
                                  void (*opts_fn)(struct replay_opts *))
{
    struct history h = {0};
    struct rec_sink sink = {.arg = &h, .alloc = hist_alloc, .job = hist_job};
    struct rec_sink *sinks[] = {&sink};
    struct outcome out = {0};
    struct replay_opts o;
    struct bfs_error e;
    char name[64];
    int rc;

    snprintf(name, sizeof name, "agree-%s.csv", tag);
    replay_opts_default(&o);
    o.trace_path = tu_src("traces/summit-2021-02.trace.gz");
    o.jobs_path = tu_src("datasets/hps-shufflenet-10J.jobs");
    o.steps_path = tu_tmp(name);
    o.alloc.name = m->alloc;
    if (m->solver)
        o.alloc.solver = m->solver;
    if (m->model)
        o.alloc.model = m->model;
    o.alloc.time_limit = 600; /* a generous limit: the test is of results */
    o.sinks = sinks;
    o.n_sinks = 1;
    opts_fn(&o);
    bfs_error_clear(&e);
    rc = tu_replay(&o, o.steps_path, &out.st, &e);
    if (rc == BFS_EUNSUP || rc == BFS_ENOTFOUND) {
        xfree(h.text);
        return out; /* solver not compiled in */
    }
    ck_assert_msg(rc == 0, "%s: %s", tag, e.msg);
    out.ran = 1;
    out.steps = tu_slurp(o.steps_path);
    ck_assert_ptr_nonnull(out.steps);
    out.history = h.text;
    return out;
}

static void outcome_release(struct outcome *o)
{
    free(o->steps);
    xfree(o->history);
}

static void all_optimal(const struct outcome *o, const char *tag)
{
    ck_assert_msg(o->st.solves > 0, "%s: no solve", tag);
    ck_assert_msg(o->st.solves_by_status[SOLVE_OPTIMAL] == o->st.solves,
                  "%s: %zu of %zu solves optimal", tag,
                  o->st.solves_by_status[SOLVE_OPTIMAL], o->st.solves);
}

static const struct method methods[] = {
    {"milp", "cbc", "count"},
    {"milp", "glpk", "count"},
    {"milp", "cbc", "node"},
    {"milp", "glpk", "node"},
    /* the node model on CBC without dp's optimum as its start: the
     * default starts from dp's answer, this one finds its own */
    {"milp", "cbc,start=no", "node"},
};

/* ---- default mode, 64 nodes ------------------------------------------ */

static void nodes_64(struct replay_opts *o)
{
    o->node_count = 64;
}

START_TEST(test_default_64_nodes)
{
    static const struct method dp = {"dp", NULL, NULL};
    const struct method *m = &methods[_i];
    char tag[64];
    struct outcome ref, got;

    snprintf(tag, sizeof tag, "%s-%s", m->solver, m->model);
    got = replay_with(m, tag, nodes_64);
    if (!got.ran) {
        printf("# skip: solver %s is not compiled in\n", m->solver);
        return;
    }
    ref = replay_with(&dp, "dp", nodes_64);
    all_optimal(&ref, "dp");
    all_optimal(&got, tag);
    ck_assert_uint_eq(got.st.events, ref.st.events);
    ck_assert_uint_eq(got.st.solves, ref.st.solves);
    ck_assert_msg(strcmp(got.steps, ref.steps) == 0,
                  "%s: the step log differs from dp's", tag);
    ck_assert_msg(strcmp(got.history, ref.history) == 0,
                  "%s: the allocation history or a job record differs from "
                  "dp's",
                  tag);
    /* the comparison has something to compare: every job finished */
    ck_assert_uint_eq(ref.st.jobs_finished, 10);
    outcome_release(&ref);
    outcome_release(&got);
}
END_TEST

/* ---- default mode, 64 nodes, other rules -------------------------------- */

/* --tie-break reorders the jobs the allocator sees and --node-pick the
 * node map the node model starts from: the methods must still agree.
 * Method i runs under tie-break rule i mod 3 with predicted node picking
 * (so every rule meets a count and a node model). */
static const char *const agree_rules[] = {"least-remaining", "most-remaining",
                                          "fewest-node-seconds"};
static int agree_rule;

static void rules_64(struct replay_opts *o)
{
    o->node_count = 64;
    ck_assert_int_eq(tiebreak_parse(agree_rules[agree_rule], &o->tie_break), 0);
    ck_assert_int_eq(nodepick_parse("predicted", &o->node_pick), 0);
}

START_TEST(test_rules_64_nodes)
{
    static const struct method dp = {"dp", NULL, NULL};
    const struct method *m = &methods[_i];
    char tag[96];
    struct outcome ref, got, plain;

    agree_rule = _i % 3;
    snprintf(tag, sizeof tag, "%s-%s-%s", m->solver, m->model,
             agree_rules[agree_rule]);
    got = replay_with(m, tag, rules_64);
    if (!got.ran) {
        printf("# skip: solver %s is not compiled in\n", m->solver);
        return;
    }
    ref = replay_with(&dp, "dp-rules", rules_64);
    all_optimal(&ref, "dp");
    all_optimal(&got, tag);
    ck_assert_msg(strcmp(got.steps, ref.steps) == 0,
                  "%s: the step log differs from dp's", tag);
    ck_assert_msg(strcmp(got.history, ref.history) == 0,
                  "%s: the allocation history or a job record differs from "
                  "dp's",
                  tag);
    /* the rules do change this replay (else the test shows nothing) */
    plain = replay_with(&dp, "dp-plain", nodes_64);
    ck_assert_msg(strcmp(plain.steps, ref.steps) != 0,
                  "%s: the rules changed nothing", tag);
    outcome_release(&plain);
    outcome_release(&ref);
    outcome_release(&got);
}
END_TEST

/* ---- the compatible mode, the published setting ----------------------- */

static void published(struct replay_opts *o)
{
    o->mode = REPLAY_COMPAT;
    o->legacy_cap = 1;
    o->node_count = 10;
    o->has_start = 1;
    ck_assert_int_eq(bfs_time_parse("2021-02-10 20:21:15", &o->start), 0);
}

START_TEST(test_compat_published)
{
    static const struct method dp = {"dp", NULL, NULL};
    const struct method cbc[] = {{"milp", "cbc", "count"},
                                 {"milp", "cbc", "node"}};
    const struct method *m = &cbc[_i];
    struct outcome ref, got;

    got = replay_with(m, m->model, published);
    if (!got.ran) {
        printf("# skip: CBC is not compiled in\n");
        return;
    }
    all_optimal(&got, m->model);
    ck_assert_uint_eq(got.st.jobs_total, 10);
    ck_assert_uint_eq(got.st.jobs_finished, 10);
    ref = replay_with(&dp, "dp-legacy", published);
    all_optimal(&ref, "dp");
    ck_assert_msg(strcmp(got.steps, ref.steps) == 0,
                  "%s: the step log differs from dp's under the cap", m->model);
    ck_assert_msg(strcmp(got.history, ref.history) == 0,
                  "%s: the history differs from dp's under the cap", m->model);
    outcome_release(&ref);
    outcome_release(&got);
}
END_TEST

static Suite *agree_suite(void)
{
    Suite *s = suite_create("agree");
    TCase *tc = tcase_create("replays");

    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_default_64_nodes, 0,
                        (int)(sizeof methods / sizeof methods[0]));
    tcase_add_loop_test(tc, test_rules_64_nodes, 0,
                        (int)(sizeof methods / sizeof methods[0]) - 1);
    tcase_add_loop_test(tc, test_compat_published, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(agree_suite());
}
