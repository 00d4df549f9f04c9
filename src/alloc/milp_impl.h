/* alloc/milp_impl.h - private to the MILP allocator's files
 * (alloc/milp_*.c; see milp_alloc.c's top for which calls which): the
 * allocator's state, linear expressions, the count and node models'
 * common struct and the functions the files share.  Nothing else
 * includes it.
 */
#ifndef BFS_ALLOC_MILP_IMPL_H
#define BFS_ALLOC_MILP_IMPL_H

#include "alloc/alloc.h"
#include "solver/milp.h"
#include "solver/solver.h"
#include "base/util.h"

#include <stddef.h>

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

/* The solver option aggregate=: when the count model is aggregated over
 * classes of identical jobs (milp_agg.c). */
enum { AGG_AUTO, AGG_YES, AGG_NO };

/* The allocator's state (milp_alloc.c makes it). */
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
    int aggregate;           /* AGG_*: the option aggregate= */
    int agg_now;             /* this call solves the aggregated model */
    int mps_rc;              /* the first write's error in this call */
    struct bfs_error mps_e;  /* ... and its message */
};

/* A linear expression c0 + sum val[k] x[col[k]] over a model's columns. */
struct lexpr {
    size_t n, cap;
    int *col;    /* owned */
    double *val; /* owned */
    double c0;
};

/* The count or the node model of one allocation problem (milp_count.c,
 * milp_node.c): the stage-1 MILP and, per job, its count and keep as
 * expressions over its columns. */
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

/* ---- milp_base.c ------------------------------------------------------ */

/* Appends v x[col] to x (x grows; owned by the caller). */
void lexpr_add(struct lexpr *x, int col, double v);
/* Frees x's arrays and zeroes it. */
void lexpr_release(struct lexpr *x);
/* Adds coef * (x without its constant) to m's open row. */
void lexpr_row(struct milp *m, const struct lexpr *x, double coef);
/* x's value at the point sol (the model's columns). */
double lexpr_eval(const struct lexpr *x, const double *sol);

/* Starts a model of p in a: an empty MILP, each job's largest admissible
 * count, the objective unit (the tie tolerance) and the number of types.
 * Release with amodel_release. */
void amodel_init(struct amodel *a, const struct alloc_problem *p);
void amodel_release(struct amodel *a);
/* The column of y[j,t,n] in the count model c, or -1 (none, or n out of
 * range); n == 0 reads type 0's entry, whatever t. */
int amodel_ycol(const struct amodel *c, size_t j, int t, int n);
/* Reads the counts from a solution x of a (rounded) into n (a->nj). */
void amodel_counts(const struct amodel *a, const double *x, int *n);
/* Reads the types from a solution of the node model a with node types:
 * the type whose indicator is set, -1 for none (count 0). */
void amodel_node_types(const struct amodel *a, const double *x, int *t);
/* Reads the types from a solution of the count model c with node types:
 * the type of the column chosen, -1 for count 0. */
void amodel_count_types(const struct amodel *c, const double *x, int *t);

/* Adds to m the tie row of the stage-1 model base (objective unit
 * unit): its objective >= z - tol, in model units. */
void mstage_tie_row(struct milp *m, const struct milp *base, double unit,
                    double z);
/* One stage: solves m with the given gaps and effort within the time
 * left to deadline, the solution into x (m's columns).  Returns the
 * solve status (SOLVE_NO_SOLUTION when no time is left, -1 when the
 * solver could not be run, reported in e), stores the solver's bound in
 * *bound (if not NULL), adds the times and counts to res and writes m as
 * MPS when asked (the first write error kept in st). */
int mstage_run(struct mstate *st, const struct milp *m, double unit,
               double gap_rel, double gap_abs, int effort, double deadline,
               double *x, double *bound, struct alloc_result *res,
               struct bfs_error *e);
/* Stage 1: mstage_run with the user's relative gap, the root bound put
 * back in objective units (unit).  Returns the status, also stored in
 * res->status, or -1 with *rc set to the error (the solver could not be
 * run, reported in e). */
int mstage_first(struct mstate *st, const struct milp *m, double unit,
                 double gap_abs, int effort, double deadline, double *x,
                 double *bound, struct alloc_result *res, struct bfs_error *e,
                 int *rc);
/* Ends the tie-break stages: ss is the status of the last one (stage 2
 * when it was not optimal, else the last certificate).  Unless it proves
 * the rule's answer (OPTIMAL: nothing after it or stage 2 exact;
 * INFEASIBLE: no later tied vector), a limit cut them short and the
 * answer is one of the optima, not the rule's: res->status becomes
 * FEASIBLE, as dp's answer that its tie-break order did not reach. */
void mstage_tie_end(int ss, struct alloc_result *res);
/* Starts a certificate model in m: a copy of the stage-1 model base
 * without its start, with objective obj (base->n_cols values, no
 * constant) and the tie row at z (mstage_tie_row). */
void mstage_cert_copy(struct milp *m, const struct milp *base, double unit,
                      double z, const double *obj);
/* dp's optimum of p (malloc'd counts), or NULL; with node types, its
 * types into *types (malloc'd; NULL with the counts, and always with
 * one type).  Its time counts as building (res->build_s). */
int *mstate_dp_start(const struct mstate *st, const struct alloc_problem *p,
                     struct alloc_result *res, int **types);

/* ---- milp_count.c ----------------------------------------------------- */

/* The count model's value table of p, malloc'd: v[(j * nt + t) * W + n]
 * (W = a->ystride, which it sets to the largest a->hi + 1) is job j's
 * value at count n on type t (alloc_values_t), -HUGE_VAL where the count
 * is inadmissible or, with zlb > -HUGE_VAL (a feasible allocation's
 * value), ruled out by reduced-cost fixing; one spare -HUGE_VAL cell
 * after the nj * nt * W. */
double *count_values(const struct alloc_problem *p, struct amodel *a,
                     double zlb);
/* Builds the count model of p into a (amodel_init'ed); with zlb >
 * -HUGE_VAL (a feasible allocation's value), without the counts or
 * options reduced-cost fixing rules out. */
void count_build(const struct alloc_problem *p, struct amodel *a, double zlb);
/* Sets the count model's start to counts n on types t (t not read with
 * one type); none when that is not a point of the model. */
void count_start(struct amodel *c, const int *n, const int *t);
/* Accepts candidate counts c on types ct (not read with one type) when
 * feasible, within the tie set (value >= thr) and first by the tie-break
 * keys against best (on types bt); returns 1 if best and bt were
 * replaced. */
int count_accept(const struct alloc_problem *p, double thr, const int *c,
                 const int *ct, int *best, int *bt);
/* Solves p: stage 1 on a (the count or the node model), the tie-break
 * stages on c, the count model of p (which may be a itself); fills res.
 * Returns 0 or a negative BFS_E* code (the solver could not be run). */
int count_solve(struct mstate *st, const struct alloc_problem *p,
                const struct amodel *a, const struct amodel *c,
                struct alloc_result *res, struct bfs_error *e);

/* ---- milp_agg.c ------------------------------------------------------- */

/* Solves p (one node type, not mixed) on the aggregated count model,
 * starting from dp's optimum n0 (or NULL), and fills res as count_solve
 * does.  Returns 1, having done nothing, when st->aggregate is AGG_AUTO
 * and no two jobs are alike (the per-job model is then the same model);
 * else 0 or a negative BFS_E* code. */
int agg_solve(struct mstate *st, const struct alloc_problem *p, const int *n0,
              struct alloc_result *res, struct bfs_error *e);

/* ---- milp_node.c ------------------------------------------------------ */

/* Builds the node model of p into a (amodel_init'ed); with n0 (feasible
 * counts, on types t0 with node types, else NULL; or NULL), also its
 * start point at those counts and the rows that order interchangeable
 * jobs.  Returns 0, or BFS_EINVAL when the jobs' holdings do not fit the
 * pool or its map. */
int node_build(const struct alloc_problem *p, struct amodel *a, const int *n0,
               const int *t0, struct bfs_error *e);

/* ---- milp_mixed.c ----------------------------------------------------- */

/* Solves p with spanning types (alloc_mixed(p)) on the mixed count model
 * and fills res; BFS_EUNSUP with the node model. */
int mixed_solve(struct mstate *st, const struct alloc_problem *p,
                struct alloc_result *res, struct bfs_error *e);

#endif
