/* default.c - the default mode: a discrete-event simulation with exact
 * completion and arrival times and costs as pauses (tools/DESIGN.md,
 * "Replay semantics: default mode").
 *
 * Its instants are the trace's rows (read one ahead, a sorted stream)
 * and the events the replay schedules itself in the queue: a job's
 * completion at the first second its work reaches Pmax, the next
 * submission.  Whatever brought an instant, everything due then is done
 * once, in the shared phases, with one allocation.
 *
 * Its cost model: a running job (C >= Jmin) that is rescaled pauses for
 * Tcup (up) or Tcdw (down), one that loses nodes to the trace for Tcdw; a
 * paused job trains nothing, and the samples it would have trained at
 * its rate during the pause (the rate the event's decision set) are
 * lost.  A pause in progress is extended, not added to.  Starting a job
 * (from a count below Jmin) is free.  The step log's ReScost and PreCost
 * are in samples too: the pause seconds the event's rescales (its
 * preemptions) add, times each job's rate after the decision; they sum
 * to the losses charged unless a later event changes a job's rate
 * during its pause.
 *
 * Checkpoints (a job with ckpt_interval > 0; tools/DESIGN.md,
 * "Checkpoints"): advance_job counts the seconds a job trains since its
 * last checkpoint and, each time they reach the interval, writes one: a
 * pause of ckpt_write seconds (cause PAUSE_CKPT_WRITE), the checkpoint
 * holding the samples done when it began and valid once it ends.  A job
 * that stops (goes from Jmin or more nodes to fewer, by departures or by
 * a decision) goes back to its last valid checkpoint (0 samples without
 * one), its pending pauses dropped, and instead of the Tcdw pause; its
 * next start, when it had a checkpoint, pauses ckpt_restart seconds
 * (PAUSE_CKPT_RESTART).  A job without checkpoints takes none of these
 * paths, so its replay is the same as before checkpoints existed.
 */
#include "config.h"

#include "engine/completion.h"
#include "engine/replay_impl.h"

#include "base/util.h"

#include <math.h>
#include <string.h>

/* Events of the queue, in their order at one instant. */
enum { EV_COMPLETION, EV_ARRIVAL };

/* Starts (or extends) a pause of job rj at time t lasting c seconds, and
 * returns the seconds it adds.  A pause in progress is extended to the
 * later end, not added to: a job reconfigures once, and the part beyond
 * the old end belongs to the new cause. */
static double pause_job(struct rjob *rj, int64_t t, double c, int cause)
{
    double until = (double)t + c, end = (double)t;

    if (!(c > 0))
        return 0.0;
    if (rj->n_segs && rj->segs[rj->n_segs - 1].until > end)
        end = rj->segs[rj->n_segs - 1].until;
    if (until <= end)
        return 0.0;
    BFS_GROW(rj->segs, rj->cap_segs, rj->n_segs + 1);
    rj->segs[rj->n_segs++] = (struct pause_seg){until, cause};
    return until - end;
}

/* Whether the job's work is done (to a relative 1e-12, so that rounding
 * in rate x time cannot keep a job alive for an extra second). */
static int job_done(const struct rjob *rj)
{
    return rj->def->pmax - rj->accs <= 1e-12 * rj->def->pmax;
}

/* Makes rj's checkpoint write in progress its last checkpoint if the
 * write has ended by time t. */
static void ckpt_commit(struct rjob *rj, double t)
{
    if (rj->ckpt_pending && rj->ckpt_pend_until <= t) {
        rj->ckpt_samples = rj->ckpt_pend_samples;
        rj->ckpt_have = 1;
        rj->ckpt_pending = 0;
    }
}

/* Accounts rj's pauses from *t up to end: the samples lost at its rate,
 * by cause; drops the segments that ended and leaves *t at the end of
 * the last one, or at end. */
static void advance_pauses(struct replay *r, struct rjob *rj, double *t,
                           double end)
{
    size_t k = 0;

    for (; k < rj->n_segs; k++) {
        double s_end = rj->segs[k].until < end ? rj->segs[k].until : end;
        if (s_end > *t) {
            double lost = rj->rate * (s_end - *t);
            int cause = rj->segs[k].cause;
            rj->paused_s += s_end - *t;
            rj->lost[cause] += lost;
            if (cause == PAUSE_RESCALE)
                r->st->rescale_cost += lost;
            else if (cause == PAUSE_PREEMPT)
                r->st->preempt_cost += lost;
            else
                r->st->ckpt_pause_cost += lost;
            if (cause == PAUSE_CKPT_WRITE)
                r->st->ckpt_write_node_seconds +=
                    (double)rj->held * (s_end - *t);
            *t = s_end;
        }
        if (rj->segs[k].until > end)
            break;
    }
    /* Drop the segments that ended. */
    if (k > 0) {
        memmove(rj->segs, rj->segs + k, (rj->n_segs - k) * sizeof *rj->segs);
        rj->n_segs -= k;
    }
}

/* Trains rj for s seconds at its rate, stopping at Pmax.  Returns the
 * samples trained. */
static double train(struct rjob *rj, double s)
{
    double work = rj->rate * s;

    if (rj->accs + work >= rj->def->pmax)
        work = rj->def->pmax - rj->accs;
    rj->accs += work;
    return work;
}

/* Moves job rj from t1 to t2 at its current rate: pauses first, then
 * progress, stopping at Pmax; a job with checkpoints writes one each
 * time its training since the last reaches the interval (a pause, so
 * that the next round of the loop accounts it).  Returns the samples
 * trained. */
static double advance_job(struct replay *r, struct rjob *rj, int64_t t1,
                          int64_t t2)
{
    double t = (double)t1, end = (double)t2, work = 0.0;
    double iv = rj->def->ckpt_interval;

    for (;;) {
        advance_pauses(r, rj, &t, end);
        if (iv <= 0 || !(rj->rate > 0))
            return work + train(rj, end - t);
        if (t >= end)
            return work;
        /* No pause is pending: train up to the next checkpoint or end. */
        double to_ck = iv - rj->ckpt_trained;
        if (t + to_ck > end) {
            rj->ckpt_trained += end - t;
            return work + train(rj, end - t);
        }
        work += train(rj, to_ck);
        t += to_ck;
        rj->ckpt_trained = 0.0;
        if (job_done(rj))
            return work; /* done: no checkpoint to write */
        ckpt_commit(rj, t);
        rj->ckpt_pending = 1;
        rj->ckpt_pend_samples = rj->accs;
        rj->ckpt_pend_until = t + rj->def->ckpt_write;
        r->st->ckpt_writes++;
        rj->ckpt_writes++;
        ckpt_commit(rj, t); /* a write that costs nothing */
        if (rj->def->ckpt_write > 0) {
            BFS_GROW(rj->segs, rj->cap_segs, rj->n_segs + 1);
            rj->segs[rj->n_segs++] =
                (struct pause_seg){rj->ckpt_pend_until, PAUSE_CKPT_WRITE};
        }
    }
}

/* ceil(x), the same value (but for the sign of a zero, which no reader
 * of a completion time sees: it is compared and converted to int64_t):
 * within +-4e18 the conversion to int64_t truncates exactly, and the
 * ceiling is the truncation, plus one when that is below x; beyond, and
 * for NaN, ceil itself.  Cheaper than ceil's inline form, at every
 * event for every active job. */
static inline double ceil_fast(double x)
{
    if (x >= -4e18 && x <= 4e18) {
        int64_t i = (int64_t)x;
        return (double)i < x ? (double)(i + 1) : (double)i;
    }
    return ceil(x);
}

/* Schedules job j's completion at the first second its work reaches Pmax
 * at its current rate, after its pause; a new version makes the pending
 * event stale.  A pending event already at that second stays (the queue
 * only stops the loop at the instant), so that a job whose completion
 * does not move adds nothing to the queue.  With shortcut, a completion
 * that cannot move (engine/completion.h) is not computed again. */
static void schedule_completion(struct replay *r, size_t j, size_t evt,
                                int64_t now, int shortcut)
{
    struct rjob *rj = &r->jobs[j];
    double start = (double)now, when = 5e18;

    if (shortcut && completion_fixed(rj, evt))
        return;
    rj->cx_until = 0.0;
    if (rj->rate > 0) {
        double left = (rj->def->pmax - rj->accs) / rj->rate;
        if (rj->n_segs && rj->segs[rj->n_segs - 1].until > start)
            start = rj->segs[rj->n_segs - 1].until;
        /* the checkpoints written before the end: one at each k
         * intervals of training, k i - trained < left */
        if (rj->def->ckpt_interval > 0) {
            double x = (left + rj->ckpt_trained) / rj->def->ckpt_interval;
            if (x > 1)
                start += (ceil(x) - 1) * rj->def->ckpt_write;
        }
        when = ceil_fast(start + left);
        /* Not done now (completions finished it otherwise), the job is
         * done a second later at the earliest, even when what it has
         * left takes too little time to move now + left off now: its
         * completion would otherwise come back at now, again and again,
         * an event of no time each. */
        if (when < (double)now + 1)
            when = (double)now + 1;
        completion_margin(rj, start, left, when, evt);
        if (when <= 4e18 && (int64_t)when == rj->q_time)
            return;
    }
    rj->version++;
    rj->q_time = INT64_MIN;
    if (when > 4e18)
        return;
    rj->q_time = (int64_t)when;
    evq_push(&r->q, (struct evq_event){.time = (int64_t)when,
                                       .kind = EV_COMPLETION,
                                       .ref = j,
                                       .version = rj->version});
}

/* Schedules the next submission after now, if any. */
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

/* Whether a queued event still counts: an arrival, or the pending
 * completion of an unfinished job (next_valid pops the others). */
static int event_live(const struct evq_event *ev, void *arg)
{
    const struct replay *r = arg;

    return ev->kind != EV_COMPLETION ||
           (!r->jobs[ev->ref].finished &&
            ev->version == r->jobs[ev->ref].version);
}

/* Drops the stale events once they are more than half the queue: a
 * rescheduled completion leaves its old event, which is popped only when
 * its time comes, so without this the queue would grow with the run's
 * reschedulings (one per rate change of a long job) instead of with the
 * jobs in the system.  The live events pop in the same order. */
static void queue_trim(struct replay *r)
{
    if (r->q.n > 64 && r->q.n > 2 * (r->n_act + 2))
        evq_filter(&r->q, event_live, r);
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

/* Pops the events due at t.  Completions are read from the jobs' state;
 * the queue only makes the loop stop at their instants.  Returns whether
 * a submission is due (then the next one is to be scheduled). */
static int pop_due(struct replay *r, int64_t t)
{
    const struct evq_event *top;
    struct evq_event ev;
    int arrived = 0;

    while ((top = next_valid(r)) && top->time == t) {
        evq_pop(&r->q, &ev);
        arrived |= ev.kind == EV_ARRIVAL;
        if (ev.kind == EV_COMPLETION)
            r->jobs[ev.ref].q_time = INT64_MIN;
    }
    return arrived;
}

/* The interval's progress: pauses first, then training.  Returns
 * whether a job's work is now done: only training does that (Pmax > 0,
 * a job is admitted with none of it done, and every event's completions
 * finish the jobs done by then). */
static int progress(struct replay *r, int64_t prev, int64_t t)
{
    int done = 0;

    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        r->row.thr += advance_job(r, rj, prev, t);
        done |= job_done(rj);
    }
    r->st->samples_trained += r->row.thr;
    return done;
}

/* A job that loses nodes, unless its work is done, is preempted; if it
 * was running it pauses for Tcdw.  A job with checkpoints is left to
 * ckpt_departures, which knows the count the departures leave. */
static int preempt(struct replay *r, struct rjob *rj, int64_t t)
{
    (void)r;
    if (job_done(rj))
        return 0;
    rj->n_preempts++;
    rj->ckpt_held0 = rj->held;
    if (rj->held >= rj->def->jmin && !(rj->def->ckpt_interval > 0))
        rj->pause_added[PAUSE_PREEMPT] +=
            pause_job(rj, t, rj->def->tcdw, PAUSE_PREEMPT);
    return 1;
}

/* Stops job rj, which has checkpoints, at time t: it goes back to its
 * last checkpoint (0 samples without one), the samples since lost; its
 * pending pauses, and a write in progress, are dropped; its next start
 * restarts from the checkpoint, if it had one. */
static void ckpt_stop(struct replay *r, struct rjob *rj, int64_t t)
{
    ckpt_commit(rj, (double)t);
    r->st->ckpt_lost_samples += rj->accs - rj->ckpt_samples;
    rj->ckpt_lost += rj->accs - rj->ckpt_samples;
    rj->accs = rj->ckpt_samples;
    rj->ckpt_trained = 0.0;
    rj->ckpt_pending = 0;
    rj->n_segs = 0;
    rj->ckpt_restart_due = rj->ckpt_have;
}

/* After the departures of an instant: a running job with checkpoints
 * that lost nodes pauses for Tcdw if it keeps Jmin or more, and stops
 * otherwise. */
static void ckpt_departures(struct replay *r, int64_t t)
{
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        if (!job_preempted(r, rj) || !(rj->def->ckpt_interval > 0) ||
            rj->ckpt_held0 < rj->def->jmin || job_done(rj))
            continue;
        if (rj->held >= rj->def->jmin)
            rj->pause_added[PAUSE_PREEMPT] +=
                pause_job(rj, t, rj->def->tcdw, PAUSE_PREEMPT);
        else
            ckpt_stop(r, rj, t);
    }
}

/* Finishes the jobs whose work is done, if progress found one: the
 * departures after it neither do nor undo a job's work (preempt and
 * ckpt_departures leave a done job alone). */
static void completions(struct replay *r, int64_t t, int any)
{
    if (!any)
        return;
    for (size_t a = 0; a < r->n_act; a++)
        if (job_done(&r->jobs[r->act[a]]))
            core_finish_job(r, &r->jobs[r->act[a]], t);
    core_drop_finished(r);
}

/* The decision's change of the count of job rj, which has checkpoints,
 * from old to rj->target at time t: a stop (from Jmin or more to fewer)
 * goes back to its checkpoint, and a restart pauses for ckpt_restart.
 * Returns 1 when it was either, 0 for a change priced as without
 * checkpoints. */
static int ckpt_change(struct replay *r, struct rjob *rj, int old, int64_t t)
{
    int jmin = rj->def->jmin;

    if (old >= jmin && rj->target < jmin) {
        ckpt_stop(r, rj, t);
        return 1;
    }
    if (old < jmin && rj->target >= jmin && rj->ckpt_restart_due) {
        rj->ckpt_restart_due = 0;
        r->st->ckpt_restarts++;
        rj->ckpt_restarts++;
        pause_job(rj, t, rj->def->ckpt_restart, PAUSE_CKPT_RESTART);
        return 1;
    }
    return 0;
}

/* One allocation for the instant, applied if optimal (or feasible with
 * --apply-feasible): a rescaled job that was running pauses for Tcup or
 * Tcdw.  Then the rates, the completions they lead to, and the row. */
static int decide(struct replay *r, size_t evt, int64_t t)
{
    int status, rc;
    int shortcut = !r->o->every_completion;

    if (r->n_act > 0 && r->n_pool > 0) {
        rc = core_decide(r, evt, t, &status);
        if (rc < 0)
            return rc;
        if (status == SOLVE_OPTIMAL ||
            (status == SOLVE_FEASIBLE && r->o->apply_feasible)) {
            for (size_t a = 0; a < r->n_act; a++) {
                struct rjob *rj = &r->jobs[r->act[a]];
                int old = rj->held, move;
                rj->target = r->counts[a];
                if (r->aware)
                    core_type_target(r, rj, a);
                move = core_type_move(r, rj, old);
                core_count_change(r, rj, old, rj->target);
                /* with checkpoints, a stop or a restart has its own cost */
                if (rj->def->ckpt_interval > 0 && ckpt_change(r, rj, old, t))
                    continue;
                /* a move to another type is a stop and a start */
                if ((rj->target != old || move) && old >= rj->def->jmin) {
                    double c = move ? rj->def->tcdw + rj->def->tcup
                               : rj->target > old ? rj->def->tcup
                                                  : rj->def->tcdw;
                    rj->pause_added[PAUSE_RESCALE] +=
                        pause_job(rj, t, c, PAUSE_RESCALE);
                }
            }
            apply_targets(r);
        }
    }
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        core_set_rate(r, a, t);
        schedule_completion(r, r->act[a], evt, t, shortcut);
        /* The costs in samples: the pauses added now, at the rate the
         * job has during them (unless a later event changes it).  Only
         * the step rows read these sums: without a sink that takes them
         * they are not made. */
        if (r->want_rows) {
            r->row.rescost += rj->pause_added[PAUSE_RESCALE] * rj->rate;
            r->row.precost += rj->pause_added[PAUSE_PREEMPT] * rj->rate;
            r->row.rate += rj->rate;
            r->row.nnrun += (size_t)rj->held;
            r->row.njrun += rj->held > 0;
        }
        rj->pause_added[PAUSE_RESCALE] = rj->pause_added[PAUSE_PREEMPT] = 0.0;
    }
    queue_trim(r);
    r->row.njob = r->n_act;
    r->row.npool = r->n_pool;
    return 0;
}

int default_run(struct replay *r)
{
    int64_t t0 = 0, t, prev, tnext = 0;
    int64_t stop_at = r->o->has_end ? r->o->end : INT64_MAX;
    size_t evt = 0;
    int rc, have;

    for (size_t j = 0; j < r->js.n; j++)
        r->st->ckpt |= r->js.jobs[j].ckpt_interval > 0;
    rc = have = core_start(r, &t0, &tnext);
    if (rc < 0)
        return rc;
    prev = t0;
    /* t0: a first allocation; starting jobs is free. */
    schedule_arrival(r, t0);
    rc = decide(r, 0, t0);
    if (rc < 0)
        return rc;
    emit_allocs(r, 0, t0);

    while (have) {
        const struct evq_event *top = next_valid(r);
        int trace_now, arrived, done;

        /* The next instant: the next trace row, or a queued completion
         * or arrival before it.  The replay ends with the trace. */
        t = top && top->time < tnext ? top->time : tnext;
        if (t > stop_at || core_stopped(r))
            break;
        trace_now = tnext == t;
        core_begin(r, ++evt, t);
        core_account(r, prev, t);
        done = progress(r, prev, t);
        arrived = pop_due(r, t);
        if (trace_now) {
            r->row.nleft = r->n_leaves;
            r->row.njoin = r->n_joins;
            r->row.npre = core_departures(r, t, preempt);
            if (r->st->ckpt)
                ckpt_departures(r, t);
        }
        completions(r, t, done);
        rc = core_joins_admit(r, t, trace_now);
        if (rc < 0)
            return rc;
        if (arrived)
            schedule_arrival(r, t);
        rc = decide(r, evt, t);
        if (rc < 0)
            return rc;
        r->st->last_event_time = prev = t;
        rc = core_emit(r);
        if (rc)
            return rc;
        core_progress(r, evt, t);
        if (trace_now) {
            rc = have = next_event(r, &tnext);
            if (rc < 0)
                return rc;
        }
        if (r->n_act == 0 && r->next_job == r->js.n)
            break; /* every job is done */
    }
    return 0;
}
