/* qhist.h - quantiles of a stream of values in constant memory.
 *
 * A log-bucketed histogram (the idea of HdrHistogram and of DDSketch):
 * a value v in [QHIST_MIN, QHIST_MAX] is counted in bucket
 * floor(log(v / QHIST_MIN) / log(QHIST_GROWTH)), whose bounds differ by
 * the factor QHIST_GROWTH; a quantile is read as the geometric middle of
 * the bucket that holds its rank, so that it is within
 * sqrt(QHIST_GROWTH) - 1 < QHIST_REL_ERR of the value of that rank,
 * relatively.  Values below QHIST_MIN (0 included) count as 0, values
 * above QHIST_MAX as QHIST_MAX; the smallest and largest values are kept
 * exactly, and every quantile is clamped to them.  The memory is the
 * same whatever the number of values: about 15 KiB.
 *
 * bfsim keeps the allocator calls' times this way (a replay may make
 * billions of calls), with times from a nanosecond to eleven days.
 */
#ifndef BFS_QHIST_H
#define BFS_QHIST_H

#include <stddef.h>
#include <stdint.h>

#define QHIST_MIN 1e-9
#define QHIST_MAX 1e6
#define QHIST_GROWTH 1.02
/* sqrt(1.02) - 1 = 0.00995 */
#define QHIST_REL_ERR 0.01
/* ceil(log(QHIST_MAX / QHIST_MIN) / log(QHIST_GROWTH)) = 1745 */
#define QHIST_BUCKETS 1745
/* Entries of the memo of values' buckets (a power of two) */
#define QHIST_MEMO 64

struct qhist {
    uint64_t n;                    /* values counted */
    uint64_t zero;                 /* values below QHIST_MIN */
    uint64_t count[QHIST_BUCKETS]; /* values of each bucket */
    double min, max;               /* exact; 0 while n is 0 */
    /* The buckets of values seen (memo_v[i] >= QHIST_MIN, or 0: none),
     * each in the entry its bits hash to, so that a value seen again
     * costs no logarithm: the allocator calls' times, in ticks of a
     * clock, take few distinct values.  The same bucket as computed. */
    double memo_v[QHIST_MEMO];
    uint32_t memo_b[QHIST_MEMO];
};

/* An empty histogram. */
void qhist_init(struct qhist *h);

/* Counts v (a NaN or a negative value counts as 0). */
void qhist_add(struct qhist *h, double v);

/* The value of rank ceil(p n) (nearest rank, 1-based; rank 1 for p = 0)
 * within QHIST_REL_ERR, clamped to [min, max]; the exact max for p = 1;
 * 0 when nothing was counted.  0 <= p <= 1. */
double qhist_quantile(const struct qhist *h, double p);

#endif
