/* gentrace.h - synthetic node traces.
 *
 * Every node alternates between idle intervals ("holes") and busy ones,
 * independently of the others, with lengths (integer seconds >= 1) drawn
 * from one distribution for holes and one for busy intervals:
 *
 *   exp:MEAN             exponential with mean MEAN (seconds, or with a
 *                        suffix s, m, h or d)
 *   lognormal:MU,SIGMA   e^N(MU, SIGMA^2) seconds (median e^MU)
 *   empirical:TRACE      resampled from the complete holes (or complete
 *                        busy intervals) of an existing native trace
 *
 * The output is a native trace (trace.h) streamed to disk; memory is
 * O(nodes), whatever the duration.  The same options and seed give the
 * same bytes.
 *
 * Node types (optional, "NAME:SHARE,..."): the shares are weights,
 * divided by their sum, so "A100:3,V100:1" and "A100:0.75,V100:0.25" are
 * the same.  Type k gets a count of nodes by the largest-remainder rule
 * (floor(nodes x share_k), then one more node to each of the largest
 * remainders, the type listed first on a tie), so the counts are exact
 * and depend on nothing else; which nodes get which type is a seeded
 * shuffle, from its own stream (seed and a constant through splitmix64,
 * bfs_shuffle), so a typed trace has the same events as the untyped one
 * of the same seed.
 */
#ifndef BFS_GENTRACE_H
#define BFS_GENTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

enum gentrace_kind { GENTRACE_EXP, GENTRACE_LOGNORMAL, GENTRACE_EMPIRICAL };

/* A length distribution. */
struct gentrace_dist {
    enum gentrace_kind kind;
    double mean;      /* exp: the mean, seconds */
    double mu, sigma; /* lognormal */
    size_t n;         /* empirical: distinct lengths */
    int64_t *values;  /* owned; ascending */
    uint64_t *cum;    /* owned; intervals no longer than values[i] */
    char *spec;       /* owned; the text it was parsed from */
};

/* Parses a distribution (forms above).  For empirical:TRACE, busy
 * selects the trace's busy intervals instead of its holes; only complete
 * intervals count (not the busy time before a node's first join, nor a
 * hole still open at the end).  Returns 0 or a negative code (reported in
 * e); *d is written only on success and must be released. */
int gentrace_dist_parse(const char *spec, int busy, struct gentrace_dist *d,
                        struct bfs_error *e);

/* The distribution's mean, seconds (before rounding to integers). */
double gentrace_dist_mean(const struct gentrace_dist *d);

void gentrace_dist_release(struct gentrace_dist *d);

/* Synthetic node types. */
struct gentrace_types {
    size_t n;
    char **names;   /* owned, each a valid type name (trace.h) */
    double *shares; /* owned, > 0, summing to 1 */
};

/* Parses "NAME:SHARE,..." (names unique and free of blanks, ':' and ',';
 * shares positive numbers, normalised).  Returns 0 or BFS_EUSAGE
 * (reported in e); *t, written only on success, must be released. */
int gentrace_types_parse(const char *spec, struct gentrace_types *t,
                         struct bfs_error *e);

/* The number of nodes of each type (counts[k] for type k, summing to
 * nodes), by the largest-remainder rule above. */
void gentrace_types_counts(const struct gentrace_types *t, size_t nodes,
                           size_t *counts);

void gentrace_types_release(struct gentrace_types *t);

struct gentrace_opts {
    size_t nodes;     /* >= 1; named n0, n1, ... (zero-padded) */
    int64_t start;    /* time of the first event, Unix seconds */
    int64_t duration; /* >= 1; the last event is at start + duration */
    uint64_t seed;    /* PRNG seed */
    const struct gentrace_dist *idle; /* borrowed: hole lengths */
    const struct gentrace_dist *busy; /* borrowed: busy lengths */
    const char *const *comments; /* borrowed, NULL-terminated, may be NULL */
    int gzip_level; /* 1..9 for a ".gz" path; 0: the writer's default */
};

struct gentrace_stats {
    size_t events;
    uint64_t joins, leaves;
    size_t idle_at_start;
};

/* Writes a synthetic trace to path (".gz": compressed; atomic).  Nodes
 * start in their stationary state: each node's process runs from
 * start - 20 * (mean hole + mean busy), busy, and the first event (at
 * start) lists the nodes idle then.  Events follow at every time some
 * node changes, in (time, node) order, and a last event (possibly with
 * no change) marks start + duration.  Node i's timeline depends only on
 * the seed, i and the distributions, not on the number of nodes.
 * Returns 0 or a negative code (reported in e); st, if not NULL, is
 * filled on success. */
int gentrace_write(const char *path, const struct gentrace_opts *o,
                   struct gentrace_stats *st, struct bfs_error *e);

/* gentrace_write with node types drawn by types (borrowed; NULL:
 * untyped, the same as gentrace_write): the same events, and each node
 * line names its type. */
int gentrace_write_typed(const char *path, const struct gentrace_opts *o,
                         const struct gentrace_types *types,
                         struct gentrace_stats *st, struct bfs_error *e);

#endif
