/* alloc_impl.h - what an allocator implementation provides.  Only the
 * allocator files and the registry in alloc.c include this; the
 * objective and the tie-break rule they share are alloc/objective.h. */
#ifndef BFS_ALLOC_IMPL_H
#define BFS_ALLOC_IMPL_H

#include "alloc/alloc.h"

#include <stdint.h>

struct alloc_ops {
    const char *name; /* as given to --allocator */
    int reads_owner;  /* 1: solve may read the problem's owner view */
    int mixed;        /* 1: solve takes spanning types (p->mixed, filling
                         res->type_counts); 0: allocator_solve refuses
                         them (BFS_EUNSUP) */
    /* Creates the state; returns 0 or a negative code (reported in e). */
    int (*create)(const struct alloc_opts *o, void **state,
                  struct bfs_error *e);
    /* Solves a checked problem; see allocator_solve. */
    int (*solve)(void *state, const struct alloc_problem *p,
                 struct alloc_result *res, struct bfs_error *e);
    void (*destroy)(void *state);
    /* Optional: names the models of the next solves (allocator_set_tag);
     * NULL for an allocator that writes none. */
    void (*set_tag)(void *state, const char *tag);
};

/* A cheap clock for the calls' times (solve_s), read twice per call at
 * every event of a replay: on x86 the time-stamp counter (a few
 * nanoseconds a reading, against about 25 for clock_gettime), in ticks
 * converted to seconds by a rate measured against the monotonic clock,
 * first over at least 100 us when the clock is set up, then again from
 * the start each time the ticks since double (so the rate's error falls
 * as the run goes on; a difference is converted at the rate of its end,
 * so a new rate moves no call's time by more than its own relative
 * change).  Meaningful down to tens of nanoseconds, on the processors
 * whose counter runs at a constant rate (every x86 of the last decade:
 * constant_tsc).  Elsewhere, the monotonic clock in nanoseconds. */
struct alloc_clock {
    uint64_t tk0;     /* the ticks at the rate's start */
    double s0;        /* and the monotonic clock's seconds then */
    double spt;       /* seconds per tick */
    uint64_t tk_next; /* ticks since tk0 at which the rate is measured
                         again */
};

/* Sets c up (on x86, spinning about 100 us to measure the rate). */
void alloc_clock_init(struct alloc_clock *c);
/* The clock now, in ticks. */
uint64_t alloc_ticks(void);
/* The seconds from ticks t0 to now (0 when the counter went back). */
double alloc_clock_since(struct alloc_clock *c, uint64_t t0);

/* The exact allocators. */
extern const struct alloc_ops alloc_dp_ops;
extern const struct alloc_ops alloc_milp_ops;

/* dp with node types (alloc/dp_types.c, which dp's solve calls when
 * p->n_types > 1): solves the checked problem p within limit seconds into
 * res (status, counts, types, objective, bound and times).  *memo (owned
 * by the caller, NULL at first, freed by alloc_dp_types_forget) keeps the
 * last instance and its optimum between calls: the same instance again
 * gets the same answer at once.  Returns 0 whatever the status, or
 * BFS_ERANGE (in e) when its table would exceed its bound. */
int alloc_dp_types_solve(void **memo, const struct alloc_problem *p,
                         double limit, struct alloc_result *res,
                         struct bfs_error *e);

/* Frees what alloc_dp_types_solve kept in memo (NULL: nothing). */
void alloc_dp_types_forget(void *memo);

/* The MILP allocator's default solver: the preferred backend compiled in,
 * or NULL when there is none (then the default allocator is "dp"). */
const char *alloc_milp_default_solver(void);

#endif
