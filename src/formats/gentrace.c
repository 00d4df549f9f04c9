/* gentrace.c - synthetic traces (see gentrace.h).
 *
 * Design: each node is an alternating renewal process with its own PRNG
 * stream (xoshiro256**, seeded from the run's seed by splitmix64, four
 * words per node in node order), so node i's timeline does not depend on
 * how many nodes there are.  The next change of every node sits in an
 * array binary heap ordered by (time, node index); the generator pops
 * every entry at the earliest time, toggles those nodes, draws their next
 * length, sifts them back down (the new time is later, so an entry is
 * popped once per event), and writes one event.  Memory: the heap, one
 * state per node and one event's index lists: O(nodes).
 *
 * Lengths are integer seconds >= 1: continuous draws are rounded to the
 * nearest integer, then clamped to [1, GEN_MAX_LEN].  Empirical draws
 * pick a uniform rank among the recorded intervals (binary search on the
 * cumulative counts), so they reproduce the recorded distribution
 * exactly, in law.
 */
#include "config.h"

#include "formats/gentrace.h"
#include "formats/trace.h"
#include "formats/traceinfo.h"
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest drawn length (about 35,000 years): keeps times far from
 * overflow whatever the parameters. */
#define GEN_MAX_LEN ((int64_t)1 << 40)

/* Mixed into the seed for the stream that shuffles node types, so that
 * it is not the nodes' stream ("node-typ" in ASCII). */
#define GEN_TYPE_STREAM UINT64_C(0x6e6f64652d747970)

/* ---- PRNG -------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

struct rng {
    uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna). */
static uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in (0, 1): never 0, so that log() is finite. */
static double rng_open01(struct rng *r)
{
    return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n >= 1, without modulo bias. */
static uint64_t rng_below(struct rng *r, uint64_t n)
{
    uint64_t x, lim = UINT64_MAX - UINT64_MAX % n;

    do
        x = rng_next(r);
    while (x >= lim);
    return x % n;
}

/* Standard normal by Box-Muller (the second variate is dropped, so that
 * each draw uses a fixed number of PRNG words). */
static double rng_normal(struct rng *r)
{
    double u = rng_open01(r), v = rng_open01(r);

    return sqrt(-2.0 * log(u)) * cos(6.283185307179586477 * v);
}

/* ---- distributions ----------------------------------------------------- */

/* Complete holes (busy == 0) or busy intervals (busy == 1) of a trace. */
static int load_empirical(const char *path, int busy, struct gentrace_dist *d,
                          struct bfs_error *e)
{
    struct trace_reader *r;
    struct trace_event ev;
    struct traceinfo_hist h;
    int64_t *since;
    size_t n;
    int rc;

    rc = trace_open(path, &r, e);
    if (rc)
        return rc;
    memset(&h, 0, sizeof h);
    n = trace_node_count(r);
    since = xmalloc(n * sizeof *since);
    for (size_t i = 0; i < n; i++)
        since[i] = INT64_MIN; /* no change seen yet */
    while ((rc = trace_next(r, &ev, e)) == 1) {
        for (size_t j = 0; j < ev.n_leave; j++) {
            uint32_t i = ev.leave[j];
            if (!busy)
                traceinfo_hist_add(&h, ev.time - since[i]);
            since[i] = ev.time;
        }
        for (size_t j = 0; j < ev.n_join; j++) {
            uint32_t i = ev.join[j];
            if (busy && since[i] != INT64_MIN)
                traceinfo_hist_add(&h, ev.time - since[i]);
            since[i] = ev.time;
        }
    }
    xfree(since);
    trace_close(r);
    if (rc == 0 && h.count == 0)
        rc = bfs_fail(e, BFS_EINVAL, "%s: no complete %s interval to resample",
                      path, busy ? "busy" : "idle");
    if (rc == 0)
        d->n = traceinfo_hist_cdf(&h, &d->values, &d->cum);
    traceinfo_hist_release(&h);
    return rc;
}

int gentrace_dist_parse(const char *spec, int busy, struct gentrace_dist *d,
                        struct bfs_error *e)
{
    struct gentrace_dist x;
    const char *colon = strchr(spec, ':');
    const char *arg = colon ? colon + 1 : "";
    size_t kw = colon ? (size_t)(colon - spec) : strlen(spec);
    int rc = 0;

    memset(&x, 0, sizeof x);
    if (kw == 3 && strncmp(spec, "exp", 3) == 0) {
        int64_t mean;
        x.kind = GENTRACE_EXP;
        if (bfs_parse_duration(arg, 1, &mean) != 0)
            return bfs_fail(e, BFS_EUSAGE,
                            "bad distribution '%s': exp:MEAN needs a "
                            "positive duration (s, m, h or d suffix)",
                            spec);
        x.mean = (double)mean;
    } else if (kw == 9 && strncmp(spec, "lognormal", 9) == 0) {
        char buf[128], *comma;
        x.kind = GENTRACE_LOGNORMAL;
        snprintf(buf, sizeof buf, "%s", arg);
        comma = strchr(buf, ',');
        if (comma)
            *comma = '\0';
        if (!comma || bfs_parse_double(buf, &x.mu) ||
            bfs_parse_double(comma + 1, &x.sigma) || x.sigma < 0 || x.mu > 30 ||
            x.sigma > 10)
            return bfs_fail(e, BFS_EUSAGE,
                            "bad distribution '%s': lognormal:MU,SIGMA needs "
                            "MU <= 30 and 0 <= SIGMA <= 10 (log-seconds)",
                            spec);
    } else if (kw == 9 && strncmp(spec, "empirical", 9) == 0) {
        x.kind = GENTRACE_EMPIRICAL;
        if (*arg == '\0')
            return bfs_fail(e, BFS_EUSAGE,
                            "bad distribution '%s': empirical:TRACE needs a "
                            "trace file",
                            spec);
        rc = load_empirical(arg, busy, &x, e);
        if (rc)
            return rc;
    } else {
        return bfs_fail(e, BFS_EUSAGE,
                        "bad distribution '%s' (expected exp:MEAN, "
                        "lognormal:MU,SIGMA or empirical:TRACE)",
                        spec);
    }
    x.spec = xstrdup(spec);
    *d = x;
    return 0;
}

double gentrace_dist_mean(const struct gentrace_dist *d)
{
    double s = 0;
    uint64_t prev = 0;

    switch (d->kind) {
    case GENTRACE_EXP:
        return d->mean;
    case GENTRACE_LOGNORMAL:
        return exp(d->mu + d->sigma * d->sigma / 2);
    case GENTRACE_EMPIRICAL:
        for (size_t i = 0; i < d->n; i++) {
            s += (double)d->values[i] * (double)(d->cum[i] - prev);
            prev = d->cum[i];
        }
        return prev ? s / (double)prev : 0;
    }
    return 0;
}

void gentrace_dist_release(struct gentrace_dist *d)
{
    xfree(d->values);
    xfree(d->cum);
    xfree(d->spec);
    memset(d, 0, sizeof *d);
}

static int64_t clamp_len(double x)
{
    if (!(x >= 1.0)) /* also catches NaN */
        return 1;
    if (x >= (double)GEN_MAX_LEN)
        return GEN_MAX_LEN;
    return (int64_t)llround(x);
}

static int64_t draw(const struct gentrace_dist *d, struct rng *r)
{
    switch (d->kind) {
    case GENTRACE_EXP:
        return clamp_len(-d->mean * log(rng_open01(r)));
    case GENTRACE_LOGNORMAL:
        return clamp_len(exp(d->mu + d->sigma * rng_normal(r)));
    case GENTRACE_EMPIRICAL: {
        uint64_t u = rng_below(r, d->cum[d->n - 1]);
        size_t lo = 0, hi = d->n - 1;
        /* The first i with cum[i] > u. */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (d->cum[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        return d->values[lo];
    }
    }
    return 1;
}

/* ---- the heap ---------------------------------------------------------- */

struct slot {
    int64_t time; /* the node's next change */
    uint32_t node;
};

static int slot_less(const struct slot *a, const struct slot *b)
{
    return a->time < b->time || (a->time == b->time && a->node < b->node);
}

static void sift_down(struct slot *h, size_t n, size_t i)
{
    struct slot x = h[i];

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && slot_less(&h[c + 1], &h[c]))
            c++;
        if (!slot_less(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* ---- generation -------------------------------------------------------- */

/* ---- types ------------------------------------------------------------- */

/* One "NAME:SHARE" item (modified in place) appended to t. */
static int parse_type(char *item, struct gentrace_types *t, double *w,
                      struct bfs_error *e)
{
    char *colon = strrchr(item, ':');

    if (!colon)
        return bfs_fail(e, BFS_EUSAGE, "--types: '%s' is not NAME:SHARE", item);
    *colon = '\0';
    if (!trace_name_ok(item) || strchr(item, ':'))
        return bfs_fail(e, BFS_EUSAGE,
                        "--types: type name '%s' is empty or holds a blank "
                        "or ':'",
                        item);
    if (bfs_parse_double(colon + 1, w) || !(*w > 0.0) || *w > 1e12)
        return bfs_fail(e, BFS_EUSAGE,
                        "--types: %s: share '%s' is not a positive number",
                        item, colon + 1);
    for (size_t k = 0; k < t->n; k++)
        if (strcmp(t->names[k], item) == 0)
            return bfs_fail(e, BFS_EUSAGE, "--types: type '%s' is given twice",
                            item);
    t->names[t->n] = xstrdup(item);
    t->shares[t->n++] = *w;
    return 0;
}

int gentrace_types_parse(const char *spec, struct gentrace_types *out,
                         struct bfs_error *e)
{
    struct gentrace_types t = {0, NULL, NULL};
    char *buf = xstrdup(spec), *p = buf;
    size_t items = 1;
    double w, sum = 0.0;
    int rc = 0;

    for (const char *q = spec; *q; q++)
        items += *q == ',';
    t.names = xcalloc(items, sizeof *t.names);
    t.shares = xcalloc(items, sizeof *t.shares);
    for (size_t k = 0; k < items && rc == 0; k++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if ((rc = parse_type(p, &t, &w, e)) == 0)
            sum += w;
        p = comma ? comma + 1 : p;
    }
    xfree(buf);
    if (rc) {
        gentrace_types_release(&t);
        return rc;
    }
    for (size_t k = 0; k < t.n; k++)
        t.shares[k] /= sum;
    *out = t;
    return 0;
}

void gentrace_types_counts(const struct gentrace_types *t, size_t nodes,
                           size_t *counts)
{
    double *rem = xmalloc(t->n * sizeof *rem);
    size_t left = nodes;

    for (size_t k = 0; k < t->n; k++) {
        double q = (double)nodes * t->shares[k], f = floor(q);
        counts[k] = (size_t)f;
        rem[k] = q - f;
        left -= counts[k] <= left ? counts[k] : left;
    }
    /* One more node each to the largest remainders, first listed on a
     * tie (strictly larger wins). */
    while (left > 0) {
        size_t best = 0;
        for (size_t k = 1; k < t->n; k++)
            if (rem[k] > rem[best])
                best = k;
        counts[best]++;
        rem[best] = -1.0;
        left--;
    }
    xfree(rem);
}

void gentrace_types_release(struct gentrace_types *t)
{
    xfree_strv(t->names, t->n);
    xfree(t->shares);
    memset(t, 0, sizeof *t);
}

/* The per-node type names of t for n nodes and the seed (malloc'd array
 * of names borrowed from t), or NULL when t is. */
static const char **node_types(const struct gentrace_types *t, size_t n,
                               uint64_t seed)
{
    size_t *counts, *perm, i = 0;
    const char **v;
    uint64_t state = seed ^ GEN_TYPE_STREAM;

    if (!t)
        return NULL;
    counts = xmalloc(t->n * sizeof *counts);
    perm = xmalloc(n * sizeof *perm);
    v = xmalloc(n * sizeof *v);
    gentrace_types_counts(t, n, counts);
    for (size_t k = 0; k < t->n; k++)
        for (size_t c = 0; c < counts[k] && i < n; c++)
            perm[i++] = k;
    bfs_shuffle(perm, n, &state);
    for (i = 0; i < n; i++)
        v[i] = t->names[perm[i]];
    xfree(perm);
    xfree(counts);
    return v;
}

int gentrace_write(const char *path, const struct gentrace_opts *o,
                   struct gentrace_stats *st, struct bfs_error *e)
{
    return gentrace_write_typed(path, o, NULL, st, e);
}

int gentrace_write_typed(const char *path, const struct gentrace_opts *o,
                         const struct gentrace_types *tt,
                         struct gentrace_stats *st, struct bfs_error *e)
{
    struct gentrace_stats s = {0};
    struct trace_writer *w = NULL;
    struct rng *rng = NULL;
    struct slot *heap = NULL;
    uint8_t *idle = NULL;
    uint32_t *join = NULL, *leave = NULL;
    char **names = NULL, *arena = NULL;
    size_t n = o->nodes, width = 1, nj = 0, nl = 0;
    int64_t end, warm, t;
    uint64_t sm = o->seed;
    const char **types;
    int rc;

    if (n == 0 || n > UINT32_MAX)
        return bfs_fail(e, BFS_EUSAGE,
                        "the number of nodes must be 1..%" PRIu32, UINT32_MAX);
    /* The trace must be readable: every time within BFS_TIME_MIN..MAX. */
    if (o->duration < 1 || o->duration > BFS_DURATION_MAX ||
        o->start < BFS_TIME_MIN || o->start > BFS_TIME_MAX - o->duration)
        return bfs_fail(e, BFS_EUSAGE,
                        "start + duration ends after 9999-12-31 23:59:59 "
                        "(Unix seconds %" PRId64 ")",
                        BFS_TIME_MAX);
    end = o->start + o->duration;

    /* Names n0 .. n(N-1), zero-padded to one width. */
    for (size_t x = n - 1; x >= 10; x /= 10)
        width++;
    names = xmalloc(n * sizeof *names);
    arena = xmalloc(n * (width + 2));
    for (size_t i = 0; i < n; i++) {
        names[i] = arena + i * (width + 2);
        snprintf(names[i], width + 2, "n%0*zu", (int)width, i);
    }

    rng = xmalloc(n * sizeof *rng);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            rng[i].s[k] = splitmix64(&sm);
    idle = xcalloc(n, 1);
    heap = xmalloc(n * sizeof *heap);
    join = xmalloc(n * sizeof *join);
    leave = xmalloc(n * sizeof *leave);

    /* Warm-up: run each node from start - warm, busy, up to start. */
    {
        double cycle =
            gentrace_dist_mean(o->idle) + gentrace_dist_mean(o->busy);
        double wd = 20.0 * cycle;
        warm = wd > 1e12 ? (int64_t)1e12 : (int64_t)ceil(wd);
    }
    for (size_t i = 0; i < n; i++) {
        t = o->start - warm;
        for (;;) {
            int64_t len = draw(idle[i] ? o->idle : o->busy, &rng[i]);
            if (t + len > o->start) {
                t += len;
                break;
            }
            t += len;
            idle[i] ^= 1;
        }
        heap[i].time = t;
        heap[i].node = (uint32_t)i;
        if (idle[i])
            join[nj++] = (uint32_t)i;
    }
    /* Heapify bottom-up. */
    for (size_t i = n / 2; i-- > 0;)
        sift_down(heap, n, i);

    types = node_types(tt, n, o->seed);
    rc = trace_writer_open_typed(path, (const char *const *)names, types, n,
                                 o->comments, &w, e);
    xfree(types);
    if (rc)
        goto out;
    if (o->gzip_level && (rc = trace_writer_set_level(w, o->gzip_level)) != 0) {
        bfs_fail(e, rc, "%s: cannot set gzip level %d", path, o->gzip_level);
        goto out;
    }
    rc = trace_writer_event(w, o->start, join, nj, NULL, 0, e);
    if (rc)
        goto out;
    s.events = 1;
    s.joins = nj;
    s.idle_at_start = nj;
    t = o->start;
    while (heap[0].time <= end) {
        int64_t now = heap[0].time;
        nj = nl = 0;
        while (heap[0].time == now) {
            uint32_t i = heap[0].node;
            idle[i] ^= 1;
            if (idle[i])
                join[nj++] = i;
            else
                leave[nl++] = i;
            heap[0].time = now + draw(idle[i] ? o->idle : o->busy, &rng[i]);
            sift_down(heap, n, 0);
        }
        rc = trace_writer_event(w, now, join, nj, leave, nl, e);
        if (rc)
            goto out;
        s.events++;
        s.joins += nj;
        s.leaves += nl;
        t = now;
    }
    if (t < end) {
        rc = trace_writer_event(w, end, NULL, 0, NULL, 0, e);
        if (rc)
            goto out;
        s.events++;
    }
    rc = trace_writer_finish(w, e);
    w = NULL;
    if (rc == 0 && st)
        *st = s;

out:
    trace_writer_abort(w);
    xfree(leave);
    xfree(join);
    xfree(heap);
    xfree(idle);
    xfree(rng);
    xfree(arena);
    xfree(names);
    return rc;
}
