/* check_params.c - the backends' own parameters (`--solver NAME,K=V`):
 * the tables, their check, that they reach the solver, and the command
 * line around them.
 *
 * That a parameter reaches the solver is shown by its effect on a known
 * answer: the 4-item knapsack below has a fractional root relaxation
 * (value 22) and the unique optimum 21 (by enumeration of its 16
 * subsets), so CBC stopped after 0 nodes, with cuts, preprocessing and
 * heuristics off, cannot prove it.  tests/data/branch.instance.json (an
 * instance dumped by `bfsim replay --dump-instances`: 10 jobs, 12 nodes)
 * is one CBC does not solve at its root with bfsim's settings (maxNodes=1
 * gives only a feasible answer) and where a 50% gap stops both solvers
 * short of the optimum, which dp and both solvers with their defaults
 * agree on.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "solver/solver.h"
#include "testjson.h"
#include "testutil.h"

#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* max 8a + 11b + 6c + 4d s.t. 5a + 7b + 4c + 3d <= 14, binary: subsets
 * of weight <= 14 are at most {b,c,d} = 21 (weight 14), {a,b} = 19, {a,c,d}
 * = 18 and their subsets; the relaxation takes a, b and half of c: 22. */
static void knapsack(struct milp *m)
{
    static const double v[] = {8, 11, 6, 4}, w[] = {5, 7, 4, 3};

    milp_init(m, 1);
    for (int i = 0; i < 4; i++)
        milp_add_col(m, 0, 1, 1, v[i]);
    milp_row_begin(m, -HUGE_VAL, 14);
    for (int i = 0; i < 4; i++)
        milp_row_add(m, i, w[i]);
    milp_row_end(m);
}

/* Solves the knapsack on backend i with params; returns the status and
 * the objective in *obj. */
static int solve_with(size_t i, const char *params, int isolate, double *obj)
{
    struct solver_opts o;
    struct solver *s = NULL;
    struct solve_result r;
    struct bfs_error e;
    struct milp m;
    double x[4];

    solver_opts_default(&o);
    o.time_limit = 10;
    o.gap_rel = 0;
    o.isolate = isolate ? SOLVER_ISOLATE_YES : SOLVER_ISOLATE_NO;
    bfs_error_clear(&e);
    ck_assert_msg(solver_params_canon(solver_backend_name(i), params, o.params,
                                      sizeof o.params, &e) == 0,
                  "%s", e.msg);
    ck_assert_msg(solver_create(solver_backend_name(i), &o, &s, &e) == 0, "%s",
                  e.msg);
    knapsack(&m);
    memset(&r, 0, sizeof r);
    r.x = x;
    ck_assert_int_eq(solver_solve(s, &m, &r, &e), 0);
    *obj = r.objective;
    milp_release(&m);
    solver_destroy(s);
    return r.status;
}

/* The check: canonical order, each refusal with its reason. */
START_TEST(test_canon)
{
    const char *b = solver_backend_name((size_t)_i);
    const struct solver_param *t;
    char out[SOLVER_PARAMS_LEN], in[SOLVER_PARAMS_LEN], small[8];
    struct bfs_error e;
    size_t n;

    t = solver_params_table(b, &n);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_ge(n, 2);
    ck_assert_ptr_null(solver_params_table("gurobi", &n));
    ck_assert_uint_eq(n, 0);
    t = solver_params_table(b, &n);
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_params_canon(b, "", out, sizeof out, &e), 0);
    ck_assert_str_eq(out, "");
    /* an unknown key names itself and lists the accepted ones */
    bfs_error_clear(&e);
    ck_assert_int_eq(
        solver_params_canon(b, "frobnicate=1", out, sizeof out, &e),
        BFS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown parameter 'frobnicate'"));
    ck_assert_ptr_nonnull(strstr(e.msg, t[0].key));
    ck_assert_ptr_nonnull(strstr(e.msg, t[n - 1].key));
    /* no '=', twice, a word not listed, a number out of range */
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_params_canon(b, t[0].key, out, sizeof out, &e),
                     BFS_EUSAGE);
    for (size_t k = 0; k < n; k++) {
        const struct solver_param *p = &t[k];
        char ok[128], bad[128], two[300];
        if (p->kind == SOLVER_PARAM_WORD) {
            snprintf(ok, sizeof ok, "%s=%.*s", p->key,
                     (int)strcspn(p->words, "|"), p->words);
            snprintf(bad, sizeof bad, "%s=nonsense", p->key);
        } else {
            snprintf(ok, sizeof ok, "%s=%.17g", p->key, p->min);
            snprintf(bad, sizeof bad, "%s=%.17g", p->key,
                     p->min - (p->kind == SOLVER_PARAM_INT ? 1 : 1e-3));
        }
        bfs_error_clear(&e);
        ck_assert_msg(solver_params_canon(b, ok, out, sizeof out, &e) == 0,
                      "%s: %s", ok, e.msg);
        ck_assert_str_eq(out, ok);
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_params_canon(b, bad, out, sizeof out, &e),
                         BFS_EUSAGE);
        ck_assert_msg(strstr(e.msg, p->key) != NULL, "%s", e.msg);
        snprintf(two, sizeof two, "%s,%s", ok, ok);
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_params_canon(b, two, out, sizeof out, &e),
                         BFS_EUSAGE);
        ck_assert_ptr_nonnull(strstr(e.msg, "twice"));
    }
    /* order: the table's */
    {
        char a[128], z[128], want[300];
        const struct solver_param *p = &t[0], *q = &t[n - 1];
        snprintf(a, sizeof a, "%s=%.*s", p->key, (int)strcspn(p->words, "|"),
                 p->words);
        if (q->kind == SOLVER_PARAM_WORD)
            snprintf(z, sizeof z, "%s=%.*s", q->key,
                     (int)strcspn(q->words, "|"), q->words);
        else
            snprintf(z, sizeof z, "%s=%.17g", q->key, q->min);
        snprintf(in, sizeof in, "%s,%s", z, a);
        snprintf(want, sizeof want, "%s,%s", a, z);
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_params_canon(b, in, out, sizeof out, &e), 0);
        ck_assert_str_eq(out, want);
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_params_canon(b, in, small, sizeof small, &e),
                         BFS_ERANGE);
    }
}
END_TEST

/* Every entry of the table, with every word it lists, is taken by the
 * solver without a complaint (CBC prints unknown names and words on
 * standard output and goes on).  Solves run isolated: a setting that
 * crashes CBC costs a solve, not the test. */
START_TEST(test_table_silent)
{
    const char *b = solver_backend_name((size_t)_i);
    const char *path = tu_tmp("stdout.txt");
    const struct solver_param *t;
    size_t n;
    double obj;
    char *out;
    int fd, saved;

    t = solver_params_table(b, &n);
    fflush(stdout);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    saved = dup(1);
    dup2(fd, 1);
    for (size_t k = 0; k < n; k++) {
        char item[128];
        if (t[k].kind != SOLVER_PARAM_WORD) {
            snprintf(item, sizeof item, "%s=%.17g", t[k].key, t[k].min);
            solve_with((size_t)_i, item, 1, &obj);
            continue;
        }
        for (const char *w = t[k].words; *w;) {
            size_t wl = strcspn(w, "|");
            snprintf(item, sizeof item, "%s=%.*s", t[k].key, (int)wl, w);
            solve_with((size_t)_i, item, 1, &obj);
            w += wl + (w[wl] == '|');
        }
    }
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    out = tu_slurp(path);
    ck_assert_msg(out && out[0] == '\0', "%s printed: %.600s", b, out);
    free(out);
}
END_TEST

/* A parameter reaches the solver: CBC stopped at the root cannot prove
 * the knapsack's optimum; GLPK with presolve=off (the glp_simplex path)
 * still finds it. */
START_TEST(test_reaches)
{
    const char *b = solver_backend_name((size_t)_i / 2);
    int iso = _i % 2, st;
    double obj;

    st = solve_with((size_t)_i / 2, "", iso, &obj);
    ck_assert_int_eq(st, SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(obj, 21, 1e-9);
    if (strcmp(b, "cbc") == 0) {
        st = solve_with((size_t)_i / 2,
                        "preprocess=off,cuts=off,heuristics=off,maxNodes=0",
                        iso, &obj);
        ck_assert_msg(st == SOLVE_FEASIBLE || st == SOLVE_NO_SOLUTION,
                      "status %s", solve_status_name(st));
    } else if (strcmp(b, "glpk") == 0) {
        st = solve_with((size_t)_i / 2,
                        "presolve=off,meth=primal,pricing=std,r_test=har,"
                        "br_tech=ffv,bt_tech=dfs",
                        iso, &obj);
        ck_assert_int_eq(st, SOLVE_OPTIMAL);
        ck_assert_double_eq_tol(obj, 21, 1e-9);
    }
}
END_TEST

/* GLPK with presolve=off: an infeasible relaxation is an infeasible
 * model (glp_intopt would refuse to start without a basis). */
START_TEST(test_glpk_presolve_off_infeasible)
{
    struct solver_opts o;
    struct solver *s = NULL;
    struct solve_result r;
    struct bfs_error e;
    struct milp m;
    double x[2];

    if (!solver_find("glpk"))
        return;
    solver_opts_default(&o);
    strcpy(o.params, "presolve=off");
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_create("glpk", &o, &s, &e), 0);
    /* x + y >= 3 with x, y in [0, 1] */
    milp_init(&m, 1);
    milp_add_col(&m, 0, 1, 1, 1);
    milp_add_col(&m, 0, 1, 1, 1);
    milp_row_begin(&m, 3, HUGE_VAL);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 1, 1);
    milp_row_end(&m);
    memset(&r, 0, sizeof r);
    r.x = x;
    ck_assert_int_eq(solver_solve(s, &m, &r, &e), 0);
    ck_assert_int_eq(r.status, SOLVE_INFEASIBLE);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

/* solver_create refuses options whose params are not canonical. */
START_TEST(test_create_checks)
{
    const char *b = solver_backend_name((size_t)_i);
    struct solver_opts o;
    struct solver *s = NULL;
    struct bfs_error e;

    solver_opts_default(&o);
    strcpy(o.params, "nosuchkey=1");
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_create(b, &o, &s, &e), BFS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "nosuchkey"));
}
END_TEST

/* ---- the allocator and the command line -------------------------------- */

/* Solves the branch instance with the allocator options; returns the
 * status and the objective in *obj. */
static int solve_branch(const char *alloc, const char *solver, double *obj)
{
    struct alloc_opts o;
    struct allocator *a = NULL;
    struct alloc_result r;
    struct instance in;
    struct bfs_error e;
    int *counts;

    alloc_opts_default(&o);
    o.name = alloc;
    o.solver = solver;
    o.time_limit = 600.0; /* answers, not the machine's speed */
    bfs_error_clear(&e);
    ck_assert_msg(
        instance_read(tu_src("tests/data/branch.instance.json"), &in, &e) == 0,
        "%s", e.msg);
    ck_assert_msg(allocator_create(&o, &a, &e) == 0, "%s", e.msg);
    counts = xcalloc(in.p.n_jobs, sizeof *counts);
    memset(&r, 0, sizeof r);
    r.counts = counts;
    ck_assert_int_eq(allocator_solve(a, &in.p, &r, &e), 0);
    *obj = r.objective;
    xfree(counts);
    allocator_free(a);
    instance_release(&in);
    return r.status;
}

/* The branch instance: dp and both solvers with their defaults agree;
 * CBC with no node, or one, does not prove it; a 50% gap stops short.
 * They run with start=no: from their start (dp's optimum) the solvers
 * hold the optimum before any search, and a 50% gap then stops at it
 * (checked last). */
START_TEST(test_allocator_branch)
{
    double best, obj;
    int st;

    ck_assert_int_eq(solve_branch("dp", NULL, &best), SOLVE_OPTIMAL);
    for (size_t i = 0; i < solver_count(); i++) {
        const char *b = solver_backend_name(i);
        char spec[128];
        ck_assert_int_eq(solve_branch("milp", b, &obj), SOLVE_OPTIMAL);
        ck_assert_double_eq_tol(obj, best, 1e-6);
        snprintf(spec, sizeof spec, "%s,%s", b,
                 strcmp(b, "cbc") == 0 ? "ratioGap=0.5,start=no"
                                       : "mip_gap=0.5,start=no");
        ck_assert_int_eq(solve_branch("milp", spec, &obj), SOLVE_OPTIMAL);
        ck_assert_msg(obj < best - 1, "%s: %.17g, optimum %.17g", spec, obj,
                      best);
        snprintf(spec, sizeof spec, "%s,%s", b,
                 strcmp(b, "cbc") == 0 ? "ratioGap=0.5" : "mip_gap=0.5");
        ck_assert_int_eq(solve_branch("milp", spec, &obj), SOLVE_OPTIMAL);
        ck_assert_double_eq_tol(obj, best, 1e-6);
        if (strcmp(b, "cbc") != 0)
            continue;
        for (int nodes = 0; nodes < 2; nodes++) {
            snprintf(spec, sizeof spec, "cbc,maxNodes=%d,isolate=no,start=no",
                     nodes);
            st = solve_branch("milp", spec, &obj);
            ck_assert_msg(st == SOLVE_FEASIBLE || st == SOLVE_NO_SOLUTION,
                          "%s: %s", spec, solve_status_name(st));
        }
    }
}
END_TEST

START_TEST(test_alloc_solver_params)
{
    struct alloc_opts o;
    struct bfs_error e;
    char out[SOLVER_PARAMS_LEN];

    alloc_opts_default(&o);
    o.name = "dp";
    o.solver = "cbc,cuts=off";
    ck_assert_int_eq(alloc_solver_params(&o, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, "");
    if (!solver_find("cbc"))
        return;
    o.name = "milp";
    o.solver = "cbc,maxNodes=3,isolate=no,cuts=off,start=yes";
    bfs_error_clear(&e);
    ck_assert_int_eq(alloc_solver_params(&o, out, sizeof out, &e), 0);
    ck_assert_str_eq(out, "cuts=off,maxNodes=3");
    o.solver = "cbc,isolate=maybe";
    bfs_error_clear(&e);
    ck_assert_int_eq(alloc_solver_params(&o, out, sizeof out, &e), BFS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "isolate=maybe"));
}
END_TEST

START_TEST(test_cli)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    const char *sum = tu_tmp("sum.json");
    char args[8192], *out;
    json_t *root;

    if (!tu_bfsim_built() || solver_count() == 0)
        return;
    for (size_t i = 0; i < solver_count(); i++) {
        const char *b = solver_backend_name(i);
        const struct solver_param *t;
        size_t n;
        /* help lists every key with its values, exit 0 */
        snprintf(args, sizeof args, "solve --solver %s,help", b);
        ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 0);
        t = solver_params_table(b, &n);
        for (size_t k = 0; k < n; k++)
            ck_assert_msg(strstr(out, t[k].key) != NULL, "%s: %s", b, t[k].key);
        ck_assert_ptr_nonnull(strstr(out, "isolate=yes|no"));
        free(out);
        /* an unknown key: usage error naming it and the accepted ones */
        snprintf(args, sizeof args, "solve --solver %s,frobnicate=2 %s", b,
                 inst);
        ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 2);
        ck_assert_msg(strstr(out, "frobnicate") && strstr(out, t[0].key), "%s",
                      out);
        free(out);
        /* a bad value: usage error naming the key */
        snprintf(args, sizeof args, "solve --solver %s,%s=zzz %s", b, t[0].key,
                 inst);
        ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 2);
        ck_assert_msg(strstr(out, t[0].key) && strstr(out, "zzz"), "%s", out);
        free(out);
        /* the replay refuses it too, before replaying */
        snprintf(args, sizeof args,
                 "replay -q --trace %s --solver %s,frobnicate=2 --summary %s",
                 tu_src("traces/summit-2021-02.trace.gz"), b, sum);
        ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 2);
        ck_assert_ptr_nonnull(strstr(out, "frobnicate"));
        ck_assert_int_eq(tu_exists(sum), 0);
        free(out);
    }
    if (!solver_find("cbc"))
        return;
    /* the parameter reaches CBC through the command line */
    snprintf(args, sizeof args,
             "solve --json --solver cbc,maxNodes=0,start=no %s", inst);
    ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 0);
    root = json_loads(out, 0, NULL);
    ck_assert_msg(root != NULL, "%s", out);
    ck_assert_str_eq(json_string_value(json_object_get(root, "status")),
                     "no-solution");
    json_decref(root);
    free(out);
    /* and the replay records the parameters it used */
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --nodes 16 "
             "--start 2021-02-10T20:21:15 --end 2021-02-10T21:00:00 "
             "--solver 'cbc,isolate=no,maxNodes=100000,cuts=root' "
             "--summary %s",
             tu_src("traces/summit-2021-02.trace.gz"),
             tu_src("datasets/hps-shufflenet-10J.jobs"), sum);
    ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 0);
    free(out);
    root = tu_load_json(sum);
    ck_assert_str_eq(json_string_value(json_object_get(root, "solver_params")),
                     "cuts=root,maxNodes=100000");
    json_decref(root);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("solver");
    int nb = (int)solver_count();

    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_canon, 0, nb);
    tcase_add_loop_test(tc, test_table_silent, 0, nb);
    tcase_add_loop_test(tc, test_reaches, 0, 2 * nb);
    tcase_add_test(tc, test_glpk_presolve_off_infeasible);
    tcase_add_loop_test(tc, test_create_checks, 0, nb);
    suite_add_tcase(s, tc);
    tc = tcase_create("alloc");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_allocator_branch);
    tcase_add_test(tc, test_alloc_solver_params);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
