/* check_bench.c - `bfsim solve` over a corpus: configurations, the
 * statistics (against hand computations), the parallel run (the same
 * answers in one process and in several) and the agreement check, which
 * must fire on a configuration told to stop at a 50% gap.
 */
#include "config.h"

#include "alloc/bench.h"
#include "solver/solver.h"
#include "testutil.h"

#include <hdf5.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* exp(mean(ln(t + s))) - s, worked out by hand. */
START_TEST(test_sgm)
{
    const double a[] = {1, 3}, z[] = {0, 0, 8}, m[] = {0.5, 2};

    /* (2 * 4)^(1/2) - 1 */
    ck_assert_double_eq_tol(bench_sgm(a, 2, 1), sqrt(8.0) - 1, 1e-12);
    /* (1 * 1 * 9)^(1/3) - 1 */
    ck_assert_double_eq_tol(bench_sgm(z, 3, 1), cbrt(9.0) - 1, 1e-12);
    /* (10.5 * 12)^(1/2) - 10 = 1.2249721603... */
    ck_assert_double_eq_tol(bench_sgm(m, 2, 10), 1.2249721603218241, 1e-12);
    ck_assert_double_eq(bench_sgm(a, 0, 10), 0.0);
    /* equal times: the mean is the time, whatever the shift */
    ck_assert_double_eq_tol(bench_sgm((const double[]){4, 4, 4}, 3, 10), 4,
                            1e-12);
}
END_TEST

START_TEST(test_differ)
{
    ck_assert(!bench_differ(100, 100, 1e-6));
    /* 1e-6 * max(1, 1000000) = 1: a difference of 1 is within */
    ck_assert(!bench_differ(1e6, 1e6 + 1, 1e-6));
    ck_assert(bench_differ(1e6, 1e6 + 1.5, 1e-6));
    /* below 1 in size, the tolerance is absolute */
    ck_assert(!bench_differ(0, 5e-7, 1e-6));
    ck_assert(bench_differ(0, 2e-6, 1e-6));
}
END_TEST

static struct bench_row row(int status, double obj, double t)
{
    struct bench_row r;

    memset(&r, 0, sizeof r);
    r.done = 1;
    r.status = status;
    r.objective = obj;
    r.solve_s = t;
    return r;
}

/* The median: odd and even counts, unsorted input. */
START_TEST(test_median)
{
    double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2}, c[] = {7};

    ck_assert_double_eq(bench_median(a, 3), 3);
    ck_assert_double_eq(bench_median(b, 4), 2.5);
    ck_assert_double_eq(bench_median(c, 1), 7);
    ck_assert(isnan(bench_median(c, 0)));
}
END_TEST

/* A cell of times, all proven, with the same nodes in every run. */
static struct bench_cell cell(double med, double lo, double hi, double nodes)
{
    struct bench_cell x;

    memset(&x, 0, sizeof x);
    x.runs = x.proven = 3;
    x.t_med = med;
    x.t_min = lo;
    x.t_max = hi;
    x.n_med = x.n_min = x.n_max = nodes;
    x.n_same = 1;
    return x;
}

/* Verdicts on injected timings, against a reference of median 1 s whose
 * runs lie within 0.1%. */
START_TEST(test_verdict)
{
    struct bench_cell ref = cell(1.0, 0.999, 1.001, 10);
    struct bench_cell x;

    /* 11% slower, runs as tight: a loss (1.001 x 1.1 = 1.1011 < 1.109);
     * and the reference's win against it */
    x = cell(1.11, 1.109, 1.111, 10);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_LOSS);
    ck_assert_int_eq(bench_verdict(&ref, &x, 0.1), BENCH_WIN);
    /* 11% faster (1/1.11): 0.9013 x 1.1 = 0.9914 < 0.999, a win */
    x = cell(1 / 1.11, 0.9005, 0.9013, 10);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_WIN);
    /* 9% slower, as tight: a tie (1.1011 > 1.089) */
    x = cell(1.09, 1.089, 1.091, 10);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    ck_assert_int_eq(bench_verdict(&ref, &x, 0.1), BENCH_TIE);
    /* medians 11% apart and spreads apart, but by less than 10%: one run
     * at 1.05 (as noise makes it), a tie */
    x = cell(1.11, 1.05, 1.12, 10);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    /* 50% slower in the median, one run as fast as the reference's
     * slowest: the spreads overlap, a tie; its fastest at 1.102 instead:
     * a loss */
    x = cell(1.5, 1.0, 1.6, 10);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    x.t_min = 1.102;
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_LOSS);
    /* equal times, different node counts in every run: nodes decide */
    x = cell(1.0, 0.999, 1.001, 20);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_LOSS);
    ck_assert_int_eq(bench_verdict(&ref, &x, 0.1), BENCH_WIN);
    /* ... unless they vary over repeats, or a run was not proven */
    x.n_same = 0;
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    x = cell(1.0, 0.999, 1.001, 20);
    x.proven = 2;
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    /* node counts 10% apart (11 vs 10): within the threshold of 10% */
    x = cell(1.0, 0.999, 1.001, 11);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    /* node ranges over seeds that overlap: a tie */
    x = cell(1.0, 0.999, 1.001, 20);
    x.n_min = 8;
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_TIE);
    /* zero times tie; a zero against a clear time wins */
    x = cell(0, 0, 0, 10);
    ck_assert_int_eq(bench_verdict(&x, &x, 0.1), BENCH_TIE);
    ck_assert_int_eq(bench_verdict(&x, &ref, 0.1), BENCH_WIN);
}
END_TEST

/* Two instances, two configurations, two seeds, three repeats, rows by
 * hand (seed s, repeat r at bench_index). */
START_TEST(test_summarize)
{
    struct bench b;
    struct bench_summary s;
    struct bench_cell x;
    struct bench_params q;
    struct bench_row rows[24];
    struct bench_config cfg[2];
    size_t ref = 99;

    bench_init(&b);
    bench_params_default(&q);
    q.time_limit = 10;
    q.shift_s = 1;
    q.shift_nodes = 1;
    memset(cfg, 0, sizeof cfg);
    cfg[0].o.name = cfg[1].o.name = "dp";
    b.n_inst = 2;
    b.n_cfg = 2;
    b.n_seeds = 2;
    b.n_repeat = 3;
    b.rows = rows;
    b.cfg = cfg;
    /* instance 0, config 0: seed 0 times 2, 4, 3 (median 3); seed 1
     * times 5, 1, 6 (median 5): median of seeds 4, spread 1..6; nodes
     * 7 in every run of seed 0, 9 of seed 1 */
    {
        const double t[6] = {2, 4, 3, 5, 1, 6};
        for (size_t k = 0; k < 6; k++) {
            rows[bench_index(&b, 0, 0, k / 3, k % 3)] =
                row(SOLVE_OPTIMAL, 10, t[k]);
            rows[bench_index(&b, 0, 0, k / 3, k % 3)].nodes = k < 3 ? 7 : 9;
        }
    }
    /* instance 0, config 1: 0.5 s in every run, nodes 1 and 2 of seed 0
     * (not repeatable), 3 of seed 1 */
    for (size_t k = 0; k < 6; k++) {
        rows[bench_index(&b, 0, 1, k / 3, k % 3)] = row(SOLVE_OPTIMAL, 10, 0.5);
        rows[bench_index(&b, 0, 1, k / 3, k % 3)].nodes =
            k < 3 ? (k == 0 ? 1 : 2) : 3;
    }
    /* instance 1: config 0 0.05 s and 4 nodes everywhere; config 1 the
     * same but one run at its limit (counts 10 s) and one failed */
    for (size_t k = 0; k < 6; k++) {
        rows[bench_index(&b, 1, 0, k / 3, k % 3)] = row(SOLVE_OPTIMAL, 3, 0.05);
        rows[bench_index(&b, 1, 0, k / 3, k % 3)].nodes = 4;
        rows[bench_index(&b, 1, 1, k / 3, k % 3)] = row(SOLVE_OPTIMAL, 3, 0.05);
        rows[bench_index(&b, 1, 1, k / 3, k % 3)].nodes = 4;
    }
    rows[bench_index(&b, 1, 1, 1, 0)].status = SOLVE_FEASIBLE;
    rows[bench_index(&b, 1, 1, 1, 2)].status = SOLVE_FAILED;

    bench_cell(&b, 0, 0, &q, &x);
    ck_assert_uint_eq(x.runs, 6);
    ck_assert_uint_eq(x.proven, 6);
    ck_assert_double_eq(x.t_med, 4);
    ck_assert_double_eq(x.t_min, 1);
    ck_assert_double_eq(x.t_max, 6);
    ck_assert_double_eq(x.n_med, 8); /* seeds' 7 and 9 */
    ck_assert_double_eq(x.n_min, 7);
    ck_assert_double_eq(x.n_max, 9);
    ck_assert_int_eq(x.n_same, 1);
    bench_cell(&b, 0, 1, &q, &x);
    ck_assert_double_eq(x.t_med, 0.5);
    ck_assert_double_eq(x.n_med, 2.5); /* seeds' medians 2 and 3 */
    ck_assert_int_eq(x.n_same, 0);
    /* instance 1, config 1: seed 1's times 10, 0.05, 10 (the failure
     * counts the limit too): median 10; seeds 0.05 and 10: 5.025 */
    bench_cell(&b, 1, 1, &q, &x);
    ck_assert_uint_eq(x.proven, 4);
    ck_assert_uint_eq(x.limit, 1);
    ck_assert_uint_eq(x.failed, 1);
    ck_assert_double_eq_tol(x.t_med, 5.025, 1e-12);
    ck_assert_double_eq(x.t_max, 10);

    /* both instances are affected: 4 s >= 0.1 s, and nodes 8 vs 2.5 */
    ck_assert(bench_affected(&b, 0, &q));
    ck_assert(bench_affected(&b, 1, &q));
    q.affected_s = 100;
    ck_assert(bench_affected(&b, 0, &q));  /* the nodes differ */
    ck_assert(!bench_affected(&b, 1, &q)); /* 4 and 4 nodes */
    q.affected_s = 0.1;

    bench_summarize(&b, 0, &q, &s);
    ck_assert_uint_eq(s.solved, 2);
    ck_assert_uint_eq(s.limit + s.failed, 0);
    ck_assert_uint_eq(s.wins + s.ties + s.losses, 0);
    /* times 4 and 0.05, shift 1: (5 * 1.05)^(1/2) - 1 */
    ck_assert_double_eq_tol(s.sgm_s, sqrt(5 * 1.05) - 1, 1e-12);
    /* nodes over the instances both solved in every run: instance 0
     * only: 8 */
    ck_assert_double_eq_tol(s.sgm_nodes, 8, 1e-12);
    ck_assert_uint_eq(s.affected, 2);
    bench_summarize(&b, 1, &q, &s);
    ck_assert_uint_eq(s.solved, 1);
    ck_assert_uint_eq(s.failed, 1);
    /* instance 0: 0.5 [0.5..0.5] against 4 [1..6]: spreads apart, a
     * win; instance 1: 5.025 [0.05..10] against 0.05: overlap, a tie */
    ck_assert_uint_eq(s.wins, 1);
    ck_assert_uint_eq(s.ties, 1);
    ck_assert_uint_eq(s.losses, 0);
    ck_assert_double_eq_tol(s.sgm_nodes, 2.5, 1e-12);

    /* agreement: every optimum is 10 on instance 0 */
    ck_assert(!bench_disagree(&b, 0, 1, 1e-6, &ref));
    /* a later seed of config 1 proving 10.5 disagrees with config 0 */
    rows[bench_index(&b, 0, 1, 1, 2)].objective = 10.5;
    ck_assert(bench_disagree(&b, 0, 1, 1e-6, &ref));
    ck_assert_uint_eq(ref, 0);
    ck_assert(!bench_disagree(&b, 0, 1, 0.1, &ref)); /* 0.5 <= 0.1 * 10.5 */
    /* ... and within config 0 alone, between its seeds */
    rows[bench_index(&b, 0, 1, 1, 2)].objective = 10;
    rows[bench_index(&b, 0, 0, 1, 1)].objective = 11;
    ck_assert(bench_disagree(&b, 0, 0, 1e-6, &ref));
    /* a run not proven optimal is never in disagreement */
    rows[bench_index(&b, 0, 0, 1, 1)].status = SOLVE_FEASIBLE;
    ck_assert(!bench_disagree(&b, 0, 0, 1e-6, &ref));
    /* even is no optimiser: never in disagreement */
    rows[bench_index(&b, 0, 1, 0, 0)].objective = 12;
    ck_assert(bench_disagree(&b, 0, 1, 1e-6, &ref));
    cfg[1].o.name = "even";
    ck_assert(!bench_disagree(&b, 0, 1, 1e-6, &ref));
    b.rows = NULL;
    b.cfg = NULL;
    b.n_inst = b.n_cfg = 0;
    bench_release(&b);
}
END_TEST

START_TEST(test_config)
{
    struct bench b;
    struct alloc_opts base;
    struct bfs_error e;
    static const char *bad[] = {"dp:cbc", "milp:node:cbc:x", "simplex",
                                "milp:edge:cbc", "milp:nosuch"};

    alloc_opts_default(&base);
    base.time_limit = 7;
    bench_init(&b);
    bfs_error_clear(&e);
    ck_assert_int_eq(bench_add_config(&b, "dp", &base, &e), 0);
    ck_assert_str_eq(b.cfg[0].o.name, "dp");
    ck_assert_double_eq(b.cfg[0].o.time_limit, 7);
    if (solver_find("cbc")) {
        ck_assert_int_eq(
            bench_add_config(&b, "milp:node:cbc,cuts=off", &base, &e), 0);
        ck_assert_str_eq(b.cfg[1].o.name, "milp");
        ck_assert_str_eq(b.cfg[1].o.model, "node");
        ck_assert_str_eq(b.cfg[1].o.solver, "cbc,cuts=off");
        ck_assert_str_eq(b.cfg[1].label, "milp:node:cbc,cuts=off");
        ck_assert_int_eq(bench_add_config(&b, "milp:cbc", &base, &e), 0);
        ck_assert_str_eq(b.cfg[2].o.model, "count");
        ck_assert_str_eq(b.cfg[2].o.solver, "cbc");
        /* the whole model unless the configuration asks for the start */
        ck_assert_int_eq(b.cfg[2].o.start, 0);
        ck_assert_int_eq(base.start, -1);
        bfs_error_clear(&e);
        ck_assert_int_eq(bench_add_config(&b, "milp:cbc,bogus=1", &base, &e),
                         BFS_EUSAGE);
        ck_assert_ptr_nonnull(strstr(e.msg, "bogus"));
    }
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        size_t n = b.n_cfg;
        bfs_error_clear(&e);
        ck_assert_msg(bench_add_config(&b, bad[k], &base, &e) != 0, "%s",
                      bad[k]);
        ck_assert_uint_eq(b.n_cfg, n);
    }
    bench_release(&b);
}
END_TEST

/* A lone job on 10 idle nodes, O linear up to 12 (tools/DESIGN.md):
 * it takes all 10, objective Tfwd * O(10) = 100 * 10 = 1000. */
static const char *lone =
    "{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 10,"
    " \"tfwd\": 100, \"jobs\": [{\"name\": \"solo\", \"cur\": 0, \"jmin\": 1,"
    " \"jmax\": 12, \"tcup\": 18, \"tcdw\": 12,"
    " \"curve\": [[0, 0], [12, 12]]}]}\n";

/* A corpus directory: the lone job twice and the branch instance. */
static const char *corpus_dir(void)
{
    const char *d = tu_tmp("corpus");
    char cmd[8192];

    mkdir(d, 0700);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/b.json'",
             tu_src("tests/data/branch.instance.json"), d);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "corpus/a.json");
    tu_write(cmd, lone);
    tu_write("corpus/c.json", lone);
    tu_write("corpus/notes.txt", "not an instance\n");
    snprintf(cmd, sizeof cmd, "rm -f '%s/d.json'", d);
    ck_assert_int_eq(system(cmd), 0);
    return d;
}

START_TEST(test_run)
{
    struct bench b1, b2;
    struct alloc_opts base;
    struct bfs_error e;
    const char *d = corpus_dir();
    const char *cfgs[] = {"dp", "milp:cbc", "milp:glpk", "milp:node:glpk"};

    alloc_opts_default(&base);
    bench_init(&b1);
    bench_init(&b2);
    bfs_error_clear(&e);
    ck_assert_msg(bench_add_path(&b1, d, -1, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(bench_add_path(&b2, d, -1, &e), 0);
    ck_assert_uint_eq(b1.n_inst, 3);
    ck_assert_ptr_nonnull(strstr(b1.paths[0], "/a.json"));
    ck_assert_ptr_nonnull(strstr(b1.paths[1], "/b.json"));
    ck_assert_ptr_nonnull(strstr(b1.paths[2], "/c.json"));
    for (size_t k = 0; k < 4; k++) {
        if (k > 0 && !solver_find(k == 1 ? "cbc" : "glpk"))
            continue;
        ck_assert_int_eq(bench_add_config(&b1, cfgs[k], &base, &e), 0);
        ck_assert_int_eq(bench_add_config(&b2, cfgs[k], &base, &e), 0);
    }
    ck_assert_int_eq(bench_run(&b1, 1, &e), 0);
    ck_assert_int_eq(bench_run(&b2, 3, &e), 0);
    for (size_t i = 0; i < b1.n_inst; i++)
        for (size_t c = 0; c < b1.n_cfg; c++) {
            const struct bench_row *r = &b1.rows[bench_index(&b1, i, c, 0, 0)];
            const struct bench_row *q = &b2.rows[bench_index(&b2, i, c, 0, 0)];
            size_t ref;
            ck_assert(r->done && q->done);
            ck_assert_int_eq(r->status, SOLVE_OPTIMAL);
            ck_assert_int_eq(q->status, SOLVE_OPTIMAL);
            ck_assert_double_eq(r->objective, q->objective);
            ck_assert_uint_eq(r->cols, q->cols);
            /* the work is deterministic: the same in every process */
            ck_assert_int_eq(r->nodes, q->nodes);
            ck_assert_int_eq(r->iters, q->iters);
            if (i != 1)
                ck_assert_double_eq_tol(r->objective, 1000, 1e-9);
            ck_assert(!bench_disagree(&b1, i, c, 1e-6, &ref));
        }
    /* a bad file in the corpus names itself */
    tu_write("corpus/d.json", "{\"format\": \"bfsim-instance\"");
    bench_release(&b1);
    bfs_error_clear(&e);
    ck_assert_int_ne(bench_add_path(&b1, d, -1, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "d.json"));
    bench_release(&b1);
    bench_release(&b2);
}
END_TEST

/* The agreement check fires on a 50% gap, on either solver (without
 * its start: from dp's optimum it would stop there), and stays quiet on
 * exact configurations; the CSV has a row per pair. */
START_TEST(test_cli)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    const char *csv = tu_tmp("rows.csv");
    char args[8192], *out, *err;
    size_t lines = 0;

    if (!tu_bfsim_built())
        return;
    for (size_t i = 0; i < solver_count(); i++) {
        const char *b = solver_backend_name(i);
        snprintf(
            args, sizeof args, "solve --config dp --config 'milp:%s,%s=0.5' %s",
            b, strcmp(b, "cbc") == 0 ? "start=no,ratioGap" : "start=no,mip_gap",
            inst);
        ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 1);
        ck_assert_msg(strstr(err, "both proved different optimal "
                                  "objectives") != NULL,
                      "%s", err);
        ck_assert_ptr_nonnull(strstr(out, "disagreements: 1"));
        free(out);
        free(err);
        /* exact configurations agree: exit 0, and the CSV */
        snprintf(args, sizeof args,
                 "solve -j 2 --config dp --config milp:%s --config "
                 "milp:node:%s --csv %s %s %s",
                 b, b, csv, inst, inst);
        ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
        ck_assert_msg(strstr(out, "disagreements: 0") != NULL, "%s", out);
        ck_assert_ptr_nonnull(strstr(out, "time shift 0.01 s"));
        ck_assert_ptr_nonnull(strstr(out, "load average: "));
        free(out);
        free(err);
        out = tu_slurp(csv);
        ck_assert_ptr_nonnull(out);
        lines = 0;
        for (char *p = out; *p; p++)
            lines += *p == '\n';
        ck_assert_uint_eq(lines, 1 + 2 * 3);
        {
            const char *head = "instance,config,seed,repeat,status,"
                               "objective,bound,time_s,";
            ck_assert_msg(strncmp(out, head, strlen(head)) == 0, "%s", out);
        }
        ck_assert_ptr_nonnull(strstr(out, ",dp,0,0,optimal,331660,"));
        free(out);
    }
    /* usage errors */
    snprintf(args, sizeof args, "solve --config 'milp:cbc,frobnicate=1' %s",
             inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "frobnicate"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve --config dp --allocator dp %s", inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 2);
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve --config dp --json %s", inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 2);
    free(out);
    free(err);
    ck_assert_int_eq(tu_bfsim_output("solve --config dp", &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "missing instance"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve -j 0 --config dp %s", inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 2);
    free(out);
    free(err);
}
END_TEST

/* One list of a run's measures feeds a corpus's rows and a single
 * solve's JSON: the CSV's columns after the run's place (instance,
 * config, seed, repeat) are the JSON's keys after the file and the
 * allocator, in the same order, but the corpus's time_s; and dp's
 * optimum of the branch instance (331660, test_cli) is in both. */
START_TEST(test_columns)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    const char *csv = tu_tmp("cols.csv"), *k;
    static const char *const place[] = {"instance", "config", "seed", "repeat"};
    static const char *const around[] = {"file", "allocator", "model", "solver",
                                         "cap",  "counts",    "types"};
    char args[8192], *out, *err, *head, *field, *save = NULL;
    json_t *root, *v;
    json_error_t je;
    size_t n_keys = 0, n_cols = 0;
    int skip;

    if (!tu_bfsim_built())
        return;
    snprintf(args, sizeof args, "solve --json --allocator dp %s", inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    root = json_loads(out, 0, &je);
    ck_assert_msg(root != NULL, "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "solve --config dp --csv %s %s %s", csv, inst,
             inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    free(out);
    free(err);
    head = tu_slurp(csv);
    ck_assert_ptr_nonnull(head);
    ck_assert_ptr_nonnull(strstr(head, ",dp,0,0,optimal,331660,"));
    ck_assert_double_eq(json_number_value(json_object_get(root, "objective")),
                        331660);
    *strchr(head, '\n') = '\0';
    field = strtok_r(head, ",", &save);
    json_object_foreach(root, k, v)
    {
        skip = 0;
        for (size_t a = 0; a < sizeof around / sizeof *around; a++)
            skip |= strcmp(k, around[a]) == 0;
        if (skip)
            continue;
        /* the next column that is not the run's place nor time_s */
        for (;;) {
            ck_assert_msg(field != NULL, "JSON key %s is not a column", k);
            skip = strcmp(field, "time_s") == 0;
            for (size_t a = 0; a < sizeof place / sizeof *place; a++)
                skip |= strcmp(field, place[a]) == 0;
            if (!skip)
                break;
            field = strtok_r(NULL, ",", &save);
        }
        ck_assert_str_eq(k, field);
        field = strtok_r(NULL, ",", &save);
        n_keys++;
    }
    for (; field; field = strtok_r(NULL, ",", &save))
        n_cols++;
    ck_assert_msg(n_cols == 0, "%zu columns not in the JSON", n_cols);
    ck_assert_uint_ge(n_keys, 1);
    free(head);
    json_decref(root);
}
END_TEST

/* The field name (a double) of every record of dataset ds in f, into v
 * (room for max); returns the number of records. */
static size_t h5_doubles(hid_t f, const char *ds, const char *name, double *v,
                         size_t max)
{
    hid_t d = H5Dopen2(f, ds, H5P_DEFAULT), sp, t;
    hssize_t n;

    ck_assert_int_ge(d, 0);
    sp = H5Dget_space(d);
    n = H5Sget_simple_extent_npoints(sp);
    ck_assert_int_le(n, (hssize_t)max);
    t = H5Tcreate(H5T_COMPOUND, sizeof(double));
    H5Tinsert(t, name, 0, H5T_NATIVE_DOUBLE);
    ck_assert_int_ge(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    return (size_t)n;
}

/* -o: /rows and /summary hold what the CSV and the table say (GLPK
 * without its start, which would hold the optimum at any gap). */
START_TEST(test_h5)
{
    const char *h5 = tu_tmp("corpus.h5");
    const char *d = corpus_dir();
    char args[8192], *out, *err;
    double v[16];
    hid_t f;

    if (!tu_bfsim_built() || !solver_find("glpk"))
        return;
    /* a, b, c: the lone job twice (1000) and the branch instance */
    snprintf(args, sizeof args,
             "solve --config dp --config 'milp:glpk,start=no,mip_gap=0.5' -o "
             "%s %s",
             h5, d);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 1);
    free(out);
    free(err);
    f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    ck_assert_uint_eq(h5_doubles(f, "rows", "objective", v, 16), 6);
    ck_assert_double_eq(v[0], 1000);       /* a, dp */
    ck_assert_double_eq(v[2], 331660);     /* b, dp */
    ck_assert_double_lt(v[3], 331660 - 1); /* b, at a 50% gap */
    ck_assert_uint_eq(h5_doubles(f, "summary", "solved", v, 16), 2);
    ck_assert_double_eq(v[0], 3);
    ck_assert_double_eq(v[1], 3);
    ck_assert_uint_eq(h5_doubles(f, "instances", "time_median_s", v, 16), 6);
    H5Fclose(f);
}
END_TEST

/* The runs of the whole count model on the branch instance, which makes
 * both solvers branch: node and iteration counts non-zero and the same
 * in every repeat; with --seeds 3 and CBC's seeds fixed by the
 * configuration's own parameters, the same under every seed. */
START_TEST(test_work)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    const char *h5 = tu_tmp("work.h5");
    char args[8192], *out, *err;
    double nodes[16], iters[16], seed[16], lo[4], hi[4];
    hid_t f;

    if (!tu_bfsim_built() || !solver_find("cbc"))
        return;
    snprintf(args, sizeof args,
             "solve --threads 1 --repeat 2 --seeds 3 --config milp:cbc "
             "--config 'milp:cbc,randomCbcSeed=7,randomSeed=7' -o %s %s",
             h5, inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_msg(strstr(out, "seeds 1..3") != NULL, "%s", out);
    free(out);
    free(err);
    f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    /* rows: config 0 seeds 1, 1, 2, 2, 3, 3, then config 1 likewise */
    ck_assert_uint_eq(h5_doubles(f, "rows", "nodes", nodes, 16), 12);
    ck_assert_uint_eq(h5_doubles(f, "rows", "iterations", iters, 16), 12);
    ck_assert_uint_eq(h5_doubles(f, "rows", "seed", seed, 16), 12);
    for (size_t k = 0; k < 12; k += 2) {
        ck_assert_double_eq(seed[k], (double)(k % 6 / 2 + 1));
        ck_assert_double_gt(nodes[k], 0);
        ck_assert_double_gt(iters[k], 0);
        ck_assert_double_eq(nodes[k], nodes[k + 1]);
        ck_assert_double_eq(iters[k], iters[k + 1]);
    }
    /* the fixed seed: one node count under every seed */
    ck_assert_double_eq(nodes[6], nodes[8]);
    ck_assert_double_eq(nodes[6], nodes[10]);
    ck_assert_uint_eq(h5_doubles(f, "instances", "nodes_min", lo, 4), 2);
    ck_assert_uint_eq(h5_doubles(f, "instances", "nodes_max", hi, 4), 2);
    ck_assert_double_eq(lo[1], hi[1]);
    H5Fclose(f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("stats");

    tcase_add_test(tc, test_sgm);
    tcase_add_test(tc, test_columns);
    tcase_add_test(tc, test_differ);
    tcase_add_test(tc, test_median);
    tcase_add_test(tc, test_verdict);
    tcase_add_test(tc, test_summarize);
    tcase_add_test(tc, test_config);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_run);
    tcase_add_test(tc, test_cli);
    tcase_add_test(tc, test_h5);
    tcase_add_test(tc, test_work);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
