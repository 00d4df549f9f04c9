/* pool.c - the pool and the node map.
 *
 * The pool is an ordered list of subset node positions: the nodes idle at
 * t0 in node order, then every join appended at the end; a departure
 * removes its node keeping the order.  owner[] gives each node's job.
 * One rule turns the allocator's counts into a map, in two linear passes
 * over the pool whatever the number of jobs: shrinking jobs release their
 * lowest-position nodes, then growing jobs, in job order, take the
 * lowest-position free nodes.  Both modes use it, so their maps agree
 * whenever their counts do.
 */
#include "config.h"

#include "engine/replay_impl.h"

/* Removes the nodes in r->leaves from the pool, keeping the order. */
void pool_remove_leaves(struct replay *r)
{
    size_t w = 0;

    for (size_t i = 0; i < r->n_leaves; i++)
        r->owner[r->leaves[i]] = -2; /* marked for removal */
    for (size_t p = 0; p < r->n_pool; p++)
        if (r->owner[r->pool[p]] != -2)
            r->pool[w++] = r->pool[p];
        else
            r->owner[r->pool[p]] = -1;
    r->n_pool = w;
}

void pool_append_joins(struct replay *r)
{
    for (size_t i = 0; i < r->n_joins; i++) {
        r->owner[r->joins[i]] = -1;
        r->pool[r->n_pool++] = r->joins[i];
    }
}

/* Applies rjob.target to every active job by the map rule. */
void apply_targets(struct replay *r)
{
    size_t a = 0;

    /* Shrinking jobs release their lowest-position nodes. */
    for (size_t p = 0; p < r->n_pool; p++) {
        int32_t j = r->owner[r->pool[p]];
        if (j >= 0 && r->jobs[j].held > r->jobs[j].target) {
            r->owner[r->pool[p]] = -1;
            r->jobs[j].held--;
        }
    }
    /* Growing jobs, in job order, take the lowest-position free nodes. */
    for (size_t p = 0; p < r->n_pool; p++) {
        struct rjob *rj;
        if (r->owner[r->pool[p]] != -1)
            continue;
        while (a < r->n_act &&
               r->jobs[r->act[a]].held >= r->jobs[r->act[a]].target)
            a++;
        if (a == r->n_act)
            break;
        rj = &r->jobs[r->act[a]];
        r->owner[r->pool[p]] = (int32_t)r->act[a];
        rj->held++;
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
