/* testalloc.h - what the allocator tests share: the list of exact
 * methods compiled in and a small seeded generator.
 *
 * Header-only (static functions and variables), like testutil.h: each
 * test program has its own copy of the state. */
#ifndef BFS_TESTALLOC_H
#define BFS_TESTALLOC_H

#include "solver/solver.h"

#include <string.h>

/* An exact method: allocator name, solver (with options) and model ("" when
 * they do not apply). */
struct method {
    char name[8], solver[16], model[8];
};

static struct method methods[16];
static int n_methods;

/* Fills methods[]: dp, then milp with the count model on every backend
 * compiled in, then the node model on every backend; with nostart, also
 * the node model on CBC without its start from dp (CBC alone takes a
 * start), when CBC is compiled in. */
static inline void list_methods(int nostart)
{
    n_methods = 0;
    strcpy(methods[n_methods++].name, "dp");
    for (int model = 0; model < 2; model++)
        for (size_t i = 0; i < solver_count(); i++) {
            struct method *m = &methods[n_methods++];
            strcpy(m->name, "milp");
            strcpy(m->solver, solver_backend_name(i));
            strcpy(m->model, model ? "node" : "count");
        }
    if (nostart && solver_find("cbc")) {
        struct method *m = &methods[n_methods++];
        strcpy(m->name, "milp");
        strcpy(m->solver, "cbc,start=no");
        strcpy(m->model, "node");
    }
}

/* The generator's state (xorshift64); the tests seed it directly. */
static unsigned long long rng;

/* Uniform in 0..n-1, n > 0 (xorshift64, the top 53 bits modulo n). */
static inline unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)((rng >> 11) % n);
}

#endif
