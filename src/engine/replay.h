/* replay.h - replaying a node trace with elastic training jobs.
 *
 * replay_run() streams a trace, admits jobs from a job set, calls an
 * allocator at every event and accounts for the training done, under one
 * of two semantics (tools/DESIGN.md):
 *
 * - REPLAY_COMPAT: the published BFTrainer log replayer, event for event
 *   and quirks included, so that its step log can be reproduced;
 * - REPLAY_DEFAULT: the discrete-event simulation an admin can trust
 *   (exact completion and arrival times, costs as pauses).
 *
 * Results go to struct replay_stats (engine/measures.h, with the table
 * of measures) and to the sinks the caller gives (formats/records.h: the
 * step log, the job log, the HDF5 file, a test's recorder); the replay
 * opens no file.
 */
#ifndef BFS_REPLAY_H
#define BFS_REPLAY_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/error.h"
#include "engine/belief.h"
#include "engine/measures.h"
#include "engine/nodepick.h"
#include "engine/tiebreak.h"
#include "formats/records.h"

enum replay_mode { REPLAY_DEFAULT, REPLAY_COMPAT };

struct replay_opts {
    const char *trace_path;  /* native trace */
    const char *jobs_path;   /* job set, native or BFTrainer bounds */
    const char *curves_path; /* BFTrainer long curves, or NULL */
    int has_start, has_end;
    int64_t start, end; /* Unix seconds; default: the trace's span */
    size_t node_skip;   /* use nodes [skip, skip + count) of the trace */
    size_t node_count;  /* 0 = every node after skip */
    int max_jobs;       /* jobs in the system at once; 0 = no limit */
    int align_jobs;     /* shift every Tsub so the first is t0 */
    double tfwd;        /* allocator horizon, seconds */
    int objective;      /* enum job_objective (default JOB_OBJ_FILE) */
    enum replay_mode mode;
    int legacy_cap; /* cap changes at floor((N+1)/2) (--big-m legacy) */
    /* which tied optimum the exact allocators return (--tie-break;
     * ignored by even) */
    struct tiebreak tie_break;
    /* which nodes growing jobs take and shrinking jobs give back
     * (--node-pick) */
    struct nodepick node_pick;
    /* what the allocator's horizon term knows of each node's remaining
     * idle time (--hints; HINTS_OFF by default) */
    enum nodepick_hints hints;
    int apply_feasible; /* apply time-limited answers (default mode) */
    /* On a trace with node types (tools/DESIGN.md, "Node types"): 1 (the
     * default) decides with the types, 0 decides as if every node were
     * of one type (--types-aware no); no effect on a trace without
     * types. */
    int types_aware;
    /* With node types and types_aware: 1 lets a job hold nodes of
     * several types at once (--mixed-types; tools/DESIGN.md, "Spanning
     * types"), 0 (the default) one type at a time. */
    int mixed_types;
    /* what the allocator believes of the curves (--belief; engine/belief.h)
     */
    struct belief_opts belief;
    struct alloc_opts alloc;
    /* Paths of outputs for the caller to wire up (the step log's sink,
     * the instance callback below); replay_run never reads them. */
    const char *steps_path; /* step log CSV, or NULL */
    const char *dump_dir;   /* write every instance solved here, or NULL */
    /* Sinks fed with every record, in this order; borrowed (the caller
     * finishes and commits or aborts them after the replay). */
    struct rec_sink *const *sinks;
    size_t n_sinks;
    /* Called (if set) with every allocation instance before it is
     * solved, the event's number and time, and the active jobs' names;
     * a non-zero return (reported in e) stops the replay with that
     * code.  `bfsim replay --dump-instances` sets instance_dump. */
    int (*instance)(void *arg, const struct alloc_problem *p,
                    const char *const *names, size_t evt, int64_t time,
                    struct bfs_error *e);
    void *instance_arg;
    /* Called (if set) after every decision applied, with the event's
     * number and the node map: owner[k] is the job (index in the job
     * set) holding subset node k, or -1 (borrowed for the call). */
    void (*map)(void *arg, size_t evt, const int32_t *owner, size_t n_nodes);
    void *map_arg;
    /* Polled between events; when it becomes non-zero the replay stops
     * and reports what it has, marked partial.  May be NULL. */
    volatile sig_atomic_t *stop;
    /* Called after every event (if set) with the events so far, the
     * simulated time and the share done, 0..1: the furthest of the jobs'
     * work done, the window (when it has an end) and the trace file read,
     * since whichever ends first ends the replay. */
    void (*progress)(void *arg, size_t events, int64_t now, double done);
    void *progress_arg;
    /* For the tests: compute every job's completion at every event, not
     * skipping one that cannot move (engine/completion.h); the answers
     * are the same either way. */
    int every_completion;
};

/* Fills o with the defaults of `bfsim replay` (paths left NULL). */
void replay_opts_default(struct replay_opts *o);

/* Runs a replay.  Returns 0 (also when stopped early: stats->partial) or a
 * negative code with the problem in e (empty when a sink's record
 * callback failed: that sink's finish reports it). */
int replay_run(const struct replay_opts *o, struct replay_stats *stats,
               struct bfs_error *e);

#endif
