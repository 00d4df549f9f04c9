/* holdings.h - contiguous holdings found from a replay's node maps: the
 * one place that turns the per-event node map (struct rec_nodes) into
 * intervals, for the sinks that write the node-level schedule (the
 * Batsim-style jobs.csv, formats/batsim.c; the HDF5 /node_holdings table,
 * formats/h5out.c).
 *
 * Three kinds of interval, all half-open intervals [start, end) of Unix
 * seconds, never empty (an interval that would be is not reported):
 *   - a job holding: a job and an interval in which its set of nodes
 *     stays the same (ends when any of its nodes changes);
 *   - a node holding: a node and an interval in which one job holds it
 *     (ends when the node's owner changes);
 *   - an idle interval: a node and an interval in which it stays in the
 *     pool (idle in the trace), whoever holds it.
 * Holdings open at the event whose map first shows them and close at the
 * event whose map no longer does; those still open at the end close at
 * the last event's time (holdings_end).  Summed per job, (end - start)
 * over its node holdings, and (end - start) x nodes over its job
 * holdings, are the node-seconds the engine integrates over [t0, t_end];
 * summed over all idle intervals, (end - start) is the pool size
 * integrated over [t0, t_end] (idle_node_seconds).
 */
#ifndef BFS_HOLDINGS_H
#define BFS_HOLDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "formats/records.h"

/* What a tracker reports to.  Either callback may be NULL; a non-zero
 * return (a negative BFS_E* code) is kept and returned by the update that
 * caused it, and no further holding is reported. */
struct hold_cb {
    void *arg;
    /* Job j (index in the job set) held nodes[0..k-1] (subset positions,
     * ascending, borrowed for the call) over [start, end).  Reported in
     * job order at each event. */
    int (*job)(void *arg, size_t j, int64_t start, int64_t end,
               const uint32_t *nodes, size_t k);
    /* Node i (subset position) was held by job j over [start, end).
     * Reported in node order at each event. */
    int (*node)(void *arg, size_t i, size_t j, int64_t start, int64_t end);
    /* Node i was idle in the trace (in the pool, held or not) over
     * [start, end); only from maps that give the pool.  Reported in node
     * order at each event, after the node holdings. */
    int (*idle)(void *arg, size_t i, int64_t start, int64_t end);
};

struct holdings;

/* A new tracker reporting to *cb (copied).  Owned by the caller;
 * holdings_free releases it. */
struct holdings *holdings_new(const struct hold_cb *cb);

/* Takes the node map after an event: reports the holdings it closes (job
 * holdings first, then node holdings, then idle intervals) and opens the
 * new ones.  The first
 * call fixes the node and job counts; m is only borrowed.  Returns 0 or
 * the first callback error (kept: later calls return it). */
int holdings_update(struct holdings *h, const struct rec_nodes *m);

/* Closes every open holding at the last update's time and reports it (no
 * effect before the first update, or after an error).  Returns 0 or the
 * first callback error. */
int holdings_end(struct holdings *h);

/* The replay's start (rec_nodes.t0 of the first update; 0 before it),
 * for callbacks that need it.  The tracker keeps nothing of a map after
 * the update: a callback that needs the jobs' names (borrowed, valid only
 * during the map's callback) keeps its own copy, since holdings_end runs
 * when the replay may have released them. */
int64_t holdings_t0(const struct holdings *h);

/* Releases h (NULL: nothing). */
void holdings_free(struct holdings *h);

#endif
