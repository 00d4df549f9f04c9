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

/* Three instances, three configurations, rows made by hand. */
START_TEST(test_summarize)
{
    struct bench b;
    struct bench_summary s;
    struct bench_row rows[9];
    struct bench_config cfg[3];
    size_t ref = 99;

    bench_init(&b);
    memset(cfg, 0, sizeof cfg);
    cfg[0].o.name = cfg[1].o.name = cfg[2].o.name = "dp";
    b.n_inst = 3;
    b.n_cfg = 3;
    /* instance 0: all optimal at 10; config 1 at 1 s, config 2 at 2 s */
    rows[0] = row(SOLVE_OPTIMAL, 10, 2.0);
    rows[1] = row(SOLVE_OPTIMAL, 10, 1.0);
    rows[2] = row(SOLVE_OPTIMAL, 10.5, 2.1);
    /* instance 1: config 1 stops at its limit, config 2 fails */
    rows[3] = row(SOLVE_OPTIMAL, 7, 0.5);
    rows[4] = row(SOLVE_FEASIBLE, 6, 9.0);
    rows[5] = row(SOLVE_FAILED, nan(""), 0.1);
    /* instance 2: config 0 finds nothing; config 2's process died */
    rows[6] = row(SOLVE_NO_SOLUTION, nan(""), 10.0);
    rows[7] = row(SOLVE_INFEASIBLE, nan(""), 3.0);
    rows[8] = row(SOLVE_OPTIMAL, 1, 1.0);
    rows[8].done = 0;
    b.rows = rows;
    b.cfg = cfg;
    /* times (time limit 10 for unproven): config 0: 2, 0.5, 10;
     * config 1: 1, 10, 3; config 2: 2.1, 10, 10 */
    bench_summarize(&b, 0, 10, 1, 1.1, &s);
    ck_assert_uint_eq(s.optimal, 2);
    ck_assert_uint_eq(s.limit, 1);
    ck_assert_uint_eq(s.failed, 0);
    ck_assert_uint_eq(s.wins + s.losses, 0);
    /* (3 * 1.5 * 11)^(1/3) - 1 */
    ck_assert_double_eq_tol(s.sgm_s, cbrt(3 * 1.5 * 11) - 1, 1e-12);
    bench_summarize(&b, 1, 10, 1, 1.1, &s);
    ck_assert_uint_eq(s.optimal, 1);
    ck_assert_uint_eq(s.infeasible, 1);
    ck_assert_uint_eq(s.limit, 1);
    ck_assert_uint_eq(s.failed, 0);
    /* 1 vs 2: win; 10 vs 0.5: loss; 3 vs 10: win */
    ck_assert_uint_eq(s.wins, 2);
    ck_assert_uint_eq(s.losses, 1);
    ck_assert_double_eq_tol(s.sgm_s, cbrt(2 * 11 * 4.0) - 1, 1e-12);
    bench_summarize(&b, 2, 10, 1, 1.1, &s);
    ck_assert_uint_eq(s.optimal, 1);
    ck_assert_uint_eq(s.failed, 2); /* a failure and a dead process */
    /* 2.1 vs 2: within 10%; 10 vs 0.5: loss; 10 vs 10: even */
    ck_assert_uint_eq(s.wins, 0);
    ck_assert_uint_eq(s.losses, 1);
    /* agreement: on instance 0, config 2's 10.5 differs from 10 */
    ck_assert(!bench_disagree(&b, 0, 1, 1e-6, &ref));
    ck_assert(bench_disagree(&b, 0, 2, 1e-6, &ref));
    ck_assert_uint_eq(ref, 0);
    ck_assert(!bench_disagree(&b, 0, 2, 0.1, &ref)); /* 0.5 <= 0.1 * 10.5 */
    /* a config not proven optimal is never in disagreement */
    ck_assert(!bench_disagree(&b, 1, 1, 1e-6, &ref));
    ck_assert(!bench_disagree(&b, 2, 2, 1e-6, &ref));
    /* even is no optimiser: never in disagreement */
    cfg[2].o.name = "even";
    ck_assert(!bench_disagree(&b, 0, 2, 1e-6, &ref));
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
            const struct bench_row *r = &b1.rows[i * b1.n_cfg + c];
            const struct bench_row *q = &b2.rows[i * b1.n_cfg + c];
            size_t ref;
            ck_assert(r->done && q->done);
            ck_assert_int_eq(r->status, SOLVE_OPTIMAL);
            ck_assert_int_eq(q->status, SOLVE_OPTIMAL);
            ck_assert_double_eq(r->objective, q->objective);
            ck_assert_uint_eq(r->cols, q->cols);
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
        ck_assert_msg(strstr(err, "both proved optimal objectives 331660 "
                                  "and ") != NULL,
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
        ck_assert_ptr_nonnull(strstr(out, "shift 10 s"));
        free(out);
        free(err);
        out = tu_slurp(csv);
        ck_assert_ptr_nonnull(out);
        lines = 0;
        for (char *p = out; *p; p++)
            lines += *p == '\n';
        ck_assert_uint_eq(lines, 1 + 2 * 3);
        ck_assert_msg(
            strncmp(out, "instance,config,status,objective,bound,", 39) == 0,
            "%s", out);
        ck_assert_ptr_nonnull(strstr(out, ",\"dp\",optimal,331660,"));
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
    ck_assert_uint_eq(h5_doubles(f, "summary", "optimal", v, 16), 2);
    ck_assert_double_eq(v[0], 3);
    ck_assert_double_eq(v[1], 3);
    H5Fclose(f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("stats");

    tcase_add_test(tc, test_sgm);
    tcase_add_test(tc, test_differ);
    tcase_add_test(tc, test_summarize);
    tcase_add_test(tc, test_config);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_run);
    tcase_add_test(tc, test_cli);
    tcase_add_test(tc, test_h5);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
