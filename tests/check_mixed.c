/* check_mixed.c - the allocation problem with spanning node types
 * (--mixed-types: alloc.h's mixed, cur_t and type_counts;
 * tools/DESIGN.md, "Spanning types").
 *
 * A case worked out by hand for milp's count model on CBC and GLPK, with
 * and without dp's start, and for even; seeded random two-type instances
 * against a brute force written here from the DESIGN text alone (its
 * values, costs, tolerance and tie-break keys, over every per-type
 * vector; nothing from alloc/objective.c); the mixed optimum against
 * the one-type optimum dp finds on the same instances; the objective.h
 * functions against hand values and against the one-type (_t) functions
 * where every holding is of one type; allocator_solve_order; the
 * refusals (dp, the node model) and the problem check's messages.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "alloc/objective.h"
#include "solver/solver.h"
#include "testalloc.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the allocators under test ------------------------------------------ */

/* The methods that solve spanning types: milp's count model on CBC and
 * GLPK, with and without dp's start. */
static const char *const exact[] = {"cbc", "cbc,start=no", "glpk",
                                    "glpk,start=no"};
#define N_EXACT (sizeof exact / sizeof *exact)

/* The allocator name with solver (NULL: none) and model, or NULL when
 * the solver is not compiled in. */
static struct allocator *make_with(const char *name, const char *solver,
                                   const char *model)
{
    struct alloc_opts o;
    struct allocator *a = NULL;
    struct bfs_error e;
    char sname[16];

    alloc_opts_default(&o);
    o.name = name;
    o.solver = solver;
    o.model = model;
    o.time_limit = 600.0; /* answers, not the machine's speed */
    if (solver) {
        snprintf(sname, sizeof sname, "%.*s", (int)strcspn(solver, ","),
                 solver);
        if (!solver_find(sname))
            return NULL;
    }
    bfs_error_clear(&e);
    ck_assert_msg(allocator_create(&o, &a, &e) == 0, "%s", e.msg);
    return a;
}

static struct allocator *make(int i)
{
    return make_with("milp", exact[i], "count");
}

/* ---- instances ----------------------------------------------------------- */

#define MAXJ 3
#define NT 2
#define MAXN 5

struct minst {
    struct alloc_problem p;
    struct alloc_job jobs[MAXJ];
    double o[MAXJ][NT][MAXN + 1];
    const double *ot[MAXJ][NT];
    int cur_t[MAXJ][NT]; /* the holdings per type */
    int can[MAXJ][NT];   /* 1: job j can run on type t */
    int pools[NT];
};

/* Points the problem into in (nj jobs, mixed) from cur_t and can; each
 * job's cur is the sum of its cur_t and ctype its first type held (0
 * when none). */
static void minst_link(struct minst *in, size_t nj)
{
    in->p.jobs = in->jobs;
    in->p.n_jobs = nj;
    in->p.n_types = NT;
    in->p.pools = in->pools;
    in->p.mixed = 1;
    in->p.pool = in->pools[0] + in->pools[1];
    for (size_t j = 0; j < nj; j++) {
        struct alloc_job *jb = &in->jobs[j];
        jb->cur = 0;
        jb->ctype = -1;
        for (int t = 0; t < NT; t++) {
            in->ot[j][t] = in->can[j][t] ? in->o[j][t] : NULL;
            jb->cur += in->cur_t[j][t];
            if (jb->ctype < 0 && in->cur_t[j][t] > 0)
                jb->ctype = t;
        }
        if (jb->ctype < 0)
            jb->ctype = 0;
        jb->ot = in->ot[j];
        jb->o = NULL;
        jb->cur_t = in->cur_t[j];
    }
}

/* Solves in with a: returns the status, the holding in x (nj * NT) and
 * the objective; checks the counts and types against x. */
static int solve(struct allocator *a, const struct minst *in, int *x,
                 double *objective)
{
    struct alloc_result r;
    struct bfs_error e;
    int n[MAXJ], t[MAXJ];

    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    r.type_counts = x;
    bfs_error_clear(&e);
    ck_assert_msg(allocator_solve(a, &in->p, &r, &e) == 0, "%s", e.msg);
    if (objective)
        *objective = r.objective;
    for (size_t j = 0; j < in->p.n_jobs && (r.status == SOLVE_OPTIMAL ||
                                            r.status == SOLVE_FEASIBLE);
         j++) {
        int lo = x[j * NT] > 0 ? 0 : x[j * NT + 1] > 0 ? 1 : -1;
        ck_assert_int_eq(n[j], x[j * NT] + x[j * NT + 1]);
        ck_assert_int_eq(t[j], lo);
    }
    return r.status;
}

/* dp's one-type optimum of in (the flag dropped, then restored) into
 * counts n and types t; returns its objective (dp's own pricing). */
static double solve_one_type(struct allocator *d, struct minst *in, int *n,
                             int *t)
{
    struct alloc_result r;
    struct bfs_error e;

    in->p.mixed = 0;
    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    bfs_error_clear(&e);
    ck_assert_msg(allocator_solve(d, &in->p, &r, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    in->p.mixed = 1;
    return r.objective;
}

/* ---- the brute force, from the DESIGN text ------------------------------- */

/* Job j's value at holding x (NT entries): Tfwd times the least O_t(n)
 * over the types it uses (0 at n = 0), less its cost: 0 when x = C, Tcup
 * r when no type shrinks, Tcdw r when none grows, both when one grows and
 * another shrinks; r the least O_t(C) over the types held when C >=
 * Jmin, else 0. */
static double bf_value(const struct minst *in, size_t j, const int *x)
{
    const struct alloc_job *jb = &in->jobs[j];
    const int *c = in->cur_t[j];
    int n = x[0] + x[1], cn = c[0] + c[1], up = 0, down = 0;
    double g = 0.0, r = 0.0, o = HUGE_VAL;

    for (int t = 0; t < NT; t++)
        if (x[t] > 0 && in->o[j][t][n] < o)
            o = in->o[j][t][n];
    if (n > 0)
        g = in->p.tfwd * o;
    if (cn >= jb->jmin) {
        r = HUGE_VAL;
        for (int t = 0; t < NT; t++)
            if (c[t] > 0 && in->o[j][t][cn] < r)
                r = in->o[j][t][cn];
    }
    for (int t = 0; t < NT; t++) {
        up |= x[t] > c[t];
        down |= x[t] < c[t];
    }
    if (up && down)
        return g - (jb->tcdw + jb->tcup) * r;
    if (up)
        return g - jb->tcup * r;
    if (down)
        return g - jb->tcdw * r;
    return g;
}

/* Whether x is admissible for job j: 0 on a type it cannot use, within
 * each type's pool, a total of 0 or Jmin..Jmax. */
static int bf_admissible(const struct minst *in, size_t j, const int *x)
{
    int n = x[0] + x[1];

    for (int t = 0; t < NT; t++)
        if (x[t] < 0 || x[t] > in->pools[t] || (x[t] > 0 && !in->can[j][t]))
            return 0;
    return n == 0 || (n >= in->jobs[j].jmin && n <= in->jobs[j].jmax);
}

/* The tolerance: 1e-7 max(1, sum_j max |v_j(x)|) over admissible x. */
static double bf_tol(const struct minst *in)
{
    double s = 0.0;

    for (size_t j = 0; j < in->p.n_jobs; j++) {
        double big = 0.0;
        int x[NT];
        for (x[0] = 0; x[0] <= in->pools[0]; x[0]++)
            for (x[1] = 0; x[1] <= in->pools[1]; x[1]++)
                if (bf_admissible(in, j, x) && fabs(bf_value(in, j, x)) > big)
                    big = fabs(bf_value(in, j, x));
        s += big;
    }
    return 1e-7 * (s > 1.0 ? s : 1.0);
}

/* 1 when holding a (nj * NT) comes before b by keys 2-5: more jobs with
 * x_j = C_j, fewer nodes, the lexicographically larger vector of the
 * n_j, then of (x_00, x_01, x_10, ...). */
static int bf_before(const struct minst *in, const int *a, const int *b)
{
    size_t nj = in->p.n_jobs;
    int ka = 0, kb = 0, sa = 0, sb = 0;

    for (size_t j = 0; j < nj; j++) {
        ka += a[j * NT] == in->cur_t[j][0] && a[j * NT + 1] == in->cur_t[j][1];
        kb += b[j * NT] == in->cur_t[j][0] && b[j * NT + 1] == in->cur_t[j][1];
        sa += a[j * NT] + a[j * NT + 1];
        sb += b[j * NT] + b[j * NT + 1];
    }
    if (ka != kb)
        return ka > kb;
    if (sa != sb)
        return sa < sb;
    for (size_t j = 0; j < nj; j++)
        if (a[j * NT] + a[j * NT + 1] != b[j * NT] + b[j * NT + 1])
            return a[j * NT] + a[j * NT + 1] > b[j * NT] + b[j * NT + 1];
    for (size_t i = 0; i < nj * NT; i++)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 0;
}

struct bf {
    const struct minst *in;
    int x[MAXJ * NT], best[MAXJ * NT], used[NT];
    double zmax, thr, bz;
    int pass, have;
};

/* Every feasible holding, job by job, every per-type vector of each. */
static void bf_rec(struct bf *b, size_t j)
{
    const struct minst *in = b->in;
    int *x = &b->x[j * NT];

    if (j == in->p.n_jobs) {
        double z = 0.0;
        for (size_t i = 0; i < in->p.n_jobs; i++)
            z += bf_value(in, i, &b->x[i * NT]);
        if (b->pass == 0)
            b->zmax = z > b->zmax ? z : b->zmax;
        else if (z >= b->thr && (!b->have || bf_before(in, b->x, b->best))) {
            memcpy(b->best, b->x, sizeof b->x);
            b->bz = z;
            b->have = 1;
        }
        return;
    }
    for (x[0] = 0; x[0] + b->used[0] <= in->pools[0]; x[0]++)
        for (x[1] = 0; x[1] + b->used[1] <= in->pools[1]; x[1]++) {
            if (!bf_admissible(in, j, x))
                continue;
            b->used[0] += x[0];
            b->used[1] += x[1];
            bf_rec(b, j + 1);
            b->used[0] -= x[0];
            b->used[1] -= x[1];
        }
    x[0] = x[1] = 0;
}

/* The rule's choice for in into x; returns its value. */
static double brute_force(const struct minst *in, int *x)
{
    struct bf b;

    memset(&b, 0, sizeof b);
    b.in = in;
    b.zmax = -HUGE_VAL;
    bf_rec(&b, 0);
    b.pass = 1;
    b.thr = b.zmax - bf_tol(in);
    bf_rec(&b, 0);
    memcpy(x, b.best, sizeof b.best);
    return b.bz;
}

/* ---- worked by hand ------------------------------------------------------
 */

/* Types A (0) and B (1) of 2 idle nodes each, Tfwd 10:
 *
 *   job 0: idle, Jmin = Jmax = 3, O = 0 0 0 6 on both types: it runs on
 *          3 nodes, so only spanning both types, worth 10 x 6 = 60;
 *   job 1: holds 2 nodes of A, Jmin 1, Jmax 2, Tcup 2, Tcdw 1, O_A = 0 3
 *          5, O_B = 0 3 4; r = O_A(2) = 5, so growing costs 10,
 *          shrinking 5, both 15;
 *   job 2: idle, Jmin 1, Jmax 2, O_A = 0 4 5, O_B = 0 1 1.5.
 *
 * Values (x = (on A, on B)):
 *   job 0: (0,0) 0, (1,2) and (2,1) 60;
 *   job 1: (0,0) -5 (stops), (1,0) 30-5 = 25, (2,0) 50 (keeps), (0,1)
 *          30-15 = 15, (0,2) 40-15 = 25, (1,1) paced by B at 2 nodes,
 *          10 min(5, 4) - 15 = 25 (B grows, A shrinks);
 *   job 2: (0,0) 0, (1,0) 40, (2,0) 50, (0,1) 10, (0,2) 15, (1,1) paced
 *          by B, 10 min(5, 1.5) = 15: spanning is worse than A alone.
 * With job 0 on 3 nodes, one is left: with job 0 on (1,2), a node of A:
 * job 2 on it and job 1 stopped, 40 - 5 = 35, or job 1 on it, 25: 60 +
 * 35 = 95; with job 0 on (2,1), a node of B: job 1 on it 15, job 2 on
 * it 10 - 5: 60 + 15 = 75.  Without job 0 the others share 2 + 2 nodes:
 * at best job 1 on (0,2) 25 + job 2 on (2,0) 50 = 75 (job 1 keeping A
 * leaves job 2 B: 50 + 15).  So the answer is unique: job 0 on (1,2),
 * job 1 stopped, job 2 on (1,0), 95: counts (3, 0, 1), lowest types (A,
 * -, A).  Holding one type at a time job 0 cannot run (3 nodes > 2 per
 * type), and the best is 75 (job 1 to B, job 2 on A); the tolerance is
 * 1e-7 (60 + 50 + 50) = 1.6e-5.
 *
 * even (one type per job): job 1 stays on A; job 0 goes to B (2 idle
 * nodes per job against A's 2/2 = 1), job 2 to A (2/2 against B's 2/2,
 * a tie: the lower type).  A's 2 nodes among jobs 1 and 2: share q = 1,
 * not > Jmin 1 for either, both quotas 0, then the 2 left in job order:
 * job 1 takes 2; B's 2 nodes to job 0: q = 2, not > 3, 0, and 2 < Jmin
 * 3: none.  So (2,0) for job 1 alone, worth 50 (it keeps). */
static void hand_case(struct minst *in)
{
    static const double o[3][2][4] = {{{0, 0, 0, 6}, {0, 0, 0, 6}},
                                      {{0, 3, 5}, {0, 3, 4}},
                                      {{0, 4, 5}, {0, 1, 1.5}}};

    memset(in, 0, sizeof *in);
    in->p.tfwd = 10;
    in->pools[0] = in->pools[1] = 2;
    in->jobs[0] = (struct alloc_job){.jmin = 3, .jmax = 3};
    in->jobs[1] =
        (struct alloc_job){.jmin = 1, .jmax = 2, .tcup = 2, .tcdw = 1};
    in->jobs[2] = (struct alloc_job){.jmin = 1, .jmax = 2};
    for (int j = 0; j < 3; j++)
        for (int t = 0; t < NT; t++)
            memcpy(in->o[j][t], o[j][t], sizeof o[j][t]);
    in->cur_t[1][0] = 2;
    for (int j = 0; j < 3; j++)
        in->can[j][0] = in->can[j][1] = 1;
    minst_link(in, 3);
}

START_TEST(test_hand)
{
    static const int want[3 * NT] = {1, 2, 0, 0, 1, 0};
    struct allocator *a = make(_i);
    struct minst in;
    int x[MAXJ * NT];
    double z;

    if (!a)
        return; /* backend not compiled in */
    hand_case(&in);
    ck_assert_int_eq(solve(a, &in, x, &z), SOLVE_OPTIMAL);
    for (int i = 0; i < 3 * NT; i++)
        ck_assert_msg(x[i] == want[i], "%s: x[%d] = %d, expected %d", exact[_i],
                      i, x[i], want[i]);
    ck_assert_msg(fabs(z - 95) < 1e-9, "%s: objective %.17g", exact[_i], z);
    allocator_free(a);
}
END_TEST

/* The hand case's one-type optimum (dp, flag off) and even's answer. */
START_TEST(test_hand_one_type_and_even)
{
    static const int even_want[3 * NT] = {0, 0, 2, 0, 0, 0};
    struct allocator *d = make_with("dp", NULL, NULL);
    struct allocator *ev = make_with("even", NULL, NULL);
    struct minst in;
    int n[MAXJ], t[MAXJ], x[MAXJ * NT];
    double z;

    hand_case(&in);
    ck_assert(fabs(solve_one_type(d, &in, n, t) - 75) < 1e-9);
    ck_assert(n[0] == 0 && n[1] == 2 && t[1] == 1 && n[2] == 2 && t[2] == 0);
    ck_assert_int_eq(solve(ev, &in, x, &z), SOLVE_OPTIMAL);
    for (int i = 0; i < 3 * NT; i++)
        ck_assert_msg(x[i] == even_want[i], "even: x[%d] = %d", i, x[i]);
    ck_assert(fabs(z - 50) < 1e-9);
    allocator_free(ev);
    allocator_free(d);
}
END_TEST

/* ---- the objective functions --------------------------------------------- */

/* objective.h's spanning functions on the hand case, against the values
 * worked out above. */
START_TEST(test_functions_hand)
{
    struct minst in;
    const struct alloc_problem *p = &in.p;
    static const int x11[NT] = {1, 1}, x02[NT] = {0, 2}, x20[NT] = {2, 0};
    static const int x00[NT] = {0, 0}, x12[NT] = {1, 2}, x30[NT] = {3, 0};
    static const int best[3 * NT] = {1, 2, 0, 0, 1, 0};
    static const int other[3 * NT] = {2, 1, 0, 1, 0, 0};
    static const int over[3 * NT] = {1, 2, 1, 0, 1, 0};
    int n[3], t[3];

    hand_case(&in);
    ck_assert(alloc_mixed(p));
    ck_assert_int_eq(alloc_cur_m(p, 1, 0), 2);
    ck_assert_int_eq(alloc_cur_m(p, 1, 1), 0);
    ck_assert(alloc_cost_up_m(p, 1) == 10 && alloc_cost_down_m(p, 1) == 5);
    ck_assert(alloc_cost_up_m(p, 0) == 0);
    ck_assert(alloc_gain_m(p, 1, x11) == 40);
    ck_assert(alloc_rescale_cost_m(p, 1, x11) == 15);
    ck_assert(alloc_value_m(p, 1, x11) == 25);
    ck_assert(alloc_value_m(p, 1, x02) == 25);
    ck_assert(alloc_value_m(p, 1, x20) == 50);
    ck_assert(alloc_value_m(p, 1, x00) == -5);
    ck_assert(alloc_value_m(p, 2, x11) == 15);
    ck_assert(alloc_value_m(p, 0, x12) == 60);
    ck_assert(alloc_keeps_m(p, 1, x20) && !alloc_keeps_m(p, 1, x11));
    ck_assert(alloc_keeps_m(p, 0, x00));
    ck_assert(alloc_admissible_m(p, 0, x12));
    ck_assert(!alloc_admissible_m(p, 0, x20)); /* below Jmin 3 */
    ck_assert(!alloc_admissible_m(p, 0, x30)); /* past A's pool */
    ck_assert(!alloc_admissible_m(p, 1, x12)); /* past Jmax 2 */
    ck_assert(alloc_feasible_m(p, best) && alloc_feasible_m(p, other));
    ck_assert(!alloc_feasible_m(p, over)); /* 3 nodes of B */
    ck_assert(alloc_objective_m(p, best) == 95);
    ck_assert(alloc_objective_m(p, other) == 60 + 15);
    ck_assert(fabs(alloc_tie_tol_m(p) - 1.6e-5) < 1e-18);
    /* keys: both keep nothing (job 1 changes, 0 and 2 start), 4 nodes
     * each, counts (3, 0, 1) against (3, 1, 0): the other first (key 4
     * does not look at values) */
    ck_assert_int_lt(alloc_tie_cmp_m(p, best, other), 0);
    ck_assert_int_gt(alloc_tie_cmp_m(p, other, best), 0);
    ck_assert_int_eq(alloc_tie_cmp_m(p, best, best), 0);
    alloc_counts_m(p, best, n, t);
    ck_assert(n[0] == 3 && n[1] == 0 && n[2] == 1);
    ck_assert(t[0] == 0 && t[1] == -1 && t[2] == 0);
    in.cur_t[1][0] = 0; /* r = 0 below Jmin: no cost */
    in.cur_t[1][1] = 1;
    in.jobs[1].jmin = 2;
    minst_link(&in, 3);
    ck_assert(alloc_value_m(p, 1, x11) == 40);
    ck_assert(alloc_cost_down_m(p, 1) == 0);
}
END_TEST

/* A random instance from seed: 2 or 3 jobs, pools of 1 to 3 nodes per
 * type, Jmin 1-3, Jmax up to Jmin + 2 (at most 5); curves of integers
 * 0..9 (so that many holdings tie exactly) or, one in four, fractions;
 * about one job in four cannot use one of the types; random holdings
 * per type within the pools (spanning ones included, below Jmin
 * sometimes), with costs. */
static void gen(struct minst *in, unsigned seed)
{
    int held[NT] = {0, 0}, frac;
    size_t nj;

    memset(in, 0, sizeof *in);
    rng = 0x6A09E667F3BCC909ull ^ ((unsigned long long)seed * 2654435761u);
    rnd(2);
    nj = 2 + rnd(2);
    in->pools[0] = 1 + (int)rnd(3);
    in->pools[1] = 1 + (int)rnd(3);
    in->p.tfwd = rnd(2) ? 10 : 1 + rnd(5);
    frac = rnd(4) == 0;
    for (size_t j = 0; j < nj; j++) {
        struct alloc_job *jb = &in->jobs[j];
        jb->jmin = 1 + (int)rnd(3);
        jb->jmax = jb->jmin + (int)rnd(3);
        jb->jmax = jb->jmax > MAXN ? MAXN : jb->jmax;
        jb->tcup = rnd(3) * 2;
        jb->tcdw = rnd(3);
        in->can[j][0] = in->can[j][1] = 1;
        if (rnd(4) == 0)
            in->can[j][rnd(2)] = 0;
        for (int t = 0; t < NT; t++)
            for (int n = 1; n <= jb->jmax; n++)
                in->o[j][t][n] = frac ? rnd(1000) / 97.0 : rnd(10);
        for (int t = 0; t < NT; t++) {
            int c = in->can[j][t] && rnd(2) ? (int)rnd(4) : 0;
            int room = in->pools[t] - held[t];
            c = c > room ? room : c;
            if (in->cur_t[j][0] + c > jb->jmax)
                c = jb->jmax - in->cur_t[j][0];
            in->cur_t[j][t] = c;
            held[t] += c;
        }
    }
    minst_link(in, nj);
}

/* The spanning functions equal the one-type ones wherever every holding
 * is of one type: values, costs, keeps, admissibility, objectives (to
 * the last bit) and the tie-break keys, over the random instances with
 * their holdings put on one type (cur_t NULL: cur on ctype). */
START_TEST(test_one_type_equal)
{
    for (int s = 0; s < 100; s++) {
        struct minst in;
        struct alloc_problem *p = &in.p;
        int xa[MAXJ * NT], xb[MAXJ * NT];
        int na[MAXJ], ta[MAXJ], nb[MAXJ], tb[MAXJ];
        gen(&in, (unsigned)s);
        for (size_t j = 0; j < p->n_jobs; j++) { /* one type each */
            struct alloc_job *jb = &in.jobs[j];
            jb->cur_t = NULL;
            jb->ctype = in.can[j][0] ? 0 : 1;
            jb->cur =
                jb->cur > in.pools[jb->ctype] ? in.pools[jb->ctype] : jb->cur;
        }
        for (size_t j = 0; j < p->n_jobs; j++)
            for (int t = -1; t < NT; t++)
                for (int n = t < 0 ? 0 : 1; n <= (t < 0 ? 0 : MAXN + 1); n++) {
                    int x[NT] = {0, 0};
                    if (t >= 0)
                        x[t] = n;
                    ck_assert_int_eq(alloc_admissible_m(p, j, x),
                                     alloc_admissible_t(p, j, t, n));
                    if (!alloc_admissible_t(p, j, t, n))
                        continue;
                    ck_assert(alloc_value_m(p, j, x) ==
                              alloc_value_t(p, j, t, n));
                    ck_assert(alloc_gain_m(p, j, x) ==
                              alloc_gain_t(p, j, t, n));
                    ck_assert(alloc_rescale_cost_m(p, j, x) ==
                              alloc_rescale_cost_t(p, j, t, n));
                    ck_assert_int_eq(alloc_keeps_m(p, j, x),
                                     alloc_keeps_t(p, j, t, n));
                }
        /* two random one-type allocations, compared both ways */
        for (int k = 0; k < 20; k++) {
            for (size_t j = 0; j < p->n_jobs; j++) {
                na[j] = (int)rnd(4);
                ta[j] = na[j] ? (int)rnd(2) : -1;
                nb[j] = (int)rnd(4);
                tb[j] = nb[j] ? (int)rnd(2) : -1;
                for (int t = 0; t < NT; t++) {
                    xa[j * NT + t] = t == ta[j] ? na[j] : 0;
                    xb[j * NT + t] = t == tb[j] ? nb[j] : 0;
                }
            }
            ck_assert_int_eq(alloc_feasible_m(p, xa),
                             alloc_feasible_t(p, na, ta));
            if (!alloc_feasible_t(p, na, ta) || !alloc_feasible_t(p, nb, tb))
                continue;
            ck_assert(alloc_objective_m(p, xa) == alloc_objective_t(p, na, ta));
            {
                int cm = alloc_tie_cmp_m(p, xa, xb);
                int ct = alloc_tie_cmp_t(p, na, ta, nb, tb);
                ck_assert_msg((cm > 0) == (ct > 0) && (cm < 0) == (ct < 0),
                              "seed %d: keys %d vs %d", s, cm, ct);
            }
        }
    }
}
END_TEST

/* The tolerance and admissibility against the brute force's on the
 * random instances (the tolerance by its own search, not by vectors). */
START_TEST(test_tol_random)
{
    for (int s = 0; s < 300; s++) {
        struct minst in;
        int x[NT];
        gen(&in, (unsigned)s);
        ck_assert_msg(
            fabs(alloc_tie_tol_m(&in.p) - bf_tol(&in)) <= 1e-12 * bf_tol(&in),
            "seed %d: %.17g vs %.17g", s, alloc_tie_tol_m(&in.p), bf_tol(&in));
        for (size_t j = 0; j < in.p.n_jobs; j++)
            for (x[0] = 0; x[0] <= 4; x[0]++)
                for (x[1] = 0; x[1] <= 4; x[1]++) {
                    ck_assert_int_eq(alloc_admissible_m(&in.p, j, x),
                                     bf_admissible(&in, j, x));
                    if (bf_admissible(&in, j, x))
                        ck_assert(alloc_value_m(&in.p, j, x) ==
                                  bf_value(&in, j, x));
                }
    }
}
END_TEST

/* ---- random instances against the brute force ---------------------------- */

/* 1 when a job of in holds nodes of both types now. */
static int spans(const struct minst *in)
{
    for (size_t j = 0; j < in->p.n_jobs; j++)
        if (in->cur_t[j][0] > 0 && in->cur_t[j][1] > 0)
            return 1;
    return 0;
}

/* Instances per method: N_RANDOM in all, split among the methods. */
#define N_RANDOM 240

/* Each method on its share of the random instances: the brute force's
 * holding exactly and its value within the tolerance; and the mixed
 * optimum at least the one-type optimum dp finds with the flag off. */
START_TEST(test_random)
{
    struct allocator *a = make(_i), *d = make_with("dp", NULL, NULL);
    int per = (int)(N_RANDOM / N_EXACT), better = 0, one_type = 0;

    if (!a) {
        allocator_free(d);
        return;
    }
    for (int s = _i * per; s < (_i + 1) * per; s++) {
        struct minst in;
        int want[MAXJ * NT], x[MAXJ * NT], n[MAXJ], t[MAXJ];
        double wz, z, z1, zd, tol;
        gen(&in, (unsigned)s);
        tol = bf_tol(&in);
        wz = brute_force(&in, want);
        ck_assert_int_eq(solve(a, &in, x, &z), SOLVE_OPTIMAL);
        for (size_t i = 0; i < in.p.n_jobs * NT; i++)
            ck_assert_msg(x[i] == want[i],
                          "%s seed %d: job %zu type %zu: %d, brute force %d",
                          exact[_i], s, i / NT, i % NT, x[i], want[i]);
        ck_assert_msg(fabs(z - wz) <= tol, "%s seed %d: %.17g vs %.17g",
                      exact[_i], s, z, wz);
        /* dp's one-type optimum (the flag off) is a spanning holding
         * too: worth at most the mixed optimum, valued by the spec (dp
         * prices a spanning holding as if all on ctype, and then its
         * own objective differs) */
        zd = solve_one_type(d, &in, n, t);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            for (int k = 0; k < NT; k++)
                x[j * NT + k] = k == t[j] ? n[j] : 0;
        z1 = 0.0;
        for (size_t j = 0; j < in.p.n_jobs; j++)
            z1 += bf_value(&in, j, &x[j * NT]);
        ck_assert_msg(z >= z1 - tol, "seed %d: mixed %.17g < %.17g", s, z, z1);
        one_type += !spans(&in);
        if (!spans(&in))
            ck_assert(fabs(zd - z1) <= tol);
        better += z > z1 + tol;
    }
    /* the comparison is not vacuous: spanning pays on some instances,
     * and some have one-type holdings */
    ck_assert_msg(better > 0 && one_type > 0, "%d better, %d one-type", better,
                  one_type);
    allocator_free(d);
    allocator_free(a);
}
END_TEST

/* allocator_solve_order with spanning types: the jobs in reverse order
 * give the brute force's holding of the reversed instance, mapped back. */
START_TEST(test_order)
{
    struct allocator *a = make(_i);
    static const size_t rev[3] = {2, 1, 0};

    if (!a)
        return;
    for (int s = 0; s < 10; s++) {
        struct minst in, rin;
        struct alloc_result r;
        struct bfs_error e;
        int want[MAXJ * NT], x[MAXJ * NT], n[MAXJ], t[MAXJ];
        size_t nj;
        gen(&in, (unsigned)(1000 + s));
        nj = in.p.n_jobs;
        rin = in;
        for (size_t j = 0; j < nj; j++) {
            size_t k = nj - 1 - j;
            rin.jobs[j] = in.jobs[k];
            memcpy(rin.o[j], in.o[k], sizeof in.o[k]);
            memcpy(rin.cur_t[j], in.cur_t[k], sizeof in.cur_t[k]);
            memcpy(rin.can[j], in.can[k], sizeof in.can[k]);
        }
        minst_link(&rin, nj);
        minst_link(&in, nj);
        brute_force(&rin, want);
        memset(&r, 0, sizeof r);
        r.counts = n;
        r.types = t;
        r.type_counts = x;
        bfs_error_clear(&e);
        ck_assert_msg(allocator_solve_order(a, &in.p, nj == 3 ? rev : rev + 1,
                                            &r, &e) == 0,
                      "%s", e.msg);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (size_t j = 0; j < nj; j++) {
            size_t k = nj - 1 - j;
            ck_assert_msg(
                x[j * NT] == want[k * NT] && x[j * NT + 1] == want[k * NT + 1],
                "%s seed %d job %zu: (%d %d), want (%d %d)", exact[_i], s, j,
                x[j * NT], x[j * NT + 1], want[k * NT], want[k * NT + 1]);
            ck_assert_int_eq(n[j], x[j * NT] + x[j * NT + 1]);
        }
    }
    allocator_free(a);
}
END_TEST

/* ---- refusals and the problem check -------------------------------------- */

START_TEST(test_refusals)
{
    struct allocator *d = make_with("dp", NULL, NULL);
    struct allocator *nm = make_with("milp", solver_default_name(), "node");
    struct alloc_result r;
    struct bfs_error e;
    struct minst in;
    int n[MAXJ], t[MAXJ], x[MAXJ * NT];

    hand_case(&in);
    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    r.type_counts = x;
    bfs_error_clear(&e);
    ck_assert_int_eq(allocator_solve(d, &in.p, &r, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, "--mixed-types") && strstr(e.msg, "'dp'") &&
                      strstr(e.msg, "milp's count model"),
                  "%s", e.msg);
    if (nm) {
        bfs_error_clear(&e);
        ck_assert_int_eq(allocator_solve(nm, &in.p, &r, &e), BFS_EUNSUP);
        ck_assert_msg(strstr(e.msg, "node model") &&
                          strstr(e.msg, "--mixed-types") &&
                          strstr(e.msg, "--model count"),
                      "%s", e.msg);
    }
    allocator_free(nm);
    allocator_free(d);
}
END_TEST

START_TEST(test_check)
{
    static const struct {
        int what;
        const char *msg;
    } bad[] = {
        {0, "spanning types (--mixed-types) with 1 node type"},
        {1, "job 1: its nodes per type (cur_t) sum to 3, not to its 2 nodes"},
        {2, "job 1: holds 1 nodes of type 1, a type it cannot run on"},
        {3, "the jobs hold 3 nodes of type 0, its pool has 2"},
        {4, "job 1: holds -1 nodes of type 1, fewer than 0"},
    };
    struct minst in;
    struct bfs_error e;

    hand_case(&in);
    bfs_error_clear(&e);
    ck_assert_msg(alloc_problem_check(&in.p, &e) == 0, "%s", e.msg);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        hand_case(&in);
        switch (bad[k].what) {
        case 0:
            in.p.n_types = 1;
            in.p.pools = NULL;
            for (int j = 0; j < 3; j++)
                in.jobs[j].o = in.o[j][0];
            break;
        case 1:
            in.cur_t[1][1] = 1; /* cur stays 2 */
            break;
        case 2:
            in.cur_t[1][0] = in.cur_t[1][1] = 1;
            in.ot[1][1] = NULL;
            break;
        case 3:
            in.cur_t[2][0] = 1;
            in.jobs[2].cur = 1;
            break;
        case 4:
            in.cur_t[1][0] = 3;
            in.cur_t[1][1] = -1;
            break;
        }
        bfs_error_clear(&e);
        ck_assert_int_eq(alloc_problem_check(&in.p, &e), BFS_EINVAL);
        ck_assert_msg(strstr(e.msg, bad[k].msg), "case %zu: '%s' not in '%s'",
                      k, bad[k].msg, e.msg);
    }
}
END_TEST

/* A node map (owner, pos_type) with spanning types: the hand case's
 * 4 positions typed A A B B.  Job 1 holding its 2 nodes of A at
 * positions 0 and 1 is well formed; holding one of each type (cur_t (1,
 * 1)) at positions 0 and 2 too; but the same holding drawn as positions
 * 0 and 1 is 2 of A against 1 by its holding, an error. */
START_TEST(test_owner_map)
{
    static const int pos_type[4] = {0, 0, 1, 1};
    static const int own_a[4] = {1, 1, -1, -1}, own_ab[4] = {1, -1, 1, -1};
    struct minst in;
    struct bfs_error e;

    hand_case(&in);
    in.p.pos_type = pos_type;
    in.p.owner = own_a;
    bfs_error_clear(&e);
    ck_assert_msg(alloc_problem_check(&in.p, &e) == 0, "%s", e.msg);
    in.cur_t[1][0] = in.cur_t[1][1] = 1;
    minst_link(&in, 3);
    in.p.owner = own_ab;
    bfs_error_clear(&e);
    ck_assert_msg(alloc_problem_check(&in.p, &e) == 0, "%s", e.msg);
    in.p.owner = own_a;
    bfs_error_clear(&e);
    ck_assert_int_eq(alloc_problem_check(&in.p, &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "job 1 holds 2 positions of type 0, but 1 "
                                "nodes there by its holding"),
                  "%s", e.msg);
}
END_TEST

/* Instance files have no spanning types: writing one is refused with a
 * message naming the file, and nothing is written. */
START_TEST(test_instance_refused)
{
    const char *path = tu_tmp("mixed.json");
    struct minst in;
    struct bfs_error e;

    hand_case(&in);
    bfs_error_clear(&e);
    ck_assert_int_eq(instance_write(path, &in.p, NULL, NULL, &e), BFS_EUNSUP);
    ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "--mixed-types"), "%s",
                  e.msg);
    ck_assert(access(path, F_OK) != 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mixed");
    TCase *tc = tcase_create("mixed");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_hand, 0, N_EXACT);
    tcase_add_test(tc, test_hand_one_type_and_even);
    tcase_add_test(tc, test_functions_hand);
    tcase_add_test(tc, test_one_type_equal);
    tcase_add_test(tc, test_tol_random);
    tcase_add_loop_test(tc, test_random, 0, N_EXACT);
    tcase_add_loop_test(tc, test_order, 0, N_EXACT);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_check);
    tcase_add_test(tc, test_owner_map);
    tcase_add_test(tc, test_instance_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
