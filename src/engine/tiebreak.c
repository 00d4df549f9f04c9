/* tiebreak.c - see tiebreak.h.
 *
 * The orders are stable insertion sorts over the admission order (a few
 * jobs per event; n is --max-jobs), so equal keys always keep admission
 * order and the result depends on nothing but the keys.  The random rule
 * draws a fresh permutation at every event from a generator written here,
 * so a run is the same bit for bit on every machine and C library.
 */
#include "config.h"

#include "engine/tiebreak.h"

#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
    [TIEBREAK_FIRST_ADMITTED] = "first-admitted",
    [TIEBREAK_LEAST_REMAINING] = "least-remaining",
    [TIEBREAK_MOST_REMAINING] = "most-remaining",
    [TIEBREAK_FEWEST_NODE_SECONDS] = "fewest-node-seconds",
};

void tiebreak_default(struct tiebreak *t)
{
    memset(t, 0, sizeof *t);
    t->kind = TIEBREAK_FIRST_ADMITTED;
    snprintf(t->name, sizeof t->name, "%s", names[t->kind]);
}

int tiebreak_parse_seed(const char *s, uint64_t *seed)
{
    const char *d = s + 7;
    char *end;
    unsigned long long v;

    if (strncmp(s, "random:", 7) != 0 || *d < '0' || *d > '9')
        return -1;
    errno = 0;
    v = strtoull(d, &end, 10);
    if (errno || *end)
        return -1;
    *seed = (uint64_t)v;
    return 0;
}

int tiebreak_parse(const char *s, struct tiebreak *t)
{
    uint64_t seed;

    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strcmp(s, names[k]) == 0) {
            tiebreak_default(t);
            t->kind = (enum tiebreak_kind)k;
            snprintf(t->name, sizeof t->name, "%s", names[k]);
            return 0;
        }
    if (tiebreak_parse_seed(s, &seed) == 0) {
        tiebreak_default(t);
        t->kind = TIEBREAK_RANDOM;
        t->seed = seed;
        snprintf(t->name, sizeof t->name, "random:%llu",
                 (unsigned long long)seed);
        return 0;
    }
    return -1;
}

/* The key a rule sorts by, ascending. */
static double key(const struct tiebreak *t, const struct tiebreak_job *jb)
{
    switch (t->kind) {
    case TIEBREAK_LEAST_REMAINING:
        return jb->remaining;
    case TIEBREAK_MOST_REMAINING:
        return -jb->remaining;
    case TIEBREAK_FEWEST_NODE_SECONDS:
        return jb->node_seconds;
    default:
        return 0.0;
    }
}

void tiebreak_order(const struct tiebreak *t, const struct tiebreak_job *jobs,
                    size_t n, uint64_t evt, size_t *order)
{
    for (size_t k = 0; k < n; k++)
        order[k] = k;
    if (t->kind == TIEBREAK_RANDOM) {
        uint64_t st = t->seed + evt * 0xD1B54A32D192ED03ull;
        bfs_shuffle(order, n, &st);
        return;
    }
    if (t->kind == TIEBREAK_FIRST_ADMITTED)
        return;
    /* Stable insertion sort: a job moves before those with a larger key
     * only. */
    for (size_t k = 1; k < n; k++) {
        size_t x = order[k], i = k;
        double kx = key(t, &jobs[x]);
        while (i > 0 && key(t, &jobs[order[i - 1]]) > kx) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = x;
    }
}
