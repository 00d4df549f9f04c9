/* evq.c - binary min-heap in an array: children of i at 2i+1 and 2i+2.
 * Keys are unique (the sequence number breaks every tie), so the pop
 * order is a total order independent of the push pattern. */
#include "config.h"

#include "engine/evq.h"

#include "base/util.h"

#include <string.h>

void evq_init(struct evq *q)
{
    memset(q, 0, sizeof *q);
}

void evq_release(struct evq *q)
{
    xfree(q->ev);
    memset(q, 0, sizeof *q);
}

static int before(const struct evq_event *a, const struct evq_event *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->kind != b->kind)
        return a->kind < b->kind;
    return a->seq < b->seq;
}

void evq_push(struct evq *q, struct evq_event ev)
{
    size_t i = q->n++;

    BFS_GROW(q->ev, q->cap, q->n);
    ev.seq = q->next_seq++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&ev, &q->ev[parent]))
            break;
        q->ev[i] = q->ev[parent];
        i = parent;
    }
    q->ev[i] = ev;
}

const struct evq_event *evq_peek(const struct evq *q)
{
    return q->n ? &q->ev[0] : NULL;
}

/* Moves q->ev[i] down to its place below i (the heap below it valid). */
static void sift_down(struct evq *q, size_t i)
{
    struct evq_event x = q->ev[i];

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && before(&q->ev[c + 1], &q->ev[c]))
            c++;
        if (!before(&q->ev[c], &x))
            break;
        q->ev[i] = q->ev[c];
        i = c;
    }
    q->ev[i] = x;
}

int evq_pop(struct evq *q, struct evq_event *out)
{
    if (q->n == 0)
        return -1;
    *out = q->ev[0];
    q->ev[0] = q->ev[--q->n];
    if (q->n)
        sift_down(q, 0);
    return 0;
}

void evq_filter(struct evq *q, int (*keep)(const struct evq_event *, void *),
                void *arg)
{
    size_t w = 0;

    for (size_t i = 0; i < q->n; i++)
        if (keep(&q->ev[i], arg))
            q->ev[w++] = q->ev[i];
    q->n = w;
    for (size_t i = w / 2; i-- > 0;)
        sift_down(q, i);
}
