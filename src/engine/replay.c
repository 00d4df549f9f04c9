/* replay.c - the replay core (see replay.h, and replay_impl.h for the
 * phases).
 *
 * What both modes share: loading the job set and the trace's node subset,
 * building the pool at t0, admission, the phases of an event (account an
 * interval, departures, completions, joins and admissions, decide, apply
 * the map, emit), the sinks, and the statistics.  The drivers, compat.c
 * and default.c, call the phases in order and own their cost models.
 */
#include "config.h"

#include "engine/replay_impl.h"

#include "base/util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void replay_opts_default(struct replay_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_jobs = 10;
    o->tfwd = 10.0;
    o->mode = REPLAY_DEFAULT;
    o->types_aware = 1;
    alloc_opts_default(&o->alloc);
    o->belief.seed = 1;
    o->belief.explore_seed = 1;
    tiebreak_default(&o->tie_break);
    nodepick_default(&o->node_pick);
}

/* ---- setup ----------------------------------------------------------- */

/* How far the replay has come, 0..1, for a progress line: a replay ends
 * when every job has finished or the trace (or its --end window) has, so
 * the furthest of the share of the job set's work done, of the window
 * when --end is given, and of the trace file read.  A streamed trace does
 * not tell its last time in advance; its file's size does tell how much
 * of it is left (the share read counts the reader's read-ahead, so it runs a
 * little early: an estimate, never a result). */
static double done_fraction(struct replay *r, int64_t t)
{
    double f = r->work > 0 ? r->st->samples_trained / r->work : 0.0;
    double tr = trace_fraction(r->tr);

    /* Only what is left after the start of the replay counts. */
    if (r->trace_read0 == 0)
        r->trace_read0 = tr + 1.0;
    if (tr >= 0 && r->trace_read0 - 1.0 < 1.0)
        tr = (tr - (r->trace_read0 - 1.0)) / (2.0 - r->trace_read0);
    else
        tr = -1.0;
    if (r->o->has_end && r->o->end > r->st->first_time) {
        double w = (double)(t - r->st->first_time) /
                   (double)(r->o->end - r->st->first_time);
        f = w > f ? w : f;
    }
    f = tr > f ? tr : f;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* With node types: the job's tables on every type of the trace (d is
 * the job with its capped bounds).  A job that can run on none of them
 * is an error. */
static int job_type_tables_all(struct replay *r, struct rjob *rj,
                               const struct job *d)
{
    size_t len = (size_t)d->jmax + 1, usable = 0;

    rj->pt = xcalloc(r->n_types * len, sizeof *rj->pt);
    rj->ot = xcalloc(r->n_types * len, sizeof *rj->ot);
    rj->otp = xcalloc(r->n_types, sizeof *rj->otp);
    if (!rj->held_t) { /* the job's state: kept when the tables go */
        rj->held_t = xcalloc(r->n_types, sizeof *rj->held_t);
        rj->target_t = xcalloc(r->n_types, sizeof *rj->target_t);
        rj->ns_t = xcalloc(r->n_types, sizeof *rj->ns_t);
    }
    for (size_t t = 0; t < r->n_types; t++) {
        int rc = job_type_tables(d, trace_type_name(r->tr, t), r->o->objective,
                                 rj->pt + t * len, rj->ot + t * len,
                                 r->o->jobs_path, r->e);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            rj->otp[t] = rj->ot + t * len;
            usable++;
        }
    }
    if (usable == 0)
        return bfs_fail_at(r->e, BFS_EINVAL, r->o->jobs_path, d->line,
                           "job %s runs on none of the node types of %s",
                           d->name, r->o->trace_path);
    return 0;
}

/* What a trace with node types cannot be replayed with (yet). */
static int types_check(const struct replay *r)
{
    const struct replay_opts *o = r->o;
    const char *what = NULL;

    if (o->mode == REPLAY_COMPAT)
        what = "--compat bftrainer";
    else if (o->belief.kind != BELIEF_TRUE)
        what = "--belief";
    else if (o->hints != HINTS_OFF)
        what = "--hints";
    if (o->mixed_types && !r->aware)
        return bfs_fail(r->e, BFS_EUSAGE,
                        "--mixed-types needs --types-aware yes: a decision "
                        "blind to types has none to span");
    if (r->mixed && !alloc_takes_mixed(&o->alloc))
        return bfs_fail(r->e, BFS_EUNSUP,
                        "--mixed-types is solved by milp's count model only "
                        "(--allocator milp --model count), or approximated "
                        "by even");
    if (!what)
        return 0;
    return bfs_fail(
        r->e, BFS_EUNSUP, "%s has node types, which %s does not take (yet)%s",
        o->trace_path, what, r->aware ? "" : "; --types-aware no neither");
}

/* Reads the trace's node types for the subset (none: r->n_types 0). */
static int types_setup(struct replay *r)
{
    size_t nt = trace_type_count(r->tr);

    if (nt == 0)
        return 0;
    r->n_types = nt;
    r->aware = r->o->types_aware;
    r->ntype = xmalloc((r->n_nodes + 1) * sizeof *r->ntype);
    r->pos_type = xmalloc((r->n_nodes + 1) * sizeof *r->pos_type);
    for (size_t k = 0; k < r->n_nodes; k++)
        r->ntype[k] = trace_node_type(r->tr, r->skip + k);
    r->pools_t = xcalloc(nt, sizeof *r->pools_t);
    r->used_t = xcalloc(nt, sizeof *r->used_t);
    if (nt > BFS_MAX_TYPES)
        return bfs_fail(r->e, BFS_EINVAL,
                        "%s has %zu node types; bfsim takes at most %d",
                        r->o->trace_path, nt, BFS_MAX_TYPES);
    r->mixed = r->aware && r->o->mixed_types && nt > 1;
    r->st->n_types = nt;
    r->st->types_aware = r->aware;
    r->st->mixed_types = r->mixed;
    for (size_t t = 0; t < nt; t++) {
        const char *name = trace_type_name(r->tr, t);
        if (strpbrk(name, ",\"") != NULL)
            return bfs_fail(r->e, BFS_EINVAL,
                            "%s: node type name '%s' has a comma or a quote, "
                            "which would break the job log's columns",
                            r->o->trace_path, name);
        if (strlen(name) >= BFS_TYPE_NAME_MAX)
            return bfs_fail(r->e, BFS_EINVAL,
                            "%s: node type name '%.20s...' is longer than %d "
                            "characters",
                            r->o->trace_path, name, BFS_TYPE_NAME_MAX - 1);
        strcpy(r->st->type_names[t], name);
        r->type_names[t] = r->st->type_names[t];
    }
    return types_check(r);
}

/* Whether job d (its Jmax capped) has the tables job_tables made last
 * (r->tab_p, r->tab_o): they are a function of the curve, bit for bit,
 * the capped Jmax and the replay's objective.  A job set of copies of
 * one job (a search's trials) makes them once. */
static int same_tables(const struct replay *r, const struct job *d)
{
    const struct curve *a = &d->curve, *b;

    if (!r->tab_def || r->tab_jmax != d->jmax)
        return 0;
    b = &r->tab_def->curve;
    return a->n == b->n && !memcmp(a->N, b->N, a->n * sizeof *a->N) &&
           !memcmp(a->P, b->P, a->n * sizeof *a->P) &&
           !memcmp(a->O, b->O, a->n * sizeof *a->O);
}

/* The job's bounds capped at N + 1 for the replay's N nodes, and its
 * tables up to the capped Jmax: memory in the machine's size, not in
 * the job file's numbers.  Counts above N are never admissible (the pool
 * never holds more than N nodes), so a job with Jmax > N has the same
 * admissible counts with Jmax N + 1, and a job with Jmin > N (none but 0)
 * the same with Jmin = Jmax = N + 1. */
static int job_tables(struct replay *r, struct rjob *rj)
{
    struct job d = *rj->def; /* shallow: the capped bounds, the same curve */
    int top = r->n_nodes < (size_t)INT_MAX ? (int)r->n_nodes + 1 : INT_MAX;
    int plain = r->n_types == 0 && !r->belief, rc;
    size_t len;

    if (d.jmin > top)
        d.jmin = top;
    if (d.jmax > top)
        d.jmax = top;
    rj->jmin = d.jmin;
    rj->jmax = d.jmax;
    len = (size_t)d.jmax + 1;
    rj->p = xmalloc(len * sizeof *rj->p);
    rj->o = xmalloc(len * sizeof *rj->o);
    /* a new table, a new identity; none with a belief (it learns o) */
    rj->o_id = r->belief ? 0 : ++r->last_o_id;
    if (plain && same_tables(r, &d)) {
        memcpy(rj->p, r->tab_p, len * sizeof *rj->p);
        memcpy(rj->o, r->tab_o, len * sizeof *rj->o);
        return 0;
    }
    for (int n = 0; n <= d.jmax; n++)
        rj->p[n] = curve_eval(&d.curve, d.curve.P, n);
    if (r->n_types > 0) {
        rc = job_type_tables_all(r, rj, &d);
        if (rc)
            return rc;
    }
    if (r->belief) /* the allocator's table from the belief */
        return belief_job_init(r->belief, (size_t)(rj - r->jobs), &d, rj->o,
                               r->e);
    rc = job_objective_table(&d, r->o->objective, rj->o, r->o->jobs_path, r->e);
    if (rc == 0 && plain) {
        r->tab_def = rj->def;
        r->tab_jmax = d.jmax;
        r->tab_p = xrealloc(r->tab_p, len * sizeof *r->tab_p);
        r->tab_o = xrealloc(r->tab_o, len * sizeof *r->tab_o);
        memcpy(r->tab_p, rj->p, len * sizeof *rj->p);
        memcpy(r->tab_o, rj->o, len * sizeof *rj->o);
    }
    return rc;
}

/* Whether the jobs' tables live only while the job is in the system
 * (admitted, not finished): built at admission, freed at completion,
 * so that a replay's memory grows with the jobs in the system, not with
 * the job file.  Not with a belief, whose per-job state is made with
 * them at setup. */
static int tables_lazy(const struct replay *r)
{
    return r->belief == NULL;
}

/* Frees rj's tables (P, O and their per-type forms; rj->p NULL after). */
static void job_tables_drop(struct rjob *rj)
{
    xfree(rj->p);
    xfree(rj->o);
    xfree(rj->pt);
    xfree(rj->ot);
    xfree(rj->otp);
    rj->p = rj->o = rj->pt = rj->ot = NULL;
    rj->otp = NULL;
}

/* Makes room for n active jobs in the arrays indexed by active job
 * (r->act_cap grows by doubling): sized by the jobs in the system, not
 * by the job file. */
static void act_reserve(struct replay *r, size_t n)
{
    size_t cap = r->act_cap ? r->act_cap : 16;

    if (n <= r->act_cap)
        return;
    while (cap < n)
        cap *= 2;
    r->act = xreallocarray(r->act, cap, sizeof *r->act);
    r->ev_act = xreallocarray(r->ev_act, cap, sizeof *r->ev_act);
    r->sumbuf = xreallocarray(r->sumbuf, cap, sizeof *r->sumbuf);
    r->ajobs = xreallocarray(r->ajobs, cap, sizeof *r->ajobs);
    r->anames = xreallocarray(r->anames, cap, sizeof *r->anames);
    r->counts = xreallocarray(r->counts, cap, sizeof *r->counts);
    r->tb_jobs = xreallocarray(r->tb_jobs, cap, sizeof *r->tb_jobs);
    r->tb_order = xreallocarray(r->tb_order, cap, sizeof *r->tb_order);
    if (r->n_types)
        r->types = xreallocarray(r->types, cap, sizeof *r->types);
    if (r->mixed)
        r->type_counts = xreallocarray(r->type_counts, cap * r->n_types,
                                       sizeof *r->type_counts);
    r->act_cap = cap;
}

static int owner_map_read(const struct replay *r);

static int setup(struct replay *r)
{
    const struct replay_opts *o = r->o;
    size_t total;
    int rc;

    rc = jobset_load(o->jobs_path, o->curves_path, &r->js, r->e);
    if (rc)
        return rc;
    rc = belief_open(&o->belief, &r->js, o->jobs_path, o->objective, &r->belief,
                     r->e);
    if (rc)
        return rc;
    rc = trace_open(o->trace_path, &r->tr, r->e);
    if (rc)
        return rc;
    total = trace_node_count(r->tr);
    if (o->node_skip >= total && total > 0)
        return bfs_fail(r->e, BFS_EINVAL,
                        "--nodes skips %zu of the %zu nodes in %s",
                        o->node_skip, total, o->trace_path);
    r->skip = o->node_skip;
    r->n_nodes = total - r->skip;
    if (o->node_count) {
        if (o->node_count > r->n_nodes)
            return bfs_fail(r->e, BFS_EINVAL,
                            "--nodes asks for %zu nodes after skipping %zu, "
                            "but %s has %zu",
                            o->node_count, r->skip, o->trace_path, total);
        r->n_nodes = o->node_count;
    }
    r->owner = xmalloc((r->n_nodes + 1) * sizeof *r->owner);
    for (size_t i = 0; i < r->n_nodes; i++)
        r->owner[i] = -1;
    r->pool_cap = 2 * r->n_nodes;
    r->pool = xmalloc((r->pool_cap + 1) * sizeof *r->pool);
    r->pool_at = xmalloc((r->n_nodes + 1) * sizeof *r->pool_at);
    r->in_pool = xcalloc(r->n_nodes + 1, 1);
    r->marked = xcalloc(r->n_nodes + 1, 1);
    r->changed = xmalloc((r->n_nodes + 1) * sizeof *r->changed);
    for (size_t i = 0; i < o->n_sinks; i++) {
        r->track_changes |= o->sinks[i]->nodes != NULL;
        r->want_rows |= o->sinks[i]->step != NULL;
        r->want_solves |= o->sinks[i]->solve != NULL;
    }
    r->owner_pos = xmalloc((r->n_nodes + 1) * sizeof *r->owner_pos);
    rc = types_setup(r);
    if (rc)
        return rc;

    r->jobs = xcalloc(r->js.n + 1, sizeof *r->jobs);
    for (size_t j = 0; j < r->js.n; j++) {
        r->jobs[j].def = &r->js.jobs[j];
        r->jobs[j].admit_time = r->jobs[j].first_start = -1;
        r->jobs[j].done_time = -1;
        r->jobs[j].reported = -1;
        r->jobs[j].q_time = INT64_MIN;
        r->jobs[j].ttype = -1;
    }
    /* Every job's tables are made here, so that a bad job is an error
     * before the replay starts; lazily kept ones are made again, the
     * same, at admission. */
    for (size_t j = 0; j < r->js.n; j++) {
        rc = job_tables(r, &r->jobs[j]);
        if (rc)
            return rc;
        if (tables_lazy(r))
            job_tables_drop(&r->jobs[j]);
    }
    for (size_t j = 0; j < r->js.n; j++)
        r->work += r->js.jobs[j].pmax;
    r->tsub_sorted = 1;
    for (size_t j = 1; j < r->js.n; j++)
        if (r->js.jobs[j].tsub < r->js.jobs[j - 1].tsub)
            r->tsub_sorted = 0;
    act_reserve(r, 16);

    rc = allocator_create(&o->alloc, &r->alloc, r->e);
    if (rc)
        return rc;
    r->owner_read = owner_map_read(r);
    rc = alloc_solver_params(&o->alloc, r->st->solver_params,
                             sizeof r->st->solver_params, r->e);
    if (rc)
        return rc;
    rc = pool_pick_setup(r);
    if (rc)
        return rc;
    r->st->trace_nodes = r->n_nodes;
    r->st->jobs_total = r->js.n;
    return 0;
}

static void teardown(struct replay *r)
{
    allocator_free(r->alloc);
    pool_pick_release(r);
    for (size_t j = 0; r->jobs && j < r->js.n; j++) {
        job_tables_drop(&r->jobs[j]);
        xfree(r->jobs[j].held_t);
        xfree(r->jobs[j].target_t);
        xfree(r->jobs[j].ns_t);
        xfree(r->jobs[j].segs);
    }
    evq_release(&r->q);
    xfree(r->tab_p);
    xfree(r->tab_o);
    xfree(r->jobs);
    xfree(r->act);
    xfree(r->ev_act);
    xfree(r->sumbuf);
    xfree(r->ajobs);
    xfree(r->anames);
    xfree(r->counts);
    xfree(r->types);
    xfree(r->type_counts);
    xfree(r->ntype);
    xfree(r->pos_type);
    xfree(r->pools_t);
    xfree(r->used_t);
    xfree(r->tb_jobs);
    xfree(r->tb_order);
    xfree(r->owner_pos);
    xfree(r->pool);
    xfree(r->pool_at);
    xfree(r->in_pool);
    xfree(r->marked);
    xfree(r->changed);
    xfree(r->owner);
    xfree(r->joins);
    xfree(r->leaves);
    trace_close(r->tr);
    belief_free(r->belief);
    jobset_release(&r->js);
}

/* ---- trace input --------------------------------------------------- */

/* Reads the next trace event and stores its changes inside the subset
 * in r->joins / r->leaves (ascending node order), without applying them.
 * Returns 1, 0 at the end, or a negative code. */
static int read_event(struct replay *r, int64_t *time)
{
    struct trace_event ev;
    int rc = trace_next(r->tr, &ev, r->e);

    if (rc <= 0)
        return rc;
    r->n_joins = r->n_leaves = 0;
    /* room for the row's changes at once, not one call per node */
    BFS_GROW(r->joins, r->cap_joins, ev.n_join + 1);
    BFS_GROW(r->leaves, r->cap_leaves, ev.n_leave + 1);
    for (size_t i = 0; i < ev.n_join; i++) {
        size_t k = ev.join[i];
        if (k < r->skip || k - r->skip >= r->n_nodes)
            continue;
        r->joins[r->n_joins++] = (uint32_t)(k - r->skip);
    }
    for (size_t i = 0; i < ev.n_leave; i++) {
        size_t k = ev.leave[i];
        if (k < r->skip || k - r->skip >= r->n_nodes)
            continue;
        r->leaves[r->n_leaves++] = (uint32_t)(k - r->skip);
    }
    *time = ev.time;
    return 1;
}

/* Reads the next event with at least one change inside the subset (an
 * event outside it is no event for this replay). */
int next_event(struct replay *r, int64_t *time)
{
    int rc;

    do
        rc = read_event(r, time);
    while (rc == 1 && r->n_joins + r->n_leaves == 0);
    return rc;
}

/* The job set's earliest submission, INT64_MAX for an empty set. */
static int64_t first_tsub(const struct replay *r)
{
    int64_t first = INT64_MAX;

    for (size_t j = 0; j < r->js.n; j++)
        if (r->js.jobs[j].tsub < first)
            first = r->js.jobs[j].tsub;
    return first;
}

/* The start without --start: the job set's first submission when it is
 * later than the trace's first row (the jobs' window lies inside the
 * trace, and the hours before it would only dilute the pool measures),
 * else the trace's first row.  Not with --align-jobs, which moves the
 * jobs to the start instead. */
static int64_t default_start(const struct replay *r, int64_t first_row)
{
    int64_t first;

    if (r->o->align_jobs || r->js.n == 0)
        return first_row;
    first = first_tsub(r);
    return first > first_row ? first : first_row;
}

/* Applies the events at or before t0 to the idle set, rc and *t being
 * the first event read.  Returns 1 with the first later event read into
 * r->joins / r->leaves and *t, 0 at the end, or a negative code. */
static int apply_until(struct replay *r, int64_t t0, int64_t *t, int rc)
{
    while (rc == 1 && *t <= t0) {
        for (size_t i = 0; i < r->n_joins; i++) {
            r->in_pool[r->joins[i]] = 1;
            pool_note_join(r, r->joins[i], *t);
        }
        for (size_t i = 0; i < r->n_leaves; i++) {
            r->in_pool[r->leaves[i]] = 0;
            pool_note_leave(r, r->leaves[i], *t);
        }
        rc = read_event(r, t);
    }
    return rc;
}

/* Reads the trace again from its first row, every node busy and the
 * node-pick history empty, and returns the first event as read_event. */
static int rewind_trace(struct replay *r, int64_t *t)
{
    int rc;

    trace_close(r->tr);
    r->tr = NULL;
    rc = trace_open(r->o->trace_path, &r->tr, r->e);
    if (rc)
        return rc;
    memset(r->in_pool, 0, r->n_nodes * sizeof *r->in_pool);
    pool_pick_reset(r);
    return read_event(r, t);
}

/* Reads the events up to the start time and builds the pool at t0: the
 * subset's idle nodes in node order.  Without a start time, t0 is
 * default_start's, or the trace's first time when the jobs start after
 * the trace's last row.  Leaves the first event after t0, if any, read
 * but not applied.  Returns 1 if there is such an event, 0 if not, or a
 * negative code. */
static int read_until_start(struct replay *r, int64_t *t0, int64_t *t)
{
    int rc = read_event(r, t);
    int from_jobs;

    if (rc <= 0)
        return rc < 0 ? rc
                      : bfs_fail(r->e, BFS_EINVAL, "%s: the trace has no event",
                                 r->o->trace_path);
    *t0 = r->o->has_start ? r->o->start : default_start(r, *t);
    from_jobs = !r->o->has_start && *t0 != *t;
    rc = apply_until(r, *t0, t, rc);
    if (rc == 0 && from_jobs) {
        /* the job set starts after the trace's last row: not inside the
         * trace, so the window is the whole trace (and the replay warns
         * that no job was submitted in it) */
        rc = rewind_trace(r, t);
        if (rc < 0)
            return rc;
        *t0 = *t;
        rc = apply_until(r, *t0, t, rc);
    }
    if (rc == 1 && r->n_joins + r->n_leaves == 0)
        rc = next_event(r, t);
    for (size_t i = 0; i < r->n_nodes; i++)
        if (r->in_pool[i]) {
            pool_mark(r, (uint32_t)i);
            pool_append(r, (uint32_t)i);
        }
    return rc;
}

/* ---- admission ------------------------------------------------------- */

/* Admits the submitted jobs (tsub <= now) never admitted before, in file
 * order, up to max_jobs in the system, as the published replayer does,
 * making their tables when they are kept lazily.  r->next_job is the
 * first job never admitted; when the file is sorted by tsub the scan
 * stops at the first job not yet submitted.  Returns 0, or a negative
 * code (the tables made at setup cannot fail here: a guard). */
static int admit(struct replay *r, int64_t now)
{
    size_t limit = r->o->max_jobs > 0 ? (size_t)r->o->max_jobs : SIZE_MAX;

    /* sorted, and the first job never admitted not yet submitted: the
     * scan below would stop at it (an O(1) call at most events) */
    if (r->tsub_sorted && r->next_job < r->js.n &&
        r->jobs[r->next_job].def->tsub > now)
        return 0;
    for (size_t j = r->next_job; j < r->js.n && r->n_act < limit; j++) {
        struct rjob *rj = &r->jobs[j];
        if (rj->admitted)
            continue;
        if (rj->def->tsub > now) {
            if (r->tsub_sorted)
                break;
            continue;
        }
        if (!rj->p) {
            int rc = job_tables(r, rj);
            if (rc)
                return rc;
        }
        rj->admitted = 1;
        rj->admit_time = now;
        act_reserve(r, r->n_act + 1);
        r->act[r->n_act++] = j;
        r->act_changed = 1;
        r->st->jobs_admitted++;
    }
    while (r->next_job < r->js.n && r->jobs[r->next_job].admitted)
        r->next_job++;
    return 0;
}

/* With --align-jobs, shifts every submission time by the same amount so
 * that the earliest is t0: a job set recorded at another time (the
 * bundled sets date from February 2021) can be replayed on any trace. */
static void align_jobs(struct replay *r, int64_t t0)
{
    int64_t first = first_tsub(r);

    if (!r->o->align_jobs || r->js.n == 0)
        return;
    for (size_t j = 0; j < r->js.n; j++)
        r->js.jobs[j].tsub += t0 - first;
}

/* ---- allocation ------------------------------------------------------ */

static void record_solve(struct replay *r, const struct alloc_result *res)
{
    struct replay_stats *st = r->st;

    st->solves++;
    if (res->status >= 0 && res->status < SOLVE_N_STATUSES)
        st->solves_by_status[res->status]++;
    /* the call's whole time: isolation's overhead included */
    qhist_add(&r->solve_hist, res->build_s + res->solve_s + res->ipc_s);
    st->solve_s_total += res->build_s + res->solve_s + res->ipc_s;
    st->mip_solves += res->mip_solves;
    if (res->nodes > 0) {
        st->nodes_total += (size_t)res->nodes;
        if ((size_t)res->nodes > st->nodes_max)
            st->nodes_max = (size_t)res->nodes;
    }
    if (res->iters > 0) {
        st->iters_total += (size_t)res->iters;
        if ((size_t)res->iters > st->iters_max)
            st->iters_max = (size_t)res->iters;
    }
    if (res->rows > st->max_rows)
        st->max_rows = res->rows;
    if (res->cols > st->max_cols)
        st->max_cols = res->cols;
    if (res->nnz > st->max_nnz)
        st->max_nnz = res->nnz;
}

/* The --tie-break rule's order of the active jobs at event evt, or NULL
 * for admission order (the default rule, and the even-share baseline,
 * which is no optimiser and has no ties to break). */
static const size_t *tie_order(struct replay *r, size_t evt)
{
    const struct tiebreak *tb = &r->o->tie_break;

    if (tb->kind == TIEBREAK_FIRST_ADMITTED ||
        strcmp(r->o->alloc.name, "even") == 0)
        return NULL;
    for (size_t a = 0; a < r->n_act; a++) {
        const struct rjob *rj = &r->jobs[r->act[a]];
        r->tb_jobs[a] = (struct tiebreak_job){
            .remaining = rj->def->pmax - rj->accs,
            .node_seconds = rj->node_seconds,
        };
    }
    tiebreak_order(tb, r->tb_jobs, r->n_act, evt, r->tb_order);
    return r->tb_order;
}

/* Whether anything reads the allocator's node-level view (p.owner): an
 * instance dump, or an allocator that says it may (milp, whose node model
 * places the nodes by it).  Without a reader the view is not built: it
 * costs O(pool) at every call.  A typed problem (aware) carries it only
 * for the allocator, with each position's type: instance files hold no
 * node map with types. */
static int owner_map_read(const struct replay *r)
{
    return allocator_reads_owner(r->alloc) || (r->o->instance && !r->aware);
}

/* The type of the nodes rj holds (the first type it holds any of), 0
 * when it holds none. */
static int held_type(const struct replay *r, const struct rjob *rj)
{
    for (size_t t = 0; rj->held > 0 && t < r->n_types; t++)
        if (rj->held_t[t] > 0)
            return (int)t;
    return 0;
}

int core_decide(struct replay *r, size_t evt, int64_t t, int *status)
{
    struct alloc_problem p;
    struct alloc_result res;
    int rc;

    r->dec_evt = evt;
    r->dec_time = t;
    for (size_t a = 0; a < r->n_act && r->belief; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        rc = belief_observe(r->belief, r->act[a], t, rj->held, rj->p[rj->held],
                            rj->o, r->e);
        if (rc < 0)
            return rc;
    }
    for (size_t a = 0; a < r->n_act && !r->act_changed; a++) {
        /* the same jobs in the same slots: their bounds, costs and
         * tables are those written (a table is made at admission and
         * kept, a belief learns it in place); only the counts move */
        const struct rjob *rj = &r->jobs[r->act[a]];
        r->ajobs[a].cur = rj->held;
        if (r->aware)
            r->ajobs[a].ctype = held_type(r, rj);
    }
    for (size_t a = 0; a < r->n_act && r->act_changed; a++) {
        const struct rjob *rj = &r->jobs[r->act[a]];
        r->jobs[r->act[a]].slot = (int)a;
        r->ajobs[a] = (struct alloc_job){
            .cur = rj->held,
            .jmin = rj->jmin,
            .jmax = rj->jmax,
            .tcup = rj->def->tcup,
            .tcdw = rj->def->tcdw,
            /* one type, typed: its table (the problem is untyped) */
            .o = r->aware && r->n_types == 1 ? rj->otp[0] : rj->o,
            .o_id = r->aware ? 0 : rj->o_id,
        };
        if (r->aware) {
            r->ajobs[a].ot = rj->otp;
            r->ajobs[a].ctype = held_type(r, rj);
            r->ajobs[a].cur_t = rj->held_t;
        }
        r->anames[a] = rj->def->name;
    }
    r->act_changed = 0;
    if (r->owner_read) {
        pool_compact(r);
        for (size_t pos = 0; pos < r->n_pool; pos++) {
            int32_t j = r->owner[r->pool[pos]];
            r->owner_pos[pos] = j >= 0 ? r->jobs[j].slot : -1;
            if (r->aware)
                r->pos_type[pos] = (int)r->ntype[r->pool[pos]];
        }
    }
    if (r->o->hints != HINTS_OFF)
        pool_hints(r);
    p = (struct alloc_problem){
        .pool = (int)r->n_pool,
        .tfwd = r->o->tfwd,
        .n_jobs = r->n_act,
        .jobs = r->ajobs,
        .cap = r->o->legacy_cap ? ((int)r->n_pool + 1) / 2 : 0,
        .owner = r->owner_read ? r->owner_pos : NULL,
        .n_types = r->aware ? (int)r->n_types : 0,
        .pools = r->aware ? r->pools_t : NULL,
        .type_names = r->aware ? r->type_names : NULL,
        .pos_type = r->owner_read && r->aware ? r->pos_type : NULL,
        .mixed = r->mixed,
        .no_objective = !r->want_solves, /* read by the solve record only */
    };
    if (r->o->instance) {
        rc = r->o->instance(r->o->instance_arg, &p, r->anames, evt, t, r->e);
        if (rc)
            return rc;
    }
    memset(&res, 0, sizeof res);
    res.counts = r->counts;
    res.types = r->types;
    res.type_counts = r->type_counts;
    if (r->o->alloc.mps_dir) {
        char tag[32];
        snprintf(tag, sizeof tag, "evt-%06zu", evt);
        allocator_set_tag(r->alloc, tag);
    }
    rc = allocator_solve_order(r->alloc, &p, tie_order(r, evt), &res, r->e);
    if (rc)
        return rc;
    /* a trace of one type: an untyped problem, whose answer has no types
     * (any node will do: they are all of that type) */
    for (size_t a = 0; r->aware && p.n_types <= 1 && a < r->n_act; a++)
        r->types[a] = -1;
    record_solve(r, &res);
    if (res.status != SOLVE_OPTIMAL) {
        struct replay_stats *st = r->st;
        /* an answer at the limit is applied only with --apply-feasible
         * in the default mode */
        if (res.status == SOLVE_FEASIBLE &&
            (r->o->mode == REPLAY_COMPAT || !r->o->apply_feasible))
            st->solves_dropped++;
        if (st->solves_unproven++ == 0) {
            st->unproven_first_evt = evt;
            st->unproven_first_time = t;
        }
    }
    if (r->want_solves) {
        struct rec_solve rs = {
            .evt = evt,
            .time = t,
            .status = res.status,
            .pool = p.pool,
            .n_jobs = p.n_jobs,
            .objective = res.objective,
            .bound = res.bound,
            .build_s = res.build_s,
            .solve_s = res.solve_s,
            .rows = res.rows,
            .cols = res.cols,
            .nnz = res.nnz,
            .cpu_s = res.cpu_s,
            .ipc_s = res.ipc_s,
            .root_bound = res.root_bound,
            .mip_solves = res.mip_solves,
            .nodes = res.nodes,
            .iters = res.iters,
            .cuts = res.cuts,
        };
        for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
            if (r->o->sinks[i]->solve)
                r->sink_rc = r->o->sinks[i]->solve(r->o->sinks[i]->arg, &rs);
    }
    *status = res.status;
    return 0;
}

void core_set_rates(struct replay *r, int64_t t)
{
    for (size_t a = 0; a < r->n_act; a++)
        core_set_rate(r, a, t);
}

/* ---- sinks ----------------------------------------------------------- */

static void emit_alloc(struct replay *r, size_t j, size_t evt, int64_t t)
{
    struct rjob *rj = &r->jobs[j];

    if (rj->held == rj->reported)
        return;
    rj->reported = rj->held;
    for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
        if (r->o->sinks[i]->alloc) {
            struct rec_alloc ra = {evt, t, j, rj->held};
            r->sink_rc = r->o->sinks[i]->alloc(r->o->sinks[i]->arg, &ra);
        }
}

/* Empties the list of changed nodes, once every sink has had it. */
static void emit_forget_changes(struct replay *r)
{
    for (size_t k = 0; k < r->n_changed; k++)
        r->marked[r->changed[k]] = 0;
    r->n_changed = 0;
}

/* Reports the counts that changed at event evt: those of the jobs active
 * when it began (some may have finished) and of the jobs active now. */
void emit_allocs(struct replay *r, size_t evt, int64_t t)
{
    struct rec_nodes m = {
        .evt = evt,
        .time = t,
        .t0 = r->st->first_time,
        .n = r->n_nodes,
        .owner = r->owner,
        .n_jobs = r->js.n,
        .jobs = r->js.jobs,
        .pool = r->pool,
        .n_pool = r->n_pool,
        .changed = r->changed,
        .n_changed = r->n_changed,
        .in_pool = r->in_pool,
        .n_types = r->n_types,
        .ntype = r->ntype,
        .type_names = r->type_names,
    };

    if (r->o->n_sinks == 0) {
        emit_forget_changes(r);
        return;
    }
    for (size_t a = 0; a < r->n_ev_act; a++)
        emit_alloc(r, r->ev_act[a], evt, t);
    for (size_t a = 0; a < r->n_act; a++)
        emit_alloc(r, r->act[a], evt, t);
    /* then the node map, for the sinks that want it (m.pool: no holes) */
    for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
        if (r->o->sinks[i]->nodes) {
            pool_compact(r);
            r->sink_rc = r->o->sinks[i]->nodes(r->o->sinks[i]->arg, &m);
        }
    emit_forget_changes(r);
}

static int emit_jobs(struct replay *r)
{
    for (size_t j = 0; j < r->js.n && !r->sink_rc; j++) {
        const struct rjob *rj = &r->jobs[j];
        struct rec_job jr = {
            .index = j,
            .name = rj->def->name,
            .tsub = rj->def->tsub,
            .admitted = rj->admit_time,
            .first_start = rj->first_start,
            .finished = rj->done_time,
            .samples = rj->accs,
            .node_seconds = rj->node_seconds,
            .paused_s = rj->paused_s,
            .lost_rescale = rj->lost[PAUSE_RESCALE],
            .lost_preempt = rj->lost[PAUSE_PREEMPT],
            .rescales = rj->n_rescales,
            .preemptions = rj->n_preempts,
            .starts = rj->n_starts,
            .n_types = r->n_types,
            .type_moves = rj->n_moves,
            .node_seconds_t = rj->ns_t,
            .type_names = r->type_names,
            .n_features = r->js.n_features,
            .feature_names = (const char *const *)r->js.feature_names,
            .features = (const char *const *)rj->def->features,
            .ckpt = r->st->ckpt,
            .ckpt_lost_samples = rj->ckpt_lost,
            .ckpt_pause_cost =
                rj->lost[PAUSE_CKPT_WRITE] + rj->lost[PAUSE_CKPT_RESTART],
            .ckpt_writes = rj->ckpt_writes,
            .ckpt_restarts = rj->ckpt_restarts,
        };
        if (r->belief && r->o->belief.kind == BELIEF_LEARN) {
            jr.learned = 1;
            belief_job_fit(r->belief, j, &jr.observations, &jr.counts_observed,
                           &jr.fit_ok, &jr.fit_a, &jr.fit_b);
        }
        for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
            if (r->o->sinks[i]->job)
                r->sink_rc = r->o->sinks[i]->job(r->o->sinks[i]->arg, &jr);
    }
    return r->sink_rc;
}

/* ---- the phases of an event ------------------------------------------ */

int core_start(struct replay *r, int64_t *t0, int64_t *t)
{
    int rc = read_until_start(r, t0, t), rc2;

    if (rc < 0)
        return rc;
    r->st->first_time = r->st->last_event_time = *t0;
    align_jobs(r, *t0);
    for (size_t j = 0; j < r->js.n; j++) {
        int64_t ts = r->js.jobs[j].tsub;
        if (j == 0 || ts < r->st->tsub_first)
            r->st->tsub_first = ts;
        if (j == 0 || ts > r->st->tsub_last)
            r->st->tsub_last = ts;
    }
    rc2 = admit(r, *t0);
    return rc2 < 0 ? rc2 : rc;
}

int core_stopped(struct replay *r)
{
    if (r->o->stop && *r->o->stop) {
        r->st->partial = 1;
        return 1;
    }
    return 0;
}

void core_begin(struct replay *r, size_t evt, int64_t t)
{
    /* read by the compatible mode and by emit_allocs for the sinks only
     * (without them, an empty list) */
    r->n_ev_act = 0;
    if (r->o->mode == REPLAY_COMPAT || r->o->n_sinks > 0) {
        memcpy(r->ev_act, r->act, r->n_act * sizeof *r->act);
        r->n_ev_act = r->n_act;
    }
    memset(&r->row, 0, sizeof r->row);
    r->row.evt = evt;
    r->row.time = t;
    r->st->events = evt;
}

void core_account(struct replay *r, int64_t prev, int64_t t)
{
    double dt = (double)(t - prev);
    size_t used = 0; /* nodes_in_use, summed in the loop below */

    /* Node counts are integers and dt whole seconds: these sums are
     * exact, whatever their order. */
    r->st->idle_node_seconds += dt * (double)r->n_pool;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        used += (size_t)rj->held;
        rj->node_seconds += dt * rj->held;
        r->st->samples_ideal += dt * job_full_rate(r, rj);
        for (size_t k = 0; rj->held_t && k < r->n_types; k++)
            rj->ns_t[k] += dt * rj->held_t[k];
    }
    r->st->allocated_node_seconds += dt * (double)used;
    for (size_t k = 0; k < r->n_types; k++) {
        r->st->idle_ns_t[k] += dt * r->pools_t[k];
        r->st->alloc_ns_t[k] += dt * r->used_t[k];
    }
}

size_t core_departures(struct replay *r, int64_t t,
                       int (*preempt)(struct replay *r, struct rjob *rj,
                                      int64_t t))
{
    size_t n = 0;

    for (size_t i = 0; i < r->n_leaves; i++) {
        int32_t j = r->owner[r->leaves[i]];
        struct rjob *rj;
        if (j < 0)
            continue;
        rj = &r->jobs[j];
        if (!job_preempted(r, rj)) {
            rj->preempt_evt = r->row.evt + 1;
            n += (size_t)preempt(r, rj, t);
        }
        job_drop_node(r, rj, r->leaves[i]);
    }
    pool_remove_leaves(r);
    r->st->preemptions += n;
    return n;
}

void core_type_target(struct replay *r, struct rjob *rj, size_t a)
{
    rj->ttype = r->types[a];
    if (rj->ttype < 0)
        return;
    if (r->mixed) {
        memcpy(rj->target_t, r->type_counts + a * r->n_types,
               r->n_types * sizeof *rj->target_t);
        return;
    }
    memset(rj->target_t, 0, r->n_types * sizeof *rj->target_t);
    rj->target_t[rj->ttype] = rj->target;
}

void core_finish_job(struct replay *r, struct rjob *rj, int64_t t)
{
    rj->accs = rj->def->pmax;
    rj->finished = 1;
    rj->done_time = t;
    r->st->jobs_finished++;
    r->n_done++;
}

void core_drop_finished(struct replay *r)
{
    size_t w = 0, held = 0;

    if (r->n_done == 0)
        return; /* no job finished: every active job stays */
    r->n_done = 0;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        if (!rj->finished) {
            r->act[w++] = r->act[a];
            continue;
        }
        held += (size_t)rj->held;
        if (tables_lazy(r))
            job_tables_drop(rj);
        /* no pause is read after the job's end */
        xfree(rj->segs);
        rj->segs = NULL;
        rj->n_segs = rj->cap_segs = 0;
    }
    if (w != r->n_act)
        r->act_changed = 1;
    r->n_act = w;
    /* their nodes, in pool order, up to the last one they hold (none to
     * look for: no walk) */
    for (size_t p = 0; held > 0 && p < r->pool_len; p++) {
        int32_t j = r->pool[p] != POOL_HOLE ? r->owner[r->pool[p]] : -1;
        if (j >= 0 && r->jobs[j].finished) {
            pool_mark(r, r->pool[p]);
            r->owner[r->pool[p]] = -1;
            pool_freed(r, p);
            job_drop_node(r, &r->jobs[j], r->pool[p]);
            held--;
        }
    }
}

int core_joins_admit(struct replay *r, int64_t t, int trace_now)
{
    if (trace_now)
        pool_append_joins(r);
    return admit(r, t);
}

int core_emit(struct replay *r)
{
    if (r->n_types > 0) {
        r->row.n_types = r->n_types;
        r->row.pool_t = r->pools_t;
        r->row.used_t = r->used_t;
    }
    for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
        if (r->o->sinks[i]->step)
            r->sink_rc = r->o->sinks[i]->step(r->o->sinks[i]->arg, &r->row);
    emit_allocs(r, r->row.evt, r->row.time);
    return r->sink_rc;
}

void core_progress(struct replay *r, size_t evt, int64_t t)
{
    if (r->o->progress)
        r->o->progress(r->o->progress_arg, evt, t, done_fraction(r, t));
}

/* ---- statistics ------------------------------------------------------ */

/* The run's description and the derived measures (engine/measures.c). */
static void finish_stats(struct replay *r)
{
    struct replay_stats *st = r->st;
    struct measures_job *mj = xmalloc((r->js.n + 1) * sizeof *mj);

    for (size_t j = 0; j < r->js.n; j++) {
        const struct rjob *rj = &r->jobs[j];
        mj[j] = (struct measures_job){
            .tsub = rj->def->tsub,
            .admitted = rj->admitted ? rj->admit_time : -1,
            .finished = rj->done_time,
            .node_seconds = rj->node_seconds,
        };
    }
    st->version = PACKAGE_VERSION;
    st->mode = r->o->mode == REPLAY_COMPAT ? "bftrainer" : "default";
    st->allocator = r->o->alloc.name;
    st->objective = job_objective_name(r->o->objective);
    st->tie_break = r->o->tie_break.name;
    st->node_pick = r->o->node_pick.name;
    st->hints = nodepick_hints_name(r->o->hints);
    st->node_pick_mae = r->mae_n ? r->mae_sum / (double)r->mae_n : 0.0;
    if (r->belief)
        belief_finish(r->belief, mj, st);
    measures_finish(st, &(struct measures_input){
                            .solve_hist = &r->solve_hist,
                            .jobs = mj,
                            .n_jobs = r->js.n,
                        });
    xfree(mj);
}

/* Runs so, a shadow of this run's options with one rule changed, without
 * sinks or callbacks, into ss.  Returns 0, 1 when a signal stopped the
 * shadow (st, this run's stats, is then marked partial), or a negative
 * code from replay_run(). */
static int shadow_replay(struct replay_opts *so, struct replay_stats *ss,
                         struct replay_stats *st, struct bfs_error *e)
{
    int rc;

    so->sinks = NULL;
    so->n_sinks = 0;
    so->instance = NULL;
    so->map = NULL;
    so->progress = NULL;
    rc = replay_run(so, ss, e);
    if (rc)
        return rc;
    if (ss->partial) {
        st->partial = 1;
        return 1;
    }
    return 0;
}

/* The measures against --node-pick longest-idle (tools/DESIGN.md,
 * "Preemptions avoided"): the same replay again with that rule, without
 * sinks or callbacks, its preemptions and cost less this run's.  A
 * shadow stopped by a signal marks the run partial and leaves them 0. */
static int shadow_run(const struct replay_opts *o, struct replay_stats *st,
                      struct bfs_error *e)
{
    struct replay_opts so = *o;
    struct replay_stats ss;
    int rc;

    nodepick_default(&so.node_pick);
    rc = shadow_replay(&so, &ss, st, e);
    if (rc)
        return rc < 0 ? rc : 0;
    st->preemptions_avoided =
        (int64_t)ss.preemptions - (int64_t)st->preemptions;
    st->preempt_cost_avoided = ss.preempt_cost - st->preempt_cost;
    return 0;
}

/* The regrets of a --belief other than true (tools/DESIGN.md,
 * "Beliefs"): the same replay with --belief true, without sinks or
 * callbacks.  A shadow stopped by a signal marks the run partial. */
static int belief_shadow(const struct replay_opts *o, struct replay_stats *st,
                         struct bfs_error *e)
{
    struct replay_opts so = *o;
    struct replay_stats ss;
    int rc;

    so.belief.kind = BELIEF_TRUE;
    rc = shadow_replay(&so, &ss, st, e);
    if (rc)
        return rc < 0 ? rc : 0;
    st->regret_samples = ss.samples_trained - st->samples_trained;
    st->regret_jct_mean = ss.jobs_finished ? st->jct_mean - ss.jct_mean : 0;
    st->regret_harvest = ss.harvest_ratio - st->harvest_ratio;
    return 0;
}

int replay_run(const struct replay_opts *o, struct replay_stats *stats,
               struct bfs_error *e)
{
    struct replay r;
    double t0 = bfs_now();
    int rc;

    memset(&r, 0, sizeof r);
    memset(stats, 0, sizeof *stats);
    r.o = o;
    r.st = stats;
    r.e = e;
    rc = setup(&r);
    if (rc == 0)
        rc = o->mode == REPLAY_COMPAT ? compat_run(&r) : default_run(&r);
    if (rc == 0)
        rc = emit_jobs(&r);
    if (rc == 0)
        finish_stats(&r);
    teardown(&r);
    if (rc == 0 && o->node_pick.kind != NODEPICK_LONGEST_IDLE &&
        !stats->partial)
        rc = shadow_run(o, stats, e);
    if (rc == 0 && o->belief.kind != BELIEF_TRUE && !stats->partial)
        rc = belief_shadow(o, stats, e);
    measures_set_wall(stats, bfs_now() - t0);
    return rc;
}
