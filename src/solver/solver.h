/* solver.h - MILP solver backends behind one interface: what callers
 * use.
 *
 * Each backend (solvers/cbc.c, solvers/glpk.c) exports one const struct
 * solver_ops table, declared with what a backend needs in
 * solver/backend.h, the one header backends include; solver.c keeps the
 * array of the backends compiled in and is, with solvers/, the only code
 * that knows which ones exist.  The rest of bfsim calls solver_create /
 * solver_solve / solver_destroy and never sees a backend's table.
 *
 * A solve always ends in a status, never in an error code: an infeasible
 * model, a time limit, a solver error or a solver crash are results to
 * record.  solver_solve checks the model (milp_check) before a backend
 * sees it, and can run the backend in a child process so that a crash in
 * the solver library (CBC 2.10 segfaults on some models) costs one solve
 * and not the process.
 */
#ifndef BFS_SOLVER_H
#define BFS_SOLVER_H

#include <stddef.h>

#include "base/error.h"
#include "base/status.h"
#include "solver/milp.h"

/* Whether to run each solve in a forked child process. */
enum {
    SOLVER_ISOLATE_DEFAULT = -1, /* the backend's default (see solver.c) */
    SOLVER_ISOLATE_NO = 0,
    SOLVER_ISOLATE_YES = 1
};

/* How much machinery a backend brings to a model. */
enum {
    SOLVER_EFFORT_DEFAULT = 0, /* the solver's defaults */
    SOLVER_EFFORT_LIGHT = 1,   /* small models with a tight relaxation:
                                  CBC skips preprocessing, cuts and
                                  heuristics (10x less overhead) */
    SOLVER_EFFORT_PROVE = 2    /* the model's start is expected to be
                                  optimal, the work is the bound: CBC skips
                                  preprocessing and heuristics and makes
                                  one pass of root cuts */
};

/* Room for a backend's parameters in canonical text (struct solver_opts):
 * "key=value,key=value", at most this many bytes with the final NUL. */
#define SOLVER_PARAMS_LEN 512

/* Kinds of backend parameter. */
enum {
    SOLVER_PARAM_WORD, /* one of the words in .words */
    SOLVER_PARAM_INT,  /* an integer in [min, max] */
    SOLVER_PARAM_REAL  /* a finite number in [min, max] */
};

/* One parameter a backend accepts beyond the options below: its table
 * (static) is in solvers/NAME.c, and `--solver NAME,help` prints it. */
struct solver_param {
    const char *key;   /* the solver's own name for it */
    int kind;          /* SOLVER_PARAM_* */
    const char *words; /* WORD: the accepted values, separated by '|' */
    double min, max;   /* INT and REAL: the accepted range */
    const char *help;  /* one line */
};

/* Options every backend honours (threads only where the solver has them;
 * GLPK has none). */
struct solver_opts {
    double time_limit; /* seconds of wall time; HUGE_VAL = none */
    double gap_rel;    /* stop when |bound - incumbent| <= gap_rel |inc.| */
    double gap_abs;    /* ... or <= gap_abs; 0 = prove optimality */
    int threads;       /* 0 = solver default */
    int log_level;     /* 0 = silent; >0 lets the solver log (through
                          log for GLPK, to stdout for CBC, which has no
                          hook) */
    int isolate;       /* SOLVER_ISOLATE_* */
    int effort;        /* SOLVER_EFFORT_* */
    /* Performance variability (MIP search is chaotic, so one seed says
     * little): 0 runs the solver as it is; k > 0 sets CBC's random seeds
     * to k, and makes GLPK, which has none, see the model's rows and
     * columns in an order permuted by a generator seeded with k (the
     * usual proxy).  The model and its optimum are the same. */
    unsigned seed;
    /* The backend's own parameters, "key=value,..." in the canonical form
     * of solver_params_canon ("" = none).  A backend applies them after
     * its own settings for the options above, so they win over them (a
     * ratioGap or mip_gap replaces gap_rel).  Inline, so that the options
     * travel to an isolated solver's child process by value. */
    char params[SOLVER_PARAMS_LEN];
    /* Receives each piece of the solver's log when log_level > 0 and the
     * backend has a hook (GLPK); NULL drops it.  Set by the command line,
     * the only code that prints. */
    void (*log)(const char *text);
};

/* No time limit, gaps 1e-9 relative and 0 absolute, default threads,
 * silent, the backend's isolation default, default effort, no backend
 * parameters. */
void solver_opts_default(struct solver_opts *o);

/* The parameters the backend named name accepts: sets *n to their number
 * and returns the table (static), or returns NULL (and *n = 0) when no
 * backend of that name is compiled in. */
const struct solver_param *solver_params_table(const char *name, size_t *n);

/* Checks text, "key=value" items separated by commas ("" = none), against
 * the table of the backend named name and writes it to out (cap bytes) in
 * canonical form: each key once, in the table's order, values as given.
 * Returns 0; BFS_EUSAGE for an unknown key (the message lists the
 * accepted ones), a value not accepted (the message says which are), a
 * key given twice or an item without '='; BFS_ERANGE when out is too
 * small; BFS_ENOTFOUND when no such backend is compiled in.  Errors are
 * reported in e; out is written only on success. */
int solver_params_canon(const char *name, const char *text, char *out,
                        size_t cap, struct bfs_error *e);

struct solve_result {
    int status;       /* enum solve_status (base/status.h) */
    double objective; /* milp_objective(m, x) when x is written */
    double bound;     /* best bound proven (the objective when optimal and
                         the solver reports none); HUGE_VAL (maximising)
                         or -HUGE_VAL (minimising) when none is known */
    double *x;        /* caller-allocated, m->n_cols entries; written
                         when status is OPTIMAL or FEASIBLE */
    /* Times, each measured in the process that runs the solver (an
     * isolated solver's child), so that they do not depend on the
     * isolation: */
    double build_s; /* wall seconds passing the model to the solver */
    double solve_s; /* wall seconds the solver ran */
    double cpu_s;   /* CPU seconds of that process over both */
    /* ... and what isolation adds: the round trip's wall seconds less
     * build_s and solve_s (the fork at a first solve, sending the model
     * and the answer); 0 for a solve in this process. */
    double ipc_s;
    /* Deterministic work, as the backend reports it (solver_work_known
     * says which it reports; -1 or NaN where it does not): */
    long nodes;        /* branch-and-bound nodes after the root (0: solved
                          at the root) */
    long iters;        /* simplex iterations, all nodes */
    double root_bound; /* the root relaxation's bound after its cuts */
    long cuts;         /* cuts in the root relaxation */
    char msg[256];     /* why it FAILED, or a note; "" otherwise */
};

/* Which of solve_result's work counts a backend reports. */
enum {
    SOLVER_WORK_NODES = 1,
    SOLVER_WORK_ITERS = 2,
    SOLVER_WORK_ROOT_BOUND = 4,
    SOLVER_WORK_CUTS = 8
};

/* A solver: opaque here, defined for backends in solver/backend.h. */
struct solver;
struct solver_ops;

/* Number of backends compiled in, and the name of the i-th one (static),
 * in order of preference (CBC first); NULL when i >= solver_count(). */
size_t solver_count(void);
const char *solver_backend_name(size_t i);

/* The backend named name, or NULL if none is compiled in by that name
 * (its table is opaque outside solver/backend.h). */
const struct solver_ops *solver_find(const char *name);

/* The version of the solver library behind the backend named name, as
 * the library reports it ("2.10.8", "5.0"), or NULL when no backend of
 * that name is compiled in (static). */
const char *solver_version(const char *name);

/* SOLVER_WORK_* flags of the work counts the backend named name reports
 * (0 when none or no such backend). */
int solver_work_known(const char *name);

/* Name of the preferred backend compiled in ("cbc", else "glpk"), or NULL
 * when there is none. */
const char *solver_default_name(void);

/* Creates a solver of the backend named name with options o.  Returns 0,
 * or BFS_EUNSUP (a backend bfsim knows but this build lacks) or
 * BFS_ENOTFOUND (an unknown name), with a message in e. */
int solver_create(const char *name, const struct solver_opts *o,
                  struct solver **out, struct bfs_error *e);

/* Replaces the options of s for the next solves (the isolation chosen at
 * creation stays).  Returns 0 or BFS_EINVAL (reported in e). */
int solver_set_opts(struct solver *s, const struct solver_opts *o,
                    struct bfs_error *e);

/* Checks m and solves it into res (res->x must hold m->n_cols entries).
 * Returns 0 when the solve was carried out, whatever its status, or
 * BFS_EINVAL for a malformed model (reported in e; no backend ran).  A
 * model without columns is decided here without a backend. */
int solver_solve(struct solver *s, const struct milp *m,
                 struct solve_result *res, struct bfs_error *e);

/* The backend's name (static). */
const char *solver_name(const struct solver *s);

/* Whether solves of s run in a child process: one per solver, started
 * at its first solve, kept for the next ones, started again after a
 * crash, ended by solver_destroy. */
int solver_isolated(const struct solver *s);

/* takes_start of a backend that uses a start only in its
 * SOLVER_EFFORT_LIGHT solves (GLPK: there it runs without its presolver,
 * which would hide the model's columns from the callback that offers
 * the start). */
#define SOLVER_START_LIGHT 2

/* Whether s uses a model's start in a solve at the given effort
 * (SOLVER_EFFORT_*): CBC always does, GLPK at SOLVER_EFFORT_LIGHT. */
int solver_takes_start(const struct solver *s, int effort);

/* The process id of the child of an isolated solver, or 0 when it has
 * none at the moment (for diagnostics and tests). */
long solver_worker_pid(const struct solver *s);

/* Frees s (and ends its child); solver_destroy(NULL) is a no-op. */
void solver_destroy(struct solver *s);

/* Environment variable read at every solve, for tests of what a replay
 * does with a failed or time-limited solve on a chosen call:
 *   "1"        an isolated solve: the child raises SIGSEGV instead of
 *              solving (a crash costs one solve, not the process);
 *   "timeout"  any solve (isolated or not): the solve stops at its time
 *              limit before the backend searches, as a real limit hit at
 *              once would: "feasible" with the model's start as the
 *              incumbent when the backend takes a start and the start is
 *              feasible, else "no-solution" (no x).
 * Any other value, or none, changes nothing. */
#define SOLVER_TEST_CRASH_ENV "BFSIM_TEST_CRASH"

/* Environment variable read by the GLPK backend: "1" makes it commit a
 * fatal GLPK error in the middle of a solve, so that tests can check that
 * the error hook turns it into SOLVE_FAILED instead of abort(). */
#define SOLVER_TEST_GLPK_ERROR_ENV "BFSIM_TEST_GLPK_ERROR"

#endif
