/* traceinfo.c - trace statistics in one streaming pass (see traceinfo.h).
 *
 * Window rule: the window [start, end] is the requested one clipped to
 * the trace's first and last events.  Events at or before start only
 * build the state at start; from the first event after start on, every
 * interval between consecutive time stamps adds pool * dt to the pool
 * histogram (pool_time[size] += dt), and every change of a subset node
 * closes an interval: a leave closes a hole that began at its join (or at
 * start, if it began before: cut at start), a join closes a busy interval
 * that began at its leave (kept only when that leave is inside the
 * window).  At end, holes still open are cut there.  Reading stops at the
 * first event after end.
 *
 * Per subset node: its last change time (int64), an idle flag and an
 * "ever idle" flag.  The pool histogram has nodes + 1
 * entries.  Percentiles: nearest rank, exact (integers throughout).
 *
 * Types: each type's idle pool is integrated lazily, only when one of
 * its nodes changes (from the type's last change, or the window start,
 * to now) and once at the end, so an event costs O(its changes) however
 * many types there are; the types' integrals add up to the total's.
 *
 * JSON keys (traceinfo_json): trace, nodes, nodes_total, node_skip,
 * start, end, start_utc, end_utc, span_s, span_h, events,
 * events_with_changes, events_per_day, joins, leaves, idle_node_s,
 * idle_node_h, pool {mean, min, p5, p25, median, p75, p95, max, at_start,
 * at_end}, nodes_ever_idle, holes {count, cut_at_start, cut_at_end,
 * total_s, mean_s, min_s, p5_s, p25_s, median_s, p75_s, p95_s, p99_s,
 * max_s, short_share [{minutes, share}], histogram [{lo_s, hi_s, count,
 * total_s}]}, busy {count, mean_s, min_s, p5_s, p25_s, median_s, p75_s,
 * p95_s, max_s}, and for a typed trace only, types [{type, nodes,
 * idle_node_s, idle_node_h}].  Histogram bins are [lo_s, hi_s) with hi_s =
 * 2 lo_s.
 */
#include "config.h"

#include "formats/traceinfo.h"
#include "formats/trace.h"
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const double traceinfo_pct[TRACEINFO_N_PCT] = {5, 25, 50, 75, 95};
const int traceinfo_short_min[TRACEINFO_N_SHORT] = {2, 5, 10, 30, 60, 120};

/* ---- histogram --------------------------------------------------------- */

static int log2_floor(int64_t x)
{
    int b = 0;

    while (x > 1) {
        x >>= 1;
        b++;
    }
    return b;
}

void traceinfo_hist_add(struct traceinfo_hist *h, int64_t len)
{
    int b;

    if (len < 1)
        return;
    if (len < TRACEINFO_DENSE_MAX) {
        size_t l = (size_t)len;
        if (l >= h->dense_len) {
            /* Grow to twice the need (capped), zeroing the new part. */
            size_t nl = 2 * l + 1;
            if (nl > (size_t)TRACEINFO_DENSE_MAX)
                nl = (size_t)TRACEINFO_DENSE_MAX;
            h->dense = xreallocarray(h->dense, nl, sizeof *h->dense);
            memset(h->dense + h->dense_len, 0,
                   (nl - h->dense_len) * sizeof *h->dense);
            h->dense_len = nl;
        }
        h->dense[l]++;
    } else {
        BFS_GROW(h->big, h->cap_big, h->n_big + 1);
        h->big[h->n_big++] = len;
        h->big_sorted = 0;
    }
    if (h->count == 0 || len < h->min)
        h->min = len;
    if (len > h->max)
        h->max = len;
    h->count++;
    h->sum += len;
    b = log2_floor(len);
    h->bin_count[b]++;
    h->bin_sum[b] += len;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return (x > y) - (x < y);
}

static void sort_big(struct traceinfo_hist *h)
{
    if (!h->big_sorted) {
        if (h->n_big > 1)
            qsort(h->big, h->n_big, sizeof *h->big, cmp_i64);
        h->big_sorted = 1;
    }
}

int64_t traceinfo_hist_kth(struct traceinfo_hist *h, uint64_t k)
{
    uint64_t seen = 0;

    if (k < 1 || k > h->count)
        return 0;
    for (size_t l = 0; l < h->dense_len; l++) {
        seen += h->dense[l];
        if (seen >= k)
            return (int64_t)l;
    }
    sort_big(h);
    return h->big[k - seen - 1];
}

int64_t traceinfo_hist_percentile(struct traceinfo_hist *h, double p)
{
    uint64_t k;

    if (h->count == 0)
        return 0;
    k = (uint64_t)ceil(p / 100.0 * (double)h->count);
    if (k < 1)
        k = 1;
    if (k > h->count)
        k = h->count;
    return traceinfo_hist_kth(h, k);
}

int64_t traceinfo_hist_sum_below(const struct traceinfo_hist *h, int64_t limit)
{
    int64_t s = 0;

    for (size_t l = 0; l < h->dense_len && (int64_t)l < limit; l++)
        s += (int64_t)l * (int64_t)h->dense[l];
    for (size_t i = 0; i < h->n_big; i++)
        if (h->big[i] < limit)
            s += h->big[i];
    return s;
}

size_t traceinfo_hist_cdf(struct traceinfo_hist *h, int64_t **values,
                          uint64_t **cum)
{
    size_t n = 0, k = 0;
    uint64_t c = 0;

    *values = NULL;
    *cum = NULL;
    if (h->count == 0)
        return 0;
    for (size_t l = 0; l < h->dense_len; l++)
        n += h->dense[l] != 0;
    sort_big(h);
    for (size_t i = 0; i < h->n_big; i++)
        n += i == 0 || h->big[i] != h->big[i - 1];
    *values = xmalloc(n * sizeof **values);
    *cum = xmalloc(n * sizeof **cum);
    for (size_t l = 0; l < h->dense_len; l++)
        if (h->dense[l]) {
            c += h->dense[l];
            (*values)[k] = (int64_t)l;
            (*cum)[k++] = c;
        }
    for (size_t i = 0; i < h->n_big; i++) {
        c++;
        if (i > 0 && h->big[i] == h->big[i - 1]) {
            (*cum)[k - 1] = c;
        } else {
            (*values)[k] = h->big[i];
            (*cum)[k++] = c;
        }
    }
    return n;
}

void traceinfo_hist_release(struct traceinfo_hist *h)
{
    xfree(h->dense);
    xfree(h->big);
    memset(h, 0, sizeof *h);
}

/* ---- statistics -------------------------------------------------------- */

void traceinfo_opts_init(struct traceinfo_opts *o)
{
    o->start = INT64_MIN;
    o->end = INT64_MAX;
    o->skip = 0;
    o->count = 0;
}

/* The pass's working state. */
struct pass {
    struct traceinfo *ti;
    int64_t *since;     /* owned; last change of each subset node */
    uint8_t *idle;      /* owned; the subset's own state (the reader's runs
                           one event ahead when the window opens) */
    uint8_t *ever;      /* owned */
    int64_t *pool_time; /* owned; seconds spent at each pool size */
    size_t pool;
    int opened;
    int64_t prev;                 /* time the pool last changed (once opened) */
    const struct trace_reader *r; /* borrowed: node types */
    size_t *tpool;                /* owned; idle subset nodes per type */
    int64_t *tlast;               /* owned; time tpool was integrated to */
};

/* Node i (of the trace) changes at t: integrates its type's pool up to t
 * (once the window is open) and moves the pool by delta. */
static void type_change(struct pass *p, uint32_t i, int64_t t, int delta)
{
    uint32_t ty;

    if (!p->tpool)
        return;
    ty = trace_node_type(p->r, i);
    if (p->opened) {
        p->ti->type_idle_node_s[ty] +=
            (int64_t)p->tpool[ty] * (t - p->tlast[ty]);
        p->tlast[ty] = t;
    }
    p->tpool[ty] = delta > 0 ? p->tpool[ty] + 1 : p->tpool[ty] - 1;
}

/* Starts integrating at the window start. */
static void open_window(struct pass *p)
{
    struct traceinfo *ti = p->ti;

    p->opened = 1;
    p->prev = ti->start;
    ti->pool_start = p->pool;
    for (size_t t = 0; t < ti->n_types; t++)
        p->tlast[t] = ti->start;
    for (size_t k = 0; k < ti->nodes; k++)
        if (p->idle[k])
            p->ever[k] = 1;
}

static void add_hole(struct pass *p, int64_t since, int64_t t)
{
    struct traceinfo *ti = p->ti;

    if (since < ti->start) {
        since = ti->start;
        ti->holes_cut_start++;
    }
    traceinfo_hist_add(&ti->holes, t - since);
}

static void finish_stats(struct traceinfo *ti, const int64_t *pool_time)
{
    int64_t span = ti->end - ti->start, cum = 0;
    size_t k = 0;

    if (span > 0) {
        ti->pool_mean = (double)ti->idle_node_s / (double)span;
        ti->pool_min = SIZE_MAX;
        for (size_t s = 0; s <= ti->nodes; s++) {
            if (pool_time[s] == 0)
                continue;
            if (ti->pool_min == SIZE_MAX)
                ti->pool_min = s;
            ti->pool_max = s;
            cum += pool_time[s];
            /* Nearest rank on time: the smallest size whose cumulative
             * time reaches p percent of the span (exact in doubles below
             * 2^53 node-seconds). */
            while (k < TRACEINFO_N_PCT &&
                   (double)cum * 100.0 >= traceinfo_pct[k] * (double)span)
                ti->pool_pct[k++] = s;
        }
    } else {
        ti->pool_mean = (double)ti->pool_start;
        ti->pool_min = ti->pool_max = ti->pool_start;
        for (k = 0; k < TRACEINFO_N_PCT; k++)
            ti->pool_pct[k] = ti->pool_start;
    }
    for (k = 0; k < TRACEINFO_N_PCT; k++) {
        ti->hole_pct[k] =
            traceinfo_hist_percentile(&ti->holes, traceinfo_pct[k]);
        ti->busy_pct[k] =
            traceinfo_hist_percentile(&ti->busy, traceinfo_pct[k]);
    }
    ti->hole_p99 = traceinfo_hist_percentile(&ti->holes, 99);
    for (k = 0; k < TRACEINFO_N_SHORT; k++)
        ti->hole_short_share[k] =
            ti->holes.sum > 0
                ? (double)traceinfo_hist_sum_below(
                      &ti->holes, (int64_t)traceinfo_short_min[k] * 60) /
                      (double)ti->holes.sum
                : 0.0;
}

int traceinfo_compute(const char *path, const struct traceinfo_opts *o,
                      struct traceinfo *out, struct bfs_error *e)
{
    struct traceinfo ti;
    struct pass p;
    struct trace_reader *r = NULL;
    struct trace_event ev;
    size_t lo, hi, n_ev = 0;
    int64_t last = 0;
    int rc, past_end = 0;

    memset(&ti, 0, sizeof ti);
    memset(&p, 0, sizeof p);
    p.ti = &ti;
    if (o->start >= o->end)
        return bfs_fail(e, BFS_EINVAL,
                        "the window's start must be before its end");
    rc = trace_open(path, &r, e);
    if (rc)
        return rc;
    ti.path = xstrdup(path);
    ti.nodes_total = trace_node_count(r);
    if (o->skip >= ti.nodes_total ||
        (o->count && o->count > ti.nodes_total - o->skip)) {
        rc = bfs_fail(e, BFS_ERANGE,
                      "%s: node subset %zu:%zu does not fit the trace's %zu "
                      "nodes",
                      path, o->skip, o->count, ti.nodes_total);
        goto fail;
    }
    ti.skip = lo = o->skip;
    ti.nodes = o->count ? o->count : ti.nodes_total - o->skip;
    hi = lo + ti.nodes;
    p.since = xmalloc(ti.nodes * sizeof *p.since);
    for (size_t k = 0; k < ti.nodes; k++)
        p.since[k] = INT64_MIN;
    p.idle = xcalloc(ti.nodes, 1);
    p.ever = xcalloc(ti.nodes, 1);
    p.pool_time = xcalloc(ti.nodes + 1, sizeof *p.pool_time);
    p.r = r;
    if ((ti.n_types = trace_type_count(r)) > 0) {
        ti.type_names = xcalloc(ti.n_types, sizeof *ti.type_names);
        ti.type_nodes = xcalloc(ti.n_types, sizeof *ti.type_nodes);
        ti.type_idle_node_s = xcalloc(ti.n_types, sizeof *ti.type_idle_node_s);
        p.tpool = xcalloc(ti.n_types, sizeof *p.tpool);
        p.tlast = xcalloc(ti.n_types, sizeof *p.tlast);
        for (size_t t = 0; t < ti.n_types; t++)
            ti.type_names[t] = xstrdup(trace_type_name(r, t));
        for (size_t i = lo; i < hi; i++)
            ti.type_nodes[trace_node_type(r, i)]++;
    }

    while ((rc = trace_next(r, &ev, e)) == 1) {
        int64_t t = ev.time;
        size_t nj = 0, nl = 0;

        if (n_ev++ == 0) {
            ti.trace_first = t;
            ti.start = o->start > t ? o->start : t;
        }
        if (t > o->end) {
            past_end = 1;
            break;
        }
        last = t;
        if (!p.opened && t > ti.start)
            open_window(&p);
        if (p.opened) {
            p.pool_time[p.pool] += t - p.prev;
            ti.idle_node_s += (int64_t)p.pool * (t - p.prev);
            p.prev = t;
        }
        /* p.since holds each node's previous change. */
        for (size_t j = 0; j < ev.n_leave; j++) {
            uint32_t i = ev.leave[j];
            if (i < lo || i >= hi)
                continue;
            if (p.opened)
                add_hole(&p, p.since[i - lo], t);
            p.since[i - lo] = t;
            p.idle[i - lo] = 0;
            p.pool--;
            type_change(&p, i, t, -1);
            nl++;
        }
        for (size_t j = 0; j < ev.n_join; j++) {
            uint32_t i = ev.join[j];
            if (i < lo || i >= hi)
                continue;
            if (p.opened && p.since[i - lo] != INT64_MIN &&
                p.since[i - lo] >= ti.start)
                traceinfo_hist_add(&ti.busy, t - p.since[i - lo]);
            p.since[i - lo] = t;
            p.idle[i - lo] = 1;
            p.pool++;
            type_change(&p, i, t, +1);
            if (p.opened)
                p.ever[i - lo] = 1;
            nj++;
        }
        if (t >= ti.start) {
            ti.events++;
            ti.events_changed += nj + nl > 0;
            ti.joins += nj;
            ti.leaves += nl;
        }
    }
    if (rc < 0)
        goto fail;
    if (n_ev == 0) {
        rc = bfs_fail(e, BFS_EINVAL, "%s: the trace has no events", path);
        goto fail;
    }
    if (o->start > last && !past_end) {
        rc = bfs_fail(e, BFS_EINVAL,
                      "%s: the window starts after the trace's last event",
                      path);
        goto fail;
    }
    if (o->end < ti.trace_first) {
        rc = bfs_fail(e, BFS_EINVAL,
                      "%s: the window ends before the trace's first event",
                      path);
        goto fail;
    }
    ti.trace_last = past_end ? ev.time : last;
    ti.end = past_end ? o->end : last;
    if (!p.opened)
        open_window(&p);
    p.pool_time[p.pool] += ti.end - p.prev;
    ti.idle_node_s += (int64_t)p.pool * (ti.end - p.prev);
    ti.pool_end = p.pool;
    for (size_t t = 0; t < ti.n_types; t++)
        ti.type_idle_node_s[t] += (int64_t)p.tpool[t] * (ti.end - p.tlast[t]);
    for (size_t k = 0; k < ti.nodes; k++) {
        if (!p.idle[k])
            continue;
        if (ti.end > (p.since[k] > ti.start ? p.since[k] : ti.start)) {
            ti.holes_cut_end++;
            add_hole(&p, p.since[k], ti.end);
        }
    }
    for (size_t k = 0; k < ti.nodes; k++)
        ti.nodes_ever_idle += p.ever[k];
    finish_stats(&ti, p.pool_time);
    *out = ti;
    rc = 0;
    goto done;

fail:
    traceinfo_release(&ti);
done:
    xfree(p.tlast);
    xfree(p.tpool);
    xfree(p.pool_time);
    xfree(p.ever);
    xfree(p.idle);
    xfree(p.since);
    trace_close(r);
    return rc;
}

void traceinfo_release(struct traceinfo *ti)
{
    xfree(ti->path);
    xfree_strv(ti->type_names, ti->n_types);
    xfree(ti->type_nodes);
    xfree(ti->type_idle_node_s);
    traceinfo_hist_release(&ti->holes);
    traceinfo_hist_release(&ti->busy);
    memset(ti, 0, sizeof *ti);
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *lengths_json(const struct traceinfo_hist *h,
                            const int64_t pct[TRACEINFO_N_PCT])
{
    return json_pack("{s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "count",
                     (json_int_t)h->count, "mean_s",
                     h->count ? (double)h->sum / (double)h->count : 0.0,
                     "min_s", (json_int_t)h->min, "p5_s", (json_int_t)pct[0],
                     "p25_s", (json_int_t)pct[1], "median_s",
                     (json_int_t)pct[2], "p75_s", (json_int_t)pct[3], "p95_s",
                     (json_int_t)pct[4], "max_s", (json_int_t)h->max);
}

json_t *traceinfo_json(const struct traceinfo *ti)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    int64_t span = ti->end - ti->start;
    json_t *root, *pool, *holes, *busy, *shares, *hist;

    pool = json_pack(
        "{s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "mean",
        ti->pool_mean, "min", (json_int_t)ti->pool_min, "p5",
        (json_int_t)ti->pool_pct[0], "p25", (json_int_t)ti->pool_pct[1],
        "median", (json_int_t)ti->pool_pct[2], "p75",
        (json_int_t)ti->pool_pct[3], "p95", (json_int_t)ti->pool_pct[4], "max",
        (json_int_t)ti->pool_max, "at_start", (json_int_t)ti->pool_start,
        "at_end", (json_int_t)ti->pool_end);
    holes = lengths_json(&ti->holes, ti->hole_pct);
    json_object_set_new(holes, "p99_s", json_integer(ti->hole_p99));
    json_object_set_new(holes, "total_s", json_integer(ti->holes.sum));
    json_object_set_new(holes, "cut_at_start",
                        json_integer((json_int_t)ti->holes_cut_start));
    json_object_set_new(holes, "cut_at_end",
                        json_integer((json_int_t)ti->holes_cut_end));
    shares = json_array();
    for (int k = 0; k < TRACEINFO_N_SHORT; k++)
        json_array_append_new(shares, json_pack("{s:i, s:f}", "minutes",
                                                traceinfo_short_min[k], "share",
                                                ti->hole_short_share[k]));
    json_object_set_new(holes, "short_share", shares);
    hist = json_array();
    for (int b = 0; b < TRACEINFO_LOG_BINS && ti->holes.count; b++) {
        if (((int64_t)1 << b) < ti->holes.min && !ti->holes.bin_count[b])
            continue;
        if (((int64_t)1 << b) > ti->holes.max)
            break;
        json_array_append_new(
            hist, json_pack("{s:I, s:I, s:I, s:I}", "lo_s",
                            (json_int_t)((int64_t)1 << b), "hi_s",
                            (json_int_t)((int64_t)2 << b), "count",
                            (json_int_t)ti->holes.bin_count[b], "total_s",
                            (json_int_t)ti->holes.bin_sum[b]));
    }
    json_object_set_new(holes, "histogram", hist);
    busy = lengths_json(&ti->busy, ti->busy_pct);

    root = json_pack(
        "{s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:I, s:f, s:I, s:I, s:f, "
        "s:I, s:I, s:I, s:f, s:o, s:I, s:o, s:o}",
        "trace", ti->path, "nodes", (json_int_t)ti->nodes, "nodes_total",
        (json_int_t)ti->nodes_total, "node_skip", (json_int_t)ti->skip, "start",
        (json_int_t)ti->start, "end", (json_int_t)ti->end, "start_utc",
        bfs_time_format(ti->start, t0), "end_utc", bfs_time_format(ti->end, t1),
        "span_s", (json_int_t)span, "span_h", (double)span / 3600.0, "events",
        (json_int_t)ti->events, "events_with_changes",
        (json_int_t)ti->events_changed, "events_per_day",
        span > 0 ? (double)ti->events * 86400.0 / (double)span : 0.0, "joins",
        (json_int_t)ti->joins, "leaves", (json_int_t)ti->leaves, "idle_node_s",
        (json_int_t)ti->idle_node_s, "idle_node_h",
        (double)ti->idle_node_s / 3600.0, "pool", pool, "nodes_ever_idle",
        (json_int_t)ti->nodes_ever_idle, "holes", holes, "busy", busy);
    if (ti->n_types > 0) {
        json_t *types = json_array();
        for (size_t t = 0; t < ti->n_types; t++)
            json_array_append_new(
                types,
                json_pack("{s:s, s:I, s:I, s:f}", "type", ti->type_names[t],
                          "nodes", (json_int_t)ti->type_nodes[t], "idle_node_s",
                          (json_int_t)ti->type_idle_node_s[t], "idle_node_h",
                          (double)ti->type_idle_node_s[t] / 3600.0));
        json_object_set_new(root, "types", types);
    }
    return root;
}
