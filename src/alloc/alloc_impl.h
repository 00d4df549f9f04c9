/* alloc_impl.h - what an allocator implementation provides.  Only the
 * allocator files and the registry in alloc.c include this; the
 * objective and the tie-break rule they share are alloc/objective.h. */
#ifndef BFS_ALLOC_IMPL_H
#define BFS_ALLOC_IMPL_H

#include "alloc/alloc.h"

struct alloc_ops {
    const char *name; /* as given to --allocator */
    int reads_owner;  /* 1: solve may read the problem's owner view */
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

/* The MILP allocator's default solver: the preferred backend compiled in,
 * or NULL when there is none (then the default allocator is "dp"). */
const char *alloc_milp_default_solver(void);

#endif
