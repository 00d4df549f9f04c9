/* nodepick.h - the node-picking rules of `--node-pick`: which free pool
 * nodes a growing job takes and which of its nodes a shrinking job gives
 * back (the map rule, tools/DESIGN.md).
 *
 * Every rule ranks the pool; growing jobs (in job order) take the free
 * nodes in rank order, shrinking jobs give theirs back in release order:
 *   longest-idle   rank = pool position (time since joining, the longest
 *                  idle first); release in the same order (the default,
 *                  the rule bfsim always had)
 *   lowest-index   rank = the node's index in the trace; release the same
 *   random:SEED    a permutation of the pool positions drawn at every
 *                  decision; release the same
 *   oracle         rank = the node's true remaining idle time, read from
 *                  the trace's future, longest first; release the
 *                  soonest to leave first
 *   predicted      rank = a prediction of it from the trace's past only
 *                  (nodepick_predict), longest first; release the
 *                  soonest first
 * Equal ranks keep pool order.
 */
#ifndef BFS_NODEPICK_H
#define BFS_NODEPICK_H

#include <stddef.h>
#include <stdint.h>

enum nodepick_kind {
    NODEPICK_LONGEST_IDLE,
    NODEPICK_LOWEST_INDEX,
    NODEPICK_RANDOM,
    NODEPICK_ORACLE,
    NODEPICK_PREDICTED,
};

struct nodepick {
    enum nodepick_kind kind;
    uint64_t seed; /* NODEPICK_RANDOM */
    char name[48]; /* canonical: "random:42" */
};

/* What the allocator knows of each node's remaining idle time
 * (--hints, tools/DESIGN.md "Hints"): nothing (every node stays for
 * Tfwd, the default), the trace's future (oracle) or the predictor
 * below (predicted). */
enum nodepick_hints { HINTS_OFF, HINTS_ORACLE, HINTS_PREDICTED };

/* Parses "off", "oracle" or "predicted" into *h.  Returns 0, or -1 (h
 * unchanged). */
int nodepick_hints_parse(const char *s, enum nodepick_hints *h);

/* The canonical name of h ("off", "oracle", "predicted"; static). */
const char *nodepick_hints_name(enum nodepick_hints h);

/* The default rule, longest-idle. */
void nodepick_default(struct nodepick *p);

/* Parses RULE (longest-idle, lowest-index, random:SEED, oracle,
 * predicted) into *p.  Returns 0, or -1 when s is none of them (p
 * unchanged). */
int nodepick_parse(const char *s, struct nodepick *p);

/* The random rule's generator state at decision evt: (SEED XOR
 * 0x6A09E667F3BCC909) + evt x 0xD1B54A32D192ED03 (mod 2^64), drawn from
 * with splitmix64 (bfs_splitmix64). */
uint64_t nodepick_random_state(uint64_t seed, uint64_t evt);

/* The predictor of the predicted rule: the distribution of the lengths of
 * the idle intervals (holes) that ended so far on the replayed nodes,
 * binned to the minute, in two Fenwick trees (counts and sums) so that
 * adding a hole and asking a question are O(log bins). */
struct nodepick_hist {
    size_t n_bins;  /* bins of 60 s; the last holds every longer hole */
    uint64_t *cnt;  /* owned; Fenwick tree of counts */
    double *sum;    /* owned; Fenwick tree of lengths, seconds */
    uint64_t total; /* holes */
    double total_sum;
};

/* Sets up an empty predictor; nodepick_hist_release frees it. */
void nodepick_hist_init(struct nodepick_hist *h);
void nodepick_hist_release(struct nodepick_hist *h);

/* Records a hole of len seconds (>= 0). */
void nodepick_hist_add(struct nodepick_hist *h, int64_t len);

/* The predicted remaining idle time of a node idle for age seconds: the
 * mean residual E[L - age | L >= age] over the holes seen, L in whole
 * minutes' bins (the holes in age's own minute count as L >= age), and
 * at least 0; with no such hole, age itself (a node idle longer than any
 * hole seen is predicted to stay as long again). */
double nodepick_predict(const struct nodepick_hist *h, int64_t age);

#endif
