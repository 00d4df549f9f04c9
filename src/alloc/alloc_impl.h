/* alloc_impl.h - what an allocator implementation provides.  Only the
 * allocator files and the registry in alloc.c include this; the
 * objective and the tie-break rule they share are alloc/objective.h. */
#ifndef BFS_ALLOC_IMPL_H
#define BFS_ALLOC_IMPL_H

#include "alloc/alloc.h"

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
