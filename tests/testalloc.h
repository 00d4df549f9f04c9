/* testalloc.h - what the allocator tests share: the list of exact
 * methods compiled in and their allocators, a small seeded generator and an
 * exhaustive search that applies the tie-break keys in a given order.
 *
 * Header-only (static functions and variables), like testutil.h: each
 * test program has its own copy of the state. */
#ifndef BFS_TESTALLOC_H
#define BFS_TESTALLOC_H

#include "alloc/alloc.h"
#include "solver/solver.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
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
 * the count model on every backend and the node model on CBC without
 * their start from dp (GLPK takes a start on the count model only). */
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
    for (size_t i = 0; i < solver_count() && nostart; i++) {
        struct method *m = &methods[n_methods++];
        strcpy(m->name, "milp");
        snprintf(m->solver, sizeof m->solver, "%s,start=no",
                 solver_backend_name(i));
        strcpy(m->model, "count");
    }
    if (nostart && solver_find("cbc")) {
        struct method *m = &methods[n_methods++];
        strcpy(m->name, "milp");
        strcpy(m->solver, "cbc,start=no");
        strcpy(m->model, "node");
    }
}

/* "name/model/solver" of methods[i], for messages; the buffer is static
 * (overwritten by the next call). */
static inline const char *method_desc(int i)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%s/%s/%s", methods[i].name, methods[i].model,
             methods[i].solver);
    return buf;
}

/* The allocator for methods[i] (the test fails when it cannot be
 * created); the caller frees it with allocator_free. */
static inline struct allocator *method_allocator(int i)
{
    struct alloc_opts o;
    struct allocator *a = NULL;
    struct bfs_error e;

    alloc_opts_default(&o);
    o.name = methods[i].name;
    o.solver = methods[i].solver[0] ? methods[i].solver : NULL;
    o.model = methods[i].model[0] ? methods[i].model : NULL;
    /* The tests judge answers, not the machine's speed: a limit that a
     * loaded or sanitized run could hit would make them flaky. */
    o.time_limit = 600.0;
    bfs_error_clear(&e);
    ck_assert_msg(allocator_create(&o, &a, &e) == 0, "%s: %s", method_desc(i),
                  e.msg);
    return a;
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

/* ---- exhaustive search with the tie-break keys ----------------------------
 */

/* The most jobs ordered_brute_force takes. */
#define BF_MAXJ 8

/* An objective over a count vector n[0..p->n_jobs-1]. */
typedef double (*bf_objective)(const struct alloc_problem *p, const int *n);

struct ordered_bf {
    const struct alloc_problem *p;
    const size_t *order;
    bf_objective f;
    int n[BF_MAXJ], best[BF_MAXJ];
    double zmax, thr;
    int pass, have;
};

/* 1 if x comes before y: more jobs at their count, fewer nodes, then the
 * larger count at the first job of the order where they differ. */
static inline int ordered_bf_better(const struct ordered_bf *b, const int *x,
                                    const int *y)
{
    const struct alloc_problem *p = b->p;
    int kx = 0, ky = 0, sx = 0, sy = 0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        kx += x[j] == p->jobs[j].cur;
        ky += y[j] == p->jobs[j].cur;
        sx += x[j];
        sy += y[j];
    }
    if (kx != ky)
        return kx > ky;
    if (sx != sy)
        return sx < sy;
    for (size_t k = 0; k < p->n_jobs; k++) {
        size_t j = b->order[k];
        if (x[j] != y[j])
            return x[j] > y[j];
    }
    return 0;
}

/* Every count vector from job j on, with left nodes still free: pass 0
 * finds the best objective, pass 1 the first by ordered_bf_better among
 * those within b->thr of it. */
static inline void ordered_bf_rec(struct ordered_bf *b, size_t j, int left)
{
    const struct alloc_problem *p = b->p;

    if (j == p->n_jobs) {
        double z = b->f(p, b->n);
        if (b->pass == 0) {
            if (z > b->zmax)
                b->zmax = z;
        } else if (z >= b->thr &&
                   (!b->have || ordered_bf_better(b, b->n, b->best))) {
            memcpy(b->best, b->n, sizeof b->best);
            b->have = 1;
        }
        return;
    }
    for (int n = 0; n <= left && n <= p->jobs[j].jmax; n++)
        if (n == 0 || n >= p->jobs[j].jmin) {
            b->n[j] = n;
            ordered_bf_rec(b, j + 1, left - n);
        }
}

/* Writes to out[0..p->n_jobs-1] the count vector that maximises f (each
 * job 0 or jmin..jmax, at most p->pool nodes in all) and, among the tied
 * ones, comes first by the tie-break keys with the jobs in order[] (a
 * permutation of 0..n_jobs-1).  f must take integer values only: the
 * tied vectors are those with exactly the best value (within 0.5; the
 * allocators' tolerance is far below 1).  p->n_jobs <= BF_MAXJ.  Returns
 * 1 when a vector was found. */
static inline int ordered_brute_force(const struct alloc_problem *p,
                                      const size_t *order, bf_objective f,
                                      int *out)
{
    struct ordered_bf b;

    memset(&b, 0, sizeof b);
    b.p = p;
    b.order = order;
    b.f = f;
    b.zmax = -HUGE_VAL;
    ordered_bf_rec(&b, 0, p->pool);
    b.pass = 1;
    b.thr = b.zmax - 0.5;
    ordered_bf_rec(&b, 0, p->pool);
    memcpy(out, b.best, p->n_jobs * sizeof *out);
    return b.have;
}

#endif
