/* alloc/milp.c - the MILP allocator: the count and node models of the
 * allocation problem, solved by any backend, with the tie-break rule of
 * alloc/objective.h enforced by lexicographic stages.
 *
 * Models (the objective is scaled: a coefficient is a value divided by
 * the tie tolerance, so that "a tie" is one unit whatever the instance):
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
 *
 * - count with spanning types (alloc_mixed(p), --mixed-types;
 *   alloc/objective.h): per job j, binaries y[j,n] for its total n (0,
 *   and Jmin..Jmax within the nodes it can use), an integer x[j,t] per
 *   type it can use (0..min(N_t, Jmax)) with sum_t x[j,t] = sum_n n
 *   y[j,n], indicators z[j,t] = [x[j,t] > 0] (x <= U z, z <= x); the
 *   binaries for n > 0 are split by the type that paces the job,
 *   w[j,t,n], priced at Tfwd O_{j,t}(n), with w[j,t,n] <= z[j,t] and
 *   w[j,t,n] + z[j,u] <= 1 for every type u slower than t at n: the
 *   gain is the slowest used type's, with no continuous column and no
 *   big-M (the brief's g_j <= ... + M (1 - z) form, which this
 *   replaces, is the same set of integer points).  The up and down
 *   indicators
 *   compare each type's count with the nodes held there (x - C_t <= (U -
 *   C_t) u_j, C_t - x <= C_t d_j; u and d priced at Tcup r_j and Tcdw
 *   r_j, so a type growing while another shrinks pays both), k_j <= 1 -
 *   u_j, 1 - d_j marks a kept holding (key 2), and each type has a
 *   capacity row.  Stage 1 maximises g - costs; stage 2 orders the tie
 *   set by keeps, nodes and the sequence of keys 4 and 5 (n_0 ..
 *   n_{J-1}, then every x[j,t]), exactly when the weights stay below
 *   LEX_EXACT_MAX, else by keeps and nodes with a hint, and certificates
 *   (a binary per element of the sequence: the first that grows, the
 *   earlier ones fixed) then take a lexicographically larger holding
 *   while one ties.  With start=yes it starts from the typed dp's
 *   optimum of the problem without spanning (one type per job, which
 *   this problem admits) where the backend takes a start (CBC; GLPK at
 *   SOLVER_EFFORT_LIGHT), without fixing any option.  The node model
 *   refuses spanning types (BFS_EUNSUP).
 *
 * - node: tools/DESIGN.md's node-level model without SOS: binary x[j,q] (node q
 *   to job j; the current map from p->owner, or each job's nodes placed
 *   on consecutive positions), at most one job per node, a running
 *   indicator s_j (Jmin s_j <= n_j <= Jmax s_j), exact up and down
 *   indicators u_j = [n_j > C_j], d_j = [n_j < C_j] priced at Tcup r_j and
 *   Tcdw r_j, and O_j(n_j) in the incremental (delta) formulation over the
 *   breakpoints of O_j (where its slope changes; with hints, of the
 *   gain h_j(n) O_j(n)): continuous fills
 *   delta_i in [0,1], binaries w_i with delta_{i+1} <= w_i <= delta_i.
 *   No migration: with G_j the nodes job j gains and L_j those it loses,
 *   a direction binary b_j and L_j <= C_j b_j, G_j <= (Nmax_j - C_j)(1 -
 *   b_j) (the correct big-M).  With a cap (p->cap > 0, the compatible
 *   mode) these are the published replayer's rows, 2 L_j <= M b_j and 2
 *   G_j <= M (1 - b_j) (its "Delta >= X - M b, Delta <= -X + M (1 - b)"
 *   with X = G + L), with M = N + 1 when cap = floor((N+1)/2), as there,
 *   and M = 2 cap + 1 for any other cap: either way every change is
 *   capped at floor(M/2) = cap nodes.  With start=yes (the default) on a
 *   backend that takes a start (CBC), the model carries a start point,
 *   dp's optimum on a map where every job keeps its own nodes
 *   (start_map), and rows give interchangeable jobs (same_job)
 *   non-increasing counts in index order, the start's counts sorted to
 *   fit; the backend runs with SOLVER_EFFORT_PROVE.
 *
 * - node with node types (tools/DESIGN.md, "The node model with types"):
 *   the positions' types from p->pos_type with p->owner, else blocks of
 *   pools[0] positions of type 0, pools[1] of type 1, ..., each job's
 *   nodes on consecutive positions of its type's block (node_owner_t).
 *   x[j,q] only where job j has an admissible count on q's type; per job
 *   and such type t, an indicator tau[j,t] (at most one set: one type at
 *   a time), its count n_t = sum of x[j,q] over the positions of type t
 *   within Jmin tau..min(Jmax, N_t) tau, and O_{j,t}(n_t) in the delta
 *   formulation over that type's breakpoints (hints are not read with
 *   types).  With c_j its current type and C_j its nodes, d_j = [n_c <
 *   C_j] and u_j = [n_c > C_j or a count on another type] (n_c + (C_j +
 *   1) n_other >= (C_j + 1) u_j bounds u from above), priced at Tcdw r_j
 *   and Tcup r_j, r_j = O_{j,c_j}(C_j) (0 below Jmin): a move sets both
 *   (its count on c_j is then 0), a stop and a start; a job without
 *   nodes has u_j = [n_j > 0] at no cost.  No migration holds on c_j's
 *   positions, with the rows above.  Interchangeable jobs (the same
 *   type held and tables on every type too) are ordered by count as
 *   above.  The start is typed dp's optimum (none when dp refuses the
 *   instance): a job keeps its first nodes when it stays on its type,
 *   and the growing ones take free or released nodes of their new type
 *   in pool order (start_map).  Stage 1 reads the types from tau
 *   (node_types_of); the stages after it run on the typed count model.
 *
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
#include "alloc/objective.h"
#include "solver/milp.h"
#include "solver/mps.h"
#include "solver/solver.h"
#include "base/util.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest stage-2 objective magnitude with exact lexicographic weights:
 * integers well inside what the solvers resolve (their integrality
 * tolerance is 1e-9). */
#define LEX_EXACT_MAX 16777216.0
/* Largest stage-2 objective magnitude with the hint weights (above it the
 * hint is dropped; keeps and nodes remain). */
#define LEX_HINT_MAX 1e12
/* At most this many certificate rounds (each strictly improves). */
#define CERT_MAX_ROUNDS 64

enum { MODEL_COUNT, MODEL_NODE };

struct mstate {
    char *name;              /* owned; the backend's name */
    struct solver *solver;   /* owned; kept from solve to solve, so that an
                                isolated one keeps its child process */
    int model;               /* MODEL_* */
    struct solver_opts base; /* time limit, gaps, threads, log, isolate */
    int start;               /* start=yes: both models (and stage 2) start
                                from the DP's optimum, where the backend
                                takes a start (solver_takes_start) */
    void *dp;                /* owned; that DP allocator, or NULL */
    char *mps_dir;           /* owned, or NULL: where models are written */
    char *tag;               /* owned, or NULL: their name (set_tag) */
    int mps_rc;              /* the first write's error in this call */
    struct bfs_error mps_e;  /* ... and its message */
};

/* ---- linear expressions ---------------------------------------------- */

struct lexpr {
    size_t n, cap;
    int *col;    /* owned */
    double *val; /* owned */
    double c0;
};

static void lexpr_add(struct lexpr *x, int col, double v)
{
    if (x->n == x->cap) {
        size_t cap = x->cap;
        BFS_GROW(x->col, cap, x->n + 1);
        cap = x->cap;
        BFS_GROW(x->val, cap, x->n + 1);
        x->cap = cap;
    }
    x->col[x->n] = col;
    x->val[x->n] = v;
    x->n++;
}

static void lexpr_release(struct lexpr *x)
{
    xfree(x->col);
    xfree(x->val);
    memset(x, 0, sizeof *x);
}

/* Adds coef * (x without its constant) to m's open row. */
static void lexpr_row(struct milp *m, const struct lexpr *x, double coef)
{
    for (size_t k = 0; k < x->n; k++)
        milp_row_add(m, x->col[k], coef * x->val[k]);
}

static double lexpr_eval(const struct lexpr *x, const double *sol)
{
    double v = x->c0;

    for (size_t k = 0; k < x->n; k++)
        v += x->val[k] * sol[x->col[k]];
    return v;
}

/* ---- models ---------------------------------------------------------- */

struct amodel {
    struct milp m; /* stage 1: maximise the scaled objective */
    size_t nj;
    struct lexpr *cnt;  /* owned, nj: n_j */
    struct lexpr *keep; /* owned, nj: [n_j == C_j] (alloc_keeps_t) */
    int *hi;            /* owned, nj: largest admissible n_j */
    double unit;        /* objective unit = the tie tolerance */
    size_t nt;          /* node types: p->n_types, 1 without types */
    /* count model only: ycol[(j * nt + t) * ystride + n] is the column of
     * y[j,t,n] (count n on type t; count 0 at t = 0 only), or -1; NULL
     * for the node model */
    int *ycol; /* owned */
    size_t ystride;
    /* node model with node types only: tcol[j * nt + t] is the column of
     * tau[j,t] (job j on type t), or -1; NULL otherwise */
    int *tcol; /* owned */
};

/* The column of y[j,t,n] in the count model c, or -1 (none, or n out of
 * range); n == 0 reads type 0's entry, whatever t. */
static int ycol_of(const struct amodel *c, size_t j, int t, int n)
{
    if (n < 0 || n > c->hi[j] || (n > 0 && (t < 0 || (size_t)t >= c->nt)))
        return -1;
    return c
        ->ycol[(j * c->nt + (n > 0 ? (size_t)t : 0)) * c->ystride + (size_t)n];
}

static void amodel_init(struct amodel *a, const struct alloc_problem *p)
{
    memset(a, 0, sizeof *a);
    milp_init(&a->m, 1);
    a->nj = p->n_jobs;
    a->cnt = xcalloc(a->nj + 1, sizeof *a->cnt);
    a->keep = xcalloc(a->nj + 1, sizeof *a->keep);
    a->hi = xcalloc(a->nj + 1, sizeof *a->hi);
    a->unit = alloc_tie_tol_t(p);
    a->nt = alloc_typed(p) ? (size_t)p->n_types : 1;
    for (size_t j = 0; j < a->nj; j++) {
        a->hi[j] = -1;
        for (int n = 0; n <= p->jobs[j].jmax; n++)
            for (int t = 0; t < (int)a->nt; t++)
                if (alloc_admissible_t(p, j, t, n))
                    a->hi[j] = n;
    }
}

static void amodel_release(struct amodel *a)
{
    for (size_t j = 0; j < a->nj; j++) {
        lexpr_release(&a->cnt[j]);
        lexpr_release(&a->keep[j]);
    }
    xfree(a->tcol);
    xfree(a->ycol);
    xfree(a->hi);
    xfree(a->keep);
    xfree(a->cnt);
    milp_release(&a->m);
}

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

/* The count model of p; with zlb > -HUGE_VAL (a feasible allocation's
 * value), without the counts count_fixing() rules out (one type) or the
 * options alloc_lagr_fix() does (node types: see the top).  With node
 * types: a column per job, type and admissible count (count 0 once, at
 * type 0) and a capacity row per type. */
static void build_count(const struct alloc_problem *p, struct amodel *a,
                        double zlb)
{
    struct milp *m = &a->m;
    size_t *first = xcalloc(a->nj + 1, sizeof *first), W = 1, nt = a->nt;
    size_t cells;
    double *v;

    for (size_t j = 0; j < a->nj; j++)
        if ((size_t)a->hi[j] + 1 > W)
            W = (size_t)a->hi[j] + 1;
    a->ystride = W;
    cells = a->nj * nt * W + 1;
    a->ycol = xreallocarray(NULL, cells, sizeof *a->ycol);
    v = xreallocarray(NULL, cells, sizeof *v);
    for (size_t i = 0; i < cells; i++)
        a->ycol[i] = -1;
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
static void count_start(struct amodel *c, const int *n, const int *t)
{
    double *x = xcalloc(c->m.n_cols + 1, sizeof *x);

    for (size_t j = 0; j < c->nj; j++) {
        int col = ycol_of(c, j, c->nt > 1 ? t[j] : 0, n[j]);
        if (col < 0) { /* not a point of the model: no start */
            xfree(x);
            return;
        }
        x[col] = 1;
    }
    milp_set_start(&c->m, x);
    xfree(x);
}

/* node_owner with node types: p->owner and p->pos_type copied (checked
 * by alloc_problem_check), or the positions in blocks of pools[0] nodes
 * of type 0, pools[1] of type 1, ..., each job's nodes on consecutive
 * positions of its type's block, in job order. */
static int node_owner_t(const struct alloc_problem *p, int *owner, int *ptype,
                        struct bfs_error *e)
{
    int nt = p->n_types, *next = xcalloc((size_t)nt, sizeof *next), q = 0;
    int rc = 0;

    if (p->owner) {
        memcpy(owner, p->owner, (size_t)p->pool * sizeof *owner);
        memcpy(ptype, p->pos_type, (size_t)p->pool * sizeof *ptype);
        xfree(next);
        return 0;
    }
    for (int t = 0; t < nt; t++) {
        next[t] = q;
        for (int k = 0; k < p->pools[t]; k++, q++) {
            ptype[q] = t;
            owner[q] = -1;
        }
    }
    for (size_t j = 0; j < p->n_jobs && rc == 0; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        int t = jb->ctype;
        if (jb->cur == 0)
            continue;
        for (int k = 0; k < jb->cur; k++) {
            if (next[t] >= p->pool || ptype[next[t]] != t) {
                rc = bfs_fail(e, BFS_EINVAL,
                              "node model: the jobs hold more nodes of type "
                              "%d than its pool has, %d",
                              t, p->pools[t]);
                break;
            }
            owner[next[t]++] = (int)j;
        }
    }
    xfree(next);
    return rc;
}

/* The current map as owner[q], and the type of each position as
 * ptype[q], for every pool position: with one type, p->owner checked
 * against the counts, or each job's nodes on consecutive positions, all
 * of type 0; with node types, node_owner_t. */
static int node_owner(const struct alloc_problem *p, int *owner, int *ptype,
                      struct bfs_error *e)
{
    long sum = 0;
    int *held;
    int q = 0;

    if (alloc_typed(p))
        return node_owner_t(p, owner, ptype, e);
    for (int i = 0; i < p->pool; i++)
        ptype[i] = 0;
    for (size_t j = 0; j < p->n_jobs; j++)
        sum += p->jobs[j].cur;
    if (sum > p->pool)
        return bfs_fail(e, BFS_EINVAL,
                        "node model: the jobs hold %ld nodes, the pool has "
                        "%d",
                        sum, p->pool);
    if (!p->owner) {
        for (int i = 0; i < p->pool; i++)
            owner[i] = -1;
        for (size_t j = 0; j < p->n_jobs; j++)
            for (int k = 0; k < p->jobs[j].cur; k++)
                owner[q++] = (int)j;
        return 0;
    }
    held = xcalloc(p->n_jobs + 1, sizeof *held);
    for (int i = 0; i < p->pool; i++) {
        int o = p->owner[i];
        if (o < -1 || o >= (int)p->n_jobs) {
            xfree(held);
            return bfs_fail(e, BFS_EINVAL,
                            "node model: node %d owned by job %d of %zu", i, o,
                            p->n_jobs);
        }
        owner[i] = o;
        if (o >= 0)
            held[o]++;
    }
    for (size_t j = 0; j < p->n_jobs; j++)
        if (held[j] != p->jobs[j].cur) {
            int h = held[j];
            xfree(held);
            return bfs_fail(e, BFS_EINVAL,
                            "node model: job %zu holds %d nodes in the map "
                            "but %d in its count",
                            j, h, p->jobs[j].cur);
        }
    xfree(held);
    return 0;
}

/* The node model under construction: its columns get their values in
 * the start point as they are added. */
struct nbuild {
    struct amodel *a;
    const int *n0; /* NULL, or the counts of the start point */
    const int *t0; /* with n0 and node types, its types; else NULL */
    double *start; /* owned; grown with the columns when n0 is set */
    size_t cap;
};

static int ncol(struct nbuild *b, int integer, double obj, double v)
{
    int c = milp_add_col(&b->a->m, 0, 1, integer, obj);

    if (b->n0) {
        BFS_GROW(b->start, b->cap, (size_t)c + 1);
        b->start[c] = v;
    }
    return c;
}

/* O_{j,t}(n) (O_j(n) with one type, t not read) in the incremental
 * formulation over its breakpoints on 0..nmax, tied to the count cnt
 * (job j's count on type t), which is n0 in the start point. */
static void node_pwl(const struct alloc_problem *p, size_t j, int t, int nmax,
                     const struct lexpr *cnt, int n0, struct nbuild *bld)
{
    const double *o = alloc_table_t(p, j, t);
    struct amodel *a = bld->a;
    struct milp *m = &a->m;
    int *bp = xcalloc((size_t)nmax + 2, sizeof *bp), nb = 0;
    int *delta;
    double *g = NULL;

    /* With hints the gain h_j(n) O_j(n) is the piecewise-linear function,
     * its breakpoints where its own slope changes (none with types). */
    if (!alloc_typed(p) && p->jobs[j].h) {
        g = xcalloc((size_t)nmax + 1, sizeof *g);
        for (int n = 0; n <= nmax; n++)
            g[n] = alloc_gain(p, j, n);
        o = g;
    }
    bp[nb++] = 0;
    for (int n = 1; n < nmax; n++)
        if (o[n + 1] - o[n] != o[n] - o[n - 1])
            bp[nb++] = n;
    bp[nb++] = nmax;
    delta = xcalloc((size_t)nb, sizeof *delta);
    for (int i = 0; i + 1 < nb; i++) {
        double fill = (double)(n0 - bp[i]) / (bp[i + 1] - bp[i]);
        double c =
            g ? g[bp[i + 1]] - g[bp[i]] : p->tfwd * (o[bp[i + 1]] - o[bp[i]]);
        delta[i] = ncol(bld, 0, c / a->unit,
                        fill < 0   ? 0
                        : fill > 1 ? 1
                                   : fill);
    }
    for (int i = 0; i + 2 < nb; i++) {
        int w = ncol(bld, 1, 0, n0 >= bp[i + 1]);
        milp_row_begin(m, -HUGE_VAL, 0); /* delta_{i+1} <= w_i */
        milp_row_add(m, delta[i + 1], 1);
        milp_row_add(m, w, -1);
        milp_row_end(m);
        milp_row_begin(m, -HUGE_VAL, 0); /* w_i <= delta_i */
        milp_row_add(m, w, 1);
        milp_row_add(m, delta[i], -1);
        milp_row_end(m);
    }
    milp_row_begin(m, 0, 0); /* n_j = sum len_i delta_i */
    lexpr_row(m, cnt, 1);
    for (int i = 0; i + 1 < nb; i++)
        milp_row_add(m, delta[i], -(double)(bp[i + 1] - bp[i]));
    milp_row_end(m);
    xfree(g);
    xfree(delta);
    xfree(bp);
}

/* 1 if jobs i and j are interchangeable: the same current count, bounds,
 * costs and curve up to their largest count in the pool; with node types,
 * the same current type (when they hold nodes) and the same table on
 * every type. */
static int same_job(const struct alloc_problem *p, size_t i, size_t j)
{
    const struct alloc_job *a = &p->jobs[i], *b = &p->jobs[j];
    int nmax = a->jmax < p->pool ? a->jmax : p->pool;

    if (a->cur != b->cur || a->jmin != b->jmin || a->jmax != b->jmax ||
        a->tcup != b->tcup || a->tcdw != b->tcdw)
        return 0;
    if (alloc_typed(p)) {
        if (a->cur > 0 && a->ctype != b->ctype)
            return 0;
        for (int t = 0; t < p->n_types; t++)
            if (!a->ot[t] != !b->ot[t] ||
                (a->ot[t] && memcmp(a->ot[t], b->ot[t],
                                    ((size_t)a->jmax + 1) * sizeof *a->ot[t])))
                return 0;
        return 1;
    }
    if (!a->h != !b->h)
        return 0;
    if (a->h && memcmp(a->h, b->h, ((size_t)nmax + 1) * sizeof *a->h))
        return 0;
    return memcmp(a->o, b->o, ((size_t)nmax + 1) * sizeof *a->o) == 0;
}

/* twin[j]: the last job before j interchangeable with it, or -1. */
static int *find_twins(const struct alloc_problem *p)
{
    int *twin = xcalloc(p->n_jobs + 1, sizeof *twin);

    for (size_t j = 0; j < p->n_jobs; j++) {
        twin[j] = -1;
        for (size_t i = j; i-- > 0;)
            if (same_job(p, i, j)) {
                twin[j] = (int)i;
                break;
            }
    }
    return twin;
}

/* The new map of the start point (counts n0, on types t0 with node
 * types; t0 and ptype, the positions' types, NULL with one type): each
 * job keeps its first min(n0, cur) nodes, none when it changes type,
 * then the growing ones take the free and released nodes of their type
 * in pool order (no job both gains and loses on its type). */
static void start_map(const struct alloc_problem *p, const int *owner,
                      const int *ptype, const int *n0, const int *t0, int *nown)
{
    int *kept = xcalloc(p->n_jobs + 1, sizeof *kept);
    int nt = t0 ? p->n_types : 1, *next = xcalloc((size_t)nt, sizeof *next);

    for (int i = 0; i < p->pool; i++) {
        int o = owner[i];
        nown[i] =
            o >= 0 && kept[o] < n0[o] && (!t0 || t0[o] == p->jobs[o].ctype)
                ? o
                : -1;
        if (nown[i] >= 0)
            kept[o]++;
    }
    for (size_t j = 0; j < p->n_jobs; j++) {
        int *q = &next[t0 && n0[j] > 0 ? t0[j] : 0];
        for (; kept[j] < n0[j]; kept[j]++) {
            while (nown[*q] >= 0 || (t0 && ptype[*q] != t0[j]))
                (*q)++;
            nown[*q] = (int)j;
        }
    }
    xfree(next);
    xfree(kept);
}

/* Whether job j may take nodes of type t in the node model: always with
 * one type; with node types, when it has an admissible count there. */
static int node_usable(const struct alloc_problem *p, size_t j, int t)
{
    return !alloc_typed(p) || alloc_admissible_t(p, j, t, p->jobs[j].jmin);
}

enum { SEL_ALL, SEL_OWN, SEL_OTHER };

/* Adds to m's open row coef times x[j,q] over the positions q that sel
 * selects: all, own (owner[q] == j) or other (owner[q] != j), of type t
 * only when t >= 0 (ptype[q], not read when t < 0); xc[q] is x[j,q]'s
 * column or -1 (job j's row of the columns). */
static void node_xrow(struct milp *m, const int *xc, const int *owner,
                      const int *ptype, int N, int j, int sel, int t,
                      double coef)
{
    for (int q = 0; q < N; q++)
        if (xc[q] >= 0 && (t < 0 || ptype[q] == t) &&
            (sel == SEL_ALL || (sel == SEL_OWN) == (owner[q] == j)))
            milp_row_add(m, xc[q], coef);
}

/* Job j's rows and columns in the node model with one type: the running
 * indicator, no migration (the cap's rows in the compatible mode), the
 * up and down indicators and the gain (see the top); n is its count in
 * the start point (0 without one), xc its row of x columns. */
static void node_job(const struct alloc_problem *p, int j, const int *owner,
                     const int *xc, int n, struct nbuild *nb)
{
    struct amodel *a = nb->a;
    struct milp *m = &a->m;
    const struct alloc_job *jb = &p->jobs[j];
    int N = p->pool, cur = jb->cur, nmax = jb->jmax < N ? jb->jmax : N;
    int s, u, d, b;

    /* n_j = 0 or jmin..nmax */
    s = ncol(nb, 1, 0, n > 0);
    milp_row_begin(m, 0, HUGE_VAL);
    lexpr_row(m, &a->cnt[j], 1);
    milp_row_add(m, s, -jb->jmin);
    milp_row_end(m);
    milp_row_begin(m, -HUGE_VAL, 0);
    lexpr_row(m, &a->cnt[j], 1);
    milp_row_add(m, s, -nmax);
    milp_row_end(m);

    /* no migration: L = cur - own, G = other */
    if (p->cap > 0 || cur > 0) {
        double M = p->cap == (N + 1) / 2 ? N + 1 : 2.0 * p->cap + 1;
        double ml = p->cap > 0 ? M : cur;        /* L <= ml/k b */
        double mg = p->cap > 0 ? M : nmax - cur; /* G <= mg/k (1-b) */
        double k = p->cap > 0 ? 2 : 1;
        b = ncol(nb, 1, 0, n < cur);
        /* k L <= ml b:  k own + ml b >= k cur */
        milp_row_begin(m, k * cur, HUGE_VAL);
        node_xrow(m, xc, owner, NULL, N, j, SEL_OWN, -1, k);
        milp_row_add(m, b, ml);
        milp_row_end(m);
        /* k G <= mg (1 - b):  k other + mg b <= mg */
        milp_row_begin(m, -HUGE_VAL, mg > 0 ? mg : 0);
        node_xrow(m, xc, owner, NULL, N, j, SEL_OTHER, -1, k);
        if (mg > 0)
            milp_row_add(m, b, mg);
        milp_row_end(m);
    }

    /* u = [n > cur], d = [n < cur], exactly */
    u = ncol(nb, 1, -alloc_cost_up(p, (size_t)j) / a->unit, n > cur);
    d = ncol(nb, 1, -alloc_cost_down(p, (size_t)j) / a->unit, n < cur);
    milp_row_begin(m, -HUGE_VAL, cur); /* n <= cur + (nmax-cur) u */
    lexpr_row(m, &a->cnt[j], 1);
    if (nmax - cur > 0)
        milp_row_add(m, u, -(nmax - cur));
    milp_row_end(m);
    milp_row_begin(m, 0, HUGE_VAL); /* n >= (cur+1) u */
    lexpr_row(m, &a->cnt[j], 1);
    milp_row_add(m, u, -(cur + 1));
    milp_row_end(m);
    milp_row_begin(m, -HUGE_VAL, nmax); /* n <= cur-1 + ... (1-d) */
    lexpr_row(m, &a->cnt[j], 1);
    milp_row_add(m, d, nmax - cur + 1);
    milp_row_end(m);
    if (cur > 0) {
        milp_row_begin(m, cur, HUGE_VAL); /* n >= cur (1 - d) */
        lexpr_row(m, &a->cnt[j], 1);
        milp_row_add(m, d, cur);
        milp_row_end(m);
    }
    a->keep[j].c0 = 1;
    lexpr_add(&a->keep[j], u, -1);
    lexpr_add(&a->keep[j], d, -1);

    if (nmax > 0)
        node_pwl(p, (size_t)j, 0, nmax, &a->cnt[j], n, nb);
}

/* Job j's rows and columns in the node model with node types (see the
 * top): an indicator tau[j,t] per type it can use, at most one set, the
 * count n_t on each type within jmin tau[j,t]..nmax_t tau[j,t], no
 * migration on its current type c, u = [n_c > C or n_o > 0] (n_o its
 * nodes of the other types) and d = [n_c < C] priced at Tcup r and Tcdw
 * r, and each type's gain over n_t.  (n, t) is its start point ((0, -1)
 * without one), xc its row of x columns. */
static void node_job_t(const struct alloc_problem *p, int j, const int *owner,
                       const int *ptype, const int *xc, int n, int t,
                       struct nbuild *nb)
{
    struct amodel *a = nb->a;
    struct milp *m = &a->m;
    const struct alloc_job *jb = &p->jobs[j];
    int N = p->pool, nt = p->n_types, cur = jb->cur, c = jb->ctype;
    int nc = t == c ? n : 0, no = t != c ? n : 0; /* the start's n_c, n_o */
    int nmax_c = cur, nmax_o = 0, nmax = 0, ntau = 0, *tau = &a->tcol[j * nt];
    /* r_j (the rescale costs; 0 for a job without nodes) */
    double r = cur >= jb->jmin ? jb->ot[c][cur] : 0.0;
    struct lexpr *cnt = xcalloc((size_t)nt, sizeof *cnt); /* n_t */
    int u, d = -1, b;

    for (int q = 0; q < N; q++)
        if (xc[q] >= 0)
            lexpr_add(&cnt[ptype[q]], xc[q], 1);
    for (int k = 0; k < nt; k++) {
        int top = jb->jmax < p->pools[k] ? jb->jmax : p->pools[k];
        tau[k] = -1;
        if (!node_usable(p, (size_t)j, k))
            continue;
        tau[k] = ncol(nb, 1, 0, n > 0 && t == k);
        ntau++;
        milp_row_begin(m, 0, HUGE_VAL); /* n_t >= jmin tau */
        lexpr_row(m, &cnt[k], 1);
        milp_row_add(m, tau[k], -jb->jmin);
        milp_row_end(m);
        milp_row_begin(m, -HUGE_VAL, 0); /* n_t <= nmax_t tau */
        lexpr_row(m, &cnt[k], 1);
        milp_row_add(m, tau[k], -top);
        milp_row_end(m);
        nmax = top > nmax ? top : nmax;
        if (cur > 0 && k == c)
            nmax_c = top; /* >= cur: the pool holds its nodes */
        else if (top > nmax_o)
            nmax_o = top;
    }
    if (ntau > 1) { /* one type at a time */
        milp_row_begin(m, -HUGE_VAL, 1);
        for (int k = 0; k < nt; k++)
            if (tau[k] >= 0)
                milp_row_add(m, tau[k], 1);
        milp_row_end(m);
    }

    if (cur > 0 && tau[c] >= 0) {
        /* no migration on type c: L = cur - own, G = other of type c */
        int mg = nmax_c - cur;
        b = ncol(nb, 1, 0, nc < cur);
        milp_row_begin(m, cur, HUGE_VAL); /* own + cur b >= cur */
        node_xrow(m, xc, owner, ptype, N, j, SEL_OWN, c, 1);
        milp_row_add(m, b, cur);
        milp_row_end(m);
        milp_row_begin(m, -HUGE_VAL, mg); /* other + mg b <= mg */
        node_xrow(m, xc, owner, ptype, N, j, SEL_OTHER, c, 1);
        if (mg > 0)
            milp_row_add(m, b, mg);
        milp_row_end(m);
    }

    if (cur > 0) {
        /* u = [n_c > cur or n_o > 0], d = [n_c < cur], exactly */
        u = ncol(nb, 1, -jb->tcup * r / a->unit, nc > cur || no > 0);
        d = ncol(nb, 1, -jb->tcdw * r / a->unit, nc < cur);
        milp_row_begin(m, -HUGE_VAL, cur); /* n_c <= cur + (..) u */
        lexpr_row(m, &cnt[c], 1);
        if (nmax_c - cur > 0)
            milp_row_add(m, u, -(nmax_c - cur));
        milp_row_end(m);
        if (nmax_o > 0) {
            milp_row_begin(m, -HUGE_VAL, 0); /* n_o <= nmax_o u */
            for (int k = 0; k < nt; k++)
                if (k != c)
                    lexpr_row(m, &cnt[k], 1);
            milp_row_add(m, u, -nmax_o);
            milp_row_end(m);
        }
        /* u <= [n_c >= cur + 1] + [n_o >= 1]:
         * n_c + (cur + 1) n_o >= (cur + 1) u */
        milp_row_begin(m, 0, HUGE_VAL);
        lexpr_row(m, &cnt[c], 1);
        for (int k = 0; k < nt; k++)
            if (k != c)
                lexpr_row(m, &cnt[k], cur + 1);
        milp_row_add(m, u, -(cur + 1));
        milp_row_end(m);
        milp_row_begin(m, -HUGE_VAL, nmax_c); /* n_c <= cur-1 + (1-d) */
        lexpr_row(m, &cnt[c], 1);
        milp_row_add(m, d, nmax_c - cur + 1);
        milp_row_end(m);
        milp_row_begin(m, cur, HUGE_VAL); /* n_c >= cur (1 - d) */
        lexpr_row(m, &cnt[c], 1);
        milp_row_add(m, d, cur);
        milp_row_end(m);
    } else {
        /* u = [n > 0], no cost (r = 0); d = 0 */
        u = ncol(nb, 1, 0, n > 0);
        if (nmax > 0) {
            milp_row_begin(m, -HUGE_VAL, 0); /* n <= nmax u */
            lexpr_row(m, &a->cnt[j], 1);
            milp_row_add(m, u, -nmax);
            milp_row_end(m);
        }
        milp_row_begin(m, 0, HUGE_VAL); /* n >= u */
        lexpr_row(m, &a->cnt[j], 1);
        milp_row_add(m, u, -1);
        milp_row_end(m);
    }
    a->keep[j].c0 = 1;
    lexpr_add(&a->keep[j], u, -1);
    if (d >= 0)
        lexpr_add(&a->keep[j], d, -1);

    for (int k = 0; k < nt; k++) {
        int top = jb->jmax < p->pools[k] ? jb->jmax : p->pools[k];
        if (tau[k] >= 0)
            node_pwl(p, (size_t)j, k, top, &cnt[k], t == k ? n : 0, nb);
        lexpr_release(&cnt[k]);
    }
    xfree(cnt);
}

/* Builds the node model into a; with n0 (feasible counts, on types t0
 * with node types, else NULL; or NULL), also its start point at those
 * counts and the rows that order interchangeable jobs. */
static int build_node(const struct alloc_problem *p, struct amodel *a,
                      const int *n0, const int *t0, struct bfs_error *e)
{
    struct milp *m = &a->m;
    int N = p->pool, J = (int)a->nj, typed = alloc_typed(p), rc;
    int *owner = xcalloc((size_t)N + 1, sizeof *owner);
    int *ptype = xcalloc((size_t)N + 1, sizeof *ptype);
    int *xc = xreallocarray(NULL, (size_t)J * (size_t)N + 1, sizeof *xc);
    int *nown = NULL, *twin = NULL, *n1 = NULL, *t1 = NULL;
    struct nbuild nb = {.a = a};

    rc = node_owner(p, owner, ptype, e);
    if (rc)
        goto out;
    assert(!n0 || !typed || t0);
    if (n0) {
        twin = find_twins(p);
        /* interchangeable jobs' counts (and types) in the order of their
         * rows */
        n1 = xcalloc((size_t)J + 1, sizeof *n1);
        memcpy(n1, n0, (size_t)J * sizeof *n1);
        if (typed) {
            t1 = xcalloc((size_t)J + 1, sizeof *t1);
            memcpy(t1, t0, (size_t)J * sizeof *t1);
        }
        for (int j = 0; j < J; j++)
            for (int i = j; twin[i] >= 0 && n1[twin[i]] < n1[i]; i = twin[i]) {
                int t = n1[i];
                n1[i] = n1[twin[i]];
                n1[twin[i]] = t;
                if (t1) {
                    t = t1[i];
                    t1[i] = t1[twin[i]];
                    t1[twin[i]] = t;
                }
            }
        nown = xcalloc((size_t)N + 1, sizeof *nown);
        start_map(p, owner, typed ? ptype : NULL, n1, t1, nown);
        nb.n0 = n1;
        nb.t0 = t1;
    }
    if (typed) {
        a->tcol = xreallocarray(NULL, (size_t)J * a->nt + 1, sizeof *a->tcol);
        for (size_t i = 0; i < (size_t)J * a->nt; i++)
            a->tcol[i] = -1;
    }
    /* x[j,q] where job j may use q's type (every q with one type) */
    for (int j = 0; j < J; j++)
        for (int q = 0; q < N; q++) {
            int c = -1;
            if (node_usable(p, (size_t)j, ptype[q])) {
                c = ncol(&nb, 1, 0, nown && nown[q] == j);
                lexpr_add(&a->cnt[j], c, 1);
            }
            xc[(size_t)j * (size_t)N + (size_t)q] = c;
        }
    for (int q = 0; q < N; q++) { /* at most one job a node */
        int k = 0;
        for (int j = 0; j < J; j++)
            k += xc[(size_t)j * (size_t)N + (size_t)q] >= 0;
        if (k < 2)
            continue;
        milp_row_begin(m, -HUGE_VAL, 1);
        for (int j = 0; j < J; j++)
            if (xc[(size_t)j * (size_t)N + (size_t)q] >= 0)
                milp_row_add(m, xc[(size_t)j * (size_t)N + (size_t)q], 1);
        milp_row_end(m);
    }
    for (int j = 0; j < J; j++) {
        const int *row = &xc[(size_t)j * (size_t)N];
        if (typed)
            node_job_t(p, j, owner, ptype, row, n1 ? n1[j] : 0, t1 ? t1[j] : -1,
                       &nb);
        else
            node_job(p, j, owner, row, n1 ? n1[j] : 0, &nb);
    }
    /* interchangeable jobs in non-increasing count order (with the start
     * only: without it they slowed GLPK down, from 0.2 s to over a minute
     * on some instances) */
    for (int j = 0; j < J && twin; j++)
        if (twin[j] >= 0) {
            milp_row_begin(m, 0, HUGE_VAL);
            lexpr_row(m, &a->cnt[twin[j]], 1);
            lexpr_row(m, &a->cnt[j], -1);
            milp_row_end(m);
        }
    if (n0) {
        milp_set_start(m, nb.start);
        /* a feasible point worth dp's objective, or a bug here */
        assert(milp_violation(m, m->start) < 1e-9);
        assert(fabs(milp_objective(m, m->start) * a->unit -
                    alloc_objective_t(p, n1, t1)) <= a->unit);
    }
out:
    xfree(nb.start);
    xfree(t1);
    xfree(n1);
    xfree(nown);
    xfree(twin);
    xfree(xc);
    xfree(ptype);
    xfree(owner);
    return rc;
}

/* ---- stages ----------------------------------------------------------- */

/* Reads the counts from a solution (rounded). */
static void counts_of(const struct amodel *a, const double *x, int *n)
{
    for (size_t j = 0; j < a->nj; j++)
        n[j] = (int)lround(lexpr_eval(&a->cnt[j], x));
}

/* Reads the types from a solution of the node model a with node types:
 * the type whose indicator is set, -1 for none (count 0). */
static void node_types_of(const struct amodel *a, const double *x, int *t)
{
    for (size_t j = 0; j < a->nj; j++) {
        t[j] = -1;
        for (size_t k = 0; k < a->nt; k++) {
            int c = a->tcol[j * a->nt + k];
            if (c >= 0 && x[c] > 0.5)
                t[j] = (int)k;
        }
    }
}

/* Reads the types from a solution of the count model c with node types:
 * the type of the column chosen, -1 for count 0. */
static void types_of(const struct amodel *c, const double *x, int *t)
{
    for (size_t j = 0; j < c->nj; j++) {
        t[j] = -1;
        for (int k = 0; k < (int)c->nt; k++)
            for (int n = 1; n <= c->hi[j]; n++)
                if (ycol_of(c, j, k, n) >= 0 && x[ycol_of(c, j, k, n)] > 0.5)
                    t[j] = k;
    }
}

/* Adds to m the tie row of the stage-1 model base (objective unit
 * unit): its objective >= z - tol, in model units. */
static void tie_row(struct milp *m, const struct milp *base, double unit,
                    double z)
{
    milp_row_begin(m, z / unit - 1.0 - base->obj_offset, HUGE_VAL);
    for (size_t i = 0; i < base->n_cols; i++)
        if (base->obj[i] != 0.0)
            milp_row_add(m, (int)i, base->obj[i]);
    milp_row_end(m);
}

/* Adds the tie row: stage-1 objective >= z - tol, in model units. */
static void add_tie_row(struct milp *m, const struct amodel *a, double z)
{
    tie_row(m, &a->m, a->unit, z);
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
            if (ycol_of(c, j, (int)t, n) >= 0)
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
                if (ycol_of(c, j, (int)t, n) >= 0)
                    lex[ycol_of(c, j, (int)t, n)] += rank[t] * q;
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
        if (ycol_of(c, j, nt > 1 ? t[j] : 0, n[j]) < 0) {
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

/* Writes m, the k-th MILP of the call, solved into r, as
 * mps_dir/TAG.K.mps, when models are asked for and tagged; keeps the
 * first error in st. */
static void write_model(struct mstate *st, const struct milp *m, size_t k,
                        const struct solve_result *r, double unit)
{
    char path[4096], name[256], comment[640];

    if (!st->mps_dir || !st->tag || st->mps_rc)
        return;
    snprintf(path, sizeof path, "%s/%s.%zu.mps", st->mps_dir, st->tag, k);
    snprintf(name, sizeof name, "%s.%zu", st->tag, k);
    snprintf(comment, sizeof comment,
             "bfsim %s: MILP %zu of an allocation (1: the objective, %s "
             "model; 2: the tie-break, count model; 3 on: tie-break "
             "certificates)\n"
             "solved by %s: %s, objective %.17g (the model's own, in units "
             "of the tie tolerance %.17g)",
             PACKAGE_VERSION, k, st->model == MODEL_NODE ? "node" : "count",
             st->name, solve_status_name(r->status),
             r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE
                 ? r->objective
                 : nan(""),
             unit);
    st->mps_rc = mps_write(m, path, name, comment, &st->mps_e);
}

/* One stage: solves m with the given gaps within the time left.  Returns
 * the solve status (SOLVE_NO_SOLUTION when no time is left, -1 when the
 * solver could not be run, reported in e), stores the solver's bound in
 * *bound (if not NULL), adds the times to res and writes m (write_model),
 * whose objective unit is unit. */
static int run_stage(struct mstate *st, const struct milp *m, double unit,
                     double gap_rel, double gap_abs, int effort,
                     double deadline, double *x, double *bound,
                     struct alloc_result *res, struct bfs_error *e)
{
    struct solver_opts o = st->base;
    struct solve_result r;

    o.gap_rel = gap_rel;
    o.gap_abs = gap_abs;
    o.effort = effort;
    o.time_limit = deadline - bfs_now();
    if (!(o.time_limit > 0))
        return SOLVE_NO_SOLUTION;
    if (solver_set_opts(st->solver, &o, e) != 0)
        return -1;
    memset(&r, 0, sizeof r);
    r.x = x;
    if (solver_solve(st->solver, m, &r, e) != 0)
        return -1;
    write_model(st, m, res->mip_solves + 1, &r, unit);
    res->build_s += r.build_s;
    res->solve_s += r.solve_s;
    res->cpu_s += r.cpu_s;
    res->ipc_s += r.ipc_s;
    if (res->mip_solves++ == 0) {
        res->root_bound = r.root_bound;
        res->cuts = r.cuts;
    }
    /* a count the solver does not report stays unknown (-1) */
    res->nodes = res->nodes < 0 || r.nodes < 0 ? -1 : res->nodes + r.nodes;
    res->iters = res->iters < 0 || r.iters < 0 ? -1 : res->iters + r.iters;
    if (bound)
        *bound = r.bound;
    return r.status;
}

/* Accepts candidate counts c on types ct when feasible, within the tie
 * set and first by the tie-break keys; returns 1 if best (on types bt)
 * was replaced.  The types are not read with one type. */
static int accept(const struct alloc_problem *p, double thr, const int *c,
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
static int solve_model(struct mstate *st, const struct alloc_problem *p,
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
    ss = run_stage(st, &a->m, a->unit, st->base.gap_rel, gap_abs, effort,
                   deadline, x, &bound1, res, e);
    res->root_bound *= a->unit; /* NaN stays NaN */
    if (ss < 0) {
        rc = e && e->code ? e->code : BFS_ESOLVER;
        goto out;
    }
    res->status = ss;
    if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
        goto out;
    counts_of(a, x, best);
    if (a->tcol) /* the node model with node types: its indicators */
        node_types_of(a, x, best_t);
    else if (c->nt > 1) /* a is c */
        types_of(c, x, best_t);
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
    ss = run_stage(st, &m2, c->unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline, x,
                   NULL, res, NULL);
    milp_release(&m2);
    if (ss == SOLVE_OPTIMAL || ss == SOLVE_FEASIBLE) {
        counts_of(c, x, cand);
        if (c->nt > 1)
            types_of(c, x, cand_t);
        accept(p, thr, cand, cand_t, best, best_t);
    }
    /* stage 3: certificates that no later vector ties */
    for (int round = 0;
         ss == SOLVE_OPTIMAL && !exact && nj > 1 && round < CERT_MAX_ROUNDS;
         round++) {
        if (build_cert(&m2, c, p, z, best, best_t, lex) != 0)
            break;
        ss = run_stage(st, &m2, c->unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT,
                       deadline, x, NULL, res, NULL);
        milp_release(&m2);
        if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
            break; /* INFEASIBLE: proven; anything else: best effort */
        counts_of(c, x, cand);
        if (c->nt > 1)
            types_of(c, x, cand_t);
        if (!accept(p, thr, cand, cand_t, best, best_t))
            break;
        ss = SOLVE_OPTIMAL;
    }
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

/* ---- the allocator ---------------------------------------------------- */

const char *alloc_milp_default_solver(void)
{
    return solver_default_name();
}

/* Parses "NAME[,OPTION]..." into its name (malloc'd, *name), bfsim's own
 * options isolate=yes|no and start=yes|no (*isolate, *start) and the
 * backend's parameters, checked and canonical, into params (cap bytes). */
static int parse_solver(const char *spec, char **name, int *isolate, int *start,
                        char *params, size_t cap, struct bfs_error *e)
{
    const char *comma = strchr(spec, ',');
    size_t len = comma ? (size_t)(comma - spec) : strlen(spec), used = 0;
    char *rest = xmalloc(strlen(spec) + 1);
    int rc = 0;

    *name = xmalloc(len + 1);
    memcpy(*name, spec, len);
    (*name)[len] = '\0';
    rest[0] = '\0';
    while (comma) {
        const char *opt = comma + 1;
        size_t olen;
        comma = strchr(opt, ',');
        olen = comma ? (size_t)(comma - opt) : strlen(opt);
        if (olen == 11 && strncmp(opt, "isolate=yes", olen) == 0)
            *isolate = SOLVER_ISOLATE_YES;
        else if (olen == 10 && strncmp(opt, "isolate=no", olen) == 0)
            *isolate = SOLVER_ISOLATE_NO;
        else if (olen == 9 && strncmp(opt, "start=yes", olen) == 0)
            *start = 1;
        else if (olen == 8 && strncmp(opt, "start=no", olen) == 0)
            *start = 0;
        else if ((olen >= 8 && strncmp(opt, "isolate=", 8) == 0) ||
                 (olen >= 6 && strncmp(opt, "start=", 6) == 0)) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "solver '%s': '%.*s': bfsim's option takes yes or "
                          "no",
                          *name, (int)olen, opt);
            break;
        } else if (olen == 4 && strncmp(opt, "help", olen) == 0) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "solver '%s': `bfsim solve --solver %s,help` "
                          "lists the options and parameters",
                          *name, *name);
            break;
        } else {
            memcpy(rest + used, opt - (used ? 1 : 0), olen + (used ? 1 : 0));
            used += olen + (used ? 1 : 0);
            rest[used] = '\0';
        }
    }
    /* an unknown backend is solver_create's to report */
    if (rc == 0 && solver_find(*name))
        rc = solver_params_canon(*name, rest, params, cap, e);
    xfree(rest);
    return rc;
}

int alloc_solver_params(const struct alloc_opts *o, char *out, size_t cap,
                        struct bfs_error *e)
{
    const char *spec = o->solver ? o->solver : solver_default_name();
    char *name = NULL;
    int isolate = 0, start = 0, rc = 0;

    if (cap > 0)
        out[0] = '\0';
    if (o->name && strcmp(o->name, "milp") == 0 && spec) {
        rc = parse_solver(spec, &name, &isolate, &start, out, cap, e);
        xfree(name);
    }
    return rc;
}

static void milp_destroy(void *state)
{
    struct mstate *st = state;

    if (st) {
        alloc_dp_ops.destroy(st->dp);
        solver_destroy(st->solver);
        xfree(st->tag);
        xfree(st->mps_dir);
        xfree(st->name);
        xfree(st);
    }
}

static int milp_create(const struct alloc_opts *o, void **state,
                       struct bfs_error *e)
{
    struct mstate *st = xcalloc(1, sizeof *st);
    const char *spec = o->solver ? o->solver : solver_default_name();
    int rc;

    solver_opts_default(&st->base);
    st->base.time_limit = o->time_limit;
    st->base.gap_rel = o->gap_rel;
    st->base.gap_abs = o->gap_abs;
    st->base.threads = o->threads;
    st->base.log_level = o->log_level;
    st->base.log = o->solver_log;
    if (!o->model || strcmp(o->model, "count") == 0)
        st->model = MODEL_COUNT;
    else if (strcmp(o->model, "node") == 0)
        st->model = MODEL_NODE;
    else {
        milp_destroy(st);
        return bfs_fail(e, BFS_EUSAGE,
                        "unknown model '%s' (known: count, node)", o->model);
    }
    if (!spec) {
        milp_destroy(st);
        return bfs_fail(e, BFS_EUNSUP,
                        "allocator 'milp': no MILP solver is compiled into "
                        "this build of bfsim");
    }
    st->base.seed = o->seed;
    st->mps_dir = o->mps_dir ? xstrdup(o->mps_dir) : NULL;
    st->start = o->start != 0;
    rc = parse_solver(spec, &st->name, &st->base.isolate, &st->start,
                      st->base.params, sizeof st->base.params, e);
    if (rc == 0)
        rc = solver_create(st->name, &st->base, &st->solver, e);
    if (rc == 0 && st->start &&
        solver_takes_start(st->solver, SOLVER_EFFORT_LIGHT))
        rc = alloc_dp_ops.create(o, &st->dp, e);
    if (rc) {
        milp_destroy(st);
        return rc;
    }
    *state = st;
    return 0;
}

/* dp's optimum of p (malloc'd counts), the node model's start, or NULL;
 * with node types, its types into *types (malloc'd; NULL with the
 * counts, and always with one type).  None when dp does not reach its
 * optimum, or refuses the instance (past its table's bound with node
 * types).  Its time counts as building. */
static int *dp_start(const struct mstate *st, const struct alloc_problem *p,
                     struct alloc_result *res, int **types)
{
    struct alloc_result d = {.counts = xcalloc(p->n_jobs + 1, sizeof(int))};

    if (alloc_typed(p))
        d.types = xcalloc(p->n_jobs + 1, sizeof(int));
    if (alloc_dp_ops.solve(st->dp, p, &d, NULL) != 0 ||
        d.status != SOLVE_OPTIMAL) {
        xfree(d.counts);
        xfree(d.types);
        d.counts = d.types = NULL;
    }
    res->build_s += d.solve_s;
    *types = d.types;
    return d.counts;
}

static void milp_set_tag(void *state, const char *tag)
{
    struct mstate *st = state;

    xfree(st->tag);
    st->tag = tag ? xstrdup(tag) : NULL;
}

/* ---- spanning types: the mixed count model ------------------------------ */

/* The count model with spanning types (p->mixed; see the top). */
struct mmodel {
    struct milp m; /* stage 1: maximise the scaled objective */
    size_t nj, nt, W;
    double unit; /* the tie tolerance, alloc_tie_tol_m */
    int *y0col;  /* owned, nj: y[j,0], the job idle */
    int *wcol;   /* owned, nj * nt * W: w[j,t,n] at (j * nt + t) * W + n,
                    or -1: total n, paced by type t */
    int *xcol;   /* owned, nj * nt: x[j,t], or -1 (the job cannot use t) */
    int *xhi;    /* owned, nj * nt: x[j,t]'s upper bound (0 without) */
    int *zcol;   /* owned, nj * nt: z[j,t] = [x[j,t] > 0], or -1 */
    int *ucol;   /* owned, nj: u_j; d_j and k_j (1 only when x_j = C_j)
                    are the next two columns */
    struct lexpr *cnt; /* owned, nj: n_j */
    /* the sequence keys 4 and 5 order lexicographically, largest first:
     * n_0 .. n_{J-1}, then every x[j,t] with a column, in (j, t) order */
    struct lexpr *seq; /* owned, nseq entries */
    int *seq_hi;       /* owned: each one's upper bound (all are >= 0) */
    size_t nseq;
};

static void mmodel_release(struct mmodel *a)
{
    for (size_t j = 0; j < a->nj; j++)
        lexpr_release(&a->cnt[j]);
    for (size_t k = 0; k < a->nseq; k++)
        lexpr_release(&a->seq[k]);
    xfree(a->seq_hi);
    xfree(a->seq);
    xfree(a->cnt);
    xfree(a->ucol);
    xfree(a->zcol);
    xfree(a->xhi);
    xfree(a->xcol);
    xfree(a->wcol);
    xfree(a->y0col);
    milp_release(&a->m);
}

/* Tfwd O_{j,t}(n): job j's gain at total n paced by type t. */
static double mixed_gain(const struct alloc_problem *p, size_t j, size_t t,
                         int n)
{
    int one[ALLOC_MIXED_MAX_TYPES] = {0};

    one[t] = n;
    return alloc_gain_m(p, j, one);
}

/* Builds the mixed count model of p into a (see the top): per job j, a
 * binary y[j,0] (idle) and binaries w[j,t,n] (total n paced by type t:
 * its gain Tfwd O_{j,t}(n) is the objective's), one of them set;
 * integers x[j,t] for the types it can use, summing to the total;
 * indicators z[j,t] = [x[j,t] > 0]; w[j,t,n] <= z[j,t] (the pace is a
 * type used) and, for every type u with O_{j,u}(n) < O_{j,t}(n), w[j,t,n]
 * + z[j,u] <= 1 (no slower type used); the up and down indicators u_j,
 * d_j priced at Tcup r_j and Tcdw r_j, and k_j (keeps); per type a
 * capacity row: a model of binaries and bounded integers. */
static void build_mixed(const struct alloc_problem *p, struct mmodel *a)
{
    struct milp *m = &a->m;
    size_t nj = p->n_jobs, nt = (size_t)p->n_types, W = 1;

    memset(a, 0, sizeof *a);
    milp_init(m, 1);
    a->nj = nj;
    a->nt = nt;
    a->unit = alloc_tie_tol_m(p);
    for (size_t j = 0; j < nj; j++)
        if ((size_t)p->jobs[j].jmax + 1 > W)
            W = (size_t)p->jobs[j].jmax + 1;
    a->W = W;
    a->y0col = xcalloc(nj + 1, sizeof *a->y0col);
    a->wcol = xreallocarray(NULL, nj * nt * W + 1, sizeof *a->wcol);
    a->xcol = xcalloc(nj * nt + 1, sizeof *a->xcol);
    a->xhi = xcalloc(nj * nt + 1, sizeof *a->xhi);
    a->zcol = xcalloc(nj * nt + 1, sizeof *a->zcol);
    a->ucol = xcalloc(nj + 1, sizeof *a->ucol);
    a->cnt = xcalloc(nj + 1, sizeof *a->cnt);
    a->seq = xcalloc(nj * (nt + 1) + 1, sizeof *a->seq);
    a->seq_hi = xcalloc(nj * (nt + 1) + 1, sizeof *a->seq_hi);
    for (size_t i = 0; i < nj * nt * W; i++)
        a->wcol[i] = -1;
    for (size_t j = 0; j < nj; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        int *x = &a->xcol[j * nt], *xhi = &a->xhi[j * nt];
        int *zc = &a->zcol[j * nt], *wc = &a->wcol[j * nt * W];
        long top = 0;
        int u, d, k, grows = 0;

        for (size_t t = 0; t < nt; t++) {
            x[t] = zc[t] = -1;
            if (!jb->ot[t] || p->pools[t] < 1)
                continue;
            xhi[t] = p->pools[t] < jb->jmax ? p->pools[t] : jb->jmax;
            x[t] = milp_add_col(m, 0, xhi[t], 1, 0);
            zc[t] = milp_add_col(m, 0, 1, 1, 0);
            top += xhi[t];
            grows |= xhi[t] > alloc_cur_m(p, j, (int)t);
        }
        a->y0col[j] = milp_add_col(m, 0, 1, 1, 0);
        for (size_t t = 0; t < nt; t++)
            for (int n = jb->jmin; x[t] >= 0 && n <= jb->jmax && n <= top;
                 n++) {
                int c =
                    milp_add_col(m, 0, 1, 1, mixed_gain(p, j, t, n) / a->unit);
                wc[t * W + (size_t)n] = c;
                lexpr_add(&a->cnt[j], c, n);
                if (n > a->seq_hi[j])
                    a->seq_hi[j] = n;
            }
        u = a->ucol[j] = milp_add_col(m, 0, grows ? 1 : 0, 1,
                                      -alloc_cost_up_m(p, j) / a->unit);
        d = milp_add_col(m, 0, jb->cur > 0 ? 1 : 0, 1,
                         -alloc_cost_down_m(p, j) / a->unit);
        k = milp_add_col(m, 0, 1, 1, 0);
        milp_row_begin(m, 1, 1); /* idle, or one (total, pace) */
        milp_row_add(m, a->y0col[j], 1);
        for (size_t i = 0; i < a->cnt[j].n; i++)
            milp_row_add(m, a->cnt[j].col[i], 1);
        milp_row_end(m);
        milp_row_begin(m, 0, 0); /* sum_t x[j,t] = n_j */
        for (size_t t = 0; t < nt; t++)
            if (x[t] >= 0)
                milp_row_add(m, x[t], 1);
        lexpr_row(m, &a->cnt[j], -1);
        milp_row_end(m);
        for (size_t t = 0; t < nt; t++) {
            if (x[t] < 0)
                continue;
            milp_row_begin(m, -HUGE_VAL, 0); /* x <= U z */
            milp_row_add(m, x[t], 1);
            milp_row_add(m, zc[t], -xhi[t]);
            milp_row_end(m);
            milp_row_begin(m, -HUGE_VAL, 0); /* z <= x */
            milp_row_add(m, zc[t], 1);
            milp_row_add(m, x[t], -1);
            milp_row_end(m);
            /* the pace is a type used: sum_n w[j,t,n] <= z[j,t] */
            milp_row_begin(m, -HUGE_VAL, 0);
            for (size_t n = 0; n < W; n++)
                if (wc[t * W + n] >= 0)
                    milp_row_add(m, wc[t * W + n], 1);
            milp_row_add(m, zc[t], -1);
            milp_row_end(m);
            /* and no type u used is slower: sum over the totals n where
             * u is, of w[j,t,n], + z[j,u] <= 1 */
            for (size_t v = 0; v < nt; v++) {
                int any = 0;
                for (size_t n = 0; v != t && x[v] >= 0 && n < W; n++)
                    any |=
                        wc[t * W + n] >= 0 && mixed_gain(p, j, v, (int)n) <
                                                  mixed_gain(p, j, t, (int)n);
                if (!any)
                    continue;
                milp_row_begin(m, -HUGE_VAL, 1);
                for (size_t n = 0; n < W; n++)
                    if (wc[t * W + n] >= 0 && mixed_gain(p, j, v, (int)n) <
                                                  mixed_gain(p, j, t, (int)n))
                        milp_row_add(m, wc[t * W + n], 1);
                milp_row_add(m, zc[v], 1);
                milp_row_end(m);
            }
        }
        /* u_j = 1 when a type grows, d_j = 1 when one shrinks; k_j = 1
         * only when neither does */
        for (size_t t = 0; t < nt; t++) {
            int c = alloc_cur_m(p, j, (int)t);
            if (x[t] >= 0 && xhi[t] > c) { /* x - C <= (U - C) u */
                milp_row_begin(m, -HUGE_VAL, c);
                milp_row_add(m, x[t], 1);
                milp_row_add(m, u, -(xhi[t] - c));
                milp_row_end(m);
            }
            if (c > 0) { /* C - x <= C d (the check: x[j,t] exists) */
                milp_row_begin(m, c, HUGE_VAL);
                milp_row_add(m, x[t], 1);
                milp_row_add(m, d, c);
                milp_row_end(m);
            }
        }
        milp_row_begin(m, -HUGE_VAL, 1);
        milp_row_add(m, k, 1);
        milp_row_add(m, u, 1);
        milp_row_end(m);
        milp_row_begin(m, -HUGE_VAL, 1);
        milp_row_add(m, k, 1);
        milp_row_add(m, d, 1);
        milp_row_end(m);
    }
    for (size_t t = 0; t < nt; t++) {
        milp_row_begin(m, -HUGE_VAL, p->pools[t]);
        for (size_t j = 0; j < nj; j++)
            if (a->xcol[j * nt + t] >= 0)
                milp_row_add(m, a->xcol[j * nt + t], 1);
        milp_row_end(m);
    }
    /* the sequence of keys 4 and 5 */
    for (size_t j = 0; j < nj; j++) {
        for (size_t k = 0; k < a->cnt[j].n; k++)
            lexpr_add(&a->seq[a->nseq], a->cnt[j].col[k], a->cnt[j].val[k]);
        a->nseq++;
    }
    for (size_t i = 0; i < nj * nt; i++)
        if (a->xcol[i] >= 0) {
            lexpr_add(&a->seq[a->nseq], a->xcol[i], 1);
            a->seq_hi[a->nseq++] = a->xhi[i];
        }
}

/* Reads the holding from a solution of a (rounded). */
static void mixed_of(const struct mmodel *a, const double *sol, int *x)
{
    for (size_t i = 0; i < a->nj * a->nt; i++)
        x[i] = a->xcol[i] >= 0 ? (int)lround(sol[a->xcol[i]]) : 0;
}

/* The start point of a at holding x0 (feasible), into s (a->m.n_cols
 * values): every column at its value there, the gain and indicators
 * included. */
static void mixed_point(const struct alloc_problem *p, const struct mmodel *a,
                        const int *x0, double *s)
{
    size_t nt = a->nt;

    memset(s, 0, a->m.n_cols * sizeof *s);
    for (size_t j = 0; j < a->nj; j++) {
        int n = 0, up = 0, down = 0;
        for (size_t t = 0; t < nt; t++) {
            int c = alloc_cur_m(p, j, (int)t), v = x0[j * nt + t];
            if (a->xcol[j * nt + t] >= 0) {
                s[a->xcol[j * nt + t]] = v;
                s[a->zcol[j * nt + t]] = v > 0;
            }
            n += v;
            up |= v > c;
            down |= v < c;
        }
        if (n == 0)
            s[a->y0col[j]] = 1;
        else { /* paced by the slowest type used, the lowest among equals */
            size_t pace = nt;
            for (size_t t = 0; t < nt; t++)
                if (x0[j * nt + t] > 0 &&
                    (pace == nt ||
                     mixed_gain(p, j, t, n) < mixed_gain(p, j, pace, n)))
                    pace = t;
            if (n < (int)a->W &&
                a->wcol[(j * nt + pace) * a->W + (size_t)n] >= 0)
                s[a->wcol[(j * nt + pace) * a->W + (size_t)n]] = 1;
        }
        s[a->ucol[j]] = up;
        s[a->ucol[j] + 1] = down;
        s[a->ucol[j] + 2] = !up && !down;
    }
}

/* Adds to m the tie row: a's stage-1 objective >= z - tol. */
static void mixed_tie_row(struct milp *m, const struct mmodel *a, double z)
{
    tie_row(m, &a->m, a->unit, z);
}

/* Stage 2's objective on m (a's columns, the tie row added): A keeps - B
 * nodes + sum_k w_k seq_k, w_k = prod_{i > k} (seq_hi_i + 1) so that the
 * sum orders the sequences lexicographically, B above its range and A
 * above the range of the rest; exact when that stays within
 * LEX_EXACT_MAX (returns 1).  Else (returns 0) w_j = J - j on the counts
 * alone, a hint, dropped when even that exceeds LEX_HINT_MAX; the
 * certificates then decide keys 4 and 5. */
static int mixed_secondary(struct milp *m, const struct mmodel *a,
                           const struct alloc_problem *p)
{
    double P = 1, R = 0, A, B, H = 0;
    int exact;

    for (size_t k = 0; k < a->nseq; k++)
        P *= a->seq_hi[k] + 1.0;
    for (size_t j = 0; j < a->nj; j++)
        R += a->seq_hi[j];
    R = R < p->pool ? R : p->pool;
    exact = P * (R + 1) * (a->nj + 1) <= LEX_EXACT_MAX;
    memset(m->obj, 0, m->n_cols * sizeof *m->obj);
    m->obj_offset = 0.0;
    if (exact) {
        double w = 1;
        for (size_t k = a->nseq; k-- > 0;) {
            for (size_t i = 0; i < a->seq[k].n; i++)
                m->obj[a->seq[k].col[i]] += w * a->seq[k].val[i];
            w *= a->seq_hi[k] + 1.0;
        }
        B = P;
    } else {
        for (size_t j = 0; j < a->nj; j++)
            H += (double)(a->nj - j) * a->seq_hi[j];
        if ((H + 1) * (R + 1) * (a->nj + 1) > LEX_HINT_MAX)
            H = 0;
        for (size_t j = 0; H > 0 && j < a->nj; j++)
            for (size_t i = 0; i < a->cnt[j].n; i++)
                m->obj[a->cnt[j].col[i]] +=
                    (double)(a->nj - j) * a->cnt[j].val[i];
        B = H + 1;
    }
    A = B * (R + 1);
    for (size_t j = 0; j < a->nj; j++) {
        m->obj[a->ucol[j] + 2] += A;
        for (size_t i = 0; i < a->cnt[j].n; i++)
            m->obj[a->cnt[j].col[i]] -= B * a->cnt[j].val[i];
    }
    return exact;
}

/* The certificate model on a: its rows, the tie row, keeps = K and nodes
 * = S of the incumbent x (n_jobs * n_types) and "its sequence (keys 4
 * and 5) lexicographically larger": a binary f_k per element that can
 * grow, exactly one set, f_k forcing seq_k >= its value v_k + 1 and each
 * earlier element to its value (|seq_i - v_i| <= its range times sum_{k
 * <= i} f_k, the f_k that leave it free).  Its objective is obj (stage
 * 2's).  Returns -1, building nothing, when no element can grow (x's
 * sequence is the largest). */
static int mixed_cert(struct milp *m, const struct mmodel *a,
                      const struct alloc_problem *p, double z, const int *x,
                      const double *obj)
{
    size_t nj = a->nj, nt = a->nt, ns = a->nseq;
    int *f = xcalloc(ns + 1, sizeof *f), grows = 0;
    double *v = xcalloc(ns + 1, sizeof *v);
    double K = 0, S = 0;

    for (size_t j = 0; j < nj; j++) {
        K += alloc_keeps_m(p, j, &x[j * nt]);
        for (size_t t = 0; t < nt; t++)
            v[j] += x[j * nt + t];
        S += v[j];
    }
    for (size_t i = 0, k = nj; i < nj * nt; i++)
        if (a->xcol[i] >= 0)
            v[k++] = x[i];
    for (size_t k = 0; k < ns; k++)
        grows |= v[k] < a->seq_hi[k];
    if (!grows) {
        xfree(v);
        xfree(f);
        return -1;
    }
    milp_copy(m, &a->m);
    milp_set_start(m, NULL);
    memcpy(m->obj, obj, a->m.n_cols * sizeof *obj);
    m->obj_offset = 0.0;
    mixed_tie_row(m, a, z);
    milp_row_begin(m, K, K);
    for (size_t j = 0; j < nj; j++)
        milp_row_add(m, a->ucol[j] + 2, 1);
    milp_row_end(m);
    milp_row_begin(m, S, S);
    for (size_t j = 0; j < nj; j++)
        lexpr_row(m, &a->cnt[j], 1);
    milp_row_end(m);
    for (size_t k = 0; k < ns; k++)
        f[k] = v[k] < a->seq_hi[k] ? milp_add_col(m, 0, 1, 1, 0) : -1;
    milp_row_begin(m, 1, 1);
    for (size_t k = 0; k < ns; k++)
        if (f[k] >= 0)
            milp_row_add(m, f[k], 1);
    milp_row_end(m);
    for (size_t k = 0; k < ns; k++) {
        if (f[k] >= 0) { /* seq_k >= (v_k + 1) f_k */
            milp_row_begin(m, 0, HUGE_VAL);
            lexpr_row(m, &a->seq[k], 1);
            milp_row_add(m, f[k], -(1 + v[k]));
            milp_row_end(m);
        }
        if (v[k] < a->seq_hi[k]) { /* seq_k - v_k <= (hi_k - v_k) F_k */
            milp_row_begin(m, -HUGE_VAL, v[k]);
            lexpr_row(m, &a->seq[k], 1);
            for (size_t i = 0; i <= k; i++)
                if (f[i] >= 0)
                    milp_row_add(m, f[i], -(a->seq_hi[k] - v[k]));
            milp_row_end(m);
        }
        if (v[k] > 0) { /* v_k - seq_k <= v_k F_k */
            milp_row_begin(m, -HUGE_VAL, -v[k]);
            lexpr_row(m, &a->seq[k], -1);
            for (size_t i = 0; i <= k; i++)
                if (f[i] >= 0)
                    milp_row_add(m, f[i], -v[k]);
            milp_row_end(m);
        }
    }
    xfree(v);
    xfree(f);
    return 0;
}

/* Accepts candidate holding c when feasible, within the tie set (value
 * >= thr) and first by the tie-break keys against best; returns 1 if
 * best was replaced. */
static int mixed_accept(const struct alloc_problem *p, double thr, const int *c,
                        int *best)
{
    if (!alloc_feasible_m(p, c) || !(alloc_objective_m(p, c) >= thr) ||
        alloc_tie_cmp_m(p, c, best) <= 0)
        return 0;
    memcpy(best, c, p->n_jobs * (size_t)p->n_types * sizeof *best);
    return 1;
}

/* The one-type typed dp's optimum of p (the flag dropped) as a holding
 * into x0: a feasible start.  Returns 1, or 0 when dp gives none. */
static int mixed_dp_start(const struct mstate *st,
                          const struct alloc_problem *p, int *x0,
                          struct alloc_result *res)
{
    struct alloc_problem q = *p;
    int *types = NULL, *n;
    size_t nt = (size_t)p->n_types;

    q.mixed = 0;
    n = dp_start(st, &q, res, &types);
    if (!n)
        return 0;
    for (size_t j = 0; j < p->n_jobs; j++)
        for (size_t t = 0; t < nt; t++)
            x0[j * nt + t] = (int)t == types[j] ? n[j] : 0;
    xfree(types);
    xfree(n);
    return 1;
}

/* Solves p with spanning types on the mixed count model: stage 1, then
 * stage 2 (keeps, nodes and the order of keys 4 and 5 in one objective)
 * and, unless that order was exact, certificates that no holding after
 * the incumbent by the rule ties, each candidate checked with the
 * objective.h functions before it replaces the incumbent (as accept()
 * does).  Fills res (the holding in res->type_counts, with the counts
 * and lowest types). */
static int mixed_solve(struct mstate *st, const struct alloc_problem *p,
                       struct alloc_result *res, struct bfs_error *e)
{
    size_t nj = p->n_jobs, nt = (size_t)p->n_types;
    double t0 = bfs_now(), deadline, z, thr, bound1 = HUGE_VAL, gap_abs;
    int *best = xcalloc(nj * nt + 1, sizeof *best);
    int *cand = xcalloc(nj * nt + 1, sizeof *cand);
    int effort = SOLVER_EFFORT_DEFAULT, ss, exact, rc = 0;
    double *x = NULL, *obj2 = NULL;
    struct mmodel a;
    struct milp m2;

    if (st->model == MODEL_NODE) {
        xfree(cand);
        xfree(best);
        return bfs_fail(e, BFS_EUNSUP,
                        "milp: the node model does not take spanning node "
                        "types (--mixed-types); use --model count");
    }
    build_mixed(p, &a);
    x = xcalloc(a.m.n_cols + 2 * a.nseq + 1, sizeof *x);
    if (st->dp && mixed_dp_start(st, p, cand, res)) {
        mixed_point(p, &a, cand, x);
        /* a feasible point, or a bug here */
        assert(milp_violation(&a.m, x) < 1e-9);
        if (solver_takes_start(st->solver, SOLVER_EFFORT_DEFAULT))
            milp_set_start(&a.m, x);
        else if (solver_takes_start(st->solver, SOLVER_EFFORT_LIGHT)) {
            milp_set_start(&a.m, x);
            effort = SOLVER_EFFORT_LIGHT;
        }
    }
    res->rows = a.m.n_rows;
    res->cols = a.m.n_cols;
    res->nnz = a.m.nnz;
    res->build_s += bfs_now() - t0;
    deadline = bfs_now() + st->base.time_limit;
    gap_abs = st->base.gap_abs / a.unit;
    gap_abs = gap_abs > 0.1 ? 0.1 : gap_abs;
    st->mps_rc = 0;
    ss = run_stage(st, &a.m, a.unit, st->base.gap_rel, gap_abs, effort,
                   deadline, x, &bound1, res, e);
    res->root_bound *= a.unit; /* NaN stays NaN */
    if (ss < 0) {
        rc = e && e->code ? e->code : BFS_ESOLVER;
        goto out;
    }
    res->status = ss;
    if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
        goto out;
    mixed_of(&a, x, best);
    if (!alloc_feasible_m(p, best)) {
        res->status = SOLVE_FAILED; /* the solver's answer does not hold */
        goto out;
    }
    z = alloc_objective_m(p, best);
    thr = z - a.unit;
    if (ss != SOLVE_OPTIMAL || nj == 0)
        goto done;

    /* stage 2: keeps, nodes and keys 4-5 (exactly or as a hint) */
    milp_copy(&m2, &a.m);
    milp_set_start(&m2, NULL);
    mixed_tie_row(&m2, &a, z);
    exact = mixed_secondary(&m2, &a, p);
    obj2 = xcalloc(a.m.n_cols + 1, sizeof *obj2);
    memcpy(obj2, m2.obj, a.m.n_cols * sizeof *obj2);
    /* no start here: given stage 1's answer as a start, CBC 2.10.8
     * returned it as optimal where better tied holdings existed (4 of
     * tests/check_mixed.c's 130 instances on CBC, with either form of
     * the gain); GLPK did not */
    ss = run_stage(st, &m2, a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline, x,
                   NULL, res, NULL);
    milp_release(&m2);
    if (ss == SOLVE_OPTIMAL || ss == SOLVE_FEASIBLE) {
        mixed_of(&a, x, cand);
        mixed_accept(p, thr, cand, best);
    }
    /* stage 3: certificates that no later holding ties */
    for (int round = 0;
         ss == SOLVE_OPTIMAL && !exact && round < CERT_MAX_ROUNDS; round++) {
        if (mixed_cert(&m2, &a, p, z, best, obj2) != 0)
            break; /* the largest sequence: nothing after it */
        ss = run_stage(st, &m2, a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline,
                       x, NULL, res, NULL);
        milp_release(&m2);
        if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
            break; /* INFEASIBLE: proven; anything else: best effort */
        mixed_of(&a, x, cand);
        if (!mixed_accept(p, thr, cand, best))
            break;
        ss = SOLVE_OPTIMAL;
    }
done:
    memcpy(res->type_counts, best, nj * nt * sizeof *best);
    alloc_counts_m(p, best, res->counts, res->types);
    res->objective = alloc_objective_m(p, best);
    res->bound = bound1 < HUGE_VAL ? bound1 * a.unit : HUGE_VAL;
    if (res->bound < res->objective)
        res->bound = res->objective;
    if (st->mps_rc) /* a model that could not be written */
        rc = bfs_fail(e, st->mps_rc, "%s", st->mps_e.msg);
out:
    xfree(obj2);
    xfree(x);
    mmodel_release(&a);
    xfree(cand);
    xfree(best);
    return rc;
}

static int milp_alloc_solve(void *state, const struct alloc_problem *p,
                            struct alloc_result *res, struct bfs_error *e)
{
    struct mstate *st = state;
    double t0 = bfs_now();
    struct amodel a, c;
    int *n0, *ty0 = NULL, rc = 0;

    res->status = SOLVE_FAILED;
    res->objective = nan("");
    res->bound = HUGE_VAL;
    res->build_s = res->solve_s = 0.0;
    res->rows = res->cols = res->nnz = 0;
    if (alloc_mixed(p))
        return mixed_solve(st, p, res, e);
    amodel_init(&c, p);
    amodel_init(&a, p);
    for (size_t j = 0; j < c.nj; j++)
        if (c.hi[j] < 0) { /* no admissible count: the cap forbids all */
            res->status = SOLVE_INFEASIBLE;
            goto out;
        }
    n0 = st->dp ? dp_start(st, p, res, &ty0) : NULL;
    build_count(p, &c, n0 ? alloc_objective_t(p, n0, ty0) : -HUGE_VAL);
    if (n0)
        count_start(&c, n0, ty0);
    /* the node model's stage 1 runs at SOLVER_EFFORT_PROVE with a start
     * (GLPK takes none there, and the rows that order interchangeable
     * jobs slow it down) */
    if (st->model == MODEL_NODE)
        rc = build_node(
            p, &a,
            solver_takes_start(st->solver, SOLVER_EFFORT_PROVE) ? n0 : NULL,
            ty0, e);
    xfree(ty0);
    xfree(n0);
    if (rc)
        goto out;
    {
        double tb = bfs_now() - t0;
        st->mps_rc = 0;
        rc = solve_model(st, p, st->model == MODEL_NODE ? &a : &c, &c, res, e);
        res->build_s += tb;
        if (rc == 0 && st->mps_rc) /* a model that could not be written */
            rc = bfs_fail(e, st->mps_rc, "%s", st->mps_e.msg);
    }
out:
    amodel_release(&a);
    amodel_release(&c);
    return rc;
}

const struct alloc_ops alloc_milp_ops = {
    .name = "milp",
    .reads_owner = 1, /* the node model places the nodes by it */
    .mixed = 1,       /* the mixed count model (the node model refuses) */
    .create = milp_create,
    .solve = milp_alloc_solve,
    .destroy = milp_destroy,
    .set_tag = milp_set_tag,
};
