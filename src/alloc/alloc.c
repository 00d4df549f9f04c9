/* alloc.c - the allocator registry, the problem check, solving with the
 * jobs in another order (for the tie-break rules) and the even-share
 * baseline.
 *
 * The registry is one array of struct alloc_ops, ended by the methods
 * compiled in; allocator_create looks names up there.  The even-share
 * rule is the published replayer's non-MILP allocator, quirks kept
 * (tools/DESIGN.md): a job's quota is min(q, Jmax) only when q > Jmin,
 * strictly.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"
#include "solver/solver.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int alloc_problem_check(const struct alloc_problem *p, struct bfs_error *e)
{
    if (p->pool < 0)
        return bfs_fail(e, BFS_EINVAL, "pool size %d < 0", p->pool);
    if (!(p->tfwd > 0) || !isfinite(p->tfwd))
        return bfs_fail(e, BFS_EINVAL, "Tfwd %g is not > 0", p->tfwd);
    if (p->cap < 0)
        return bfs_fail(e, BFS_EINVAL, "cap %d < 0", p->cap);
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        if (jb->jmin < 1 || jb->jmax < jb->jmin)
            return bfs_fail(e, BFS_EINVAL, "job %zu: bounds %d..%d", j,
                            jb->jmin, jb->jmax);
        if (jb->cur < 0 || jb->cur > jb->jmax)
            return bfs_fail(e, BFS_EINVAL, "job %zu: holds %d nodes", j,
                            jb->cur);
        if (!(jb->tcup >= 0) || !(jb->tcdw >= 0))
            return bfs_fail(e, BFS_EINVAL, "job %zu: negative rescale cost", j);
        if (jb->o[0] != 0.0)
            return bfs_fail(e, BFS_EINVAL, "job %zu: O(0) = %g, not 0", j,
                            jb->o[0]);
        for (int n = 1; n <= jb->jmax; n++)
            if (!isfinite(jb->o[n]))
                return bfs_fail(e, BFS_EINVAL, "job %zu: O(%d) not finite", j,
                                n);
        for (int n = 0; jb->h && n <= jb->jmax; n++)
            if (!(jb->h[n] >= 0) || !isfinite(jb->h[n]))
                return bfs_fail(e, BFS_EINVAL,
                                "job %zu: horizon h(%d) = %g is not a finite "
                                "number >= 0",
                                j, n, jb->h[n]);
    }
    return 0;
}

void alloc_opts_default(struct alloc_opts *o)
{
    memset(o, 0, sizeof *o);
    /* the count model on the preferred solver compiled in (CBC, else
     * GLPK); the DP when there is none */
    o->solver = alloc_milp_default_solver();
    o->name = o->solver ? "milp" : "dp";
    o->model = "count";
    o->time_limit = 10.0;
    /* a tenth of the tie tolerance (alloc.h), so that every exact method
     * reaches the same tie set */
    o->gap_rel = 1e-8;
    o->gap_abs = 1e-6;
    o->start = -1;
}

void alloc_even(const struct alloc_problem *p, int *counts)
{
    size_t nj = p->n_jobs;
    int q, left;

    if (nj == 0)
        return;
    q = p->pool / (int)nj;
    left = p->pool;
    for (size_t j = 0; j < nj; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        counts[j] = q > jb->jmin ? (q < jb->jmax ? q : jb->jmax) : 0;
        left -= counts[j];
    }
    /* Leftover nodes, first come first served. */
    for (size_t j = 0; j < nj && left > 0; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        int inc;
        if (counts[j] >= jb->jmax)
            continue;
        inc = jb->jmax - counts[j] < left ? jb->jmax - counts[j] : left;
        if (counts[j] + inc < jb->jmin)
            continue;
        counts[j] += inc;
        left -= inc;
    }
}

/* ---- the registry ---------------------------------------------------- */

static int even_create(const struct alloc_opts *o, void **state,
                       struct bfs_error *e)
{
    (void)o;
    (void)e;
    *state = NULL;
    return 0;
}

static int even_solve(void *state, const struct alloc_problem *p,
                      struct alloc_result *res, struct bfs_error *e)
{
    double t0 = bfs_now();

    (void)state;
    (void)e;
    alloc_even(p, res->counts);
    res->status = SOLVE_OPTIMAL; /* the baseline's answer is always taken */
    res->objective = res->bound = alloc_objective(p, res->counts);
    res->build_s = 0.0;
    res->solve_s = bfs_now() - t0;
    res->rows = res->cols = res->nnz = 0;
    return 0;
}

static void even_destroy(void *state)
{
    (void)state;
}

static const struct alloc_ops even_ops = {
    .name = "even",
    .create = even_create,
    .solve = even_solve,
    .destroy = even_destroy,
};

/* Every allocator compiled in, in the order `--help` lists them. */
static const struct alloc_ops *const registry[] = {
    &even_ops,
    &alloc_dp_ops,
    &alloc_milp_ops,
};

struct allocator {
    const struct alloc_ops *ops;
    void *state;
};

/* The allocator named name, or NULL. */
static const struct alloc_ops *find(const char *name)
{
    for (size_t i = 0; name && i < sizeof registry / sizeof *registry; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

/* Appends s to the list in buf (size bytes), after ", " when not first. */
static void list_add(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);

    snprintf(buf + n, size - n, "%s%s", n ? ", " : "", s);
}

int alloc_check_names(const struct alloc_opts *o, struct bfs_error *e)
{
    char known[256] = "", *name;
    const char *spec;
    int rc = 0;

    if (!find(o->name)) {
        for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
            list_add(known, sizeof known, registry[i]->name);
        return bfs_fail(e, BFS_EUSAGE,
                        "--allocator: unknown allocator '%s' (known: %s)",
                        o->name ? o->name : "", known);
    }
    spec = o->solver ? o->solver : solver_default_name();
    if (strcmp(o->name, "milp") != 0 || !spec)
        return 0; /* no backend at all: milp's create says so */
    name = xmalloc(strcspn(spec, ",") + 1);
    memcpy(name, spec, strcspn(spec, ","));
    name[strcspn(spec, ",")] = '\0';
    if (!solver_find(name)) {
        struct solver_opts so;
        struct solver *s = NULL;
        struct bfs_error probe;
        for (size_t i = 0; i < solver_count(); i++)
            list_add(known, sizeof known, solver_backend_name(i));
        /* solver_create tells a backend it knows but this build lacks
         * (BFS_EUNSUP) from an unknown name, creating nothing */
        solver_opts_default(&so);
        bfs_error_clear(&probe);
        if (solver_create(name, &so, &s, &probe) == BFS_EUNSUP)
            rc = bfs_fail(e, BFS_EUNSUP,
                          "--solver: solver '%s' is not compiled into this "
                          "build of bfsim (compiled in: %s)",
                          name, known[0] ? known : "none");
        else
            rc = bfs_fail(e, BFS_EUSAGE,
                          "--solver: unknown solver '%s' (compiled in: %s)",
                          name, known[0] ? known : "none");
        solver_destroy(s);
    }
    xfree(name);
    return rc;
}

int allocator_create(const struct alloc_opts *o, struct allocator **out,
                     struct bfs_error *e)
{
    struct allocator *a;
    int rc = alloc_check_names(o, e);

    if (rc)
        return rc;
    a = xcalloc(1, sizeof *a);
    a->ops = find(o->name);
    rc = a->ops->create(o, &a->state, e);
    if (rc) {
        xfree(a);
        return rc;
    }
    *out = a;
    return 0;
}

int allocator_solve(struct allocator *a, const struct alloc_problem *p,
                    struct alloc_result *res, struct bfs_error *e)
{
    int rc = alloc_problem_check(p, e);

    if (rc)
        return rc;
    /* the solver's measures, for an allocator that makes no MILP */
    res->cpu_s = res->ipc_s = 0.0;
    res->mip_solves = 0;
    res->nodes = res->iters = res->cuts = 0;
    res->root_bound = nan("");
    return a->ops->solve(a->state, p, res, e);
}

int allocator_solve_order(struct allocator *a, const struct alloc_problem *p,
                          const size_t *order, struct alloc_result *res,
                          struct bfs_error *e)
{
    struct alloc_problem q = *p;
    struct alloc_job *jobs;
    size_t *inv;
    int *owner = NULL, *counts, *given = res->counts, rc;
    size_t k;

    for (k = 0; order && k < p->n_jobs && order[k] == k; k++)
        ;
    if (!order || k == p->n_jobs)
        return allocator_solve(a, p, res, e);
    jobs = xmalloc(p->n_jobs * sizeof *jobs);
    inv = xmalloc(p->n_jobs * sizeof *inv);
    counts = xmalloc(p->n_jobs * sizeof *counts);
    for (k = 0; k < p->n_jobs; k++) {
        assert(order[k] < p->n_jobs);
        jobs[k] = p->jobs[order[k]];
        inv[order[k]] = k;
    }
    q.jobs = jobs;
    if (p->owner) {
        owner = xmalloc(((size_t)p->pool + 1) * sizeof *owner);
        for (int pos = 0; pos < p->pool; pos++)
            owner[pos] = p->owner[pos] >= 0 && (size_t)p->owner[pos] < p->n_jobs
                             ? (int)inv[p->owner[pos]]
                             : p->owner[pos];
        q.owner = owner;
    }
    res->counts = counts;
    rc = allocator_solve(a, &q, res, e);
    res->counts = given;
    if (rc == 0 &&
        (res->status == SOLVE_OPTIMAL || res->status == SOLVE_FEASIBLE))
        for (k = 0; k < p->n_jobs; k++)
            given[order[k]] = counts[k];
    xfree(owner);
    xfree(counts);
    xfree(inv);
    xfree(jobs);
    return rc;
}

void allocator_set_tag(struct allocator *a, const char *tag)
{
    if (a->ops->set_tag)
        a->ops->set_tag(a->state, tag);
}

const char *allocator_name(const struct allocator *a)
{
    return a->ops->name;
}

int allocator_reads_owner(const struct allocator *a)
{
    return a->ops->reads_owner;
}

void allocator_free(struct allocator *a)
{
    if (!a)
        return;
    a->ops->destroy(a->state);
    xfree(a);
}
