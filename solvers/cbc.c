/* cbc.c - the COIN-OR CBC backend, through CBC's C API (2.10).
 *
 * Every solve builds a fresh Cbc_Model (CBC 2.10 returns wrong answers
 * when a solved model is changed and solved again), loads the model in
 * column form, sets the options as CBC command-line parameters (CBC
 * prints unknown names to stdout and goes on, so the names used here are
 * checked by a test), solves, reads the outcome and deletes the model.
 *
 * Reading the outcome (see API-NOTES): Cbc_solve returns 0 even for an
 * infeasible model, and Cbc_getColSolution then returns garbage, so "has
 * a solution" is Cbc_bestSolution() != NULL.  Status 0 with proven
 * optimality is OPTIMAL (a stop on the gap limit is reported that way
 * too); status 1 (a limit) is FEASIBLE or NO_SOLUTION; status 2
 * (numerical trouble) keeps an incumbent if there is one.  A model
 * without integer columns takes CBC's pure-LP path, where the status
 * stays -1, Cbc_bestSolution is NULL and the time and gap options do not
 * apply: the LP flags and column solution are read instead.
 *
 * Calls into CBC are not thread-safe in this build: one solve at a time
 * per process (an isolated solver has a child process of its own).
 */
#include "config.h"

#include "solver/backend.h"
#include "base/util.h"

#include <coin/Cbc_C_Interface.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct cbc_solver {
    struct solver base;
};

static int cbc_create(const struct solver_opts *o, struct solver **out)
{
    struct cbc_solver *c = xcalloc(1, sizeof *c);

    c->base.opts = *o;
    *out = &c->base;
    return 0;
}

static void cbc_destroy(struct solver *s)
{
    xfree(s);
}

/* CBC takes DBL_MAX, not infinity, for a missing bound. */
static double finite_or_max(double v)
{
    if (v >= HUGE_VAL)
        return DBL_MAX;
    if (v <= -HUGE_VAL)
        return -DBL_MAX;
    return v;
}

static void set_param(Cbc_Model *cm, const char *name, double v)
{
    char buf[64];

    snprintf(buf, sizeof buf, "%.17g", v);
    Cbc_setParameter(cm, name, buf);
}

/* Loads m into cm in compressed sparse column form. */
static void load(Cbc_Model *cm, const struct milp *m)
{
    size_t nc = m->n_cols, nr = m->n_rows;
    int *start = xcalloc(nc + 1, sizeof *start);
    int *index = xcalloc(m->nnz + 1, sizeof *index);
    double *value = xcalloc(m->nnz + 1, sizeof *value);
    double *clb = xcalloc(nc, sizeof *clb), *cub = xcalloc(nc, sizeof *cub);
    double *rlb = xcalloc(nr + 1, sizeof *rlb);
    double *rub = xcalloc(nr + 1, sizeof *rub);
    int *fill = xcalloc(nc + 1, sizeof *fill);

    for (size_t k = 0; k < m->nnz; k++)
        start[m->row_ind[k] + 1]++;
    for (size_t i = 0; i < nc; i++)
        start[i + 1] += start[i];
    memcpy(fill, start, nc * sizeof *fill);
    for (size_t r = 0; r < nr; r++)
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++) {
            int pos = fill[m->row_ind[k]]++;
            index[pos] = (int)r;
            value[pos] = m->row_val[k];
        }
    for (size_t i = 0; i < nc; i++) {
        clb[i] = finite_or_max(m->col_lb[i]);
        cub[i] = finite_or_max(m->col_ub[i]);
    }
    for (size_t r = 0; r < nr; r++) {
        rlb[r] = finite_or_max(m->row_lb[r]);
        rub[r] = finite_or_max(m->row_ub[r]);
    }
    Cbc_loadProblem(cm, (int)nc, (int)nr, start, index, value, clb, cub, m->obj,
                    rlb, rub);
    for (size_t i = 0; i < nc; i++)
        if (m->col_int[i])
            Cbc_setInteger(cm, (int)i);
    Cbc_setObjSense(cm, m->maximize ? -1.0 : 1.0);
    if (m->start) {
        for (size_t i = 0; i < nc; i++)
            fill[i] = (int)i;
        Cbc_setMIPStartI(cm, (int)nc, fill, m->start);
    }
    xfree(fill);
    xfree(rub);
    xfree(rlb);
    xfree(cub);
    xfree(clb);
    xfree(value);
    xfree(index);
    xfree(start);
}

static void set_options(Cbc_Model *cm, const struct solver_opts *o)
{
    Cbc_setLogLevel(cm, o->log_level);
    Cbc_setParameter(cm, "timeMode", "elapsed");
    if (o->time_limit < HUGE_VAL)
        set_param(cm, "sec", o->time_limit);
    set_param(cm, "ratioGap", o->gap_rel);
    set_param(cm, "allowableGap", o->gap_abs);
    set_param(cm, "integerTolerance", SOLVER_INT_TOL);
    if (o->threads > 0)
        set_param(cm, "threads", o->threads);
    if (o->effort == SOLVER_EFFORT_LIGHT) {
        Cbc_setParameter(cm, "preprocess", "off");
        Cbc_setParameter(cm, "cuts", "off");
        Cbc_setParameter(cm, "heuristics", "off");
    } else if (o->effort == SOLVER_EFFORT_PROVE) {
        Cbc_setParameter(cm, "preprocess", "off");
        Cbc_setParameter(cm, "passCuts", "1");
        Cbc_setParameter(cm, "heuristics", "off");
    }
}

/* Copies x and its objective into res with the given status. */
static void take(struct solve_result *res, const struct milp *m,
                 const double *x, int status)
{
    memcpy(res->x, x, m->n_cols * sizeof *x);
    res->objective = milp_objective(m, res->x);
    res->status = status;
}

static void decode(Cbc_Model *cm, const struct milp *m,
                   struct solve_result *res)
{
    const double *best = Cbc_bestSolution(cm);
    int st = Cbc_status(cm), sec = Cbc_secondaryStatus(cm), n_int = 0;
    double bound = Cbc_getBestPossibleObjValue(cm) + m->obj_offset;

    for (size_t i = 0; i < m->n_cols; i++)
        n_int += m->col_int[i];
    if (n_int == 0) {
        /* CBC's pure-LP path: no branch and bound, status stays -1. */
        if (Cbc_isProvenOptimal(cm)) {
            take(res, m, Cbc_getColSolution(cm), SOLVE_OPTIMAL);
            res->bound = res->objective;
        } else if (Cbc_isProvenInfeasible(cm))
            res->status = SOLVE_INFEASIBLE;
        else {
            res->status = SOLVE_FAILED;
            snprintf(res->msg, sizeof res->msg, "CBC: LP not solved%s",
                     Cbc_isContinuousUnbounded(cm) ? " (unbounded)" : "");
        }
        return;
    }
    if (isfinite(bound) && fabs(bound) < 1e300)
        res->bound = bound;
    switch (st) {
    case 0:
        if (best && Cbc_isProvenOptimal(cm)) {
            take(res, m, best, SOLVE_OPTIMAL);
            if (!(fabs(bound) < 1e300))
                res->bound = res->objective;
        } else if (Cbc_isProvenInfeasible(cm) || sec == 1)
            res->status = SOLVE_INFEASIBLE;
        else if (best)
            take(res, m, best, SOLVE_FEASIBLE);
        else {
            res->status = SOLVE_FAILED;
            snprintf(res->msg, sizeof res->msg,
                     "CBC finished without a solution or a proof "
                     "(secondary status %d%s)",
                     sec, sec == 7 ? ", unbounded" : "");
        }
        break;
    case 1: /* stopped on a limit */
    case 5: /* stopped by an event */
        if (best)
            take(res, m, best, SOLVE_FEASIBLE);
        else
            res->status = SOLVE_NO_SOLUTION;
        snprintf(res->msg, sizeof res->msg, "CBC stopped (secondary %d%s)", sec,
                 sec == 4 ? ", time limit" : "");
        break;
    case 2:
        if (best)
            take(res, m, best, SOLVE_FEASIBLE);
        else
            res->status = SOLVE_FAILED;
        snprintf(res->msg, sizeof res->msg,
                 "CBC abandoned the search (numerical difficulties)");
        break;
    default:
        res->status = SOLVE_FAILED;
        snprintf(res->msg, sizeof res->msg, "CBC status %d/%d", st, sec);
        break;
    }
}

static int cbc_solve(struct solver *s, const struct milp *m,
                     struct solve_result *res)
{
    double t0 = bfs_now(), t1;
    Cbc_Model *cm = Cbc_newModel();

    load(cm, m);
    set_options(cm, &s->opts);
    t1 = bfs_now();
    res->build_s = t1 - t0;
    Cbc_solve(cm);
    res->solve_s = bfs_now() - t1;
    decode(cm, m, res);
    Cbc_deleteModel(cm);
    return 0;
}

const struct solver_ops solver_cbc_ops = {
    .name = "cbc",
    .isolate_default = SOLVER_ISOLATE_YES,
    .takes_start = 1,
    .create = cbc_create,
    .solve = cbc_solve,
    .destroy = cbc_destroy,
};
