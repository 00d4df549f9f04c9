/* alloc_dp.c - the exact dynamic programme over counts, and the helpers
 * of the tie-break rule that every exact allocator shares.
 *
 * The problem is a multiple-choice knapsack: one count per job from its
 * admissible set (0 or Jmin..Jmax, within the pool, within the cap of the
 * current count when there is a cap), one capacity.  The tie-break rule
 * (alloc.h) needs, besides the objective, the number of jobs kept at
 * their current count and the number of nodes used, so the table is over
 * suffixes of the job list, exact node counts and exact keep counts:
 *
 *   G[j][c][k] = max sum_{i >= j} v_i(n_i)  over the choices of jobs
 *                j..J-1 using exactly c nodes and keeping exactly k jobs
 *
 * (-HUGE_VAL when impossible), with c <= C = min(N, sum of the largest
 * admissible counts) and k <= the number of jobs that can keep their
 * count.  Then z* = max G[0][.][.], the tie threshold is z* - tol, the
 * best (keeps, nodes) pair is read off G[0], and the counts are chosen job
 * by job, each the largest that still admits a completion reaching the
 * threshold with exactly the remaining nodes and keeps.  The threshold
 * carried from job to job is clamped to the table entry that justified
 * the choice, so that rounding cannot leave a later job without a
 * candidate.  Time O(J * C * K * max Jmax), memory (J+1)(C+1)(K+1)
 * doubles; a table above DP_MAX_CELLS cells is refused as FAILED.
 */
#include "config.h"

#include "alloc.h"
#include "alloc_impl.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

/* 2^25 cells (256 MiB of doubles): far beyond a real replay (10 jobs on
 * 1,000 nodes need 80,000). */
#define DP_MAX_CELLS ((size_t)1 << 25)

int alloc_admissible(const struct alloc_problem *p, size_t j, int n)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (n < 0 || n > p->pool || n > jb->jmax)
        return 0;
    if (n > 0 && n < jb->jmin)
        return 0;
    if (p->cap > 0 && abs(n - jb->cur) > p->cap)
        return 0;
    return 1;
}

double alloc_value(const struct alloc_problem *p, size_t j, int n)
{
    const struct alloc_job *jb = &p->jobs[j];
    double r = jb->cur >= jb->jmin ? jb->o[jb->cur] : 0.0;
    double v = p->tfwd * jb->o[n];

    if (n > jb->cur)
        v -= jb->tcup * r;
    else if (n < jb->cur)
        v -= jb->tcdw * r;
    return v;
}

double alloc_tie_tol(const struct alloc_problem *p)
{
    double s = 0.0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        double big = 0.0;
        for (int n = 0; n <= p->jobs[j].jmax; n++)
            if (alloc_admissible(p, j, n) && fabs(alloc_value(p, j, n)) > big)
                big = fabs(alloc_value(p, j, n));
        s += big;
    }
    return ALLOC_TIE_REL * (s > 1.0 ? s : 1.0);
}

int alloc_feasible(const struct alloc_problem *p, const int *n)
{
    long sum = 0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        if (!alloc_admissible(p, j, n[j]))
            return 0;
        sum += n[j];
    }
    return sum <= p->pool;
}

int alloc_tie_cmp(const struct alloc_problem *p, const int *a, const int *b)
{
    long ka = 0, kb = 0, sa = 0, sb = 0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        ka += a[j] == p->jobs[j].cur;
        kb += b[j] == p->jobs[j].cur;
        sa += a[j];
        sb += b[j];
    }
    if (ka != kb)
        return ka > kb ? 1 : -1;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    for (size_t j = 0; j < p->n_jobs; j++)
        if (a[j] != b[j])
            return a[j] > b[j] ? 1 : -1;
    return 0;
}

/* ---- the allocator ---------------------------------------------------- */

static int dp_create(const struct alloc_opts *o, void **state,
                     struct bfs_error *e)
{
    (void)o;
    (void)e;
    *state = NULL;
    return 0;
}

static void dp_destroy(void *state)
{
    (void)state;
}

struct dp {
    const struct alloc_problem *p;
    size_t nj, C, K;
    int *hi;       /* largest admissible count per job */
    int *keepable; /* cur is admissible */
    double *v;     /* v[j * (N+1) + n], -HUGE_VAL when inadmissible */
    double *G;     /* (nj+1) x (C+1) x (K+1) */
};

static double *cell(const struct dp *d, size_t j, size_t c, size_t k)
{
    return &d->G[(j * (d->C + 1) + c) * (d->K + 1) + k];
}

static double val(const struct dp *d, size_t j, int n)
{
    return d->v[j * ((size_t)d->p->pool + 1) + (size_t)n];
}

/* Fills G from the last job back to the first. */
static void fill(struct dp *d)
{
    for (size_t i = 0; i < (d->nj + 1) * (d->C + 1) * (d->K + 1); i++)
        d->G[i] = -HUGE_VAL;
    *cell(d, d->nj, 0, 0) = 0.0;
    for (size_t j = d->nj; j-- > 0;) {
        int cur = d->p->jobs[j].cur;
        for (size_t c = 0; c <= d->C; c++)
            for (size_t k = 0; k <= d->K; k++) {
                double best = -HUGE_VAL;
                for (int n = 0; n <= d->hi[j] && (size_t)n <= c; n++) {
                    double vn = val(d, j, n), g;
                    size_t keep = d->keepable[j] && n == cur;
                    if (vn == -HUGE_VAL || keep > k)
                        continue;
                    g = *cell(d, j + 1, c - (size_t)n, k - keep);
                    if (g == -HUGE_VAL)
                        continue;
                    if (vn + g > best)
                        best = vn + g;
                }
                *cell(d, j, c, k) = best;
            }
    }
}

/* Chooses the counts by the tie-break rule from the filled table.
 * Returns 0, or -1 when no choice fits the pool (only possible under a
 * cap, which can forbid a job to stop). */
static int choose(const struct dp *d, double tol, int *counts)
{
    double zmax = -HUGE_VAL, target;
    size_t S = 0, Kb = 0;
    int found = 0;

    for (size_t c = 0; c <= d->C; c++)
        for (size_t k = 0; k <= d->K; k++)
            if (*cell(d, 0, c, k) > zmax)
                zmax = *cell(d, 0, c, k);
    if (zmax == -HUGE_VAL)
        return -1;
    target = zmax - tol;
    /* most keeps, then fewest nodes */
    for (size_t k = d->K + 1; k-- > 0 && !found;)
        for (size_t c = 0; c <= d->C; c++)
            if (*cell(d, 0, c, k) >= target) {
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
            g = *cell(d, j + 1, S - (size_t)n, Kb - keep);
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

static int dp_solve(void *state, const struct alloc_problem *p,
                    struct alloc_result *res, struct bfs_error *e)
{
    double t0 = bfs_now();
    struct dp d = {.p = p, .nj = p->n_jobs};
    size_t cells, sumhi = 0;
    int status = ALLOC_OPTIMAL;

    (void)state;
    (void)e;
    d.hi = xcalloc(d.nj + 1, sizeof *d.hi);
    d.keepable = xcalloc(d.nj + 1, sizeof *d.keepable);
    d.v = xreallocarray(NULL, (d.nj + 1) * ((size_t)p->pool + 1), sizeof *d.v);
    for (size_t j = 0; j < d.nj; j++) {
        d.hi[j] = -1;
        for (int n = 0; n <= p->pool; n++) {
            int ok = n <= p->jobs[j].jmax && alloc_admissible(p, j, n);
            d.v[j * ((size_t)p->pool + 1) + (size_t)n] =
                ok ? alloc_value(p, j, n) : -HUGE_VAL;
            if (ok)
                d.hi[j] = n;
        }
        if (d.hi[j] < 0)
            status = ALLOC_INFEASIBLE; /* no admissible count (the cap) */
        else
            sumhi += (size_t)d.hi[j];
        d.keepable[j] = alloc_admissible(p, j, p->jobs[j].cur);
        d.K += (size_t)d.keepable[j];
    }
    d.C = sumhi < (size_t)p->pool ? sumhi : (size_t)p->pool;
    cells = (d.nj + 1) * (d.C + 1) * (d.K + 1);
    if (status == ALLOC_OPTIMAL && cells > DP_MAX_CELLS)
        status = ALLOC_FAILED;
    if (status == ALLOC_OPTIMAL) {
        d.G = xreallocarray(NULL, cells, sizeof *d.G);
        fill(&d);
        if (choose(&d, alloc_tie_tol(p), res->counts) == 0)
            res->objective = res->bound = alloc_objective(p, res->counts);
        else
            status = ALLOC_INFEASIBLE;
        xfree(d.G);
    }
    res->status = status;
    res->build_s = 0.0;
    res->solve_s = bfs_now() - t0;
    res->rows = res->cols = res->nnz = 0;
    xfree(d.v);
    xfree(d.keepable);
    xfree(d.hi);
    return 0;
}

const struct alloc_ops alloc_dp_ops = {
    .name = "dp",
    .create = dp_create,
    .solve = dp_solve,
    .destroy = dp_destroy,
};
