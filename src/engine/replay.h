/* replay.h - replaying a node trace with elastic training jobs.
 *
 * replay_run() streams a trace, admits jobs from a job set, calls an
 * allocator at every event and accounts for the training done, under one
 * of two semantics (DESIGN.md):
 *
 * - REPLAY_COMPAT: the published BFTrainer log replayer, event for event
 *   and quirks included, so that its step log can be reproduced;
 * - REPLAY_DEFAULT: the discrete-event simulation an admin can trust
 *   (exact completion and arrival times, costs as pauses).
 *
 * Results go to the optional step log (CSV, written atomically) and to
 * struct replay_stats.
 */
#ifndef BFS_REPLAY_H
#define BFS_REPLAY_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/error.h"

enum replay_mode { REPLAY_DEFAULT, REPLAY_COMPAT };

/* One processed event: the step log's row. */
struct replay_step {
    size_t evt;     /* 1, 2, ... */
    int64_t time;   /* Unix seconds */
    double thr;     /* samples trained in the interval before the event */
    double rate;    /* sum of the jobs' rates after the decision */
    double rescost; /* rescale cost decided at the event */
    double precost; /* preemption cost of the event */
    size_t nleft, npre, njoin; /* nodes that left, jobs preempted, joins */
    size_t njob, npool, njrun, nnrun; /* admitted jobs, pool size, jobs
                                         holding nodes, nodes in use */
};

/* One allocator call. */
struct replay_solve {
    size_t evt;
    int64_t time;
    int status; /* enum solve_status */
    int pool;
    size_t n_jobs;
    double objective, bound, build_s, solve_s;
    size_t rows, cols, nnz;
};

/* One job of the job set, at the end of the replay.  Times are Unix
 * seconds, -1 when the thing never happened. */
struct replay_jobrec {
    size_t index;     /* in the job set, 0-based */
    const char *name; /* borrowed */
    int64_t tsub, admitted, first_start, finished;
    double samples;                    /* samples done */
    double node_seconds;               /* nodes held, integrated over time */
    double paused_s;                   /* seconds paused (default mode) */
    double lost_rescale, lost_preempt; /* samples lost */
    size_t rescales, preemptions;
};

/* A consumer of what a replay produces (an HDF5 file, a job log).  Each
 * callback may be NULL; a non-zero return aborts the replay with that
 * code, and the sink reports its own error. */
struct replay_sink {
    void *arg;
    int (*step)(void *arg, const struct replay_step *s);
    int (*solve)(void *arg, const struct replay_solve *s);
    /* Job j (index in the job set) holds count nodes from event evt on;
     * called for every change of a job's count, after the event's
     * decision, in job order. */
    int (*alloc)(void *arg, size_t evt, int64_t time, size_t job, int count);
    /* Every job of the set, in file order, once the replay ends. */
    int (*job)(void *arg, const struct replay_jobrec *j);
};

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
    int legacy_cap;     /* cap changes at floor((N+1)/2) (--big-m legacy) */
    int apply_feasible; /* apply time-limited answers (default mode) */
    struct alloc_opts alloc;
    const char *steps_path; /* step log CSV, or NULL */
    const char *dump_dir;   /* write every instance solved here, or NULL */
    const struct replay_sink *const *sinks; /* borrowed; n_sinks of them */
    size_t n_sinks;
    /* Polled between events; when it becomes non-zero the replay stops
     * and reports what it has, marked partial.  May be NULL. */
    volatile sig_atomic_t *stop;
    /* Called after every event (if set) with the events so far, the
     * simulated time and the share done, 0..1 (of the jobs' work, or of
     * the window when it has an end, whichever is further). */
    void (*progress)(void *arg, size_t events, int64_t now, double done);
    void *progress_arg;
};

/* Fills o with the defaults of `bfsim replay` (paths left NULL). */
void replay_opts_default(struct replay_opts *o);

/* What a replay measured.  Node-seconds and samples are sums over the
 * replayed window [t0, last event]. */
struct replay_stats {
    int partial;        /* stopped by *stop before the trace's end */
    size_t events;      /* events processed (rows of the step log) */
    size_t trace_nodes; /* nodes in the selected subset */
    size_t jobs_total;  /* jobs in the job set */
    size_t jobs_admitted;
    size_t jobs_finished;
    int64_t first_time; /* t0 */
    int64_t last_event_time;
    double samples_trained;        /* sum of the step log's Thr */
    double rescale_cost;           /* samples lost to rescaling, charged */
    double preempt_cost;           /* samples lost to preemption */
    double idle_node_seconds;      /* pool size integrated over time */
    double allocated_node_seconds; /* nodes in use integrated over time */
    size_t rescales;               /* rescale decisions (up or down) */
    size_t preemptions;            /* jobs that lost nodes to the scheduler */
    size_t solves;                 /* allocator calls */
    size_t solves_by_status[SOLVE_N_STATUSES];
    double solve_s_median, solve_s_p95, solve_s_max, solve_s_total;
    size_t max_rows, max_cols, max_nnz;
    /* Job completion times (finished - Tsub, seconds) of finished jobs. */
    double jct_mean, jct_median, jct_p95;
    int64_t makespan;  /* last completion - first admitted job's Tsub */
    double fairness;   /* Jain's index of the admitted jobs' node shares */
    double efficiency; /* samples / (samples + rescale + preempt cost) */
    double wall_seconds;
    double events_per_second;
    long peak_rss_kib; /* peak resident memory of the process */
};

/* Runs a replay.  Returns 0 (also when stopped early: stats->partial) or a
 * negative code with the problem in e; on error no step log is left. */
int replay_run(const struct replay_opts *o, struct replay_stats *stats,
               struct bfs_error *e);

#endif
