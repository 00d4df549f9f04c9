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
 */
#include "config.h"

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

/* Moves job rj from t1 to t2 at its current rate: pauses first, then
 * progress, stopping at Pmax.  Returns the samples trained. */
static double advance_job(struct replay *r, struct rjob *rj, int64_t t1,
                          int64_t t2)
{
    double t = (double)t1, end = (double)t2, work;
    size_t k = 0;

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

/* Schedules job j's completion at the first second its work reaches Pmax
 * at its current rate, after its pause; a new version makes the pending
 * event stale.  A pending event already at that second stays (the queue
 * only stops the loop at the instant), so that a job whose completion
 * does not move adds nothing to the queue. */
static void schedule_completion(struct replay *r, size_t j, int64_t now)
{
    struct rjob *rj = &r->jobs[j];
    double start = (double)now, when = 5e18;

    if (rj->rate > 0) {
        if (rj->n_segs && rj->segs[rj->n_segs - 1].until > start)
            start = rj->segs[rj->n_segs - 1].until;
        when = ceil(start + (rj->def->pmax - rj->accs) / rj->rate);
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

/* The interval's progress: pauses first, then training. */
static void progress(struct replay *r, int64_t prev, int64_t t)
{
    for (size_t a = 0; a < r->n_act; a++)
        r->row.thr += advance_job(r, &r->jobs[r->act[a]], prev, t);
    r->st->samples_trained += r->row.thr;
}

/* A job that loses nodes, unless its work is done, is preempted; if it
 * was running it pauses for Tcdw. */
static int preempt(struct replay *r, struct rjob *rj, int64_t t)
{
    (void)r;
    if (job_done(rj))
        return 0;
    rj->n_preempts++;
    if (rj->held >= rj->def->jmin)
        rj->pause_added[PAUSE_PREEMPT] +=
            pause_job(rj, t, rj->def->tcdw, PAUSE_PREEMPT);
    return 1;
}

static void completions(struct replay *r, int64_t t)
{
    for (size_t a = 0; a < r->n_act; a++)
        if (job_done(&r->jobs[r->act[a]]))
            core_finish_job(r, &r->jobs[r->act[a]], t);
    core_drop_finished(r);
}

/* One allocation for the instant, applied if optimal (or feasible with
 * --apply-feasible): a rescaled job that was running pauses for Tcup or
 * Tcdw.  Then the rates, the completions they lead to, and the row. */
static int decide(struct replay *r, size_t evt, int64_t t)
{
    int status, rc;

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
    core_set_rates(r, t);
    for (size_t a = 0; a < r->n_act; a++) {
        struct rjob *rj = &r->jobs[r->act[a]];
        schedule_completion(r, r->act[a], t);
        /* The costs in samples: the pauses added now, at the rate the
         * job has during them (unless a later event changes it). */
        r->row.rescost += rj->pause_added[PAUSE_RESCALE] * rj->rate;
        r->row.precost += rj->pause_added[PAUSE_PREEMPT] * rj->rate;
        rj->pause_added[PAUSE_RESCALE] = rj->pause_added[PAUSE_PREEMPT] = 0.0;
        r->row.rate += rj->rate;
        r->row.nnrun += (size_t)rj->held;
        r->row.njrun += rj->held > 0;
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
        int trace_now, arrived;

        /* The next instant: the next trace row, or a queued completion
         * or arrival before it.  The replay ends with the trace. */
        t = top && top->time < tnext ? top->time : tnext;
        if (t > stop_at || core_stopped(r))
            break;
        trace_now = tnext == t;
        core_begin(r, ++evt, t);
        core_account(r, prev, t);
        progress(r, prev, t);
        arrived = pop_due(r, t);
        if (trace_now) {
            r->row.nleft = r->n_leaves;
            r->row.njoin = r->n_joins;
            r->row.npre = core_departures(r, t, preempt);
        }
        completions(r, t);
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
