/* alloc/milp_count.c - the count model of the MILP allocator (one type
 * and node types) and the stages that enforce the tie-break rule, for
 * both models: stage 1 on the model chosen, stages 2 and 3 on the count
 * model.  Uses milp_base.c only; milp_alloc.c calls it.
 *
 * The models' objective is scaled: a coefficient is a value divided by
 * the tie tolerance, so that "a tie" is one unit whatever the instance.
 *
 * - count: one binary y[j,n] per job and admissible count, objective
 *   v_j(n) (Tfwd O_j(n) minus the rescale cost, folded per column), one
 *   choice row per job (sum_n y[j,n] = 1) and one capacity row
 *   (sum n y[j,n] <= N).  Its relaxation is tight: it runs at
 *   SOLVER_EFFORT_LIGHT (CBC without preprocessing, cuts and heuristics,
 *   GLPK without its presolver), stage 1 on CBC with a start at
 *   SOLVER_EFFORT_PROVE (one pass of root cuts).  With start=yes (the
 *   default) it starts from dp's optimum, y[j,n] = [n == dp's n_j], on
 *   both backends (GLPK takes a start at that effort): the solver's work
 *   is then the proof (the bound), which is what took most of its time
 *   without the start.  With the start, the model also leaves out the
 *   counts that no allocation within the tie tolerance of the optimum
 *   can use (reduced-cost fixing, count_fixing(), with dp's value as
 *   the incumbent's: the test dp's own pruning makes, see alloc/dp.c;
 *   the margin is 3 tolerances): the model keeps every allocation of the
 *   tie set, so every stage has the same answer, and its bound is still
 *   a bound of the whole model.  On the Summit replays the rescale costs
 *   leave one or two counts a job: 42 columns instead of 527 on average
 *   with the 1000-job set.
 *
 * - count with node types (p->n_types > 1; alloc/objective.h): one binary
 *   y[j,t,n] per job, type it can run on and admissible count there (and
 *   one y[j,0] for count 0), objective v_j(t, n), one choice row per job
 *   and one capacity row per type (sum_{j,n} n y[j,t,n] <= N_t).  With
 *   start=yes it starts from the typed dp's optimum when dp takes the
 *   instance (within its table's bound, alloc/dp_types.c), and then
 *   leaves out the options (t, n), count 0 included, whose loss at the
 *   fixing's prices (one per type: alloc_lagr_init, objective.h) exceeds
 *   L - z + 3 tol, z dp's value and L the fixing's Lagrangian bound:
 *   every allocation of value >= z - 3 tol, the tie set included, keeps
 *   all its options (the bound's argument, objective.h), and z is
 *   feasible, so the model has the same optimum, the same tie set and
 *   the same answer at every stage, and its bound is still a bound of
 *   the whole model.  On the two-type Summit replay's first 315 events
 *   the largest model has 255 columns, against 1,290 whole.  When dp
 *   refuses the instance (past its bound) or does not reach its optimum,
 *   the whole model is solved without a start.
 * *
 * Stages (each a fresh model and a fresh solve; the time limit covers
 * them all; each is solved by the solver whatever dp found: dp's answer
 * is a start, never a result):
 *   1. maximise the objective with the chosen model: z = alloc_objective
 *      of the counts found.  A limit here ends the solve (FEASIBLE or
 *      NO_SOLUTION).
 *   2. on the count model (the rule is about counts, and both models
 *      admit exactly the same count vectors, with node types the same
 *      (type, count) pairs, so the node model need not
 *      be solved three times: 3-4x faster), add the tie row "objective >=
 *      z - tol" and maximise A * keeps - B * nodes + W, integer weights
 *      with A > the range of the rest and B > the range of W (dp's
 *      optimum, with a start, starts it when it is in the tie set, which
 *      it is unless stage 1 found better by more than the gap); W = sum_j
 *      w_j r_j(n_j), r_j(n) the rank of n among job j's counts in the
 *      model, is the exact lexicographic order (w_j = prod_{i>j} k_i, k_i
 *      job i's number of counts) when the whole objective stays below
 *      LEX_EXACT_MAX, else a hint (w_j = J - j); see lex_weights().
 *   3. unless W was exact: while a count vector with the same keeps and
 *      nodes, in the tie set, lexicographically after the incumbent
 *      exists (binaries d_j mark the first job that differs, tied to the
 *      y[j,n] binaries without big-M), take it.  An infeasible answer
 *      proves the incumbent is the rule's choice.
 * With node types the rule has a fifth key, the smallest types: W also
 * orders the types below the counts (lex_weights), and a certificate
 * also admits the same counts with, at the first job whose type
 * differs, a smaller type (binaries e_j, build_cert).
 * Every candidate is checked exactly (admissible counts within the pool,
 * alloc_objective >= z - tol, a strictly better tie-break key) before it
 * replaces the incumbent, so a numerically wrong answer from a solver
 * cannot make the result worse than stage 1's.  If a later stage fails
 * or runs out of time, the incumbent is still optimal in objective and is
 * returned as OPTIMAL: only the tie-break is then unproven.
 *
 * The agreement of all exact methods assumes the stage-1 gap is small
 * against the tie tolerance: the absolute gap given to the solver is
 * never above a tenth of it, and the relative gap is the user's (default
 * 1e-8).
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/milp_impl.h"
#include "alloc/objective.h"
#include "solver/milp.h"
#include "solver/solver.h"
#include "base/util.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* sum_j of job j's smallest maximiser of v_j(n) - lambda n (v: nj rows
 * of W, -HUGE_VAL at inadmissible counts), with each maximum in phi[j]. */
static long lagrange(const double *v, size_t nj, size_t W, const int *hi,
                     double lambda, double *phi)
{
    long sum = 0;

    for (size_t j = 0; j < nj; j++) {
        double best = -HUGE_VAL;
        int at = 0;
        for (int n = 0; n <= hi[j]; n++) {
            double x = v[j * W + (size_t)n];
            if (x != -HUGE_VAL && x - lambda * n > best) {
                best = x - lambda * n;
                at = n;
            }
        }
        phi[j] = best;
        sum += at;
    }
    return sum;
}

/* The Lagrangian bound lambda pool + sum_j phi_j (phi as lagrange()). */
static double lagrange_bound(const double *v, size_t nj, size_t W,
                             const int *hi, double lambda, int pool,
                             double *phi)
{
    double L = lambda * pool;

    lagrange(v, nj, W, hi, lambda, phi);
    for (size_t j = 0; j < nj; j++)
        L += phi[j];
    return L;
}

/* Reduced-cost fixing of the count model (see the top): sets to
 * -HUGE_VAL, in job j's row of v (W = a->ystride values, v_j(n) or
 * -HUGE_VAL at inadmissible counts), the counts that no allocation of
 * value >= zlb - 3 tol can use, zlb the value of a feasible allocation.
 * For any lambda >= 0, an allocation n within the pool has value <= L -
 * sum_j l_j(n_j), with phi_j = max_n v_j(n) - lambda n, the losses l_j(n)
 * = phi_j - (v_j(n) - lambda n) >= 0 and L = lambda pool + sum_j phi_j;
 * so a count of loss above L - zlb + 3 tol is on no such allocation.
 * lambda is found by bisection on the sign of L's slope, pool - sum_j
 * n_j(lambda) (the smallest maximiser of each job): any lambda is a
 * valid test, the best one drops the most. */
static void count_fixing(const struct amodel *a, int pool, double zlb,
                         double *v)
{
    size_t nj = a->nj, W = a->ystride;
    double *phi = xcalloc(nj + 1, sizeof *phi);
    double lo = 0.0, hi = 0.0, lambda, L, delta;

    for (size_t j = 0; j < nj; j++) {
        double vmin = HUGE_VAL, vmax = -HUGE_VAL;
        for (int n = 0; n <= a->hi[j]; n++) {
            double x = v[j * W + (size_t)n];
            if (x == -HUGE_VAL)
                continue;
            vmin = x < vmin ? x : vmin;
            vmax = x > vmax ? x : vmax;
        }
        /* above this slope every job's smallest count is its maximiser */
        if (vmax - vmin + 1.0 > hi)
            hi = vmax - vmin + 1.0;
    }
    lambda = lagrange(v, nj, W, a->hi, 0.0, phi) <= pool ? 0.0 : -1.0;
    for (int it = 0; lambda < 0.0 && it < 64; it++) {
        double mid = 0.5 * (lo + hi);
        if (lagrange(v, nj, W, a->hi, mid, phi) > pool)
            lo = mid;
        else
            hi = mid;
    }
    if (lambda < 0.0) /* the better of the bracket's ends */
        lambda = lagrange_bound(v, nj, W, a->hi, lo, pool, phi) <
                         lagrange_bound(v, nj, W, a->hi, hi, pool, phi)
                     ? lo
                     : hi;
    L = lagrange_bound(v, nj, W, a->hi, lambda, pool, phi);
    delta = L - zlb + 3.0 * a->unit;
    for (size_t j = 0; j < nj; j++)
        for (int n = 0; n <= a->hi[j]; n++) {
            double *x = &v[j * W + (size_t)n];
            if (phi[j] - (*x - lambda * n) > delta)
                *x = -HUGE_VAL;
        }
    xfree(phi);
}

/* The count model's value table of p (see count_values in
 * alloc/milp_impl.h). */
double *count_values(const struct alloc_problem *p, struct amodel *a,
                     double zlb)
{
    size_t W = 1, nt = a->nt, cells;
    double *v;

    for (size_t j = 0; j < a->nj; j++)
        if ((size_t)a->hi[j] + 1 > W)
            W = (size_t)a->hi[j] + 1;
    a->ystride = W;
    cells = a->nj * nt * W + 1;
    v = xreallocarray(NULL, cells, sizeof *v);
    alloc_values_t(p, W, v);
    v[cells - 1] = -HUGE_VAL; /* the spare cell, never a column */
    if (zlb > -HUGE_VAL && nt == 1)
        count_fixing(a, p->pool, zlb, v);
    else if (zlb > -HUGE_VAL) {
        struct alloc_lagr g;
        alloc_lagr_init(&g, p, W, v);
        alloc_lagr_fix(&g, zlb, a->unit, v);
        alloc_lagr_release(&g);
    }
    return v;
}

/* The count model of p; with zlb > -HUGE_VAL (a feasible allocation's
 * value), without the counts count_fixing() rules out (one type) or the
 * options alloc_lagr_fix() does (node types: see the top).  With node
 * types: a column per job, type and admissible count (count 0 once, at
 * type 0) and a capacity row per type. */
void count_build(const struct alloc_problem *p, struct amodel *a, double zlb)
{
    struct milp *m = &a->m;
    size_t *first = xcalloc(a->nj + 1, sizeof *first), nt = a->nt;
    double *v = count_values(p, a, zlb);
    size_t W = a->ystride, cells = a->nj * nt * W + 1;

    a->ycol = xreallocarray(NULL, cells, sizeof *a->ycol);
    for (size_t i = 0; i < cells; i++)
        a->ycol[i] = -1;
    for (size_t j = 0; j < a->nj; j++) {
        first[j] = m->n_cols;
        for (int t = 0; t < (int)nt; t++)
            for (int n = 0; n <= a->hi[j]; n++) {
                size_t at = (j * nt + (size_t)t) * W + (size_t)n;
                int c;
                if (v[at] == -HUGE_VAL)
                    continue;
                c = milp_add_col(m, 0, 1, 1, v[at] / a->unit);
                a->ycol[at] = c;
                if (n > 0)
                    lexpr_add(&a->cnt[j], c, n);
                if (alloc_keeps_t(p, j, t, n))
                    lexpr_add(&a->keep[j], c, 1);
            }
    }
    first[a->nj] = m->n_cols;
    for (size_t j = 0; j < a->nj; j++) {
        milp_row_begin(m, 1, 1);
        for (size_t c = first[j]; c < first[j + 1]; c++)
            milp_row_add(m, (int)c, 1);
        milp_row_end(m);
    }
    if (nt == 1) {
        milp_row_begin(m, -HUGE_VAL, p->pool);
        for (size_t j = 0; j < a->nj; j++)
            lexpr_row(m, &a->cnt[j], 1);
        milp_row_end(m);
    }
    for (size_t t = 0; nt > 1 && t < nt; t++) {
        milp_row_begin(m, -HUGE_VAL, p->pools[t]);
        for (size_t j = 0; j < a->nj; j++)
            for (int n = 1; n <= a->hi[j]; n++) {
                int c = a->ycol[(j * nt + t) * W + (size_t)n];
                if (c >= 0)
                    milp_row_add(m, c, n);
            }
        milp_row_end(m);
    }
    xfree(v);
    xfree(first);
}

/* Sets the count model's start to counts n on types t (dp's optimum:
 * admissible counts within the pools; t not read with one type). */
void count_start(struct amodel *c, const int *n, const int *t)
{
    double *x = xcalloc(c->m.n_cols + 1, sizeof *x);

    for (size_t j = 0; j < c->nj; j++) {
        int col = amodel_ycol(c, j, c->nt > 1 ? t[j] : 0, n[j]);
        if (col < 0) { /* not a point of the model: no start */
            xfree(x);
            return;
        }
        x[col] = 1;
    }
    milp_set_start(&c->m, x);
    xfree(x);
}

/* Adds the tie row: stage-1 objective >= z - tol, in model units. */
static void add_tie_row(struct milp *m, const struct amodel *a, double z)
{
    mstage_tie_row(m, &a->m, a->unit, z);
}

/* The column of y[j,t,n] in the count model c, or -1; n <= c->hi[j]
 * (count 0 has a column at type 0 only). */
static int yat(const struct amodel *c, size_t j, size_t t, int n)
{
    return c->ycol[(j * c->nt + t) * c->ystride + (size_t)n];
}

/* The number of types job j can run on in the count model c (those with
 * a column of count > 0), at least 1; with rank[t] (nt entries) their
 * order, from 0 for the highest-numbered. */
static int type_ranks(const struct amodel *c, size_t j, int *rank)
{
    int m = 0;

    for (size_t t = c->nt; t-- > 0;) {
        rank[t] = -1;
        for (int n = 1; n <= c->hi[j] && rank[t] < 0; n++)
            if (amodel_ycol(c, j, (int)t, n) >= 0)
                rank[t] = m++;
    }
    return m > 0 ? m : 1;
}

/* Stage 2's order on the count model c: per column y[j,n], lex[col] =
 * w_j r_j(n), r_j(n) the rank of n among job j's counts in c (0 for the
 * smallest) and w_j the product of the numbers of counts of the later
 * jobs, so that W = sum of the chosen columns' lex is larger for the
 * lexicographically larger vector (w_j > sum_{i>j} w_i (k_i - 1)); then
 * A keeps - B nodes + W, B above W's range and A above the range of the
 * rest, orders the tie set by the rule's keys.  With node types, the
 * counts' part is scaled by Q = prod_j m_j (m_j the types job j can run
 * on) and a column y[j,t,n > 0] adds the rank of t among job j's types,
 * counted from the highest (so the smaller type weighs more), times
 * prod_{i>j} m_i: the fifth key below the fourth.  Returns 1 when that
 * order is exact (the objective's range within LEX_EXACT_MAX); else lex
 * is a hint on the counts (w_j from J - j down to 1, still by rank),
 * dropped when even that range exceeds LEX_HINT_MAX.  *A and *B receive
 * the weights. */
static int lex_weights(const struct amodel *c, const struct alloc_problem *p,
                       double *lex, double *A, double *B)
{
    size_t nj = c->nj, nt = c->nt;
    double P = 1, R = 0, K = 0, H = 0, q = 1;
    int *rank = xcalloc(nt, sizeof *rank), exact;

    memset(lex, 0, c->m.n_cols * sizeof *lex);
    for (size_t j = 0; nt > 1 && j < nj; j++)
        P *= type_ranks(c, j, rank);
    for (size_t j = nj; j-- > 0;) {
        int k = 0, lo = -1, hi = 0, cols = 0;
        for (int n = 0; n <= c->hi[j]; n++) {
            int any = 0;
            for (size_t t = 0; t < nt; t++) {
                int y = yat(c, j, t, n);
                if (y >= 0) {
                    lex[y] = k * P;
                    any = 1;
                    cols++;
                }
            }
            if (any) {
                k++;
                lo = lo < 0 ? n : lo;
                hi = n;
            }
        }
        P *= k;
        R += hi - lo;
        K += cols > 1 && c->keep[j].n > 0;
    }
    for (size_t j = nj; nt > 1 && j-- > 0;) {
        int m = type_ranks(c, j, rank);
        for (size_t t = 0; t < nt; t++)
            for (int n = 1; n <= c->hi[j]; n++)
                if (amodel_ycol(c, j, (int)t, n) >= 0)
                    lex[amodel_ycol(c, j, (int)t, n)] += rank[t] * q;
        q *= m;
    }
    xfree(rank);
    if (R > p->pool)
        R = p->pool;
    *B = P;
    *A = *B * (R + 1);
    exact = *A * (K + 1) <= LEX_EXACT_MAX;
    if (exact)
        return 1;
    for (size_t j = 0; j < nj; j++) {
        int k = 0;
        for (int n = 0; n <= c->hi[j]; n++) {
            int any = 0;
            for (size_t t = 0; t < nt; t++) {
                int y = yat(c, j, t, n);
                if (y >= 0) {
                    lex[y] = (double)(nj - j) * k;
                    any = 1;
                }
            }
            k += any;
        }
        H += (double)(nj - j) * (k - 1);
    }
    *B = H + 1;
    *A = *B * (R + 1);
    if (*A * (K + 1) > LEX_HINT_MAX) {
        memset(lex, 0, c->m.n_cols * sizeof *lex);
        *B = 1;
        *A = R + 1;
    }
    return 0;
}

/* Replaces m's objective (m: c's columns first) by A keeps - B nodes +
 * lex, with lex from lex_weights, less a constant: the column of y[j,t,n]
 * gets A [it keeps] - B (n - n0_j) + lex, n0_j job j's smallest count in
 * c, and 0 when that is job j's only column. */
static void set_secondary(struct milp *m, const struct amodel *c,
                          const struct alloc_problem *p, double A, double B,
                          const double *lex)
{
    memset(m->obj, 0, m->n_cols * sizeof *m->obj);
    m->obj_offset = 0.0;
    for (size_t j = 0; j < c->nj; j++) {
        int lo = -1, k = 0;
        for (int n = 0; n <= c->hi[j]; n++)
            for (size_t t = 0; t < c->nt; t++)
                if (yat(c, j, t, n) >= 0) {
                    lo = lo < 0 ? n : lo;
                    k++;
                }
        for (int n = lo; k > 1 && n <= c->hi[j]; n++)
            for (size_t t = 0; t < c->nt; t++) {
                int y = yat(c, j, t, n);
                if (y >= 0)
                    m->obj[y] = lex[y] + A * alloc_keeps_t(p, j, (int)t, n) -
                                B * (n - lo);
            }
    }
}

/* Adds to m's open row coef times Y[j,n], the sum of job j's columns of
 * count n in the count model c (over the types). */
static void count_cols(struct milp *m, const struct amodel *c, size_t j, int n,
                       double coef)
{
    for (size_t t = 0; t < c->nt; t++) {
        int y = yat(c, j, t, n);
        if (y >= 0)
            milp_row_add(m, y, coef);
    }
}

/* Whether job j has a column of count n in the count model c. */
static int has_count(const struct amodel *c, size_t j, int n)
{
    for (size_t t = 0; t < c->nt; t++)
        if (yat(c, j, t, n) >= 0)
            return 1;
    return 0;
}

/* The certificate model on the count model c: its rows, the tie row,
 * keeps = K and nodes = S of the incumbent (counts n on types t; t not
 * read with one type), and "after it by the rule" (objective: lex).
 * Returns -1 when the incumbent is not a point of c. */
static int build_cert(struct milp *m, const struct amodel *c,
                      const struct alloc_problem *p, double z, const int *n,
                      const int *t, const double *lex)
{
    size_t nj = c->nj, nt = c->nt;
    int *dcol = xcalloc(nj + 1, sizeof *dcol);
    int *ecol = xcalloc(nj + 1, sizeof *ecol);
    double K = 0, S = 0;

    for (size_t j = 0; j < nj; j++)
        if (amodel_ycol(c, j, nt > 1 ? t[j] : 0, n[j]) < 0) {
            xfree(ecol);
            xfree(dcol);
            return -1;
        }
    milp_copy(m, &c->m);
    milp_set_start(m, NULL); /* d_j columns follow; no start helps a proof
                                of infeasibility */
    add_tie_row(m, c, z);
    memcpy(m->obj, lex, c->m.n_cols * sizeof *lex);
    for (size_t j = 0; j < nj; j++) {
        K += alloc_keeps_t(p, j, nt > 1 ? t[j] : 0, n[j]);
        S += n[j];
    }
    milp_row_begin(m, K, K);
    for (size_t j = 0; j < nj; j++)
        lexpr_row(m, &c->keep[j], 1);
    milp_row_end(m);
    milp_row_begin(m, S, S);
    for (size_t j = 0; j < nj; j++)
        lexpr_row(m, &c->cnt[j], 1);
    milp_row_end(m);
    /* d_j: job j is the first to differ, and gains; the last job cannot
     * be first (the node total is fixed), nor a job without a larger
     * count; said with the y binaries, without big-M: sum_{k > n^_j}
     * Y[j,k] >= d_j, and Y[j,n^_j] >= sum_{i>j} d_i, Y[j,k] = y[j,k]
     * (with node types, the sum of y[j,u,k] over the types u).  With
     * node types also e_j (key 5): every count stays, and job j, with
     * nodes, is the first whose type changes, to a smaller one:
     * sum_{u < t^_j} y[j,u,n^_j] >= e_j; y[i,t^_i,n^_i] >= sum_{j>i} e_j
     * for the jobs i with nodes; each Y[i,n^_i] also >= sum_j e_j; and
     * sum_j d_j + sum_j e_j = 1. */
    for (size_t j = 0; j < nj; j++) {
        dcol[j] = -1;
        for (int k = n[j] + 1; j + 1 < nj && k <= c->hi[j]; k++)
            if (has_count(c, j, k)) {
                dcol[j] = milp_add_col(m, 0, 1, 1, 0);
                break;
            }
    }
    for (size_t j = 0; j < nj; j++) {
        ecol[j] = -1;
        for (int u = 0; nt > 1 && n[j] > 0 && u < t[j]; u++)
            if (yat(c, j, (size_t)u, n[j]) >= 0) {
                ecol[j] = milp_add_col(m, 0, 1, 1, 0);
                break;
            }
    }
    milp_row_begin(m, 1, 1);
    for (size_t j = 0; j < nj; j++)
        if (dcol[j] >= 0)
            milp_row_add(m, dcol[j], 1);
    for (size_t j = 0; j < nj; j++)
        if (ecol[j] >= 0)
            milp_row_add(m, ecol[j], 1);
    milp_row_end(m);
    for (size_t j = 0; j < nj; j++) {
        if (dcol[j] >= 0) {
            milp_row_begin(m, 0, HUGE_VAL);
            for (int k = n[j] + 1; k <= c->hi[j]; k++)
                count_cols(m, c, j, k, 1);
            milp_row_add(m, dcol[j], -1);
            milp_row_end(m);
        }
        milp_row_begin(m, 0, HUGE_VAL);
        count_cols(m, c, j, n[j], 1);
        for (size_t i = j + 1; i < nj; i++)
            if (dcol[i] >= 0)
                milp_row_add(m, dcol[i], -1);
        for (size_t i = 0; i < nj; i++)
            if (ecol[i] >= 0)
                milp_row_add(m, ecol[i], -1);
        milp_row_end(m);
    }
    for (size_t j = 0; j < nj; j++) {
        int later = 0;
        if (ecol[j] >= 0) {
            milp_row_begin(m, 0, HUGE_VAL);
            for (int u = 0; u < t[j]; u++)
                if (yat(c, j, (size_t)u, n[j]) >= 0)
                    milp_row_add(m, yat(c, j, (size_t)u, n[j]), 1);
            milp_row_add(m, ecol[j], -1);
            milp_row_end(m);
        }
        for (size_t i = j + 1; i < nj; i++)
            later |= ecol[i] >= 0;
        if (n[j] == 0 || !later)
            continue;
        milp_row_begin(m, 0, HUGE_VAL);
        milp_row_add(m, yat(c, j, (size_t)t[j], n[j]), 1);
        for (size_t i = j + 1; i < nj; i++)
            if (ecol[i] >= 0)
                milp_row_add(m, ecol[i], -1);
        milp_row_end(m);
    }
    xfree(ecol);
    xfree(dcol);
    return 0;
}

/* Accepts candidate counts c on types ct when feasible, within the tie
 * set and first by the tie-break keys; returns 1 if best (on types bt)
 * was replaced.  The types are not read with one type. */
int count_accept(const struct alloc_problem *p, double thr, const int *c,
                 const int *ct, int *best, int *bt)
{
    if (!alloc_feasible_t(p, c, ct) || !(alloc_objective_t(p, c, ct) >= thr))
        return 0;
    if (alloc_tie_cmp_t(p, c, ct, best, bt) <= 0)
        return 0;
    memcpy(best, c, p->n_jobs * sizeof *best);
    memcpy(bt, ct, p->n_jobs * sizeof *bt);
    return 1;
}

/* Solves p: stage 1 on a (the count or the node model), the tie-break
 * stages on c, the count model of p (which may be a itself). */
int count_solve(struct mstate *st, const struct alloc_problem *p,
                const struct amodel *a, const struct amodel *c,
                struct alloc_result *res, struct bfs_error *e)
{
    /* x also holds the certificates' d_j and e_j columns */
    size_t nj = a->nj, cols = c->m.n_cols + 2 * nj;
    double deadline = bfs_now() + st->base.time_limit, z, thr;
    double gap_abs = st->base.gap_abs / a->unit, A, B;
    double bound1 = HUGE_VAL, *x, *lex;
    int *best = xcalloc(nj + 1, sizeof *best);
    int *cand = xcalloc(nj + 1, sizeof *cand);
    int *best_t = xcalloc(nj + 1, sizeof *best_t); /* with node types */
    int *cand_t = xcalloc(nj + 1, sizeof *cand_t);
    /* with a start, the work is the proof: one pass of root cuts where
     * the backend keeps the start there (CBC; on the count model's first
     * 699 solves of the full Summit replay, 7% less CPU time) */
    int prove =
        a->m.start && solver_takes_start(st->solver, SOLVER_EFFORT_PROVE);
    int effort = prove    ? SOLVER_EFFORT_PROVE
                 : a == c ? SOLVER_EFFORT_LIGHT
                          : SOLVER_EFFORT_DEFAULT;
    int ss, exact, rc = 0;
    struct milp m2;

    if (a->m.n_cols > cols)
        cols = a->m.n_cols;
    x = xcalloc(cols + 1, sizeof *x);
    res->rows = a->m.n_rows;
    res->cols = a->m.n_cols;
    res->nnz = a->m.nnz;
    if (gap_abs > 0.1)
        gap_abs = 0.1;
    /* stage 1 */
    ss = mstage_first(st, &a->m, a->unit, gap_abs, effort, deadline, x, &bound1,
                      res, e, &rc);
    if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
        goto out;
    amodel_counts(a, x, best);
    if (a->tcol) /* the node model with node types: its indicators */
        amodel_node_types(a, x, best_t);
    else if (c->nt > 1) /* a is c */
        amodel_count_types(c, x, best_t);
    if (!alloc_feasible_t(p, best, best_t)) {
        res->status = SOLVE_FAILED; /* the solver's answer does not hold */
        goto out;
    }
    z = alloc_objective_t(p, best, best_t);
    thr = z - a->unit;
    if (ss != SOLVE_OPTIMAL || nj == 0)
        goto done;

    /* stage 2, on the count model: keeps, nodes and the lexicographic
     * order in one objective */
    lex = xcalloc(c->m.n_cols + 1, sizeof *lex);
    exact = lex_weights(c, p, lex, &A, &B);
    milp_copy(&m2, &c->m);
    milp_set_start(&m2, NULL);
    add_tie_row(&m2, c, z);
    set_secondary(&m2, c, p, A, B, lex);
    /* dp's optimum, when it is in the tie set, starts the search */
    if (c->m.start && milp_violation(&m2, c->m.start) <= 1e-9)
        milp_set_start(&m2, c->m.start);
    ss = mstage_run(st, &m2, c->unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline,
                    x, NULL, res, NULL);
    milp_release(&m2);
    if (ss == SOLVE_OPTIMAL || ss == SOLVE_FEASIBLE) {
        amodel_counts(c, x, cand);
        if (c->nt > 1)
            amodel_count_types(c, x, cand_t);
        count_accept(p, thr, cand, cand_t, best, best_t);
    }
    /* stage 3: certificates that no later vector ties */
    for (int round = 0;
         ss == SOLVE_OPTIMAL && !exact && nj > 1 && round < CERT_MAX_ROUNDS;
         round++) {
        if (build_cert(&m2, c, p, z, best, best_t, lex) != 0)
            break;
        ss = mstage_run(st, &m2, c->unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT,
                        deadline, x, NULL, res, NULL);
        milp_release(&m2);
        if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
            break; /* INFEASIBLE: proven; anything else: best effort */
        amodel_counts(c, x, cand);
        if (c->nt > 1)
            amodel_count_types(c, x, cand_t);
        if (!count_accept(p, thr, cand, cand_t, best, best_t))
            break;
        ss = SOLVE_OPTIMAL;
    }
    mstage_tie_end(ss, res);
    xfree(lex);
done:
    memcpy(res->counts, best, nj * sizeof *best);
    if (c->nt > 1)
        memcpy(res->types, best_t, nj * sizeof *best_t);
    res->objective = alloc_objective_t(p, best, best_t);
    /* stage 1's bound, back in objective units, never below the answer */
    res->bound = bound1 < HUGE_VAL ? bound1 * a->unit : HUGE_VAL;
    if (res->bound < res->objective)
        res->bound = res->objective;
out:
    xfree(cand_t);
    xfree(best_t);
    xfree(cand);
    xfree(best);
    xfree(x);
    return rc;
}
