/* backend.h - what a MILP solver backend implements and may use: the
 * one header solvers/ includes besides base/.
 *
 * A backend (solvers/NAME.c) exports one const struct solver_ops table,
 * listed in solver.c's registry when configure found the library.  Its
 * state struct begins with struct solver; solver.c's wrappers check each
 * model (milp_check) before a backend sees it, set the options, and run
 * the backend in a child process when the solver is isolated, so a
 * backend only loads a checked model, solves it, and reads the outcome
 * into a struct solve_result (status from base/status.h, message, x).
 * The caller-side interface (solver/solver.h) is included here for the
 * types both sides share: struct solver_opts, struct solve_result and
 * struct milp.
 */
#ifndef BFS_BACKEND_H
#define BFS_BACKEND_H

#include <stddef.h>

#include "base/error.h"
#include "base/status.h"
#include "solver/milp.h"
#include "solver/solver.h"

/* Integer columns of a returned x are within this of an integer: each
 * backend asks its solver for this integrality tolerance. */
#define SOLVER_INT_TOL 1e-9

struct solver_ops {
    const char *name; /* "cbc", "glpk" */
    /* Whether solves run in a child process unless told otherwise. */
    int isolate_default;
    /* Whether the backend uses a model's start (milp.h): 0 never, 1
     * always, SOLVER_START_LIGHT only in solves at SOLVER_EFFORT_LIGHT. */
    int takes_start;
    /* The parameters it accepts in struct solver_opts's params (static),
     * and their number: solver.c checks them before a backend sees them. */
    const struct solver_param *params;
    size_t n_params;
    /* The solver library's version (static), e.g. CBC's Cbc_getVersion. */
    const char *(*version)(void);
    /* SOLVER_WORK_* flags of the work counts solve fills in. */
    int work;
    /* Creates a solver; returns 0 or a negative code. */
    int (*create)(const struct solver_opts *o, struct solver **out);
    /* Solves a checked model into res (res->x has m->n_cols entries),
     * setting build_s, solve_s and the work counts it reports (the rest
     * are preset to -1 and NaN; cpu_s and ipc_s are solver.c's).  Runs
     * the model as opts.seed asks.  Returns 0: the outcome, failures
     * included, is res->status. */
    int (*solve)(struct solver *s, const struct milp *m,
                 struct solve_result *res);
    void (*destroy)(struct solver *s);
};

struct solver_worker;

/* The part of every solver the wrappers use.  A backend's own state
 * struct begins with it (`struct cbc_solver { struct solver base; ... }`)
 * and its create sets opts; solver.c sets the rest. */
struct solver {
    const struct solver_ops *ops; /* borrowed, static */
    struct solver_opts opts;      /* read by the backend at each solve */
    struct solver_worker *worker; /* solver.c's: the child process of an
                                     isolated solver, or NULL */
};

/* Reads the next "key=value" of the parameter text at *p (struct
 * solver_opts's params as solver.c passes it: "key=value,...", known
 * keys only) into key (kcap bytes) and value (vcap bytes), NUL-terminated,
 * and moves *p past it.  Returns 1 when a pair was read, 0 at the end of
 * the text; a pair too long for the buffers is passed over. */
int solver_param_next(const char **p, char *key, size_t kcap, char *value,
                      size_t vcap);

/* The backends' tables; only those compiled in exist (see solver.c). */
extern const struct solver_ops solver_cbc_ops;
extern const struct solver_ops solver_glpk_ops;

#endif
