/* alloc.c - the allocator registry, the problem check, solving with the
 * jobs in another order (for the tie-break rules) and the even-share
 * baseline.
 *
 * The registry is one array of struct alloc_ops, ended by the methods
 * compiled in; allocator_create looks names up there.  The even-share
 * rule is the published replayer's non-MILP allocator, quirks kept
 * (tools/DESIGN.md): a job's quota is min(q, Jmax) only when q > Jmin,
 * strictly.  With node types it runs per type: a job holding nodes stays
 * on its type; each idle job, in job order, goes to the type it can use
 * with the most idle nodes per job dealt to it so far, itself counted
 * (pools[t] / (jobs on t + 1), compared exactly; ties to the lower
 * type); then each type's pool is shared as above among its jobs, in job
 * order.  A job that can use no type gets 0.  With spanning types
 * (p->mixed) it gives the same one-type answer, which the problem admits,
 * and its type counts; dp refuses them (alloc_ops.mixed unset), milp's
 * count model solves them (alloc/milp_mixed.c).
 *
 * allocator_solve checks every problem (alloc_problem_check), but skips
 * the finiteness scan of a job's table O that its last call's check
 * passed, when the caller gives the job the same table pointer and a
 * nonzero o_id (struct alloc_job): the replay's jobs keep their tables
 * for their whole stay, so a call scans only the tables new since the
 * last (problem_check).
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"
#include "solver/solver.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define ALLOC_TSC 1
#endif

/* The node map of a typed problem (p->owner, n_types > 1): pos_type
 * given, every position's type and owner in range, as many positions
 * of each type t as pools[t], and each job holding cur positions, all
 * of its type ctype; with spanning types, cur_t positions of each type
 * (alloc_cur_m). */
static int check_owner_types(const struct alloc_problem *p, struct bfs_error *e)
{
    size_t nt = (size_t)p->n_types;
    int *per = NULL, *held = NULL, rc = 0;

    if (!p->pos_type)
        return bfs_fail(e, BFS_EINVAL,
                        "a node map (owner) with node types needs the type "
                        "of each position (pos_type)");
    per = xcalloc((size_t)p->n_types, sizeof *per);
    held = xcalloc(p->n_jobs * nt + 1, sizeof *held);
    for (int q = 0; q < p->pool && rc == 0; q++) {
        int t = p->pos_type[q], o = p->owner[q];
        if (t < 0 || t >= p->n_types)
            rc = bfs_fail(e, BFS_EINVAL,
                          "node map: position %d of type %d, not a type "
                          "(0..%d)",
                          q, t, p->n_types - 1);
        else if (o < -1 || o >= (int)p->n_jobs)
            rc = bfs_fail(e, BFS_EINVAL,
                          "node map: position %d held by job %d, not a job "
                          "(-1 for none, or 0..%zu)",
                          q, o, p->n_jobs - 1);
        else if (o >= 0 && !p->mixed && t != p->jobs[o].ctype)
            rc = bfs_fail(e, BFS_EINVAL,
                          "node map: position %d, of type %d, held by job "
                          "%d, whose nodes are of type %d",
                          q, t, o, p->jobs[o].ctype);
        else {
            per[t]++;
            if (o >= 0)
                held[(size_t)o * nt + (size_t)t]++;
        }
    }
    for (int t = 0; t < p->n_types && rc == 0; t++)
        if (per[t] != p->pools[t])
            rc = bfs_fail(e, BFS_EINVAL,
                          "node map: %d positions of type %d, but its pool "
                          "has %d nodes",
                          per[t], t, p->pools[t]);
    for (size_t j = 0; j < p->n_jobs && rc == 0; j++) {
        int sum = 0;
        for (size_t t = 0; t < nt && rc == 0; t++) {
            int h = held[j * nt + t], c = alloc_cur_m(p, j, (int)t);
            sum += h;
            if (p->mixed && h != c)
                rc = bfs_fail(e, BFS_EINVAL,
                              "node map: job %zu holds %d positions of type "
                              "%zu, but %d nodes there by its holding",
                              j, h, t, c);
        }
        if (rc == 0 && sum != p->jobs[j].cur)
            rc = bfs_fail(e, BFS_EINVAL,
                          "node map: job %zu holds %d positions, but %d "
                          "nodes by its count",
                          j, sum, p->jobs[j].cur);
    }
    xfree(held);
    xfree(per);
    return rc;
}

static int all_finite(const double *x, size_t n);

/* The typed fields of p (n_types > 1): the pools, the cap left unset,
 * the node map with its positions' types when given (check_owner_types),
 * and every job's current type and tables. */
static int check_types(const struct alloc_problem *p, struct bfs_error *e)
{
    long sum = 0;

    if (!p->pools)
        return bfs_fail(e, BFS_EINVAL, "%d node types but no pools",
                        p->n_types);
    for (int t = 0; t < p->n_types; t++) {
        if (p->pools[t] < 0)
            return bfs_fail(e, BFS_EINVAL, "pool of type %d: %d nodes < 0", t,
                            p->pools[t]);
        sum += p->pools[t];
    }
    if (sum != p->pool)
        return bfs_fail(e, BFS_EINVAL,
                        "the pools of the %d node types sum to %ld, not to "
                        "the pool size %d",
                        p->n_types, sum, p->pool);
    if (p->cap != 0)
        return bfs_fail(e, BFS_EINVAL,
                        "cap %d with node types (a cap needs one type)",
                        p->cap);
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        if (!jb->ot)
            return bfs_fail(e, BFS_EINVAL, "job %zu: no tables per node type",
                            j);
        if (jb->cur > 0 &&
            (jb->ctype < 0 || jb->ctype >= p->n_types || !jb->ot[jb->ctype]))
            return bfs_fail(e, BFS_EINVAL,
                            "job %zu: holds %d nodes of type %d, %s", j,
                            jb->cur, jb->ctype,
                            jb->ctype < 0 || jb->ctype >= p->n_types
                                ? "not a type"
                                : "a type it cannot run on");
        for (int t = 0; t < p->n_types; t++) {
            const double *o = jb->ot[t];
            if (!o)
                continue;
            if (o[0] != 0.0)
                return bfs_fail(e, BFS_EINVAL,
                                "job %zu: O(0) = %g on type %d, not 0", j, o[0],
                                t);
            if (!all_finite(&o[1], (size_t)jb->jmax))
                for (int n = 1; n <= jb->jmax; n++) /* the first one */
                    if (!isfinite(o[n]))
                        return bfs_fail(e, BFS_EINVAL,
                                        "job %zu: O(%d) on type %d not finite",
                                        j, n, t);
        }
    }
    return p->owner ? check_owner_types(p, e) : 0;
}

/* The spanning-types fields of a typed p (p->mixed): every job's cur_t
 * summing to cur, 0 on the types it cannot use, and the jobs' nodes of
 * each type within its pool. */
static int check_mixed(const struct alloc_problem *p, struct bfs_error *e)
{
    long *held;
    int rc = 0;

    if (p->n_types > ALLOC_MIXED_MAX_TYPES)
        return bfs_fail(e, BFS_EINVAL,
                        "spanning types (--mixed-types) with %d node types; "
                        "at most %d are supported",
                        p->n_types, ALLOC_MIXED_MAX_TYPES);
    held = xcalloc((size_t)p->n_types, sizeof *held);
    for (size_t j = 0; j < p->n_jobs && rc == 0; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        long sum = 0;
        for (int t = 0; jb->cur_t && t < p->n_types && rc == 0; t++) {
            if (jb->cur_t[t] < 0 || (jb->cur_t[t] > 0 && !jb->ot[t]))
                rc = bfs_fail(e, BFS_EINVAL,
                              "job %zu: holds %d nodes of type %d, %s", j,
                              jb->cur_t[t], t,
                              jb->cur_t[t] < 0 ? "fewer than 0"
                                               : "a type it cannot run on");
            sum += jb->cur_t[t];
        }
        if (rc == 0 && jb->cur_t && sum != jb->cur)
            rc = bfs_fail(e, BFS_EINVAL,
                          "job %zu: its nodes per type (cur_t) sum to %ld, "
                          "not to its %d nodes (cur)",
                          j, sum, jb->cur);
        for (int t = 0; rc == 0 && t < p->n_types; t++)
            held[t] += alloc_cur_m(p, j, t);
    }
    for (int t = 0; rc == 0 && t < p->n_types; t++)
        if (held[t] > p->pools[t])
            rc = bfs_fail(e, BFS_EINVAL,
                          "the jobs hold %ld nodes of type %d, its pool has %d",
                          held[t], t, p->pools[t]);
    xfree(held);
    return rc;
}

/* Whether x[0..n-1] are all finite: a double is not when its exponent
 * bits are all ones, that is when adding one at the exponent's lowest
 * bit to them alone carries into the sign bit.  ORs of such sums four
 * at a time, no branch nor comparison, which gcc -O2 makes vector
 * operations, so that a check of 10,000 jobs of 64 counts each (every
 * allocator call) costs well under a tenth of a millisecond. */
static int all_finite(const double *x, size_t n)
{
    const uint64_t ex = UINT64_C(0x7FF0000000000000);
    const uint64_t low = UINT64_C(0x0010000000000000);
    uint64_t b[4], bad[4] = {0, 0, 0, 0};
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        memcpy(b, &x[i], sizeof b);
        for (int k = 0; k < 4; k++) /* 0x8000... exactly when all ones */
            bad[k] |= (b[k] & ex) + low;
    }
    for (; i < n; i++) {
        memcpy(b, &x[i], sizeof *b);
        bad[0] |= (b[0] & ex) + low;
    }
    return !((bad[0] | bad[1] | bad[2] | bad[3]) >> 63);
}

/* The tables the last call's check passed (allocator_solve): job j's
 * table o, its o_id and jmax, for its n jobs. */
struct checked {
    const double *o;
    unsigned long id;
    int jmax;
};

struct allocator {
    const struct alloc_ops *ops;
    void *state;
    struct checked *chk; /* owned: n_chk entries, chk_cap allocated */
    size_t n_chk, chk_cap;
};

/* alloc_problem_check(p); with an allocator a, less the finiteness scan
 * of the tables the last call's check passed and their caller says are
 * unchanged (the same pointer, the same nonzero o_id and jmax, at the
 * same job position), and less their O(0) = 0 test: a replay's jobs keep
 * their tables for their whole stay, so a call reads only the tables new
 * since the last.  The verdict is the full check's: a table skipped was
 * found finite with O(0) = 0, and is the same.  Each job's record is read, then
 * replaced by this call's, in the one pass over the jobs; a->n_chk is 0 until
 * the whole check passes, so that after a failure no record is trusted. */
static int problem_check(const struct alloc_problem *p, struct allocator *a,
                         struct bfs_error *e)
{
    size_t n_old = 0;
    int rc;

    if (a) {
        n_old = a->n_chk;
        a->n_chk = 0;
        if (p->n_jobs >= a->chk_cap)
            BFS_GROW(a->chk, a->chk_cap, p->n_jobs + 1);
    }

    if (p->pool < 0)
        return bfs_fail(e, BFS_EINVAL, "pool size %d < 0", p->pool);
    if (!(p->tfwd > 0) || !isfinite(p->tfwd))
        return bfs_fail(e, BFS_EINVAL, "Tfwd %g is not > 0", p->tfwd);
    if (p->cap < 0)
        return bfs_fail(e, BFS_EINVAL, "cap %d < 0", p->cap);
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        int known = a && jb->o_id != 0 && j < n_old && a->chk[j].o == jb->o &&
                    a->chk[j].id == jb->o_id && a->chk[j].jmax == jb->jmax;
        if (a)
            a->chk[j] = (struct checked){jb->o, jb->o_id, jb->jmax};
        if (jb->jmin < 1 || jb->jmax < jb->jmin)
            return bfs_fail(e, BFS_EINVAL, "job %zu: bounds %d..%d", j,
                            jb->jmin, jb->jmax);
        if (jb->cur < 0 || jb->cur > jb->jmax)
            return bfs_fail(e, BFS_EINVAL, "job %zu: holds %d nodes", j,
                            jb->cur);
        if (!(jb->tcup >= 0) || !(jb->tcdw >= 0))
            return bfs_fail(e, BFS_EINVAL, "job %zu: negative rescale cost", j);
        if (p->n_types > 1) /* o and h are not read: check_types */
            continue;
        if (!known && jb->o[0] != 0.0) /* a known table's was 0 */
            return bfs_fail(e, BFS_EINVAL, "job %zu: O(0) = %g, not 0", j,
                            jb->o[0]);
        if (!known && !all_finite(&jb->o[1], (size_t)jb->jmax))
            for (int n = 1; n <= jb->jmax; n++) /* the first one */
                if (!isfinite(jb->o[n]))
                    return bfs_fail(e, BFS_EINVAL, "job %zu: O(%d) not finite",
                                    j, n);
        for (int n = 0; jb->h && n <= jb->jmax; n++)
            if (!(jb->h[n] >= 0) || !isfinite(jb->h[n]))
                return bfs_fail(e, BFS_EINVAL,
                                "job %zu: horizon h(%d) = %g is not a finite "
                                "number >= 0",
                                j, n, jb->h[n]);
    }
    if (p->mixed && p->n_types <= 1)
        return bfs_fail(e, BFS_EINVAL,
                        "spanning types (--mixed-types) with %d node type; "
                        "they need at least two",
                        p->n_types > 1 ? p->n_types : 1);
    rc = p->n_types <= 1 ? 0 : check_types(p, e);
    if (rc == 0 && p->n_types > 1 && p->mixed)
        rc = check_mixed(p, e);
    if (rc == 0 && a)
        a->n_chk = p->n_jobs;
    return rc;
}

int alloc_problem_check(const struct alloc_problem *p, struct bfs_error *e)
{
    return problem_check(p, NULL, e);
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

/* The published even share of pool nodes among jobs[0..nj-1] (their
 * bounds only) into counts[0..nj-1]. */
static void even_share(int pool, const struct alloc_job *jobs, size_t nj,
                       int *counts)
{
    int q, left;

    if (nj == 0)
        return;
    q = pool / (int)nj;
    left = pool;
    for (size_t j = 0; j < nj; j++) {
        const struct alloc_job *jb = &jobs[j];
        counts[j] = q > jb->jmin ? (q < jb->jmax ? q : jb->jmax) : 0;
        left -= counts[j];
    }
    /* Leftover nodes, first come first served. */
    for (size_t j = 0; j < nj && left > 0; j++) {
        const struct alloc_job *jb = &jobs[j];
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

void alloc_even(const struct alloc_problem *p, int *counts, int *types)
{
    size_t nj = p->n_jobs, *on, *idx;
    struct alloc_job *sub;
    int *got;

    if (!alloc_typed(p)) {
        even_share(p->pool, p->jobs, nj, counts);
        return;
    }
    on = xcalloc((size_t)p->n_types, sizeof *on);
    idx = xcalloc(nj + 1, sizeof *idx);
    sub = xcalloc(nj + 1, sizeof *sub);
    got = xcalloc(nj + 1, sizeof *got);
    /* the jobs holding nodes stay on their type */
    for (size_t j = 0; j < nj; j++) {
        types[j] = p->jobs[j].cur > 0 ? p->jobs[j].ctype : -1;
        if (types[j] >= 0)
            on[types[j]]++;
    }
    /* each idle job in turn to the usable type with the most idle nodes
     * per job dealt to it, counting itself: pools[t] / (on[t] + 1),
     * compared exactly; ties to the lower type */
    for (size_t j = 0; j < nj; j++) {
        int best = -1;
        if (p->jobs[j].cur > 0)
            continue;
        for (int t = 0; t < p->n_types; t++)
            if (p->jobs[j].ot[t] &&
                (best < 0 ||
                 (long long)p->pools[t] * (long long)(on[best] + 1) >
                     (long long)p->pools[best] * (long long)(on[t] + 1)))
                best = t;
        types[j] = best;
        if (best >= 0)
            on[best]++;
    }
    /* the published share within each type, its jobs in job order */
    for (size_t j = 0; j < nj; j++)
        counts[j] = 0;
    for (int t = 0; t < p->n_types; t++) {
        size_t m = 0;
        for (size_t j = 0; j < nj; j++)
            if (types[j] == t) {
                idx[m] = j;
                sub[m++] = p->jobs[j];
            }
        even_share(p->pools[t], sub, m, got);
        for (size_t k = 0; k < m; k++)
            counts[idx[k]] = got[k];
    }
    for (size_t j = 0; j < nj; j++)
        if (counts[j] == 0)
            types[j] = -1;
    xfree(got);
    xfree(sub);
    xfree(idx);
    xfree(on);
}

/* ---- the calls' clock ------------------------------------------------- */

uint64_t alloc_ticks(void)
{
#ifdef ALLOC_TSC
    return __rdtsc();
#else
    double s = bfs_now();
    return s > 0 ? (uint64_t)(s * 1e9) : 0;
#endif
}

/* Measures c->spt from c->tk0 and c->s0 up to now (tick tk). */
static void clock_rate(struct alloc_clock *c, uint64_t tk)
{
    double s = bfs_now();

    if (tk > c->tk0 && s > c->s0) {
        c->spt = (s - c->s0) / (double)(tk - c->tk0);
        c->tk_next = 2 * (tk - c->tk0);
    }
}

void alloc_clock_init(struct alloc_clock *c)
{
    c->tk0 = alloc_ticks();
    c->s0 = bfs_now();
    c->spt = 1e-9;
    c->tk_next = UINT64_MAX;
#ifdef ALLOC_TSC
    {
        uint64_t tk;
        do /* at least 100 us between the two readings of the rate */
            tk = alloc_ticks();
        while (bfs_now() - c->s0 < 1e-4);
        clock_rate(c, tk);
    }
#endif
}

double alloc_clock_since(struct alloc_clock *c, uint64_t t0)
{
    uint64_t tk = alloc_ticks();

    if (tk - c->tk0 >= c->tk_next && tk > c->tk0)
        clock_rate(c, tk);
    return tk > t0 ? (double)(tk - t0) * c->spt : 0.0;
}

/* ---- the registry ---------------------------------------------------- */

static int even_create(const struct alloc_opts *o, void **state,
                       struct bfs_error *e)
{
    struct alloc_clock *c = xmalloc(sizeof *c);

    (void)o;
    (void)e;
    alloc_clock_init(c);
    *state = c;
    return 0;
}

static int even_solve(void *state, const struct alloc_problem *p,
                      struct alloc_result *res, struct bfs_error *e)
{
    uint64_t t0 = alloc_ticks();

    (void)e;
    alloc_even(p, res->counts, res->types);
    if (alloc_mixed(p)) /* one type per job, which the problem admits */
        for (size_t j = 0; j < p->n_jobs; j++)
            for (int t = 0; t < p->n_types; t++)
                res->type_counts[j * (size_t)p->n_types + (size_t)t] =
                    t == res->types[j] ? res->counts[j] : 0;
    res->status = SOLVE_OPTIMAL; /* the baseline's answer is always taken */
    if (p->no_objective)         /* a sum over the jobs no one reads */
        res->objective = res->bound = nan("");
    else
        res->objective = res->bound =
            alloc_mixed(p) ? alloc_objective_m(p, res->type_counts)
                           : alloc_objective_t(p, res->counts, res->types);
    res->build_s = 0.0;
    res->solve_s = alloc_clock_since(state, t0);
    res->rows = res->cols = res->nnz = 0;
    return 0;
}

static void even_destroy(void *state)
{
    xfree(state);
}

static const struct alloc_ops even_ops = {
    .name = "even",
    .mixed = 1, /* its one-type answer is a spanning one */
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
    int rc = problem_check(p, a, e);

    if (rc)
        return rc;
    if (alloc_mixed(p) && !a->ops->mixed)
        return bfs_fail(e, BFS_EUNSUP,
                        "--mixed-types: allocator '%s' does not solve "
                        "spanning node types (it would need a table over "
                        "every type's usage at once); milp's count model "
                        "solves them (--allocator milp --model count)",
                        a->ops->name);
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
    int *types = NULL, *given_t = res->types;
    int *tcounts = NULL, *given_tc = res->type_counts;
    size_t nt = alloc_mixed(p) ? (size_t)p->n_types : 0;
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
    if (alloc_typed(p)) {
        types = xmalloc(p->n_jobs * sizeof *types);
        res->types = types;
    }
    if (nt) { /* job k's row of the type counts is job order[k]'s */
        tcounts = xmalloc(p->n_jobs * nt * sizeof *tcounts);
        res->type_counts = tcounts;
    }
    rc = allocator_solve(a, &q, res, e);
    res->counts = given;
    res->types = given_t;
    res->type_counts = given_tc;
    if (rc == 0 &&
        (res->status == SOLVE_OPTIMAL || res->status == SOLVE_FEASIBLE))
        for (k = 0; k < p->n_jobs; k++) {
            given[order[k]] = counts[k];
            if (types)
                given_t[order[k]] = types[k];
            if (nt)
                memcpy(&given_tc[order[k] * nt], &tcounts[k * nt],
                       nt * sizeof *tcounts);
        }
    xfree(tcounts);
    xfree(types);
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

int alloc_takes_mixed(const struct alloc_opts *o)
{
    const struct alloc_ops *ops = find(o->name);

    /* milp's node model refuses them (milp_mixed.c, mixed_solve) */
    return ops && ops->mixed &&
           !(ops == &alloc_milp_ops && o->model &&
             strcmp(o->model, "node") == 0);
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
    xfree(a->chk);
    xfree(a);
}
