/* pool.c - the pool and the node map.
 *
 * The pool is an ordered list of subset node positions: the nodes idle at
 * t0 in node order, then every join appended at the end; a departure
 * removes its node keeping the order.  owner[] gives each node's job.
 * A departure only leaves a hole in the array (found by pool_at[]), so
 * that an event costs O(changes).  The map rule walks the array skipping
 * the holes (a ranking's tie-break on the index in the array keeps the
 * pool's order); the readers of positions (hints, the allocator's node
 * view, the node-map sinks) squeeze them out first (pool_compact), as do
 * the departures once there is more than a hole for four nodes: the
 * walks cost at most 1.25 x the pool, the compactions O(1) a departure,
 * amortised.  Every order seen is the one an eager removal gives.
 * One rule turns the allocator's counts into a map, in two linear passes
 * over the pool whatever the number of jobs: shrinking jobs release their
 * nodes in release order, then growing jobs, in job order, take the free
 * nodes in take order.  Both modes use it, so their maps agree whenever
 * their counts do.
 *
 * --node-pick sets the orders (engine/nodepick.h).  longest-idle, the
 * default, takes and releases in pool order (lowest position first)
 * without ranking anything.  The others rank the pool at each decision
 * that changes a count (a stable sort on (key, position)); oracle and
 * predicted release in the reverse of their take order.  The oracle's
 * future comes from a first pass over the trace (pool_pick_setup) that
 * keeps every departure of the subset: 8 bytes each, 3.4 MB for the
 * Summit trace's 423,354.
 */
#include "config.h"

#include "engine/replay_impl.h"

#include "base/util.h"
#include "engine/tiebreak.h"

#include <math.h>
#include <stdlib.h>

void pool_remove_leaves(struct replay *r)
{
    for (size_t i = 0; i < r->n_leaves; i++) {
        uint32_t k = r->leaves[i];
        pool_note_leave(r, k, r->row.time);
        pool_mark(r, k);
        if (r->in_pool[k]) {
            r->pool[r->pool_at[k]] = POOL_HOLE;
            r->n_pool--;
            if (r->pools_t)
                r->pools_t[r->ntype[k]]--;
        }
        r->in_pool[k] = 0;
        r->owner[k] = -1;
    }
    /* More than a hole for four nodes: squeezed out, so that a walk of
     * the array costs at most 1.25 x the pool, and the compaction, at
     * most 5 entries a departure since the last. */
    if (4 * (r->pool_len - r->n_pool) > r->n_pool)
        pool_compact(r);
}

void pool_compact(struct replay *r)
{
    size_t w = 0, from = r->free_from;

    if (r->pool_len == r->n_pool)
        return;
    r->free_from = SIZE_MAX;
    for (size_t p = 0; p < r->pool_len; p++) {
        if (p == from)
            r->free_from = w;
        if (r->pool[p] != POOL_HOLE) {
            r->pool_at[r->pool[p]] = (uint32_t)w;
            r->pool[w++] = r->pool[p];
        }
    }
    r->pool_len = w;
    if (r->free_from > w)
        r->free_from = w;
}

void pool_append(struct replay *r, uint32_t k)
{
    r->in_pool[k] = 1;
    r->pool_at[k] = (uint32_t)r->pool_len;
    r->pool[r->pool_len++] = k;
    r->n_pool++;
    if (r->pools_t)
        r->pools_t[r->ntype[k]]++;
}

void pool_append_joins(struct replay *r)
{
    if (r->pool_len + r->n_joins > r->pool_cap)
        pool_compact(r);
    for (size_t i = 0; i < r->n_joins; i++) {
        pool_note_join(r, r->joins[i], r->row.time);
        pool_mark(r, r->joins[i]);
        r->owner[r->joins[i]] = -1;
        pool_append(r, r->joins[i]);
    }
}

/* ---- the rule's knowledge ------------------------------------------- */

struct departure {
    uint32_t node;
    int64_t time;
};

static int by_node_time(const void *a, const void *b)
{
    const struct departure *x = a, *y = b;

    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->time > y->time) - (x->time < y->time);
}

int pool_pick_setup(struct replay *r)
{
    enum nodepick_kind kind = r->o->node_pick.kind;
    enum nodepick_hints hints = r->o->hints;
    struct trace_reader *tr;
    struct trace_event ev;
    struct departure *d = NULL;
    size_t n = 0, cap = 0;
    int rc;

    r->pick = xmalloc((r->n_nodes + 1) * sizeof *r->pick);
    if (hints != HINTS_OFF)
        r->hint_e = xmalloc((r->n_nodes + 1) * sizeof *r->hint_e);
    if (kind == NODEPICK_PREDICTED || hints == HINTS_PREDICTED) {
        nodepick_hist_init(&r->hist);
        r->joined = xmalloc((r->n_nodes + 1) * sizeof *r->joined);
        for (size_t k = 0; k < r->n_nodes; k++)
            r->joined[k] = -1;
    }
    if (kind != NODEPICK_ORACLE && kind != NODEPICK_PREDICTED &&
        hints != HINTS_ORACLE)
        return 0;
    rc = trace_open(r->o->trace_path, &tr, r->e);
    if (rc)
        return rc;
    r->never = INT64_MIN;
    while ((rc = trace_next(tr, &ev, r->e)) == 1) {
        for (size_t i = 0; i < ev.n_leave; i++) {
            size_t k = ev.leave[i];
            if (k < r->skip || k - r->skip >= r->n_nodes)
                continue;
            BFS_GROW(d, cap, n + 1);
            d[n++] = (struct departure){(uint32_t)(k - r->skip), ev.time};
        }
        r->never = ev.time + 1;
    }
    trace_close(tr);
    if (rc < 0) {
        xfree(d);
        return rc;
    }
    /* The trace's times ascend, so sorting by node keeps each node's
     * departures in time order; the sort is for the grouping. */
    if (n > 1)
        qsort(d, n, sizeof *d, by_node_time);
    r->lv_start = xcalloc(r->n_nodes + 1, sizeof *r->lv_start);
    r->lv_cur = xcalloc(r->n_nodes + 1, sizeof *r->lv_cur);
    r->lv_time = xmalloc((n + 1) * sizeof *r->lv_time);
    for (size_t i = 0; i < n; i++) {
        r->lv_start[d[i].node + 1]++;
        r->lv_time[i] = d[i].time;
    }
    for (size_t k = 0; k < r->n_nodes; k++) {
        r->lv_start[k + 1] += r->lv_start[k];
        r->lv_cur[k] = r->lv_start[k];
    }
    xfree(d);
    return 0;
}

void pool_pick_release(struct replay *r)
{
    nodepick_hist_release(&r->hist);
    XFREE_ALL(r->joined, r->lv_start, r->lv_time, r->lv_cur, r->pick, r->hint_e,
              r->hint_h);
}

void pool_pick_reset(struct replay *r)
{
    if (!r->joined)
        return;
    nodepick_hist_release(&r->hist);
    nodepick_hist_init(&r->hist);
    for (size_t k = 0; k < r->n_nodes; k++)
        r->joined[k] = -1;
}

void pool_note_join(struct replay *r, uint32_t k, int64_t t)
{
    if (r->joined)
        r->joined[k] = t;
}

void pool_note_leave(struct replay *r, uint32_t k, int64_t t)
{
    if (r->joined && r->joined[k] >= 0) {
        nodepick_hist_add(&r->hist, t - r->joined[k]);
        r->joined[k] = -1;
    }
}

/* Node k's true remaining idle time at t: its first departure after t
 * (the trace's last time + 1 when it has none) - t. */
static double true_remaining(struct replay *r, uint32_t k, int64_t t)
{
    size_t end = r->lv_start[k + 1];

    while (r->lv_cur[k] < end && r->lv_time[r->lv_cur[k]] <= t)
        r->lv_cur[k]++;
    return (double)((r->lv_cur[k] < end ? r->lv_time[r->lv_cur[k]] : r->never) -
                    t);
}

static double predicted_remaining(const struct replay *r, uint32_t k, int64_t t)
{
    int64_t age = r->joined[k] >= 0 ? t - r->joined[k] : 0;

    return nodepick_predict(&r->hist, age);
}

static int by_key_pos(const void *a, const void *b)
{
    const struct pick_ent *x = a, *y = b;

    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Ranks the pool by the rule into r->pick (take order, n_pool entries;
 * pos is an index in r->pool, which may have holes: their order is the
 * pool's order, so ties break the same way). */
static void rank_pool(struct replay *r)
{
    const struct nodepick *np = &r->o->node_pick;
    int64_t t = r->dec_time;
    size_t m = 0;

    for (size_t p = 0; p < r->pool_len; p++) {
        uint32_t k = r->pool[p];
        double key = 0.0;
        if (k == POOL_HOLE)
            continue;
        switch (np->kind) {
        case NODEPICK_LOWEST_INDEX:
            key = (double)k;
            break;
        case NODEPICK_ORACLE:
            key = -true_remaining(r, k, t);
            break;
        case NODEPICK_PREDICTED:
            key = -predicted_remaining(r, k, t);
            break;
        default:
            break;
        }
        r->pick[m++] = (struct pick_ent){key, (uint32_t)p};
    }
    if (np->kind == NODEPICK_RANDOM) {
        uint64_t st = nodepick_random_state(np->seed, r->dec_evt);
        for (size_t k = r->n_pool; k-- > 1;) {
            size_t i = (size_t)(bfs_splitmix64(&st) % (k + 1));
            struct pick_ent x = r->pick[k];
            r->pick[k] = r->pick[i];
            r->pick[i] = x;
        }
        return;
    }
    qsort(r->pick, r->n_pool, sizeof *r->pick, by_key_pos);
}

/* The index in r->pool ranked k-th in take order (ranked: r->pick holds
 * the ranking, 0 <= k < n_pool; otherwise pool order, 0 <= k < pool_len,
 * holes included). */
static size_t take_at(const struct replay *r, int ranked, size_t k)
{
    return ranked ? r->pick[k].pos : k;
}

/* Whether node k, held by rj, is one rj gives back: beyond its new
 * count, or with types (the allocator gave the job counts per type)
 * beyond its new count on k's type, which is 0 on every type but its
 * own unless jobs span types. */
static int releases(const struct replay *r, const struct rjob *rj, uint32_t k)
{
    if (r->aware && rj->ttype >= 0)
        return rj->held_t[r->ntype[k]] > rj->target_t[r->ntype[k]];
    return rj->held > rj->target;
}

/* How many nodes rj gives back by releases(): its nodes beyond its new
 * count, on each type when it has counts per type (each of its nodes is
 * in the pool, so the walk meets them all). */
static size_t releases_count(const struct replay *r, const struct rjob *rj)
{
    size_t n = 0;

    if (r->aware && rj->ttype >= 0) {
        for (size_t t = 0; t < r->n_types; t++)
            if (rj->held_t[t] > rj->target_t[t])
                n += (size_t)(rj->held_t[t] - rj->target_t[t]);
        return n;
    }
    return rj->held > rj->target ? (size_t)(rj->held - rj->target) : 0;
}

/* Whether rj takes node k: it needs more nodes, of k's type when the
 * allocator gave it counts per type. */
static int takes(const struct replay *r, const struct rjob *rj, uint32_t k)
{
    if (r->aware && rj->ttype >= 0)
        return rj->held_t[r->ntype[k]] < rj->target_t[r->ntype[k]];
    return rj->held < rj->target;
}

/* Applies rjob.target (and rjob.target_t) to every active job by the map
 * rule: with node types, a job gives back its nodes beyond its new count
 * on each type (every node, when it moves to another type), and a
 * growing job takes free nodes of the types it grows on only. */
void apply_targets(struct replay *r)
{
    enum nodepick_kind kind = r->o->node_pick.kind;
    int ranked = 0,
        reverse = kind == NODEPICK_ORACLE || kind == NODEPICK_PREDICTED;
    size_t a = 0, at, n, need = 0, excess = 0, left = SIZE_MAX;
    int started;
    int shrink = 0, grow = 0;

    for (size_t i = 0; i < r->n_act; i++) {
        const struct rjob *rj = &r->jobs[r->act[i]];
        int moves = core_type_move(r, rj, rj->held);
        shrink |= rj->held > rj->target || moves;
        grow |= rj->held < rj->target || moves;
        excess += releases_count(r, rj);
    }
    if (kind != NODEPICK_LONGEST_IDLE) {
        ranked = shrink || grow;
        if (ranked)
            rank_pool(r);
    }
    /* the entries to walk: the ranking, or r->pool with its holes */
    n = ranked ? r->n_pool : r->pool_len;
    /* Shrinking jobs release their nodes in release order (without a
     * change of count nothing is ranked, and neither pass does a thing,
     * so neither runs: the map costs O(jobs) at an event that changes no
     * count, not O(pool)); the walk stops at the last node released. */
    for (size_t i = 0; shrink && excess > 0 && i < n; i++) {
        size_t p = take_at(r, ranked, reverse ? n - 1 - i : i);
        int32_t j;
        if (r->pool[p] == POOL_HOLE)
            continue;
        j = r->owner[r->pool[p]];
        if (j >= 0 && releases(r, &r->jobs[j], r->pool[p])) {
            pool_mark(r, r->pool[p]);
            r->owner[r->pool[p]] = -1;
            pool_freed(r, p);
            job_drop_node(r, &r->jobs[j], r->pool[p]);
            excess--;
        }
    }
    for (size_t i = 0; grow && i < r->n_act; i++) {
        const struct rjob *rj = &r->jobs[r->act[i]];
        if (rj->held < rj->target)
            need += (size_t)(rj->target - rj->held);
    }
    /* Growing jobs, in job order, take the free nodes in take order:
     * the first job that takes the node gets it.  In pool order the
     * walk starts at r->free_from (nothing free before it) and leaves it
     * at the first free node left. */
    started = need > 0;
    at = ranked ? 0 : r->free_from;
    for (; need > 0 && at < n; at++) {
        size_t p = take_at(r, ranked, at);
        uint32_t k = r->pool[p];
        size_t b;
        struct rjob *rj;
        if (k == POOL_HOLE || r->owner[k] != -1)
            continue;
        while (a < r->n_act &&
               r->jobs[r->act[a]].held >= r->jobs[r->act[a]].target)
            a++;
        for (b = a; b < r->n_act && !takes(r, &r->jobs[r->act[b]], k); b++)
            ;
        if (b == r->n_act) {
            left = left < p ? left : p;
            continue;
        }
        rj = &r->jobs[r->act[b]];
        pool_mark(r, k);
        r->owner[k] = (int32_t)r->act[b];
        job_take_node(r, rj, k);
        need--;
        if (kind == NODEPICK_PREDICTED) {
            r->mae_sum +=
                fabs(-r->pick[at].key - true_remaining(r, k, r->dec_time));
            r->mae_n++;
        }
    }
    if (!ranked && started)
        r->free_from = left < at ? left : at;
    if (r->o->map)
        r->o->map(r->o->map_arg, r->dec_evt, r->owner, r->n_nodes);
}

/* ---- hints ------------------------------------------------------------ */

void pool_hints(struct replay *r)
{
    enum nodepick_kind kind = r->o->node_pick.kind;
    int ranked = kind != NODEPICK_LONGEST_IDLE,
        reverse = kind == NODEPICK_ORACLE || kind == NODEPICK_PREDICTED;
    double tfwd = r->o->tfwd, *e = r->hint_e;
    size_t need = 1, off = 0;

    pool_compact(r);
    if (ranked)
        rank_pool(r);
    for (size_t p = 0; p < r->n_pool; p++) {
        uint32_t k = r->pool[p];
        double rem = r->o->hints == HINTS_ORACLE
                         ? true_remaining(r, k, r->dec_time)
                         : predicted_remaining(r, k, r->dec_time);
        e[p] = rem < tfwd ? rem : tfwd;
    }
    for (size_t a = 0; a < r->n_act; a++)
        need += (size_t)r->ajobs[a].jmax + 1;
    BFS_GROW(r->hint_h, r->hint_h_cap, need);
    for (size_t a = 0; a < r->n_act; a++) {
        struct alloc_job *jb = &r->ajobs[a];
        double *h = r->hint_h + off, sum = 0.0;
        int32_t self = (int32_t)r->act[a];
        int held = 0, n;

        /* Counts up to C_j: the nodes kept are the last n of the job's
         * own in release order; summed from the last, S(n) = S(n-1) +
         * the n-th from the end. */
        h[0] = tfwd;
        for (size_t i = r->n_pool; i-- > 0 && held < jb->cur;) {
            size_t p = take_at(r, ranked, reverse ? r->n_pool - 1 - i : i);
            if (r->owner[r->pool[p]] != self)
                continue;
            held++;
            sum += e[p];
            if (held <= jb->jmax)
                h[held] = sum / held;
        }
        /* Above C_j: the free nodes in take order, then the other jobs'
         * nodes in take order. */
        n = held;
        for (int pass = 0; pass < 2 && n < jb->jmax; pass++)
            for (size_t i = 0; i < r->n_pool && n < jb->jmax; i++) {
                size_t p = take_at(r, ranked, i);
                int32_t o = r->owner[r->pool[p]];
                if (o == self || (pass == 0) != (o == -1))
                    continue;
                n++;
                sum += e[p];
                h[n] = sum / n;
            }
        /* Counts the pool cannot give (beyond N) are inadmissible. */
        for (n++; n <= jb->jmax; n++)
            h[n] = 0.0;
        jb->h = h;
        off += (size_t)jb->jmax + 1;
    }
}

size_t nodes_in_use(const struct replay *r)
{
    size_t n = 0;

    for (size_t a = 0; a < r->n_act; a++)
        n += (size_t)r->jobs[r->act[a]].held;
    return n;
}

size_t jobs_running(const struct replay *r)
{
    size_t n = 0;

    for (size_t a = 0; a < r->n_act; a++)
        n += r->jobs[r->act[a]].held > 0;
    return n;
}
