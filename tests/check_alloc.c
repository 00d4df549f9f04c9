/* check_alloc.c - every exact allocator against brute force.
 *
 * The brute force here is independent of the allocators: it enumerates
 * every count vector (n_j = 0 or Jmin..Jmax, sum <= N, |n_j - C_j| <=
 * cap under a cap), evaluates each with alloc_objective, and applies the
 * tie-break rule of alloc.h written out again: the vectors within the tie
 * tolerance of the best objective, then the most jobs at their current
 * count, the fewest nodes, the lexicographically largest in job order.
 *
 * Loop tests run over the exact methods compiled in: dp, then milp with
 * the count model and the node model on every backend.  Random instances
 * are seeded and cover non-concave and non-monotone curves, plateaus and
 * identical jobs (real ties), Jmin > 1, jobs holding fewer than Jmin
 * nodes, empty pools, no job, a single job, Tfwd from 1 to 10,000, and
 * the published replayer's cap.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/objective.h"
#include "solver/solver.h"
#include "testalloc.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXJ 8
#define MAXN 12

/* ---- the methods under test ------------------------------------------ */

static int is_node(int i)
{
    return strcmp(methods[i].model, "node") == 0;
}

/* ---- random instances -------------------------------------------------- */

struct inst {
    struct alloc_problem p;
    struct alloc_job jobs[MAXJ];
    double o[MAXJ][MAXN + 3];
    int owner[MAXN];
};

static double rnd01(void)
{
    return rnd(1u << 30) / (double)(1u << 30);
}

static void fix_pointers(struct inst *in)
{
    in->p.jobs = in->jobs;
    for (int j = 0; j < MAXJ; j++)
        in->jobs[j].o = in->o[j];
}

/* A random instance with at most maxj jobs on at most maxn nodes. */
static void gen(struct inst *in, unsigned seed, int maxj, int maxn, int cap)
{
    int used = 0, kind;
    static const double tfwd[] = {1, 7, 60, 600, 3600, 10000};

    memset(in, 0, sizeof *in);
    rng = 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed * 0x2545F491u);
    for (int i = 0; i < 8; i++)
        rnd(2);
    in->p.pool = rnd(8) == 0 ? 0 : (int)rnd((unsigned)maxn + 1);
    in->p.n_jobs = rnd(10) == 0 ? (size_t)rnd(2) : 1 + rnd((unsigned)maxj);
    in->p.tfwd = rnd(2) ? tfwd[rnd(6)] : 1 + rnd01() * 9999;
    in->p.cap = cap ? (in->p.pool + 1) / 2 : 0;
    kind = (int)rnd(5);
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        struct alloc_job *jb = &in->jobs[j];
        double *o = in->o[j];
        int room = in->p.pool - used;
        jb->jmax = 1 + (int)rnd((unsigned)maxn + 2);
        jb->jmin = rnd(3) ? 1 : 1 + (int)rnd((unsigned)jb->jmax);
        jb->cur = rnd(3) == 0 ? 0 : (int)rnd((unsigned)jb->jmax + 1);
        if (jb->cur > room)
            jb->cur = room;
        used += jb->cur;
        jb->tcup = rnd(4) ? rnd(30) : rnd01() * 30;
        jb->tcdw = rnd(4) ? rnd(20) : rnd01() * 20;
        if (j > 0 && rnd(3) == 0) { /* identical to the previous job */
            jb->jmin = in->jobs[j - 1].jmin;
            jb->jmax = in->jobs[j - 1].jmax;
            jb->tcup = in->jobs[j - 1].tcup;
            jb->tcdw = in->jobs[j - 1].tcdw;
            if (jb->cur > jb->jmax)
                jb->cur = jb->jmax;
            if (rnd(2) && in->jobs[j - 1].cur <= room) {
                /* interchangeable: the same current count too */
                used += in->jobs[j - 1].cur - jb->cur;
                jb->cur = in->jobs[j - 1].cur;
            }
            memcpy(o, in->o[j - 1], sizeof in->o[j]);
            continue;
        }
        o[0] = 0;
        for (int n = 1; n <= jb->jmax; n++)
            switch (kind) {
            case 0: /* small integers: plateaus and many ties */
                o[n] = o[n - 1] + rnd(3);
                break;
            case 1: /* non-monotone reals */
                o[n] = rnd01() * 100;
                break;
            case 2: /* concave-ish throughput in the thousands */
                o[n] = o[n - 1] + 2831.0 / (1 + 0.1 * n) + rnd(50);
                break;
            case 3: /* speed-ups, with a dip */
                o[n] = n == 1 ? 1 : o[n - 1] + (rnd(4) ? 0.9 : -0.3);
                break;
            default: /* integer-valued, convex then flat */
                o[n] = n < 4 ? n * n : o[n - 1];
                break;
            }
    }
    /* a scattered current map for the node model */
    {
        int q = 0, perm[MAXN];
        for (int i = 0; i < in->p.pool; i++) {
            perm[i] = i;
            in->owner[i] = -1;
        }
        for (int i = in->p.pool - 1; i > 0; i--) {
            int k = (int)rnd((unsigned)i + 1), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        for (size_t j = 0; j < in->p.n_jobs; j++)
            for (int k = 0; k < in->jobs[j].cur; k++)
                in->owner[perm[q++]] = (int)j;
        in->p.owner = rnd(2) ? in->owner : NULL;
    }
    fix_pointers(in);
}

/* ---- brute force --------------------------------------------------------- */

struct bf {
    const struct alloc_problem *p;
    int n[MAXJ], best[MAXJ];
    double zmax, thr;
    int pass, have;
    long count;
};

static int bf_ok(const struct alloc_problem *p, size_t j, int n)
{
    const struct alloc_job *jb = &p->jobs[j];
    if (n != 0 && (n < jb->jmin || n > jb->jmax))
        return 0;
    return p->cap == 0 || abs(n - jb->cur) <= p->cap;
}

/* 1 if a is preferred to b (both feasible, both in the tie set) */
static int bf_better(const struct alloc_problem *p, const int *a, const int *b)
{
    int ka = 0, kb = 0, sa = 0, sb = 0;
    for (size_t j = 0; j < p->n_jobs; j++) {
        ka += a[j] == p->jobs[j].cur;
        kb += b[j] == p->jobs[j].cur;
        sa += a[j];
        sb += b[j];
    }
    if (ka != kb)
        return ka > kb;
    if (sa != sb)
        return sa < sb;
    for (size_t j = 0; j < p->n_jobs; j++)
        if (a[j] != b[j])
            return a[j] > b[j];
    return 0;
}

static void bf_rec(struct bf *b, size_t j, int left)
{
    const struct alloc_problem *p = b->p;

    if (j == p->n_jobs) {
        double z = alloc_objective(p, b->n);
        b->count++;
        if (b->pass == 0) {
            if (z > b->zmax)
                b->zmax = z;
        } else if (z >= b->thr && (!b->have || bf_better(p, b->n, b->best))) {
            memcpy(b->best, b->n, sizeof b->best);
            b->have = 1;
        }
        return;
    }
    for (int n = 0; n <= left && n <= p->jobs[j].jmax; n++)
        if (bf_ok(p, j, n)) {
            b->n[j] = n;
            bf_rec(b, j + 1, left - n);
        }
}

/* The tie tolerance, computed here from its definition in alloc.h. */
static double bf_tol(const struct alloc_problem *p)
{
    double s = 0;
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        double r = jb->cur >= jb->jmin ? jb->o[jb->cur] : 0, big = 0;
        for (int n = 0; n <= jb->jmax && n <= p->pool; n++) {
            double v = p->tfwd * jb->o[n];
            if (!bf_ok(p, j, n))
                continue;
            if (n > jb->cur)
                v -= jb->tcup * r;
            if (n < jb->cur)
                v -= jb->tcdw * r;
            if (fabs(v) > big)
                big = fabs(v);
        }
        s += big;
    }
    return ALLOC_TIE_REL * (s > 1 ? s : 1);
}

/* Returns 1 and the rule's counts in out, or 0 if nothing is feasible. */
static int brute_force(const struct alloc_problem *p, int *out)
{
    struct bf b;

    memset(&b, 0, sizeof b);
    b.p = p;
    b.zmax = -HUGE_VAL;
    bf_rec(&b, 0, p->pool);
    if (b.zmax == -HUGE_VAL)
        return 0;
    b.pass = 1;
    b.thr = b.zmax - bf_tol(p);
    bf_rec(&b, 0, p->pool);
    memcpy(out, b.best, p->n_jobs * sizeof *out);
    return 1;
}

static void describe(const struct alloc_problem *p, char *buf, size_t size)
{
    size_t off =
        (size_t)snprintf(buf, size, "N=%d Tfwd=%g cap=%d owner=%s", p->pool,
                         p->tfwd, p->cap, p->owner ? "map" : "none");
    for (size_t j = 0; j < p->n_jobs && off < size; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        off += (size_t)snprintf(
            buf + off, size - off, " | job%zu cur=%d %d..%d up=%g dw=%g o=", j,
            jb->cur, jb->jmin, jb->jmax, jb->tcup, jb->tcdw);
        for (int n = 0; n <= jb->jmax && off < size; n++)
            off += (size_t)snprintf(buf + off, size - off, "%s%.17g",
                                    n ? "," : "", jb->o[n]);
    }
}

/* Solves p with a and compares with brute force. */
static void check_one(struct allocator *a, int method,
                      const struct alloc_problem *p, unsigned seed)
{
    int want[MAXJ + 1], got[MAXJ + 1];
    struct alloc_result r;
    struct bfs_error e;
    int feasible = brute_force(p, want), rc;
    char desc[4096];

    memset(&r, 0, sizeof r);
    r.counts = got;
    bfs_error_clear(&e);
    rc = allocator_solve(a, p, &r, &e);
    describe(p, desc, sizeof desc);
    ck_assert_msg(rc == 0, "%s seed %u: %s", method_desc(method), seed, e.msg);
    if (!feasible) {
        ck_assert_msg(r.status == SOLVE_INFEASIBLE,
                      "%s seed %u: %s, brute force: infeasible; %s",
                      method_desc(method), seed, solve_status_name(r.status),
                      desc);
        return;
    }
    ck_assert_msg(r.status == SOLVE_OPTIMAL, "%s seed %u: status %s; %s",
                  method_desc(method), seed, solve_status_name(r.status), desc);
    for (size_t j = 0; j < p->n_jobs; j++)
        if (got[j] != want[j]) {
            char g[256] = "", w[256] = "";
            for (size_t k = 0; k < p->n_jobs; k++) {
                snprintf(g + strlen(g), sizeof g - strlen(g), " %d", got[k]);
                snprintf(w + strlen(w), sizeof w - strlen(w), " %d", want[k]);
            }
            ck_abort_msg("%s seed %u: counts%s (objective %.17g), brute "
                         "force%s (objective %.17g); %s",
                         method_desc(method), seed, g, alloc_objective(p, got),
                         w, alloc_objective(p, want), desc);
        }
    ck_assert_msg(r.objective == alloc_objective(p, want),
                  "%s seed %u: objective %.17g", method_desc(method), seed,
                  r.objective);
    ck_assert(r.bound >= r.objective);
}

/* Instances per method: the node model is the slow one.  BFSIM_SOAK=K
 * runs K times as many (and with K > 1 a longer timeout is needed:
 * CK_DEFAULT_TIMEOUT is overridden by tcase_set_timeout, so use
 * CK_TIMEOUT_MULTIPLIER). */
static int rounds(int method, int base)
{
    const char *soak = getenv("BFSIM_SOAK");
    int k = soak && atoi(soak) > 0 ? atoi(soak) : 1;
    return k * (is_node(method)             ? base / 4
                : methods[method].solver[0] ? base / 2
                                            : base * 2);
}

START_TEST(test_random)
{
    struct allocator *a = method_allocator(_i);
    struct inst in;
    int n = rounds(_i, 200);

    for (int s = 0; s < n; s++) {
        unsigned seed = 1000 + (unsigned)s * 7919u;
        gen(&in, seed, is_node(_i) ? 5 : MAXJ, is_node(_i) ? 8 : MAXN, 0);
        check_one(a, _i, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

START_TEST(test_random_legacy_cap)
{
    struct allocator *a = method_allocator(_i);
    struct inst in;
    int n = rounds(_i, 120);

    for (int s = 0; s < n; s++) {
        unsigned seed = 5000 + (unsigned)s * 7919u;
        gen(&in, seed, is_node(_i) ? 5 : MAXJ, is_node(_i) ? 8 : MAXN, 1);
        check_one(a, _i, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* Instances with large tie sets, eight jobs of 0..6 nodes on 10, in
 * three kinds: curves of plateaus (steps of 0 or 1) with rescale costs of
 * 0 or 1; flat curves with free rescaling (every count from 1 up ties,
 * and so does keeping); linear curves, idle jobs and free rescaling,
 * where job 0 needs 4 nodes (every split of the 10 nodes between two
 * jobs ties).  Jobs keep several counts after the MILP's reduced-cost
 * fixing, and on the flat and linear kinds the lexicographic weights of
 * the tie-break stage exceed what it takes as exact (6^8 (R + 1) and 4 x
 * 7^7 (R + 1) > 2^24, R = 10), so its certificate stage runs on the
 * reduced model.  On the linear kind the hint weights (8 - j per rank)
 * prefer 0, 6, 4 (66) to the rule's 6, 4, 0 (52, job 0's ranks being
 * those of 0, 4, 5, 6), so a certificate round must find the rule's
 * choice. */
START_TEST(test_tie_heavy)
{
    struct allocator *a = method_allocator(_i);
    struct inst in;
    int n = is_node(_i) ? 4 : 24;

    for (int s = 0; s < n; s++) {
        unsigned seed = 9000 + (unsigned)s * 7919u;
        int used = 0;
        memset(&in, 0, sizeof in);
        rng = 0x51ED2701ull ^ ((unsigned long long)seed * 0x2545F491u);
        in.p.pool = 10;
        in.p.n_jobs = is_node(_i) ? 5 : MAXJ;
        in.p.tfwd = 1 + rnd(3);
        for (size_t j = 0; j < in.p.n_jobs; j++) {
            struct alloc_job *jb = &in.jobs[j];
            int kind = s % 3;
            jb->jmin = kind == 2 && j == 0 ? 4 : 1;
            jb->jmax = 6;
            jb->cur = kind == 2 ? 0 : (int)rnd(3);
            if (used + jb->cur > in.p.pool)
                jb->cur = 0;
            used += jb->cur;
            jb->tcup = kind ? 0 : rnd(2);
            jb->tcdw = kind ? 0 : rnd(2);
            for (int k = 1; k <= jb->jmax; k++)
                in.o[j][k] = kind == 0   ? in.o[j][k - 1] + rnd(2)
                             : kind == 1 ? 1
                                         : k;
        }
        fix_pointers(&in);
        check_one(a, _i, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* tools/DESIGN.md: a lone job on 10 idle nodes gets 5 under the published
 * replayer's cap, 10 without it. */
START_TEST(test_lone_job_cap)
{
    static const double o[11] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    struct alloc_job jb = {.cur = 0, .jmin = 1, .jmax = 10, .o = o};
    struct alloc_problem p = {
        .pool = 10, .tfwd = 100, .n_jobs = 1, .jobs = &jb};
    struct allocator *a = method_allocator(_i);
    struct alloc_result r;
    int n;

    memset(&r, 0, sizeof r);
    r.counts = &n;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(n, 10);
    p.cap = (p.pool + 1) / 2;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(n, 5);
    ck_assert_double_eq(r.objective, 500);
    allocator_free(a);
}
END_TEST

/* Under the cap a job holding 4 nodes below its Jmin of 5 can neither
 * stop (4 > cap 2) nor reach 5 (more than the pool of 4). */
START_TEST(test_infeasible_cap)
{
    static const double o[7] = {0, 1, 2, 3, 4, 5, 6};
    struct alloc_job jb = {.cur = 4, .jmin = 5, .jmax = 6, .o = o};
    struct alloc_problem p = {
        .pool = 4, .tfwd = 10, .n_jobs = 1, .jobs = &jb, .cap = 2};
    struct allocator *a = method_allocator(_i);
    struct alloc_result r;
    int n = -7;

    memset(&r, 0, sizeof r);
    r.counts = &n;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_str_eq(solve_status_name(r.status), "infeasible");
    ck_assert_int_eq(n, -7);
    allocator_free(a);
}
END_TEST

/* Hand-made ties: the rule of alloc.h decides. */
START_TEST(test_ties_by_hand)
{
    static const double same[4] = {0, 10, 20, 30};
    static const double flat[5] = {0, 10, 10, 10, 10};
    struct alloc_job jobs[3] = {
        {.cur = 0, .jmin = 1, .jmax = 3, .o = same},
        {.cur = 0, .jmin = 1, .jmax = 3, .o = same},
        {.cur = 0, .jmin = 1, .jmax = 3, .o = same},
    };
    struct alloc_problem p = {.pool = 4, .tfwd = 1, .n_jobs = 3, .jobs = jobs};
    struct allocator *a = method_allocator(_i);
    struct alloc_result r;
    int n[3];

    memset(&r, 0, sizeof r);
    r.counts = n;
    /* identical idle jobs, 4 nodes: every split of 4 ties; the earlier
     * jobs get more: 3, 1, 0 */
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 3);
    ck_assert_int_eq(n[1], 1);
    ck_assert_int_eq(n[2], 0);
    /* job 1 already runs on 2 (free to keep, costs to change): 2 stays,
     * job 0 takes the other 2 */
    jobs[1].cur = 2;
    jobs[1].tcup = jobs[1].tcdw = 0;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 2);
    ck_assert_int_eq(n[1], 2);
    ck_assert_int_eq(n[2], 0);
    /* a flat curve: one node does as well as four; the fewest nodes win */
    p.n_jobs = 1;
    jobs[0].o = flat;
    jobs[0].jmax = 4;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 1);
    /* ... unless the job already holds three: keeping wins */
    jobs[0].cur = 3;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 3);
    allocator_free(a);
}
END_TEST

/* Ten identical ShuffleNet jobs (the published curve) on 64 nodes (four
 * on 24 for the node model) with various current maps: every method
 * agrees with the DP, which brute force checks on the small instances
 * above. */
START_TEST(test_shufflenet)
{
    static const double bpN[] = {0, 1, 2, 4, 8, 16, 32, 64};
    static const double bpO[] = {0,       2831,    5259,    9988,
                                 20379.2, 38895.3, 74125.1, 145081.5};
    static double o[65];
    struct alloc_job jobs[10];
    struct alloc_problem p = {
        .pool = 64, .tfwd = 600, .n_jobs = 10, .jobs = jobs};
    struct allocator *a = method_allocator(_i), *dp;
    struct alloc_opts od;
    struct alloc_result r;
    int n[10], want[10];

    for (int k = 0, i = 0; k <= 64; k++) {
        while (bpN[i + 1] < k)
            i++;
        o[k] = bpO[i] +
               (bpO[i + 1] - bpO[i]) / (bpN[i + 1] - bpN[i]) * (k - bpN[i]);
    }
    alloc_opts_default(&od);
    od.name = "dp";
    ck_assert_int_eq(allocator_create(&od, &dp, NULL), 0);
    memset(&r, 0, sizeof r);
    for (int round = 0; round < (is_node(_i) ? 2 : 6); round++) {
        int used = 0;
        rng = 77 + (unsigned)round;
        /* the node model is slow on many nodes: a smaller pool */
        p.n_jobs = is_node(_i) ? 4 : 10;
        p.pool = is_node(_i) ? 24 : 64;
        p.cap = round % 2 ? (p.pool + 1) / 2 : 0;
        for (int j = 0; j < 10; j++) {
            jobs[j] = (struct alloc_job){.jmin = 1 + (round == 4),
                                         .jmax = 64,
                                         .tcup = 18,
                                         .tcdw = 12,
                                         .o = o};
            jobs[j].cur = (int)rnd(13);
            if (used + jobs[j].cur > p.pool)
                jobs[j].cur = 0;
            used += jobs[j].cur;
        }
        r.counts = want;
        ck_assert_int_eq(allocator_solve(dp, &p, &r, NULL), 0);
        r.counts = n;
        ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
        ck_assert_msg(r.status == SOLVE_OPTIMAL, "%s: %s", method_desc(_i),
                      solve_status_name(r.status));
        for (size_t j = 0; j < p.n_jobs; j++)
            ck_assert_msg(n[j] == want[j], "%s round %d job %zu: %d, dp %d",
                          method_desc(_i), round, j, n[j], want[j]);
    }
    allocator_free(dp);
    allocator_free(a);
}
END_TEST

START_TEST(test_node_map_checked)
{
    static const double o[4] = {0, 1, 2, 3};
    struct alloc_job jobs[2] = {{.cur = 2, .jmin = 1, .jmax = 3, .o = o},
                                {.cur = 1, .jmin = 1, .jmax = 3, .o = o}};
    int owner[4] = {0, 1, -1, -1}; /* job 0 holds 1 node, not 2 */
    struct alloc_problem p = {
        .pool = 4, .tfwd = 1, .n_jobs = 2, .jobs = jobs, .owner = owner};
    struct allocator *a = method_allocator(_i);
    struct alloc_result r;
    struct bfs_error e;
    int n[2];

    memset(&r, 0, sizeof r);
    r.counts = n;
    bfs_error_clear(&e);
    if (!is_node(_i)) { /* count-level methods ignore the map */
        ck_assert_int_eq(allocator_solve(a, &p, &r, &e), 0);
        allocator_free(a);
        return;
    }
    ck_assert_int_eq(allocator_solve(a, &p, &r, &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "job 0 holds 1"), "%s", e.msg);
    owner[3] = 0; /* now consistent, scattered */
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(n[0] + n[1], 4);
    ck_assert(r.rows > 0 && r.cols > 0 && r.nnz > 0);
    allocator_free(a);
}
END_TEST

/* Solves p once with a fresh allocator of options od, into r (counts
 * given); returns the seconds the solve took. */
static double timed_solve(const struct alloc_opts *od,
                          const struct alloc_problem *p, struct alloc_result *r,
                          int *counts)
{
    struct allocator *a;
    double t0;

    ck_assert_int_eq(allocator_create(od, &a, NULL), 0);
    memset(r, 0, sizeof *r);
    r->counts = counts;
    t0 = bfs_now();
    ck_assert_int_eq(allocator_solve(a, p, r, NULL), 0);
    t0 = bfs_now() - t0;
    allocator_free(a);
    return t0;
}

/* A time limit too short for the node model on 10 jobs x 64 nodes: the
 * answer may be optimal, or an incumbent (FEASIBLE, feasible counts, a
 * bound above them), or nothing; never an error, and soon. */
START_TEST(test_time_limit)
{
    static double o[65];
    struct alloc_job jobs[10];
    struct alloc_problem p = {
        .pool = 64, .tfwd = 600, .n_jobs = 10, .jobs = jobs};
    struct alloc_opts od;
    struct alloc_result r;
    int n[10];
    double t;

    for (int k = 1; k <= 64; k++)
        o[k] = o[k - 1] + 2831.0 / (1 + 0.05 * k);
    for (int j = 0; j < 10; j++)
        jobs[j] = (struct alloc_job){.cur = j % 3 * 2,
                                     .jmin = 1,
                                     .jmax = 64,
                                     .tcup = 18,
                                     .tcdw = 12,
                                     .o = o};
    alloc_opts_default(&od);
    od.name = methods[_i].name;
    od.solver = methods[_i].solver[0] ? methods[_i].solver : NULL;
    od.model = methods[_i].model[0] ? methods[_i].model : NULL;
    od.time_limit = 0.2;
    t = timed_solve(&od, &p, &r, n);
    ck_assert_msg(t < 5, "%s: %.2f s", method_desc(_i), t);
    ck_assert_msg(r.status == SOLVE_OPTIMAL || r.status == SOLVE_FEASIBLE ||
                      r.status == SOLVE_NO_SOLUTION,
                  "%s: %s", method_desc(_i), solve_status_name(r.status));
    if (r.status != SOLVE_NO_SOLUTION) {
        ck_assert(alloc_feasible(&p, n));
        ck_assert(r.objective == alloc_objective(&p, n));
        ck_assert(r.bound >= r.objective);
    }
}
END_TEST

/* A solver that crashes in its child process costs one solve: FAILED,
 * return value 0, and the next solve works. */
START_TEST(test_solver_crash)
{
    static const double o[4] = {0, 1, 2, 3};
    struct alloc_job jb = {.cur = 1, .jmin = 1, .jmax = 3, .o = o};
    struct alloc_problem p = {.pool = 3, .tfwd = 10, .n_jobs = 1, .jobs = &jb};
    struct alloc_opts od;
    struct allocator *a;
    struct alloc_result r;
    char spec[64];
    int n;

    if (!methods[_i].solver[0])
        return;
    snprintf(spec, sizeof spec, "%s,isolate=yes", methods[_i].solver);
    alloc_opts_default(&od);
    od.name = "milp";
    od.solver = spec;
    od.model = methods[_i].model;
    od.time_limit = 600.0; /* answers, not the machine's speed */
    ck_assert_int_eq(allocator_create(&od, &a, NULL), 0);
    memset(&r, 0, sizeof r);
    r.counts = &n;
    setenv(SOLVER_TEST_CRASH_ENV, "1", 1);
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_str_eq(solve_status_name(r.status), "failed");
    unsetenv(SOLVER_TEST_CRASH_ENV);
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_str_eq(solve_status_name(r.status), "optimal");
    ck_assert_int_eq(n, 3);
    allocator_free(a);
}
END_TEST

START_TEST(test_options)
{
    struct alloc_opts o;
    struct allocator *a;
    struct bfs_error e;

    alloc_opts_default(&o);
    if (solver_count() > 0) {
        ck_assert_str_eq(o.name, "milp");
        ck_assert_str_eq(o.solver, solver_backend_name(0));
        ck_assert_str_eq(o.model, "count");
    } else
        ck_assert_str_eq(o.name, "dp");
    o.name = "milp";
    o.model = "edge";
    bfs_error_clear(&e);
    ck_assert_int_ne(allocator_create(&o, &a, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "edge"));
    if (solver_count() == 0)
        return;
    o.model = "node";
    o.solver = "nosuch";
    bfs_error_clear(&e);
    ck_assert_int_eq(allocator_create(&o, &a, &e), BFS_EUSAGE);
    for (size_t i = 0; i < solver_count(); i++)
        for (int k = 0; k < 2; k++) {
            const char *opt = k ? "start" : "isolate";
            char spec[64], bad[32];
            snprintf(spec, sizeof spec, "%s,%s=no", solver_backend_name(i),
                     opt);
            o.solver = spec;
            ck_assert_int_eq(allocator_create(&o, &a, NULL), 0);
            allocator_free(a);
            snprintf(bad, sizeof bad, "%s=maybe", opt);
            snprintf(spec, sizeof spec, "%s,%s", solver_backend_name(i), bad);
            bfs_error_clear(&e);
            ck_assert_int_eq(allocator_create(&o, &a, &e), BFS_EUSAGE);
            ck_assert_ptr_nonnull(strstr(e.msg, bad));
        }
}
END_TEST

/* ---- dp's fast paths ----------------------------------------------------
 * dp answers without its table when the pool holds every job's best
 * count and each best beats the job's next best by more than the tie
 * tolerance (the shortcut), works on min(pool, sum of the largest
 * counts) nodes, and gives the last answer back for an instance equal to
 * the last one.  These tests drive each path and its fallback, and brute
 * force judges every answer. */

/* A random instance (5 jobs, counts up to 10) on a pool that holds every
 * job's largest count when big, else on gen()'s pool.  A near tie is
 * planted in one job when tie: its best value copied to another count
 * (a real tie) or nudged there by less than the tolerance. */
static void gen_big(struct inst *in, unsigned seed, int big, int tie)
{
    int sum = 0;

    gen(in, seed, 5, 8, 0);
    in->p.owner = NULL;
    for (size_t j = 0; j < in->p.n_jobs; j++)
        sum += in->jobs[j].jmax;
    if (big)
        in->p.pool = rnd(2) ? sum + (int)rnd(3) : 1000000;
    if (tie && in->p.n_jobs > 0) {
        size_t j = rnd((unsigned)in->p.n_jobs);
        struct alloc_job *jb = &in->jobs[j];
        double *o = in->o[j];
        int b = 1, k = 1 + (int)rnd((unsigned)jb->jmax);
        for (int n = 1; n <= jb->jmax; n++)
            if (o[n] > o[b])
                b = n;
        /* 1e-9 relative: well inside ALLOC_TIE_REL */
        o[k] = rnd(2) ? o[b] : o[b] * (1 - 1e-9);
    }
}

/* The shortcut on instances where the pool holds everything: mostly
 * distinct curves, where it applies, and planted ties, where it must
 * fall back to the table. */
START_TEST(test_dp_shortcut)
{
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 400; s++) {
        unsigned seed = 9000 + (unsigned)s * 7919u;
        gen_big(&in, seed, 1, s % 3 == 0);
        check_one(a, 0, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* By hand.  Job 0 holds 3 nodes at no rescale cost; O(2) = 10 + 1e-9 and
 * O(3) = 10 at Tfwd 1, so count 2 is the best value by 1e-9, far below
 * the tolerance 1e-7 * 10: counts 2 and 3 tie, and the rule keeps 3 (key
 * 2).  A shortcut that ignored the tolerance would answer 2.  Job 1
 * (O = 0, 5, 6, 6.5, cur 0) has its best, 3, alone (by 0.5): with a pool
 * of 100 the pool holds both bests, so only job 0's tie stops the
 * shortcut.  Then O(2) = 11: job 0's best, 2, beats 3 by 1 and the
 * shortcut gives the bests, 2 and 3.  On a pool of 4 the bests (2 + 3)
 * no longer fit: the table decides, 2 + 2 = 11 + 6 = 17 against 3 + 1 =
 * 10 + 5 = 15, 2 + 1 = 16, 1 + 3 = 0 + 6.5 and 0 + 3 = 6.5: counts 2, 2. */
START_TEST(test_dp_shortcut_by_hand)
{
    double o0[4] = {0, 0, 10 + 1e-9, 10};
    static const double o1[4] = {0, 5, 6, 6.5};
    struct alloc_job jobs[2] = {{.cur = 3, .jmin = 1, .jmax = 3, .o = o0},
                                {.cur = 0, .jmin = 1, .jmax = 3, .o = o1}};
    struct alloc_problem p = {
        .pool = 100, .tfwd = 1, .n_jobs = 2, .jobs = jobs};
    struct allocator *a = method_allocator(0);
    struct alloc_result r;
    int n[2];

    memset(&r, 0, sizeof r);
    r.counts = n;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(n[0], 3);
    ck_assert_int_eq(n[1], 3);
    o0[2] = 11;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 2);
    ck_assert_int_eq(n[1], 3);
    ck_assert_double_eq(r.objective, 17.5);
    p.pool = 4;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(n[0], 2);
    ck_assert_int_eq(n[1], 2);
    ck_assert_double_eq(r.objective, 17);
    allocator_free(a);
}
END_TEST

/* The capacity reduction: pools far beyond what the jobs can use (a
 * million nodes), with ties planted so that the table, not the
 * shortcut, answers half of the time.  A table over the whole pool would
 * take 8 MB a row; the answers must be brute force's. */
START_TEST(test_dp_big_pool)
{
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 300; s++) {
        unsigned seed = 13000 + (unsigned)s * 7919u;
        gen_big(&in, seed, 1, s % 2);
        in.p.pool = 1000000;
        check_one(a, 0, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* Reuse of the last answer: every instance is solved twice in a row (the
 * second solve is the reuse), then changed in place, through the same
 * pointers, by one number (which must not be reused), and solved again;
 * brute force judges each answer, infeasible instances (under the cap)
 * included. */
START_TEST(test_dp_reuse)
{
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 300; s++) {
        unsigned seed = 17000 + (unsigned)s * 7919u;
        gen(&in, seed, 6, 10, s % 4 == 0);
        check_one(a, 0, &in.p, seed);
        check_one(a, 0, &in.p, seed);
        if (in.p.n_jobs == 0)
            continue;
        switch (s % 5) {
        case 0: /* one value, one ulp up */
            in.o[0][in.jobs[0].jmax] =
                nextafter(in.o[0][in.jobs[0].jmax], HUGE_VAL) * (1 + 1e-3);
            break;
        case 1:
            in.jobs[in.p.n_jobs - 1].cur = 0;
            break;
        case 2:
            in.p.pool = in.p.pool > 0 ? in.p.pool - 1 : 1;
            break;
        case 3:
            in.jobs[0].tcup += 5;
            break;
        default:
            in.p.tfwd *= 2;
            break;
        }
        check_one(a, 0, &in.p, seed);
        check_one(a, 0, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* A replay's calls: the pool walks up and down a node or two at a
 * time, around every job's Jmax and around the nodes the jobs want,
 * while the jobs stay (dp then hands the last answer back when it came
 * from its shortcut, see same_instance), and now and then a job takes
 * its answer as its current count, or gets back its old one, or Tfwd
 * changes (dp's kept value rows then serve the jobs that did not
 * change, see memo_find); brute force judges every answer. */
START_TEST(test_dp_pool_walk)
{
    static const int step[] = {1, 1, -2, 3, -1, -1, -4, 2, -1, 5};
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 60; s++) {
        unsigned seed = 23000 + (unsigned)s * 7919u;
        int top = 0, sum = 0, got[MAXJ + 1], old0;
        gen(&in, seed, 4, 10, 0);
        for (size_t j = 0; j < in.p.n_jobs; j++) {
            in.jobs[j].o_id = j + 1; /* the tables never change here */
            top = in.jobs[j].jmax > top ? in.jobs[j].jmax : top;
            sum += in.jobs[j].jmax;
        }
        in.p.pool = sum + 2;
        old0 = in.jobs[0].cur;
        for (int k = 0; k < 40; k++) {
            in.p.pool += step[k % 10] * (k < 20 ? -1 : 1);
            if (in.p.pool < (top > 0 ? top - 1 : 0))
                in.p.pool = top > 0 ? top - 1 : 0;
            check_one(a, 0, &in.p, seed);
            if (in.p.n_jobs > 0 && k % 7 == 3) { /* job 0 takes its answer */
                struct alloc_result r;
                struct bfs_error e;
                memset(&r, 0, sizeof r);
                r.counts = got;
                bfs_error_clear(&e);
                ck_assert_int_eq(allocator_solve(a, &in.p, &r, &e), 0);
                if (r.status == SOLVE_OPTIMAL)
                    in.jobs[0].cur = got[0];
                check_one(a, 0, &in.p, seed);
            } else if (in.p.n_jobs > 0 && k % 7 == 5) {
                in.jobs[0].cur = old0; /* back: its kept row again */
                check_one(a, 0, &in.p, seed);
            }
            if (k == 30)
                in.p.tfwd *= 2;
        }
    }
    allocator_free(a);
}
END_TEST

/* allocator_solve's check skips a table it checked at its last call
 * only when the job at that position has the same table pointer, o_id
 * and Jmax: a table given a new id, or moved to another position, or
 * given no id, is checked again, and a non-finite O is refused. */
START_TEST(test_checked_tables)
{
    static const struct {
        unsigned long id0, id1; /* the ids at the second call */
        int swap;               /* the jobs swapped */
    } cases[] = {{1, 3, 0}, {1, 0, 0}, {1, 2, 1}};
    double o[2][5] = {{0, 1, 2, 3, 4}, {0, 2, 3, 4, 5}};

    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct allocator *a = method_allocator(0);
        struct alloc_job jobs[2] = {
            {.cur = 0, .jmin = 1, .jmax = 4, .o = o[0], .o_id = 1},
            {.cur = 0, .jmin = 1, .jmax = 4, .o = o[1], .o_id = 2},
        };
        struct alloc_problem p = {
            .pool = 6, .tfwd = 10, .n_jobs = 2, .jobs = jobs};
        int counts[2];
        struct alloc_result r = {.counts = counts};
        struct bfs_error e;
        bfs_error_clear(&e);
        ck_assert_int_eq(allocator_solve(a, &p, &r, &e), 0);
        o[1][3] = NAN; /* in place: the caller must give a new id */
        jobs[0].o_id = cases[c].id0;
        jobs[1].o_id = cases[c].id1;
        if (cases[c].swap) {
            struct alloc_job t = jobs[0];
            jobs[0] = jobs[1];
            jobs[1] = t;
        }
        ck_assert_int_eq(allocator_solve(a, &p, &r, &e), BFS_EINVAL);
        ck_assert_str_eq(e.msg, cases[c].swap ? "job 0: O(3) not finite"
                                              : "job 1: O(3) not finite");
        o[1][3] = 4;
        allocator_free(a);
    }
}
END_TEST

/* 1,000 and then 5,000 identical idle jobs (Jmax 16, O(n) = n, no cost:
 * an idle job has r = 0) on 64 nodes.  Every vector using all 64 nodes
 * is optimal (z* = 64 Tfwd); the most jobs stay idle when four take 16
 * each, and the earliest get them: 16, 16, 16, 16, 0, ...  dp's
 * tie-break table used to hold (jobs + 1) x 65 x (jobs + 1) entries:
 * 520 MB for 1,000 jobs, 13 GB (an abort) for 5,000.  Its rows now hold
 * only the reachable keep counts, at most 65 each. */
START_TEST(test_dp_many_identical)
{
    static double o[17];
    static struct alloc_job jobs[5000];
    struct alloc_problem p = {.pool = 64, .tfwd = 10, .jobs = jobs};
    struct allocator *a = method_allocator(0);
    struct alloc_result r;
    static int n[5000];

    for (int k = 0; k <= 16; k++)
        o[k] = k;
    for (int j = 0; j < 5000; j++)
        jobs[j] = (struct alloc_job){
            .cur = 0, .jmin = 1, .jmax = 16, .tcup = 18, .tcdw = 12, .o = o};
    memset(&r, 0, sizeof r);
    r.counts = n;
    for (int t = 0; t < 2; t++) {
        p.n_jobs = t ? 5000 : 1000;
        ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
        ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
        for (size_t j = 0; j < p.n_jobs; j++)
            ck_assert_int_eq(n[j], j < 4 ? 16 : 0);
        ck_assert_double_eq(r.objective, 640);
    }
    allocator_free(a);
}
END_TEST

/* Past its memory bound dp refuses the instance with BFS_ERANGE and a
 * message, without allocating: 4,000 idle jobs of up to 8 nodes on
 * 5,000, each worth 10 n on n nodes.  Every count lies on the jobs'
 * hull (one segment of slope 10, which does not fit: 32,000 > 5,000
 * nodes), so reduced-cost fixing drops nothing, every job keeps counts
 * 0..8, and F's row j spans cells 0..min(5000, 8 j): summed over the
 * rows, 4,001 x 5,001 less the triangle of the first 625 rows (625 x
 * 5,000 / 2), 18.4 million cells, past the bound of 2^24 = 16.8
 * million.  Their best counts (8 each) do not fit, so the shortcut does
 * not apply. */
START_TEST(test_dp_memory_bound)
{
    static double o[9];
    static struct alloc_job jobs[4000];
    struct alloc_problem p = {
        .pool = 5000, .tfwd = 10, .n_jobs = 4000, .jobs = jobs};
    struct allocator *a = method_allocator(0);
    struct alloc_result r;
    struct bfs_error e;
    static int n[4000];

    for (int k = 1; k <= 8; k++)
        o[k] = k;
    for (int j = 0; j < 4000; j++)
        jobs[j] = (struct alloc_job){.cur = 0, .jmin = 1, .jmax = 8, .o = o};
    memset(&r, 0, sizeof r);
    r.counts = n;
    bfs_error_clear(&e);
    ck_assert_int_eq(allocator_solve(a, &p, &r, &e), BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, "4000 jobs on 5000 nodes") &&
                      strstr(e.msg, "--max-jobs"),
                  "%s", e.msg);
    /* the same allocator still solves what fits: 2,000 jobs of concave
     * curves on 4,000 nodes, where the pool holds every job's 8 but not
     * 2,000 x 8 */
    for (int k = 1; k <= 8; k++)
        o[k] = o[k - 1] + 10.0 / k;
    p.n_jobs = 2000;
    p.pool = 4000;
    ck_assert_int_eq(allocator_solve(a, &p, &r, &e), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    allocator_free(a);
}
END_TEST

/* The value table holds jobs x (the largest count + 1) entries: one job
 * of Jmax 1,000 among 20,000 of Jmax 1 asks 20,001 x 1,001 = 20.0
 * million, past the bound of 2^24 = 16.8 million, which is refused with
 * a message, not allocated (one job of 10^6 nodes among 7,000 of 1,000
 * asked 56 GB and aborted); the same allocator then solves what fits. */
START_TEST(test_dp_value_table_bound)
{
    enum { NJ = 20001 };
    static double o1[2] = {0, 1}, o2[1001];
    static struct alloc_job jobs[NJ];
    static int n[NJ];
    struct alloc_problem p = {
        .pool = 5000, .tfwd = 10, .n_jobs = NJ, .jobs = jobs};
    struct allocator *a = method_allocator(0);
    struct alloc_result r;
    struct bfs_error e;

    for (int k = 1; k <= 1000; k++)
        o2[k] = k;
    for (int j = 0; j < NJ; j++)
        jobs[j] = (struct alloc_job){
            .jmin = 1, .jmax = j ? 1 : 1000, .o = j ? o1 : o2};
    memset(&r, 0, sizeof r);
    r.counts = n;
    bfs_error_clear(&e);
    ck_assert_int_eq(allocator_solve(a, &p, &r, &e), BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, "20001 jobs with counts up to 1000 need a "
                                "value table") &&
                      strstr(e.msg, "--max-jobs"),
                  "%s", e.msg);
    p.n_jobs = 2; /* 2 x 1,001 entries: job 0 takes 1,000, job 1 one */
    ck_assert_int_eq(allocator_solve(a, &p, &r, &e), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(n[0], 1000);
    ck_assert_int_eq(n[1], 1);
    allocator_free(a);
}
END_TEST

/* A tiny time limit on big random instances (300 jobs of up to 64
 * nodes, increasing curves, on 1,500 nodes: the best counts never fit,
 * so the table is needed).  dp stops at its first look at the clock and
 * returns the start of its greedy incumbent as FEASIBLE: every job at its
 * current count, or at 0 when it holds fewer nodes than its Jmin (its
 * count is then not admissible; decided here from the definition).  The
 * bound must be at least the optimum, which dp without a limit finds. */
START_TEST(test_dp_time_limit)
{
    enum { NJ = 300 };
    static double o[NJ][65];
    static struct alloc_job jobs[NJ];
    static int n[NJ], opt[NJ];
    struct alloc_problem p = {.pool = 1500, .n_jobs = NJ, .jobs = jobs};
    struct alloc_opts od;
    struct allocator *fast, *full = method_allocator(0);
    struct alloc_result r, ro;

    alloc_opts_default(&od);
    od.name = "dp";
    od.time_limit = 1e-9;
    ck_assert_int_eq(allocator_create(&od, &fast, NULL), 0);
    for (int s = 0; s < 6; s++) {
        int used = 0;
        rng = 0x51ED27u + (unsigned)s * 7919u;
        p.tfwd = 1 + rnd(600);
        for (int j = 0; j < NJ; j++) {
            struct alloc_job *jb = &jobs[j];
            jb->jmax = 8 + (int)rnd(57);
            jb->jmin = rnd(3) ? 1 : 1 + (int)rnd(8);
            jb->cur = rnd(2) ? 0 : (int)rnd((unsigned)jb->jmax + 1);
            if (s % 2 == 0 && jb->cur > 0 && jb->cur < jb->jmin)
                jb->cur = jb->jmin; /* even rounds: every cur admissible */
            if (used + jb->cur > p.pool)
                jb->cur = 0;
            used += jb->cur;
            jb->tcup = rnd(30);
            jb->tcdw = rnd(20);
            o[j][0] = 0;
            for (int k = 1; k <= jb->jmax; k++)
                o[j][k] = o[j][k - 1] + 100 + rnd(1000);
            jb->o = o[j];
        }
        memset(&r, 0, sizeof r);
        r.counts = n;
        ck_assert_int_eq(allocator_solve(fast, &p, &r, NULL), 0);
        memset(&ro, 0, sizeof ro);
        ro.counts = opt;
        ck_assert_int_eq(allocator_solve(full, &p, &ro, NULL), 0);
        ck_assert_int_eq(ro.status, SOLVE_OPTIMAL);
        ck_assert_msg(r.status == SOLVE_FEASIBLE, "round %d: %s", s,
                      solve_status_name(r.status));
        for (int j = 0; j < NJ; j++)
            ck_assert_int_eq(n[j],
                             jobs[j].cur >= jobs[j].jmin ? jobs[j].cur : 0);
        ck_assert(r.objective == alloc_objective(&p, n));
        ck_assert(r.bound >= ro.objective);
        ck_assert(ro.objective >= r.objective);
    }
    allocator_free(fast);
    allocator_free(full);
}
END_TEST

/* dp's clock where one row of its tables takes seconds: 3 jobs, each
 * O(n) = n on 0..20,000 nodes (every count admissible, so the rows span
 * the whole pool: the second alone is 4 x 10^8 cells), none holding
 * nodes, on a pool of 20,000, under a 0.2 s limit.  Every split of the
 * pool ties, so nothing is pruned and the tie-break table is needed too.
 * dp once read its clock between rows and, past the limit, answered
 * every job at its current count: nothing allocated.  It must now stop
 * within 10 x the limit + 2 s (slack for valgrind and ASan), FEASIBLE,
 * with counts that are feasible by the definition (0 or Jmin..Jmax,
 * summing to at most the pool) and use nodes, and an objective equal to
 * the one recomputed here: sum_j Tfwd O_j(n_j), with no rescale cost as
 * no job held nodes (r_j = 0).  Every allocation of the whole pool has
 * the optimum, Tfwd x 20,000, which each incumbent dp keeps reaches. */
START_TEST(test_dp_time_limit_large)
{
    enum { NJ = 3, N = 20000 };
    static double o[N + 1];
    struct alloc_job jobs[NJ];
    struct alloc_problem p = {
        .pool = N, .tfwd = 10, .n_jobs = NJ, .jobs = jobs};
    struct alloc_opts od;
    struct alloc_result r;
    int n[NJ];
    long used = 0;
    double t, z = 0;

    for (int k = 0; k <= N; k++)
        o[k] = k;
    for (int j = 0; j < NJ; j++)
        jobs[j] = (struct alloc_job){
            .cur = 0, .jmin = 1, .jmax = N, .tcup = 18, .tcdw = 12, .o = o};
    alloc_opts_default(&od);
    od.name = "dp";
    od.time_limit = 0.2;
    t = timed_solve(&od, &p, &r, n);
    ck_assert_msg(t < 10 * od.time_limit + 2, "%.3f s", t);
    ck_assert_msg(r.status == SOLVE_FEASIBLE, "%s after %.3f s",
                  solve_status_name(r.status), t);
    for (int j = 0; j < NJ; j++) {
        ck_assert(n[j] == 0 || (n[j] >= 1 && n[j] <= N));
        used += n[j];
        z += p.tfwd * o[n[j]];
    }
    ck_assert_int_le(used, N);
    ck_assert_int_gt(used, 0);
    ck_assert_double_eq(r.objective, z);
    ck_assert_double_eq(z, 10.0 * N);
    ck_assert(r.bound >= r.objective);
}
END_TEST

/* Reuse of table rows across calls: an instance solved, then changed in
 * one job (a value of its curve, its costs or its current count; never
 * its bounds or the pool, so that the node budget stays the same and the
 * rows before and after that job are reused) and solved again, four
 * times over, on a pool of half the jobs' summed Jmax so that the table,
 * not the shortcut, answers.  Brute force judges every answer. */
START_TEST(test_dp_rows_reused)
{
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 300; s++) {
        unsigned seed = 21000 + (unsigned)s * 7919u;
        int sum = 0;
        gen(&in, seed, 6, 10, 0);
        in.p.owner = NULL;
        for (size_t j = 0; j < in.p.n_jobs; j++)
            sum += in.jobs[j].jmax;
        in.p.pool = sum / 2 > 0 ? sum / 2 : 1;
        check_one(a, 0, &in.p, seed);
        for (int step = 0; step < 4 && in.p.n_jobs > 0; step++) {
            size_t j = rnd((unsigned)in.p.n_jobs);
            struct alloc_job *jb = &in.jobs[j];
            switch (rnd(3)) {
            case 0:
                in.o[j][1 + rnd((unsigned)jb->jmax)] += 1 + rnd(100);
                break;
            case 1:
                jb->tcup = rnd(30);
                jb->tcdw = rnd(20);
                break;
            default:
                jb->cur = 0; /* frees nodes: the sum stays within the pool */
                break;
            }
            check_one(a, 0, &in.p, seed + (unsigned)step + 1);
        }
    }
    allocator_free(a);
}
END_TEST

/* Reduced-cost fixing on instances like the Summit replays: every job
 * runs one ShuffleNet-like curve, linear between counts 1, 2, 4 and 8
 * and then flat (so multisets of counts tie: 4 + 8 against 6 + 6), with
 * the replay's costs (Tcup 18 s, Tcdw 12 s, Tfwd 10 s) and random
 * current counts, some jobs with Jmin 2 or holding fewer nodes than it;
 * the pool is random.  dp drops the counts of high reduced cost before
 * its tables; brute force, which sees every count, judges the answer. */
START_TEST(test_dp_pruned)
{
    static const double knot[] = {0,       2831,    5259,    7623.5, 9988,
                                  12585.8, 15183.6, 17781.4, 20379.2};
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 400; s++) {
        unsigned seed = 31000 + (unsigned)s * 7919u;
        gen(&in, seed, MAXJ, MAXN, 0);
        in.p.tfwd = 10;
        for (size_t j = 0; j < in.p.n_jobs; j++) {
            struct alloc_job *jb = &in.jobs[j];
            jb->tcup = 18;
            jb->tcdw = 12;
            for (int n = 0; n <= jb->jmax; n++)
                in.o[j][n] = knot[n < 8 ? n : 8];
        }
        check_one(a, 0, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* Runs of identical jobs (dp's rows(): consecutive jobs of one type with
 * two admissible counts left after pruning share one row, whose choice
 * is how many take the larger count, given to the first of the run).
 * Seeded instances of 7 jobs drawn from 2 or 3 kinds, in runs, some
 * kinds with Jmin = Jmax (counts 0 and Jmax), some holding their Jmax,
 * flat or linear curves (many ties), on up to 9 nodes; among them runs
 * broken by another kind, and jobs pruning fixes between copies.  Brute
 * force, which sees every job on its own, judges every answer,
 * including which of the identical jobs get nodes (key 4). */
START_TEST(test_dp_runs)
{
    struct allocator *a = method_allocator(0);
    struct inst in;

    for (int s = 0; s < 60; s++) {
        unsigned seed = 47000 + (unsigned)s * 7919u;
        int nk = 2 + (int)rnd(2), used = 0, kind = 0;
        struct alloc_job k[3];
        double ko[3][MAXN + 3];
        memset(&in, 0, sizeof in);
        memset(k, 0, sizeof k);
        rng = 0xC0FFEE11ull ^ ((unsigned long long)seed * 0x2545F491u);
        in.p.pool = 2 + (int)rnd(8);
        in.p.tfwd = 1 + rnd(3);
        in.p.n_jobs = 7;
        for (int t = 0; t < nk; t++) {
            k[t].jmax = 1 + (int)rnd(3);
            k[t].jmin = rnd(2) ? k[t].jmax : 1;
            k[t].cur = rnd(3) == 0 ? k[t].jmax : 0;
            k[t].tcup = rnd(3);
            k[t].tcdw = rnd(2);
            ko[t][0] = 0;
            for (int n = 1; n <= k[t].jmax; n++)
                ko[t][n] = rnd(2) ? n * (1 + (double)rnd(3)) : ko[t][n - 1] + 1;
        }
        for (size_t j = 0; j < in.p.n_jobs; j++) {
            if (rnd(3) == 0) /* a new run */
                kind = (int)rnd((unsigned)nk);
            in.jobs[j] = k[kind];
            if (used + in.jobs[j].cur > in.p.pool)
                in.jobs[j].cur = 0; /* another kind, then */
            used += in.jobs[j].cur;
            memcpy(in.o[j], ko[kind], sizeof ko[kind]);
        }
        fix_pointers(&in);
        check_one(a, 0, &in.p, seed);
    }
    allocator_free(a);
}
END_TEST

/* ---- the MILP's start from dp ---------------------------------------- */

/* A time limit hit before any search (SOLVER_TEST_CRASH_ENV=timeout, as
 * in solver.h) leaves the solver its start as the incumbent: the count
 * model on CBC and on GLPK starts from dp's optimum, so the answer is
 * "feasible" with exactly the brute force's counts (dp's optimum is the
 * rule's choice); without a start (start=no) "no-solution".
 * An instance with nothing feasible is "infeasible" (no admissible count
 * for some job, decided before any solve) or "no-solution" (dp proves it
 * infeasible, so there is no start). */
START_TEST(test_count_start_timeout)
{
    static const char *const spec[] = {"cbc", "cbc,start=no", "glpk",
                                       "glpk,start=no"};
    const char *solver = spec[_i];
    int started = _i % 2 == 0;
    struct alloc_opts od;
    struct allocator *a;
    struct inst in;

    if (!solver_find(_i >= 2 ? "glpk" : "cbc"))
        return;
    alloc_opts_default(&od);
    od.name = "milp";
    od.solver = solver;
    od.model = "count";
    od.time_limit = 600.0; /* answers, not the machine's speed */
    ck_assert_int_eq(allocator_create(&od, &a, NULL), 0);
    for (int s = 0; s < 60; s++) {
        unsigned seed = 7 + (unsigned)s * 104729u;
        int want[MAXJ + 1], got[MAXJ + 1], feasible;
        struct alloc_result r;
        gen(&in, seed, MAXJ, MAXN, 0);
        feasible = brute_force(&in.p, want);
        memset(&r, 0, sizeof r);
        r.counts = got;
        setenv(SOLVER_TEST_CRASH_ENV, "timeout", 1);
        ck_assert_int_eq(allocator_solve(a, &in.p, &r, NULL), 0);
        unsetenv(SOLVER_TEST_CRASH_ENV);
        if (!feasible) {
            ck_assert_msg(
                r.status == SOLVE_INFEASIBLE || r.status == SOLVE_NO_SOLUTION,
                "%s seed %u: %s", solver, seed, solve_status_name(r.status));
            continue;
        }
        if (!started || in.p.n_jobs == 0) {
            /* no job: a model without columns, decided without a solver */
            ck_assert_msg(
                r.status == (in.p.n_jobs ? SOLVE_NO_SOLUTION : SOLVE_OPTIMAL),
                "%s seed %u: %s", solver, seed, solve_status_name(r.status));
            continue;
        }
        ck_assert_msg(r.status == SOLVE_FEASIBLE, "%s seed %u: %s", solver,
                      seed, solve_status_name(r.status));
        for (size_t j = 0; j < in.p.n_jobs; j++)
            ck_assert_msg(got[j] == want[j],
                          "%s seed %u: job %zu: %d, brute "
                          "force %d",
                          solver, seed, j, got[j], want[j]);
        ck_assert(r.objective == alloc_objective(&in.p, want));
        ck_assert(r.bound >= r.objective);
    }
    allocator_free(a);
}
END_TEST

/* ---- the aggregated count model (alloc/milp_agg.c) ------------------------
 */

/* A random instance of 5..8 jobs drawn from two or three templates in a
 * random order (the classes' members interleave), on 4..12 nodes: curves
 * of plateaus, flat or linear (large tie sets, so key 4 decides), rescale
 * costs of 0 or 1, and each job at its template's current count or, one
 * time in four, another (a class of its own). */
static void gen_repeated(struct inst *in, unsigned seed)
{
    struct alloc_job tj[3];
    double to[3][MAXN + 3];
    int nt = 2 + (int)rnd(2), used = 0;

    memset(in, 0, sizeof *in);
    memset(to, 0, sizeof to);
    rng = 0xA66E6A7Eull ^ ((unsigned long long)seed * 0x2545F491u);
    for (int i = 0; i < 8; i++)
        rnd(2);
    in->p.pool = 4 + (int)rnd(MAXN - 3);
    in->p.n_jobs = 5 + rnd(4);
    in->p.tfwd = 1 + rnd(3);
    for (int t = 0; t < nt; t++) {
        int kind = (int)rnd(3);
        tj[t] = (struct alloc_job){.jmax = 2 + (int)rnd(5)};
        tj[t].jmin = rnd(3) ? 1 : 2;
        tj[t].cur = (int)rnd((unsigned)tj[t].jmax + 1);
        tj[t].tcup = rnd(2);
        tj[t].tcdw = rnd(2);
        for (int n = 1; n <= tj[t].jmax; n++)
            to[t][n] = kind == 0 ? to[t][n - 1] + rnd(2) : kind == 1 ? 1 : n;
    }
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        int t = (int)rnd((unsigned)nt);
        in->jobs[j] = tj[t];
        if (rnd(4) == 0)
            in->jobs[j].cur = (int)rnd((unsigned)tj[t].jmax + 1);
        if (in->jobs[j].cur > in->p.pool - used)
            in->jobs[j].cur = 0;
        used += in->jobs[j].cur;
        memcpy(in->o[j], to[t], sizeof in->o[j]);
    }
    fix_pointers(in);
}

/* The milp allocator on the count model with solver option string spec. */
static struct allocator *agg_allocator(const char *spec)
{
    struct alloc_opts o;
    struct allocator *a = NULL;
    struct bfs_error e;

    alloc_opts_default(&o);
    o.name = "milp";
    o.solver = spec;
    o.time_limit = 600.0;
    bfs_error_clear(&e);
    ck_assert_msg(allocator_create(&o, &a, &e) == 0, "%s: %s", spec, e.msg);
    return a;
}

/* On every backend: the aggregated model (aggregate=yes, with and
 * without dp's start) and the per-job model (aggregate=no) give brute
 * force's counts, status and objective on instances of repeated jobs
 * (gen_repeated), where the hand-back and the certificates over classes
 * decide key 4. */
START_TEST(test_aggregate)
{
    static const char *opt[] = {",aggregate=yes", ",aggregate=yes,start=no",
                                ",aggregate=no"};
    const char *be = solver_backend_name((size_t)_i);
    struct allocator *a[3];
    struct inst in;
    char spec[64];

    for (int v = 0; v < 3; v++) {
        snprintf(spec, sizeof spec, "%s%s", be, opt[v]);
        a[v] = agg_allocator(spec);
    }
    for (int s = 0; s < 16; s++) {
        unsigned seed = 31000 + (unsigned)s * 7919u;
        int want[MAXJ + 1], got[MAXJ + 1], feasible;
        gen_repeated(&in, seed);
        feasible = brute_force(&in.p, want);
        for (int v = 0; v < 3; v++) {
            struct alloc_result r;
            struct bfs_error e;
            memset(&r, 0, sizeof r);
            r.counts = got;
            bfs_error_clear(&e);
            ck_assert_msg(allocator_solve(a[v], &in.p, &r, &e) == 0,
                          "%s%s seed %u: %s", be, opt[v], seed, e.msg);
            ck_assert_msg(feasible ? r.status == SOLVE_OPTIMAL
                                   : r.status == SOLVE_INFEASIBLE,
                          "%s%s seed %u: status %s", be, opt[v], seed,
                          solve_status_name(r.status));
            for (size_t j = 0; feasible && j < in.p.n_jobs; j++)
                ck_assert_msg(got[j] == want[j],
                              "%s%s seed %u: job %zu gets %d, brute force %d",
                              be, opt[v], seed, j, got[j], want[j]);
            if (feasible)
                ck_assert(r.objective == alloc_objective(&in.p, want));
        }
    }
    for (int v = 0; v < 3; v++)
        allocator_free(a[v]);
}
END_TEST

/* 300 jobs of three kinds, in turn (job j of kind j mod 3), on 40 nodes,
 * none holding nodes, each worth 10 n (kind 0, up to 8 nodes), 5 n (kind
 * 1, up to 4) or 1 per node up to 2 then flat (kind 2), with rescale
 * costs of 0: the best uses all 40 nodes on kind 0 (5 jobs of 8), and
 * every split of them over kind 0's 100 jobs in counts of 1..8 ties;
 * key 2 (all keep 0 but five) is the same for every split into five
 * jobs, key 3 the same, and key 4 gives the earliest kind-0 jobs 8 each:
 * jobs 0, 3, 6, 9 and 12 get 8, all others 0.  Worked by hand; the
 * aggregated model has three classes. */
START_TEST(test_aggregate_by_hand)
{
    static double o[3][9];
    static struct alloc_job jobs[300];
    struct alloc_problem p = {.pool = 40, .tfwd = 1, .jobs = jobs};
    const char *be = solver_backend_name((size_t)_i);
    static int n[300];
    struct alloc_result r;
    struct allocator *a;
    char spec[64];

    for (int k = 0; k <= 8; k++) {
        o[0][k] = 10 * k;
        o[1][k] = 5 * k;
        o[2][k] = k < 2 ? k : 2;
    }
    for (int j = 0; j < 300; j++)
        jobs[j] = (struct alloc_job){.jmin = 1,
                                     .jmax = j % 3 == 0   ? 8
                                             : j % 3 == 1 ? 4
                                                          : 8,
                                     .o = o[j % 3]};
    p.n_jobs = 300;
    snprintf(spec, sizeof spec, "%s,aggregate=yes,start=no", be);
    a = agg_allocator(spec);
    memset(&r, 0, sizeof r);
    r.counts = n;
    ck_assert_int_eq(allocator_solve(a, &p, &r, NULL), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_int_eq(r.cols, 8 + 4 + 8 + 3); /* counts 1..jmax, and 0 */
    for (int j = 0; j < 300; j++)
        ck_assert_msg(n[j] == (j % 3 == 0 && j <= 12 ? 8 : 0), "job %d: %d", j,
                      n[j]);
    ck_assert_double_eq(r.objective, 400);
    allocator_free(a);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("exact");

    list_methods(1);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_random, 0, n_methods);
    tcase_add_loop_test(tc, test_random_legacy_cap, 0, n_methods);
    tcase_add_loop_test(tc, test_tie_heavy, 0, n_methods);
    tcase_add_loop_test(tc, test_lone_job_cap, 0, n_methods);
    tcase_add_loop_test(tc, test_infeasible_cap, 0, n_methods);
    tcase_add_loop_test(tc, test_ties_by_hand, 0, n_methods);
    tcase_add_loop_test(tc, test_shufflenet, 0, n_methods);
    tcase_add_loop_test(tc, test_node_map_checked, 0, n_methods);
    tcase_add_loop_test(tc, test_time_limit, 0, n_methods);
    tcase_add_loop_test(tc, test_solver_crash, 0, n_methods);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_dp_shortcut);
    tcase_add_test(tc, test_dp_shortcut_by_hand);
    tcase_add_test(tc, test_dp_big_pool);
    tcase_add_test(tc, test_dp_reuse);
    tcase_add_test(tc, test_dp_pool_walk);
    tcase_add_test(tc, test_checked_tables);
    tcase_add_test(tc, test_dp_many_identical);
    tcase_add_test(tc, test_dp_memory_bound);
    tcase_add_test(tc, test_dp_value_table_bound);
    tcase_add_test(tc, test_dp_time_limit);
    tcase_add_test(tc, test_dp_time_limit_large);
    tcase_add_test(tc, test_dp_rows_reused);
    tcase_add_test(tc, test_dp_pruned);
    tcase_add_test(tc, test_dp_runs);
    tcase_add_loop_test(tc, test_count_start_timeout, 0, 4);
    tcase_add_loop_test(tc, test_aggregate, 0, (int)solver_count());
    tcase_add_loop_test(tc, test_aggregate_by_hand, 0, (int)solver_count());
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
