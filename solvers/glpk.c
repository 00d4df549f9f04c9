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
 *
 * Parameters (params below) are fields of glp_iocp, by their names, and
 * three of glp_smcp; words are the GLP_* constants' suffixes in lower
 * case.  They are set after bfsim's own settings, so they win (mip_gap
 * replaces the gap option, tol_obj bfsim's choice).  With presolve=off
 * glp_intopt needs an optimal basis of the relaxation: glp_simplex runs
 * first with the glp_smcp fields (meth, pricing, r_test), and an
 * infeasible relaxation is an infeasible model; with the presolver on,
 * glp_intopt solves the relaxation itself and those three do not apply.
 * The presolver is on by default, off for SOLVER_EFFORT_LIGHT (small
 * models with a tight relaxation, where it costs more than it saves).
 *
 * Work: the callback (on every call) reads the tree's size, whose
 * subproblems less the root are the nodes, the simplex iterations of
 * the problem the search runs on, and at the root, each time its
 * relaxation is solved, its value and the rows of cut origin: the last
 * reading is the root bound after its cuts.  A model the presolver
 * decides alone has no tree: 0 nodes, no root bound.  Seeds (opts.seed >
 * 0): GLPK has no random seed; the model's columns and rows are loaded
 * in an order permuted by splitmix64 from the seed, and x is read back
 * through the same permutation.
 *
 * A model's start is offered to GLPK at the first heuristic callback
 * (glp_ios_heur_sol, which refuses an infeasible point) when the
 * presolver is off: with it on, the callback sees the presolved problem,
 * whose columns are not the model's.  So GLPK takes a start at
 * SOLVER_EFFORT_LIGHT (SOLVER_START_LIGHT) unless presolve=on is given.
 */
#include "config.h"

#include "solver/backend.h"
#include "base/util.h"

#include <glpk.h>

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONOFF "on|off"

/* The parameters accepted (struct solver_param, solver/solver.h). */
static const struct solver_param params[] = {
    {"presolve", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "glp_intopt's MIP presolver (bfsim's default: on, off on the count "
     "model and the tie-break stages)"},
    {"binarize", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "replace integer columns by binaries (with presolve=on)"},
    {"br_tech", SOLVER_PARAM_WORD, "ffv|lfv|mfv|dth|pch", 0, 0,
     "branching: first, last, most fractional variable, Driebeck-Tomlin "
     "(default), hybrid pseudo-cost"},
    {"bt_tech", SOLVER_PARAM_WORD, "dfs|bfs|blb|bph", 0, 0,
     "backtracking: depth first, breadth first, best local bound "
     "(default), best projection"},
    {"pp_tech", SOLVER_PARAM_WORD, "none|root|all", 0, 0,
     "preprocessing at nodes: none, the root, all (default)"},
    {"gmi_cuts", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "Gomory mixed-integer cuts (default off)"},
    {"mir_cuts", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "mixed-integer rounding cuts (default off)"},
    {"cov_cuts", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "mixed cover cuts (default off)"},
    {"clq_cuts", SOLVER_PARAM_WORD, ONOFF, 0, 0, "clique cuts (default off)"},
    {"fp_heur", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "feasibility pump heuristic (default off)"},
    {"ps_heur", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "proximity search heuristic (default off)"},
    {"ps_tm_lim", SOLVER_PARAM_INT, NULL, 0, 2147483647.0,
     "proximity search time limit, ms (default 60000)"},
    {"sr_heur", SOLVER_PARAM_WORD, ONOFF, 0, 0,
     "simple rounding heuristic (default on)"},
    {"mip_gap", SOLVER_PARAM_REAL, NULL, 0, 1e9,
     "relative gap to stop at (replaces --gap in every solve)"},
    {"tol_int", SOLVER_PARAM_REAL, NULL, 1e-12, 0.1,
     "integrality tolerance (bfsim's default: 1e-9)"},
    {"tol_obj", SOLVER_PARAM_REAL, NULL, 1e-12, 0.1,
     "relative tolerance pruning nodes against the incumbent"},
    {"meth", SOLVER_PARAM_WORD, "primal|dual|dualp", 0, 0,
     "simplex method of the root LP (with presolve=off)"},
    {"pricing", SOLVER_PARAM_WORD, "std|pse", 0, 0,
     "simplex pricing (with presolve=off)"},
    {"r_test", SOLVER_PARAM_WORD, "std|har|flip", 0, 0,
     "simplex ratio test (with presolve=off)"},
};

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
    const double *start; /* 1-based, or NULL: the model's start, offered
                            at the first heuristic call */
    /* work, as last seen by the callback: the tree's subproblems (the
     * root included), the iterations of the problem the search runs on,
     * the root's LP value and cuts after the last round at the root */
    int t_cnt, it_cnt, root_cuts, have_root;
    double root_bound;
    const int *cpos; /* the model's columns' GLPK indices, or NULL */
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

/* Reads the work done so far: the tree's size, the iterations, and at
 * the root, once its relaxation is solved, its value and cuts. */
static void note_work(glp_tree *T, struct glpk_ctx *c, int why)
{
    glp_prob *P = glp_ios_get_prob(T);
    int a_cnt, n_cnt, cur = glp_ios_curr_node(T);

    glp_ios_tree_size(T, &a_cnt, &n_cnt, &c->t_cnt);
    c->it_cnt = glp_get_it_cnt(P);
    if (cur != 0 && glp_ios_node_level(T, cur) == 0 &&
        (why == GLP_IROWGEN || why == GLP_IHEUR || why == GLP_ICUTGEN ||
         why == GLP_IBRANCH || why == GLP_IBINGO)) {
        int nr = glp_get_num_rows(P), cuts = 0;
        for (int i = 1; i <= nr; i++) {
            glp_attr at;
            glp_ios_row_attr(T, i, &at);
            cuts += at.origin == GLP_RF_CUT;
        }
        c->root_bound = glp_get_obj_val(P);
        c->root_cuts = cuts;
        c->have_root = 1;
    }
}

static void callback(glp_tree *T, void *info)
{
    struct glpk_ctx *c = info;
    int why = glp_ios_reason(T), best;
    glp_prob *P;

    note_work(T, c, why);
    if (why == GLP_IHEUR && c->start) {
        glp_ios_heur_sol(T, c->start); /* refused if not feasible */
        c->start = NULL;
        return;
    }
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

/* A permutation of 0..n-1 drawn from seed, 1-based as GLPK's indices:
 * p[i] is the GLPK index (1..n) of the model's i-th item; NULL for seed
 * 0 (the identity). */
static int *permutation(size_t n, unsigned seed, uint64_t salt)
{
    uint64_t st = (uint64_t)seed * 0xD1B54A32D192ED03ull + salt;
    size_t *a;
    int *p;

    if (seed == 0)
        return NULL;
    a = xcalloc(n + 1, sizeof *a);
    p = xcalloc(n + 1, sizeof *p);
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    bfs_shuffle(a, n, &st);
    for (size_t k = 0; k < n; k++)
        p[a[k]] = (int)k + 1;
    xfree(a);
    return p;
}

/* The GLPK index of the model's item i under the permutation p. */
static int at(const int *p, size_t i)
{
    return p ? p[i] : (int)i + 1;
}

/* Loads m into P (1-based), its columns and rows placed by cpos and rpos
 * (permutation()). */
static void load(glp_prob *P, const struct milp *m, const int *cpos,
                 const int *rpos, int *ia, int *ja, double *ar)
{
    int nc = (int)m->n_cols, nr = (int)m->n_rows;

    glp_set_obj_dir(P, m->maximize ? GLP_MAX : GLP_MIN);
    glp_set_obj_coef(P, 0, m->obj_offset);
    if (nr > 0)
        glp_add_rows(P, nr);
    if (nc > 0)
        glp_add_cols(P, nc);
    for (int r = 0; r < nr; r++)
        glp_set_row_bnds(P, at(rpos, (size_t)r),
                         bound_type(m->row_lb[r], m->row_ub[r]),
                         finite0(m->row_lb[r]), finite0(m->row_ub[r]));
    for (int i = 0; i < nc; i++) {
        int g = at(cpos, (size_t)i);
        if (m->col_int[i])
            glp_set_col_kind(P, g, GLP_IV);
        glp_set_col_bnds(P, g, bound_type(m->col_lb[i], m->col_ub[i]),
                         finite0(m->col_lb[i]), finite0(m->col_ub[i]));
        glp_set_obj_coef(P, g, m->obj[i]);
    }
    for (int r = 0; r < nr; r++)
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++) {
            ia[k + 1] = at(rpos, (size_t)r);
            ja[k + 1] = at(cpos, (size_t)m->row_ind[k]);
            ar[k + 1] = m->row_val[k];
        }
    if (m->nnz > 0)
        glp_load_matrix(P, (int)m->nnz, ia, ja, ar);
}

static void take(struct solve_result *res, const struct milp *m, glp_prob *P,
                 const int *cpos, int status)
{
    for (size_t i = 0; i < m->n_cols; i++)
        res->x[i] = glp_mip_col_val(P, at(cpos, i));
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
            take(res, m, P, c->cpos, SOLVE_OPTIMAL);
            res->bound = res->objective; /* proven */
        } else if (st == GLP_NOFEAS)
            res->status = SOLVE_INFEASIBLE;
        else if (st == GLP_FEAS)
            take(res, m, P, c->cpos, SOLVE_FEASIBLE);
        else
            res->status = SOLVE_NO_SOLUTION;
        return;
    case GLP_ENOPFS: /* the presolver proved infeasibility */
        res->status = SOLVE_INFEASIBLE;
        return;
    case GLP_EMIPGAP: /* relative gap reached */
        take(res, m, P, c->cpos, SOLVE_OPTIMAL);
        if (!c->have_bound)
            res->bound = res->objective;
        return;
    case GLP_ESTOP:
        if (c->gap_stop && has) {
            take(res, m, P, c->cpos, SOLVE_OPTIMAL);
            return;
        }
        break;
    case GLP_ETMLIM:
        if (has)
            take(res, m, P, c->cpos, SOLVE_FEASIBLE);
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

/* The GLP_* value of a word of the parameters (checked by solver.c);
 * "std" is GLP_PT_STD and GLP_RT_STD alike (0x11). */
static int word_value(const char *w)
{
    static const struct {
        const char *w;
        int v;
    } words[] = {
        {"on", GLP_ON},        {"off", GLP_OFF},     {"ffv", GLP_BR_FFV},
        {"lfv", GLP_BR_LFV},   {"mfv", GLP_BR_MFV},  {"dth", GLP_BR_DTH},
        {"pch", GLP_BR_PCH},   {"dfs", GLP_BT_DFS},  {"bfs", GLP_BT_BFS},
        {"blb", GLP_BT_BLB},   {"bph", GLP_BT_BPH},  {"none", GLP_PP_NONE},
        {"root", GLP_PP_ROOT}, {"all", GLP_PP_ALL},  {"primal", GLP_PRIMAL},
        {"dual", GLP_DUAL},    {"dualp", GLP_DUALP}, {"std", GLP_PT_STD},
        {"pse", GLP_PT_PSE},   {"har", GLP_RT_HAR},  {"flip", GLP_RT_FLIP},
    };

    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(words[i].w, w) == 0)
            return words[i].v;
    return 0;
}

/* Sets the user's parameters, "key=value,..." (checked by solver.c), in
 * parm and smcp. */
static void apply_params(glp_iocp *parm, glp_smcp *smcp, const char *text)
{
    static const struct {
        const char *key;
        size_t off;
        int in_smcp;
    } ints[] = {
        {"presolve", offsetof(glp_iocp, presolve), 0},
        {"binarize", offsetof(glp_iocp, binarize), 0},
        {"br_tech", offsetof(glp_iocp, br_tech), 0},
        {"bt_tech", offsetof(glp_iocp, bt_tech), 0},
        {"pp_tech", offsetof(glp_iocp, pp_tech), 0},
        {"gmi_cuts", offsetof(glp_iocp, gmi_cuts), 0},
        {"mir_cuts", offsetof(glp_iocp, mir_cuts), 0},
        {"cov_cuts", offsetof(glp_iocp, cov_cuts), 0},
        {"clq_cuts", offsetof(glp_iocp, clq_cuts), 0},
        {"fp_heur", offsetof(glp_iocp, fp_heur), 0},
        {"ps_heur", offsetof(glp_iocp, ps_heur), 0},
        {"ps_tm_lim", offsetof(glp_iocp, ps_tm_lim), 0},
        {"sr_heur", offsetof(glp_iocp, sr_heur), 0},
        {"meth", offsetof(glp_smcp, meth), 1},
        {"pricing", offsetof(glp_smcp, pricing), 1},
        {"r_test", offsetof(glp_smcp, r_test), 1},
    };
    char key[32], value[64];
    const char *p = text;

    while (solver_param_next(&p, key, sizeof key, value, sizeof value)) {
        if (strcmp(key, "mip_gap") == 0)
            parm->mip_gap = strtod(value, NULL);
        else if (strcmp(key, "tol_int") == 0)
            parm->tol_int = strtod(value, NULL);
        else if (strcmp(key, "tol_obj") == 0)
            parm->tol_obj = strtod(value, NULL);
        for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
            char *base = ints[i].in_smcp ? (char *)smcp : (char *)parm;
            int v;
            if (strcmp(ints[i].key, key) != 0)
                continue;
            v = value[0] == '-' || (value[0] >= '0' && value[0] <= '9')
                    ? atoi(value)
                    : word_value(value);
            memcpy(base + ints[i].off, &v, sizeof v);
        }
    }
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
    double *volatile start1 = NULL;
    int *volatile cpos = permutation(m->n_cols, o->seed, 1);
    int *volatile rpos = permutation(m->n_rows, o->seed, 2);
    glp_iocp parm;
    glp_smcp smcp;
    int ret;

    memset(&ctx, 0, sizeof ctx);
    ctx.log = o->log_level > 0 ? o->log : NULL;
    ctx.gap_abs = o->gap_abs;
    ctx.cpos = cpos;
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
    load(P, m, cpos, rpos, ia, ja, ar);
    if (hook && strcmp(hook, "1") == 0)
        glp_add_rows(P, 0); /* a fatal GLPK error, on purpose */
    glp_init_iocp(&parm);
    parm.msg_lev = o->log_level <= 0   ? GLP_MSG_OFF
                   : o->log_level == 1 ? GLP_MSG_ON
                                       : GLP_MSG_ALL;
    /* the presolver costs more than it saves on small models with a
     * tight relaxation (the count model's stages: 2.8x less solve time on
     * the full Summit replay's first 1706 solves) */
    parm.presolve = o->effort == SOLVER_EFFORT_LIGHT ? GLP_OFF : GLP_ON;
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
    glp_init_smcp(&smcp);
    smcp.msg_lev = parm.msg_lev;
    smcp.tm_lim = parm.tm_lim;
    apply_params(&parm, &smcp, o->params);
    if (m->start && parm.presolve == GLP_OFF) {
        start1 = xcalloc(m->n_cols + 1, sizeof *start1);
        for (size_t i = 0; i < m->n_cols; i++)
            start1[at(cpos, i)] = m->start[i];
        ctx.start = start1;
    }
    t1 = bfs_now();
    res->build_s = t1 - t0;
    if (parm.presolve == GLP_OFF) {
        /* glp_intopt needs the relaxation's optimal basis; scaled, as
         * the presolver's path is (unscaled, the tie-break stages' large
         * weights made GLPK return wrong optima on check_alloc's and
         * check_tiebreak's instances) */
        glp_scale_prob(P, GLP_SF_AUTO);
        ret = glp_simplex(P, &smcp);
        if ((ret == 0 && glp_get_status(P) == GLP_NOFEAS) ||
            ret == GLP_ETMLIM) {
            res->solve_s = bfs_now() - t1;
            res->nodes = 0;
            res->iters = glp_get_it_cnt(P);
            res->cuts = 0;
            res->status =
                ret == GLP_ETMLIM ? SOLVE_NO_SOLUTION : SOLVE_INFEASIBLE;
            if (ret == GLP_ETMLIM && ctx.start &&
                milp_violation(m, m->start) <= 1e-9) {
                /* stopped before the search: the start is the incumbent,
                 * as in CBC's backend */
                memcpy(res->x, m->start, m->n_cols * sizeof *res->x);
                res->objective = milp_objective(m, res->x);
                res->status = SOLVE_FEASIBLE;
            }
            if (ret == GLP_ETMLIM)
                snprintf(res->msg, sizeof res->msg,
                         "GLPK: time limit reached in the relaxation");
            glp_delete_prob(P);
            goto out;
        }
    }
    ret = glp_intopt(P, &parm);
    res->solve_s = bfs_now() - t1;
    decode(ret, P, m, &ctx, res);
    /* the tree's subproblems less the root; the iterations of P (the
     * search's problem without the presolver) or of the presolved one */
    res->nodes = ctx.t_cnt > 1 ? ctx.t_cnt - 1 : 0;
    res->iters = glp_get_it_cnt(P);
    if (ctx.it_cnt > res->iters)
        res->iters = ctx.it_cnt;
    if (ctx.have_root) {
        res->root_bound = ctx.root_bound;
        res->cuts = ctx.root_cuts;
    }
    glp_delete_prob(P);
out:
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    xfree(start1);
    xfree(rpos);
    xfree(cpos);
    xfree(ar);
    xfree(ja);
    xfree(ia);
    return 0;
}

const struct solver_ops solver_glpk_ops = {
    .name = "glpk",
    .version = glp_version,
    .work = SOLVER_WORK_NODES | SOLVER_WORK_ITERS | SOLVER_WORK_ROOT_BOUND |
            SOLVER_WORK_CUTS,
    .isolate_default = SOLVER_ISOLATE_NO,
    .takes_start = SOLVER_START_LIGHT,
    .params = params,
    .n_params = sizeof params / sizeof *params,
    .create = glpk_create,
    .solve = glpk_solve,
    .destroy = glpk_destroy,
};
