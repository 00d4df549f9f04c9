/* measures.c - the table of measures and the derived measures
 * (measures.h).
 *
 * The replay accumulates sums and counts in struct replay_stats as it
 * goes; measures_finish() derives the rest once, here, so that no writer
 * computes a measure (the harvest ratio used to be computed by the JSON
 * writer and by the report, each on its own).  Percentiles are nearest
 * rank over sorted values.
 *
 * The table locates each value by offsetof and its C type, so that
 * measures_values() can read any row without a getter per measure.
 */
#include "config.h"

#include "engine/measures.h"

#include "base/qhist.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define AT(field, ctype) offsetof(struct replay_stats, field), MEASURE_C_##ctype
#define REPORT(group, line, label, show) MEASURE_G_##group, line, label, show

const char *const measure_group_titles[MEASURE_N_GROUPS] = {
    "",           "What was replayed", "Idle nodes and harvest", "Training",
    "Completion", "The allocator",     "The run (this machine)",
};

const struct measure measures[] = {
    {"bfsim_version", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the bfsim version that ran the replay", AT(version, STR),
     REPORT(RUN, "bfsim", "version #", "")},
    {"mode", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the replay's semantics: default, or bftrainer (--compat)", AT(mode, STR),
     REPORT(HEAD, "", "#", "")},
    {"allocator", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the allocator (--allocator)", AT(allocator, STR),
     REPORT(HEAD, "", "#", "")},
    {"solver_params", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the MILP solver's own parameters given after its name (--solver "
     "cbc,KEY=VALUE,...), checked, each key once in the backend's order; "
     "empty for none or another allocator",
     AT(solver_params, CHARS), REPORT(ALLOCATOR, "solver parameters", "#", "")},
    {"partial", MEASURE_BOOL, "", MEASURE_DESCRIBES,
     "true when a signal stopped the replay before its end", AT(partial, INT),
     REPORT(HEAD, "", "#", "")},
    {"events", MEASURE_INT, "count", 0,
     "events processed (rows of the step log)", AT(events, SIZE),
     REPORT(REPLAYED, "window", "# events", "")},
    {"nodes", MEASURE_INT, "count", 0,
     "nodes of the trace replayed (the selected subset)", AT(trace_nodes, SIZE),
     REPORT(REPLAYED, "nodes", "#", "")},
    {"jobs_total", MEASURE_INT, "count", 0, "jobs in the job set",
     AT(jobs_total, SIZE), REPORT(REPLAYED, "jobs", "# in the set", "")},
    {"jobs_admitted", MEASURE_INT, "count", 0, "jobs admitted, the set A",
     AT(jobs_admitted, SIZE), REPORT(REPLAYED, "jobs", "# admitted", "")},
    {"jobs_finished", MEASURE_INT, "count", 0, "jobs finished, the set F",
     AT(jobs_finished, SIZE), REPORT(REPLAYED, "jobs", "# finished", "")},
    {"first_time", MEASURE_TIME, "UTC", 0, "the replay's start, t0",
     AT(first_time, I64), REPORT(REPLAYED, "window", "from #", "")},
    {"last_event_time", MEASURE_TIME, "UTC", 0,
     "the last event replayed, t_end", AT(last_event_time, I64),
     REPORT(REPLAYED, "window", "to #", "")},
    {"samples_trained", MEASURE_REAL, "samples", 0,
     "samples done over [t0, t_end] (the sum of the step log's Thr), net "
     "of the losses below",
     AT(samples_trained, DOUBLE),
     REPORT(TRAINING, "samples", "# trained", "samples")},
    {"rescale_cost", MEASURE_REAL, "samples", 0,
     "samples lost to rescaling: in the default mode rate x the seconds "
     "paused after a rescale, at the rate the job has during the pause; in "
     "the compatible mode the costs charged",
     AT(rescale_cost, DOUBLE),
     REPORT(TRAINING, "samples", "# lost to rescaling", "samples")},
    {"preempt_cost", MEASURE_REAL, "samples", 0,
     "samples lost to preemption, likewise", AT(preempt_cost, DOUBLE),
     REPORT(TRAINING, "samples", "# lost to preemption", "samples")},
    {"idle_node_seconds", MEASURE_REAL, "node-s", 0,
     "the pool size integrated over [t0, t_end]", AT(idle_node_seconds, DOUBLE),
     REPORT(HARVEST, "idle node-hours", "# offered", "node-hours")},
    {"allocated_node_seconds", MEASURE_REAL, "node-s", 0,
     "the nodes held by jobs, integrated over [t0, t_end]",
     AT(allocated_node_seconds, DOUBLE),
     REPORT(HARVEST, "idle node-hours", "# used", "node-hours")},
    {"harvest_ratio", MEASURE_REAL, "1", 0,
     "allocated_node_seconds / idle_node_seconds (0 without idle nodes)",
     AT(harvest_ratio, DOUBLE),
     REPORT(HARVEST, "idle node-hours", "harvest ratio #", "%")},
    {"rescales", MEASURE_INT, "count", 0,
     "changes of a running job's node count (from C >= Jmin: the changes "
     "that cost a rescale)",
     AT(rescales, SIZE), REPORT(TRAINING, "changes", "# rescales", "")},
    {"starts", MEASURE_INT, "count", 0,
     "changes of a job's node count from below Jmin to Jmin or more "
     "(starting is free)",
     AT(starts, SIZE), REPORT(TRAINING, "changes", "# starts", "")},
    {"preemptions", MEASURE_INT, "count", 0,
     "jobs that lost nodes to the main scheduler, counted per event",
     AT(preemptions, SIZE), REPORT(TRAINING, "changes", "# preemptions", "")},
    {"preemptions_avoided", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "the preemptions of a shadow replay that differs only by --node-pick "
     "longest-idle, less this run's (negative when the rule preempts "
     "more); 0 under longest-idle",
     AT(preemptions_avoided, I64),
     REPORT(TRAINING, "node pick", "# preemptions avoided", "")},
    {"preempt_cost_avoided", MEASURE_REAL, "samples", MEASURE_REPORT_NONZERO,
     "that shadow replay's preempt_cost less this run's, likewise",
     AT(preempt_cost_avoided, DOUBLE),
     REPORT(TRAINING, "node pick", "# samples of preemption cost avoided",
            "samples")},
    {"node_pick_mae_seconds", MEASURE_REAL, "s", MEASURE_REPORT_NONZERO,
     "with --node-pick predicted, the mean absolute error of the predicted "
     "remaining idle time of the nodes jobs took, against the trace's "
     "future (a node never taken back counts to the trace's last time + "
     "1 s); 0 with the other rules",
     AT(node_pick_mae, DOUBLE),
     REPORT(TRAINING, "node pick", "idle time predicted within # on average",
            "duration")},
    {"objective", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the objective the allocator maximised (--objective)", AT(objective, STR),
     REPORT(HEAD, "", "#", "")},
    {"tie_break", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the rule choosing among equally good allocations (--tie-break)",
     AT(tie_break, STR), REPORT(REPLAYED, "policy", "tie-break #", "")},
    {"node_pick", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "the rule choosing the nodes a job takes and gives back (--node-pick)",
     AT(node_pick, STR), REPORT(REPLAYED, "policy", "node pick #", "")},
    {"hints", MEASURE_TEXT, "", MEASURE_DESCRIBES,
     "what the allocator's horizon term knew of each node's remaining idle "
     "time (--hints): off, oracle or predicted",
     AT(hints, STR), REPORT(REPLAYED, "policy", "hints #", "")},
    {"types_aware", MEASURE_BOOL, "", MEASURE_DESCRIBES | MEASURE_OF_TYPES,
     "on a trace with node types: whether the allocator saw them "
     "(--types-aware)",
     AT(types_aware, INT),
     REPORT(REPLAYED, "node types", "seen by the allocator: #", "")},
    {"mixed_types", MEASURE_BOOL, "", MEASURE_DESCRIBES | MEASURE_OF_TYPES,
     "on a trace with node types: whether a job could hold nodes of several "
     "types at once (--mixed-types)",
     AT(mixed_types, INT),
     REPORT(REPLAYED, "node types", "jobs may span types: #", "")},
    {"idle_node_seconds_by_type", MEASURE_REAL, "node-s",
     MEASURE_OF_TYPES | MEASURE_PER_TYPE,
     "idle_node_seconds of each node type, by the type's name",
     AT(idle_ns_t, DOUBLE),
     REPORT(HARVEST, "idle node-hours by type", "#", "node-hours")},
    {"allocated_node_seconds_by_type", MEASURE_REAL, "node-s",
     MEASURE_OF_TYPES | MEASURE_PER_TYPE,
     "allocated_node_seconds of each node type", AT(alloc_ns_t, DOUBLE),
     REPORT(HARVEST, "node-hours used by type", "#", "node-hours")},
    {"harvest_ratio_by_type", MEASURE_REAL, "1",
     MEASURE_OF_TYPES | MEASURE_PER_TYPE,
     "harvest_ratio of each node type (0 for a type never idle)",
     AT(harvest_t, DOUBLE), REPORT(HARVEST, "harvest ratio by type", "#", "%")},
    {"type_moves", MEASURE_INT, "count", MEASURE_OF_TYPES,
     "changes of a job's node type decided by the allocator, a job growing "
     "on one type while it shrinks on another (each also a rescale of a "
     "running job, or a start)",
     AT(type_moves, SIZE),
     REPORT(TRAINING, "changes", "# changes of type", "")},
    {"solves", MEASURE_INT, "count", 0, "allocator calls", AT(solves, SIZE),
     REPORT(ALLOCATOR, "calls", "#", "")},
    {"solves_by_status", MEASURE_INT, "count",
     MEASURE_PER_STATUS | MEASURE_REPORT_NONZERO,
     "allocator calls by status: optimal, feasible, infeasible, "
     "no-solution, failed",
     AT(solves_by_status, SIZE), REPORT(ALLOCATOR, "calls", "#", "")},
    {"solves_dropped", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "answers found at the time limit and not applied (feasible ones, "
     "without --apply-feasible or in the compatible mode): those events "
     "keep the counts of the event before",
     AT(solves_dropped, SIZE),
     REPORT(ALLOCATOR, "calls", "# answers at the time limit not applied", "")},
    {"solve_seconds_median", MEASURE_REAL, "s", MEASURE_MACHINE,
     "the median of the calls' build + solve times, the isolated solver's "
     "overhead included (nearest rank, within 1%: a log-bucketed "
     "histogram keeps them in constant memory; even and dp read the x86 "
     "time-stamp counter, its rate measured against the monotonic clock)",
     AT(solve_s_median, DOUBLE), REPORT(RUN, "solve time", "median #", "s")},
    {"solve_seconds_p95", MEASURE_REAL, "s", MEASURE_MACHINE,
     "their 95th percentile (nearest rank, within 1%)", AT(solve_s_p95, DOUBLE),
     REPORT(RUN, "solve time", "95th percentile #", "s")},
    {"solve_seconds_max", MEASURE_REAL, "s", MEASURE_MACHINE, "their maximum",
     AT(solve_s_max, DOUBLE), REPORT(RUN, "solve time", "maximum #", "s")},
    {"solve_seconds_total", MEASURE_REAL, "s", MEASURE_MACHINE, "their sum",
     AT(solve_s_total, DOUBLE), REPORT(RUN, "solve time", "total #", "s")},
    {"jct_mean_seconds", MEASURE_REAL, "s", MEASURE_OF_FINISHED,
     "the mean over F of finished - Tsub", AT(jct_mean, DOUBLE),
     REPORT(COMPLETION, "completion time", "mean #", "duration")},
    {"jct_median_seconds", MEASURE_REAL, "s", MEASURE_OF_FINISHED,
     "its median (nearest rank)", AT(jct_median, DOUBLE),
     REPORT(COMPLETION, "completion time", "median #", "duration")},
    {"jct_p95_seconds", MEASURE_REAL, "s", MEASURE_OF_FINISHED,
     "its 95th percentile (nearest rank)", AT(jct_p95, DOUBLE),
     REPORT(COMPLETION, "completion time", "95th percentile #", "duration")},
    {"makespan_seconds", MEASURE_INT, "s", MEASURE_OF_FINISHED,
     "the last completion - the earliest Tsub in A", AT(makespan, I64),
     REPORT(COMPLETION, "makespan", "#", "duration")},
    {"fairness_jain", MEASURE_REAL, "1", 0,
     "Jain's index (sum x)^2 / (|A| sum x^2) of the node shares x_j = "
     "node-seconds of job j / (its end or t_end - its admission)",
     AT(fairness, DOUBLE),
     REPORT(COMPLETION, "fairness", "Jain's index # of the node shares",
            "index")},
    {"efficiency", MEASURE_REAL, "1", 0,
     "samples_trained / (samples_trained + rescale_cost + preempt_cost)",
     AT(efficiency, DOUBLE),
     REPORT(TRAINING, "efficiency", "# net of rescaling and preemption", "%")},
    {"samples_ideal", MEASURE_REAL, "samples", 0,
     "the integral over [t0, t_end] of sum_j P_j(n_j), n_j the nodes job j "
     "holds: what they would have trained with no pause, no cost, no stop "
     "below Jmin and no wait for an event after the job's end",
     AT(samples_ideal, DOUBLE),
     REPORT(TRAINING, "samples", "# at full rate on the nodes held",
            "samples")},
    {"node_efficiency", MEASURE_REAL, "1", 0,
     "samples_trained / samples_ideal (0 when no node was held): unlike "
     "efficiency, it also counts nodes held below Jmin, by paused jobs "
     "and by finished jobs",
     AT(node_efficiency, DOUBLE),
     REPORT(TRAINING, "efficiency", "# of full rate on the nodes held", "%")},
    {"ckpt_lost_samples", MEASURE_REAL, "samples", MEASURE_OF_CKPT,
     "samples trained and then lost to restarts: a job with checkpoints "
     "that stops goes back to its last one; part of samples_trained; "
     "absent when no job has checkpoints, as are the four measures below",
     AT(ckpt_lost_samples, DOUBLE),
     REPORT(TRAINING, "samples", "# lost to restarts", "samples")},
    {"ckpt_pause_cost", MEASURE_REAL, "samples", MEASURE_OF_CKPT,
     "samples lost in the pauses to write checkpoints and to restart from "
     "one, rate x the seconds paused, as rescale_cost",
     AT(ckpt_pause_cost, DOUBLE),
     REPORT(TRAINING, "samples", "# lost to checkpoint pauses", "samples")},
    {"ckpt_write_node_seconds", MEASURE_REAL, "node-s", MEASURE_OF_CKPT,
     "the nodes held by jobs writing a checkpoint, integrated over the "
     "write pauses",
     AT(ckpt_write_node_seconds, DOUBLE),
     REPORT(TRAINING, "checkpoints", "# node-hours writing", "node-hours")},
    {"ckpt_writes", MEASURE_INT, "count", MEASURE_OF_CKPT,
     "checkpoints written (their write begun)", AT(ckpt_writes, SIZE),
     REPORT(TRAINING, "checkpoints", "# written", "")},
    {"ckpt_restarts", MEASURE_INT, "count", MEASURE_OF_CKPT,
     "restarts from a checkpoint (starts of a stopped job that had written "
     "one)",
     AT(ckpt_restarts, SIZE),
     REPORT(TRAINING, "checkpoints", "# restarts from one", "")},
    {"belief", MEASURE_TEXT, "", MEASURE_DESCRIBES | MEASURE_OF_BELIEF,
     "what the allocator believed of the curves (--belief): a file or "
     "learn:MODEL; absent with --belief true, as are the six measures "
     "below it",
     AT(belief, STR), REPORT(ALLOCATOR, "belief", "#", "")},
    {"belief_observations", MEASURE_INT, "count", MEASURE_OF_BELIEF,
     "rates observed by the learner (0 for a belief file)",
     AT(belief_observations, SIZE),
     REPORT(ALLOCATOR, "belief", "# observations", "")},
    {"belief_error_chosen", MEASURE_REAL, "1", MEASURE_OF_BELIEF,
     "mean of |believed P(n) - P(n)| / P(n) over every decision and every "
     "active job given n >= Jmin nodes, at that n, with the belief the "
     "decision used",
     AT(belief_error_chosen, DOUBLE),
     REPORT(ALLOCATOR, "belief", "error # at the counts chosen", "%")},
    {"belief_error_final", MEASURE_REAL, "1", MEASURE_OF_BELIEF,
     "mean over the jobs that held nodes, each weighted by its "
     "node-seconds held (the job log's node_seconds), of the mean of "
     "|believed P(n) - P(n)| / P(n) over n in Jmin..Jmax (capped at N + 1) "
     "with the belief at the end; 0 when no job held a node",
     AT(belief_error_final, DOUBLE),
     REPORT(ALLOCATOR, "belief", "error # at the end", "%")},
    {"regret_samples", MEASURE_REAL, "samples", MEASURE_OF_BELIEF,
     "samples_trained of the same replay with --belief true less this "
     "run's",
     AT(regret_samples, DOUBLE),
     REPORT(TRAINING, "regret", "# samples fewer than with the true curves",
            "samples")},
    {"regret_jct_mean_seconds", MEASURE_REAL, "s",
     MEASURE_OF_BELIEF | MEASURE_OF_FINISHED,
     "this run's jct_mean_seconds less that of the same replay with "
     "--belief true",
     AT(regret_jct_mean, DOUBLE),
     REPORT(COMPLETION, "regret", "mean # longer than with the true curves",
            "duration")},
    {"regret_harvest", MEASURE_REAL, "1", MEASURE_OF_BELIEF,
     "harvest_ratio of the same replay with --belief true less this run's",
     AT(regret_harvest, DOUBLE),
     REPORT(HARVEST, "regret",
            "harvest ratio # lower than with the true curves", "%")},
    {"max_model_rows", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "rows of the largest MILP built", AT(max_rows, SIZE),
     REPORT(ALLOCATOR, "largest model", "# rows", "")},
    {"max_model_cols", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "columns of the largest MILP built", AT(max_cols, SIZE),
     REPORT(ALLOCATOR, "largest model", "# columns", "")},
    {"max_model_nnz", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "non-zeros of the largest MILP built", AT(max_nnz, SIZE),
     REPORT(ALLOCATOR, "largest model", "# non-zeros", "")},
    {"mip_solves", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "MILPs the allocator solved over all its calls (each call solves one "
     "model, then the tie-break stages'); 0 for dp and even",
     AT(mip_solves, SIZE), REPORT(ALLOCATOR, "MILPs", "# solved", "")},
    {"solver_nodes_total", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "branch-and-bound nodes after the root, summed over the MILPs (the "
     "solver's own count)",
     AT(nodes_total, SIZE),
     REPORT(ALLOCATOR, "branch-and-bound nodes", "# in all", "")},
    {"solver_nodes_max", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "the most nodes of one allocator call", AT(nodes_max, SIZE),
     REPORT(ALLOCATOR, "branch-and-bound nodes", "at most # in one call", "")},
    {"solver_iterations_total", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "simplex iterations, summed over the MILPs", AT(iters_total, SIZE),
     REPORT(ALLOCATOR, "simplex iterations", "# in all", "")},
    {"solver_iterations_max", MEASURE_INT, "count", MEASURE_REPORT_NONZERO,
     "the most simplex iterations of one allocator call", AT(iters_max, SIZE),
     REPORT(ALLOCATOR, "simplex iterations", "at most # in one call", "")},
    {"wall_seconds", MEASURE_REAL, "s", MEASURE_MACHINE,
     "the replay's wall time", AT(wall_seconds, DOUBLE),
     REPORT(RUN, "time", "# wall", "s")},
    {"events_per_second", MEASURE_REAL, "1/s", MEASURE_MACHINE,
     "events / wall_seconds", AT(events_per_second, DOUBLE),
     REPORT(RUN, "time", "#", "events/s")},
    {"peak_rss_kib", MEASURE_INT, "KiB", MEASURE_MACHINE,
     "the peak resident memory of the process", AT(peak_rss_kib, LONG),
     REPORT(RUN, "time", "peak memory #", "MiB")},
};

const size_t measures_n = sizeof measures / sizeof *measures;

/* measures_values() never drops a value: one per row, a per-status row
 * (one) giving one per status, a per-type row (three) one per type. */
_Static_assert(sizeof measures / sizeof *measures - 4 + SOLVE_N_STATUSES +
                       3 * BFS_MAX_TYPES <=
                   MEASURES_MAX_VALUES,
               "MEASURES_MAX_VALUES too small for the table");

const struct measure *measures_find(const char *key)
{
    for (size_t i = 0; i < measures_n; i++)
        if (strcmp(measures[i].key, key) == 0)
            return &measures[i];
    return NULL;
}

/* Element k of the row's field (an array for per-status rows). */
static void read_field(const struct replay_stats *st, const struct measure *m,
                       size_t k, struct summary_value *v)
{
    const char *p = (const char *)st + m->off;

    switch (m->ctype) {
    case MEASURE_C_SIZE:
        v->v.i = (int64_t)((const size_t *)(const void *)p)[k];
        break;
    case MEASURE_C_I64:
        v->v.i = ((const int64_t *)(const void *)p)[k];
        break;
    case MEASURE_C_LONG:
        v->v.i = ((const long *)(const void *)p)[k];
        break;
    case MEASURE_C_INT:
        v->v.i = ((const int *)(const void *)p)[k];
        break;
    case MEASURE_C_DOUBLE:
        v->v.d = ((const double *)(const void *)p)[k];
        break;
    case MEASURE_C_STR:
        v->v.s = ((const char *const *)(const void *)p)[k];
        break;
    case MEASURE_C_CHARS:
        v->v.s = p;
        break;
    }
}

static enum summary_type summary_type_of(enum measure_type t)
{
    switch (t) {
    case MEASURE_INT:
        return SUMMARY_INT;
    case MEASURE_REAL:
        return SUMMARY_REAL;
    case MEASURE_TIME:
        return SUMMARY_TIME;
    case MEASURE_BOOL:
        return SUMMARY_BOOL;
    case MEASURE_TEXT:
        break;
    }
    return SUMMARY_TEXT;
}

size_t measures_values(const struct replay_stats *st, struct summary_value *out)
{
    return measures_values_rows(st, out, NULL);
}

size_t measures_values_rows(const struct replay_stats *st,
                            struct summary_value *out,
                            const struct measure **rows)
{
    size_t n = 0;

    for (size_t i = 0; i < measures_n; i++) {
        const struct measure *m = &measures[i];
        size_t count = m->flags & MEASURE_PER_STATUS ? SOLVE_N_STATUSES
                       : m->flags & MEASURE_PER_TYPE ? st->n_types
                                                     : 1;
        int group = !!(m->flags & (MEASURE_PER_STATUS | MEASURE_PER_TYPE));
        if (((m->flags & MEASURE_OF_BELIEF) && !st->belief) ||
            ((m->flags & MEASURE_OF_TYPES) && !st->n_types) ||
            ((m->flags & MEASURE_OF_CKPT) && !st->ckpt))
            continue;
        for (size_t k = 0; k < count && n < MEASURES_MAX_VALUES; k++) {
            struct summary_value *v = &out[n];
            if (rows)
                rows[n] = m;
            n++;
            memset(v, 0, sizeof *v);
            v->group = group ? m->key : NULL;
            v->key = m->flags & MEASURE_PER_STATUS ? solve_status_name((int)k)
                     : m->flags & MEASURE_PER_TYPE ? st->type_names[k]
                                                   : m->key;
            v->type = summary_type_of(m->type);
            v->unit = m->unit;
            v->describes = !!(m->flags & MEASURE_DESCRIBES);
            v->machine = !!(m->flags & MEASURE_MACHINE);
            v->none = (m->flags & MEASURE_OF_FINISHED) && !st->jobs_finished;
            read_field(st, m, k, v);
        }
    }
    return n;
}

/* ---- derived measures ------------------------------------------------ */

/* The p-quantile (0..1) of sorted v by the nearest-rank method. */
static double quantile(const double *v, size_t n, double p)
{
    size_t k;

    if (n == 0)
        return 0.0;
    k = (size_t)ceil(p * (double)n);
    return v[k ? k - 1 : 0];
}

void measures_finish(struct replay_stats *st, const struct measures_input *in)
{
    size_t nf = 0, na = 0;
    double *jct = xmalloc((in->n_jobs + 1) * sizeof *jct);
    double sum = 0.0, sx = 0.0, sxx = 0.0, ideal;
    int64_t first_tsub = INT64_MAX, last_done = INT64_MIN;
    struct rusage ru;

    st->solve_s_median = qhist_quantile(in->solve_hist, 0.5);
    st->solve_s_p95 = qhist_quantile(in->solve_hist, 0.95);
    st->solve_s_max = qhist_quantile(in->solve_hist, 1.0);

    for (size_t j = 0; j < in->n_jobs; j++) {
        const struct measures_job *mj = &in->jobs[j];
        int64_t left;
        if (mj->admitted < 0)
            continue;
        if (mj->tsub < first_tsub)
            first_tsub = mj->tsub;
        /* The node share: node-seconds per second in the system. */
        left = mj->finished >= 0 ? mj->finished : st->last_event_time;
        if (left > mj->admitted) {
            double x = mj->node_seconds / (double)(left - mj->admitted);
            sx += x;
            sxx += x * x;
        }
        na++;
        if (mj->finished < 0)
            continue;
        jct[nf++] = (double)(mj->finished - mj->tsub);
        sum += jct[nf - 1];
        if (mj->finished > last_done)
            last_done = mj->finished;
    }
    if (nf > 0)
        qsort(jct, nf, sizeof *jct, bfs_cmp_double);
    st->jct_mean = nf ? sum / (double)nf : 0.0;
    st->jct_median = quantile(jct, nf, 0.5);
    st->jct_p95 = quantile(jct, nf, 0.95);
    st->makespan = nf ? last_done - first_tsub : 0;
    st->fairness = sxx > 0 ? sx * sx / ((double)na * sxx) : 0.0;
    ideal = st->samples_trained + st->rescale_cost + st->preempt_cost;
    st->efficiency = ideal > 0 ? st->samples_trained / ideal : 0.0;
    st->node_efficiency =
        st->samples_ideal > 0 ? st->samples_trained / st->samples_ideal : 0.0;
    st->harvest_ratio = st->idle_node_seconds > 0
                            ? st->allocated_node_seconds / st->idle_node_seconds
                            : 0.0;
    for (size_t t = 0; t < st->n_types; t++)
        st->harvest_t[t] =
            st->idle_ns_t[t] > 0 ? st->alloc_ns_t[t] / st->idle_ns_t[t] : 0.0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        st->peak_rss_kib = ru.ru_maxrss;
    xfree(jct);
}

void measures_set_wall(struct replay_stats *st, double wall_seconds)
{
    st->wall_seconds = wall_seconds;
    st->events_per_second =
        wall_seconds > 0 ? (double)st->events / wall_seconds : 0.0;
}
