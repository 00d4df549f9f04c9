/* alloc/milp_mixed.c - the MILP allocator with spanning node types: the
 * mixed count model and its own stages (the same three as
 * milp_count.c's, over the holding x[j,t]).  Uses milp_base.c only;
 * milp_alloc.c calls it.
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
    XFREE_ALL(a->seq_hi, a->seq, a->cnt, a->ucol, a->zcol, a->xhi, a->xcol,
              a->wcol, a->y0col);
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
    mstage_tie_row(m, &a->m, a->unit, z);
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
    mstage_cert_copy(m, &a->m, a->unit, z, obj);
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
    n = mstate_dp_start(st, &q, res, &types);
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
int mixed_solve(struct mstate *st, const struct alloc_problem *p,
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
    ss = mstage_first(st, &a.m, a.unit, gap_abs, effort, deadline, x, &bound1,
                      res, e, &rc);
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
    ss = mstage_run(st, &m2, a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT, deadline, x,
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
        ss = mstage_run(st, &m2, a.unit, 0.0, 0.5, SOLVER_EFFORT_LIGHT,
                        deadline, x, NULL, res, NULL);
        milp_release(&m2);
        if (ss != SOLVE_OPTIMAL && ss != SOLVE_FEASIBLE)
            break; /* INFEASIBLE: proven; anything else: best effort */
        mixed_of(&a, x, cand);
        if (!mixed_accept(p, thr, cand, best))
            break;
        ss = SOLVE_OPTIMAL;
    }
    mstage_tie_end(ss, res);
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
