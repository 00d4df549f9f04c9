/* replay.c - the replay loop (see replay.h and DESIGN.md).
 *
 * Shared machinery: the node subset, the pool as an ordered list of node
 * positions (the nodes idle at t0 in node order, then every join appended
 * at the end), the owner of every pool node, the admitted jobs in
 * admission order, and the one rule that turns counts into a map
 * (shrinking jobs release their lowest-position nodes, then growing jobs,
 * in job order, take the lowest-position free nodes), applied in two
 * linear passes over the pool whatever the number of jobs.
 *
 * The compatible mode follows the published replayer step by step,
 * including the order of its floating-point operations: progress sums in
 * job order as Python's sum() does, other column sums as numpy's pairwise
 * summation does (bfs_pairwise_sum), so that its step log is reproduced
 * to the printed digit.
 */
#include "config.h"

#include "engine/replay.h"

#include "engine/evq.h"
#include "alloc/instance.h"
#include "formats/jobs.h"
#include "formats/trace.h"
#include "base/out.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

void replay_opts_default(struct replay_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_jobs = 10;
    o->tfwd = 10.0;
    o->mode = REPLAY_DEFAULT;
    alloc_opts_default(&o->alloc);
}

/* A job of the job set and its replay state. */
struct rjob {
    const struct job *def; /* borrowed from the job set */
    double *p, *o;         /* owned; P(n), O(n) for n = 0..jmax */
    int admitted, finished;
    int held;     /* pool nodes held */
    int target;   /* count decided by the allocator, for the map rule */
    int slot;     /* index among the active jobs at the last allocation */
    int reported; /* count last given to the sinks' alloc, -1 = none */
    double rate;  /* samples/s set at the last decision */
    double pend;  /* rescale cost decided then, charged at the next event */
    double accs;  /* samples done */
    double progr, pre; /* this event's progress and preemption cost */

    /* Default mode: pauses, as segments [.., until) ending in order. */
    struct pause_seg {
        double until;
        int cause; /* PAUSE_RESCALE or PAUSE_PREEMPT */
    } * segs;      /* owned */
    size_t n_segs, cap_segs;
    uint64_t version; /* of the job's pending completion event */
    int64_t admit_time, first_start, done_time; /* -1 = never */
    double node_seconds, paused_s, lost[2];
    size_t n_rescales, n_preempts;
};

enum { PAUSE_RESCALE, PAUSE_PREEMPT };

/* Event kinds of the default mode, in their order at one instant. */
enum { EV_TRACE, EV_COMPLETION, EV_ARRIVAL };

struct replay {
    const struct replay_opts *o;
    struct replay_stats *st;
    double work; /* the job set's total Pmax */
    struct bfs_error *e;

    struct trace_reader *tr;
    struct jobset js;
    size_t skip, n_nodes; /* the subset */
    uint8_t *idle;        /* per subset node: idle in the trace now */
    int32_t *owner;       /* per subset node: job index, -1 free */
    uint32_t *pool;       /* subset nodes in position order */
    size_t n_pool;
    uint32_t *joins, *leaves; /* this event's changes inside the subset */
    size_t n_joins, n_leaves, cap_joins, cap_leaves;

    struct rjob *jobs;
    size_t next_job; /* first job never admitted, in file order */
    size_t *act;     /* admitted, unfinished jobs in admission order */
    size_t n_act;
    size_t *ev_act; /* the jobs active when the event began */
    size_t n_ev_act;
    double *sumbuf; /* scratch for column sums */

    struct allocator *alloc;
    struct alloc_job *ajobs;
    const char **anames; /* names of the active jobs, for instance dumps */
    int *counts;
    int *owner_pos; /* node-level view for the allocator */
    double *solve_times;
    size_t n_solve_times, cap_solve_times;

    struct bfs_out steps;
    struct evq q;
    int tsub_sorted; /* the job file is sorted by tsub */
    int sink_rc;     /* first error a sink returned */
};

/* ---- setup ----------------------------------------------------------- */

/* How far the replay has come, 0..1, for a progress line: the share of
 * the job set's work done, or of the window when --end is given, which
 * ever is further (a replay ends when every job has finished or the
 * window has, and a streamed trace does not tell its end in advance). */
static double done_fraction(const struct replay *r, int64_t t)
{
    double f = r->work > 0 ? r->st->samples_trained / r->work : 0.0;
    if (r->o->has_end && r->o->end > r->st->first_time) {
        double w = (double)(t - r->st->first_time) /
                   (double)(r->o->end - r->st->first_time);
        f = w > f ? w : f;
    }
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static int job_tables(struct replay *r, struct rjob *rj)
{
    const struct job *d = rj->def;

    rj->p = xmalloc(((size_t)d->jmax + 1) * sizeof *rj->p);
    rj->o = xmalloc(((size_t)d->jmax + 1) * sizeof *rj->o);
    for (int n = 0; n <= d->jmax; n++)
        rj->p[n] = curve_eval(&d->curve, d->curve.P, n);
    return job_objective_table(d, r->o->objective, rj->o, r->o->jobs_path,
                               r->e);
}

static int setup(struct replay *r)
{
    const struct replay_opts *o = r->o;
    size_t total;
    int rc;

    rc = jobset_load(o->jobs_path, o->curves_path, &r->js, r->e);
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
    r->idle = xcalloc(r->n_nodes + 1, sizeof *r->idle);
    r->owner = xmalloc((r->n_nodes + 1) * sizeof *r->owner);
    for (size_t i = 0; i < r->n_nodes; i++)
        r->owner[i] = -1;
    r->pool = xmalloc((r->n_nodes + 1) * sizeof *r->pool);
    r->owner_pos = xmalloc((r->n_nodes + 1) * sizeof *r->owner_pos);

    r->jobs = xcalloc(r->js.n + 1, sizeof *r->jobs);
    for (size_t j = 0; j < r->js.n; j++) {
        r->jobs[j].def = &r->js.jobs[j];
        r->jobs[j].admit_time = r->jobs[j].first_start = -1;
        r->jobs[j].done_time = -1;
        r->jobs[j].reported = -1;
    }
    for (size_t j = 0; j < r->js.n; j++) {
        rc = job_tables(r, &r->jobs[j]);
        if (rc)
            return rc;
    }
    for (size_t j = 0; j < r->js.n; j++)
        r->work += r->js.jobs[j].pmax;
    r->tsub_sorted = 1;
    for (size_t j = 1; j < r->js.n; j++)
        if (r->js.jobs[j].tsub < r->js.jobs[j - 1].tsub)
            r->tsub_sorted = 0;
    r->act = xmalloc((r->js.n + 1) * sizeof *r->act);
    r->ev_act = xmalloc((r->js.n + 1) * sizeof *r->ev_act);
    r->sumbuf = xmalloc((r->js.n + 1) * sizeof *r->sumbuf);
    r->ajobs = xmalloc((r->js.n + 1) * sizeof *r->ajobs);
    r->anames = xmalloc((r->js.n + 1) * sizeof *r->anames);
    if (o->dump_dir && mkdir(o->dump_dir, 0777) != 0 && errno != EEXIST)
        return bfs_fail(r->e, BFS_EIO, "--dump-instances: cannot create %s: %s",
                        o->dump_dir, strerror(errno));
    r->counts = xmalloc((r->js.n + 1) * sizeof *r->counts);

    rc = allocator_create(&o->alloc, &r->alloc, r->e);
    if (rc)
        return rc;
    if (o->steps_path) {
        rc = bfs_out_open(&r->steps, o->steps_path, r->e);
        if (rc)
            return rc;
        fputs("evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,"
              "nJrun,nNrun,PreCost\n",
              r->steps.fp);
    }
    r->st->trace_nodes = r->n_nodes;
    r->st->jobs_total = r->js.n;
    return 0;
}

static void teardown(struct replay *r)
{
    bfs_out_abort(&r->steps);
    allocator_free(r->alloc);
    for (size_t j = 0; r->jobs && j < r->js.n; j++) {
        xfree(r->jobs[j].p);
        xfree(r->jobs[j].o);
        xfree(r->jobs[j].segs);
    }
    evq_release(&r->q);
    xfree(r->jobs);
    xfree(r->act);
    xfree(r->ev_act);
    xfree(r->sumbuf);
    xfree(r->ajobs);
    xfree(r->anames);
    xfree(r->counts);
    xfree(r->owner_pos);
    xfree(r->solve_times);
    xfree(r->pool);
    xfree(r->owner);
    xfree(r->idle);
    xfree(r->joins);
    xfree(r->leaves);
    trace_close(r->tr);
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
    for (size_t i = 0; i < ev.n_join; i++) {
        size_t k = ev.join[i];
        if (k < r->skip || k - r->skip >= r->n_nodes)
            continue;
        BFS_GROW(r->joins, r->cap_joins, r->n_joins + 1);
        r->joins[r->n_joins++] = (uint32_t)(k - r->skip);
    }
    for (size_t i = 0; i < ev.n_leave; i++) {
        size_t k = ev.leave[i];
        if (k < r->skip || k - r->skip >= r->n_nodes)
            continue;
        BFS_GROW(r->leaves, r->cap_leaves, r->n_leaves + 1);
        r->leaves[r->n_leaves++] = (uint32_t)(k - r->skip);
    }
    *time = ev.time;
    return 1;
}

/* Reads the next event with at least one change inside the subset (an
 * event outside it is no event for this replay). */
static int next_event(struct replay *r, int64_t *time)
{
    int rc;

    do
        rc = read_event(r, time);
    while (rc == 1 && r->n_joins + r->n_leaves == 0);
    return rc;
}

/* Reads the events up to the start time and builds the pool at t0: the
 * subset's idle nodes in node order.  Without a start time, t0 is the
 * trace's first time.  Leaves the first event after t0, if any, read but
 * not applied.  Returns 1 if there is such an event, 0 if not, or a
 * negative code. */
static int read_until_start(struct replay *r, int64_t *t0, int64_t *t)
{
    int rc = read_event(r, t);

    if (rc <= 0)
        return rc < 0 ? rc
                      : bfs_fail(r->e, BFS_EINVAL, "%s: the trace has no event",
                                 r->o->trace_path);
    *t0 = r->o->has_start ? r->o->start : *t;
    while (rc == 1 && *t <= *t0) {
        for (size_t i = 0; i < r->n_joins; i++)
            r->idle[r->joins[i]] = 1;
        for (size_t i = 0; i < r->n_leaves; i++)
            r->idle[r->leaves[i]] = 0;
        rc = read_event(r, t);
    }
    if (rc == 1 && r->n_joins + r->n_leaves == 0)
        rc = next_event(r, t);
    for (size_t i = 0; i < r->n_nodes; i++)
        if (r->idle[i])
            r->pool[r->n_pool++] = (uint32_t)i;
    return rc;
}

/* ---- pool and map ---------------------------------------------------- */

/* Removes the nodes in r->leaves from the pool, keeping the order. */
static void pool_remove_leaves(struct replay *r)
{
    size_t w = 0;

    for (size_t i = 0; i < r->n_leaves; i++)
        r->owner[r->leaves[i]] = -2; /* marked for removal */
    for (size_t p = 0; p < r->n_pool; p++)
        if (r->owner[r->pool[p]] != -2)
            r->pool[w++] = r->pool[p];
        else
            r->owner[r->pool[p]] = -1;
    r->n_pool = w;
}

static void pool_append_joins(struct replay *r)
{
    for (size_t i = 0; i < r->n_joins; i++) {
        r->owner[r->joins[i]] = -1;
        r->pool[r->n_pool++] = r->joins[i];
    }
}

/* Applies rjob.target to every active job by the map rule. */
static void apply_targets(struct replay *r)
{
    size_t a = 0;

    /* Shrinking jobs release their lowest-position nodes. */
    for (size_t p = 0; p < r->n_pool; p++) {
        int32_t j = r->owner[r->pool[p]];
        if (j >= 0 && r->jobs[j].held > r->jobs[j].target) {
            r->owner[r->pool[p]] = -1;
            r->jobs[j].held--;
        }
    }
    /* Growing jobs, in job order, take the lowest-position free nodes. */
    for (size_t p = 0; p < r->n_pool; p++) {
        struct rjob *rj;
        if (r->owner[r->pool[p]] != -1)
            continue;
        while (a < r->n_act &&
               r->jobs[r->act[a]].held >= r->jobs[r->act[a]].target)
            a++;
        if (a == r->n_act)
            break;
        rj = &r->jobs[r->act[a]];
        r->owner[r->pool[p]] = (int32_t)r->act[a];
        rj->held++;
    }
}

static size_t nodes_in_use(const struct replay *r)
{
    size_t n = 0;

    for (size_t a = 0; a < r->n_act; a++)
        n += (size_t)r->jobs[r->act[a]].held;
    return n;
}

static size_t jobs_running(const struct replay *r)
{
    size_t n = 0;

    for (size_t a = 0; a < r->n_act; a++)
        n += r->jobs[r->act[a]].held > 0;
    return n;
}

/* ---- admission ------------------------------------------------------- */

/* Admits the submitted jobs (tsub <= now) never admitted before, in file
 * order, up to max_jobs in the system, as the published replayer does.
 * r->next_job is the first job never admitted; when the file is sorted
 * by tsub the scan stops at the first job not yet submitted. */
static size_t admit(struct replay *r, int64_t now)
{
    size_t n = 0;
    size_t limit = r->o->max_jobs > 0 ? (size_t)r->o->max_jobs : SIZE_MAX;

    for (size_t j = r->next_job; j < r->js.n && r->n_act < limit; j++) {
        struct rjob *rj = &r->jobs[j];
        if (rj->admitted)
            continue;
        if (rj->def->tsub > now) {
            if (r->tsub_sorted)
                break;
            continue;
        }
        rj->admitted = 1;
        rj->admit_time = now;
        r->act[r->n_act++] = j;
        r->st->jobs_admitted++;
        n++;
    }
    while (r->next_job < r->js.n && r->jobs[r->next_job].admitted)
        r->next_job++;
    return n;
}

/* With --align-jobs, shifts every submission time by the same amount so
 * that the earliest is t0: a job set recorded at another time (the
 * bundled sets date from February 2021) can be replayed on any trace. */
static void align_jobs(struct replay *r, int64_t t0)
{
    int64_t first = INT64_MAX;

    if (!r->o->align_jobs || r->js.n == 0)
        return;
    for (size_t j = 0; j < r->js.n; j++)
        if (r->js.jobs[j].tsub < first)
            first = r->js.jobs[j].tsub;
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
    BFS_GROW(r->solve_times, r->cap_solve_times, r->n_solve_times + 1);
    r->solve_times[r->n_solve_times++] = res->build_s + res->solve_s;
    st->solve_s_total += res->build_s + res->solve_s;
    if (res->rows > st->max_rows)
        st->max_rows = res->rows;
    if (res->cols > st->max_cols)
        st->max_cols = res->cols;
    if (res->nnz > st->max_nnz)
        st->max_nnz = res->nnz;
}

/* Writes the instance of event evt as DIR/evt-NNNNNN.json. */
static int dump_instance(struct replay *r, const struct alloc_problem *p,
                         size_t evt, int64_t t)
{
    char *path = xmalloc(strlen(r->o->dump_dir) + 32);
    char note[160], when[BFS_TIME_LEN];
    int rc;

    sprintf(path, "%s/evt-%06zu.json", r->o->dump_dir, evt);
    snprintf(note, sizeof note, "bfsim replay: event %zu at %s, %zu jobs", evt,
             bfs_time_format(t, when), p->n_jobs);
    rc = instance_write(path, p, r->anames, note, r->e);
    xfree(path);
    return rc;
}

/* Asks the allocator for new counts of the active jobs.  Returns 1 when
 * they are to be applied (r->counts[a] per active job), 0 when the map
 * is kept, or a negative code. */
static int allocate(struct replay *r, size_t evt, int64_t t, int *status)
{
    struct alloc_problem p;
    struct alloc_result res;
    int rc;

    for (size_t a = 0; a < r->n_act; a++) {
        const struct rjob *rj = &r->jobs[r->act[a]];
        r->jobs[r->act[a]].slot = (int)a;
        r->ajobs[a] = (struct alloc_job){
            .cur = rj->held,
            .jmin = rj->def->jmin,
            .jmax = rj->def->jmax,
            .tcup = rj->def->tcup,
            .tcdw = rj->def->tcdw,
            .o = rj->o,
        };
        r->anames[a] = rj->def->name;
    }
    for (size_t pos = 0; pos < r->n_pool; pos++) {
        int32_t j = r->owner[r->pool[pos]];
        r->owner_pos[pos] = j >= 0 ? r->jobs[j].slot : -1;
    }
    p = (struct alloc_problem){
        .pool = (int)r->n_pool,
        .tfwd = r->o->tfwd,
        .n_jobs = r->n_act,
        .jobs = r->ajobs,
        .cap = r->o->legacy_cap ? ((int)r->n_pool + 1) / 2 : 0,
        .owner = r->owner_pos,
    };
    if (r->o->dump_dir) {
        rc = dump_instance(r, &p, evt, t);
        if (rc)
            return rc;
    }
    memset(&res, 0, sizeof res);
    res.counts = r->counts;
    rc = allocator_solve(r->alloc, &p, &res, r->e);
    if (rc)
        return rc;
    record_solve(r, &res);
    {
        struct replay_solve rs = {
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
        };
        for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
            if (r->o->sinks[i]->solve)
                r->sink_rc = r->o->sinks[i]->solve(r->o->sinks[i]->arg, &rs);
    }
    *status = res.status;
    if (res.status == SOLVE_OPTIMAL)
        return 1;
    return res.status == SOLVE_FEASIBLE && r->o->apply_feasible &&
           r->o->mode == REPLAY_DEFAULT;
}

/* A job runs at P(n) on n >= Jmin nodes, and not at all below. */
static void set_rate(struct rjob *rj)
{
    rj->rate = rj->held >= rj->def->jmin ? rj->p[rj->held] : 0.0;
}

/* ---- sinks ----------------------------------------------------------- */

static void emit_alloc(struct replay *r, size_t j, size_t evt, int64_t t)
{
    struct rjob *rj = &r->jobs[j];

    if (rj->held == rj->reported)
        return;
    rj->reported = rj->held;
    for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
        if (r->o->sinks[i]->alloc)
            r->sink_rc =
                r->o->sinks[i]->alloc(r->o->sinks[i]->arg, evt, t, j, rj->held);
}

/* Reports the counts that changed at event evt: those of the jobs active
 * when it began (some may have finished) and of the jobs active now. */
static void emit_allocs(struct replay *r, size_t evt, int64_t t)
{
    if (r->o->n_sinks == 0)
        return;
    for (size_t a = 0; a < r->n_ev_act; a++)
        emit_alloc(r, r->ev_act[a], evt, t);
    for (size_t a = 0; a < r->n_act; a++)
        emit_alloc(r, r->act[a], evt, t);
}

static int emit_jobs(struct replay *r)
{
    for (size_t j = 0; j < r->js.n && !r->sink_rc; j++) {
        const struct rjob *rj = &r->jobs[j];
        struct replay_jobrec jr = {
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
        };
        for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
            if (r->o->sinks[i]->job)
                r->sink_rc = r->o->sinks[i]->job(r->o->sinks[i]->arg, &jr);
    }
    return r->sink_rc;
}

/* ---- the compatible mode --------------------------------------------- */

static void step_row(struct replay *r, int64_t t, double thr, double rate,
                     double rescost, size_t evt, size_t nleft, size_t npre,
                     size_t njoin, size_t njob, size_t nnd, size_t njrun,
                     size_t nnrun, double precost)
{
    char ts[BFS_TIME_LEN];
    struct replay_step row = {
        .evt = evt,
        .time = t,
        .thr = thr,
        .rate = rate,
        .rescost = rescost,
        .precost = precost,
        .nleft = nleft,
        .npre = npre,
        .njoin = njoin,
        .njob = njob,
        .npool = nnd,
        .njrun = njrun,
        .nnrun = nnrun,
    };

    for (size_t i = 0; i < r->o->n_sinks && !r->sink_rc; i++)
        if (r->o->sinks[i]->step)
            r->sink_rc = r->o->sinks[i]->step(r->o->sinks[i]->arg, &row);
    emit_allocs(r, evt, t);
    if (!r->steps.fp)
        return;
    fprintf(r->steps.fp, "%s,%f,%f,%f,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%f\n",
            bfs_time_format(t, ts), thr, rate, rescost, evt, nleft, npre, njoin,
            njob, nnd, njrun, nnrun, precost);
}

/* Column sum over the jobs listed in idx[0..n-1] of the field at offset. */
static double col_sum(struct replay *r, const size_t *idx, size_t n,
                      size_t offset)
{
    for (size_t i = 0; i < n; i++)
        r->sumbuf[i] =
            *(const double *)(const void *)((const char *)&r->jobs[idx[i]] +
                                            offset);
    return bfs_pairwise_sum(r->sumbuf, n);
}

#define COL_SUM(r, idx, n, field)                                              \
    col_sum((r), (idx), (n), offsetof(struct rjob, field))

/* The initial map at t0: the idle nodes dealt round-robin in pool order
 * (the published replayer draws at random), a job above Jmax dropping its
 * first extra nodes, a job below Jmin getting none.  Every job pays its
 * start-up cost P(n) * Tcup in the first interval. */
static void compat_initial_map(struct replay *r)
{
    size_t *dealt;

    if (r->n_act == 0)
        return;
    dealt = xcalloc(r->n_act, sizeof *dealt);
    for (size_t p = 0; p < r->n_pool; p++)
        dealt[p % r->n_act]++;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        size_t skip = 0, k = 0;
        if (dealt[a] < (size_t)rj->def->jmin)
            skip = dealt[a];
        else if (dealt[a] > (size_t)rj->def->jmax)
            skip = dealt[a] - (size_t)rj->def->jmax;
        for (size_t p = a; p < r->n_pool; p += r->n_act, k++)
            if (k >= skip) {
                r->owner[r->pool[p]] = (int32_t)r->act[a];
                rj->held++;
            }
        set_rate(rj);
        rj->pend = rj->rate * rj->def->tcup;
        if (rj->held > 0)
            rj->first_start = r->st->first_time;
    }
    xfree(dealt);
}

static int compat_run(struct replay *r)
{
    struct replay_stats *st = r->st;
    int64_t t0 = 0, t = 0, prev;
    size_t evt = 0, stale_njrun, alloc_nodes;
    int rc, have;

    rc = read_until_start(r, &t0, &t);
    if (rc < 0)
        return rc;
    have = rc;
    st->first_time = st->last_event_time = t0;
    align_jobs(r, t0);
    admit(r, t0);
    compat_initial_map(r);
    emit_allocs(r, 0, t0);
    stale_njrun = jobs_running(r);
    alloc_nodes = nodes_in_use(r);
    prev = t0;

    while (have && (!r->o->has_end || t <= r->o->end)) {
        double dt = (double)(t - prev), thr = 0.0, precost;
        size_t npre = 0, njoin = r->n_joins, nleft = r->n_leaves;
        size_t n_ev;

        if (r->o->stop && *r->o->stop) {
            st->partial = 1;
            break;
        }
        evt++;
        st->idle_node_seconds += dt * (double)r->n_pool;
        st->allocated_node_seconds += dt * (double)alloc_nodes;

        /* 1. progress of the interval, minus the pending rescale cost */
        memcpy(r->ev_act, r->act, r->n_act * sizeof *r->act);
        n_ev = r->n_ev_act = r->n_act;
        for (size_t a = 0; a < n_ev; a++) {
            struct rjob *rj = &r->jobs[r->act[a]];
            rj->progr = dt * rj->rate - rj->pend;
            rj->pre = 0.0;
            rj->node_seconds += dt * rj->held;
            rj->lost[PAUSE_RESCALE] += rj->pend;
            st->rescale_cost += rj->pend;
        }
        /* 2. departures: a job losing nodes pays Tcdw * rate once */
        for (size_t i = 0; i < r->n_leaves; i++) {
            int32_t j = r->owner[r->leaves[i]];
            if (j < 0)
                continue;
            r->jobs[j].held--;
            if (r->jobs[j].pre == 0.0) {
                r->jobs[j].pre = r->jobs[j].def->tcdw * r->jobs[j].rate;
                r->jobs[j].progr -= r->jobs[j].pre;
            }
        }
        pool_remove_leaves(r);
        for (size_t a = 0; a < n_ev; a++)
            if (r->jobs[r->ev_act[a]].pre > 0) {
                npre++;
                r->jobs[r->ev_act[a]].n_preempts++;
                r->jobs[r->ev_act[a]].lost[PAUSE_PREEMPT] +=
                    r->jobs[r->ev_act[a]].pre;
                st->preempt_cost += r->jobs[r->ev_act[a]].pre;
            }
        st->preemptions += npre;
        /* 3. completions */
        r->n_act = 0;
        for (size_t a = 0; a < n_ev; a++) {
            struct rjob *rj = &r->jobs[r->ev_act[a]];
            rj->accs += rj->progr;
            if (rj->def->pmax <= rj->accs) {
                rj->progr -= rj->accs - rj->def->pmax;
                rj->accs = rj->def->pmax;
                rj->finished = 1;
                rj->done_time = t;
                st->jobs_finished++;
                for (size_t p = 0; p < r->n_pool; p++)
                    if (r->owner[r->pool[p]] == (int32_t)r->ev_act[a])
                        r->owner[r->pool[p]] = -1;
                rj->held = 0;
            } else {
                r->act[r->n_act++] = r->ev_act[a];
            }
            thr += rj->progr;
        }
        precost = COL_SUM(r, r->ev_act, n_ev, pre);
        st->samples_trained += thr;
        /* 4. joins, then admissions */
        pool_append_joins(r);
        admit(r, t);
        st->last_event_time = t;
        prev = t;

        if (r->n_act == 0 && r->next_job == r->js.n) {
            /* 5. nothing left to run: a last row, and stop */
            double rate = COL_SUM(r, r->ev_act, n_ev, rate);
            step_row(r, t, thr, rate, 0.0, evt, nleft, npre, njoin, 0,
                     r->n_pool, 0, 0, precost);
            alloc_nodes = 0;
            break;
        }
        if (r->n_pool == 0) {
            /* 6a. no node: every job stops */
            for (size_t a = 0; a < r->n_act; a++) {
                r->jobs[r->act[a]].rate = 0.0;
                r->jobs[r->act[a]].pend = 0.0;
            }
            stale_njrun = 0;
            alloc_nodes = 0;
            step_row(r, t, thr, 0.0, 0.0, evt, nleft, npre, njoin, r->n_act, 0,
                     0, 0, precost);
        } else if (r->n_act == 0) {
            /* 6b. no job: the published code logs a stale nJrun */
            alloc_nodes = 0;
            step_row(r, t, thr, 0.0, 0.0, evt, nleft, npre, njoin, 0, r->n_pool,
                     stale_njrun, 0, precost);
        } else {
            /* 7-8. allocate; only an optimal answer is applied */
            int status;
            rc = allocate(r, evt, t, &status);
            if (rc < 0)
                return rc;
            for (size_t a = 0; a < r->n_act; a++) {
                struct rjob *rj = &r->jobs[r->act[a]];
                int old = rj->held;
                rj->target = rc ? r->counts[a] : old;
                rj->pend = 0.0;
                if (rc && rj->target > old)
                    rj->pend = rj->p[old] * rj->def->tcup;
                else if (rc && rj->target < old)
                    rj->pend = rj->p[old] * rj->def->tcdw;
                if (rj->target != old) {
                    rj->n_rescales++;
                    st->rescales++;
                }
            }
            if (rc)
                apply_targets(r);
            for (size_t a = 0; a < r->n_act; a++) {
                struct rjob *rj = &r->jobs[r->act[a]];
                set_rate(rj);
                if (rj->held > 0 && rj->first_start < 0)
                    rj->first_start = t;
            }
            stale_njrun = jobs_running(r);
            alloc_nodes = nodes_in_use(r);
            /* 9. the row */
            step_row(r, t, thr, COL_SUM(r, r->act, r->n_act, rate),
                     COL_SUM(r, r->act, r->n_act, pend), evt, nleft, npre,
                     njoin, r->n_act, r->n_pool, stale_njrun, alloc_nodes,
                     precost);
        }
        if (r->sink_rc)
            return r->sink_rc;
        if (r->o->progress)
            r->o->progress(r->o->progress_arg, evt, t, done_fraction(r, t));
        rc = next_event(r, &t);
        if (rc < 0)
            return rc;
        have = rc;
    }
    st->events = evt;
    return 0;
}

/* ---- the default mode ------------------------------------------------ */

/* Starts (or extends) a pause of job rj at time t lasting c seconds.  A
 * pause in progress is extended to the later end, not added to: a job
 * reconfigures once, and the part beyond the old end belongs to the new
 * cause. */
static void pause_job(struct rjob *rj, int64_t t, double c, int cause)
{
    double until = (double)t + c, end = (double)t;

    if (!(c > 0))
        return;
    if (rj->n_segs && rj->segs[rj->n_segs - 1].until > end)
        end = rj->segs[rj->n_segs - 1].until;
    if (until <= end)
        return;
    BFS_GROW(rj->segs, rj->cap_segs, rj->n_segs + 1);
    rj->segs[rj->n_segs++] = (struct pause_seg){until, cause};
}

/* Moves job rj from t1 to t2 at its current rate: pauses first, then
 * progress, stopping at Pmax.  Returns the samples trained. */
static double advance_job(struct replay *r, struct rjob *rj, int64_t t1,
                          int64_t t2)
{
    double t = (double)t1, end = (double)t2, work;
    size_t k = 0;

    rj->node_seconds += (double)rj->held * (end - t);
    for (; k < rj->n_segs; k++) {
        double s_end = rj->segs[k].until < end ? rj->segs[k].until : end;
        if (s_end > t) {
            double lost = rj->rate * (s_end - t);
            rj->paused_s += s_end - t;
            rj->lost[rj->segs[k].cause] += lost;
            if (rj->segs[k].cause == PAUSE_RESCALE)
                r->st->rescale_cost += lost;
            else
                r->st->preempt_cost += lost;
            t = s_end;
        }
        if (rj->segs[k].until > end)
            break;
    }
    /* Drop the segments that ended. */
    if (k > 0) {
        memmove(rj->segs, rj->segs + k, (rj->n_segs - k) * sizeof *rj->segs);
        rj->n_segs -= k;
    }
    work = rj->rate * (end - t);
    if (rj->accs + work >= rj->def->pmax)
        work = rj->def->pmax - rj->accs;
    rj->accs += work;
    return work;
}

/* Whether the job's work is done (to a relative 1e-12, so that rounding
 * in rate x time cannot keep a job alive for an extra second). */
static int job_done(const struct rjob *rj)
{
    return rj->def->pmax - rj->accs <= 1e-12 * rj->def->pmax;
}

/* Schedules job a's completion at the first second its work reaches Pmax
 * at its current rate, after its pause; a new version makes the pending
 * event stale. */
static void schedule_completion(struct replay *r, size_t j, int64_t now)
{
    struct rjob *rj = &r->jobs[j];
    double start = (double)now, when;

    rj->version++;
    if (!(rj->rate > 0))
        return;
    if (rj->n_segs && rj->segs[rj->n_segs - 1].until > start)
        start = rj->segs[rj->n_segs - 1].until;
    when = ceil(start + (rj->def->pmax - rj->accs) / rj->rate);
    if (when > 4e18)
        return;
    evq_push(&r->q, (struct evq_event){.time = (int64_t)when,
                                       .kind = EV_COMPLETION,
                                       .ref = j,
                                       .version = rj->version});
}

/* The time of the next submission after now, if any. */
static void schedule_arrival(struct replay *r, int64_t now)
{
    int64_t next = INT64_MAX;

    for (size_t j = r->next_job; j < r->js.n; j++) {
        int64_t ts = r->jobs[j].def->tsub;
        if (!r->jobs[j].admitted && ts > now && ts < next)
            next = ts;
        if (r->tsub_sorted && ts > now)
            break;
    }
    if (next != INT64_MAX)
        evq_push(&r->q, (struct evq_event){.time = next, .kind = EV_ARRIVAL});
}

/* Allocates at time t and applies the answer: rescaled jobs that were
 * running pause for Tcup or Tcdw.  Returns the rescale cost decided (the
 * objective's r * Tc) through *rescost, or a negative code. */
static int default_allocate(struct replay *r, size_t evt, int64_t t,
                            double *rescost)
{
    int status, rc;

    *rescost = 0.0;
    if (r->n_act == 0 || r->n_pool == 0)
        return 0;
    rc = allocate(r, evt, t, &status);
    if (rc <= 0)
        return rc;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        int old = rj->held;
        rj->target = r->counts[a];
        if (rj->target == old)
            continue;
        rj->n_rescales++;
        r->st->rescales++;
        if (old >= rj->def->jmin) {
            double c = rj->target > old ? rj->def->tcup : rj->def->tcdw;
            *rescost += c * rj->o[old];
            pause_job(rj, t, c, PAUSE_RESCALE);
        }
    }
    apply_targets(r);
    return 0;
}

/* The first queued event that is still valid (a completion is stale once
 * its job was rescheduled or finished), or NULL. */
static const struct evq_event *next_valid(struct replay *r)
{
    const struct evq_event *top;
    struct evq_event ev;

    while ((top = evq_peek(&r->q)) && top->kind == EV_COMPLETION &&
           (r->jobs[top->ref].finished ||
            top->version != r->jobs[top->ref].version))
        evq_pop(&r->q, &ev);
    return top;
}

static int default_run(struct replay *r)
{
    struct replay_stats *st = r->st;
    int64_t t0 = 0, t = 0, prev, tnext = 0, stop_at;
    size_t evt = 0;
    int rc, have;
    double rescost;

    rc = read_until_start(r, &t0, &tnext);
    if (rc < 0)
        return rc;
    have = rc;
    stop_at = r->o->has_end ? r->o->end : INT64_MAX;
    st->first_time = st->last_event_time = prev = t0;

    /* t0: admission and a first allocation; starting jobs is free. */
    align_jobs(r, t0);
    admit(r, t0);
    schedule_arrival(r, t0);
    rc = default_allocate(r, 0, t0, &rescost);
    if (rc < 0)
        return rc;
    for (size_t a = 0; a < r->n_act; a++) {
        set_rate(&r->jobs[r->act[a]]);
        if (r->jobs[r->act[a]].held > 0)
            r->jobs[r->act[a]].first_start = t0;
        schedule_completion(r, r->act[a], t0);
    }
    emit_allocs(r, 0, t0);

    for (;;) {
        const struct evq_event *top = next_valid(r);
        struct evq_event ev;
        size_t npre = 0, nleft = 0, njoin = 0, nnrun = 0, njrun = 0;
        double thr = 0.0, precost = 0.0, rate = 0.0;
        int trace_now, arrived = 0;

        /* The next instant: the next trace row, or a queued completion
         * or arrival before it.  The replay ends with the trace. */
        if (!have)
            break;
        t = tnext;
        if (top && top->time < t)
            t = top->time;
        if (t > stop_at)
            break;
        if (r->o->stop && *r->o->stop) {
            st->partial = 1;
            break;
        }
        evt++;
        trace_now = have && tnext == t;

        memcpy(r->ev_act, r->act, r->n_act * sizeof *r->act);
        r->n_ev_act = r->n_act;
        /* Progress up to t. */
        st->idle_node_seconds += (double)(t - prev) * (double)r->n_pool;
        for (size_t a = 0; a < r->n_act; a++) {
            struct rjob *rj = &r->jobs[r->act[a]];
            st->allocated_node_seconds += (double)(t - prev) * rj->held;
            thr += advance_job(r, rj, prev, t);
        }
        st->samples_trained += thr;
        /* Completions are read from the jobs' state; the queue only
         * makes sure the loop stops at their instants. */
        while ((top = next_valid(r)) && top->time == t) {
            evq_pop(&r->q, &ev);
            arrived |= ev.kind == EV_ARRIVAL;
        }

        /* Departures: a running job that loses nodes pauses for Tcdw. */
        if (trace_now) {
            nleft = r->n_leaves;
            for (size_t i = 0; i < r->n_leaves; i++) {
                int32_t j = r->owner[r->leaves[i]];
                struct rjob *rj;
                if (j < 0)
                    continue;
                rj = &r->jobs[j];
                if (rj->pre == 0.0 && !job_done(rj)) {
                    rj->pre = 1.0; /* marks the job as preempted once */
                    rj->n_preempts++;
                    npre++;
                    if (rj->held >= rj->def->jmin) {
                        precost += rj->def->tcdw * rj->o[rj->held];
                        pause_job(rj, t, rj->def->tcdw, PAUSE_PREEMPT);
                    }
                }
                rj->held--;
            }
            pool_remove_leaves(r);
            st->preemptions += npre;
        }
        /* Completions: free the nodes. */
        {
            size_t w = 0;
            for (size_t a = 0; a < r->n_act; a++) {
                struct rjob *rj = &r->jobs[r->act[a]];
                rj->pre = 0.0;
                if (!job_done(rj)) {
                    r->act[w++] = r->act[a];
                    continue;
                }
                rj->accs = rj->def->pmax;
                rj->finished = 1;
                rj->done_time = t;
                st->jobs_finished++;
                rj->target = 0;
            }
            if (w < r->n_act) {
                for (size_t p = 0; p < r->n_pool; p++) {
                    int32_t j = r->owner[r->pool[p]];
                    if (j >= 0 && r->jobs[j].finished) {
                        r->owner[r->pool[p]] = -1;
                        r->jobs[j].held--;
                    }
                }
            }
            r->n_act = w;
        }
        /* Joins, then arrivals. */
        if (trace_now) {
            njoin = r->n_joins;
            pool_append_joins(r);
        }
        admit(r, t);
        if (arrived)
            schedule_arrival(r, t);

        /* One allocation for the instant. */
        rc = default_allocate(r, evt, t, &rescost);
        if (rc < 0)
            return rc;
        for (size_t a = 0; a < r->n_act; a++) {
            struct rjob *rj = &r->jobs[r->act[a]];
            set_rate(rj);
            if (rj->held > 0 && rj->first_start < 0)
                rj->first_start = t;
            schedule_completion(r, r->act[a], t);
            rate += rj->rate;
            nnrun += (size_t)rj->held;
            njrun += rj->held > 0;
        }
        step_row(r, t, thr, rate, rescost, evt, nleft, npre, njoin, r->n_act,
                 r->n_pool, njrun, nnrun, precost);
        st->last_event_time = prev = t;
        if (r->sink_rc)
            return r->sink_rc;
        if (r->o->progress)
            r->o->progress(r->o->progress_arg, evt, t, done_fraction(r, t));

        if (trace_now) {
            rc = next_event(r, &tnext);
            if (rc < 0)
                return rc;
            have = rc;
        }
        if (r->n_act == 0 && r->next_job == r->js.n)
            break; /* every job is done */
    }
    st->events = evt;
    return 0;
}

/* ---- statistics ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile (0..1) of sorted v by the nearest-rank method. */
static double quantile(const double *v, size_t n, double p)
{
    size_t k;

    if (n == 0)
        return 0.0;
    k = (size_t)ceil(p * (double)n);
    return v[k ? k - 1 : 0];
}

static void finish_stats(struct replay *r)
{
    struct replay_stats *st = r->st;
    size_t n = r->n_solve_times, nf = 0, na = 0;
    double *jct = xmalloc((r->js.n + 1) * sizeof *jct);
    double sum = 0.0, sx = 0.0, sxx = 0.0, ideal;
    int64_t first_tsub = INT64_MAX, last_done = INT64_MIN;
    struct rusage ru;

    if (n > 0)
        qsort(r->solve_times, n, sizeof *r->solve_times, cmp_double);
    st->solve_s_median = quantile(r->solve_times, n, 0.5);
    st->solve_s_p95 = quantile(r->solve_times, n, 0.95);
    st->solve_s_max = n ? r->solve_times[n - 1] : 0.0;

    for (size_t j = 0; j < r->js.n; j++) {
        const struct rjob *rj = &r->jobs[j];
        int64_t left;
        if (!rj->admitted)
            continue;
        if (rj->def->tsub < first_tsub)
            first_tsub = rj->def->tsub;
        /* The node share: node-seconds per second in the system. */
        left = rj->done_time >= 0 ? rj->done_time : st->last_event_time;
        if (left > rj->admit_time) {
            double x = rj->node_seconds / (double)(left - rj->admit_time);
            sx += x;
            sxx += x * x;
        }
        na++;
        if (rj->done_time < 0)
            continue;
        jct[nf++] = (double)(rj->done_time - rj->def->tsub);
        sum += jct[nf - 1];
        if (rj->done_time > last_done)
            last_done = rj->done_time;
    }
    if (nf > 0)
        qsort(jct, nf, sizeof *jct, cmp_double);
    st->jct_mean = nf ? sum / (double)nf : 0.0;
    st->jct_median = quantile(jct, nf, 0.5);
    st->jct_p95 = quantile(jct, nf, 0.95);
    st->makespan = nf ? last_done - first_tsub : 0;
    st->fairness = sxx > 0 ? sx * sx / ((double)na * sxx) : 0.0;
    ideal = st->samples_trained + st->rescale_cost + st->preempt_cost;
    st->efficiency = ideal > 0 ? st->samples_trained / ideal : 0.0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        st->peak_rss_kib = ru.ru_maxrss;
    xfree(jct);
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
    if (rc == 0) {
        finish_stats(&r);
        if (r.steps.fp)
            rc = bfs_out_commit(&r.steps, e);
    }
    stats->wall_seconds = bfs_now() - t0;
    stats->events_per_second = stats->wall_seconds > 0
                                   ? (double)stats->events / stats->wall_seconds
                                   : 0.0;
    teardown(&r);
    return rc;
}
