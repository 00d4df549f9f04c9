/* check_solver.c - the solver-neutral model and every compiled-in backend.
 *
 * Backend tests are loop tests over (backend, isolation): loop index i
 * runs backend i / 2, isolated when i is odd, so every backend is tried
 * both in process and in a forked child.  The optima are known by hand
 * (or, for the knapsack, by enumerating its 256 subsets).  One test
 * checks that every backend configure found is registered, so that a
 * loop over zero backends cannot pass silently.
 */
#include "config.h"

#include "solver/solver.h"
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *backend(int i)
{
    return solver_backend_name((size_t)i / 2);
}

static struct solver *make(int i, double time_limit)
{
    struct solver_opts o;
    struct solver *s = NULL;
    struct bfs_error e;

    solver_opts_default(&o);
    o.time_limit = time_limit;
    o.gap_rel = 0;
    o.gap_abs = 0;
    o.isolate = i % 2 ? SOLVER_ISOLATE_YES : SOLVER_ISOLATE_NO;
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_create(backend(i), &o, &s, &e), 0);
    return s;
}

static int solve(struct solver *s, const struct milp *m, struct solve_result *r,
                 double *x)
{
    struct bfs_error e;
    int rc;

    memset(r, 0, sizeof *r);
    r->x = x;
    bfs_error_clear(&e);
    rc = solver_solve(s, m, r, &e);
    ck_assert_msg(rc == 0, "solve: %s", e.msg);
    return r->status;
}

/* max 10a+13b+7c+8d+6e+3f+9g+5h, weights 5,6,3,4,3,2,5,3 <= 14: the
 * unique optimum is a+b+c = 30 (found by enumeration). */
static void knapsack(struct milp *m)
{
    static const double v[] = {10, 13, 7, 8, 6, 3, 9, 5};
    static const double w[] = {5, 6, 3, 4, 3, 2, 5, 3};

    milp_init(m, 1);
    for (int i = 0; i < 8; i++)
        milp_add_col(m, 0, 1, 1, v[i]);
    milp_row_begin(m, -HUGE_VAL, 14);
    for (int i = 0; i < 8; i++)
        milp_row_add(m, i, w[i]);
    milp_row_end(m);
}

START_TEST(test_knapsack)
{
    struct milp m;
    struct solver *s = make(_i, HUGE_VAL);
    struct solve_result r;
    double x[8];

    knapsack(&m);
    ck_assert_str_eq(solve_status_name(solve(s, &m, &r, x)), "optimal");
    ck_assert_double_eq_tol(r.objective, 30, 1e-9);
    ck_assert_double_eq_tol(r.bound, 30, 1e-6);
    for (int i = 0; i < 8; i++)
        ck_assert_double_eq_tol(x[i], i < 3 ? 1 : 0, 1e-6);
    ck_assert(r.build_s >= 0 && r.solve_s >= 0);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

/* An isolated solver keeps its child between solves and starts a new one
 * after a crash. */
START_TEST(test_worker_kept)
{
    struct milp m;
    struct solver *s = make(_i, 10);
    struct solve_result r;
    double x[8];

    knapsack(&m);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
        ck_assert_double_eq_tol(r.objective, 30, 1e-9);
        ck_assert_int_eq(solver_worker_pid(s) != 0, _i % 2);
    }
    if (solver_worker_pid(s)) {
        /* killed from outside: the solve that finds out may fail (the
         * child may die before or after the model is sent), the next one
         * runs in a new child */
        long pid = solver_worker_pid(s);
        int st;
        kill((pid_t)pid, SIGKILL);
        st = solve(s, &m, &r, x);
        ck_assert_msg(st == SOLVE_OPTIMAL || st == SOLVE_FAILED, "%s",
                      solve_status_name(st));
        ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
        ck_assert(solver_worker_pid(s) != 0 && solver_worker_pid(s) != pid);
    }
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

START_TEST(test_threads_and_gaps)
{
    struct milp m;
    struct solver_opts o;
    struct solver *s;
    struct solve_result r;
    struct bfs_error e;
    double x[8];

    /* threads where the solver has them: same optimum */
    solver_opts_default(&o);
    o.threads = 2;
    o.isolate = _i % 2;
    ck_assert_int_eq(solver_create(backend(_i), &o, &s, &e), 0);
    knapsack(&m);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(r.objective, 30, 1e-9);
    solver_destroy(s);
    /* a loose absolute gap still ends in an answer within it */
    o.threads = 0;
    o.gap_abs = 5;
    o.gap_rel = 0.1;
    ck_assert_int_eq(solver_create(backend(_i), &o, &s, &e), 0);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert(r.objective >= 30 - 5 - 1e-9);
    ck_assert(milp_violation(&m, x) < 1e-6);
    solver_destroy(s);
    milp_release(&m);
}
END_TEST

START_TEST(test_infeasible)
{
    struct milp m;
    struct solver *s = make(_i, 10);
    struct solve_result r;
    double x[3];

    /* three binaries summing to at least 4 */
    milp_init(&m, 0);
    for (int i = 0; i < 3; i++)
        milp_add_col(&m, 0, 1, 1, 1);
    milp_row_begin(&m, 4, HUGE_VAL);
    for (int i = 0; i < 3; i++)
        milp_row_add(&m, i, 1);
    milp_row_end(&m);
    ck_assert_str_eq(solve_status_name(solve(s, &m, &r, x)), "infeasible");
    /* an integrality-infeasible model: 2x = 3, x integer */
    milp_release(&m);
    milp_init(&m, 0);
    milp_add_col(&m, -10, 10, 1, 1);
    milp_row_begin(&m, 3, 3);
    milp_row_add(&m, 0, 2);
    milp_row_end(&m);
    ck_assert_str_eq(solve_status_name(solve(s, &m, &r, x)), "infeasible");
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

START_TEST(test_fixed_and_general)
{
    struct milp m;
    struct solver *s = make(_i, 10);
    struct solve_result r;
    double x[4];

    /* min 2x - 3y + 0z + w + 7, x integer in [-5,5], y in [0,2.5],
     * z integer fixed at 3 (lb == ub), w integer fixed at -2;
     * x + y = 1.5, x - y free, z + x <= 10: x = -1, y = 2.5, 3 - 12.5
     * - 2 + 7 = -4.5 */
    milp_init(&m, 0);
    m.obj_offset = 7;
    milp_add_col(&m, -5, 5, 1, 2);
    milp_add_col(&m, 0, 2.5, 0, -3);
    milp_add_col(&m, 3, 3, 1, 0);
    milp_add_col(&m, -2, -2, 1, 1);
    milp_row_begin(&m, 1.5, 1.5);
    milp_row_add(&m, 1, 1);
    milp_row_add(&m, 0, 1);
    milp_row_end(&m);
    milp_row_begin(&m, -HUGE_VAL, HUGE_VAL);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 1, -1);
    milp_row_end(&m);
    milp_row_begin(&m, -HUGE_VAL, 10);
    milp_row_add(&m, 2, 1);
    milp_row_add(&m, 0, 1);
    milp_row_end(&m);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(r.objective, -4.5, 1e-9);
    ck_assert_double_eq_tol(x[0], -1, 1e-9);
    ck_assert_double_eq_tol(x[1], 2.5, 1e-9);
    ck_assert_double_eq_tol(x[2], 3, 1e-9);
    ck_assert_double_eq_tol(x[3], -2, 1e-9);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

START_TEST(test_pure_lp)
{
    struct milp m;
    struct solver *s = make(_i, 10);
    struct solve_result r;
    double x[2];

    /* max x + y, x + 2y <= 4, 3x + y <= 6: x = 1.6, y = 1.2 */
    milp_init(&m, 1);
    milp_add_col(&m, 0, HUGE_VAL, 0, 1);
    milp_add_col(&m, 0, HUGE_VAL, 0, 1);
    milp_row_begin(&m, -HUGE_VAL, 4);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 1, 2);
    milp_row_end(&m);
    milp_row_begin(&m, -HUGE_VAL, 6);
    milp_row_add(&m, 0, 3);
    milp_row_add(&m, 1, 1);
    milp_row_end(&m);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(r.objective, 2.8, 1e-9);
    ck_assert_double_eq_tol(x[0], 1.6, 1e-9);
    ck_assert_double_eq_tol(x[1], 1.2, 1e-9);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

START_TEST(test_empty_model)
{
    struct milp m;
    struct solver *s = make(_i, 10);
    struct solve_result r;
    double x[1];

    milp_init(&m, 1);
    m.obj_offset = 4;
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq(r.objective, 4);
    milp_row_begin(&m, 1, 2); /* an empty row that cannot hold */
    milp_row_end(&m);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_INFEASIBLE);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

/* A market-split model (Cornuejols and Dawande): 5 equality rows over 40
 * binaries with random weights, slacks priced in the objective.  Branch
 * and bound cannot prove optimality in a fraction of a second. */
static void market_split(struct milp *m)
{
    unsigned seed = 7;
    int nb = 40, rows = 5;

    milp_init(m, 0);
    for (int j = 0; j < nb; j++)
        milp_add_col(m, 0, 1, 1, 0);
    for (int i = 0; i < rows; i++) {
        int a[40], sum = 0;
        int sp = milp_add_col(m, 0, HUGE_VAL, 0, 1);
        int sm = milp_add_col(m, 0, HUGE_VAL, 0, 1);
        for (int j = 0; j < nb; j++) {
            seed = seed * 1103515245u + 12345u;
            a[j] = (int)((seed >> 16) % 100);
            sum += a[j];
        }
        milp_row_begin(m, sum / 2, sum / 2);
        for (int j = 0; j < nb; j++)
            if (a[j])
                milp_row_add(m, j, a[j]);
        milp_row_add(m, sp, 1);
        milp_row_add(m, sm, -1);
        milp_row_end(m);
    }
}

START_TEST(test_time_limit)
{
    struct milp m;
    struct solver *s = make(_i, 0.3);
    struct solve_result r;
    double x[50], t0 = bfs_now(), wall;
    int st;

    market_split(&m);
    st = solve(s, &m, &r, x);
    wall = bfs_now() - t0;
    ck_assert_msg(st == SOLVE_FEASIBLE || st == SOLVE_NO_SOLUTION,
                  "%s: status %s after %.2f s", backend(_i),
                  solve_status_name(st), wall);
    /* 3 s natively; under valgrind (tu_slowdown()) the isolated child's
     * start-up alone takes seconds, more on a loaded machine */
    ck_assert_msg(wall < 3.0 * tu_slowdown(),
                  "%s took %.2f s under a 0.3 s limit", backend(_i), wall);
    if (st == SOLVE_FEASIBLE) {
        ck_assert(milp_violation(&m, x) < 1e-6);
        ck_assert(r.objective >= r.bound - 1e-9);
    }
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

/* A market split without slacks around a hidden binary point x* (each
 * row's right-hand side is its weight on x*), minimising random costs:
 * feasible points are rare, and CBC finds none in a fraction of a second
 * on its own.  With x* as the start it must return x* or better, so the
 * start reaches the solver, in the process or in its child. */
START_TEST(test_start)
{
    struct milp m;
    struct solver *s;
    struct solve_result r;
    double x[40], hidden[40], cost = 0;
    unsigned seed = 11;
    int st;

    if (strcmp(backend(_i), "cbc") != 0)
        return; /* GLPK ignores a start (README) */
    milp_init(&m, 0);
    for (int j = 0; j < 40; j++) {
        seed = seed * 1103515245u + 12345u;
        hidden[j] = (seed >> 16) & 1;
        milp_add_col(&m, 0, 1, 1, 1 + (seed >> 20) % 50);
        cost += hidden[j] * m.obj[j];
    }
    for (int i = 0; i < 5; i++) {
        double a[40], rhs = 0;
        for (int j = 0; j < 40; j++) {
            seed = seed * 1103515245u + 12345u;
            a[j] = 1 + (seed >> 16) % 99;
            rhs += a[j] * hidden[j];
        }
        milp_row_begin(&m, rhs, rhs);
        for (int j = 0; j < 40; j++)
            milp_row_add(&m, j, a[j]);
        milp_row_end(&m);
    }
    ck_assert_double_eq(milp_violation(&m, hidden), 0);
    milp_set_start(&m, hidden);
    ck_assert_int_eq(milp_check(&m, NULL), 0);
    s = make(_i, 0.3);
    st = solve(s, &m, &r, x);
    ck_assert_msg(st == SOLVE_FEASIBLE || st == SOLVE_OPTIMAL,
                  "%s: status %s with a feasible start", backend(_i),
                  solve_status_name(st));
    ck_assert(milp_violation(&m, x) < 1e-6);
    ck_assert(r.objective <= cost + 1e-9);
    solver_destroy(s);
    milp_release(&m);
}
END_TEST

START_TEST(test_crash_isolated)
{
    struct milp m;
    struct solver_opts o;
    struct solver *s;
    struct solve_result r;
    struct bfs_error e;
    double x[8];

    solver_opts_default(&o);
    o.isolate = SOLVER_ISOLATE_YES;
    ck_assert_int_eq(solver_create(backend(_i), &o, &s, &e), 0);
    ck_assert(solver_isolated(s));
    knapsack(&m);
    setenv(SOLVER_TEST_CRASH_ENV, "1", 1);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_FAILED);
    ck_assert_msg(strstr(r.msg, "crashed") && strstr(r.msg, "signal 11"),
                  "message: %s", r.msg);
    /* the process goes on, and so do later solves */
    unsetenv(SOLVER_TEST_CRASH_ENV);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(r.objective, 30, 1e-9);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

START_TEST(test_glpk_error_hook)
{
    struct milp m;
    struct solver *s;
    struct solve_result r;
    double x[8];

    /* in process only: an isolated child reads the environment as it was
     * when it was forked */
    if (strcmp(backend(_i), "glpk") != 0 || _i % 2)
        return;
    s = make(_i, 10);
    knapsack(&m);
    setenv(SOLVER_TEST_GLPK_ERROR_ENV, "1", 1);
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_FAILED);
    ck_assert_msg(strstr(r.msg, "GLPK error"), "message: %s", r.msg);
    unsetenv(SOLVER_TEST_GLPK_ERROR_ENV);
    /* GLPK's environment was freed and comes back */
    ck_assert_int_eq(solve(s, &m, &r, x), SOLVE_OPTIMAL);
    ck_assert_double_eq_tol(r.objective, 30, 1e-9);
    milp_release(&m);
    solver_destroy(s);
}
END_TEST

/* Every option a backend passes (CBC takes them by name and prints
 * unknown names on stdout) must be accepted silently. */
START_TEST(test_silent)
{
    struct milp m;
    struct solver_opts o;
    struct solver *s;
    struct solve_result r;
    struct bfs_error e;
    const char *path = tu_tmp("stdout.txt");
    double x[8];
    char *out;
    int fd, saved;

    for (int effort = 0; effort < 2; effort++) {
        solver_opts_default(&o);
        o.isolate = SOLVER_ISOLATE_NO;
        o.time_limit = 5;
        o.gap_rel = 1e-6;
        o.gap_abs = 1e-3;
        o.threads = 1;
        o.effort = effort;
        ck_assert_int_eq(solver_create(backend(_i), &o, &s, &e), 0);
        knapsack(&m);
        fflush(stdout);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ck_assert_int_ge(fd, 0);
        saved = dup(1);
        dup2(fd, 1);
        solve(s, &m, &r, x);
        fflush(stdout);
        dup2(saved, 1);
        close(saved);
        close(fd);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        out = tu_slurp(path);
        ck_assert_msg(out && out[0] == '\0', "%s printed: %s", backend(_i),
                      out);
        free(out);
        milp_release(&m);
        solver_destroy(s);
    }
}
END_TEST

START_TEST(test_registered)
{
    struct solver_opts o;
    struct solver *s;
    struct bfs_error e;
    size_t expect = 0;

#ifdef HAVE_CBC
    ck_assert_ptr_nonnull(solver_find("cbc"));
    expect++;
#endif
#ifdef HAVE_GLPK
    ck_assert_ptr_nonnull(solver_find("glpk"));
    expect++;
#endif
    ck_assert_uint_eq(solver_count(), expect);
    ck_assert_ptr_null(solver_backend_name(expect));
    if (expect > 0)
        ck_assert_str_eq(solver_default_name(), solver_backend_name(0));
    solver_opts_default(&o);
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_create("gurobi", &o, &s, &e), BFS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "gurobi"));
#ifndef HAVE_CBC
    bfs_error_clear(&e);
    ck_assert_int_eq(solver_create("cbc", &o, &s, &e), BFS_EUNSUP);
#endif
    if (expect > 0) {
        o.time_limit = 0;
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_create(solver_backend_name(0), &o, &s, &e),
                         BFS_EINVAL);
    }
}
END_TEST

/* ---- the model ------------------------------------------------------- */

START_TEST(test_milp_build)
{
    struct milp m, c;
    double x[3] = {1, 2, 0.5};

    milp_init(&m, 1);
    ck_assert_int_eq(milp_add_col(&m, 0, 1, 1, 2), 0);
    ck_assert_int_eq(milp_add_col(&m, 0, 5, 1, -1), 1);
    ck_assert_int_eq(milp_add_col(&m, 0, 1, 0, 4), 2);
    ck_assert_int_eq(milp_row_begin(&m, -HUGE_VAL, 3), 0);
    milp_row_add(&m, 2, 1);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 2, 2);
    milp_row_add(&m, 1, 1);
    milp_row_add(&m, 1, -1); /* cancels: dropped */
    milp_row_end(&m);
    ck_assert_uint_eq(m.nnz, 2);
    ck_assert_int_eq(m.row_ind[0], 0);
    ck_assert_int_eq(m.row_ind[1], 2);
    ck_assert_double_eq(m.row_val[1], 3);
    ck_assert_int_eq(milp_check(&m, NULL), 0);
    ck_assert_double_eq(milp_objective(&m, x), 2 - 2 + 2);
    /* row: 1 + 1.5 = 2.5 <= 3; column 1 at 2 fine; violation 0 */
    ck_assert_double_eq(milp_violation(&m, x), 0);
    x[0] = 0.75; /* not integer: 0.25 off */
    ck_assert_double_eq(milp_violation(&m, x), 0.25);
    milp_set_start(&m, x);
    x[0] = 0;
    milp_copy(&c, &m);
    milp_release(&m);
    ck_assert_int_eq(milp_check(&c, NULL), 0);
    ck_assert_uint_eq(c.n_cols, 3);
    /* the start was copied twice, never aliased */
    ck_assert_double_eq(c.start[0], 0.75);
    ck_assert_double_eq(c.start[2], 0.5);
    milp_set_start(&c, NULL);
    ck_assert_ptr_null(c.start);
    milp_add_col(&c, 0, 1, 1, 0);
    milp_row_begin(&c, 1, 1);
    milp_row_add(&c, 3, 1);
    milp_row_end(&c);
    ck_assert_int_eq(milp_check(&c, NULL), 0);
    ck_assert_uint_eq(c.n_rows, 2);
    milp_release(&c);
    milp_release(&c); /* twice is harmless */
}
END_TEST

static void expect_invalid(struct milp *m, const char *what)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(milp_check(m, &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, what), "'%s' not in '%s'", what, e.msg);
    milp_release(m);
}

START_TEST(test_milp_check)
{
    struct milp m;
    struct solver *s;
    struct solve_result r;
    struct bfs_error e;
    double x[2];

    milp_init(&m, 0);
    milp_add_col(&m, 2, 1, 0, 0);
    expect_invalid(&m, "column 0: bounds");
    milp_init(&m, 0);
    milp_add_col(&m, 0, nan(""), 0, 0);
    expect_invalid(&m, "column 0: bounds");
    milp_init(&m, 0);
    milp_add_col(&m, HUGE_VAL, HUGE_VAL, 0, 0);
    expect_invalid(&m, "column 0: bounds");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1e31, 0, 0);
    expect_invalid(&m, "column 0: bounds");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_add_col(&m, 0, 1, 0, HUGE_VAL);
    expect_invalid(&m, "column 1: objective");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    x[0] = 0;
    x[1] = nan("");
    milp_set_start(&m, x);
    expect_invalid(&m, "column 1: start");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_row_begin(&m, 0, 1);
    milp_row_add(&m, 3, 1);
    milp_row_end(&m);
    expect_invalid(&m, "row 0: column 3 out of range");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_row_begin(&m, 0, 1);
    milp_row_add(&m, 0, nan(""));
    milp_row_end(&m);
    expect_invalid(&m, "row 0: coefficient");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_row_begin(&m, 1, 0);
    milp_row_add(&m, 0, 1);
    milp_row_end(&m);
    expect_invalid(&m, "row 0: bounds");
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_row_begin(&m, 0, 1);
    milp_row_add(&m, 0, 1);
    expect_invalid(&m, "still open");
    /* a model changed by hand: a repeated column */
    milp_init(&m, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_add_col(&m, 0, 1, 0, 0);
    milp_row_begin(&m, 0, 1);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 1, 1);
    milp_row_end(&m);
    ck_assert_int_eq(milp_check(&m, NULL), 0);
    m.row_ind[1] = 0;
    expect_invalid(&m, "row 0: column 0 repeated");
    /* solver_solve refuses a malformed model before any backend */
    if (solver_count() > 0) {
        struct solver_opts o;
        solver_opts_default(&o);
        ck_assert_int_eq(solver_create(solver_backend_name(0), &o, &s, &e), 0);
        milp_init(&m, 0);
        milp_add_col(&m, 1, 0, 1, 0);
        memset(&r, 0, sizeof r);
        r.x = x;
        bfs_error_clear(&e);
        ck_assert_int_eq(solver_solve(s, &m, &r, &e), BFS_EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "column 0"));
        milp_release(&m);
        solver_destroy(s);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("solver");
    TCase *tc = tcase_create("model");
    int n = (int)solver_count() * 2;

    tcase_add_test(tc, test_milp_build);
    tcase_add_test(tc, test_milp_check);
    tcase_add_test(tc, test_registered);
    suite_add_tcase(s, tc);
    tc = tcase_create("backends");
    tcase_set_timeout(tc, 20);
    tcase_add_loop_test(tc, test_knapsack, 0, n);
    tcase_add_loop_test(tc, test_threads_and_gaps, 0, n);
    tcase_add_loop_test(tc, test_infeasible, 0, n);
    tcase_add_loop_test(tc, test_fixed_and_general, 0, n);
    tcase_add_loop_test(tc, test_pure_lp, 0, n);
    tcase_add_loop_test(tc, test_empty_model, 0, n);
    tcase_add_loop_test(tc, test_time_limit, 0, n);
    tcase_add_loop_test(tc, test_start, 0, n);
    tcase_add_loop_test(tc, test_crash_isolated, 0, n);
    tcase_add_loop_test(tc, test_worker_kept, 0, n);
    tcase_add_loop_test(tc, test_glpk_error_hook, 0, n);
    tcase_add_loop_test(tc, test_silent, 0, n);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
