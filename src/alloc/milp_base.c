/* alloc/milp_base.c - what the MILP allocator's models share: linear
 * expressions over a model's columns, the model of one allocation
 * (struct amodel, the count and the node models' common part) and its
 * readers, the tie row, one solver run (a stage) with the models
 * written as MPS, and dp's optimum as a start.  The bottom layer of the
 * milp_*.c files: it calls none of them.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/milp_impl.h"
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

void lexpr_add(struct lexpr *x, int col, double v)
{
    milp_entry_append(&x->col, &x->val, &x->n, &x->cap, col, v);
}

void lexpr_release(struct lexpr *x)
{
    xfree(x->col);
    xfree(x->val);
    memset(x, 0, sizeof *x);
}

/* Adds coef * (x without its constant) to m's open row. */
void lexpr_row(struct milp *m, const struct lexpr *x, double coef)
{
    for (size_t k = 0; k < x->n; k++)
        milp_row_add(m, x->col[k], coef * x->val[k]);
}

double lexpr_eval(const struct lexpr *x, const double *sol)
{
    double v = x->c0;

    for (size_t k = 0; k < x->n; k++)
        v += x->val[k] * sol[x->col[k]];
    return v;
}

/* The column of y[j,t,n] in the count model c, or -1 (none, or n out of
 * range); n == 0 reads type 0's entry, whatever t. */
int amodel_ycol(const struct amodel *c, size_t j, int t, int n)
{
    if (n < 0 || n > c->hi[j] || (n > 0 && (t < 0 || (size_t)t >= c->nt)))
        return -1;
    return c
        ->ycol[(j * c->nt + (n > 0 ? (size_t)t : 0)) * c->ystride + (size_t)n];
}

void amodel_init(struct amodel *a, const struct alloc_problem *p)
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

void amodel_release(struct amodel *a)
{
    for (size_t j = 0; j < a->nj; j++) {
        lexpr_release(&a->cnt[j]);
        lexpr_release(&a->keep[j]);
    }
    XFREE_ALL(a->tcol, a->ycol, a->hi, a->keep, a->cnt);
    milp_release(&a->m);
}

/* Reads the counts from a solution (rounded). */
void amodel_counts(const struct amodel *a, const double *x, int *n)
{
    for (size_t j = 0; j < a->nj; j++)
        n[j] = (int)lround(lexpr_eval(&a->cnt[j], x));
}

/* Reads the types from a solution of the node model a with node types:
 * the type whose indicator is set, -1 for none (count 0). */
void amodel_node_types(const struct amodel *a, const double *x, int *t)
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
void amodel_count_types(const struct amodel *c, const double *x, int *t)
{
    for (size_t j = 0; j < c->nj; j++) {
        t[j] = -1;
        for (int k = 0; k < (int)c->nt; k++)
            for (int n = 1; n <= c->hi[j]; n++)
                if (amodel_ycol(c, j, k, n) >= 0 &&
                    x[amodel_ycol(c, j, k, n)] > 0.5)
                    t[j] = k;
    }
}

/* Adds to m the tie row of the stage-1 model base (objective unit
 * unit): its objective >= z - tol, in model units. */
void mstage_tie_row(struct milp *m, const struct milp *base, double unit,
                    double z)
{
    milp_row_begin(m, z / unit - 1.0 - base->obj_offset, HUGE_VAL);
    for (size_t i = 0; i < base->n_cols; i++)
        if (base->obj[i] != 0.0)
            milp_row_add(m, (int)i, base->obj[i]);
    milp_row_end(m);
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
             PACKAGE_VERSION, k,
             st->model == MODEL_NODE ? "node"
             : st->agg_now           ? "aggregated count"
                                     : "count",
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
int mstage_run(struct mstate *st, const struct milp *m, double unit,
               double gap_rel, double gap_abs, int effort, double deadline,
               double *x, double *bound, struct alloc_result *res,
               struct bfs_error *e)
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

/* dp's optimum of p (malloc'd counts), the node model's start, or NULL;
 * with node types, its types into *types (malloc'd; NULL with the
 * counts, and always with one type).  None when dp does not reach its
 * optimum, or refuses the instance (past its table's bound with node
 * types).  Its time counts as building. */
int *mstate_dp_start(const struct mstate *st, const struct alloc_problem *p,
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

/* Stage 1 (see alloc/milp_impl.h). */
int mstage_first(struct mstate *st, const struct milp *m, double unit,
                 double gap_abs, int effort, double deadline, double *x,
                 double *bound, struct alloc_result *res, struct bfs_error *e,
                 int *rc)
{
    int ss = mstage_run(st, m, unit, st->base.gap_rel, gap_abs, effort,
                        deadline, x, bound, res, e);

    res->root_bound *= unit; /* NaN stays NaN */
    if (ss < 0) {
        *rc = e && e->code ? e->code : BFS_ESOLVER;
        return -1;
    }
    res->status = ss;
    return ss;
}

/* The tie-break's end (see alloc/milp_impl.h). */
void mstage_tie_end(int ss, struct alloc_result *res)
{
    if (ss != SOLVE_OPTIMAL && ss != SOLVE_INFEASIBLE)
        res->status = SOLVE_FEASIBLE;
}

/* A certificate's start (see alloc/milp_impl.h). */
void mstage_cert_copy(struct milp *m, const struct milp *base, double unit,
                      double z, const double *obj)
{
    milp_copy(m, base);
    milp_set_start(m, NULL);
    memcpy(m->obj, obj, base->n_cols * sizeof *obj);
    m->obj_offset = 0.0;
    mstage_tie_row(m, base, unit, z);
}
