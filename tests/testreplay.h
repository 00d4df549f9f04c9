/* testreplay.h - running a replay from a test as `bfsim replay` does:
 * the step log as a sink, every sink ended in two phases.
 *
 * Header-only (a static function), like testutil.h. */
#ifndef BFS_TESTREPLAY_H
#define BFS_TESTREPLAY_H

#include "engine/replay.h"
#include "formats/records.h"

#include <check.h>

/* Runs the replay o with its sinks plus, when steps is not NULL, the step
 * log written to steps; finishes and commits every sink if the replay
 * succeeded, aborts them if not.  Returns replay_run's code, or the
 * sinks' error. */
static inline int tu_replay(struct replay_opts *o, const char *steps,
                            struct replay_stats *st, struct bfs_error *e)
{
    struct rec_sink steps_s, *sinks[16];
    struct rec_sink *const *given = o->sinks;
    size_t n = 0, given_n = o->n_sinks;
    int rc;

    ck_assert_uint_lt(o->n_sinks, 16);
    for (size_t i = 0; i < o->n_sinks; i++)
        sinks[n++] = o->sinks[i];
    if (steps) {
        rc = steps_open(steps, &steps_s, e);
        if (rc)
            return rc;
        sinks[n++] = &steps_s;
    }
    o->sinks = sinks;
    o->n_sinks = n;
    rc = replay_run(o, st, e);
    if (rc == 0)
        rc = rec_sinks_finish(sinks, n, st->partial, e);
    if (rc == 0)
        rc = rec_sinks_commit(sinks, n, e);
    rec_sinks_abort(sinks, n);
    o->sinks = given;
    o->n_sinks = given_n;
    return rc;
}

#endif
