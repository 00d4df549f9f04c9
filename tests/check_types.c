/* check_types.c - the allocation problem with node types (alloc.h's
 * n_types, pools, ctype, ot; tools/DESIGN.md, "Node types").
 *
 * Cases worked out by hand (the alternatives enumerated in comments) for
 * even, dp and the MILP count and node models on every backend compiled
 * in; seeded random two-type instances against a brute force written
 * here from the specification alone (its values, costs, tolerance and
 * the five tie-break keys; nothing from alloc/objective.c), the node
 * model with and without a node map; the problem check's messages, the
 * node map's included; allocator_solve_order with types; and typed
 * instance files read, written and read back.
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

/* ---- the allocators under test ------------------------------------------ */

/* The exact allocators with node types: dp, then milp's count model on
 * CBC and GLPK, with and without dp's start, then its node model on CBC
 * (which starts from dp's optimum) and GLPK (which takes no start with
 * the node model).  {name, solver, model}. */
static const char *const exact[][3] = {
    {"dp", NULL, NULL},
    {"milp", "cbc", "count"},
    {"milp", "cbc,start=no", "count"},
    {"milp", "glpk", "count"},
    {"milp", "glpk,start=no", "count"},
    {"milp", "cbc", "node"},
    {"milp", "glpk", "node"},
};
#define N_EXACT (sizeof exact / sizeof *exact)
/* The first node-model entry of exact[] */
#define FIRST_NODE 5

static int is_node(int i)
{
    return i >= FIRST_NODE;
}

/* The allocator for exact[i] (or "even" for i < 0), or NULL when its
 * backend is not compiled in. */
static struct allocator *make(int i)
{
    struct alloc_opts o;
    struct allocator *a = NULL;
    struct bfs_error e;
    char name[16];

    alloc_opts_default(&o);
    o.name = i < 0 ? "even" : exact[i][0];
    o.solver = i < 0 ? NULL : exact[i][1];
    o.model = i < 0 || !exact[i][2] ? "count" : exact[i][2];
    o.time_limit = 600.0; /* answers, not the machine's speed */
    if (o.solver) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(o.solver, ","),
                 o.solver);
        if (!solver_find(name))
            return NULL;
    }
    bfs_error_clear(&e);
    ck_assert_msg(allocator_create(&o, &a, &e) == 0, "%s", e.msg);
    return a;
}

static const char *desc(int i)
{
    static char buf[48];

    snprintf(buf, sizeof buf, "%s/%s/%s", i < 0 ? "even" : exact[i][0],
             i < 0 || !exact[i][1] ? "-" : exact[i][1],
             i < 0 || !exact[i][2] ? "-" : exact[i][2]);
    return buf;
}

/* ---- instances ----------------------------------------------------------- */

#define MAXJ 6
#define MAXT 3
#define MAXN 6
#define MAXP 32 /* pool positions */

struct tinst {
    struct alloc_problem p;
    struct alloc_job jobs[MAXJ];
    double o[MAXJ][MAXT][MAXN + 1];
    const double *ot[MAXJ][MAXT];
    int pools[MAXT];
    int owner[MAXP], pos_type[MAXP]; /* the node map, when given */
};

/* Points the problem into in, with nt types; job j can run on type t
 * when can[j][t] (NULL: every job on every type). */
static void tinst_link(struct tinst *in, size_t nj, int nt,
                       const int (*can)[MAXT])
{
    in->p.jobs = in->jobs;
    in->p.n_jobs = nj;
    in->p.n_types = nt;
    in->p.pools = in->pools;
    in->p.pool = 0;
    for (int t = 0; t < nt; t++)
        in->p.pool += in->pools[t];
    for (size_t j = 0; j < nj; j++) {
        for (int t = 0; t < nt; t++)
            in->ot[j][t] = !can || can[j][t] ? in->o[j][t] : NULL;
        in->jobs[j].ot = in->ot[j];
        in->jobs[j].o = NULL;
    }
}

/* Gives in a node map (p.owner, p.pos_type) drawn from rng: the
 * positions' types shuffled, and each job holding cur positions of its
 * type, drawn among those left. */
static void tinst_map(struct tinst *in)
{
    int n = in->p.pool, q = 0;

    ck_assert_int_le(n, MAXP);
    for (int t = 0; t < in->p.n_types; t++)
        for (int k = 0; k < in->pools[t]; k++)
            in->pos_type[q++] = t;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int k = (int)rnd((unsigned)i + 1), x = in->pos_type[i];
        in->pos_type[i] = in->pos_type[k];
        in->pos_type[k] = x;
    }
    for (int i = 0; i < n; i++)
        in->owner[i] = -1;
    for (size_t j = 0; j < in->p.n_jobs; j++)
        for (int k = 0; k < in->jobs[j].cur; k++) {
            int left = 0, pick;
            for (int i = 0; i < n; i++)
                left +=
                    in->owner[i] < 0 && in->pos_type[i] == in->jobs[j].ctype;
            ck_assert_int_gt(left, 0);
            pick = (int)rnd((unsigned)left);
            for (int i = 0; i < n; i++)
                if (in->owner[i] < 0 && in->pos_type[i] == in->jobs[j].ctype &&
                    pick-- == 0)
                    in->owner[i] = (int)j;
        }
    in->p.owner = in->owner;
    in->p.pos_type = in->pos_type;
}

/* Solves in with allocator a (desc d): returns the status, counts and
 * types in n, t. */
static int solve(struct allocator *a, const struct tinst *in, int *n, int *t,
                 double *objective)
{
    struct alloc_result r;
    struct bfs_error e;

    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    bfs_error_clear(&e);
    ck_assert_msg(allocator_solve(a, &in->p, &r, &e) == 0, "%s", e.msg);
    if (objective)
        *objective = r.objective;
    return r.status;
}

/* ---- worked by hand --------------------------------------------------------
 */

/* Three jobs, types A (0) and B (1) of 2 idle nodes each, Tfwd 10:
 *
 *   job 0: idle, Jmin 1, Jmax 2, O_A = 0 3 5, O_B = 0 2 3, no costs;
 *   job 1: holds 2 nodes of B, Jmin 1, Jmax 2, Tcup 2, Tcdw 1,
 *          O_A = 0 4 10, O_B = 0 2 4, so r = O_B(2) = 4;
 *   job 2: idle, Jmin = Jmax = 2, runs on A only, O_A = 0 0 6.
 *
 * Values v(t, n) = 10 O_t(n) - cost:
 *   job 0: idle 0, A1 30, A2 50, B1 20, B2 30;
 *   job 1: idle -1x4 = -4 (stops), A1 40-(1+2)4 = 28 (a move), A2
 *          100-12 = 88, B1 20-4 = 16 (shrinks), B2 40 (keeps);
 *   job 2: idle 0, A2 60.
 * The 25 vectors within the pools, best first:
 *   118 (B2, A2, -)   108 (B1, A2, -)   100 (-, B2, A2)   96 (B1, B1, A2)
 *    90 (A2, B2, -)    88 (-, A2, -)     86 (B2, -, A2)   76 (B1, -, A2)
 *    76 (-, B1, A2)    70 (A1, B2, -)    66 (A2, B1, -)   58 (B2, A1, -)
 *    58 (A1, A1, -)    56 (-, -, A2)     48 (B1, A1, -)   46 (A2, -, -)
 *    46 (A1, B1, -)    40 (-, B2, -)     36 (B1, B1, -)   28 (-, A1, -)
 *    26 (B2, -, -)     26 (A1, -, -)     16 (B1, -, -)    16 (-, B1, -)
 *    -4 (-, -, -)
 * so the exact answer is job 0 on 2 nodes of B, job 1 moved to 2 nodes of
 * A, job 2 idle: 118.  Job 1 pays a stop and a start, (Tcdw + Tcup) r =
 * 12, to move to its fast type, and job 0 makes room on its slow one.
 *
 * even: job 1 holds B and stays there; job 0, idle, goes to A (2 idle
 * nodes for 1 job against B's 2 for 2); job 2 can use A only.  A's 2
 * nodes among jobs 0 and 2: share q = 1, not > Jmin for either (1, 2),
 * so both quotas are 0 and the 2 left go, in job order, to job 0 (up to
 * its Jmax 2), none to job 2; B's 2 nodes to job 1 alone: q = 2 > 1,
 * min(2, Jmax 2) = 2.  So (A2, B2, -): 50 + 40 + 0 = 90. */
static void hand_case(struct tinst *in)
{
    static const int can[3][MAXT] = {{1, 1}, {1, 1}, {1, 0}};
    static const double o[3][2][3] = {{{0, 3, 5}, {0, 2, 3}},
                                      {{0, 4, 10}, {0, 2, 4}},
                                      {{0, 0, 6}, {0, 0, 0}}};

    memset(in, 0, sizeof *in);
    in->p.tfwd = 10;
    in->pools[0] = in->pools[1] = 2;
    in->jobs[0] = (struct alloc_job){.cur = 0, .jmin = 1, .jmax = 2};
    in->jobs[1] = (struct alloc_job){
        .cur = 2, .jmin = 1, .jmax = 2, .tcup = 2, .tcdw = 1, .ctype = 1};
    in->jobs[2] = (struct alloc_job){.cur = 0, .jmin = 2, .jmax = 2};
    memcpy(in->o[0][0], o[0][0], sizeof o[0][0]);
    memcpy(in->o[0][1], o[0][1], sizeof o[0][1]);
    memcpy(in->o[1][0], o[1][0], sizeof o[1][0]);
    memcpy(in->o[1][1], o[1][1], sizeof o[1][1]);
    memcpy(in->o[2][0], o[2][0], sizeof o[2][0]);
    tinst_link(in, 3, 2, can);
}

/* Types A (0) with 3 idle nodes and B (1) with 2, three idle jobs, Tfwd
 * 10, no costs:
 *   job 0: Jmin = Jmax = 2, O = 0 0 5 on A and B (50 running);
 *   job 1: Jmin 1, Jmax 2, A only, O_A = 0 3 4 (30, 40);
 *   job 2: Jmin 1, Jmax 2, O = 0 2 3 on A and B (20, 30).
 * Every job running is worth 110 at best: counts (2, 2, 1) = 50 + 40 +
 * 20 or (2, 1, 2) = 50 + 30 + 30, 5 nodes each; anything else is worth
 * less (one idle job loses at least 20, and (2, 1, 1) is 100).  No job
 * keeps its holding in these (all idle, all running).  Key 4 takes
 * (2, 2, 1): job 1 on A with 2 nodes leaves A one node, so job 0 must
 * be on B and job 2 on A: types (B, A, A), the only ones.  (2, 1, 2)
 * could have types (A, A, B), smaller at job 0, but key 5 comes after
 * key 4: a rule deciding job 0's count and type together would take A
 * and leave job 1 one node.
 *
 * even: job 0 to A (3 nodes per job against B's 2), job 1 to A (its
 * only type), job 2 to B (2/1 against A's 3/3).  A's 3 nodes among jobs
 * 0 and 1: q = 1, not > Jmin (2, 1), so the 3 go in job order: job 0
 * takes 2 (its Jmax), job 1 the last 1 (>= its Jmin 1); B's 2 to job 2:
 * q = 2 > 1, min(2, 2) = 2.  So (A2, A1, B2), 50 + 30 + 30 = 110. */
static void key5_case(struct tinst *in)
{
    static const int can[3][MAXT] = {{1, 1}, {1, 0}, {1, 1}};

    memset(in, 0, sizeof *in);
    in->p.tfwd = 10;
    in->pools[0] = 3;
    in->pools[1] = 2;
    in->jobs[0] = (struct alloc_job){.jmin = 2, .jmax = 2};
    in->jobs[1] = (struct alloc_job){.jmin = 1, .jmax = 2};
    in->jobs[2] = (struct alloc_job){.jmin = 1, .jmax = 2};
    in->o[0][0][2] = in->o[0][1][2] = 5;
    in->o[1][0][1] = 3;
    in->o[1][0][2] = 4;
    in->o[2][0][1] = in->o[2][1][1] = 2;
    in->o[2][0][2] = in->o[2][1][2] = 3;
    tinst_link(in, 3, 2, can);
}

/* Checks allocator i (-1: even) on a case against the expected counts,
 * types and objective. */
static void check_case(int i, const struct tinst *in, const int *wn,
                       const int *wt, double wz)
{
    struct allocator *a = make(i);
    int n[MAXJ], t[MAXJ];
    double z;

    if (!a)
        return; /* backend not compiled in */
    ck_assert_int_eq(solve(a, in, n, t, &z), SOLVE_OPTIMAL);
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        ck_assert_msg(n[j] == wn[j] && t[j] == wt[j],
                      "%s: job %zu: %d on type %d, expected %d on %d", desc(i),
                      j, n[j], t[j], wn[j], wt[j]);
    }
    ck_assert_msg(fabs(z - wz) < 1e-9, "%s: objective %.17g, expected %g",
                  desc(i), z, wz);
    allocator_free(a);
}

START_TEST(test_hand)
{
    struct tinst in;
    static const int n[3] = {2, 2, 0}, t[3] = {1, 0, -1};
    static const int en[3] = {2, 2, 0}, et[3] = {0, 1, -1};

    hand_case(&in);
    check_case(_i - 1, &in, _i ? n : en, _i ? t : et, _i ? 118 : 90);
}
END_TEST

START_TEST(test_key5_after_key4)
{
    struct tinst in;
    static const int n[3] = {2, 2, 1}, t[3] = {1, 0, 0};
    static const int en[3] = {2, 1, 2}, et[3] = {0, 0, 1};

    key5_case(&in);
    check_case(_i - 1, &in, _i ? n : en, _i ? t : et, 110);
}
END_TEST

/* Two identical idle jobs, Jmin = Jmax = 1, O = 0 5 on both types of one
 * node each, Tfwd 1: (A, B) and (B, A), worth 10, tie on every key up
 * to 4 (both run, no keeps, 2 nodes, counts (1, 1)); key 5 takes (A, B).
 * Then a third job holding 1 node of B, B only, O_B = 0 5, no costs:
 * it keeps (5) and one of the first two runs on A (5), or it stops (0)
 * and both run: 10 either way.  Key 2: (A1, -, B1) and (-, A1, B1) keep
 * two (an idle job staying idle counts), (A1, B1, -) and (B1, A1, -)
 * none; key 3: 2 nodes each; key 4: (1, 0, 1) before (0, 1, 1). */
START_TEST(test_keys_2_and_5)
{
    static const int can[3][MAXT] = {{1, 1}, {1, 1}, {0, 1}};
    struct tinst in;
    struct allocator *a = make(_i);
    int n[MAXJ], t[MAXJ];

    if (!a)
        return;
    memset(&in, 0, sizeof in);
    in.p.tfwd = 1;
    in.pools[0] = in.pools[1] = 1;
    for (int j = 0; j < 2; j++) {
        in.jobs[j] = (struct alloc_job){.jmin = 1, .jmax = 1};
        in.o[j][0][1] = in.o[j][1][1] = 5;
    }
    tinst_link(&in, 2, 2, NULL);
    ck_assert_int_eq(solve(a, &in, n, t, NULL), SOLVE_OPTIMAL);
    ck_assert_msg(n[0] == 1 && t[0] == 0 && n[1] == 1 && t[1] == 1,
                  "%s: (%d %d) (%d %d)", desc(_i), n[0], t[0], n[1], t[1]);
    in.jobs[2] = (struct alloc_job){.cur = 1, .jmin = 1, .jmax = 1, .ctype = 1};
    in.o[2][1][1] = 5;
    tinst_link(&in, 3, 2, can);
    ck_assert_int_eq(solve(a, &in, n, t, NULL), SOLVE_OPTIMAL);
    ck_assert_msg(n[0] == 1 && t[0] == 0 && n[1] == 0 && t[1] == -1 &&
                      n[2] == 1 && t[2] == 1,
                  "%s: (%d %d) (%d %d) (%d %d)", desc(_i), n[0], t[0], n[1],
                  t[1], n[2], t[2]);
    allocator_free(a);
}
END_TEST

/* ---- brute force, from the specification ------------------------------------
 */

/* Job j's value at count n on type t, written from tools/DESIGN.md
 * ("Node types"): Tfwd O_{j,t}(n) less the cost of the change. */
static double bf_value(const struct tinst *in, size_t j, int t, int n)
{
    const struct alloc_job *jb = &in->jobs[j];
    double r = jb->cur >= jb->jmin ? in->o[j][jb->ctype][jb->cur] : 0.0;
    double g = n > 0 ? in->p.tfwd * in->o[j][t][n] : 0.0;

    if (n == jb->cur && (n == 0 || t == jb->ctype))
        return g; /* keeps */
    if (jb->cur > 0 && n > 0 && t != jb->ctype)
        return g - (jb->tcdw + jb->tcup) * r; /* moves */
    if (n > jb->cur)
        return g - jb->tcup * r;
    return g - jb->tcdw * r;
}

struct bf {
    const struct tinst *in;
    int n[MAXJ], t[MAXJ], bn[MAXJ], bt[MAXJ];
    int used[MAXT];
    double zmax, thr, bz;
    int pass, have;
};

static int bf_keeps(const struct tinst *in, const int *n, const int *t)
{
    int k = 0;

    for (size_t j = 0; j < in->p.n_jobs; j++)
        k +=
            n[j] == in->jobs[j].cur && (n[j] == 0 || t[j] == in->jobs[j].ctype);
    return k;
}

/* 1 when (n, t) comes before (bn, bt) by keys 2 to 5. */
static int bf_before(const struct tinst *in, const int *n, const int *t,
                     const int *bn, const int *bt)
{
    int k1 = bf_keeps(in, n, t), k2 = bf_keeps(in, bn, bt), s1 = 0, s2 = 0;

    if (k1 != k2)
        return k1 > k2;
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        s1 += n[j];
        s2 += bn[j];
    }
    if (s1 != s2)
        return s1 < s2;
    for (size_t j = 0; j < in->p.n_jobs; j++)
        if (n[j] != bn[j])
            return n[j] > bn[j];
    for (size_t j = 0; j < in->p.n_jobs; j++)
        if (n[j] > 0 && t[j] != bt[j])
            return t[j] < bt[j];
    return 0;
}

static void bf_rec(struct bf *b, size_t j)
{
    const struct tinst *in = b->in;
    const struct alloc_problem *p = &in->p;

    if (j == p->n_jobs) {
        double z = 0.0;
        for (size_t i = 0; i < p->n_jobs; i++)
            z += bf_value(in, i, b->t[i], b->n[i]);
        if (b->pass == 0) {
            b->zmax = z > b->zmax ? z : b->zmax;
        } else if (z >= b->thr &&
                   (!b->have || bf_before(in, b->n, b->t, b->bn, b->bt))) {
            memcpy(b->bn, b->n, sizeof b->n);
            memcpy(b->bt, b->t, sizeof b->t);
            b->bz = z;
            b->have = 1;
        }
        return;
    }
    b->n[j] = 0;
    b->t[j] = -1;
    bf_rec(b, j + 1);
    for (int t = 0; t < p->n_types; t++) {
        if (!in->jobs[j].ot[t])
            continue;
        for (int n = in->jobs[j].jmin;
             n <= in->jobs[j].jmax && b->used[t] + n <= in->pools[t]; n++) {
            b->n[j] = n;
            b->t[j] = t;
            b->used[t] += n;
            bf_rec(b, j + 1);
            b->used[t] -= n;
        }
    }
}

/* The tolerance of key 1, from the specification: 1e-7 max(1, sum_j
 * max |v_j(t, n)|) over the admissible pairs. */
static double bf_tol(const struct tinst *in)
{
    double s = 0.0;

    for (size_t j = 0; j < in->p.n_jobs; j++) {
        const struct alloc_job *jb = &in->jobs[j];
        double big = fabs(bf_value(in, j, -1, 0));
        for (int t = 0; t < in->p.n_types; t++)
            for (int n = jb->jmin;
                 jb->ot[t] && n <= jb->jmax && n <= in->pools[t]; n++)
                if (fabs(bf_value(in, j, t, n)) > big)
                    big = fabs(bf_value(in, j, t, n));
        s += big;
    }
    return 1e-7 * (s > 1.0 ? s : 1.0);
}

/* The rule's choice for in into n, t; returns its value, and the best
 * value z* in *zmax when not NULL. */
static double brute_force_z(const struct tinst *in, int *n, int *t,
                            double *zmax)
{
    struct bf b;

    memset(&b, 0, sizeof b);
    b.in = in;
    b.zmax = -HUGE_VAL;
    bf_rec(&b, 0);
    b.pass = 1;
    b.thr = b.zmax - bf_tol(in);
    bf_rec(&b, 0);
    memcpy(n, b.bn, sizeof b.bn);
    memcpy(t, b.bt, sizeof b.bt);
    if (zmax)
        *zmax = b.zmax;
    return b.bz;
}

static double brute_force(const struct tinst *in, int *n, int *t)
{
    return brute_force_z(in, n, t, NULL);
}

/* ---- random instances
 * --------------------------------------------------------- */

/* A random two-type instance from seed: 2 to 4 jobs, pools of 0 to 4
 * nodes, Jmin 1-2, Jmax up to 4; curves of integers 0..9 (so that many
 * vectors tie exactly) or, one in four, of fractions; about one job in
 * four cannot use one of the types; current holdings within the pools;
 * one job in four a copy of the one before (identical jobs tie). */
static void gen(struct tinst *in, unsigned seed)
{
    int can[MAXJ][MAXT], held[MAXT] = {0, 0};
    size_t nj;
    int frac;

    memset(in, 0, sizeof *in);
    rng = 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed * 2654435761u);
    rnd(2);
    nj = 2 + rnd(3);
    in->pools[0] = (int)rnd(5);
    in->pools[1] = (int)rnd(5);
    in->p.tfwd = rnd(2) ? 10 : 1 + rnd(5);
    frac = rnd(4) == 0;
    for (size_t j = 0; j < nj; j++) {
        struct alloc_job *jb = &in->jobs[j];
        if (j > 0 && rnd(4) == 0) { /* a twin of job j - 1 */
            *jb = in->jobs[j - 1];
            memcpy(in->o[j], in->o[j - 1], sizeof in->o[j]);
            memcpy(can[j], can[j - 1], sizeof can[j]);
            if (jb->cur > 0 && held[jb->ctype] + jb->cur > in->pools[jb->ctype])
                jb->cur = 0;
            held[jb->ctype] += jb->cur;
            continue;
        }
        jb->jmin = 1 + (int)rnd(2);
        jb->jmax = jb->jmin + (int)rnd(3);
        jb->tcup = rnd(3) * 2;
        jb->tcdw = rnd(3);
        can[j][0] = can[j][1] = 1;
        if (rnd(4) == 0)
            can[j][rnd(2)] = 0;
        for (int t = 0; t < 2; t++)
            for (int n = 1; n <= jb->jmax; n++)
                in->o[j][t][n] = frac ? rnd(1000) / 97.0 : rnd(10);
        jb->ctype = can[j][0] ? (can[j][1] ? (int)rnd(2) : 0) : 1;
        jb->cur = (int)rnd((unsigned)jb->jmax + 1);
        if (held[jb->ctype] + jb->cur > in->pools[jb->ctype])
            jb->cur = in->pools[jb->ctype] - held[jb->ctype];
        held[jb->ctype] += jb->cur;
    }
    tinst_link(in, nj, 2, (const int(*)[MAXT])can);
}

/* Instances per exact method: dp on all, each MILP on fewer, the node
 * model (slower) on fewer still. */
#define N_RANDOM 300
#define N_RANDOM_MILP 60
#define N_RANDOM_NODE 30

/* The node model gets a shuffled node map on odd seeds (the answer does
 * not depend on it: both models admit the same allocations), and places
 * the nodes itself on even ones. */
START_TEST(test_random)
{
    struct allocator *a = make(_i);
    int count = _i == 0       ? N_RANDOM
                : is_node(_i) ? N_RANDOM_NODE
                              : N_RANDOM_MILP;

    if (!a)
        return;
    for (int s = 0; s < count; s++) {
        struct tinst in;
        int wn[MAXJ], wt[MAXJ], n[MAXJ], t[MAXJ];
        double wz, z;
        gen(&in, (unsigned)s);
        wz = brute_force(&in, wn, wt);
        if (is_node(_i) && s % 2 == 1)
            tinst_map(&in);
        ck_assert_int_eq(solve(a, &in, n, t, &z), SOLVE_OPTIMAL);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            ck_assert_msg(n[j] == wn[j] && t[j] == wt[j],
                          "%s seed %d job %zu: %d on %d, brute force %d on %d",
                          desc(_i), s, j, n[j], t[j], wn[j], wt[j]);
        ck_assert_msg(fabs(z - wz) <= bf_tol(&in), "%s seed %d: %.17g vs %.17g",
                      desc(_i), s, z, wz);
        /* the objective functions agree with the brute force's values */
        ck_assert(fabs(alloc_objective_t(&in.p, n, t) - wz) <= bf_tol(&in));
        ck_assert(fabs(alloc_tie_tol_t(&in.p) - bf_tol(&in)) <=
                  1e-12 * bf_tol(&in));
        ck_assert(alloc_feasible_t(&in.p, n, t));
    }
    allocator_free(a);
}
END_TEST

/* Larger instances, where the MILP's stage-2 weights cannot order the tie
 * set exactly (6 jobs of 7 counts on 2 types: 7^6 2^6 (nodes + 1) >
 * LEX_EXACT_MAX = 2^24), so its certificates (stage 3, keys 4 and 5)
 * decide: each MILP against dp, which test_random checks against the
 * brute force.  Curves of few integer values, the same on both types
 * for half the jobs, and twins make large tie sets. */
static void gen_large(struct tinst *in, unsigned seed)
{
    int can[MAXJ][MAXT];

    memset(in, 0, sizeof *in);
    rng = 0xD1B54A32D192ED03ull ^ ((unsigned long long)seed * 2654435761u);
    rnd(2);
    in->pools[0] = 3 + (int)rnd(6);
    in->pools[1] = 3 + (int)rnd(6);
    in->p.tfwd = 1;
    for (size_t j = 0; j < MAXJ; j++) {
        struct alloc_job *jb = &in->jobs[j];
        if (j % 2 == 1 && rnd(2)) { /* a twin */
            *jb = in->jobs[j - 1];
            memcpy(in->o[j], in->o[j - 1], sizeof in->o[j]);
            memcpy(can[j], can[j - 1], sizeof can[j]);
            jb->cur = 0;
            continue;
        }
        jb->jmin = 1;
        jb->jmax = MAXN;
        can[j][0] = can[j][1] = 1;
        if (rnd(3) == 0)
            can[j][rnd(2)] = 0;
        for (int t = 0; t < 2; t++)
            for (int n = 1; n <= MAXN; n++)
                in->o[j][t][n] = 1 + rnd(3);
        if (rnd(2)) /* the same on both types: key 5 decides */
            memcpy(in->o[j][1], in->o[j][0], sizeof in->o[j][0]);
        jb->ctype = can[j][0] ? 0 : 1;
        jb->cur = 0;
    }
    tinst_link(in, MAXJ, 2, (const int(*)[MAXT])can);
}

START_TEST(test_large_vs_dp)
{
    struct allocator *a = make(_i + 1), *d = make(0);

    if (!a) {
        allocator_free(d);
        return;
    }
    for (int s = 0; s < 6; s++) {
        struct tinst in;
        int wn[MAXJ], wt[MAXJ], n[MAXJ], t[MAXJ];
        gen_large(&in, (unsigned)s);
        ck_assert_int_eq(solve(d, &in, wn, wt, NULL), SOLVE_OPTIMAL);
        ck_assert_int_eq(solve(a, &in, n, t, NULL), SOLVE_OPTIMAL);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            ck_assert_msg(n[j] == wn[j] && t[j] == wt[j],
                          "%s seed %d job %zu: %d on %d, dp %d on %d",
                          desc(_i + 1), s, j, n[j], t[j], wn[j], wt[j]);
    }
    allocator_free(d);
    allocator_free(a);
}
END_TEST

/* The typed value against the brute force's at every admissible pair of
 * the random instances, and admissibility against its enumeration. */
START_TEST(test_values)
{
    for (int s = 0; s < 100; s++) {
        struct tinst in;
        gen(&in, (unsigned)s);
        for (size_t j = 0; j < in.p.n_jobs; j++) {
            const struct alloc_job *jb = &in.jobs[j];
            ck_assert(alloc_admissible_t(&in.p, j, -1, 0));
            ck_assert(alloc_value_t(&in.p, j, -1, 0) ==
                      bf_value(&in, j, -1, 0));
            for (int t = 0; t < 2; t++)
                for (int n = 1; n <= jb->jmax + 1; n++) {
                    int adm = jb->ot[t] && n >= jb->jmin && n <= jb->jmax &&
                              n <= in.pools[t];
                    ck_assert_int_eq(alloc_admissible_t(&in.p, j, t, n), adm);
                    if (adm)
                        ck_assert(alloc_value_t(&in.p, j, t, n) ==
                                  bf_value(&in, j, t, n));
                }
        }
    }
}
END_TEST

/* ---- reduced-cost fixing (alloc/objective.h) -------------------------------
 */

/* Every allocation of in of value >= thr (the brute force's values):
 * counts the options it uses that the table v (rows of W, as
 * alloc_values_t lays it out) has dropped. */
struct tie_walk {
    const struct tinst *in;
    const double *v;
    size_t W;
    double thr;
    int n[MAXJ], t[MAXJ], used[MAXT];
    long ties, lost;
};

static void tie_rec(struct tie_walk *w, size_t j)
{
    const struct tinst *in = w->in;
    size_t nj = in->p.n_jobs, nt = (size_t)in->p.n_types;

    if (j == nj) {
        double z = 0.0;
        for (size_t i = 0; i < nj; i++)
            z += bf_value(in, i, w->t[i], w->n[i]);
        if (!(z >= w->thr))
            return;
        w->ties++;
        for (size_t i = 0; i < nj; i++) {
            size_t t = w->n[i] > 0 ? (size_t)w->t[i] : 0;
            w->lost += w->v[(i * nt + t) * w->W + (size_t)w->n[i]] == -HUGE_VAL;
        }
        return;
    }
    w->n[j] = 0;
    w->t[j] = -1;
    tie_rec(w, j + 1);
    for (int t = 0; t < in->p.n_types; t++)
        for (int n = in->jobs[j].jmin;
             in->jobs[j].ot[t] && n <= in->jobs[j].jmax &&
             w->used[t] + n <= in->pools[t];
             n++) {
            w->n[j] = n;
            w->t[j] = t;
            w->used[t] += n;
            tie_rec(w, j + 1);
            w->used[t] -= n;
        }
}

/* The fixing on the random instances, against the brute force: its
 * bound L is at least z*; its greedy allocation is feasible, worth what
 * it says and at most z*; and fixed for that value, or for z* (as the
 * MILP does with dp's optimum), it keeps every option of every
 * allocation of value >= z* - tol (the tie set).  It must drop some
 * options over the 300 instances, or nothing is tested. */
START_TEST(test_fixing)
{
    enum { W = MAXN + 1 };
    long dropped = 0, ties = 0;

    for (int s = 0; s < N_RANDOM; s++) {
        struct tinst in;
        struct alloc_lagr g;
        int wn[MAXJ], wt[MAXJ], gn[MAXJ], gt[MAXJ];
        double v[MAXJ * MAXT * W], w[MAXJ * MAXT * W], zmax, zg, tol;
        size_t cells;
        gen(&in, (unsigned)s);
        cells = in.p.n_jobs * (size_t)in.p.n_types * W;
        brute_force_z(&in, wn, wt, &zmax);
        tol = bf_tol(&in);
        alloc_values_t(&in.p, W, v);
        alloc_lagr_init(&g, &in.p, W, v);
        ck_assert_msg(g.L >= zmax - tol, "seed %d: bound %.17g < z* %.17g", s,
                      g.L, zmax);
        zg = alloc_lagr_greedy(&g, &in.p, v, gn, gt);
        ck_assert_msg(alloc_feasible_t(&in.p, gn, gt), "seed %d", s);
        ck_assert(fabs(alloc_objective_t(&in.p, gn, gt) - zg) <= tol);
        ck_assert(zg <= zmax + tol);
        for (int k = 0; k < 2; k++) {
            struct tie_walk tw;
            memcpy(w, v, cells * sizeof *w);
            alloc_lagr_fix(&g, k ? zmax : zg, tol, w);
            memset(&tw, 0, sizeof tw);
            tw.in = &in;
            tw.v = w;
            tw.W = W;
            tw.thr = zmax - tol;
            tie_rec(&tw, 0);
            ck_assert_msg(tw.lost == 0 && tw.ties > 0,
                          "seed %d, zlb %s: %ld options of the %ld tied "
                          "allocations dropped",
                          s, k ? "z*" : "greedy", tw.lost, tw.ties);
            ties += tw.ties;
            for (size_t i = 0; i < cells; i++)
                dropped += v[i] != -HUGE_VAL && w[i] == -HUGE_VAL;
        }
        alloc_lagr_release(&g);
    }
    ck_assert_msg(dropped > 0 && ties > 0, "dropped %ld, ties %ld", dropped,
                  ties);
}
END_TEST

/* Upper hull of the counts 1..W-1 of row y whose value is not -HUGE_VAL,
 * by the rule objective.h gives alloc_lagr_init_hulls' hulls: a monotone
 * chain dropping a point when the next turns no further down.  Returns
 * its length; the counts into h. */
static size_t hull_of(const double *y, size_t W, int *h)
{
    size_t m = 0;

    for (int n = 1; (size_t)n < W; n++) {
        if (y[n] == -HUGE_VAL)
            continue;
        while (m >= 2 && !((y[h[m - 1]] - y[h[m - 2]]) * (n - h[m - 1]) >
                           (y[n] - y[h[m - 1]]) * (h[m - 1] - h[m - 2])))
            m--;
        h[m++] = n;
    }
    return m;
}

/* alloc_lagr_init_hulls on the random instances, given hulls made by the
 * documented rule: every value lies on or below the chords of its hull
 * (checked by brute force, so the hulls are hulls), and the prices, phi
 * and L are alloc_lagr_init's, bit for bit. */
START_TEST(test_fixing_hulls)
{
    enum { W = MAXN + 1 };

    for (int s = 0; s < N_RANDOM; s++) {
        struct tinst in;
        struct alloc_lagr g, gh;
        double v[MAXJ * MAXT * W];
        int h[MAXJ * MAXT][W];
        const int *hp[MAXJ * MAXT];
        size_t hl[MAXJ * MAXT], njt;
        gen(&in, (unsigned)s);
        njt = in.p.n_jobs * (size_t)in.p.n_types;
        alloc_values_t(&in.p, W, v);
        for (size_t jt = 0; jt < njt; jt++) {
            const double *y = &v[jt * W];
            hl[jt] = hull_of(y, W, h[jt]);
            hp[jt] = h[jt];
            for (size_t k = 0; k + 1 < hl[jt]; k++)
                for (int n = h[jt][k]; n <= h[jt][k + 1]; n++) {
                    int a = h[jt][k], b = h[jt][k + 1];
                    double chord = y[a] + (y[b] - y[a]) * (n - a) / (b - a);
                    ck_assert(y[n] == -HUGE_VAL ||
                              y[n] <= chord + 1e-9 * (1.0 + fabs(chord)));
                }
        }
        alloc_lagr_init(&g, &in.p, W, v);
        alloc_lagr_init_hulls(&gh, &in.p, W, v, hp, hl);
        ck_assert(!memcmp(&g.L, &gh.L, sizeof g.L));
        ck_assert(!memcmp(g.lam, gh.lam, g.nt * sizeof *g.lam));
        ck_assert(!memcmp(g.phi, gh.phi, g.nj * sizeof *g.phi));
        alloc_lagr_release(&gh);
        alloc_lagr_release(&g);
    }
}
END_TEST

/* alloc_lagr_greedy_pre, given prefix tables made here by a plain
 * running maximum (the first count of the highest value within r),
 * gives alloc_lagr_greedy's allocation and value bit for bit on random
 * instances, with the table as made and with entries past a random
 * clip per job and type set to -HUGE_VAL (as dp's fixing leaves them). */
START_TEST(test_greedy_prefix)
{
    enum { W = MAXN + 1 };

    for (int s = 0; s < N_RANDOM; s++) {
        struct tinst in;
        struct alloc_lagr g;
        double v[MAXJ * MAXT * W], bv[MAXJ * MAXT * W];
        int bc[MAXJ * MAXT * W], n1[MAXJ], t1[MAXJ], n2[MAXJ], t2[MAXJ];
        size_t njt;
        gen(&in, (unsigned)s);
        njt = in.p.n_jobs * (size_t)in.p.n_types;
        alloc_values_t(&in.p, W, v);
        for (size_t jt = 0; s % 2 && jt < njt; jt++)
            for (size_t n = 1 + (jt * 7 + (size_t)s) % W; n < W; n++)
                v[jt * W + n] = -HUGE_VAL;
        for (size_t jt = 0; jt < njt; jt++) {
            bv[jt * W] = -HUGE_VAL;
            bc[jt * W] = 0;
            for (size_t r = 1; r < W; r++) {
                int up = v[jt * W + r] > bv[jt * W + r - 1];
                bv[jt * W + r] = up ? v[jt * W + r] : bv[jt * W + r - 1];
                bc[jt * W + r] = up ? (int)r : bc[jt * W + r - 1];
            }
        }
        alloc_lagr_init(&g, &in.p, W, v);
        double z1 = alloc_lagr_greedy(&g, &in.p, v, n1, t1);
        double z2 = alloc_lagr_greedy_pre(&g, &in.p, v, bv, bc, n2, t2);
        ck_assert(!memcmp(&z1, &z2, sizeof z1));
        ck_assert(!memcmp(n1, n2, in.p.n_jobs * sizeof *n1));
        ck_assert(!memcmp(t1, t2, in.p.n_jobs * sizeof *t1));
        alloc_lagr_release(&g);
    }
}
END_TEST

/* alloc_values_run_t gives alloc_value_t's doubles, bit for bit, on the
 * random instances, for each job and type over a run of counts that
 * starts at 0 or inside the job's range (a run from 1 on type t > 0 too,
 * as dp's rows take them). */
START_TEST(test_values_run)
{
    for (int s = 0; s < N_RANDOM; s++) {
        struct tinst in;
        gen(&in, (unsigned)s);
        for (size_t j = 0; j < in.p.n_jobs; j++)
            for (int t = 0; t < in.p.n_types; t++) {
                const struct alloc_job *b = &in.p.jobs[j];
                double run[MAXN + 1];
                int n0 = t == 0 && s % 2 ? 0 : b->jmin, n1 = b->jmax + 1;
                if (!b->ot[t])
                    continue;
                alloc_values_run_t(&in.p, j, t, n0, n1, run);
                for (int n = n0; n < n1; n++) {
                    double x = alloc_value_t(&in.p, j, t, n);
                    ck_assert(!memcmp(&x, &run[n - n0], sizeof x));
                }
            }
    }
}
END_TEST

/* ---- a medium instance --------------------------------------------------- */

/* 10 jobs, Jmax 100 to 200, on pools of 500 and 800 nodes: curves O(n)
 * = s_t (1000 n - 2 n^2) with a speed s_t per type (0.5 to 2), the
 * fifth and tenth job on type 0 only, six jobs holding 10 to 49 nodes
 * with costs; the jobs want some 1,500 nodes of 1,300.  The table of
 * usage vectors the dense dp made (501 x 801 states, 11 keep counts, 11
 * jobs) was past its bound; with the fixing, dp answers, and the MILP
 * on every backend, with and without dp's start, agrees. */
static struct alloc_problem *medium_problem(void)
{
    static struct alloc_job jobs[10];
    static double o[10][2][201];
    static const double *ot[10][2];
    static int pools[2] = {500, 800};
    static struct alloc_problem p;

    rng = 0x2545F4914F6CDD1Dull;
    for (int j = 0; j < 10; j++) {
        struct alloc_job *jb = &jobs[j];
        jb->jmin = 1 + (int)rnd(4);
        jb->jmax = 100 + (int)rnd(101);
        for (int t = 0; t < 2; t++) {
            double sp = 0.5 + rnd(16) / 10.0;
            for (int n = 1; n <= jb->jmax; n++)
                o[j][t][n] = sp * (1000.0 * n - 2.0 * n * n);
            ot[j][t] = t == 1 && j % 5 == 4 ? NULL : o[j][t];
        }
        jb->ot = ot[j];
        jb->tcup = 18;
        jb->tcdw = 12;
        jb->ctype = j % 5 == 4 ? 0 : j % 2;
        jb->cur = j < 6 ? 10 + (int)rnd(40) : 0;
    }
    p = (struct alloc_problem){.pool = 1300,
                               .tfwd = 10,
                               .n_jobs = 10,
                               .jobs = jobs,
                               .n_types = 2,
                               .pools = pools};
    return &p;
}

START_TEST(test_medium)
{
    struct alloc_problem *p = medium_problem();
    struct alloc_result r;
    struct bfs_error e;
    int dn[10], dt[10], n[10], t[10], used[2] = {0, 0};

    memset(&r, 0, sizeof r);
    r.counts = dn;
    r.types = dt;
    for (int i = 0; i < FIRST_NODE; i++) {
        struct allocator *a = make(i);
        if (!a)
            continue;
        r.counts = i ? n : dn;
        r.types = i ? t : dt;
        bfs_error_clear(&e);
        ck_assert_msg(allocator_solve(a, p, &r, &e) == 0, "%s: %s", desc(i),
                      e.msg);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (size_t j = 0; i > 0 && j < 10; j++)
            ck_assert_msg(n[j] == dn[j] && t[j] == dt[j],
                          "%s job %zu: %d on %d, dp %d on %d", desc(i), j, n[j],
                          t[j], dn[j], dt[j]);
        allocator_free(a);
    }
    /* not a trivial answer: the pools bind */
    for (size_t j = 0; j < 10; j++)
        if (dn[j] > 0)
            used[dt[j]] += dn[j];
    ck_assert_msg(used[0] + used[1] > 1200, "%d + %d nodes", used[0], used[1]);
}
END_TEST

/* ---- one type, unchanged ------------------------------------------------- */

/* With n_types 1 (or 0) every typed function is its one-type counterpart:
 * the same doubles and answers, types not read. */
START_TEST(test_one_type_same)
{
    static const double o0[] = {0, 3, 7.25, 9}, o1[] = {0, 4, 4.5, 11};
    struct alloc_job jobs[2] = {
        {.cur = 2, .jmin = 1, .jmax = 3, .tcup = 3, .tcdw = 1.5, .o = o0},
        {.cur = 0, .jmin = 2, .jmax = 3, .tcup = 1, .tcdw = 1, .o = o1}};
    struct alloc_problem p = {
        .pool = 4, .tfwd = 7, .n_jobs = 2, .jobs = jobs, .n_types = 1};
    int a[2] = {2, 2}, b[2] = {1, 3};

    for (int nt = 0; nt <= 1; nt++) {
        p.n_types = nt;
        ck_assert(!alloc_typed(&p));
        for (int n = 0; n <= 3; n++)
            for (size_t j = 0; j < 2; j++) {
                ck_assert(alloc_value_t(&p, j, 5, n) == alloc_value(&p, j, n));
                ck_assert_int_eq(alloc_admissible_t(&p, j, 5, n),
                                 alloc_admissible(&p, j, n));
                ck_assert_int_eq(alloc_keeps_t(&p, j, 5, n), n == jobs[j].cur);
            }
        ck_assert(alloc_objective_t(&p, a, NULL) == alloc_objective(&p, a));
        ck_assert(alloc_tie_tol_t(&p) == alloc_tie_tol(&p));
        ck_assert_int_eq(alloc_feasible_t(&p, b, NULL), alloc_feasible(&p, b));
        ck_assert_int_eq(alloc_tie_cmp_t(&p, a, NULL, b, NULL),
                         alloc_tie_cmp(&p, a, b));
        ck_assert(alloc_table_t(&p, 1, 3) == o1);
    }
}
END_TEST

/* ---- the problem check
 * ------------------------------------------------------- */

START_TEST(test_check)
{
    struct tinst in;
    struct bfs_error e;
    static const struct {
        int what;
        const char *msg;
    } bad[] = {
        {0, "pools of the 2 node types sum to 4, not to the pool size 5"},
        {1, "pool of type 1: -1 nodes < 0"},
        {2, "cap 1 with node types"},
        {3, "a node map (owner) with node types needs the type of each "
            "position (pos_type)"},
        {4, "job 1: holds 2 nodes of type 1, a type it cannot run on"},
        {5, "job 1: holds 2 nodes of type 2, not a type"},
        {6, "job 0: O(0) = 1 on type 1, not 0"},
        {7, "job 2: O(2) on type 0 not finite"},
        {8, "job 0: no tables per node type"},
        {9, "2 node types but no pools"},
        {10, "node map: position 1 of type 2, not a type (0..1)"},
        {11, "node map: 1 positions of type 0, but its pool has 2 nodes"},
        {12, "node map: position 1, of type 0, held by job 1, whose nodes "
             "are of type 1"},
        {13, "node map: job 1 holds 1 positions, but 2 nodes by its count"},
        {14, "node map: position 0 held by job 3, not a job (-1 for none, or "
             "0..2)"},
    };
    static const int owner[4] = {-1, -1, -1, -1};
    /* a map the check takes: types B A A B, job 1 on positions 0 and 3 */
    static const int good_type[4] = {1, 0, 0, 1}, good_own[4] = {1, -1, -1, 1};

    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        hand_case(&in);
        if (bad[k].what >= 10) { /* the good map, then one thing wrong */
            memcpy(in.pos_type, good_type, sizeof good_type);
            memcpy(in.owner, good_own, sizeof good_own);
            in.p.owner = in.owner;
            in.p.pos_type = in.pos_type;
        }
        bfs_error_clear(&e);
        ck_assert_int_eq(alloc_problem_check(&in.p, &e), 0);
        switch (bad[k].what) {
        case 0:
            in.p.pool = 5;
            break;
        case 1:
            in.pools[1] = -1;
            in.pools[0] = 5;
            break;
        case 2:
            in.p.cap = 1;
            break;
        case 3:
            in.p.owner = owner;
            break;
        case 4:
            in.ot[1][1] = NULL;
            break;
        case 5:
            in.jobs[1].ctype = 2;
            break;
        case 6:
            in.o[0][1][0] = 1;
            break;
        case 7:
            in.o[2][0][2] = HUGE_VAL;
            break;
        case 8:
            in.jobs[0].ot = NULL;
            break;
        case 9:
            in.p.pools = NULL;
            break;
        case 10: /* a position of no type */
            in.pos_type[1] = 2;
            break;
        case 11: /* B A B B: 1 node of A, 3 of B */
            in.pos_type[2] = 1;
            break;
        case 12: /* job 1 on a node of A */
            in.owner[1] = 1;
            in.owner[3] = -1;
            break;
        case 13: /* job 1 on 1 position, holding 2 */
            in.owner[3] = -1;
            break;
        case 14:
            in.owner[0] = 3;
            break;
        }
        ck_assert_int_eq(alloc_problem_check(&in.p, &e), BFS_EINVAL);
        ck_assert_msg(strstr(e.msg, bad[k].msg), "case %zu: %s", k, e.msg);
    }
    /* an idle job may name any type, and a job no type at all */
    hand_case(&in);
    in.jobs[0].ctype = 7;
    in.ot[2][0] = NULL;
    ck_assert_int_eq(alloc_problem_check(&in.p, NULL), 0);
}
END_TEST

/* ---- other interfaces -----------------------------------------------------
 */

/* allocator_solve_order with types, the jobs in the order 2, 0, 1: the
 * hand case has one optimum, found at each job's own index.  key5_case
 * has two count vectors tied on keys 1-3 (see there), (2, 2, 1) and (2,
 * 1, 2) by job index; in the order 2, 0, 1 they read (1, 2, 2) and (2,
 * 2, 1), so key 4 now takes (2, 1, 2), whose types are (A, A, B) or (B,
 * A, A) by job index, (B, A, A) and (A, B, A) in the order: key 5 takes
 * the latter, job 0 on 2 nodes of B, job 1 on 1 of A, job 2 on 2 of A
 * (A: 3 nodes, B: 2). */
START_TEST(test_order)
{
    static const size_t order[3] = {2, 0, 1};
    struct allocator *a = make(_i);
    struct tinst in;
    struct alloc_result r;
    int n[3], t[3];

    if (!a)
        return;
    hand_case(&in);
    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    ck_assert_int_eq(allocator_solve_order(a, &in.p, order, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert(n[0] == 2 && t[0] == 1 && n[1] == 2 && t[1] == 0 && n[2] == 0 &&
              t[2] == -1);
    key5_case(&in);
    ck_assert_int_eq(allocator_solve_order(a, &in.p, order, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_msg(n[0] == 2 && t[0] == 1 && n[1] == 1 && t[1] == 0 &&
                      n[2] == 2 && t[2] == 0,
                  "%s: (%d %d) (%d %d) (%d %d)", desc(_i), n[0], t[0], n[1],
                  t[1], n[2], t[2]);
    allocator_free(a);
}
END_TEST

/* dp keeps the last instance and its answer: the hand case solved twice
 * by one allocator, then with job 1's O_A(2) lowered from 10 to 8 in
 * place (the same tables, one number changed), then as it was.  With O_A
 * = 0 4 8 job 1's A2 is worth 80 - 12 = 68, so (B2, A2, -) falls to 98
 * and (B1, A2, -) to 88; the best is then (-, B2, A2), 100 (hand_case's
 * list, the others unchanged and below 98). */
START_TEST(test_dp_memo)
{
    static const int n1[3] = {2, 2, 0}, t1[3] = {1, 0, -1};
    static const int n2[3] = {0, 2, 2}, t2[3] = {-1, 1, 0};
    static const double wz[4] = {118, 118, 100, 118};
    struct allocator *a = make(0);
    struct tinst in;
    int n[3], t[3];
    double z;

    hand_case(&in);
    for (int k = 0; k < 4; k++) {
        const int *wn = k == 2 ? n2 : n1, *wt = k == 2 ? t2 : t1;
        in.o[1][0][2] = k == 2 ? 8 : 10;
        ck_assert_int_eq(solve(a, &in, n, t, &z), SOLVE_OPTIMAL);
        for (size_t j = 0; j < 3; j++)
            ck_assert_msg(n[j] == wn[j] && t[j] == wt[j],
                          "solve %d: job %zu: %d on type %d, expected %d on %d",
                          k, j, n[j], t[j], wn[j], wt[j]);
        ck_assert_msg(fabs(z - wz[k]) < 1e-9, "solve %d: objective %g", k, z);
    }
    allocator_free(a);
}
END_TEST

/* The node model on the hand case with a node map whose types are
 * interleaved, B A A B, job 1 holding its 2 nodes of B at positions 0 and
 * 3: the hand answer (job 0 on 2 of B, job 1 moved to 2 of A, job 2
 * idle: 118), read from the map as given (taken as blocks of A then B,
 * job 1 would hold a node of A); the same at each job's index in the job
 * order 2, 0, 1 (allocator_solve_order renumbers the owners).  Then job 1
 * holding 1 node of B (position 3; r = O_B(1) = 2, so growing costs Tcup
 * r = 4, shrinking Tcdw r = 2, moving 6), values by hand:
 *   job 0: idle 0, A1 30, A2 50, B1 20, B2 30;
 *   job 1: idle -2, A1 40-6 = 34, A2 100-6 = 94, B1 20 (keeps), B2 40-4
 *          = 36;
 *   job 2: idle 0, A2 60.
 * With job 1 on A2, A is full, job 2 idle and job 0 takes B2: 124; on A1,
 * at most 34 + 30; on B2, 36 + 60; on B1, 20 + 60 + 20 = 100; idle, -2
 * + 60 + 30.  So (B2, A2, -) = 124, job 1 moving and growing. */
START_TEST(test_node_map)
{
    static const size_t order[3] = {2, 0, 1};
    struct allocator *a = make(_i);
    struct alloc_result r;
    struct tinst in;
    int n[3], t[3];

    if (!a)
        return;
    hand_case(&in);
    memcpy(in.pos_type, (const int[4]){1, 0, 0, 1}, 4 * sizeof(int));
    memcpy(in.owner, (const int[4]){1, -1, -1, 1}, 4 * sizeof(int));
    in.p.owner = in.owner;
    in.p.pos_type = in.pos_type;
    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(k ? allocator_solve_order(a, &in.p, order, &r, NULL)
                           : allocator_solve(a, &in.p, &r, NULL),
                         0);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        ck_assert_msg(n[0] == 2 && t[0] == 1 && n[1] == 2 && t[1] == 0 &&
                          n[2] == 0 && t[2] == -1,
                      "%s, %s: (%d %d) (%d %d) (%d %d)", desc(_i),
                      k ? "order 2 0 1" : "job order", n[0], t[0], n[1], t[1],
                      n[2], t[2]);
        ck_assert(fabs(r.objective - 118) < 1e-9);
    }
    in.jobs[1].cur = 1;
    in.owner[0] = -1;
    ck_assert_int_eq(allocator_solve(a, &in.p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_msg(n[0] == 2 && t[0] == 1 && n[1] == 2 && t[1] == 0 &&
                      n[2] == 0 && t[2] == -1,
                  "%s: (%d %d) (%d %d) (%d %d)", desc(_i), n[0], t[0], n[1],
                  t[1], n[2], t[2]);
    ck_assert_msg(fabs(r.objective - 124) < 1e-9, "%s: %.17g", desc(_i),
                  r.objective);
    allocator_free(a);
}
END_TEST

/* ---- dp's bounds ----------------------------------------------------------
 */

/* nj (<= 16) idle jobs of Jmax jmax (<= 30) on nt types of per idle nodes
 * each, O(n) = n (13 - n) on every type, or O(n) = n when flat. */
static struct alloc_problem *big_problem(int nj, int jmax, int nt, int per,
                                         int flat)
{
    static struct alloc_job jobs[16];
    static double o[31];
    static const double *ot[4] = {o, o, o, o};
    static int pools[4];
    static struct alloc_problem p;

    for (int t = 0; t < 4; t++)
        pools[t] = per;
    for (int n = 1; n <= jmax; n++)
        o[n] = flat ? n : n * (13 - n); /* concave, peaks at 6-7 */
    for (int j = 0; j < nj; j++)
        jobs[j] = (struct alloc_job){.jmin = 1, .jmax = jmax, .ot = ot};
    p = (struct alloc_problem){.pool = nt * per,
                               .tfwd = 1,
                               .n_jobs = (size_t)nj,
                               .jobs = jobs,
                               .n_types = nt,
                               .pools = pools};
    return &p;
}

/* 16 idle jobs of Jmax 30, O(n) = n, on 4 types of 100 nodes: they
 * want 480 nodes of 400, every allocation filling the pools ties (the
 * fixing's price is 1 a node, every option's loss 0: nothing is
 * dropped), and the states of the table are some 101^4 (each type's
 * nodes used, 0..100, by 4 jobs each) times 17 keep counts, past 2^24.
 * dp refuses it at once (BFS_ERANGE, naming --allocator milp).  Then 8
 * jobs of Jmax 12, O(n) = n (13 - n), on 4 types of 100 nodes, which
 * the dense table of 97^4 states refused before the fixing: each job's
 * best count is 6 or 7 (both 42), the others lose 2 or more, so the
 * fixing leaves those two; 6 by key 3, and the types by key 5, in job
 * order: all 8 jobs on 6 nodes of type 0 (48 of its 100).  dp and milp
 * (default start=yes) give it. */
START_TEST(test_dp_bound)
{
    struct alloc_problem *p = big_problem(16, 30, 4, 100, 1);
    struct allocator *d = make(0), *m = make(1);
    struct alloc_result r;
    struct bfs_error e;
    int n[16], t[16];

    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    bfs_error_clear(&e);
    ck_assert_int_eq(allocator_solve(d, p, &r, &e), BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, "--allocator milp"), "%s", e.msg);
    p = big_problem(8, 12, 4, 100, 0);
    for (int i = 0; i < 2; i++) {
        struct allocator *a = i ? m : d;
        if (!a)
            continue;
        ck_assert_int_eq(allocator_solve(a, p, &r, NULL), 0);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (int j = 0; j < 8; j++)
            ck_assert_msg(n[j] == 6 && t[j] == 0, "%s: job %d: %d on %d",
                          desc(i), j, n[j], t[j]);
        ck_assert(r.objective == 8 * 42);
    }
    allocator_free(d);
    allocator_free(m);
}
END_TEST

/* A limit dp cannot meet: its incumbent, FEASIBLE, feasible, with a
 * bound at least its objective and at most the jobs' best values
 * summed (8 x 12).  8 idle jobs of Jmax 12, O(n) = n, on 2 types of 40
 * nodes: every option's loss is 0 (the price is 1 a node), so nothing
 * is dropped, and the table has up to 41^2 states a job, a fill of some
 * 10^6 steps, far past the first reading of the clock. */
START_TEST(test_dp_time_limit)
{
    struct alloc_problem *p = big_problem(8, 12, 2, 40, 1);
    struct alloc_opts o;
    struct allocator *d;
    struct alloc_result r;
    int n[8], t[8];

    alloc_opts_default(&o);
    o.name = "dp";
    o.time_limit = 1e-9;
    ck_assert_int_eq(allocator_create(&o, &d, NULL), 0);
    memset(&r, 0, sizeof r);
    r.counts = n;
    r.types = t;
    ck_assert_int_eq(allocator_solve(d, p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_FEASIBLE);
    ck_assert(alloc_feasible_t(p, n, t));
    ck_assert(r.objective == alloc_objective_t(p, n, t));
    ck_assert(r.bound >= r.objective && r.bound <= 8 * 12);
    allocator_free(d);
}
END_TEST

/* ---- instance files ------------------------------------------------------ */

/* The hand case written with its type names, read back field by field,
 * written again byte for byte; then solved from the file as from memory. */
START_TEST(test_instance_round_trip)
{
    static const char *const tnames[2] = {"A100", "V\"100\""};
    static const char *const names[3] = {"J0", NULL, "J2"};
    static const double ref[3] = {0, 1.0 / 3, 1e-300};
    const char *path = tu_tmp("typed.json"), *path2 = tu_tmp("typed2.json");
    struct tinst h;
    struct instance in;
    struct bfs_error e;
    char *t1, *t2;

    hand_case(&h);
    h.o[0][0][1] = 1.0 / 7; /* a number that needs 17 digits */
    h.jobs[2].o = ref;      /* an optional reference curve, kept */
    bfs_error_clear(&e);
    ck_assert_msg(
        instance_write_typed(path, &h.p, names, tnames, "typed", &e) == 0, "%s",
        e.msg);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(in.p.n_types, 2);
    ck_assert_int_eq(in.p.pool, 4);
    ck_assert(in.p.pools[0] == 2 && in.p.pools[1] == 2);
    ck_assert_str_eq(in.type_names[0], "A100");
    ck_assert_str_eq(in.type_names[1], "V\"100\"");
    ck_assert_str_eq(in.names[0], "J0");
    ck_assert_ptr_null(in.names[1]);
    for (size_t j = 0; j < 3; j++) {
        const struct alloc_job *a = &in.p.jobs[j], *b = &h.jobs[j];
        ck_assert_int_eq(a->cur, b->cur);
        ck_assert_int_eq(a->jmin, b->jmin);
        ck_assert_int_eq(a->jmax, b->jmax);
        ck_assert(a->tcup == b->tcup && a->tcdw == b->tcdw);
        if (b->cur > 0)
            ck_assert_int_eq(a->ctype, b->ctype);
        ck_assert_ptr_null(a->h);
        ck_assert(!a->o == !b->o);
        for (int t = 0; t < 2; t++) {
            ck_assert(!a->ot[t] == !b->ot[t]);
            for (int n = 0; b->ot[t] && n <= b->jmax; n++)
                ck_assert_msg(a->ot[t][n] == b->ot[t][n],
                              "job %zu type %d count %d: %.17g", j, t, n,
                              a->ot[t][n]);
        }
    }
    ck_assert(in.p.jobs[2].o[1] == 1.0 / 3 && in.p.jobs[2].o[2] == 1e-300);
    ck_assert_msg(instance_write_typed(
                      path2, &in.p, (const char *const *)in.names,
                      (const char *const *)in.type_names, in.note, &e) == 0,
                  "%s", e.msg);
    t1 = tu_slurp(path);
    t2 = tu_slurp(path2);
    ck_assert_str_eq(t1, t2);
    ck_assert(strstr(t1, "\"pools\": [2, 2]"));
    ck_assert(strstr(t1, "null"));
    free(t1);
    free(t2);
    /* solved from the file: the hand case's answer */
    {
        struct allocator *a = make(0);
        struct alloc_result r;
        int n[3], t[3];
        memset(&r, 0, sizeof r);
        r.counts = n;
        r.types = t;
        ck_assert_int_eq(allocator_solve(a, &in.p, &r, NULL), 0);
        ck_assert(n[0] == 2 && t[0] == 1 && n[1] == 2 && t[1] == 0 &&
                  n[2] == 0 && t[2] == -1);
        allocator_free(a);
    }
    instance_release(&in);
    /* without type names: no "types", read back without names */
    ck_assert_int_eq(instance_write(path, &h.p, NULL, NULL, &e), 0);
    t1 = tu_slurp(path);
    ck_assert(!strstr(t1, "\"types\""));
    free(t1);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_ptr_null(in.type_names);
    ck_assert_int_eq(in.p.n_types, 2);
    instance_release(&in);
}
END_TEST

/* Per-type curves, interpolated at every count (by hand: [0,0] [2,9000]
 * gives 4500 at 1; [0,0] [1,1000] [3,4000] gives 1000, 2500, 4000), a
 * null where the job cannot run, ctype defaulting to 0, and "o" left out. */
START_TEST(test_instance_curves)
{
    const char *path = tu_write(
        "curves.json",
        "{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 5,\n"
        " \"tfwd\": 2, \"types\": [\"a\", \"b\"], \"pools\": [2, 3],\n"
        " \"jobs\": [{\"cur\": 2, \"jmin\": 1, \"jmax\": 3, \"tcup\": 1,\n"
        "  \"tcdw\": 1, \"curves\": [[[0, 0], [2, 9000], [3, 9000]],\n"
        "  [[0, 0], [1, 1000], [3, 4000]]]},\n"
        "  {\"cur\": 1, \"ctype\": 1, \"jmin\": 1, \"jmax\": 2, \"tcup\": 0,\n"
        "   \"tcdw\": 0, \"ot\": [null, [0, 5, 6]]}]}\n");
    struct instance in;
    struct bfs_error e;
    const struct alloc_job *jb;

    bfs_error_clear(&e);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    jb = &in.p.jobs[0];
    ck_assert_int_eq(jb->ctype, 0);
    ck_assert_ptr_null(jb->o);
    ck_assert(jb->ot[0][1] == 4500 && jb->ot[0][2] == 9000 &&
              jb->ot[0][3] == 9000);
    ck_assert(jb->ot[1][1] == 1000 && jb->ot[1][2] == 2500 &&
              jb->ot[1][3] == 4000);
    jb = &in.p.jobs[1];
    ck_assert_ptr_null(jb->ot[0]);
    ck_assert(jb->ot[1][2] == 6);
    ck_assert_int_eq(jb->ctype, 1);
    instance_release(&in);
}
END_TEST

#define TOP "{\"format\": \"bfsim-instance\", \"version\": 1, \"tfwd\": 1, "
#define JOB "\"jmin\": 1, \"jmax\": 2, \"tcup\": 0, \"tcdw\": 0"

static const struct {
    const char *text, *want;
} bad_files[] = {
    {TOP "\"pool\": 2, \"jobs\": [{\"cur\": 0, " JOB
         ", \"o\": [0, 1, 2], \"ot\": [[0, 1, 2], null]}]}",
     "\"ot\" needs node types (\"pools\" at the top)"},
    {TOP "\"pool\": 2, \"jobs\": [{\"cur\": 0, \"ctype\": 0, " JOB
         ", \"o\": [0, 1, 2]}]}",
     "\"ctype\" needs node types"},
    {TOP "\"pool\": 2, \"types\": [\"a\", \"b\"], \"jobs\": []}",
     "\"types\" needs \"pools\""},
    {TOP "\"pool\": 2, \"pools\": [2], \"jobs\": []}",
     "\"pools\" must be an array of 2 to 64 integers"},
    {TOP "\"pool\": 4, \"pools\": [2, 1], \"jobs\": []}",
     "the \"pools\" sum to 3 nodes, not to \"pool\" 4"},
    {TOP "\"pool\": 3, \"pools\": [2, -1], \"jobs\": []}",
     "pools[1] is not an integer in 0..1000000"},
    {TOP "\"pool\": 3, \"types\": [\"a\", \"a\"], \"pools\": [2, 1], "
         "\"jobs\": []}",
     "types[0] and types[1] are both \"a\""},
    {TOP "\"pool\": 3, \"types\": [\"a\"], \"pools\": [2, 1], \"jobs\": []}",
     "\"types\" must be an array of 2 names"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"ot\": [[0, 1, 2]]}]}",
     "\"ot\" must be an array of 2 entries"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"ot\": [[0, 1], null]}]}",
     "\"ot[0]\" must be an array of jmax + 1 = 3 numbers"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"ot\": [null, [1, 1, 2]]}]}",
     "ot[1][0] is 1, not 0"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"o\": [0, 1, 2]}]}",
     "with node types, give exactly one of \"ot\" and \"curves\""},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"ot\": [null, null], \"curves\": [null, null]}]}",
     "with node types, give exactly one of \"ot\" and \"curves\""},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"curves\": [[[0, 0], [1, 1]], null]}]}",
     "the curves[0] ends at N = 1 < jmax 2"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 1, "
         "\"ctype\": 2, " JOB ", \"ot\": [null, null]}]}",
     "\"ctype\" 2 is out of range 0..1"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 1, "
         "\"ctype\": 1, " JOB ", \"ot\": [[0, 1, 2], null]}]}",
     "job 0: holds 1 nodes of type 1, a type it cannot run on"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 2, "
         "\"ctype\": 1, " JOB ", \"ot\": [null, [0, 1, 2]]}]}",
     "the jobs hold 2 nodes of type 1 but its pool has 1"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [{\"cur\": 0, " JOB
         ", \"ot\": [null, [0, 1, 2]], \"h\": [0, 1, 1]}]}",
     "\"h\" (a horizon per count, --hints) is not taken with node types"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"cap\": 1, \"jobs\": []}",
     "cap 1 with node types"},
    {TOP "\"pool\": 3, \"pools\": [2, 1], \"jobs\": [], \"owner\": [-1, -1, "
         "-1]}",
     "a node map (owner) with node types"},
};

START_TEST(test_instance_errors)
{
    const char *path = tu_write("badtyped.json", bad_files[_i].text);
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_ne(instance_read(path, &in, &e), 0);
    ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0,
                  "message does not name the file: %s", e.msg);
    ck_assert_msg(strstr(e.msg, bad_files[_i].want),
                  "case %d: '%s' not in '%s'", _i, bad_files[_i].want, e.msg);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("types");
    TCase *tc = tcase_create("types");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_hand, 0, N_EXACT + 1);
    tcase_add_loop_test(tc, test_key5_after_key4, 0, N_EXACT + 1);
    tcase_add_loop_test(tc, test_keys_2_and_5, 0, N_EXACT);
    tcase_add_loop_test(tc, test_random, 0, N_EXACT);
    /* the count model only: its certificates are what these test (the
     * node model's stage 1 agrees, but its CBC and GLPK runs cost some
     * 4 s of CI's valgrind time) */
    tcase_add_loop_test(tc, test_large_vs_dp, 0, FIRST_NODE - 1);
    tcase_add_test(tc, test_values);
    tcase_add_test(tc, test_one_type_same);
    tcase_add_test(tc, test_check);
    tcase_add_loop_test(tc, test_order, 0, N_EXACT);
    tcase_add_loop_test(tc, test_node_map, FIRST_NODE, N_EXACT);
    tcase_add_test(tc, test_fixing);
    tcase_add_test(tc, test_fixing_hulls);
    tcase_add_test(tc, test_greedy_prefix);
    tcase_add_test(tc, test_values_run);
    tcase_add_test(tc, test_medium);
    tcase_add_test(tc, test_dp_bound);
    tcase_add_test(tc, test_dp_time_limit);
    tcase_add_test(tc, test_dp_memo);
    tcase_add_test(tc, test_instance_round_trip);
    tcase_add_test(tc, test_instance_curves);
    tcase_add_loop_test(tc, test_instance_errors, 0,
                        sizeof bad_files / sizeof *bad_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
