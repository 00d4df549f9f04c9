/* holdings.c - contiguous holdings from a replay's node maps (see
 * holdings.h).
 *
 * The tracker keeps the last node map (owner per node), each node's
 * holding start and each job's open holding start.  At an update it
 * compares the new map with the kept one in one pass, marking the jobs
 * that lost or gained a node; when something changed it lists the marked
 * jobs' nodes from the old map (a counting sort by job: one pass to
 * count, one to place), reports their job holdings, then the changed
 * nodes' holdings, and takes the new map; then, from the map's pool
 * list, the idle intervals of the nodes that joined or left the pool.  Cost per
 * update: O(nodes) when the map changed, one comparison pass otherwise.
 */
#include "config.h"

#include "formats/holdings.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct holdings {
    struct hold_cb cb;
    size_t n, n_jobs;
    int32_t *owner;         /* owned: the map of the last update */
    int64_t *nstart;        /* owned: per node, its holding's start */
    uint8_t *idle;          /* owned: per node, in the last map's pool */
    uint8_t *now;           /* owned: per node, scratch */
    int64_t *istart;        /* owned: per node, its idle interval's start */
    int64_t *open;          /* owned: per job, its holding's start, or -1 */
    unsigned char *changed; /* owned: per job, scratch */
    uint32_t *list;         /* owned: node lists, scratch (n) */
    size_t *start;          /* owned: per job offset in list (n_jobs + 1) */
    const struct job *jobs; /* borrowed */
    int64_t t0, last;
    int started, rc;
};

struct holdings *holdings_new(const struct hold_cb *cb)
{
    struct holdings *h = xcalloc(1, sizeof *h);

    h->cb = *cb;
    return h;
}

/* Reports at t the job holdings of the jobs marked in h->changed (or of
 * every job, when all is set), from the map h->owner, and closes them. */
static void close_jobs(struct holdings *h, int64_t t, int all)
{
    for (size_t j = 0; j <= h->n_jobs; j++)
        h->start[j] = 0;
    for (size_t i = 0; i < h->n; i++) {
        int32_t j = h->owner[i];
        if (j >= 0 && (all || h->changed[j]))
            h->start[j + 1]++;
    }
    for (size_t j = 0; j < h->n_jobs; j++)
        h->start[j + 1] += h->start[j];
    for (size_t i = 0; i < h->n; i++) {
        int32_t j = h->owner[i];
        if (j >= 0 && (all || h->changed[j]))
            h->list[h->start[j]++] = (uint32_t)i;
    }
    /* start[j] is now the end of j's list; its beginning, start[j-1]. */
    for (size_t j = 0; j < h->n_jobs; j++) {
        size_t lo = j ? h->start[j - 1] : 0, hi = h->start[j];
        if ((all || h->changed[j]) && h->open[j] >= 0) {
            if (t > h->open[j] && hi > lo && h->cb.job && h->rc == 0)
                h->rc = h->cb.job(h->cb.arg, j, h->open[j], t, h->list + lo,
                                  hi - lo);
            h->open[j] = -1;
        }
    }
}

/* Reports node i's idle interval, if it is in one, as closing at t. */
static void close_idle(struct holdings *h, size_t i, int64_t t)
{
    if (h->idle[i] && t > h->istart[i] && h->cb.idle && h->rc == 0)
        h->rc = h->cb.idle(h->cb.arg, i, h->istart[i], t);
}

/* Reports node i's holding, if it has one, as closing at t. */
static void close_node(struct holdings *h, size_t i, int64_t t)
{
    int32_t j = h->owner[i];

    if (j >= 0 && t > h->nstart[i] && h->cb.node && h->rc == 0)
        h->rc = h->cb.node(h->cb.arg, i, (size_t)j, h->nstart[i], t);
}

static void start(struct holdings *h, const struct rec_nodes *m)
{
    h->n = m->n;
    h->n_jobs = m->n_jobs;
    h->jobs = m->jobs;
    h->t0 = m->t0;
    h->owner = xmalloc((h->n + 1) * sizeof *h->owner);
    h->nstart = xmalloc((h->n + 1) * sizeof *h->nstart);
    h->idle = xcalloc(h->n + 1, 1);
    h->now = xcalloc(h->n + 1, 1);
    h->istart = xmalloc((h->n + 1) * sizeof *h->istart);
    for (size_t i = 0; i < h->n; i++) {
        h->owner[i] = -1;
        h->nstart[i] = h->istart[i] = m->time;
    }
    h->open = xmalloc((h->n_jobs + 1) * sizeof *h->open);
    for (size_t j = 0; j < h->n_jobs; j++)
        h->open[j] = -1;
    h->changed = xcalloc(h->n_jobs + 1, 1);
    h->list = xmalloc((h->n + 1) * sizeof *h->list);
    h->start = xmalloc((h->n_jobs + 1) * sizeof *h->start);
    h->started = 1;
}

int holdings_update(struct holdings *h, const struct rec_nodes *m)
{
    int any = 0;

    if (h->rc)
        return h->rc;
    if (!h->started)
        start(h, m);
    memset(h->changed, 0, h->n_jobs);
    for (size_t i = 0; i < h->n; i++)
        if (h->owner[i] != m->owner[i]) {
            if (h->owner[i] >= 0)
                h->changed[h->owner[i]] = 1;
            if (m->owner[i] >= 0)
                h->changed[m->owner[i]] = 1;
            any = 1;
        }
    if (any) {
        close_jobs(h, m->time, 0);
        for (size_t i = 0; i < h->n; i++)
            if (h->owner[i] != m->owner[i]) {
                close_node(h, i, m->time);
                h->owner[i] = m->owner[i];
                h->nstart[i] = m->time;
            }
        for (size_t i = 0; i < h->n; i++) {
            int32_t j = h->owner[i];
            if (j >= 0 && h->changed[j] && h->open[j] < 0)
                h->open[j] = m->time;
        }
    }
    if (m->pool) {
        memset(h->now, 0, h->n);
        for (size_t p = 0; p < m->n_pool; p++)
            if (m->pool[p] < h->n)
                h->now[m->pool[p]] = 1;
        for (size_t i = 0; i < h->n; i++)
            if (h->idle[i] != h->now[i]) {
                close_idle(h, i, m->time);
                h->idle[i] = h->now[i];
                h->istart[i] = m->time;
            }
    }
    h->last = m->time;
    return h->rc;
}

int holdings_end(struct holdings *h)
{
    if (h->rc || !h->started)
        return h->rc;
    close_jobs(h, h->last, 1);
    for (size_t i = 0; i < h->n; i++) {
        close_node(h, i, h->last);
        h->owner[i] = -1;
        h->nstart[i] = h->last;
    }
    for (size_t i = 0; i < h->n; i++) {
        close_idle(h, i, h->last);
        h->idle[i] = 0;
        h->istart[i] = h->last;
    }
    return h->rc;
}

int64_t holdings_t0(const struct holdings *h)
{
    return h->t0;
}

const struct job *holdings_jobs(const struct holdings *h)
{
    return h->jobs;
}

void holdings_free(struct holdings *h)
{
    if (!h)
        return;
    xfree(h->owner);
    xfree(h->nstart);
    xfree(h->idle);
    xfree(h->now);
    xfree(h->istart);
    xfree(h->open);
    xfree(h->changed);
    xfree(h->list);
    xfree(h->start);
    xfree(h);
}
