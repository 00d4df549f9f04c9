/* replay_impl.h - the replay's state and the phases both modes share,
 * for the replay core (replay.c, pool.c) and its two drivers (compat.c,
 * default.c) only.
 *
 * An event is processed in the same phases in both modes: core_begin,
 * core_account (node-seconds of the interval), the driver's progress,
 * core_departures, completions (core_finish_job, core_drop_finished),
 * core_joins_admit, the decision (core_decide, then apply_targets),
 * core_set_rates and core_emit.  What differs is the cost model, which
 * each driver owns: the compatible mode charges costs as samples taken
 * off the next interval's progress, the default mode as pauses.  The
 * default mode does core_set_rates's work (core_set_rate, per job) in
 * its walk that schedules the jobs' completions.
 */
#ifndef BFS_REPLAY_IMPL_H
#define BFS_REPLAY_IMPL_H

#include "base/qhist.h"
#include "engine/evq.h"
#include "engine/replay.h"
#include "formats/jobs.h"
#include "formats/trace.h"

#include <math.h>

/* The causes of a lost sample, indexes of rjob.lost: the default mode's
 * pauses, after a rescale, a preemption, to write a checkpoint and to
 * restart from one. */
enum { PAUSE_RESCALE, PAUSE_PREEMPT, PAUSE_CKPT_WRITE, PAUSE_CKPT_RESTART };

/* A job of the job set and its replay state.  Every field means the same
 * in both modes; the fields of one mode's cost model are grouped. */
struct rjob {
    const struct job *def; /* borrowed from the job set */
    /* Jmin and Jmax capped at the replay's node count N + 1 (no count
     * above N can be allocated, so the cap changes no decision, and a
     * Jmax of 10^9 costs no table of 10^9 entries); the allocator and
     * the map rules see these. */
    int jmin, jmax;
    /* owned; P(n), O(n) for n = 0..jmax (the capped one); without a
     * belief, NULL (with pt, ot, otp) while the job is not in the system
     * (replay.c, tables_lazy) */
    double *p, *o;
    /* alloc_job.o_id of o: set when o is made, 0 with a belief (which
     * writes o in place as it learns) */
    unsigned long o_id;
    /* With node types (r->n_types > 0), each owned and NULL otherwise:
     * pt and ot hold P_t(n) and O_t(n), n = 0..jmax, for every type t
     * at t * (jmax + 1), zeros on a type the job cannot run on; otp[t]
     * points to O_t, or is NULL there (alloc_job.ot); held_t[t] counts
     * the nodes of type t the job holds, and ns_t[t] their node-seconds.
     * ttype is the type the allocator gave the job (-1: any, when the
     * decision is not type-aware, or no node; with --mixed-types the
     * lowest of its types), and when it is >= 0, target_t[t] the count
     * it gave the job on type t. */
    double *pt, *ot;
    const double **otp;
    int *held_t;
    double *ns_t;
    int ttype;
    int *target_t;
    int admitted, finished;
    int held;     /* pool nodes held */
    int target;   /* count decided by the allocator, for the map rule */
    int slot;     /* index among the active jobs at the last allocation */
    int reported; /* count last given to the sinks' alloc, -1 = none */
    /* the event at which it last lost a node, plus 1 (0: never): it
     * lost one at the current event when this is r->row.evt + 1 (a mark
     * no event has to clear; job_preempted) */
    size_t preempt_evt;
    double rate; /* samples/s set at the last decision */
    double accs; /* samples done */

    /* A replay runs in one mode: the fields only one of them uses share
     * their room (100,000 jobs' records are most of a year's memory). */
    union {
        /* The compatible mode's cost model: costs in samples. */
        struct {
            double pend;     /* rescale cost decided at the last decision,
                                taken off the next interval's progress */
            double progr;    /* the current event's progress */
            double pre_cost; /* the current event's preemption cost */
        };
        /* What lets the default mode's schedule_completion skip
         * recomputing a completion that cannot move
         * (engine/completion.h): the rate and start (pause end or time)
         * of its last computation, and the event number before which
         * its ceiling cannot change (0: none, recompute). */
        struct {
            double cx_rate, cx_start, cx_until;
        };
    };

    /* The default mode's cost model: pauses, as segments [.., until)
     * ending in order, during which the job trains nothing. */
    struct pause_seg {
        double until;
        int cause; /* PAUSE_* */
    } * segs;      /* owned */
    size_t n_segs, cap_segs;
    double pause_added[2]; /* seconds of pause the current event added,
                              by cause, until its row is made */
    uint64_t version;      /* of the job's pending completion event */
    int64_t q_time;        /* its time while queued, else INT64_MIN */
    /* Checkpoints (def->ckpt_interval > 0; default.c): seconds trained
     * since the last checkpoint, the samples at the last one written,
     * whether there is one; whether a write is in progress, its samples
     * and when it ends; the count held when the job lost nodes at the
     * current event (read when job_preempted says it lost one); whether its
     * next start restarts from a checkpoint. */
    double ckpt_trained, ckpt_samples;
    int ckpt_have, ckpt_pending;
    double ckpt_pend_samples, ckpt_pend_until;
    int ckpt_held0;
    int ckpt_restart_due;

    /* What the job log reports. */
    int64_t admit_time, first_start, done_time; /* -1 = never */
    double node_seconds, paused_s, lost[4];
    size_t n_rescales, n_preempts, n_starts;
    size_t n_moves; /* changes of type (node types, type-aware) */
    /* Checkpoints (default.c): samples lost to the job's restarts, its
     * checkpoints written (their write begun) and its restarts. */
    double ckpt_lost;
    size_t ckpt_writes, ckpt_restarts;
};

struct replay {
    const struct replay_opts *o;
    struct replay_stats *st;
    unsigned long last_o_id; /* the last rjob.o_id given */
    /* The tables job_tables made last without node types or a belief
     * (P and O, n = 0..tab_jmax, owned), and the job whose curve they
     * come from (NULL: none yet): a job with the same curve and capped
     * Jmax gets copies of them. */
    const struct job *tab_def;
    int tab_jmax;
    double *tab_p, *tab_o;
    double work; /* the job set's total Pmax */
    /* The share of the trace file read at the first progress report, + 1
     * (0: not yet known): done_fraction counts the rest of the file. */
    double trace_read0;
    struct bfs_error *e;

    struct trace_reader *tr;
    struct jobset js;
    size_t skip, n_nodes; /* the subset */
    /* Node types (tools/DESIGN.md, "Node types"): n_types is 0 for a
     * trace without types, and then every field below is NULL; else
     * ntype[k] is subset node k's type, pools_t[t] the pool's nodes of
     * type t, and aware whether the allocator sees the types. */
    size_t n_types;
    uint32_t *ntype;
    int *pos_type; /* per pool position, its node's type (owner_pos) */
    int *pools_t;
    int *used_t; /* per type, the nodes jobs hold (the sum of their
                    held_t, kept by job_take_node and job_drop_node) */
    const char *type_names[BFS_MAX_TYPES]; /* r->st's, for the sinks */
    int aware;
    int32_t *owner; /* per subset node: job index, -1 free */
    /* The pool: pool[0 .. pool_len-1] holds its n_pool nodes in position
     * order and, where nodes left since the last pool_compact, holes
     * (POOL_HOLE); pool_at[k] is node k's index in pool[] while it is in
     * the pool.  Holes are at most a quarter of n_pool after each
     * departure (pool_remove_leaves), so pool_len <= 1.25 n_nodes; the
     * array has room for pool_cap = 2 n_nodes. */
    uint32_t *pool;
    uint32_t *pool_at;
    size_t n_pool, pool_len, pool_cap;
    /* Every pool[] entry before free_from is a hole or a node a job
     * holds (free_from <= pool_len): the map rule's walk for free nodes
     * starts there, so that it costs the nodes taken, not the nodes
     * held before them (pool_freed lowers it). */
    size_t free_from;
    /* What changed since the last map handed to the sinks (pool_mark):
     * the nodes whose owner or pool membership was written, each once. */
    uint8_t *in_pool;  /* per subset node: in the pool, i.e. idle in the
                          trace (before t0: in the events read so far) */
    uint8_t *marked;   /* per subset node: in changed[] */
    uint32_t *changed; /* the nodes written since the last map */
    size_t n_changed;
    /* What the sinks take, fixed for the run: the node map
     * (rec_sink.nodes; without a taker, nothing reads changed[], which
     * stays empty), the step rows (rec_sink.step; without one, the
     * rows' sums over the jobs are not made), the solves
     * (rec_sink.solve); and owner_map_read's answer. */
    int track_changes, want_rows, want_solves, owner_read;
    uint32_t *joins, *leaves; /* the next trace row's changes in the subset */
    size_t n_joins, n_leaves, cap_joins, cap_leaves;

    struct rjob *jobs;
    size_t next_job; /* first job never admitted, in file order */
    /* act and every array below indexed by active job have room for
     * act_cap jobs (replay.c, act_reserve) */
    size_t *act; /* admitted, unfinished jobs in admission order */
    size_t n_act, act_cap;
    /* act changed (a job admitted or dropped) since core_decide last
     * filled ajobs and anames and each active job's slot: until it
     * does, only what moves with the nodes (alloc_job.cur, and the held
     * types) is written again (core_decide) */
    int act_changed;
    size_t n_done;  /* jobs core_finish_job marked since the last
                       core_drop_finished (which has nothing to drop
                       without one) */
    size_t *ev_act; /* the jobs active when the event began (kept in the
                       compatible mode and with sinks only) */
    size_t n_ev_act;
    double *sumbuf; /* scratch for column sums (compatible mode) */

    struct allocator *alloc;
    struct belief *belief; /* owned; NULL for --belief true */
    struct alloc_job *ajobs;
    const char **anames; /* names of the active jobs, for instance dumps */
    int *counts;         /* the allocator's answer, per active job */
    int *types;          /* and its types (aware, typed replays) */
    int mixed;           /* jobs may span types (aware, --mixed-types) */
    int *type_counts;    /* with mixed: the counts per job and type */
    int *owner_pos;      /* node-level view for the allocator */
    struct tiebreak_job *tb_jobs; /* the tie-break rule's keys, per active
                                     job */
    size_t *tb_order;             /* the rule's order of the active jobs */
    /* the allocator calls' times, in constant memory (a zeroed qhist is
     * empty) */
    struct qhist solve_hist;

    /* --node-pick (pool.c) */
    size_t dec_evt;            /* the event of the last decision */
    int64_t dec_time;          /* and its time */
    int64_t *joined;           /* per subset node: when it last became idle,
                                  -1 never seen (predicted) */
    struct nodepick_hist hist; /* holes seen so far (predicted) */
    size_t *lv_start;          /* per subset node k: its departures are
                                  lv_time[lv_start[k] .. lv_start[k+1]) */
    int64_t *lv_time;          /* every departure of the subset, by node, in
                                  time order (oracle, predicted) */
    size_t *lv_cur;            /* per node: its first departure not yet past */
    int64_t never;             /* the trace's last time + 1: "no departure" */
    struct pick_ent {
        double key;
        uint32_t pos;
    } * pick;       /* the pool ranked by the rule */
    double mae_sum; /* |predicted - true| over the nodes taken */
    size_t mae_n;
    double *hint_e; /* --hints: per pool position, min(remaining, Tfwd) */
    double *hint_h; /* the active jobs' horizon tables, back to back */
    size_t hint_h_cap;

    struct evq q;        /* completions and arrivals (default mode) */
    int tsub_sorted;     /* the job file is sorted by tsub */
    struct rec_step row; /* the current event's row, filled by the phases */
    int sink_rc;         /* first error a sink returned */
};

/* Notes that node k's owner or pool membership is being written, for the
 * list of changes the sinks get with the next map (rec_nodes.changed),
 * when a sink takes the map. */
static inline void pool_mark(struct replay *r, uint32_t k)
{
    if (r->track_changes && !r->marked[k]) {
        r->marked[k] = 1;
        r->changed[r->n_changed++] = k;
    }
}

/* Notes that the node at pool[p] became free (its owner -1). */
static inline void pool_freed(struct replay *r, size_t p)
{
    if (p < r->free_from)
        r->free_from = p;
}

/* Notes that rj takes node k (its count grows by one). */
static inline void job_take_node(struct replay *r, struct rjob *rj, uint32_t k)
{
    rj->held++;
    if (rj->held_t) {
        rj->held_t[r->ntype[k]]++;
        r->used_t[r->ntype[k]]++;
    }
}

/* Notes that rj loses node k (its count drops by one). */
static inline void job_drop_node(struct replay *r, struct rjob *rj, uint32_t k)
{
    rj->held--;
    if (rj->held_t) {
        rj->held_t[r->ntype[k]]--;
        r->used_t[r->ntype[k]]--;
    }
}

/* Whether rj lost a node at the current event. */
static inline int job_preempted(const struct replay *r, const struct rjob *rj)
{
    return rj->preempt_evt == r->row.evt + 1;
}

/* The rate rj would train at on the nodes it holds, at full speed: P(n)
 * on n nodes, and with node types the lowest P_t(n) over the types t
 * it holds (tools/DESIGN.md, "Node types": paced by the slowest).
 * Inline: called per active job at every event. */
static inline double job_full_rate(const struct replay *r,
                                   const struct rjob *rj)
{
    size_t len = (size_t)rj->jmax + 1;
    double p = rj->p[rj->held];

    if (!rj->held_t || rj->held == 0)
        return p;
    p = HUGE_VAL;
    for (size_t t = 0; t < r->n_types; t++)
        if (rj->held_t[t] > 0 && rj->pt[t * len + (size_t)rj->held] < p)
            p = rj->pt[t * len + (size_t)rj->held];
    return p;
}

/* After a decision at time t: active job a's rate, P(n) on n >= Jmin
 * nodes and 0 below, and its first start.  Inline: the default mode
 * calls it per active job at every event, in its own walk of them. */
static inline void core_set_rate(struct replay *r, size_t a, int64_t t)
{
    struct rjob *rj = &r->jobs[r->act[a]];

    rj->rate = rj->held >= rj->def->jmin ? job_full_rate(r, rj) : 0.0;
    if (rj->held > 0 && rj->first_start < 0)
        rj->first_start = t;
    if (r->belief)
        belief_note(r->belief, r->act[a], t, rj->held, rj->p[rj->held]);
}

/* ---- the drivers ------------------------------------------------------ */

/* Each replays the whole window; returns 0 or a negative code (in r->e,
 * or r->sink_rc). */
int compat_run(struct replay *r);
int default_run(struct replay *r);

/* ---- the core (replay.c) ---------------------------------------------- */

/* Reads the trace up to the start, builds the pool at t0, aligns and
 * admits the jobs submitted by t0.  Leaves the first event after t0 read
 * but not applied, its time in *t.  Returns 1 if there is one, 0 if not,
 * or a negative code. */
int core_start(struct replay *r, int64_t *t0, int64_t *t);
/* Reads the next trace row with a change inside the subset into
 * r->joins / r->leaves, not applied.  Returns 1, 0 at the end, or a
 * negative code. */
int next_event(struct replay *r, int64_t *time);
/* Whether the caller asked the replay to stop (marks it partial). */
int core_stopped(struct replay *r);

/* Begins event evt at time t: remembers the active jobs (r->ev_act)
 * and starts r->row. */
void core_begin(struct replay *r, size_t evt, int64_t t);
/* Accounts the interval [prev, t) at the current map: the pool's and the
 * allocated node-seconds, each active job's node-seconds. */
void core_account(struct replay *r, int64_t prev, int64_t t);
/* Departures: removes the nodes of r->leaves from the pool.  The first
 * time in the event a job loses a node, preempt(r, rj, t) is called
 * (before its count drops) to charge the mode's cost; it returns 1 if
 * the loss counts as a preemption.  Returns the number counted (also
 * added to the statistics). */
size_t core_departures(struct replay *r, int64_t t,
                       int (*preempt)(struct replay *r, struct rjob *rj,
                                      int64_t t));
/* Sets rj's type and counts per type (rj->ttype, rj->target_t) from the
 * decision just made for it, the a-th active job (aware replays). */
void core_type_target(struct replay *r, struct rjob *rj, size_t a);
/* Whether the decision just made (rj->target, rj->target_t) moves rj,
 * which held old nodes, between node types: it grows on one type while
 * it shrinks on another (tools/DESIGN.md, "Node types").  Inline, as
 * the next: called per active job at every decision. */
static inline int core_type_move(const struct replay *r, const struct rjob *rj,
                                 int old)
{
    int grows = 0, shrinks = 0;

    if (!r->aware || rj->ttype < 0 || old == 0 || rj->target == 0)
        return 0;
    for (size_t t = 0; t < r->n_types; t++) {
        grows |= rj->target_t[t] > rj->held_t[t];
        shrinks |= rj->target_t[t] < rj->held_t[t];
    }
    return grows && shrinks;
}
/* Counts a change of rj's count from old to target decided at an event:
 * a rescale if the job was running (old >= Jmin: the changes the
 * objective charges a rescale cost for), a start if it goes from below
 * Jmin to a running count, neither otherwise.  A move to another node
 * type is also counted as one (a rescale even at the same count). */
static inline void core_count_change(struct replay *r, struct rjob *rj, int old,
                                     int target)
{
    if (core_type_move(r, rj, old)) {
        rj->n_moves++;
        r->st->type_moves++;
        if (target == old) { /* a change all the same */
            if (old >= rj->def->jmin) {
                rj->n_rescales++;
                r->st->rescales++;
            }
            return;
        }
    }
    if (target == old)
        return;
    if (old >= rj->def->jmin) {
        rj->n_rescales++;
        r->st->rescales++;
    } else if (target >= rj->def->jmin) {
        rj->n_starts++;
        r->st->starts++;
    }
}
/* Marks rj finished at t with its work done. */
void core_finish_job(struct replay *r, struct rjob *rj, int64_t t);
/* Drops the finished jobs from the active ones and frees their nodes,
 * their pauses (rjob.segs) and their tables, when kept only while a job
 * is in the system. */
void core_drop_finished(struct replay *r);
/* Appends r->joins to the pool when the trace row is applied now
 * (trace_now), then admits the submitted jobs.  Returns 0 or a negative
 * code. */
int core_joins_admit(struct replay *r, int64_t t, int trace_now);
/* Asks the allocator for counts of the active jobs (r->counts[a] per
 * active job a), after the instance callback; records the solve.
 * Returns 0 with the status in *status, or a negative code. */
int core_decide(struct replay *r, size_t evt, int64_t t, int *status);
/* After a decision: every active job's rate, P(n) on n >= Jmin nodes and
 * 0 below, and its first start (core_set_rate for each, in order). */
void core_set_rates(struct replay *r, int64_t t);
/* Gives r->row to the sinks, then the counts that changed at the event.
 * Returns 0 or the first error of a sink. */
int core_emit(struct replay *r);
/* Reports the counts that changed at event evt (time t) to the sinks,
 * then the node map (rec_nodes) to those that take it. */
void emit_allocs(struct replay *r, size_t evt, int64_t t);
/* Calls the progress callback, if any. */
void core_progress(struct replay *r, size_t evt, int64_t t);

/* ---- pool and map (pool.c) --------------------------------------------- */

/* An empty entry of r->pool, left by a departure until pool_compact. */
#define POOL_HOLE UINT32_MAX

/* Removes the nodes in r->leaves from the pool, keeping the order of the
 * others: O(leaves), each leaves a hole in r->pool. */
void pool_remove_leaves(struct replay *r);
/* Appends the nodes in r->joins to the pool (compacting it first when
 * they would not fit). */
void pool_append_joins(struct replay *r);
/* Appends node k to the pool (k not in it, and room for it). */
void pool_append(struct replay *r, uint32_t k);
/* Squeezes the holes out of r->pool, keeping the order: afterwards
 * pool[0 .. n_pool-1] are the pool's nodes in position order.  Every
 * reader of positions calls it first; O(1) when there is no hole, else
 * O(pool_len). */
void pool_compact(struct replay *r);
/* Applies rjob.target to every active job by the map rule. */
void apply_targets(struct replay *r);
/* Prepares the --node-pick rule before the trace is read: for oracle and
 * predicted, a first pass over the trace stores every departure of the
 * subset (8 bytes each).  Returns 0 or a negative code. */
int pool_pick_setup(struct replay *r);
void pool_pick_release(struct replay *r);
/* Forgets what the predicted rule learnt from the trace read so far (when
 * the replay reads its trace again from the first row). */
void pool_pick_reset(struct replay *r);
/* Notes that subset node k became idle at time t (before or after t0). */
void pool_note_join(struct replay *r, uint32_t k, int64_t t);
/* Notes that subset node k was taken back at time t. */
void pool_note_leave(struct replay *r, uint32_t k, int64_t t);
/* --hints: fills a horizon table h_j(0..jmax) for every active job
 * (r->ajobs[slot].h, into r->hint_h) at the decision at r->dec_time
 * (tools/DESIGN.md, "Hints"). */
void pool_hints(struct replay *r);
/* Nodes held by the active jobs, and active jobs holding nodes. */
size_t nodes_in_use(const struct replay *r);
size_t jobs_running(const struct replay *r);

#endif
