/* evq.h - the event queue: an array binary heap of timed events.
 *
 * Events are ordered by (time, kind, sequence number).  The order of the
 * kinds is the order of processing at one instant; the sequence number,
 * given at push time, makes ties first-in first-out, so that every replay
 * is reproducible whatever the heap's internal layout.
 */
#ifndef BFS_EVQ_H
#define BFS_EVQ_H

#include <stddef.h>
#include <stdint.h>

struct evq_event {
    int64_t time;
    int kind;         /* smaller kinds first at equal times */
    uint64_t seq;     /* set by evq_push */
    size_t ref;       /* what the event is about (e.g. a job index) */
    uint64_t version; /* lets the owner recognise stale events */
};

struct evq {
    struct evq_event *ev; /* owned */
    size_t n, cap;
    uint64_t next_seq;
};

void evq_init(struct evq *q);
void evq_release(struct evq *q);

/* Adds an event (its seq is assigned here). */
void evq_push(struct evq *q, struct evq_event ev);

/* The first event, or NULL when the queue is empty (borrowed; valid until
 * the next push or pop). */
const struct evq_event *evq_peek(const struct evq *q);

/* Removes the first event into *out.  Returns 0, or -1 when empty. */
int evq_pop(struct evq *q, struct evq_event *out);

/* Removes every event for which keep(ev, arg) returns 0, in O(n): the
 * others keep their keys, so they pop in the same order as before. */
void evq_filter(struct evq *q, int (*keep)(const struct evq_event *, void *),
                void *arg);

#endif
