/* alloc/milp_agg.c - the aggregated count model of the MILP allocator
 * (one node type): jobs identical for the count model form a class, and
 * an integer y[k,n] counts the jobs of class k given n nodes.
 *
 * Classes: two jobs are in one class when the count model cannot tell
 * them apart: the same largest admissible count, the same current count
 * (key 2's keep) and bit for bit the same row of the model's value table
 * (count_values: v_j(n) with the fixing's -HUGE_VAL), so the same
 * columns with the same objective.  A class's members are kept in job
 * order.  Classes are found by hashing those rows.
 *
 * Model (stage 1): per class k of s_k jobs, an integer y[k,n] in 0..s_k
 * per count n the class's row keeps, objective v_k(n) (scaled by the tie
 * tolerance, as milp_count.c), one row sum_n y[k,n] = s_k and the
 * capacity row sum_{k,n} n y[k,n] <= N.  Every count vector of the
 * per-job model maps to one point (y[k,n] = the members with count n),
 * of the same value, keeps and nodes, and every point is the image of
 * the vectors that hand its counts to the members in any order: the
 * optimum, the tie set and keys 1-3 (sums over the jobs) are the same.
 * With all classes of one job it is the per-job model, column for column.
 *
 * Hand-back: a point gives each class a multiset of counts; the class's
 * members, in job order, take them largest first.  Among the vectors
 * with those multisets, this is the largest in key 4's order (an earlier
 * member taking a smaller count than a later one of its class is made
 * larger by the swap, which changes no other job and no key 1-3).  So
 * the rule's choice is the hand-back of some point, and key 4 is a
 * question over points: which point's hand-back is largest.
 *
 * Stages: stage 2 maximises A keeps - B nodes (+ a hint on the classes'
 * counts, dropped past LEX_HINT_MAX) over the tie set, as milp_count.c.
 * Key 4 is then decided by certificates, never by weights: "a point of
 * the tie set with the incumbent's keeps and nodes whose hand-back is
 * later by key 4".  Its first differing job j* (class k, r-th member)
 * gains, so the class's r-th largest count exceeds n^_{j*}:
 * c_{k, n^_{j*} + 1} >= r, with c_{k,n} = sum_{m >= n} y[k,m] (the
 * members with count >= n); and every job before j* keeps its count:
 * for each class k', its R' members before j* keep theirs, i.e. the top
 * R' counts of k' are the incumbent's: c_{k',n} = c^_{k',n} above the
 * R'-th count v and c_{k',v} >= R'.  Only the first member of a class
 * with a given incumbent count can be j* (a later one with the same
 * count would need the r-th largest above an earlier, equal one).
 * With a binary d_q per such candidate (one set) and D_q = sum_{i >= q}
 * d_i, each prefix condition is a row per class and incumbent count u:
 * c_{k',u} >= sum_q (L_q - L_{q-1}) D_q, L_q = min(R'_q, c^_{k',u}), and
 * c_{k',u+1} <= sum_q (U_q - U_{q-1}) D_q, U_q = c^_{k',u+1} when R'_q >
 * c^_{k',u+1}, else s_{k'} (both monotone in q; the rows at the other
 * counts follow, c being non-increasing in n).  Each candidate is
 * checked exactly on its hand-back (count_accept) before it replaces
 * the incumbent; an infeasible certificate proves the rule's choice.
 *
 * Key 5 (types) does not arise: with node types the per-job model is
 * solved (aggregate= is read with one type only), as it is with the
 * node model and spanning types.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/milp_impl.h"
#include "alloc/objective.h"
#include "solver/milp.h"
#include "solver/solver.h"
#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The aggregated model of one problem. */
struct agg {
    struct amodel a; /* per-job: hi, unit, ystride (no columns) */
    struct milp m;   /* stage 1 over the classes */
    size_t nj, nk, W;
    int *cls;      /* owned, nj: job j's class */
    size_t *first; /* owned, nk + 1: class k's members are mem[first[k]]
                      .. mem[first[k + 1] - 1], in job order */
    int *mem;      /* owned, nj */
    int *ycol;     /* owned, nk * W: the column of y[k,n], or -1 */
};

static void agg_release(struct agg *g)
{
    xfree(g->ycol);
    xfree(g->mem);
    xfree(g->first);
    xfree(g->cls);
    milp_release(&g->m);
    amodel_release(&g->a);
}

static size_t csize(const struct agg *g, size_t k)
{
    return g->first[k + 1] - g->first[k];
}

static int crep(const struct agg *g, size_t k)
{
    return g->mem[g->first[k]];
}

/* Whether jobs i and j are alike for the count model (see the top). */
static int alike(const struct alloc_problem *p, const struct agg *g,
                 const double *v, size_t i, size_t j)
{
    return g->a.hi[i] == g->a.hi[j] && p->jobs[i].cur == p->jobs[j].cur &&
           memcmp(&v[i * g->W], &v[j * g->W], g->W * sizeof *v) == 0;
}

static uint64_t row_hash(const struct alloc_problem *p, const struct agg *g,
                         const double *v, size_t j)
{
    const unsigned char *b = (const unsigned char *)&v[j * g->W];
    uint64_t h = 1469598103934665603u;

    for (size_t i = 0; i < g->W * sizeof *v; i++)
        h = (h ^ b[i]) * 1099511628211u;
    h = (h ^ (uint64_t)(unsigned)g->a.hi[j]) * 1099511628211u;
    h = (h ^ (uint64_t)(unsigned)p->jobs[j].cur) * 1099511628211u;
    return h;
}

/* Sorts the jobs into classes (g->cls, first, mem, nk), numbered by
 * their first member. */
static void find_classes(const struct alloc_problem *p, struct agg *g,
                         const double *v)
{
    size_t cap = 16, nj = g->nj;
    int *slot, *rep = xcalloc(nj + 1, sizeof *rep);
    size_t *fill;

    while (cap < 2 * nj)
        cap *= 2;
    slot = xreallocarray(NULL, cap, sizeof *slot);
    for (size_t i = 0; i < cap; i++)
        slot[i] = -1;
    g->cls = xcalloc(nj + 1, sizeof *g->cls);
    g->nk = 0;
    for (size_t j = 0; j < nj; j++) {
        size_t s = (size_t)row_hash(p, g, v, j) & (cap - 1);
        while (slot[s] >= 0 && !alike(p, g, v, (size_t)rep[slot[s]], j))
            s = (s + 1) & (cap - 1);
        if (slot[s] < 0) {
            slot[s] = (int)g->nk;
            rep[g->nk++] = (int)j;
        }
        g->cls[j] = slot[s];
    }
    g->first = xcalloc(g->nk + 2, sizeof *g->first);
    fill = xcalloc(g->nk + 1, sizeof *fill);
    for (size_t j = 0; j < nj; j++)
        g->first[g->cls[j] + 1]++;
    for (size_t k = 0; k < g->nk; k++)
        g->first[k + 1] += g->first[k];
    g->mem = xcalloc(nj + 1, sizeof *g->mem);
    for (size_t j = 0; j < nj; j++) {
        size_t k = (size_t)g->cls[j];
        g->mem[g->first[k] + fill[k]++] = (int)j;
    }
    xfree(fill);
    xfree(slot);
    xfree(rep);
}

/* c_{k,n}: adds coef times sum_{m >= n} y[k,m] to m's open row. */
static void crow(struct milp *m, const struct agg *g, size_t k, int n,
                 double coef)
{
    for (size_t i = n > 0 ? (size_t)n : 0; i < g->W; i++)
        if (g->ycol[k * g->W + i] >= 0)
            milp_row_add(m, g->ycol[k * g->W + i], coef);
}

/* Builds the stage-1 model over the classes from the value table v. */
static void build_agg(const struct alloc_problem *p, struct agg *g,
                      const double *v)
{
    struct milp *m = &g->m;
    size_t W = g->W;

    milp_init(m, 1);
    g->ycol = xreallocarray(NULL, g->nk * W + 1, sizeof *g->ycol);
    for (size_t i = 0; i < g->nk * W; i++)
        g->ycol[i] = -1;
    for (size_t k = 0; k < g->nk; k++) {
        size_t r = (size_t)crep(g, k);
        for (size_t n = 0; n < W; n++)
            if (v[r * W + n] != -HUGE_VAL)
                g->ycol[k * W + n] = milp_add_col(m, 0, (double)csize(g, k), 1,
                                                  v[r * W + n] / g->a.unit);
    }
    for (size_t k = 0; k < g->nk; k++) {
        milp_row_begin(m, (double)csize(g, k), (double)csize(g, k));
        crow(m, g, k, 0, 1);
        milp_row_end(m);
    }
    milp_row_begin(m, -HUGE_VAL, p->pool);
    for (size_t k = 0; k < g->nk; k++)
        for (size_t n = 1; n < W; n++)
            if (g->ycol[k * W + n] >= 0)
                milp_row_add(m, g->ycol[k * W + n], (double)n);
    milp_row_end(m);
}

/* The point of counts n (one per job) into x (the model's columns);
 * returns -1 when a count has no column. */
static int agg_point(const struct agg *g, const int *n, double *x)
{
    memset(x, 0, g->m.n_cols * sizeof *x);
    for (size_t j = 0; j < g->nj; j++) {
        int c = n[j] < 0 || (size_t)n[j] >= g->W
                    ? -1
                    : g->ycol[(size_t)g->cls[j] * g->W + (size_t)n[j]];
        if (c < 0)
            return -1;
        x[c] += 1;
    }
    return 0;
}

/* The hand-back of a solution x: each class's counts to its members in
 * job order, largest first (see the top).  Returns -1 when x's counts of
 * a class do not add up to its size. */
static int hand_back(const struct agg *g, const double *x, int *n)
{
    for (size_t k = 0; k < g->nk; k++) {
        size_t at = g->first[k];
        for (size_t i = g->W; i-- > 0;) {
            int c = g->ycol[k * g->W + i];
            long y = c >= 0 ? lround(x[c]) : 0;
            for (; y > 0 && at < g->first[k + 1]; y--)
                n[g->mem[at++]] = (int)i;
            if (y > 0)
                return -1;
        }
        if (at != g->first[k + 1])
            return -1;
    }
    return 0;
}

/* Stage 2's objective on m (the stage-1 columns first): A keeps - B
 * nodes + a hint, per column y[k,n] A [n == C_k] - B (n - lo_k) + h_k
 * rank_k(n), lo_k the class's smallest count, rank_k(n) n's rank among
 * its counts and h_k = J - (its first member), with B above the hint's
 * range and A above the rest's; the hint is dropped when A's range
 * exceeds LEX_HINT_MAX.  Classes with one column get 0. */
static void agg_secondary(struct milp *m, const struct agg *g,
                          const struct alloc_problem *p)
{
    double R = 0, K = 0, H = 0, A, B;

    for (size_t k = 0; k < g->nk; k++) {
        int lo = -1, hi = 0, cols = 0, keep = 0;
        for (size_t n = 0; n < g->W; n++)
            if (g->ycol[k * g->W + n] >= 0) {
                lo = lo < 0 ? (int)n : lo;
                hi = (int)n;
                cols++;
                keep |= (int)n == p->jobs[crep(g, k)].cur;
            }
        R += (double)csize(g, k) * (hi - lo);
        K += cols > 1 && keep ? (double)csize(g, k) : 0;
        H += (double)(g->nj - (size_t)crep(g, k)) * (cols - 1) *
             (double)csize(g, k);
    }
    R = R < p->pool ? R : p->pool;
    B = H + 1;
    A = B * (R + 1);
    if (A * (K + 1) > LEX_HINT_MAX) {
        H = 0;
        B = 1;
        A = R + 1;
    }
    memset(m->obj, 0, m->n_cols * sizeof *m->obj);
    m->obj_offset = 0.0;
    for (size_t k = 0; k < g->nk; k++) {
        int lo = -1, rank = 0, cols = 0;
        double h = H > 0 ? (double)(g->nj - (size_t)crep(g, k)) : 0;
        for (size_t n = 0; n < g->W; n++)
            cols += g->ycol[k * g->W + n] >= 0;
        for (size_t n = 0; cols > 1 && n < g->W; n++) {
            int y = g->ycol[k * g->W + n];
            if (y < 0)
                continue;
            lo = lo < 0 ? (int)n : lo;
            m->obj[y] = h * rank++ + A * ((int)n == p->jobs[crep(g, k)].cur) -
                        B * ((int)n - lo);
        }
    }
}

/* Members of class k before job j. */
static size_t before(const struct agg *g, size_t k, int j)
{
    size_t lo = g->first[k], hi = g->first[k + 1];

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->mem[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - g->first[k];
}

/* c^_{k,n}: the members of class k with count >= n in nh. */
static double chat(const struct agg *g, const int *nh, size_t k, int n)
{
    double c = 0;

    for (size_t i = g->first[k]; i < g->first[k + 1]; i++)
        c += nh[g->mem[i]] >= n;
    return c;
}

/* The certificate model on g (see the top): the tie row at z, keeps and
 * nodes of the incumbent nh (a hand-back) and "a hand-back after nh by
 * key 4"; objective obj (stage 2's).  Returns -1, building nothing,
 * when no job can be the first to gain. */
static int agg_cert(struct milp *m, const struct agg *g,
                    const struct alloc_problem *p, double z, const int *nh,
                    const double *obj)
{
    size_t nj = g->nj, nk = g->nk, W = g->W, Q = 0;
    int *qj = xcalloc(nj + 1, sizeof *qj),
        *last = xcalloc(nk + 1, sizeof *last);
    size_t *seen = xcalloc(nk + 1, sizeof *seen);
    int *d, *D;
    double K = 0, S = 0, *L, *U;

    for (size_t j = 0; j < nj; j++) {
        size_t k = (size_t)g->cls[j];
        int top = 0;
        for (size_t n = 0; n < W; n++)
            if (g->ycol[k * W + n] >= 0)
                top = (int)n;
        if ((seen[k] == 0 || nh[j] < last[k]) && j + 1 < nj && nh[j] < top)
            qj[Q++] = (int)j;
        seen[k]++;
        last[k] = nh[j];
        K += alloc_keeps_t(p, j, 0, nh[j]);
        S += nh[j];
    }
    xfree(seen);
    if (Q == 0) {
        xfree(last);
        xfree(qj);
        return -1;
    }
    mstage_cert_copy(m, &g->m, g->a.unit, z, obj);
    milp_row_begin(m, K, K);
    for (size_t k = 0; k < nk; k++) {
        int c = p->jobs[crep(g, k)].cur;
        if ((size_t)c < W && g->ycol[k * W + (size_t)c] >= 0)
            milp_row_add(m, g->ycol[k * W + (size_t)c], 1);
    }
    milp_row_end(m);
    milp_row_begin(m, S, S);
    for (size_t k = 0; k < nk; k++)
        for (size_t n = 1; n < W; n++)
            if (g->ycol[k * W + n] >= 0)
                milp_row_add(m, g->ycol[k * W + n], (double)n);
    milp_row_end(m);
    d = xcalloc(Q + 1, sizeof *d);
    D = xcalloc(Q + 1, sizeof *D);
    for (size_t q = 0; q < Q; q++)
        d[q] = milp_add_col(m, 0, 1, 1, 0);
    for (size_t q = 0; q < Q; q++) /* D_0 = 1: one candidate is set */
        D[q] = milp_add_col(m, q == 0 ? 1 : 0, 1, 0, 0);
    for (size_t q = 0; q < Q; q++) { /* D_q = d_q + D_{q+1} */
        milp_row_begin(m, 0, 0);
        milp_row_add(m, D[q], 1);
        milp_row_add(m, d[q], -1);
        if (q + 1 < Q)
            milp_row_add(m, D[q + 1], -1);
        milp_row_end(m);
    }
    for (size_t q = 0; q < Q; q++) { /* j* gains: c_{k,n^+1} >= r d_q */
        int j = qj[q];
        size_t k = (size_t)g->cls[j];
        milp_row_begin(m, 0, HUGE_VAL);
        crow(m, g, k, nh[j] + 1, 1);
        milp_row_add(m, d[q], -(double)(before(g, k, j) + 1));
        milp_row_end(m);
    }
    /* the prefix rows, per class and incumbent count u (see the top) */
    L = xcalloc(Q + 1, sizeof *L);
    U = xcalloc(Q + 1, sizeof *U);
    for (size_t k = 0; k < nk; k++) {
        double s = (double)csize(g, k);
        for (size_t i = g->first[k]; i < g->first[k + 1]; i++) {
            int u = nh[g->mem[i]], any;
            double cl, cu;
            if (i > g->first[k] && nh[g->mem[i - 1]] == u)
                continue; /* one pair of rows per distinct count */
            cl = chat(g, nh, k, u);
            cu = chat(g, nh, k, u + 1);
            any = 0;
            for (size_t q = 0; q < Q; q++) {
                double R = (double)before(g, k, qj[q]);
                L[q] = R < cl ? R : cl;
                U[q] = R > cu ? cu : s;
                any |= L[q] > 0;
            }
            if (any && u > 0) { /* c_{k,u} >= sum (L_q - L_{q-1}) D_q */
                milp_row_begin(m, 0, HUGE_VAL);
                crow(m, g, k, u, 1);
                for (size_t q = 0; q < Q; q++)
                    if (L[q] != (q ? L[q - 1] : 0))
                        milp_row_add(m, D[q], -(L[q] - (q ? L[q - 1] : 0)));
                milp_row_end(m);
            }
            any = 0;
            for (size_t q = 0; q < Q; q++)
                any |= U[q] < s;
            if (any) { /* c_{k,u+1} <= U_0 + sum_{q>0} (U_q - U_{q-1}) D_q */
                milp_row_begin(m, -HUGE_VAL, U[0]);
                crow(m, g, k, u + 1, 1);
                for (size_t q = 1; q < Q; q++)
                    if (U[q] != U[q - 1])
                        milp_row_add(m, D[q], -(U[q] - U[q - 1]));
                milp_row_end(m);
            }
        }
    }
    xfree(U);
    xfree(L);
    xfree(D);
    xfree(d);
    xfree(last);
    xfree(qj);
    return 0;
}

/* Solves p on the aggregated model (see alloc/milp_impl.h). */
int agg_solve(struct mstate *st, const struct alloc_problem *p, const int *n0,
              struct alloc_result *res, struct bfs_error *e)
{
    struct agg g;
    size_t nj = p->n_jobs;
    double t0 = bfs_now(), deadline, z, thr, bound1 = HUGE_VAL, gap_abs;
    double *v, *x = NULL, *obj2 = NULL;
    int *best = NULL, *cand = NULL, *bt = NULL, *ct = NULL;
    int effort, ss, rc = 0;
    struct milp m2;

    memset(&g, 0, sizeof g);
    amodel_init(&g.a, p);
    g.nj = nj;
    v = count_values(p, &g.a, n0 ? alloc_objective_t(p, n0, NULL) : -HUGE_VAL);
    g.W = g.a.ystride;
    find_classes(p, &g, v);
    if (st->aggregate == AGG_AUTO && g.nk == nj) {
        xfree(v);
        agg_release(&g);
        return 1; /* no class of two: the per-job model */
    }
    build_agg(p, &g, v);
    xfree(v);
    /* x also holds the certificates' d_q and D_q columns */
    x = xcalloc(g.m.n_cols + 2 * nj + 1, sizeof *x);
    best = xcalloc(nj + 1, sizeof *best);
    cand = xcalloc(nj + 1, sizeof *cand);
    bt = xcalloc(nj + 1, sizeof *bt); /* types: not read with one type */
    ct = xcalloc(nj + 1, sizeof *ct);
    if (n0 && agg_point(&g, n0, x) == 0)
        milp_set_start(&g.m, x);
    effort = g.m.start && solver_takes_start(st->solver, SOLVER_EFFORT_PROVE)
                 ? SOLVER_EFFORT_PROVE
                 : SOLVER_EFFORT_LIGHT;
    res->rows = g.m.n_rows;
    res->cols = g.m.n_cols;
    res->nnz = g.m.nnz;
    res->build_s += bfs_now() - t0;
    deadline = bfs_now() + st->base.time_limit;
    gap_abs = st->base.gap_abs / g.a.unit;
    gap_abs = gap_abs > 0.1 ? 0.1 : gap_abs;
    st->mps_rc = 0;
    st->agg_now = 1;
    /* stage 1 */
    ss = mstage_first(st, &g.m, g.a.unit, gap_abs, effort, deadline, x, &bound1,
                      res, e, &rc);
    if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
        goto out;
    if (hand_back(&g, x, best) != 0 || !alloc_feasible_t(p, best, bt)) {
        res->status = SOLVE_FAILED; /* the solver's answer does not hold */
        goto out;
    }
    z = alloc_objective_t(p, best, bt);
    thr = z - g.a.unit;
    if (ss != SOLVE_OPTIMAL || nj == 0)
        goto done;

    /* stage 2: keeps and nodes (and a hint) over the tie set */
    milp_copy(&m2, &g.m);
    milp_set_start(&m2, NULL);
    mstage_tie_row(&m2, &g.m, g.a.unit, z);
    agg_secondary(&m2, &g, p);
    obj2 = xcalloc(g.m.n_cols + 1, sizeof *obj2);
    memcpy(obj2, m2.obj, g.m.n_cols * sizeof *obj2);
    if (g.m.start && milp_violation(&m2, g.m.start) <= 1e-9)
        milp_set_start(&m2, g.m.start);
    ss = mstage_run(st, &m2, g.a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline,
                    x, NULL, res, NULL);
    milp_release(&m2);
    if ((ss == SOLVE_OPTIMAL || ss == SOLVE_FEASIBLE) &&
        hand_back(&g, x, cand) == 0)
        count_accept(p, thr, cand, ct, best, bt);
    /* stage 3: certificates that no later hand-back ties */
    for (int round = 0;
         ss == SOLVE_OPTIMAL && nj > 1 && round < CERT_MAX_ROUNDS; round++) {
        if (agg_cert(&m2, &g, p, z, best, obj2) != 0)
            break; /* no job can gain first: nothing after it */
        ss = mstage_run(st, &m2, g.a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT,
                        deadline, x, NULL, res, NULL);
        milp_release(&m2);
        if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
            break; /* INFEASIBLE: proven; anything else: best effort */
        if (hand_back(&g, x, cand) != 0 ||
            !count_accept(p, thr, cand, ct, best, bt))
            break;
        ss = SOLVE_OPTIMAL;
    }
    mstage_tie_end(ss, res);
done:
    memcpy(res->counts, best, nj * sizeof *best);
    res->objective = alloc_objective_t(p, best, bt);
    res->bound = bound1 < HUGE_VAL ? bound1 * g.a.unit : HUGE_VAL;
    if (res->bound < res->objective)
        res->bound = res->objective;
    if (st->mps_rc) /* a model that could not be written */
        rc = bfs_fail(e, st->mps_rc, "%s", st->mps_e.msg);
out:
    st->agg_now = 0;
    xfree(obj2);
    xfree(ct);
    xfree(bt);
    xfree(cand);
    xfree(best);
    xfree(x);
    agg_release(&g);
    return rc;
}
