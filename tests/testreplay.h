/* testreplay.h - running a replay from a test as `bfsim replay` does:
 * the step log as a sink, every sink ended in two phases.
 *
 * Header-only (a static function), like testutil.h. */
#ifndef BFS_TESTREPLAY_H
#define BFS_TESTREPLAY_H

#include "engine/replay.h"
#include "formats/records.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>

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

/* Replays the job file text `jobs` (written as NAME.jobs) on the trace
 * text `trace` (NAME.trace) with the options *base (their paths and
 * sinks replaced), the step log to NAME.csv and the job log to
 * NAME.log; fills *st and returns the job log's text (owned by the
 * caller). */
static inline char *tu_replay_joblog_opts(const char *name, const char *trace,
                                          const char *jobs,
                                          const struct replay_opts *base,
                                          struct replay_stats *st)
{
    char path[256];
    struct rec_sink js, *sinks[] = {&js};
    struct replay_opts o = *base;
    struct bfs_error e;
    const char *joblog;

    snprintf(path, sizeof path, "%s.trace", name);
    o.trace_path = tu_write(path, trace);
    snprintf(path, sizeof path, "%s.jobs", name);
    o.jobs_path = tu_write(path, jobs);
    snprintf(path, sizeof path, "%s.log", name);
    joblog = tu_tmp(path);
    bfs_error_clear(&e);
    ck_assert_int_eq(joblog_open(joblog, &js, &e), 0);
    o.sinks = sinks;
    o.n_sinks = 1;
    snprintf(path, sizeof path, "%s.csv", name);
    ck_assert_msg(tu_replay(&o, tu_tmp(path), st, &e) == 0, "%s", e.msg);
    return tu_slurp(joblog);
}

/* tu_replay_joblog_opts in the default mode with the even allocator. */
static inline char *tu_replay_joblog(const char *name, const char *trace,
                                     const char *jobs, struct replay_stats *st)
{
    struct replay_opts o;

    replay_opts_default(&o);
    o.alloc.name = "even";
    return tu_replay_joblog_opts(name, trace, jobs, &o, st);
}

#endif
