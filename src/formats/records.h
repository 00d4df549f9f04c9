/* records.h - what a replay emits, and the sinks that consume it.
 *
 * The engine fills these records and hands them to every sink; the
 * writers (step CSV, job log, HDF5 file) are sinks and live in formats/,
 * so the engine opens no file.  A new output is a new sink.
 *
 * A sink's life: its writer's open function (steps_open, joblog_open,
 * h5out_open + h5out_sink) creates a temporary file beside the target and
 * fills the struct; the replay calls the record callbacks; then the owner
 * (the CLI, a test) ends every sink in two phases, so that no output is
 * left unless all of them succeed: rec_sinks_finish() (each sink writes
 * what it buffered, flushes and syncs its temporary file), then
 * rec_sinks_commit() (each renames its file over its target).  On any
 * error, rec_sinks_abort() removes every temporary file.
 */
#ifndef BFS_RECORDS_H
#define BFS_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/out.h"
#include "base/util.h"
#include "formats/jobs.h"

/* One processed event: the step log's row. */
struct rec_step {
    size_t evt;     /* 1, 2, ... */
    int64_t time;   /* Unix seconds */
    double thr;     /* samples trained in the interval before the event */
    double rate;    /* sum of the jobs' rates after the decision */
    double rescost; /* samples the rescaling decided at the event costs */
    double precost; /* samples the event's preemptions cost */
    size_t nleft, npre, njoin; /* nodes that left, jobs preempted, joins */
    size_t njob, npool, njrun, nnrun; /* admitted jobs, pool size, jobs
                                         holding nodes, nodes in use */
    /* On a trace with node types (n_types > 0, else NULL): per type,
     * the pool's nodes and the nodes in use after the event (borrowed). */
    size_t n_types;
    const int *pool_t, *used_t;
};

/* One allocator call. */
struct rec_solve {
    size_t evt;
    int64_t time;
    int status; /* enum solve_status */
    int pool;
    size_t n_jobs;
    double objective, bound, build_s, solve_s;
    size_t rows, cols, nnz;
    /* the solver's measures (struct alloc_result) */
    double cpu_s, ipc_s, root_bound;
    size_t mip_solves;
    long nodes, iters, cuts;
};

/* Job `job` (index in the job set) holds `count` nodes from event evt
 * (at time) on, until its next record. */
struct rec_alloc {
    size_t evt;
    int64_t time;
    size_t job;
    int count;
};

/* The node map after an event's decision (all borrowed, valid during the
 * callback): owner[i] is the job (index in jobs) holding node i of the
 * subset (0-based position), or negative when no job does; pool[0 ..
 * n_pool-1] are the nodes idle in the trace, the pool (subset positions,
 * in the pool's order; NULL when not known).
 *
 * changed[0 .. n_changed-1], when not NULL, lists (in any order, without
 * repeats) every node whose owner or pool membership may differ from the
 * previous map handed to the same sink (a superset is allowed), and
 * in_pool[i] is 1 for the nodes in the pool, 0 for the others: with them
 * a consumer can work in O(changes) per map instead of O(n).  NULL:
 * unknown, any node may have changed. */
struct rec_nodes {
    size_t evt;
    int64_t time, t0; /* the event's, the replay's start */
    size_t n;
    const int32_t *owner;
    size_t n_jobs;
    const struct job *jobs; /* the job set (submissions after alignment) */
    const uint32_t *pool;
    size_t n_pool;
    const uint32_t *changed;
    size_t n_changed;
    const uint8_t *in_pool;
    /* On a trace with node types (n_types > 0, else NULL): each node's
     * type, and the types' names. */
    size_t n_types;
    const uint32_t *ntype;
    const char *const *type_names;
};

/* One job of the job set, at the end of the replay.  Times are Unix
 * seconds, -1 when the thing never happened. */
struct rec_job {
    size_t index;     /* in the job set, 0-based */
    const char *name; /* borrowed */
    int64_t tsub, admitted, first_start, finished;
    double samples;                    /* samples done */
    double node_seconds;               /* nodes held, integrated over time */
    double paused_s;                   /* seconds paused (default mode) */
    double lost_rescale, lost_preempt; /* samples lost */
    size_t rescales, preemptions;
    size_t starts; /* changes from below Jmin to a running count */
    /* On a trace with node types (n_types > 0, else the rest 0/NULL):
     * changes of type, node-seconds per type and the types' names
     * (borrowed). */
    size_t n_types, type_moves;
    const double *node_seconds_t;
    const char *const *type_names;
    /* --belief learn:MODEL only (learned = 1): observations made,
     * distinct counts observed, and from two counts on (fit_ok) the
     * fitted parameters: amdahl and interp P(1) and serial fraction,
     * power c and e of c n^e. */
    int learned;
    size_t observations, counts_observed;
    int fit_ok;
    double fit_a, fit_b;
    /* The job set's features (n_features > 0, else NULL; borrowed): their
     * names, and the job's values (NULL for a blank one). */
    size_t n_features;
    const char *const *feature_names;
    const char *const *features;
    /* When some job of the set has checkpoints (ckpt = 1, else the rest
     * 0): the job's samples lost to restarts, lost in its checkpoint
     * pauses (writes and restarts), its checkpoints written and its
     * restarts, the per-job parts of the ckpt_* measures. */
    int ckpt;
    double ckpt_lost_samples, ckpt_pause_cost;
    size_t ckpt_writes, ckpt_restarts;
};

/* A consumer of what a replay produces.  Every callback may be NULL.  A
 * record callback's non-zero return (a negative BFS_E* code) aborts the
 * replay; the sink keeps its own error message, which finish() reports.
 *
 * A record and everything it points to (names, the job set, the node
 * map) are borrowed for the callback only: the replay releases them
 * before it returns, whatever the way it ended (every job done, --end,
 * the trace's end, a signal, an error), and finish() runs after that.  A
 * sink that writes something late (holdings still open at the end) keeps
 * its own copy of what it needs. */
struct rec_sink {
    void *arg; /* the sink's state, owned by the sink */
    int (*step)(void *arg, const struct rec_step *s);
    int (*solve)(void *arg, const struct rec_solve *s);
    /* Called for every change of a job's count, after the event's
     * decision, in job order. */
    int (*alloc)(void *arg, const struct rec_alloc *a);
    /* The node map after every event (after alloc). */
    int (*nodes)(void *arg, const struct rec_nodes *m);
    /* Every job of the set, in file order, once the replay ends. */
    int (*job)(void *arg, const struct rec_job *j);
    /* Phase 1 of the end, after the replay has returned (no record's
     * pointer is valid any more): writes what is buffered (partial: the
     * replay was stopped early), flushes and syncs the temporary file,
     * keeping it.  Returns 0 or a negative code reported in e; the sink must
     * still be aborted then. */
    int (*finish)(void *arg, int partial, struct bfs_error *e);
    /* Phase 2: renames the temporary file over the target and releases
     * the sink.  Returns 0 or a negative code reported in e (the sink is
     * released either way). */
    int (*commit)(void *arg, struct bfs_error *e);
    /* Removes the temporary file and releases the sink; after commit, a
     * no-op. */
    void (*abort)(void *arg);
};

/* Phase 1 for sinks[0..n-1], in order; stops at the first error.
 * Returns 0 or that error (in e). */
int rec_sinks_finish(struct rec_sink *const *sinks, size_t n, int partial,
                     struct bfs_error *e);
/* Phase 2 for every sink, in order.  Every sink is released; returns 0 or
 * the first error (in e).  An error here (a failed rename) can leave the
 * outputs renamed before it in place. */
int rec_sinks_commit(struct rec_sink *const *sinks, size_t n,
                     struct bfs_error *e);
/* Aborts every sink not yet committed: no output is left. */
void rec_sinks_abort(struct rec_sink *const *sinks, size_t n);

/* ---- the text sinks -------------------------------------------------- */

/* The step log (--steps): a CSV row per event with the published
 * replayer's columns.  Opens a temporary file beside path (or writes
 * path in place when it is "-" or a device), writes the header and fills
 * sink (its step, finish, commit and abort callbacks).  Returns 0 or
 * BFS_EIO (in e, naming path); nothing is left on failure. */
int steps_open(const char *path, struct rec_sink *sink, struct bfs_error *e);

/* The job log (--job-log): a CSV row per job of the set, as steps_open
 * but with the job callback.  On a trace with node types (the records
 * say so) the columns type_moves and node_seconds@TYPE per type follow
 * starts; when some job has checkpoints, ckpt_lost_samples,
 * ckpt_pause_cost, ckpt_writes and ckpt_restarts follow; when the job set
 * has features, one column per feature, named as it, ends the row (empty
 * for a blank value); the header is then written with the first
 * record. */
int joblog_open(const char *path, struct rec_sink *sink, struct bfs_error *e);
/* The same with the learner's columns after starts (--belief
 * learn:MODEL): observations, counts_observed, fit_a, fit_b (the last two
 * empty below two counts), then the checkpoint and the features'
 * columns. */
int joblog_open_learned(const char *path, struct rec_sink *sink,
                        struct bfs_error *e);

/* The training jobs' node-level schedule (--batsim-jobs), a Batsim-style
 * jobs.csv (formats/batsim.c): one row per job and interval in which its
 * set of nodes stays the same, with the columns job_id ("NAME!K", K the
 * job's holding number from 0), workload_name (NAME), submission_time,
 * requested_number_of_resources (the nodes held), starting_time,
 * execution_time, finish_time, waiting_time (seconds since the replay's
 * start) and allocated_resources (an interval set of subset node
 * positions, "0-3 7").  As steps_open, with the nodes callback. */
int batsim_jobs_open(const char *path, struct rec_sink *sink,
                     struct bfs_error *e);

/* What a text sink keeps (steps.c and joblog.c; records.c ends it). */
struct rec_text {
    struct bfs_out out;
    struct bfs_error err; /* the first write error */
    /* A header that depends on the records (the job log's node types'
     * columns): the first record writes its own and frees this one; if
     * none comes, the finish writes this one.  Owned, or NULL. */
    char *pending;
};

/* Opens path as a text sink's file, writes header and fills sink's arg
 * (an owned struct rec_text) and its finish, commit and abort callbacks.
 * Returns 0 or BFS_EIO (in e). */
int rec_text_open(const char *path, const char *header, struct rec_sink *sink,
                  struct bfs_error *e);
/* The file a text sink writes to (borrowed; until the sink ends), for a
 * caller that writes it itself, such as the JSON summary. */
FILE *rec_text_file(const struct rec_sink *sink);
/* A record callback's check after writing: BFS_EIO (kept in t) if the
 * stream has failed, else 0. */
int rec_text_check(struct rec_text *t);

#endif
