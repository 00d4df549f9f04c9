/* alloc/dp_types.c - the exact dynamic programme with node types.
 *
 * dp (alloc/dp.c) hands every problem with p->n_types > 1 here.  Each job
 * j picks one option o = (t, n): count 0 (no type), or an admissible
 * count on a type it can use (alloc_admissible_t), of value v_j(t, n)
 * (alloc_value_t) and keep flag alloc_keeps_t.  The capacity is a vector:
 * the nodes used on each type.  A state s is such a vector, u_t in
 * 0..cap_t, cap_t = min(pools[t], sum over the jobs of their largest
 * count on t), numbered in mixed radix (type 0 the lowest digit): S =
 * prod_t (cap_t + 1) states.  K is the number of keepable jobs (those
 * with an option that keeps their holding).  The table is
 *
 *   G[j][s][k] = best sum_{i >= j} v_i over the options of jobs j..J-1
 *                using exactly state s and keeping exactly k jobs
 *
 * (-HUGE_VAL when none), filled from G[J][0][0] = 0 backwards, each entry
 * the largest of v_o + G[j+1][s - o][k - keep_o] over job j's options in
 * a fixed order (replaced only when strictly greater, so the doubles are
 * reproducible).  z* = max G[0]; target = z* - tol (alloc_tie_tol_t).
 *
 * Choosing by the tie-break rule (alloc/objective.h, keys 2-5):
 *   - Kb, the most keeps k with some G[0][s][k] >= target, then T, the
 *     fewest nodes (sum of s) among the states where G[0][s][Kb] does;
 *   - the counts (key 4): job by job, the largest count n such that some
 *     type and some completion reach the target with Kb keeps and T
 *     nodes.  The types are not fixed yet, so the prefix is a set of
 *     configurations (u, k): the state and keeps of jobs 0..j-1 for some
 *     types with the counts chosen; each carries the value its
 *     completion must still reach, R(u, k).  An option from (u, k) to
 *     (u', k') passes when v_o + g(u', k') >= R(u, k), g(u', k') being
 *     the best completion, max G[j+1][s'][Kb - k'] over the states s'
 *     with u' + s' within the caps and T nodes in all; (u', k') then
 *     needs min(R - v_o, g(u', k')) (the smallest over its ways in).
 *     The clamp to g, as in dp.c's choose(), keeps the next step from
 *     failing on a rounding: the entry g is, as filled, v + G[j+2][..]
 *     for some option of job j+1, which passes the same test;
 *   - the types (key 5), the counts now fixed: G is filled again with
 *     each job's options at its chosen count only, and the same walk
 *     takes, job by job, the smallest type that passes (from the one
 *     configuration left), starting from min(target, its best value with
 *     Kb keeps).
 * So the keys are applied in their order: all the counts before any
 * type, as key 5 comes after key 4 (choosing a job's count and type
 * together could give a later job fewer nodes).
 *
 * Cost.  Filling G takes J S O (K+1) steps, O the options of a job (at
 * most 1 + sum_t (Jmax - Jmin + 1)), twice.  Choosing computes each
 * g(u', k') once per job by a scan of the states of one node total: at
 * most J S^2 (K+1) steps, far fewer when few configurations stay alive
 * (usually one or a few).
 *
 * Memory bound.  G holds (J+1) S (K+1) doubles, at most DPT_MAX_ENTRIES
 * (2^24, 128 MiB); past it the solve is refused with BFS_ERANGE and a
 * message naming --allocator milp, which has no such bound.  The rest is
 * a few arrays of S (K+1) entries.
 *
 * Time limit: the work is counted and the clock read every DPT_CLOCK_WORK
 * units, as in dp.c.  Past the limit the solve returns its incumbent as
 * FEASIBLE: first a greedy allocation (every job keeping its holding
 * where that fits, else idle; then each job in turn takes its best
 * option within the room left), then, once G is filled, an optimum read
 * off G (only the tie-break then undecided).  The bound is z* when G is
 * filled, else the sum of the jobs' best values.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Most entries of G: 2^24 doubles, 128 MiB. */
#define DPT_MAX_ENTRIES ((size_t)1 << 24)

/* Work units between two readings of the clock (see dp.c). */
#define DPT_CLOCK_WORK ((size_t)1 << 16)

/* One choice of a job: count n on type t (t = -1 for n = 0). */
struct dpt_opt {
    int t, n;
    size_t keep; /* 1 when it keeps the job's holding */
    size_t d;    /* the state it uses: n in digit t */
    double v;    /* v_j(t, n) */
};

struct dpt {
    const struct alloc_problem *p;
    size_t nj, nt;
    int *cap;          /* nt: the largest state digit per type */
    size_t *radix;     /* nt: the weight of each digit */
    size_t S, K, L;    /* states, keepable jobs, L = K + 1 */
    int *dig;          /* S x nt: the digits of each state */
    int *tot;          /* S: the nodes of each state */
    size_t *bytot;     /* S: the states ordered by their nodes */
    size_t maxtot;     /* sum of cap: the most nodes of a state */
    size_t *totoff;    /* maxtot + 2: where each total starts in bytot */
    struct dpt_opt *o; /* every job's options, job after job */
    size_t *ooff;      /* nj + 1: job j's options are o[ooff[j]..] */
    double *G;         /* (nj + 1) x S x L */
    int Kb, T;         /* the keeps and nodes chosen */
    double limit, t0;
    size_t work, next;
    int expired;
    int *inc, *inct; /* the incumbent's counts and types */
    double zub;      /* sum of the jobs' best values */
};

/* Counts n units of work; 1 once the time is used up (see dp.c). */
static int spend(struct dpt *d, size_t n)
{
    d->work += n;
    if (d->work < d->next)
        return d->expired;
    d->next = d->work + DPT_CLOCK_WORK;
    if (!d->expired && bfs_now() - d->t0 > d->limit)
        d->expired = 1;
    return d->expired;
}

static double *g_row(const struct dpt *d, size_t j, size_t s)
{
    return &d->G[(j * d->S + s) * d->L];
}

/* The options of every job and the state space; the greedy incumbent.
 * Returns 0 or BFS_ERANGE past the bound. */
static int setup(struct dpt *d, struct bfs_error *e)
{
    const struct alloc_problem *p = d->p;
    size_t nt = d->nt, no = 0, maxtot = 0;
    long *room;

    d->cap = xcalloc(nt, sizeof *d->cap);
    d->radix = xcalloc(nt, sizeof *d->radix);
    d->ooff = xcalloc(d->nj + 1, sizeof *d->ooff);
    for (size_t j = 0; j < d->nj; j++) {
        no++;
        for (int t = 0; t < (int)nt; t++) {
            int top = 0;
            for (int n = 1; n <= p->jobs[j].jmax; n++)
                if (alloc_admissible_t(p, j, t, n)) {
                    no++;
                    top = n;
                }
            if ((long)d->cap[t] + top > p->pools[t])
                d->cap[t] = p->pools[t];
            else
                d->cap[t] += top;
        }
    }
    d->o = xcalloc(no + 1, sizeof *d->o);
    d->S = 1;
    for (size_t t = 0; t < nt; t++) {
        d->radix[t] = d->S;
        if (d->S > DPT_MAX_ENTRIES / ((size_t)d->cap[t] + 1))
            d->S = DPT_MAX_ENTRIES + 1;
        else
            d->S *= (size_t)d->cap[t] + 1;
        maxtot += (size_t)d->cap[t];
    }
    d->maxtot = maxtot;
    no = 0;
    d->K = 0;
    d->zub = 0.0;
    for (size_t j = 0; j < d->nj; j++) {
        size_t keepable = 0;
        double best;
        d->ooff[j] = no;
        d->o[no] = (struct dpt_opt){-1, 0, (size_t)alloc_keeps_t(p, j, -1, 0),
                                    0, alloc_value_t(p, j, -1, 0)};
        best = d->o[no].v;
        keepable |= d->o[no++].keep;
        for (int t = 0; t < (int)nt; t++)
            for (int n = 1; n <= p->jobs[j].jmax; n++)
                if (alloc_admissible_t(p, j, t, n)) {
                    struct dpt_opt *x = &d->o[no++];
                    x->t = t;
                    x->n = n;
                    x->keep = (size_t)alloc_keeps_t(p, j, t, n);
                    x->d = (size_t)n * d->radix[t];
                    x->v = alloc_value_t(p, j, t, n);
                    best = x->v > best ? x->v : best;
                    keepable |= x->keep;
                }
        d->K += keepable;
        d->zub += best;
    }
    d->ooff[d->nj] = no;
    d->L = d->K + 1;
    if (d->S > DPT_MAX_ENTRIES / d->L / (d->nj + 1))
        return bfs_fail(e, BFS_ERANGE,
                        "dp: %zu jobs on %zu node types need a table of "
                        "more than %zu entries (%zu MiB), the most dp takes "
                        "with node types; use --allocator milp",
                        d->nj, nt, DPT_MAX_ENTRIES,
                        DPT_MAX_ENTRIES * sizeof(double) >> 20);
    d->dig = xcalloc(d->S * nt, sizeof *d->dig);
    d->tot = xcalloc(d->S, sizeof *d->tot);
    d->bytot = xcalloc(d->S, sizeof *d->bytot);
    d->totoff = xcalloc(maxtot + 2, sizeof *d->totoff);
    for (size_t s = 0; s < d->S; s++) {
        size_t r = s;
        for (size_t t = 0; t < nt; t++) {
            d->dig[s * nt + t] = (int)(r % ((size_t)d->cap[t] + 1));
            r /= (size_t)d->cap[t] + 1;
            d->tot[s] += d->dig[s * nt + t];
        }
        d->totoff[d->tot[s] + 1]++;
    }
    for (size_t c = 0; c <= maxtot; c++)
        d->totoff[c + 1] += d->totoff[c];
    {
        size_t *at = xcalloc(maxtot + 1, sizeof *at);
        for (size_t s = 0; s < d->S; s++)
            d->bytot[d->totoff[d->tot[s]] + at[d->tot[s]]++] = s;
        xfree(at);
    }
    /* the greedy incumbent */
    room = xcalloc(nt, sizeof *room);
    for (size_t t = 0; t < nt; t++)
        room[t] = p->pools[t];
    for (size_t j = 0; j < d->nj; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        d->inc[j] = d->inct[j] = 0;
        if (jb->cur > 0 && alloc_admissible_t(p, j, jb->ctype, jb->cur) &&
            room[jb->ctype] >= jb->cur) {
            d->inc[j] = jb->cur;
            d->inct[j] = jb->ctype;
            room[jb->ctype] -= jb->cur;
        }
    }
    for (size_t j = 0; j < d->nj; j++) {
        int n0 = d->inc[j], t0 = d->inct[j];
        double best = alloc_value_t(p, j, t0, n0);
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++) {
            const struct dpt_opt *x = &d->o[i];
            long free = x->n == 0 ? 0 : room[x->t] + (x->t == t0 ? n0 : 0);
            if (x->n <= free && x->v > best) {
                best = x->v;
                d->inc[j] = x->n;
                d->inct[j] = x->t;
            }
        }
        if (n0 > 0)
            room[t0] += n0;
        if (d->inc[j] > 0)
            room[d->inct[j]] -= d->inc[j];
    }
    xfree(room);
    return 0;
}

/* Whether state s has room for option x on top of it. */
static int fits(const struct dpt *d, size_t s, const struct dpt_opt *x)
{
    return x->n == 0 || d->dig[s * d->nt + (size_t)x->t] + x->n <= d->cap[x->t];
}

/* Fills G with every option of each job, or with counts (not NULL) only
 * the options at counts[j].  Returns 0, or 1 when the time ran out. */
static int fill(struct dpt *d, const int *counts)
{
    size_t S = d->S, L = d->L;

    for (size_t s = 0; s < S; s++)
        for (size_t k = 0; k < L; k++)
            g_row(d, d->nj, s)[k] = -HUGE_VAL;
    g_row(d, d->nj, 0)[0] = 0.0;
    for (size_t j = d->nj; j-- > 0;) {
        for (size_t s = 0; s < S; s++) {
            double *row = g_row(d, j, s);
            for (size_t k = 0; k < L; k++)
                row[k] = -HUGE_VAL;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++) {
                const struct dpt_opt *x = &d->o[i];
                const double *src;
                if (counts && x->n != counts[j])
                    continue;
                if (x->n > 0 && d->dig[s * d->nt + (size_t)x->t] < x->n)
                    continue;
                src = g_row(d, j + 1, s - x->d);
                for (size_t k = x->keep; k < L; k++) {
                    double g = src[k - x->keep];
                    if (g != -HUGE_VAL && x->v + g > row[k])
                        row[k] = x->v + g;
                }
            }
            if (spend(d, (d->ooff[j + 1] - d->ooff[j]) * L + 1))
                return 1;
        }
    }
    return 0;
}

/* Makes an optimum read off the filled G the incumbent (see the top),
 * from its best entry G[0][s][k]. */
static void g_optimum(struct dpt *d, size_t s, size_t k)
{
    double target = g_row(d, 0, s)[k];

    for (size_t j = 0; j < d->nj; j++) {
        const struct dpt_opt *pick = NULL;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1] && !pick; i++) {
            const struct dpt_opt *x = &d->o[i];
            double g;
            if (x->n > 0 && d->dig[s * d->nt + (size_t)x->t] < x->n)
                continue;
            if (x->keep > k)
                continue;
            g = g_row(d, j + 1, s - x->d)[k - x->keep];
            if (g != -HUGE_VAL && x->v + g >= target) {
                pick = x;
                target = g;
            }
        }
        if (!pick)
            return; /* never: G[j][s][k] is one of these sums */
        d->inc[j] = pick->n;
        d->inct[j] = pick->t;
        s -= pick->d;
        k -= pick->keep;
    }
}

/* g(u, k) of the top for the walk at job j (the best completion by jobs
 * j..J-1 of configuration (u, k)), cached in gb (NaN: not yet known). */
static double best_completion(struct dpt *d, size_t j, size_t u, size_t k,
                              double *gb)
{
    double *g = &gb[u * d->L + k], best = -HUGE_VAL;
    long rem = (long)d->T - d->tot[u];

    if (!isnan(*g))
        return *g;
    if (rem >= 0 && (size_t)rem <= d->maxtot && (size_t)d->Kb >= k) {
        size_t kk = (size_t)d->Kb - k;
        for (size_t i = d->totoff[rem]; i < d->totoff[rem + 1]; i++) {
            size_t s = d->bytot[i], t;
            for (t = 0; t < d->nt; t++)
                if (d->dig[s * d->nt + t] + d->dig[u * d->nt + t] > d->cap[t])
                    break;
            if (t == d->nt && g_row(d, j, s)[kk] > best)
                best = g_row(d, j, s)[kk];
        }
        spend(d, d->totoff[rem + 1] - d->totoff[rem] + 1);
    }
    *g = best;
    return best;
}

/* One step of the walk at job j: from the configurations alive in R
 * (their requirements; HUGE_VAL: not alive), through the options of job j
 * with count n, and type t unless t < -1 (any type), into R2.  Returns
 * the number of configurations alive in R2. */
static size_t walk(struct dpt *d, size_t j, int n, int t, const double *R,
                   double *R2, double *gb)
{
    size_t alive = 0, SL = d->S * d->L;

    for (size_t i = 0; i < SL; i++)
        R2[i] = HUGE_VAL;
    for (size_t u = 0; u < d->S; u++)
        for (size_t k = 0; k < d->L; k++) {
            double r = R[u * d->L + k];
            if (r == HUGE_VAL)
                continue;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++) {
                const struct dpt_opt *x = &d->o[i];
                size_t u2 = u + x->d, k2 = k + x->keep;
                double g, need;
                if (x->n != n || (t >= -1 && x->t != t) || !fits(d, u, x) ||
                    k2 > (size_t)d->Kb)
                    continue;
                g = best_completion(d, j + 1, u2, k2, gb);
                if (g == -HUGE_VAL || !(x->v + g >= r))
                    continue;
                need = r - x->v < g ? r - x->v : g;
                if (R2[u2 * d->L + k2] == HUGE_VAL)
                    alive++;
                if (need < R2[u2 * d->L + k2])
                    R2[u2 * d->L + k2] = need;
            }
        }
    spend(d, SL);
    return alive;
}

/* The walk of the top from requirement r0 at the empty configuration:
 * with counts NULL, the largest passing count of each job in turn into
 * n[]; else the smallest passing type of each job at counts[j] into
 * t[].  Returns 0, 1 when the time ran out, -1 when no option passes
 * (never, see the top). */
static int choose(struct dpt *d, double r0, const int *counts, int *n, int *t)
{
    size_t SL = d->S * d->L;
    double *R = xmalloc(SL * sizeof *R), *R2 = xmalloc(SL * sizeof *R2);
    double *gb = xmalloc(SL * sizeof *gb);
    int rc = 0;

    for (size_t i = 0; i < SL; i++)
        R[i] = HUGE_VAL;
    R[0] = r0;
    for (size_t j = 0; j < d->nj && rc == 0; j++) {
        int found = 0;
        for (size_t i = 0; i < SL; i++)
            gb[i] = nan("");
        if (!counts) {
            int top = 0;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
                top = d->o[i].n > top ? d->o[i].n : top;
            for (int c = top; c >= 0 && !found && !d->expired; c--)
                if (walk(d, j, c, -2, R, R2, gb) > 0) {
                    n[j] = c;
                    found = 1;
                }
        } else if (counts[j] == 0) {
            found = walk(d, j, 0, -1, R, R2, gb) > 0;
            t[j] = -1;
        } else
            for (int c = 0; c < (int)d->nt && !found && !d->expired; c++)
                if (walk(d, j, counts[j], c, R, R2, gb) > 0) {
                    t[j] = c;
                    found = 1;
                }
        if (d->expired)
            rc = 1;
        else if (!found)
            rc = -1;
        else {
            double *x = R;
            R = R2;
            R2 = x;
        }
    }
    xfree(gb);
    xfree(R2);
    xfree(R);
    return rc;
}

/* The incumbent as the answer: FEASIBLE with the bound b. */
static int incumbent(struct dpt *d, double b, struct alloc_result *res)
{
    double z = alloc_objective_t(d->p, d->inc, d->inct);

    for (size_t j = 0; j < d->nj; j++) {
        res->counts[j] = d->inc[j];
        res->types[j] = d->inc[j] > 0 ? d->inct[j] : -1;
    }
    res->objective = z;
    res->bound = b > z ? b : z;
    return SOLVE_FEASIBLE;
}

/* The solve once set up: a status, or BFS_ERANGE. */
static int solve(struct dpt *d, struct alloc_result *res)
{
    double z = -HUGE_VAL, target, tol = alloc_tie_tol_t(d->p), zb = -HUGE_VAL;
    size_t zs = 0, zk = 0, SL = d->S * d->L;
    int *n = xcalloc(d->nj + 1, sizeof *n), *t = xcalloc(d->nj + 1, sizeof *t);
    int rc, status = SOLVE_OPTIMAL;

    if (fill(d, NULL)) {
        status = incumbent(d, d->zub, res);
        goto out;
    }
    for (size_t i = 0; i < SL; i++)
        if (d->G[i] > z) {
            z = d->G[i];
            zs = i / d->L;
            zk = i % d->L;
        }
    g_optimum(d, zs, zk);
    target = z - tol;
    d->Kb = -1;
    for (size_t s = 0; s < d->S; s++)
        for (size_t k = 0; k < d->L; k++)
            if (g_row(d, 0, s)[k] >= target &&
                ((int)k > d->Kb || ((int)k == d->Kb && d->tot[s] < d->T))) {
                d->Kb = (int)k;
                d->T = d->tot[s];
            }
    rc = choose(d, target, NULL, n, NULL);
    if (rc == 0 && fill(d, n) == 0) {
        for (size_t s = 0; s < d->S; s++)
            if (g_row(d, 0, s)[d->Kb] > zb)
                zb = g_row(d, 0, s)[d->Kb];
        rc = choose(d, zb < target ? zb : target, n, NULL, t);
    } else if (rc == 0)
        rc = 1;
    if (rc > 0) {
        status = incumbent(d, z, res);
        goto out;
    }
    if (rc < 0) {
        status = SOLVE_FAILED;
        goto out;
    }
    for (size_t j = 0; j < d->nj; j++) {
        res->counts[j] = n[j];
        res->types[j] = n[j] > 0 ? t[j] : -1;
    }
    res->objective = res->bound =
        alloc_objective_t(d->p, res->counts, res->types);
out:
    xfree(t);
    xfree(n);
    return status;
}

int alloc_dp_types_solve(const struct alloc_problem *p, double limit,
                         struct alloc_result *res, struct bfs_error *e)
{
    struct dpt d;
    int rc;

    memset(&d, 0, sizeof d);
    d.p = p;
    d.nj = p->n_jobs;
    d.nt = (size_t)p->n_types;
    d.limit = limit;
    d.t0 = bfs_now();
    d.inc = xcalloc(d.nj + 1, sizeof *d.inc);
    d.inct = xcalloc(d.nj + 1, sizeof *d.inct);
    rc = setup(&d, e);
    if (rc == 0) {
        d.G = xmalloc((d.nj + 1) * d.S * d.L * sizeof *d.G);
        rc = solve(&d, res);
        res->status = rc;
        rc = 0;
    }
    res->build_s = 0.0;
    res->solve_s = bfs_now() - d.t0;
    res->rows = res->cols = res->nnz = 0;
    xfree(d.G);
    xfree(d.inct);
    xfree(d.inc);
    xfree(d.totoff);
    xfree(d.bytot);
    xfree(d.tot);
    xfree(d.dig);
    xfree(d.ooff);
    xfree(d.o);
    xfree(d.radix);
    xfree(d.cap);
    return rc;
}
