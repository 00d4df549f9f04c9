/* tiebreak.h - the tie-break rules of `--tie-break`: which of the
 * equally good allocations the exact allocators return.
 *
 * The allocators' rule (alloc/objective.h) ends with "the
 * lexicographically largest count vector in job order".  Its other keys
 * (the objective, the jobs keeping their count, the nodes in use) are
 * sums over the jobs and do not depend on their order, so a rule that
 * favours other jobs is applied by handing the allocator the jobs in the
 * rule's order (allocator_solve_order): the job the rule puts first gets
 * the most nodes among the tied optima, and every exact allocator still
 * returns the same counts.  This module computes that order.
 */
#ifndef BFS_TIEBREAK_H
#define BFS_TIEBREAK_H

#include <stddef.h>
#include <stdint.h>

enum tiebreak_kind {
    TIEBREAK_FIRST_ADMITTED, /* admission order (the default) */
    TIEBREAK_LEAST_REMAINING,
    TIEBREAK_MOST_REMAINING,
    TIEBREAK_FEWEST_NODE_SECONDS,
    TIEBREAK_RANDOM,
};

struct tiebreak {
    enum tiebreak_kind kind;
    uint64_t seed; /* TIEBREAK_RANDOM */
    char name[48]; /* as given, canonical: "random:42" */
};

/* What the rules read of each active job, in admission order. */
struct tiebreak_job {
    double remaining;    /* samples left: Pmax - samples done */
    double node_seconds; /* node-seconds held so far */
};

/* The default rule, first-admitted. */
void tiebreak_default(struct tiebreak *t);

/* Parses RULE (first-admitted, least-remaining, most-remaining,
 * fewest-node-seconds, random:SEED with SEED a decimal 0..2^64-1) into
 * *t.  Returns 0, or -1 when s is none of them (t unchanged). */
int tiebreak_parse(const char *s, struct tiebreak *t);

/* Reads "random:SEED" (SEED a decimal 64-bit number) into *seed, the
 * form both --tie-break and --node-pick take.  Returns 0, or -1 for
 * anything else, *seed untouched. */
int tiebreak_parse_seed(const char *s, uint64_t *seed);

/* Writes the rule's order of n active jobs (jobs[] in admission order)
 * for event evt into order[]: order[k] is the admission index of the
 * job the rule ranks k-th.  first-admitted: 0, 1, ..., n-1.
 * least-remaining / most-remaining: by remaining ascending / descending,
 * fewest-node-seconds: by node_seconds ascending, each stable (equal keys
 * keep admission order).  random:SEED: a Fisher-Yates shuffle of 0..n-1
 * drawn from splitmix64 with the state SEED + evt * 0xD1B54A32D192ED03
 * (mod 2^64): for k = n-1 down to 1, swap order[k] with order[x mod
 * (k+1)], x the next draw. */
void tiebreak_order(const struct tiebreak *t, const struct tiebreak_job *jobs,
                    size_t n, uint64_t evt, size_t *order);

#endif
