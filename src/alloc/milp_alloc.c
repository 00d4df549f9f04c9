/* alloc/milp_alloc.c - the MILP allocator (alloc_milp_ops): the count
 * and node models of the allocation problem, solved by any backend, with
 * the tie-break rule of alloc/objective.h enforced by lexicographic
 * stages.  This file holds the allocator: its options, its state and
 * the entry point, which picks the model.  The models and stages are in
 * the other milp_*.c files, all declared in alloc/milp_impl.h; each
 * calls only the ones below it:
 *
 *   milp_alloc.c   the allocator (this file)
 *   milp_count.c   the count model (one type, node types) and the
 *                  stages of both models
 *   milp_node.c    the node model (stage 1)
 *   milp_agg.c     the aggregated count model (classes of alike jobs)
 *                  and its stages
 *   milp_mixed.c   the mixed count model (spanning types) and its stages
 *   milp_base.c    linear expressions, struct amodel, one stage's
 *                  solve, dp's start
 *
 * Models: milp_count.c's top describes the count models and the
 * stages, milp_node.c's the node models, milp_mixed.c's the model with
 * spanning types.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/milp_impl.h"
#include "alloc/objective.h"
#include "solver/milp.h"
#include "solver/solver.h"
#include "base/util.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *alloc_milp_default_solver(void)
{
    return solver_default_name();
}

/* Parses "NAME[,OPTION]..." into its name (malloc'd, *name), bfsim's own
 * options isolate=yes|no, start=yes|no and aggregate=auto|yes|no
 * (*isolate, *start, *aggregate: AGG_*) and the
 * backend's parameters, checked and canonical, into params (cap bytes). */
static int parse_solver(const char *spec, char **name, int *isolate, int *start,
                        int *aggregate, char *params, size_t cap,
                        struct bfs_error *e)
{
    const char *comma = strchr(spec, ',');
    size_t len = comma ? (size_t)(comma - spec) : strlen(spec), used = 0;
    char *rest = xmalloc(strlen(spec) + 1);
    int rc = 0;

    *name = xmalloc(len + 1);
    memcpy(*name, spec, len);
    (*name)[len] = '\0';
    rest[0] = '\0';
    while (comma) {
        const char *opt = comma + 1;
        size_t olen;
        comma = strchr(opt, ',');
        olen = comma ? (size_t)(comma - opt) : strlen(opt);
        if (olen == 11 && strncmp(opt, "isolate=yes", olen) == 0)
            *isolate = SOLVER_ISOLATE_YES;
        else if (olen == 10 && strncmp(opt, "isolate=no", olen) == 0)
            *isolate = SOLVER_ISOLATE_NO;
        else if (olen == 9 && strncmp(opt, "start=yes", olen) == 0)
            *start = 1;
        else if (olen == 8 && strncmp(opt, "start=no", olen) == 0)
            *start = 0;
        else if (olen == 14 && strncmp(opt, "aggregate=auto", olen) == 0)
            *aggregate = AGG_AUTO;
        else if (olen == 13 && strncmp(opt, "aggregate=yes", olen) == 0)
            *aggregate = AGG_YES;
        else if (olen == 12 && strncmp(opt, "aggregate=no", olen) == 0)
            *aggregate = AGG_NO;
        else if (olen >= 10 && strncmp(opt, "aggregate=", 10) == 0) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "solver '%s': '%.*s': bfsim's option takes auto, "
                          "yes or no",
                          *name, (int)olen, opt);
            break;
        } else if ((olen >= 8 && strncmp(opt, "isolate=", 8) == 0) ||
                   (olen >= 6 && strncmp(opt, "start=", 6) == 0)) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "solver '%s': '%.*s': bfsim's option takes yes or "
                          "no",
                          *name, (int)olen, opt);
            break;
        } else if (olen == 4 && strncmp(opt, "help", olen) == 0) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "solver '%s': `bfsim solve --solver %s,help` "
                          "lists the options and parameters",
                          *name, *name);
            break;
        } else {
            memcpy(rest + used, opt - (used ? 1 : 0), olen + (used ? 1 : 0));
            used += olen + (used ? 1 : 0);
            rest[used] = '\0';
        }
    }
    /* an unknown backend is solver_create's to report */
    if (rc == 0 && solver_find(*name))
        rc = solver_params_canon(*name, rest, params, cap, e);
    xfree(rest);
    return rc;
}

int alloc_solver_params(const struct alloc_opts *o, char *out, size_t cap,
                        struct bfs_error *e)
{
    const char *spec = o->solver ? o->solver : solver_default_name();
    char *name = NULL;
    int isolate = 0, start = 0, aggregate = AGG_AUTO, rc = 0;

    if (cap > 0)
        out[0] = '\0';
    if (o->name && strcmp(o->name, "milp") == 0 && spec) {
        rc = parse_solver(spec, &name, &isolate, &start, &aggregate, out, cap,
                          e);
        xfree(name);
    }
    return rc;
}

static void milp_destroy(void *state)
{
    struct mstate *st = state;

    if (st) {
        alloc_dp_ops.destroy(st->dp);
        solver_destroy(st->solver);
        xfree(st->tag);
        xfree(st->mps_dir);
        xfree(st->name);
        xfree(st);
    }
}

static int milp_create(const struct alloc_opts *o, void **state,
                       struct bfs_error *e)
{
    struct mstate *st = xcalloc(1, sizeof *st);
    const char *spec = o->solver ? o->solver : solver_default_name();
    int rc;

    solver_opts_default(&st->base);
    st->base.time_limit = o->time_limit;
    st->base.gap_rel = o->gap_rel;
    st->base.gap_abs = o->gap_abs;
    st->base.threads = o->threads;
    st->base.log_level = o->log_level;
    st->base.log = o->solver_log;
    if (!o->model || strcmp(o->model, "count") == 0)
        st->model = MODEL_COUNT;
    else if (strcmp(o->model, "node") == 0)
        st->model = MODEL_NODE;
    else {
        milp_destroy(st);
        return bfs_fail(e, BFS_EUSAGE,
                        "unknown model '%s' (known: count, node)", o->model);
    }
    if (!spec) {
        milp_destroy(st);
        return bfs_fail(e, BFS_EUNSUP,
                        "allocator 'milp': no MILP solver is compiled into "
                        "this build of bfsim");
    }
    st->base.seed = o->seed;
    st->mps_dir = o->mps_dir ? xstrdup(o->mps_dir) : NULL;
    st->start = o->start != 0;
    st->aggregate = AGG_AUTO;
    rc = parse_solver(spec, &st->name, &st->base.isolate, &st->start,
                      &st->aggregate, st->base.params, sizeof st->base.params,
                      e);
    if (rc == 0)
        rc = solver_create(st->name, &st->base, &st->solver, e);
    if (rc == 0 && st->start &&
        solver_takes_start(st->solver, SOLVER_EFFORT_LIGHT))
        rc = alloc_dp_ops.create(o, &st->dp, e);
    if (rc) {
        milp_destroy(st);
        return rc;
    }
    *state = st;
    return 0;
}

static void milp_set_tag(void *state, const char *tag)
{
    struct mstate *st = state;

    xfree(st->tag);
    st->tag = tag ? xstrdup(tag) : NULL;
}

static int milp_alloc_solve(void *state, const struct alloc_problem *p,
                            struct alloc_result *res, struct bfs_error *e)
{
    struct mstate *st = state;
    double t0 = bfs_now();
    struct amodel a, c;
    int *n0, *ty0 = NULL, rc = 0;

    res->status = SOLVE_FAILED;
    res->objective = nan("");
    res->bound = HUGE_VAL;
    res->build_s = res->solve_s = 0.0;
    res->rows = res->cols = res->nnz = 0;
    if (alloc_mixed(p))
        return mixed_solve(st, p, res, e);
    amodel_init(&c, p);
    amodel_init(&a, p);
    for (size_t j = 0; j < c.nj; j++)
        if (c.hi[j] < 0) { /* no admissible count: the cap forbids all */
            res->status = SOLVE_INFEASIBLE;
            goto out;
        }
    n0 = st->dp ? mstate_dp_start(st, p, res, &ty0) : NULL;
    if (st->model == MODEL_COUNT && c.nt == 1 && st->aggregate != AGG_NO) {
        rc = agg_solve(st, p, n0, res, e);
        if (rc != 1) {
            xfree(ty0);
            xfree(n0);
            goto out;
        }
        rc = 0;
    }
    count_build(p, &c, n0 ? alloc_objective_t(p, n0, ty0) : -HUGE_VAL);
    if (n0)
        count_start(&c, n0, ty0);
    /* the node model's stage 1 runs at SOLVER_EFFORT_PROVE with a start
     * (GLPK takes none there, and the rows that order interchangeable
     * jobs slow it down) */
    if (st->model == MODEL_NODE)
        rc = node_build(
            p, &a,
            solver_takes_start(st->solver, SOLVER_EFFORT_PROVE) ? n0 : NULL,
            ty0, e);
    xfree(ty0);
    xfree(n0);
    if (rc)
        goto out;
    {
        double tb = bfs_now() - t0;
        st->mps_rc = 0;
        rc = count_solve(st, p, st->model == MODEL_NODE ? &a : &c, &c, res, e);
        res->build_s += tb;
        if (rc == 0 && st->mps_rc) /* a model that could not be written */
            rc = bfs_fail(e, st->mps_rc, "%s", st->mps_e.msg);
    }
out:
    amodel_release(&a);
    amodel_release(&c);
    return rc;
}

const struct alloc_ops alloc_milp_ops = {
    .name = "milp",
    .reads_owner = 1, /* the node model places the nodes by it */
    .mixed = 1,       /* the mixed count model (the node model refuses) */
    .create = milp_create,
    .solve = milp_alloc_solve,
    .destroy = milp_destroy,
    .set_tag = milp_set_tag,
};
