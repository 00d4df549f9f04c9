/* nodepick.c - see nodepick.h.
 *
 * The rules themselves are applied by the map rule (pool.c), which
 * ranks the pool with them; this file parses them and holds the
 * predictor.  The predictor bins hole lengths to the minute up to
 * NODEPICK_BINS minutes (45 days: longer than any trace's hole so far
 * falls into the last bin, counted with its true length).
 */
#include "config.h"

#include "engine/nodepick.h"

#include "base/util.h"
#include "engine/tiebreak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODEPICK_BINS 65536

static const char *const names[] = {
    [NODEPICK_LONGEST_IDLE] = "longest-idle",
    [NODEPICK_LOWEST_INDEX] = "lowest-index",
    [NODEPICK_ORACLE] = "oracle",
    [NODEPICK_PREDICTED] = "predicted",
};

void nodepick_default(struct nodepick *p)
{
    memset(p, 0, sizeof *p);
    p->kind = NODEPICK_LONGEST_IDLE;
    snprintf(p->name, sizeof p->name, "%s", names[p->kind]);
}

int nodepick_parse(const char *s, struct nodepick *p)
{
    uint64_t seed;

    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (names[k] && strcmp(s, names[k]) == 0) {
            nodepick_default(p);
            p->kind = (enum nodepick_kind)k;
            snprintf(p->name, sizeof p->name, "%s", names[k]);
            return 0;
        }
    if (tiebreak_parse_seed(s, &seed) == 0) {
        nodepick_default(p);
        p->kind = NODEPICK_RANDOM;
        p->seed = seed;
        snprintf(p->name, sizeof p->name, "random:%llu",
                 (unsigned long long)seed);
        return 0;
    }
    return -1;
}

static const char *const hint_names[] = {
    [HINTS_OFF] = "off",
    [HINTS_ORACLE] = "oracle",
    [HINTS_PREDICTED] = "predicted",
};

int nodepick_hints_parse(const char *s, enum nodepick_hints *h)
{
    for (size_t k = 0; k < sizeof hint_names / sizeof *hint_names; k++)
        if (strcmp(s, hint_names[k]) == 0) {
            *h = (enum nodepick_hints)k;
            return 0;
        }
    return -1;
}

const char *nodepick_hints_name(enum nodepick_hints h)
{
    return hint_names[h];
}

uint64_t nodepick_random_state(uint64_t seed, uint64_t evt)
{
    return (seed ^ 0x6A09E667F3BCC909ull) + evt * 0xD1B54A32D192ED03ull;
}

void nodepick_hist_init(struct nodepick_hist *h)
{
    memset(h, 0, sizeof *h);
    h->n_bins = NODEPICK_BINS;
    h->cnt = xcalloc(h->n_bins + 1, sizeof *h->cnt);
    h->sum = xcalloc(h->n_bins + 1, sizeof *h->sum);
}

void nodepick_hist_release(struct nodepick_hist *h)
{
    xfree(h->cnt);
    xfree(h->sum);
    memset(h, 0, sizeof *h);
}

static size_t bin_of(const struct nodepick_hist *h, int64_t len)
{
    int64_t b = len < 0 ? 0 : len / 60;
    return b >= (int64_t)h->n_bins ? h->n_bins - 1 : (size_t)b;
}

void nodepick_hist_add(struct nodepick_hist *h, int64_t len)
{
    if (len < 0)
        len = 0;
    for (size_t i = bin_of(h, len) + 1; i <= h->n_bins; i += i & (~i + 1)) {
        h->cnt[i]++;
        h->sum[i] += (double)len;
    }
    h->total++;
    h->total_sum += (double)len;
}

double nodepick_predict(const struct nodepick_hist *h, int64_t age)
{
    uint64_t below = 0;
    double below_sum = 0.0, mean;

    /* the holes in the bins below age's: the prefix [0, bin) */
    for (size_t i = bin_of(h, age); i > 0; i -= i & (~i + 1)) {
        below += h->cnt[i];
        below_sum += h->sum[i];
    }
    if (h->total == below)
        return (double)age;
    mean = (h->total_sum - below_sum) / (double)(h->total - below);
    return mean > (double)age ? mean - (double)age : 0.0;
}
