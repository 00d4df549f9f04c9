/* glpk.c - the GLPK backend (GLPK 5.0, glp_intopt with its presolver).
 *
 * GLPK calls abort() on a fatal error unless an error hook is set, and
 * the hook must longjmp out, after which glp_free_env() is mandatory and
 * destroys every GLPK object of the thread.  So each solve creates its
 * problem object, installs an error hook that jumps back here and a
 * terminal hook that keeps the last lines of output (for the message of
 * a failure; they go to the options' log callback only when log_level >
 * 0), and removes both before returning: no GLPK object or hook outlives
 * a solve.
 *
 * GLPK arrays are 1-based, and glp_add_rows / glp_add_cols abort on 0,
 * so empty parts are skipped.  lb == ub is GLP_FX (GLP_DB with lb >= ub
 * is an error); integer columns are GLP_IV with their own bounds (GLP_BV
 * would reset them to [0, 1]).  GLPK has no absolute gap and does not
 * report a final bound: a branch-and-bound callback reads the best node's
 * bound at every selection and new incumbent, and stops the search once
 * |bound - incumbent| <= gap_abs, which is then reported as optimal like
 * a stop on the relative gap.  GLPK has no threads.
 */
#include "config.h"

#include "solver/backend.h"
#include "base/util.h"

#include <glpk.h>

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct glpk_solver {
    struct solver base;
};

/* What the hooks and the callback share with glpk_solve. */
struct glpk_ctx {
    jmp_buf jb;
    char tail[200]; /* the last output, for error messages */
    double gap_abs; /* stop when |bound - incumbent| <= this */
    int gap_stop;   /* the callback stopped the search on gap_abs */
    int have_bound; /* bound holds the best node's bound */
    double bound;
    /* where GLPK's output goes (log_level > 0), or NULL */
    void (*log)(const char *text);
};

static int glpk_create(const struct solver_opts *o, struct solver **out)
{
    struct glpk_solver *g = xcalloc(1, sizeof *g);

    g->base.opts = *o;
    *out = &g->base;
    return 0;
}

static void glpk_destroy(struct solver *s)
{
    xfree(s);
}

static void error_hook(void *info)
{
    struct glpk_ctx *c = info;

    longjmp(c->jb, 1);
}

static int term_hook(void *info, const char *s)
{
    struct glpk_ctx *c = info;
    size_t n = strlen(s), have = strlen(c->tail);

    if (c->log)
        c->log(s);
    if (n >= sizeof c->tail) {
        s += n - (sizeof c->tail - 1);
        n = sizeof c->tail - 1;
    }
    if (have + n >= sizeof c->tail) {
        size_t drop = have + n - (sizeof c->tail - 1);
        memmove(c->tail, c->tail + drop, have - drop + 1);
        have -= drop;
    }
    memcpy(c->tail + have, s, n + 1);
    return 1; /* GLPK prints nothing itself */
}

static void callback(glp_tree *T, void *info)
{
    struct glpk_ctx *c = info;
    int why = glp_ios_reason(T), best;
    glp_prob *P;

    if (why != GLP_ISELECT && why != GLP_IBINGO)
        return;
    best = glp_ios_best_node(T);
    if (best == 0)
        return;
    c->bound = glp_ios_node_bound(T, best);
    c->have_bound = 1;
    P = glp_ios_get_prob(T);
    if (c->gap_abs > 0 && glp_mip_status(P) == GLP_FEAS &&
        fabs(c->bound - glp_mip_obj_val(P)) <= c->gap_abs) {
        c->gap_stop = 1;
        glp_ios_terminate(T);
    }
}

static int bound_type(double lb, double ub)
{
    if (lb == ub)
        return GLP_FX;
    if (isinf(lb) && isinf(ub))
        return GLP_FR;
    if (isinf(ub))
        return GLP_LO;
    if (isinf(lb))
        return GLP_UP;
    return GLP_DB;
}

static double finite0(double v)
{
    return isinf(v) ? 0.0 : v;
}

/* Loads m into P (1-based). */
static void load(glp_prob *P, const struct milp *m, int *ia, int *ja,
                 double *ar)
{
    int nc = (int)m->n_cols, nr = (int)m->n_rows;

    glp_set_obj_dir(P, m->maximize ? GLP_MAX : GLP_MIN);
    glp_set_obj_coef(P, 0, m->obj_offset);
    if (nr > 0)
        glp_add_rows(P, nr);
    if (nc > 0)
        glp_add_cols(P, nc);
    for (int r = 0; r < nr; r++)
        glp_set_row_bnds(P, r + 1, bound_type(m->row_lb[r], m->row_ub[r]),
                         finite0(m->row_lb[r]), finite0(m->row_ub[r]));
    for (int i = 0; i < nc; i++) {
        if (m->col_int[i])
            glp_set_col_kind(P, i + 1, GLP_IV);
        glp_set_col_bnds(P, i + 1, bound_type(m->col_lb[i], m->col_ub[i]),
                         finite0(m->col_lb[i]), finite0(m->col_ub[i]));
        glp_set_obj_coef(P, i + 1, m->obj[i]);
    }
    for (int r = 0; r < nr; r++)
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++) {
            ia[k + 1] = r + 1;
            ja[k + 1] = m->row_ind[k] + 1;
            ar[k + 1] = m->row_val[k];
        }
    if (m->nnz > 0)
        glp_load_matrix(P, (int)m->nnz, ia, ja, ar);
}

static void take(struct solve_result *res, const struct milp *m, glp_prob *P,
                 int status)
{
    for (size_t i = 0; i < m->n_cols; i++)
        res->x[i] = glp_mip_col_val(P, (int)i + 1);
    res->objective = milp_objective(m, res->x);
    res->status = status;
}

static void decode(int ret, glp_prob *P, const struct milp *m,
                   const struct glpk_ctx *c, struct solve_result *res)
{
    int st = glp_mip_status(P);
    int has = st == GLP_OPT || st == GLP_FEAS;

    if (c->have_bound)
        res->bound = c->bound;
    switch (ret) {
    case 0:
        if (st == GLP_OPT) {
            take(res, m, P, SOLVE_OPTIMAL);
            res->bound = res->objective; /* proven */
        } else if (st == GLP_NOFEAS)
            res->status = SOLVE_INFEASIBLE;
        else if (st == GLP_FEAS)
            take(res, m, P, SOLVE_FEASIBLE);
        else
            res->status = SOLVE_NO_SOLUTION;
        return;
    case GLP_ENOPFS: /* the presolver proved infeasibility */
        res->status = SOLVE_INFEASIBLE;
        return;
    case GLP_EMIPGAP: /* relative gap reached */
        take(res, m, P, SOLVE_OPTIMAL);
        if (!c->have_bound)
            res->bound = res->objective;
        return;
    case GLP_ESTOP:
        if (c->gap_stop && has) {
            take(res, m, P, SOLVE_OPTIMAL);
            return;
        }
        break;
    case GLP_ETMLIM:
        if (has)
            take(res, m, P, SOLVE_FEASIBLE);
        else
            res->status = SOLVE_NO_SOLUTION;
        snprintf(res->msg, sizeof res->msg, "GLPK: time limit reached");
        return;
    case GLP_ENODFS:
        res->status = SOLVE_FAILED;
        snprintf(res->msg, sizeof res->msg,
                 "GLPK: LP relaxation unbounded (no dual feasible "
                 "solution)");
        return;
    default:
        break;
    }
    res->status = SOLVE_FAILED;
    snprintf(res->msg, sizeof res->msg, "GLPK: glp_intopt returned %d%s%s", ret,
             c->tail[0] ? ": " : "", c->tail);
}

static int glpk_solve(struct solver *s, const struct milp *m,
                      struct solve_result *res)
{
    const struct solver_opts *o = &s->opts;
    double t0 = bfs_now(), t1;
    int *ia = xcalloc(m->nnz + 1, sizeof *ia);
    int *ja = xcalloc(m->nnz + 1, sizeof *ja);
    double *ar = xcalloc(m->nnz + 1, sizeof *ar);
    const char *hook = getenv(SOLVER_TEST_GLPK_ERROR_ENV);
    struct glpk_ctx ctx;
    glp_prob *volatile P = NULL;
    glp_iocp parm;
    int ret;

    memset(&ctx, 0, sizeof ctx);
    ctx.log = o->log_level > 0 ? o->log : NULL;
    ctx.gap_abs = o->gap_abs;
    glp_error_hook(error_hook, &ctx);
    glp_term_hook(term_hook, &ctx);
    if (setjmp(ctx.jb)) {
        /* A GLPK error: every GLPK object of this thread is gone. */
        glp_free_env();
        res->status = SOLVE_FAILED;
        snprintf(res->msg, sizeof res->msg, "GLPK error: %s", ctx.tail);
        res->msg[strcspn(res->msg, "\n")] = '\0';
        res->solve_s = bfs_now() - t0;
        goto out;
    }
    P = glp_create_prob();
    load(P, m, ia, ja, ar);
    if (hook && strcmp(hook, "1") == 0)
        glp_add_rows(P, 0); /* a fatal GLPK error, on purpose */
    glp_init_iocp(&parm);
    parm.msg_lev = o->log_level <= 0   ? GLP_MSG_OFF
                   : o->log_level == 1 ? GLP_MSG_ON
                                       : GLP_MSG_ALL;
    parm.presolve = GLP_ON;
    parm.tol_int = SOLVER_INT_TOL;
    /* GLPK prunes nodes not better than the incumbent by tol_obj
     * (relative, 1e-7 by default, must be > 0): never looser than the gap
     * asked for, down to 1e-12. */
    if (o->gap_rel < parm.tol_obj)
        parm.tol_obj = o->gap_rel > 1e-12 ? o->gap_rel : 1e-12;
    parm.mip_gap = o->gap_rel;
    if (o->time_limit < HUGE_VAL)
        parm.tm_lim = o->time_limit * 1e3 >= INT_MAX
                          ? INT_MAX
                          : (int)ceil(o->time_limit * 1e3);
    parm.cb_func = callback;
    parm.cb_info = &ctx;
    t1 = bfs_now();
    res->build_s = t1 - t0;
    ret = glp_intopt(P, &parm);
    res->solve_s = bfs_now() - t1;
    decode(ret, P, m, &ctx, res);
    glp_delete_prob(P);
out:
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    xfree(ar);
    xfree(ja);
    xfree(ia);
    return 0;
}

const struct solver_ops solver_glpk_ops = {
    .name = "glpk",
    .isolate_default = SOLVER_ISOLATE_NO,
    .create = glpk_create,
    .solve = glpk_solve,
    .destroy = glpk_destroy,
};
