/* alloc_impl.h - what an allocator implementation provides.  Only the
 * allocator files and the registry in alloc.c include this. */
#ifndef BFS_ALLOC_IMPL_H
#define BFS_ALLOC_IMPL_H

#include "alloc.h"

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

#endif
