/* holdings.c - contiguous holdings from a replay's node maps (see
 * holdings.h).
 *
 * The tracker keeps the last node map (owner per node), each node's
 * holding start and pool membership, each job's open holding start and,
 * when job holdings are wanted, each job's set of nodes (an unordered
 * array per job, with each node's slot in it for O(1) removal).
 *
 * An update works from a list of changed nodes: the map's own
 * (rec_nodes.changed, O(changes)) or, when the map has none and at the
 * first update, one found by comparing the whole map (O(nodes)).  The
 * list is sorted, since holdings are reported in node order; the jobs
 * that lost or gained a node are marked and listed in job order; their
 * job holdings are reported from their node sets (each sorted at its
 * report, O(k log k) for a job of k nodes, which the report writes
 * anyway); then the changed nodes' holdings close and open, and then
 * the idle intervals of the listed nodes whose pool membership changed.
 * Cost per update: O(c log c + sum of the changed jobs' sizes) for c
 * changed nodes, O(nodes) for an update without a list.
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
    uint8_t *now;           /* owned: per node, scratch (full passes) */
    int64_t *istart;        /* owned: per node, its idle interval's start */
    int64_t *open;          /* owned: per job, its holding's start, or -1 */
    unsigned char *changed; /* owned: per job, marked at this update */
    uint32_t *list;         /* owned: node lists, scratch (n) */
    size_t *start;          /* owned: per job offset in list (n_jobs + 1) */
    uint32_t *cnodes;       /* owned: this update's changed nodes (n) */
    size_t *cjobs;          /* owned: this update's changed jobs (n_jobs) */
    /* Per job, its nodes in the kept map (only when cb.job is set):
     * jn[j][0 .. jn_n[j]-1], unordered; slot[i] is node i's index in its
     * owner's array. */
    uint32_t **jn;
    size_t *jn_n, *jn_cap;
    uint32_t *slot;
    int64_t t0, last;
    int started, rc;
};

struct holdings *holdings_new(const struct hold_cb *cb)
{
    struct holdings *h = xcalloc(1, sizeof *h);

    h->cb = *cb;
    return h;
}

/* Reports at t the job holdings of every job, from the map h->owner, and
 * closes them (the end of the replay: one counting sort by job). */
static void close_all_jobs(struct holdings *h, int64_t t)
{
    for (size_t j = 0; j <= h->n_jobs; j++)
        h->start[j] = 0;
    for (size_t i = 0; i < h->n; i++) {
        int32_t j = h->owner[i];
        if (j >= 0)
            h->start[j + 1]++;
    }
    for (size_t j = 0; j < h->n_jobs; j++)
        h->start[j + 1] += h->start[j];
    for (size_t i = 0; i < h->n; i++) {
        int32_t j = h->owner[i];
        if (j >= 0)
            h->list[h->start[j]++] = (uint32_t)i;
    }
    /* start[j] is now the end of j's list; its beginning, start[j-1]. */
    for (size_t j = 0; j < h->n_jobs; j++) {
        size_t lo = j ? h->start[j - 1] : 0, hi = h->start[j];
        if (h->open[j] >= 0) {
            if (t > h->open[j] && hi > lo && h->cb.job && h->rc == 0)
                h->rc = h->cb.job(h->cb.arg, j, h->open[j], t, h->list + lo,
                                  hi - lo);
            h->open[j] = -1;
        }
    }
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    return (x > y) - (x < y);
}

/* Reports at t the job holding of job j (from its node set, sorted),
 * and closes it. */
static void close_job(struct holdings *h, size_t j, int64_t t)
{
    size_t k = h->jn_n[j];

    if (h->open[j] < 0)
        return;
    if (t > h->open[j] && k > 0 && h->rc == 0) {
        memcpy(h->list, h->jn[j], k * sizeof *h->list);
        qsort(h->list, k, sizeof *h->list, by_u32);
        h->rc = h->cb.job(h->cb.arg, j, h->open[j], t, h->list, k);
    }
    h->open[j] = -1;
}

/* Moves node i from its kept owner's node set to job j's (j < 0: none). */
static void move_node(struct holdings *h, size_t i, int32_t j)
{
    int32_t o = h->owner[i];

    if (o >= 0) {
        uint32_t last = h->jn[o][--h->jn_n[o]];
        h->jn[o][h->slot[i]] = last;
        h->slot[last] = h->slot[i];
    }
    if (j >= 0) {
        BFS_GROW(h->jn[j], h->jn_cap[j], h->jn_n[j] + 1);
        h->slot[i] = (uint32_t)h->jn_n[j];
        h->jn[j][h->jn_n[j]++] = (uint32_t)i;
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
    h->cnodes = xmalloc((h->n + 1) * sizeof *h->cnodes);
    h->cjobs = xmalloc((h->n_jobs + 1) * sizeof *h->cjobs);
    if (h->cb.job) {
        h->jn = xcalloc(h->n_jobs + 1, sizeof *h->jn);
        h->jn_n = xcalloc(h->n_jobs + 1, sizeof *h->jn_n);
        h->jn_cap = xcalloc(h->n_jobs + 1, sizeof *h->jn_cap);
        h->slot = xcalloc(h->n + 1, sizeof *h->slot);
    }
    h->started = 1;
}

/* Fills h->cnodes with the nodes whose owner or pool membership differ
 * between the kept map and m, in node order, by comparing every node;
 * the pool membership of m goes to h->now.  Returns their number. */
static size_t diff_all(struct holdings *h, const struct rec_nodes *m)
{
    size_t c = 0;

    if (m->pool) {
        memset(h->now, 0, h->n);
        for (size_t p = 0; p < m->n_pool; p++)
            if (m->pool[p] < h->n)
                h->now[m->pool[p]] = 1;
    }
    for (size_t i = 0; i < h->n; i++)
        if (h->owner[i] != m->owner[i] || (m->pool && h->idle[i] != h->now[i]))
            h->cnodes[c++] = (uint32_t)i;
    return c;
}

/* Fills h->cnodes from m's list of changed nodes, in node order, and
 * their pool membership into h->now.  Returns their number. */
static size_t diff_listed(struct holdings *h, const struct rec_nodes *m)
{
    size_t c = 0;

    for (size_t k = 0; k < m->n_changed; k++) {
        uint32_t i = m->changed[k];
        if (i < h->n) {
            h->cnodes[c++] = i;
            h->now[i] = m->in_pool ? m->in_pool[i] != 0 : 0;
        }
    }
    qsort(h->cnodes, c, sizeof *h->cnodes, by_u32);
    return c;
}

int holdings_update(struct holdings *h, const struct rec_nodes *m)
{
    size_t c, nj = 0;
    int full;

    if (h->rc)
        return h->rc;
    full = !h->started || !m->changed || (m->pool && !m->in_pool);
    if (!h->started)
        start(h, m);
    c = full ? diff_all(h, m) : diff_listed(h, m);
    /* The jobs that lost or gained a node, in job order. */
    for (size_t k = 0; k < c; k++) {
        uint32_t i = h->cnodes[k];
        int32_t a = h->owner[i], b = m->owner[i];
        if (a == b)
            continue;
        if (a >= 0 && !h->changed[a]) {
            h->changed[a] = 1;
            h->cjobs[nj++] = (size_t)a;
        }
        if (b >= 0 && !h->changed[b]) {
            h->changed[b] = 1;
            h->cjobs[nj++] = (size_t)b;
        }
    }
    if (nj > 1)
        qsort(h->cjobs, nj, sizeof *h->cjobs, by_size);
    if (h->cb.job)
        for (size_t k = 0; k < nj; k++)
            close_job(h, h->cjobs[k], m->time);
    else
        for (size_t k = 0; k < nj; k++)
            h->open[h->cjobs[k]] = -1;
    for (size_t k = 0; k < c; k++) {
        uint32_t i = h->cnodes[k];
        if (h->owner[i] == m->owner[i])
            continue;
        close_node(h, i, m->time);
        if (h->cb.job)
            move_node(h, i, m->owner[i]);
        h->owner[i] = m->owner[i];
        h->nstart[i] = m->time;
    }
    for (size_t k = 0; k < nj; k++) {
        size_t j = h->cjobs[k];
        h->changed[j] = 0;
        if (h->open[j] < 0 && (h->cb.job ? h->jn_n[j] > 0 : 1))
            h->open[j] = m->time;
    }
    if (m->pool)
        for (size_t k = 0; k < c; k++) {
            uint32_t i = h->cnodes[k];
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
    close_all_jobs(h, h->last);
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
    xfree(h->cnodes);
    xfree(h->cjobs);
    if (h->jn)
        for (size_t j = 0; j < h->n_jobs; j++)
            xfree(h->jn[j]);
    xfree(h->jn);
    xfree(h->jn_n);
    xfree(h->jn_cap);
    xfree(h->slot);
    xfree(h);
}
