/* qhist.c - streaming quantiles in a log-bucketed histogram (qhist.h). */
#include "config.h"

#include "base/qhist.h"

#include <math.h>
#include <string.h>

void qhist_init(struct qhist *h)
{
    memset(h, 0, sizeof *h);
}

void qhist_add(struct qhist *h, double v)
{
    if (!(v >= 0))
        v = 0;
    if (h->n == 0 || v < h->min)
        h->min = v;
    if (h->n == 0 || v > h->max)
        h->max = v;
    h->n++;
    if (v < QHIST_MIN) {
        h->zero++;
        return;
    }
    {
        uint64_t bits;
        size_t i;
        memcpy(&bits, &v, sizeof bits);
        i = (size_t)((bits ^ (bits >> 17) ^ (bits >> 35)) & (QHIST_MEMO - 1));
        if (h->memo_v[i] != v) {
            double k = floor(log(v / QHIST_MIN) / log(QHIST_GROWTH));
            h->memo_b[i] = k < 0                ? 0
                           : k >= QHIST_BUCKETS ? QHIST_BUCKETS - 1
                                                : (uint32_t)k;
            h->memo_v[i] = v;
        }
        h->count[h->memo_b[i]]++;
    }
}

double qhist_quantile(const struct qhist *h, double p)
{
    uint64_t rank, seen;
    double v;

    if (h->n == 0)
        return 0.0;
    if (p >= 1)
        return h->max;
    rank = (uint64_t)ceil(p * (double)h->n);
    if (rank == 0)
        rank = 1;
    if (rank <= h->zero)
        return h->min;
    seen = h->zero;
    for (size_t b = 0; b < QHIST_BUCKETS; b++) {
        seen += h->count[b];
        if (seen >= rank) {
            /* the bucket's geometric middle, QHIST_MIN G^(b + 1/2) */
            v = QHIST_MIN * pow(QHIST_GROWTH, (double)b + 0.5);
            return v < h->min ? h->min : v > h->max ? h->max : v;
        }
    }
    return h->max;
}
