/* completion.h - when the default mode's replay (default.c) may skip
 * recomputing a job's completion second: a margin noted when it
 * computes one, and the test that the margin still holds.  Included by
 * default.c, and by the tests, which check the margin by brute force.
 */
#ifndef BFS_COMPLETION_H
#define BFS_COMPLETION_H

#include "engine/replay_impl.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

/* A completion that cannot move.  While a job trains at one rate r,
 * without checkpoints, and gets no new pause, the completion second
 * schedule_completion computes stays put: it is ceil(x), x = fl(start
 * + fl(fl(Pmax - A) / r)), start the end of the job's pause or now,
 * and in exact arithmetic g = start + (Pmax - A) / r is the same at
 * every event: A grows by r times the seconds trained, which is now
 * less prev, or less the pause's end in the interval where it ends, or
 * 0 in the pause.  In floating point (eps = DBL_EPSILON; A and the
 * samples trained stay below Pmax, or the job is done):
 *  - one event moves g by at most eps Pmax / r: the seconds trained are
 *    exact (whole seconds, or now less a pause end within a factor 2
 *    of it), and A' = fl(A + fl(r s)) differs from A + r s by at most
 *    eps/2 (r s + A') <= eps Pmax;
 *  - x differs from g by at most eps/2 (Pmax / r + 2 L + |x|) (1 + eps),
 *    L = fl(Pmax - A) / r <= Pmax / r (the subtraction, the division
 *    and the addition each round once).
 * So at an event m events after one that computed x_k, |x - x_k| <= 2 c
 * + m d, with c = eps (3 Pmax / r + |x_k| + 1) and d = eps Pmax / r
 * (|x| <= |x_k| + 1: x moves by far less than a second); and while that
 * is below the distance from x_k to the nearest edge of its ceiling's
 * interval (ceil(x_k) - 1, ceil(x_k)], ceil(x) = ceil(x_k): the value
 * the job's queued event holds.  schedule_completion notes in cx_until
 * the event number before which m (2 d) stays below that margin less
 * 2 (2 c) (c and d doubled, for safety), and start in cx_start, and
 * skips the computation (which would return at once) before that
 * event while the rate is the same, the pause pending, if any, is the
 * one that ended at cx_start, and the event is still queued.  Anything
 * else (a rate change, a new pause, a checkpoint, the event popped)
 * computes again, as before.  A pause is added at an event's
 * departures or decision, and is still pending at that event's call: no
 * margin spans a pause it did not see. */
static inline int completion_fixed(const struct rjob *rj, size_t evt)
{
    return rj->rate == rj->cx_rate && rj->q_time != INT64_MIN &&
           (double)evt < rj->cx_until &&
           !(rj->n_segs && rj->segs[rj->n_segs - 1].until != rj->cx_start);
}

/* Notes the margin of a completion just computed at event evt from
 * start and left, with ceiling when, or none when the job has
 * checkpoints or none is due. */
static inline void completion_margin(struct rjob *rj, double start, double left,
                                     double when, size_t evt)
{
    double x = start + left, to_edge, pr, slack;

    rj->cx_until = 0.0;
    if (rj->def->ckpt_interval > 0 || !(when <= 4e18))
        return;
    pr = rj->def->pmax / rj->rate;
    to_edge = when - x < x - (when - 1) ? when - x : x - (when - 1);
    slack = to_edge - 4 * DBL_EPSILON * (3 * pr + fabs(x) + 1);
    /* none when slack <= 0: cx_until is then evt or before */
    rj->cx_rate = rj->rate;
    rj->cx_start = start;
    rj->cx_until = (double)evt + slack / (2 * DBL_EPSILON * pr);
}

#endif
