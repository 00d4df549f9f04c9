/* alloc/dp.c - the exact dynamic programme over counts.
 *
 * The problem is a multiple-choice knapsack: one count per job from its
 * admissible set (0 or Jmin..Jmax, within the pool, within the cap of the
 * current count when there is a cap), one capacity.  The tie-break rule
 * (alloc/objective.h) needs, besides the objective, the number of jobs kept at
 * their current count and the number of nodes used, so the decisive table
 * is over suffixes of the job list, exact node counts and exact keep
 * counts:
 *
 *   G[j][c][k] = max sum_{i >= j} v_i(n_i)  over the choices of jobs
 *                j..J-1 using exactly c nodes and keeping exactly k jobs
 *
 * (-HUGE_VAL when impossible), with c <= C = min(N, sum of the largest
 * admissible counts).  Filling it whole costs J * C * K * max Jmax, K the
 * keepable jobs; most of it is wasted on node counts no good allocation
 * uses.  So two plain tables come first, each J * C * max Jmax:
 *
 *   F[j][c] = best value of jobs 0..j-1 using exactly c nodes,
 *   B[j][c] = best value of jobs j..J-1 using exactly c nodes,
 *
 * z* = max_c B[0][c], and a cell (j, c) of G is "alive" when some prefix
 * fits beside it well enough: max_{c' <= C-c} F[j][c'] + B[j][c] >=
 * z* - 2 tol.  Every allocation within tol of z* passes only through alive
 * cells (the second tol covers the rounding of sums taken in another
 * order), so G is filled on alive cells only, which are few, and stored
 * sparsely.  Then the best (keeps, nodes) pair is read off G[0], and the
 * counts are chosen job by job, each the largest that still admits a
 * completion reaching the threshold z* - tol with exactly the remaining
 * nodes and keeps.  The threshold carried from job to job is clamped to
 * the table entry that justified the choice, so that rounding cannot leave
 * a later job without a candidate.  F and B above DP_MAX_CELLS cells each
 * are refused as FAILED.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* 2^24 cells (128 MiB of doubles) per table: 1,000 jobs on all 4,734
 * Summit nodes need 4.7 million. */
#define DP_MAX_CELLS ((size_t)1 << 24)

/* ---- the allocator ---------------------------------------------------- */

#define DEAD SIZE_MAX /* offset of a cell that is not alive */

/* The tables, kept between solves so that a replay allocates them once. */
struct dp {
    const struct alloc_problem *p;
    size_t nj, C, W; /* jobs, node budget, widest count range (max hi+1) */
    int *hi;         /* largest admissible count per job */
    int *keepable;   /* cur is admissible */
    size_t *ksuf;    /* keepable jobs among j..nj-1 */
    double *v;       /* v[j * W + n], -HUGE_VAL when inadmissible */
    double *F, *B;   /* (nj+1) x (C+1) */
    double *pf;      /* C+1: prefix maxima of one row of F */
    size_t *at;      /* (nj+1) x (C+1): offset of the cell's k-row in G */
    double *G;       /* alive cells' rows, ksuf[j]+1 entries each */
    size_t hi_cap, keep_cap, ksuf_cap, v_cap, F_cap, B_cap, pf_cap, at_cap,
        G_cap;
};

static int dp_create(const struct alloc_opts *o, void **state,
                     struct bfs_error *e)
{
    (void)o;
    (void)e;
    *state = xcalloc(1, sizeof(struct dp));
    return 0;
}

static void dp_destroy(void *state)
{
    struct dp *d = state;

    if (!d)
        return;
    xfree(d->hi);
    xfree(d->keepable);
    xfree(d->ksuf);
    xfree(d->v);
    xfree(d->F);
    xfree(d->B);
    xfree(d->pf);
    xfree(d->at);
    xfree(d->G);
    xfree(d);
}

static double val(const struct dp *d, size_t j, int n)
{
    return d->v[j * d->W + (size_t)n];
}

/* G[j][c][k], -HUGE_VAL for a dead cell or k beyond the suffix's keeps. */
static double g_at(const struct dp *d, size_t j, size_t c, size_t k)
{
    size_t off = d->at[j * (d->C + 1) + c];

    if (off == DEAD || k > d->ksuf[j])
        return -HUGE_VAL;
    return d->G[off + k];
}

/* Fills one row of F (forward, dir > 0: row j+1 from row j) or of B
 * (backward: row j from row j+1) with job j's choices. */
static void extend(const struct dp *d, double *T, size_t j, int dir)
{
    const double *from = &T[(dir > 0 ? j : j + 1) * (d->C + 1)];
    double *to = &T[(dir > 0 ? j + 1 : j) * (d->C + 1)];

    for (size_t c = 0; c <= d->C; c++) {
        double best = -HUGE_VAL;
        for (int n = 0; n <= d->hi[j] && (size_t)n <= c; n++) {
            double vn = val(d, j, n), g = from[c - (size_t)n];
            if (vn != -HUGE_VAL && g != -HUGE_VAL && vn + g > best)
                best = vn + g;
        }
        to[c] = best;
    }
}

/* Marks the alive cells, lays out their rows in G and fills them from
 * the last job back to the first.  thr = z* - 2 tol. */
static void fill(struct dp *d, double thr)
{
    size_t w = d->C + 1, nG = 0;

    for (size_t j = 0; j <= d->nj; j++) {
        const double *Fj = &d->F[j * w], *Bj = &d->B[j * w];
        double m = -HUGE_VAL;
        for (size_t c = 0; c < w; c++)
            d->pf[c] = m = Fj[c] > m ? Fj[c] : m;
        for (size_t c = 0; c < w; c++) {
            double pre = d->pf[d->C - c];
            int alive =
                Bj[c] != -HUGE_VAL && pre != -HUGE_VAL && pre + Bj[c] >= thr;
            d->at[j * w + c] = alive ? nG : DEAD;
            nG += alive ? d->ksuf[j] + 1 : 0;
        }
    }
    BFS_GROW(d->G, d->G_cap, nG > 0 ? nG : 1);
    for (size_t j = d->nj + 1; j-- > 0;)
        for (size_t c = 0; c < w; c++) {
            size_t off = d->at[j * w + c];
            if (off == DEAD)
                continue;
            for (size_t k = 0; k <= d->ksuf[j]; k++)
                d->G[off + k] = j == d->nj && c == 0 ? 0.0 : -HUGE_VAL;
            if (j == d->nj)
                continue;
            for (int n = 0; n <= d->hi[j] && (size_t)n <= c; n++) {
                double vn = val(d, j, n);
                size_t keep = d->keepable[j] && n == d->p->jobs[j].cur;
                if (vn == -HUGE_VAL ||
                    d->at[(j + 1) * w + c - (size_t)n] == DEAD)
                    continue;
                for (size_t k = keep; k <= d->ksuf[j]; k++) {
                    double g = g_at(d, j + 1, c - (size_t)n, k - keep);
                    if (g != -HUGE_VAL && vn + g > d->G[off + k])
                        d->G[off + k] = vn + g;
                }
            }
        }
}

/* Chooses the counts by the tie-break rule from the filled table.
 * Returns 0, or -1 when no choice fits the pool (only possible under a
 * cap, which can forbid a job to stop). */
static int choose(const struct dp *d, double tol, int *counts)
{
    double zmax = -HUGE_VAL, target;
    size_t S = 0, Kb = 0, K = d->ksuf[0];
    int found = 0;

    for (size_t c = 0; c <= d->C; c++)
        for (size_t k = 0; k <= K; k++)
            if (g_at(d, 0, c, k) > zmax)
                zmax = g_at(d, 0, c, k);
    if (zmax == -HUGE_VAL)
        return -1;
    target = zmax - tol;
    /* most keeps, then fewest nodes */
    for (size_t k = K + 1; k-- > 0 && !found;)
        for (size_t c = 0; c <= d->C; c++)
            if (g_at(d, 0, c, k) >= target) {
                S = c;
                Kb = k;
                found = 1;
                break;
            }
    /* then the largest count for each job in turn */
    for (size_t j = 0; j < d->nj; j++) {
        int cur = d->p->jobs[j].cur, pick = -1;
        double gpick = 0.0, vpick = 0.0;
        for (int n = d->hi[j]; n >= 0 && pick < 0; n--) {
            double vn = val(d, j, n), g;
            size_t keep = d->keepable[j] && n == cur;
            if (vn == -HUGE_VAL || (size_t)n > S || keep > Kb)
                continue;
            g = g_at(d, j + 1, S - (size_t)n, Kb - keep);
            if (g != -HUGE_VAL && vn + g >= target) {
                pick = n;
                gpick = g;
                vpick = vn;
            }
        }
        counts[j] = pick;
        S -= (size_t)pick;
        Kb -= d->keepable[j] && pick == cur;
        target = target - vpick < gpick ? target - vpick : gpick;
    }
    return 0;
}

/* Sizes the tables for p and fills hi, keepable, ksuf and v.  Returns
 * SOLVE_OPTIMAL, SOLVE_INFEASIBLE (a job without an admissible count) or
 * SOLVE_FAILED (tables too large). */
static int setup(struct dp *d, const struct alloc_problem *p)
{
    size_t nj = p->n_jobs, sumhi = 0, W = 1;

    d->p = p;
    d->nj = nj;
    BFS_GROW(d->hi, d->hi_cap, nj + 1);
    BFS_GROW(d->keepable, d->keep_cap, nj + 1);
    BFS_GROW(d->ksuf, d->ksuf_cap, nj + 1);
    for (size_t j = 0; j < nj; j++) {
        int top = p->jobs[j].jmax < p->pool ? p->jobs[j].jmax : p->pool;
        d->hi[j] = -1;
        for (int n = top; n >= 0 && d->hi[j] < 0; n--)
            if (alloc_admissible(p, j, n))
                d->hi[j] = n;
        if (d->hi[j] < 0)
            return SOLVE_INFEASIBLE; /* no admissible count (the cap) */
        sumhi += (size_t)d->hi[j];
        if ((size_t)d->hi[j] + 1 > W)
            W = (size_t)d->hi[j] + 1;
        d->keepable[j] = alloc_admissible(p, j, p->jobs[j].cur);
    }
    d->ksuf[nj] = 0;
    for (size_t j = nj; j-- > 0;)
        d->ksuf[j] = d->ksuf[j + 1] + (size_t)d->keepable[j];
    d->W = W;
    d->C = sumhi < (size_t)p->pool ? sumhi : (size_t)p->pool;
    if ((nj + 1) > DP_MAX_CELLS / (d->C + 1))
        return SOLVE_FAILED;
    BFS_GROW(d->v, d->v_cap, nj * W + 1);
    for (size_t j = 0; j < nj; j++)
        for (int n = 0; (size_t)n < W; n++)
            d->v[j * W + (size_t)n] = n <= d->hi[j] && alloc_admissible(p, j, n)
                                          ? alloc_value(p, j, n)
                                          : -HUGE_VAL;
    BFS_GROW(d->F, d->F_cap, (nj + 1) * (d->C + 1));
    BFS_GROW(d->B, d->B_cap, (nj + 1) * (d->C + 1));
    BFS_GROW(d->at, d->at_cap, (nj + 1) * (d->C + 1));
    BFS_GROW(d->pf, d->pf_cap, d->C + 1);
    return SOLVE_OPTIMAL;
}

static int dp_solve(void *state, const struct alloc_problem *p,
                    struct alloc_result *res, struct bfs_error *e)
{
    double t0 = bfs_now();
    struct dp *d = state;
    int status = setup(d, p);

    (void)e;
    if (status == SOLVE_OPTIMAL) {
        size_t w = d->C + 1;
        double z = -HUGE_VAL, tol = alloc_tie_tol(p);
        for (size_t c = 0; c < w; c++)
            d->F[c] = d->B[d->nj * w + c] = c == 0 ? 0.0 : -HUGE_VAL;
        for (size_t j = 0; j < d->nj; j++)
            extend(d, d->F, j, 1);
        for (size_t j = d->nj; j-- > 0;)
            extend(d, d->B, j, -1);
        for (size_t c = 0; c < w; c++)
            z = d->B[c] > z ? d->B[c] : z;
        if (z == -HUGE_VAL)
            status = SOLVE_INFEASIBLE;
        else {
            fill(d, z - 2.0 * tol);
            if (choose(d, tol, res->counts) == 0)
                res->objective = res->bound = alloc_objective(p, res->counts);
            else
                status = SOLVE_INFEASIBLE;
        }
    }
    res->status = status;
    res->build_s = 0.0;
    res->solve_s = bfs_now() - t0;
    res->rows = res->cols = res->nnz = 0;
    return 0;
}

const struct alloc_ops alloc_dp_ops = {
    .name = "dp",
    .create = dp_create,
    .solve = dp_solve,
    .destroy = dp_destroy,
};
