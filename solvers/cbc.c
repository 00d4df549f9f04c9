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
 * A time limit that ends the solve inside CBC's integer preprocessing
 * leaves status 0 with "proven infeasible" on a feasible model (seen with
 * a 0.3 s limit under valgrind, where preprocessing alone takes longer):
 * so a solve that ran to its time limit is never reported INFEASIBLE, but
 * FEASIBLE with its incumbent or NO_SOLUTION, as a stop on the limit.
 * Stopped there, CBC has not read the start either: a feasible start is
 * then the incumbent, as solver.c's forced timeout has it.
 *
 * Parameters (params below): a chosen subset of CBC's command-line
 * parameters, with the values CBC 2.10.8 lists for each (`name?` in its
 * parameter interface) and its ranges, narrowed where a value makes no
 * sense here.  They are passed with Cbc_setParameter after bfsim's own
 * settings, so they win (CBC takes the last value given).  CBC accepts
 * out-of-range numbers silently, and prints unknown names and words to
 * stdout and goes on: the table is the check, and a test sets every
 * entry and watches stdout.  strategy=2 has crashed CBC 2.10.8 (SIGSEGV)
 * on small knapsacks: the isolation (solver.c) turns that into FAILED.
 *
 * Work: CBC's node count (0 when the root decided) and its simplex
 * iterations, from the C API; seeds (opts.seed > 0) set randomCbcSeed
 * and randomSeed, which a user's parameters may still replace.
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

#define CUTS "off|on|root|ifmove|forceOn"
#define HEUR "off|on|both|before"
#define IMAX 2147483647.0

/* The parameters accepted (struct solver_param, solver/solver.h). */
static const struct solver_param params[] = {
    {"preprocess", SOLVER_PARAM_WORD,
     "off|on|equal|sos|trysos|equalall|strategy|aggregate|forcesos", 0, 0,
     "integer preprocessing (CBC's default: sos; bfsim's count model: off)"},
    {"presolve", SOLVER_PARAM_WORD, "on|off|more", 0, 0,
     "LP presolve of the relaxation"},
    {"cuts", SOLVER_PARAM_WORD, CUTS, 0, 0,
     "every cut generator at once (before the per-generator keys)"},
    {"gomoryCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "Gomory cuts"},
    {"GMICuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "Gomory mixed-integer cuts"},
    {"mixedIntegerRoundingCuts", SOLVER_PARAM_WORD, CUTS, 0, 0,
     "mixed-integer rounding cuts"},
    {"twoMirCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "two-step MIR cuts"},
    {"probingCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "probing"},
    {"knapsackCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "knapsack cover cuts"},
    {"cliqueCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "clique cuts"},
    {"flowCoverCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "flow cover cuts"},
    {"zeroHalfCuts", SOLVER_PARAM_WORD, CUTS, 0, 0, "zero-half cuts"},
    {"liftAndProjectCuts", SOLVER_PARAM_WORD, CUTS, 0, 0,
     "lift-and-project cuts"},
    {"reduceAndSplitCuts", SOLVER_PARAM_WORD, CUTS, 0, 0,
     "reduce-and-split cuts"},
    {"residualCapacityCuts", SOLVER_PARAM_WORD, CUTS, 0, 0,
     "residual capacity cuts"},
    {"passCuts", SOLVER_PARAM_INT, NULL, -999, 999,
     "cut passes at the root (negative: that many, even without progress)"},
    {"passTree", SOLVER_PARAM_INT, NULL, -999, 999, "cut passes in the tree"},
    {"cutDepth", SOLVER_PARAM_INT, NULL, -1, IMAX,
     "generate cuts at nodes of depth multiple of this (-1: CBC decides)"},
    {"heuristics", SOLVER_PARAM_WORD, "off|on", 0, 0,
     "every primal heuristic at once (before the per-heuristic keys)"},
    {"feasibilityPump", SOLVER_PARAM_WORD, HEUR, 0, 0, "feasibility pump"},
    {"roundingHeuristic", SOLVER_PARAM_WORD, HEUR, 0, 0, "rounding"},
    {"greedyHeuristic", SOLVER_PARAM_WORD, HEUR, 0, 0, "greedy heuristic"},
    {"Rins", SOLVER_PARAM_WORD, "off|on|both|before|often", 0, 0, "RINS"},
    {"Rens", SOLVER_PARAM_WORD, HEUR, 0, 0, "RENS"},
    {"localTreeSearch", SOLVER_PARAM_WORD, "off|on", 0, 0, "local tree search"},
    {"proximitySearch", SOLVER_PARAM_WORD, HEUR, 0, 0, "proximity search"},
    {"DivingSome", SOLVER_PARAM_WORD, HEUR, 0, 0, "a few diving heuristics"},
    {"combineSolutions", SOLVER_PARAM_WORD, HEUR, 0, 0,
     "combine solutions (mini branch and bound)"},
    {"strategy", SOLVER_PARAM_INT, NULL, 0, 2,
     "groups of features: 0 cheap, 1 default, 2 expensive (2 has crashed "
     "CBC 2.10.8)"},
    {"nodeStrategy", SOLVER_PARAM_WORD,
     "hybrid|fewest|depth|upfewest|downfewest|updepth|downdepth", 0, 0,
     "node selection"},
    {"strongBranching", SOLVER_PARAM_INT, NULL, 0, IMAX,
     "candidates for strong branching"},
    {"trustPseudoCosts", SOLVER_PARAM_INT, NULL, -3, IMAX,
     "branches before pseudo-costs are trusted"},
    {"maxNodes", SOLVER_PARAM_INT, NULL, 0, IMAX,
     "stop after this many branch-and-bound nodes"},
    {"maxSolutions", SOLVER_PARAM_INT, NULL, 1, IMAX,
     "stop after this many improving solutions"},
    {"ratioGap", SOLVER_PARAM_REAL, NULL, 0, 1e308,
     "relative gap to stop at (replaces --gap in every solve)"},
    {"allowableGap", SOLVER_PARAM_REAL, NULL, 0, 1e308,
     "absolute gap to stop at, in the model's scaled units"},
    {"randomCbcSeed", SOLVER_PARAM_INT, NULL, 0, IMAX,
     "CBC's random seed (0: CBC's default)"},
    {"randomSeed", SOLVER_PARAM_INT, NULL, 0, IMAX,
     "the LP solver's (Clp's) random seed (0: its default)"},
};

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

/* Passes the user's parameters, "key=value,..." (checked by solver.c). */
static void apply_params(Cbc_Model *cm, const char *text)
{
    char key[64], value[64];
    const char *p = text;

    while (solver_param_next(&p, key, sizeof key, value, sizeof value))
        Cbc_setParameter(cm, key, value);
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
    if (o->seed > 0) {
        /* the seed of CBC's own choices and of the LP solver's */
        set_param(cm, "randomCbcSeed", o->seed);
        set_param(cm, "randomSeed", o->seed);
    }
    if (o->effort == SOLVER_EFFORT_LIGHT) {
        Cbc_setParameter(cm, "preprocess", "off");
        Cbc_setParameter(cm, "cuts", "off");
        Cbc_setParameter(cm, "heuristics", "off");
    } else if (o->effort == SOLVER_EFFORT_PROVE) {
        Cbc_setParameter(cm, "preprocess", "off");
        Cbc_setParameter(cm, "passCuts", "1");
        Cbc_setParameter(cm, "heuristics", "off");
    }
    apply_params(cm, o->params);
}

/* Copies x and its objective into res with the given status. */
static void take(struct solve_result *res, const struct milp *m,
                 const double *x, int status)
{
    memcpy(res->x, x, m->n_cols * sizeof *x);
    res->objective = milp_objective(m, res->x);
    res->status = status;
}

static void decode(Cbc_Model *cm, const struct milp *m, int timed_out,
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
        } else if (timed_out) {
            if (best)
                take(res, m, best, SOLVE_FEASIBLE);
            else if (m->start && milp_violation(m, m->start) <= 1e-9)
                take(res, m, m->start, SOLVE_FEASIBLE);
            else
                res->status = SOLVE_NO_SOLUTION;
            snprintf(res->msg, sizeof res->msg,
                     "CBC reached its time limit (secondary status %d)", sec);
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
    res->nodes = Cbc_getNodeCount(cm);
    res->iters = Cbc_getIterationCount(cm);
    decode(cm, m,
           Cbc_isSecondsLimitReached(cm) || res->solve_s >= s->opts.time_limit,
           res);
    Cbc_deleteModel(cm);
    return 0;
}

static const char *cbc_version(void)
{
    return Cbc_getVersion();
}

const struct solver_ops solver_cbc_ops = {
    .name = "cbc",
    .version = cbc_version,
    /* the C API of 2.10 reports neither the root bound nor the cuts */
    .work = SOLVER_WORK_NODES | SOLVER_WORK_ITERS,
    .isolate_default = SOLVER_ISOLATE_YES,
    .takes_start = 1,
    .params = params,
    .n_params = sizeof params / sizeof *params,
    .create = cbc_create,
    .solve = cbc_solve,
    .destroy = cbc_destroy,
};
