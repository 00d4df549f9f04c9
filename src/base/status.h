/* status.h - how a solve ended: the one list of solve statuses.
 *
 * The solver interface (solver/solver.h) reports them for a MILP, the
 * allocators (alloc/alloc.h) for an allocation, and the writers (the
 * HDF5 enum "status", the summary's solves_*) name them; all take them
 * from here.  A status is data, never an error code: an infeasible model
 * or a time limit is a result to record.
 */
#ifndef BFS_STATUS_H
#define BFS_STATUS_H

/* X(NAME, text): the statuses in the order of the statistics tables. */
#define SOLVE_STATUSES(X)                                                      \
    X(OPTIMAL, "optimal")   /* proven optimal within the gap limits */         \
    X(FEASIBLE, "feasible") /* a limit was hit; an incumbent exists */         \
    X(INFEASIBLE, "infeasible")                                                \
    X(NO_SOLUTION, "no-solution") /* a limit was hit before any incumbent */   \
    X(FAILED, "failed") /* the solver failed or crashed; see its message */

enum solve_status {
#define SOLVE_ST_ENUM(name, text) SOLVE_##name,
    SOLVE_STATUSES(SOLVE_ST_ENUM)
#undef SOLVE_ST_ENUM
        SOLVE_N_STATUSES
};

/* "optimal", "feasible", ...; "unknown" for anything else (static). */
const char *solve_status_name(int status);

#endif
