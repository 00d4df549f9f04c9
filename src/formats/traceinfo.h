/* traceinfo.h - statistics of a native trace (what `bfsim info` prints).
 *
 * One streaming pass over a trace (trace.h) computes, for a time window
 * and a node subset: the span, event and change counts, idle node-time,
 * the time-weighted distribution of the idle pool's size, the nodes ever
 * idle, and the exact length distribution of idle intervals ("holes") and
 * of busy intervals.  Memory: O(nodes) plus the length histograms (see
 * struct traceinfo_hist), never O(events).  A typed trace (trace.h) also
 * gets, per type, the subset's nodes and their idle node-seconds.
 */
#ifndef BFS_TRACEINFO_H
#define BFS_TRACEINFO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/error.h"

/* ---- exact histogram of interval lengths ------------------------------ */

/* Lengths below this many seconds (2^20 s, 12.1 days) are counted per
 * second in a dense array grown up to the longest length seen (at most
 * 8 MiB); longer ones are kept one by one (8 bytes each; a node has at
 * most span / 12.1 d of them).  Quantiles are therefore exact on integer
 * seconds. */
#define TRACEINFO_DENSE_MAX ((int64_t)1 << 20)
#define TRACEINFO_LOG_BINS 64

struct traceinfo_hist {
    uint64_t *dense; /* owned; dense[L] = intervals of length L */
    size_t dense_len;
    int64_t *big; /* owned; lengths >= TRACEINFO_DENSE_MAX */
    size_t n_big, cap_big;
    int big_sorted;
    uint64_t count;   /* intervals */
    int64_t sum;      /* their total length, seconds */
    int64_t min, max; /* 0 when count == 0 */
    /* Log-scale bins: bin b holds lengths in [2^b, 2^(b+1)). */
    uint64_t bin_count[TRACEINFO_LOG_BINS];
    int64_t bin_sum[TRACEINFO_LOG_BINS];
};

/* Adds one interval of len >= 1 seconds (shorter ones are ignored). */
void traceinfo_hist_add(struct traceinfo_hist *h, int64_t len);

/* The k-th smallest length, 1 <= k <= count (sorts the long lengths on
 * first use, hence not const). */
int64_t traceinfo_hist_kth(struct traceinfo_hist *h, uint64_t k);

/* The p-th percentile (0 < p <= 100) by the nearest-rank rule: the
 * smallest length L such that at least ceil(p/100 * count) intervals are
 * no longer than L.  0 when the histogram is empty. */
int64_t traceinfo_hist_percentile(struct traceinfo_hist *h, double p);

/* Total length of the intervals shorter than limit seconds. */
int64_t traceinfo_hist_sum_below(const struct traceinfo_hist *h, int64_t limit);

/* The distinct lengths in ascending order and, for each, the number of
 * intervals no longer than it: two malloc'd arrays of the returned size
 * (the caller frees them; NULL and 0 when empty). */
size_t traceinfo_hist_cdf(struct traceinfo_hist *h, int64_t **values,
                          uint64_t **cum);

/* Frees what h owns and empties it. */
void traceinfo_hist_release(struct traceinfo_hist *h);

/* ---- trace statistics ------------------------------------------------- */

struct traceinfo_opts {
    int64_t start; /* window start; INT64_MIN: the first event */
    int64_t end;   /* window end; INT64_MAX: the last event */
    size_t skip;   /* nodes skipped at the front of the node order */
    size_t count;  /* nodes kept after those; 0: all the rest */
};

/* Fills o with the whole trace and every node. */
void traceinfo_opts_init(struct traceinfo_opts *o);

/* Percentiles reported for the pool size and for interval lengths. */
#define TRACEINFO_N_PCT 5
extern const double traceinfo_pct[TRACEINFO_N_PCT]; /* 5 25 50 75 95 */

/* Thresholds (minutes) of the "share of idle time in short holes". */
#define TRACEINFO_N_SHORT 6
extern const int traceinfo_short_min[TRACEINFO_N_SHORT]; /* 2 .. 120 */

struct traceinfo {
    char *path;         /* owned */
    size_t nodes_total; /* nodes in the trace */
    size_t skip, nodes; /* the subset: nodes skip .. skip + nodes - 1 */
    int64_t trace_first, trace_last; /* first and last event of the trace
                                        (trace_last: of the part read) */
    int64_t start, end;              /* the window covered: the options' window
                                        clipped to the trace's first and last events */
    size_t events;             /* trace events with start <= time <= end */
    size_t events_changed;     /* ... listing a change of a subset node */
    uint64_t joins, leaves;    /* subset changes in those events */
    int64_t idle_node_s;       /* pool size integrated over the window */
    double pool_mean;          /* idle_node_s / (end - start) */
    size_t pool_min, pool_max; /* over the window's intervals */
    size_t pool_pct[TRACEINFO_N_PCT]; /* time-weighted, nearest rank */
    size_t pool_start, pool_end;      /* pool at start and at end */
    size_t nodes_ever_idle;           /* subset nodes idle at some instant */
    /* Idle intervals within the window, those open at its ends cut there
     * (zero-length pieces dropped). */
    struct traceinfo_hist holes;
    uint64_t holes_cut_start, holes_cut_end;
    int64_t hole_pct[TRACEINFO_N_PCT];
    int64_t hole_p99;
    double hole_short_share[TRACEINFO_N_SHORT]; /* of idle node-time */
    /* Busy intervals (from a node's leaving to its next joining) that lie
     * wholly within the window. */
    struct traceinfo_hist busy;
    int64_t busy_pct[TRACEINFO_N_PCT];
    /* Node types, in the trace's numbering; all 0 / NULL when untyped.
     * The idle node-seconds of the types add up to idle_node_s. */
    size_t n_types;
    char **type_names;         /* owned */
    size_t *type_nodes;        /* owned: subset nodes of each type */
    int64_t *type_idle_node_s; /* owned: their idle node-seconds */
};

/* Computes the statistics of the trace at path.  Returns 0 or a negative
 * code (a bad trace, a window outside the trace, a node subset larger
 * than the trace: reported in e).  *out is written only on success and
 * must be released. */
int traceinfo_compute(const char *path, const struct traceinfo_opts *o,
                      struct traceinfo *out, struct bfs_error *e);

/* The statistics as a JSON object (a new reference; the keys are listed
 * in traceinfo.c). */
json_t *traceinfo_json(const struct traceinfo *ti);

void traceinfo_release(struct traceinfo *ti);

#endif
