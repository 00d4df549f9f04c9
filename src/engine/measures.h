/* measures.h - what a replay measures: struct replay_stats and the one
 * table that names, types, defines and locates every measure.
 *
 * The table is the single list of measures.  Its order is the order of
 * the JSON summary; every writer (the JSON summary, the HDF5 file's
 * /summary, the human report, the sweep's results table and its list of
 * machine-dependent columns) walks it through measures_values(), and a
 * test checks bfsim(1)'s MEASURES (which tools/man-measures writes from
 * it) against it.  Adding a
 * measure is one field in struct replay_stats, its computation (in the
 * replay or in measures_finish) and one row of the table.
 *
 * Two kinds of rows besides plain numbers:
 * - the per-status solve counts are one row of type MEASURE_INT with
 *   MEASURE_PER_STATUS: an array over enum solve_status, written as the
 *   group "solves_by_status" (a JSON object, columns
 *   "solves_by_status.optimal", ...; HDF5 attributes of the same names);
 * - the run's description (bfsim_version, mode, allocator, partial,
 *   objective) are rows with MEASURE_DESCRIBES, kept in the table so that
 *   the JSON summary and the sweep table list them in their place; the
 *   HDF5 file holds them as root attributes (with the options), not in
 *   /summary.
 */
#ifndef BFS_ENGINE_MEASURES_H
#define BFS_ENGINE_MEASURES_H

#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"
#include "base/qhist.h"
#include "formats/summary.h"

/* The most node types a replay takes (tools/DESIGN.md, "Node types"),
 * and the longest name of one it keeps, with its '\0'. */
#define BFS_MAX_TYPES 16
#define BFS_TYPE_NAME_MAX 64

/* What a replay measured.  Node-seconds and samples are sums over the
 * replayed window [t0, last event]. */
struct replay_stats {
    /* The run's description: static strings, or borrowed from the
     * replay's options (which must outlive any use of them). */
    const char *version, *mode, *allocator, *objective;
    const char *tie_break; /* the rule's name, borrowed from the options */
    const char *node_pick; /* likewise */
    const char *hints;     /* --hints: "off", "oracle", "predicted" */
    /* The milp allocator's solver parameters in canonical form
     * (alloc_solver_params), "" for none or another allocator. */
    char solver_params[512];
    double node_pick_mae; /* s: predicted rule's mean absolute error */
    int partial;          /* stopped by *stop before the trace's end */
    size_t events;        /* events processed (rows of the step log) */
    size_t trace_nodes;   /* nodes in the selected subset */
    size_t jobs_total;    /* jobs in the job set */
    size_t jobs_admitted;
    size_t jobs_finished;
    int64_t first_time; /* t0 */
    int64_t last_event_time;
    /* The job set's first and last submission time, after --align-jobs
     * (0 and 0 for an empty set); not a measure: for the warnings of
     * `bfsim replay` (replay_warnings). */
    int64_t tsub_first, tsub_last;
    double samples_trained;        /* sum of the step log's Thr */
    double rescale_cost;           /* samples lost to rescaling, charged */
    double preempt_cost;           /* samples lost to preemption */
    double idle_node_seconds;      /* pool size integrated over time */
    double allocated_node_seconds; /* nodes in use integrated over time */
    double harvest_ratio;          /* allocated / idle node-seconds */
    /* Node types (0 for a trace without any): their names, whether the
     * allocator saw them, the changes of type, and per type the idle and
     * allocated node-seconds and harvest. */
    size_t n_types;
    char type_names[BFS_MAX_TYPES][BFS_TYPE_NAME_MAX];
    int types_aware;
    int mixed_types; /* the decision let jobs span types (--mixed-types) */
    size_t type_moves;
    double idle_ns_t[BFS_MAX_TYPES], alloc_ns_t[BFS_MAX_TYPES];
    double harvest_t[BFS_MAX_TYPES];
    size_t rescales;    /* changes of a running job's count (C >= Jmin) */
    size_t starts;      /* changes from below Jmin to a running count */
    size_t preemptions; /* jobs that lost nodes to the scheduler */
    /* Against a shadow replay with --node-pick longest-idle and every
     * other option the same (0 when the rule is longest-idle): its
     * preemptions and preemption cost less this run's. */
    int64_t preemptions_avoided;
    double preempt_cost_avoided;
    size_t solves; /* allocator calls */
    size_t solves_by_status[SOLVE_N_STATUSES];
    /* calls not proven optimal, the first one's event and time, and the
     * answers found at a limit that were not applied */
    size_t solves_unproven, unproven_first_evt;
    int64_t unproven_first_time;
    size_t solves_dropped;
    double solve_s_median, solve_s_p95, solve_s_max, solve_s_total;
    size_t max_rows, max_cols, max_nnz;
    size_t mip_solves;             /* MILPs solved over all calls */
    size_t nodes_total, nodes_max; /* B&B nodes: sum, largest call's */
    size_t iters_total, iters_max; /* simplex iterations, likewise */
    /* Job completion times (finished - Tsub, seconds) of finished jobs. */
    double jct_mean, jct_median, jct_p95;
    int64_t makespan;  /* last completion - first admitted job's Tsub */
    double fairness;   /* Jain's index of the admitted jobs' node shares */
    double efficiency; /* samples / (samples + rescale + preempt cost) */
    /* What the nodes held would have trained at full rate: the integral
     * over time of sum_j P_j(nodes held by j), accumulated by the replay
     * wherever it accumulates a job's node-seconds. */
    double samples_ideal;
    double node_efficiency; /* samples_trained / samples_ideal */
    /* Checkpoints (tools/DESIGN.md, "Checkpoints"): whether some job of
     * the set has them (the MEASURE_OF_CKPT rows are left out of every
     * output otherwise); the samples trained and then lost to restarts
     * from a checkpoint, those lost in the pauses to write and to restart
     * from one, the node-seconds held during write pauses, the
     * checkpoints written and the restarts from one. */
    int ckpt;
    double ckpt_lost_samples, ckpt_pause_cost, ckpt_write_node_seconds;
    size_t ckpt_writes, ckpt_restarts;
    /* --belief (tools/DESIGN.md, "Beliefs"): its name, NULL for true (the
     * MEASURE_OF_BELIEF rows are then left out of every output). */
    const char *belief;
    size_t belief_observations; /* learned: observations made */
    double belief_error_chosen; /* MAPE of P at the counts chosen */
    double belief_error_final;  /* MAPE over Jmin..Jmax at the end,
                                   weighted by node-seconds */
    /* Against a shadow replay with --belief true: its value less this
     * run's (samples, harvest) or this run's less its (completion). */
    double regret_samples, regret_jct_mean, regret_harvest;
    double wall_seconds;
    double events_per_second;
    long peak_rss_kib; /* peak resident memory of the process */
};

/* The type of a measure: how writers show it. */
enum measure_type {
    MEASURE_INT,  /* a count or whole seconds */
    MEASURE_REAL, /* a double */
    MEASURE_TIME, /* Unix seconds, shown as UTC date and time */
    MEASURE_BOOL, /* a flag */
    MEASURE_TEXT, /* a name */
};

/* Flags of a measure. */
enum {
    MEASURE_MACHINE = 1,     /* measures the machine: differs between runs */
    MEASURE_DESCRIBES = 2,   /* describes the run (HDF5: root attribute) */
    MEASURE_PER_STATUS = 4,  /* an array over enum solve_status */
    MEASURE_OF_FINISHED = 8, /* over finished jobs: none when none did */
    MEASURE_OF_BELIEF = 16,  /* only with a --belief other than true: left
                                out of every output otherwise */
    MEASURE_OF_TYPES = 32,   /* only on a trace with node types: left out
                                of every output otherwise */
    MEASURE_PER_TYPE = 64,   /* an array over the node types, named by
                                type_names (with MEASURE_OF_TYPES) */
    MEASURE_REPORT_NONZERO = 128, /* the human report leaves the value out
                                     when it is 0 (measures that apply to
                                     some options only, and the statuses
                                     no call had) */
    MEASURE_OF_CKPT = 256,        /* only when some job has checkpoints:
                                     left out of every output otherwise */
};

/* How the value is stored in struct replay_stats. */
enum measure_ctype {
    MEASURE_C_SIZE,
    MEASURE_C_I64,
    MEASURE_C_LONG,
    MEASURE_C_INT,
    MEASURE_C_DOUBLE,
    MEASURE_C_STR,  /* a const char * */
    MEASURE_C_CHARS /* a char array held in struct replay_stats */
};

/* The groups of the human report (`bfsim replay` without -q), in its
 * order.  MEASURE_G_HEAD rows are in the report's first line, which
 * names them itself. */
enum measure_group {
    MEASURE_G_HEAD,
    MEASURE_G_REPLAYED,   /* what was replayed */
    MEASURE_G_HARVEST,    /* idle nodes and harvest */
    MEASURE_G_TRAINING,   /* training */
    MEASURE_G_COMPLETION, /* completion */
    MEASURE_G_ALLOCATOR,  /* the allocator */
    MEASURE_G_RUN,        /* the run (the machine's measures) */
    MEASURE_N_GROUPS
};

/* The report's heading of each group ("" for MEASURE_G_HEAD). */
extern const char *const measure_group_titles[MEASURE_N_GROUPS];

/* One row of the table.  The last four fields are the human report's:
 * within its group, the rows with the same line are written on one
 * line "  LINE: PART, PART, ...", in table order from the first one's
 * place; a part is the label with '#' replaced by the value in the
 * display unit (an array row's parts are "NAME VALUE", one per status or
 * node type).  Display units: "node-hours" (of node-s, the number
 * alone: the line or label names the unit), "%" (of a ratio), "duration"
 * (of s: seconds under 2 minutes, minutes under 2 hours, else hours),
 * "s", "MiB" (of KiB), "samples" (the number alone, in millions or
 * billions from a million), "events/s", "index" (three decimals) and ""
 * (the value as it is; a time in UTC; a flag as yes or no).  replay_out.c,
 * the one writer using them, defines them. */
struct measure {
    const char *key; /* name in every output */
    enum measure_type type;
    const char *unit; /* "" for flags and names; "1" for a ratio */
    unsigned flags;   /* MEASURE_* */
    const char *def;  /* one-line definition (bfsim(1) shows it) */
    size_t off;       /* offsetof(struct replay_stats, field) */
    enum measure_ctype ctype;
    enum measure_group group; /* the report's group */
    const char *line;         /* the report's line within it */
    const char *label;        /* the words around the value, '#' */
    const char *show;         /* the display unit */
};

/* The table, in output order, and its length. */
extern const struct measure measures[];
extern const size_t measures_n;

/* The number of values measures_values() gives (a per-status row gives
 * one value per status). */
#define MEASURES_MAX_VALUES 160

/* The values of st, in table order, into out (room for
 * MEASURES_MAX_VALUES), less the MEASURE_OF_BELIEF rows when st->belief
 * is NULL, the MEASURE_OF_TYPES rows when st->n_types is 0 and the
 * MEASURE_OF_CKPT rows when st->ckpt is 0; returns
 * their number.  Strings in out are
 * borrowed from the table, from solve_status_name() and from st. */
size_t measures_values(const struct replay_stats *st,
                       struct summary_value *out);

/* measures_values(), and the row of each value into rows (the same
 * room): a per-status or per-type row's values share it. */
size_t measures_values_rows(const struct replay_stats *st,
                            struct summary_value *out,
                            const struct measure **rows);

/* The measure whose key is key (a per-status row answers to
 * "solves_by_status"), or NULL. */
const struct measure *measures_find(const char *key);

/* One job's part of the derived measures. */
struct measures_job {
    int64_t tsub;        /* submission, Unix seconds */
    int64_t admitted;    /* admission, -1 = never */
    int64_t finished;    /* completion, -1 = never */
    double node_seconds; /* nodes held, integrated over time */
};

/* What the replay hands measures_finish() besides st. */
struct measures_input {
    /* borrowed: the allocator calls' build + solve seconds */
    const struct qhist *solve_hist;
    const struct measures_job *jobs; /* borrowed; the job set, in order */
    size_t n_jobs;
};

/* Computes the derived measures of st from what the replay accumulated:
 * solve-time quantiles, completion times, makespan, fairness,
 * efficiency, harvest ratio, peak memory.  The description fields are
 * the caller's to set. */
void measures_finish(struct replay_stats *st, const struct measures_input *in);

/* Records the replay's wall time and the speed derived from it. */
void measures_set_wall(struct replay_stats *st, double wall_seconds);

#endif
