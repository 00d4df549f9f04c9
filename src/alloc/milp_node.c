/* alloc/milp_node.c - the node model of the MILP allocator (stage 1
 * only: the stages after it run on the count model, milp_count.c).
 * Uses milp_base.c only; milp_alloc.c calls it.
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
 *   (amodel_node_types); the stages after it run on the typed count model.
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
int node_build(const struct alloc_problem *p, struct amodel *a, const int *n0,
               const int *t0, struct bfs_error *e)
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
