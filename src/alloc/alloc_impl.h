/* alloc_impl.h - what an allocator implementation provides.  Only the
 * allocator files and the registry in alloc.c include this. */
#ifndef BFS_ALLOC_IMPL_H
#define BFS_ALLOC_IMPL_H

#include "alloc/alloc.h"

struct alloc_ops {
    const char *name; /* as given to --allocator */
    /* Creates the state; returns 0 or a negative code (reported in e). */
    int (*create)(const struct alloc_opts *o, void **state,
                  struct bfs_error *e);
    /* Solves a checked problem; see allocator_solve. */
    int (*solve)(void *state, const struct alloc_problem *p,
                 struct alloc_result *res, struct bfs_error *e);
    void (*destroy)(void *state);
};

/* ---- the exact allocators (alloc/dp.c, alloc/milp.c) -------------------
 * The tie-break rule of alloc.h, shared by every exact method. */

/* Relative tie tolerance (alloc.h). */
#define ALLOC_TIE_REL 1e-7

/* Whether n is an admissible count for job j: 0 or jmin..jmax, at most the
 * pool, and within p->cap of cur when p->cap > 0. */
int alloc_admissible(const struct alloc_problem *p, size_t j, int n);

/* Job j's term of the objective at count n: Tfwd O_j(n) minus the
 * rescale cost of moving from cur to n. */
double alloc_value(const struct alloc_problem *p, size_t j, int n);

/* The tie tolerance of p: ALLOC_TIE_REL * max(1, sum_j max |value|), the
 * max over job j's admissible counts. */
double alloc_tie_tol(const struct alloc_problem *p);

/* Whether counts n (n_jobs entries) are feasible: every n_j admissible
 * and their sum within the pool. */
int alloc_feasible(const struct alloc_problem *p, const int *n);

/* Compares feasible count vectors a and b by the tie-break keys after the
 * objective: > 0 when a comes first (more jobs at their current count,
 * then fewer nodes, then lexicographically larger in job order), < 0 when
 * b does, 0 when a == b. */
int alloc_tie_cmp(const struct alloc_problem *p, const int *a, const int *b);

/* The exact allocators. */
extern const struct alloc_ops alloc_dp_ops;
extern const struct alloc_ops alloc_milp_ops;

/* The MILP allocator's default solver: the preferred backend compiled in,
 * or NULL when there is none (then the default allocator is "dp"). */
const char *alloc_milp_default_solver(void);

#endif
