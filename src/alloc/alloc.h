/* alloc.h - the allocation problem solved at every event, and the
 * interface every allocator implements.
 *
 * An instance (tools/DESIGN.md, "The allocation problem"): a pool of N nodes,
 * the admitted jobs with the count C_j of pool nodes each holds now, their
 * bounds and costs, and a table of the objective metric O_j(n) at every
 * admissible count.  An allocator chooses the new count n_j of every job:
 *
 *   maximise  sum_j Tfwd * O_j(n_j)     (h_j(n_j) * O_j(n_j) with hints)
 *           - sum_j [n_j > C_j] Tcup_j r_j - sum_j [n_j < C_j] Tcdw_j r_j
 *   s.t.      n_j = 0 or Jmin_j <= n_j <= Jmax_j,   sum_j n_j <= N,
 *             |n_j - C_j| <= cap when cap > 0 (the published replayer's
 *             big-M artefact, kept for the compatible mode)
 *
 * with r_j = O_j(C_j) if C_j >= Jmin_j, else 0.  Allocators decide counts
 * only; the replay turns counts into a node map by one rule (by default
 * shrinking jobs release their lowest-position nodes, then growing jobs,
 * in job order, take the lowest-position free nodes; --node-pick).
 *
 * Every exact allocator (dp, and milp with either model and either
 * solver) returns the same counts, chosen among the near-optimal ones by
 * one tie-break rule; the objective term and the rule are written once,
 * in alloc/objective.h.
 */
#ifndef BFS_ALLOC_H
#define BFS_ALLOC_H

#include <stddef.h>

#include "base/error.h"
#include "base/status.h"

struct alloc_job {
    int cur;         /* C_j: pool nodes held now, 0 <= cur <= jmax */
    int jmin, jmax;  /* 1 <= jmin <= jmax */
    double tcup;     /* seconds lost on scaling up */
    double tcdw;     /* seconds lost on scaling down */
    const double *o; /* borrowed; O_j(n) for n = 0..jmax, o[0] = 0 */
    /* Optional horizon per count (--hints): h[n], n = 0..jmax, the
     * seconds of the horizon the job would earn O_j(n) for on n nodes
     * (finite, >= 0), replacing Tfwd in its gain term; NULL = Tfwd at
     * every count (tools/DESIGN.md, "Hints").  Borrowed. */
    const double *h;
    /* Node types (struct alloc_problem.n_types > 1 only; ignored with
     * one type): ctype is the type of the nodes the job holds now
     * (0..n_types-1; any value when cur == 0) and ot[t] its table
     * O_{j,t}(n), n = 0..jmax, ot[t][0] = 0, or NULL when the job cannot
     * run on type t (ot[ctype] must not be NULL when cur > 0).  o and h
     * are then not read.  Borrowed. */
    int ctype;
    const double *const *ot;
    /* Spanning types (struct alloc_problem.mixed only; ignored
     * otherwise): cur_t[t] the nodes of type t held now, n_types entries
     * summing to cur, each 0 on a type the job cannot use; NULL means
     * all cur nodes are of ctype.  Borrowed. */
    const int *cur_t;
    /* Optional identity of the table o (untyped problems): 0 = none;
     * else the caller promises that o, reached through the same pointer
     * with the same o_id and jmax, holds the same numbers at every call
     * (it gives a table a new id, or 0, whenever it writes it), so that
     * allocator_solve need not check again a table it checked at its
     * last call. */
    unsigned long o_id;
};

struct alloc_problem {
    int pool;                     /* N, >= 0 */
    double tfwd;                  /* forward-looking horizon, seconds, > 0 */
    size_t n_jobs;                /* may be 0 */
    const struct alloc_job *jobs; /* borrowed */
    int cap;                      /* max |n_j - C_j| per job; 0 = no cap */
    /* Optional node-level view for node-level models: owner[p] is the job
     * holding pool position p (0 <= p < pool), or -1 when free.  NULL lets
     * a node-level model place each job's current nodes itself. */
    const int *owner; /* borrowed */
    /* Node types (tools/DESIGN.md, "Node types"): n_types <= 1 is one
     * type of `pool` nodes, and pools is not read.  n_types > 1: pools[t]
     * idle nodes of type t, summing to pool; every job then gets a type
     * and a count, on one type at a time (unless mixed); cap must be 0. */
    int n_types;
    const int *pools; /* borrowed, n_types entries */
    /* the types' names, for what writes the problem (an instance file);
     * n_types entries, borrowed, or NULL; no allocator reads them */
    const char *const *type_names;
    /* With owner and n_types > 1 (required then): pos_type[p] is the
     * type of pool position p, pool entries.  Borrowed. */
    const int *pos_type;
    /* Spanning types (--mixed-types; n_types > 1 only, tools/DESIGN.md,
     * "Spanning types"): 1 lets a job hold nodes of several types at
     * once, paced by its slowest; 0 one type at a time. */
    int mixed;
    /* 1: the caller reads neither res->objective nor res->bound, so an
     * allocator that would compute the objective only to report it may
     * skip that and leave both NaN (even does); 0: both written. */
    int no_objective;
};

struct alloc_result {
    int status;       /* enum solve_status (base/status.h) */
    double objective; /* of the returned counts, when there are counts */
    double bound;     /* best bound (= objective for exact methods) */
    int *counts;      /* caller-allocated, n_jobs entries; written when
                         status is OPTIMAL or FEASIBLE */
    int *types;       /* caller-allocated, n_jobs entries, required when
                         n_types > 1 (else not read): written with the
                         counts, the type of job j's nodes, -1 when
                         counts[j] == 0; with mixed, the lowest type
                         it holds nodes of */
    double build_s;   /* seconds spent building the model */
    double solve_s;   /* seconds spent solving (by the solver: in an
                         isolated solver's child process) */
    /* MILP solvers only (0 for the others), summed over the solves the
     * allocator made (solver.h's struct solve_result): */
    double cpu_s;           /* the solver's CPU seconds */
    double ipc_s;           /* isolation's overhead, wall seconds */
    size_t mip_solves;      /* MILPs solved */
    long nodes, iters;      /* branch-and-bound nodes and simplex
                               iterations; -1 when the solver does not
                               report them */
    double root_bound;      /* of the first MILP (the objective's), in
                               objective units; NaN when unknown */
    long cuts;              /* its root cuts; -1 when unknown */
    size_t rows, cols, nnz; /* model size (0 for methods without one) */
    int *type_counts;       /* caller-allocated, n_jobs * n_types entries,
                               required when mixed (else not read): job j's
                               nodes of type t at [j * n_types + t] */
};

/* Checks that p is well formed (bounds, cur <= jmax, o[0] == 0, pool and
 * tfwd ranges; with n_types > 1, pools >= 0 summing to pool, cap 0, every
 * job's ot given, its tables with O(0) == 0 and finite, ctype a type it
 * can run on when cur > 0, and with owner, pos_type given: pools[t]
 * positions of each type t, every owner a job or -1, and each job holding
 * cur positions, all of its ctype; with mixed, n_types > 1 (at most
 * ALLOC_MIXED_MAX_TYPES), every cur_t >= 0 summing to cur and 0 on the
 * types the job cannot run on, and the nodes held per type within its
 * pool).  Returns 0 or BFS_EINVAL with the problem in e. */
int alloc_problem_check(const struct alloc_problem *p, struct bfs_error *e);

/* Options shared by all allocators; each reads what applies to it. */
struct alloc_opts {
    const char *name;   /* "even", "dp", "milp" */
    const char *solver; /* "cbc", "glpk" (milp) */
    const char *model;  /* "count", "node" (milp) */
    double time_limit;  /* seconds of wall time, > 0 */
    double gap_rel;     /* relative MIP gap */
    double gap_abs;     /* absolute MIP gap */
    int threads;        /* solver threads where supported; 0 = default */
    int log_level;      /* 0 = silent */
    /* milp: whether to start from dp's optimum and leave out the counts
     * it rules out (the reduced model): 1 yes, 0 no (the whole model),
     * -1 the default (yes); a start= in .solver wins */
    int start;
    unsigned seed; /* the solver's seed (struct solver_opts); 0 = none */
    /* milp: a directory (it must exist) where every model handed to the
     * solver is written in free MPS (solver/mps.h) after its solve, as
     * DIR/TAG.K.mps (allocator_set_tag; K counts the call's MILPs from
     * 1), a comment at its top giving the solve's status and objective;
     * NULL writes none.  Borrowed. */
    const char *mps_dir;
    /* the solver's log when log_level > 0; NULL drops it (see struct
     * solver_opts) */
    void (*solver_log)(const char *text);
};

/* The backend parameters o->solver gives the milp allocator ("cbc,cuts=off,
 * isolate=no" gives "cuts=off"), checked and in the canonical form of
 * solver_params_canon (solver/solver.h), into out (cap bytes); "" for
 * none or another allocator.  Returns 0, or BFS_EUSAGE for a parameter
 * the backend does not accept (reported in e). */
int alloc_solver_params(const struct alloc_opts *o, char *out, size_t cap,
                        struct bfs_error *e);

/* The defaults: what `bfsim replay` uses without options. */
void alloc_opts_default(struct alloc_opts *o);

struct allocator;

/* Checks the names o gives: the allocator's, and for milp its solver's
 * (o->solver up to its first comma).  Returns 0, or BFS_EUSAGE for an
 * unknown name or BFS_EUNSUP for a solver bfsim knows but this build
 * lacks, with a message in e that names the option and lists the names
 * accepted ("--allocator: unknown allocator 'greedy' (known: even, dp,
 * milp)", "--solver: unknown solver 'x' (compiled in: cbc, glpk)"). */
int alloc_check_names(const struct alloc_opts *o, struct bfs_error *e);

/* Creates the allocator named by o->name (alloc_check_names first).
 * Returns 0, or BFS_EUSAGE / BFS_EUNSUP with the problem in e (an unknown
 * name, a solver not compiled in). */
int allocator_create(const struct alloc_opts *o, struct allocator **out,
                     struct bfs_error *e);

/* Solves p into res (res->counts, and with node types res->types, must
 * hold p->n_jobs entries).  Returns 0
 * when the solve was carried out, whatever its status (a time limit or a
 * solver crash is a status, not an error); a negative code only for a
 * malformed problem, an instance past dp's memory bound (BFS_ERANGE), a
 * problem the method does not take (BFS_EUNSUP: spanning types, which dp
 * and the node model refuse; even and milp's count model take them,
 * filling res->type_counts) or a programming error. */
int allocator_solve(struct allocator *a, const struct alloc_problem *p,
                    struct alloc_result *res, struct bfs_error *e);

/* Solves p with its jobs in the order order[] (order[k] is the index in
 * p of the job the allocator sees k-th; NULL or the identity solves p as
 * allocator_solve does) and writes each job's count (and with node types
 * its type) at its own index in res->counts (res->types).  The tie-break
 * rule's lexicographic keys (alloc/objective.h: 4, and 5 with types) then
 * favour order[0], order[1], ... instead of job order; its other keys are
 * sums over the jobs, so every exact allocator still agrees.  res->objective
 * and res->bound are the allocator's, summed in that order.  Returns as
 * allocator_solve. */
int allocator_solve_order(struct allocator *a, const struct alloc_problem *p,
                          const size_t *order, struct alloc_result *res,
                          struct bfs_error *e);

/* Names the models the next solves write with o->mps_dir (a file-name
 * stem, e.g. "evt-000123"); NULL (the default) writes none.  Copied.
 * A no-op for allocators without models. */
void allocator_set_tag(struct allocator *a, const char *tag);

/* The allocator's name as given at creation (borrowed). */
const char *allocator_name(const struct allocator *a);

/* 1 when the allocator may read a problem's owner view (p->owner), 0
 * when it never does, so that a caller need not build the view. */
int allocator_reads_owner(const struct allocator *a);

/* 1 when the allocator o names solves spanning node types (a problem
 * with mixed set: even, and milp's count model), 0 when allocator_solve
 * would refuse them, so that a caller can refuse the option before it
 * starts. */
int alloc_takes_mixed(const struct alloc_opts *o);

void allocator_free(struct allocator *a);

/* The even-share baseline of the published replayer (tools/DESIGN.md): fills
 * counts[] (p->n_jobs entries).  It ignores costs, Tfwd and the cap.
 * With node types (p->n_types > 1) it deals the jobs to types first and
 * shares each type's pool among its jobs (tools/DESIGN.md, "The
 * even-share baseline"), and fills types[] (p->n_jobs entries, -1 where
 * the count is 0); with one type types is not written and may be NULL. */
void alloc_even(const struct alloc_problem *p, int *counts, int *types);

#endif
