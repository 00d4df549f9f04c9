/* compat.c - the compatible mode: the published BFTrainer log replayer,
 * event for event and quirks included, so that its step log can be
 * reproduced to the printed digit (tools/DESIGN.md, "Replay semantics").
 *
 * Its cost model: a rescale decided at an event costs P(C) * Tcup (up)
 * or P(C) * Tcdw (down) samples, C the count before, taken off the next
 * interval's progress (rjob.pend), and charged even if the decision was
 * never applied; a job losing nodes to the trace loses Tcdw * rate
 * samples once per event (rjob.pre_cost).  Its quirks: the initial map
 * deals the idle nodes round-robin; only an optimal answer is applied;
 * with no job the row repeats the last nJrun; progress sums in job order
 * as Python's sum() does and other column sums pairwise as numpy's does
 * (bfs_pairwise_sum), in the published order of operations.
 */
#include "config.h"

#include "engine/replay_impl.h"

#include "base/util.h"

#include <stddef.h>
#include <string.h>

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
static void initial_map(struct replay *r)
{
    size_t *dealt;

    if (r->n_act == 0)
        return;
    dealt = xcalloc(r->n_act, sizeof *dealt);
    for (size_t p = 0; p < r->n_pool; p++)
        dealt[p % r->n_act]++;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        size_t skip = 0, k = 0, held = 0;
        if (dealt[a] < (size_t)rj->jmin)
            skip = dealt[a];
        else if (dealt[a] > (size_t)rj->jmax)
            skip = dealt[a] - (size_t)rj->jmax;
        for (size_t p = a; p < r->n_pool; p += r->n_act, k++)
            if (k >= skip) {
                pool_mark(r, r->pool[p]);
                r->owner[r->pool[p]] = (int32_t)r->act[a];
                held++;
            }
        core_count_change(r, rj, 0, (int)held); /* a start, or none */
        rj->held = (int)held;
    }
    xfree(dealt);
    core_set_rates(r, r->st->first_time);
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        rj->pend = rj->rate * rj->def->tcup;
    }
}

/* Step 1: the interval's progress, less the pending rescale cost. */
static void progress(struct replay *r, double dt)
{
    for (size_t a = 0; a < r->n_ev_act; a++) {
        struct rjob *rj = &r->jobs[r->ev_act[a]];
        rj->progr = dt * rj->rate - rj->pend;
        rj->pre_cost = 0.0;
        rj->lost[PAUSE_RESCALE] += rj->pend;
        r->st->rescale_cost += rj->pend;
    }
}

/* Step 2: a job losing nodes pays Tcdw * rate once per event; only a
 * non-zero cost counts as a preemption. */
static int preempt(struct replay *r, struct rjob *rj, int64_t t)
{
    (void)r;
    (void)t;
    rj->pre_cost = rj->def->tcdw * rj->rate;
    rj->progr -= rj->pre_cost;
    return rj->pre_cost > 0;
}

/* Step 2: departures, their costs charged in job order. */
static void departures(struct replay *r, int64_t t)
{
    r->row.npre = core_departures(r, t, preempt);
    for (size_t a = 0; a < r->n_ev_act; a++) {
        struct rjob *rj = &r->jobs[r->ev_act[a]];
        if (rj->pre_cost > 0) {
            rj->n_preempts++;
            rj->lost[PAUSE_PREEMPT] += rj->pre_cost;
            r->st->preempt_cost += rj->pre_cost;
        }
    }
}

/* Step 3: progress is added, capped at Pmax (which ends the job). */
static void completions(struct replay *r, int64_t t)
{
    for (size_t a = 0; a < r->n_ev_act; a++) {
        struct rjob *rj = &r->jobs[r->ev_act[a]];
        rj->accs += rj->progr;
        if (rj->def->pmax <= rj->accs) {
            rj->progr -= rj->accs - rj->def->pmax;
            core_finish_job(r, rj, t);
        }
        r->row.thr += rj->progr;
    }
    core_drop_finished(r);
    r->row.precost = COL_SUM(r, r->ev_act, r->n_ev_act, pre_cost);
    r->st->samples_trained += r->row.thr;
}

/* Steps 7-8: allocate; only an optimal answer is applied, and the cost
 * of the decision is charged at the next event. */
static int decide(struct replay *r, size_t evt, int64_t t)
{
    int status, rc = core_decide(r, evt, t, &status);

    if (rc < 0)
        return rc;
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        int old = rj->held;
        rj->target = status == SOLVE_OPTIMAL ? r->counts[a] : old;
        rj->pend = 0.0;
        if (rj->target > old)
            rj->pend = rj->p[old] * rj->def->tcup;
        else if (rj->target < old)
            rj->pend = rj->p[old] * rj->def->tcdw;
        core_count_change(r, rj, old, rj->target);
    }
    apply_targets(r);
    core_set_rates(r, t);
    r->row.rate = COL_SUM(r, r->act, r->n_act, rate);
    r->row.rescost = COL_SUM(r, r->act, r->n_act, pend);
    r->row.nnrun = nodes_in_use(r);
    return 0;
}

int compat_run(struct replay *r)
{
    int64_t t0 = 0, t = 0, prev;
    size_t evt = 0, stale_njrun;
    int rc, have;

    /* The published replayer has no checkpoints: no result of this mode
     * could be compared with it. */
    for (size_t j = 0; j < r->js.n; j++)
        if (r->js.jobs[j].ckpt_interval > 0)
            return bfs_fail_at(r->e, BFS_EINVAL, r->o->jobs_path,
                               r->js.jobs[j].line,
                               "job %s has checkpoints (ckpt_interval), which "
                               "the compatible mode (--compat), the published "
                               "replayer's semantics, does not model; replay "
                               "it in the default mode",
                               r->js.jobs[j].name);
    rc = have = core_start(r, &t0, &t);
    if (rc < 0)
        return rc;
    initial_map(r);
    emit_allocs(r, 0, t0);
    stale_njrun = jobs_running(r);
    prev = t0;

    while (have && (!r->o->has_end || t <= r->o->end) && !core_stopped(r)) {
        core_begin(r, ++evt, t);
        r->row.nleft = r->n_leaves;
        r->row.njoin = r->n_joins;
        core_account(r, prev, t);
        progress(r, (double)(t - prev)); /* 1 */
        departures(r, t);                /* 2 */
        completions(r, t);               /* 3 */
        rc = core_joins_admit(r, t, 1);  /* 4 */
        if (rc < 0)
            return rc;
        r->st->last_event_time = prev = t;
        r->row.npool = r->n_pool;

        if (r->n_act == 0 && r->next_job == r->js.n) {
            /* 5. nothing left to run: a last row, and stop */
            r->row.rate = COL_SUM(r, r->ev_act, r->n_ev_act, rate);
            return core_emit(r);
        }
        if (r->n_pool == 0) {
            /* 6a. no node: every job stops */
            for (size_t a = 0; a < r->n_act; a++) {
                r->jobs[r->act[a]].rate = 0.0;
                r->jobs[r->act[a]].pend = 0.0;
            }
            stale_njrun = 0;
            r->row.njob = r->n_act;
        } else if (r->n_act == 0) {
            /* 6b. no job: the published code logs a stale nJrun */
            r->row.njrun = stale_njrun;
        } else {
            /* 7-9. allocate, apply, the row */
            rc = decide(r, evt, t);
            if (rc < 0)
                return rc;
            r->row.njob = r->n_act;
            r->row.njrun = stale_njrun = jobs_running(r);
        }
        rc = core_emit(r);
        if (rc)
            return rc;
        core_progress(r, evt, t);
        rc = have = next_event(r, &t);
        if (rc < 0)
            return rc;
    }
    return 0;
}
