/* batsim.c - the training jobs' node-level schedule as a Batsim-style
 * jobs.csv (--batsim-jobs): one row per contiguous holding, that is per
 * job and interval in which the job's set of nodes stays the same, its
 * nodes written as a Batsim interval set ("0-3 7": subset node
 * positions, ascending, runs joined by '-', separated by spaces).
 *
 * The sink keeps the last node map it was given (owner per node) and the
 * start of every job's open holding.  At each event it finds the jobs
 * whose set changed in one pass over the nodes, closes their holdings
 * (writing a row with the set they had) and opens new ones for those
 * that still hold nodes; finish closes what is open at the last event.
 * Times are seconds since the replay's start (Batsim's simulation time).
 * The rows' (finish - start) x nodes, summed per job, are the job's
 * node-seconds of the job log.
 */
#include "config.h"

#include "formats/hostlist.h"
#include "formats/records.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct batsim {
    struct rec_sink text; /* the CSV file (rec_text_open) */
    size_t n;             /* nodes */
    int32_t *owner;       /* owned: the map of the last event */
    size_t n_jobs;
    int64_t *open;          /* owned: per job, its holding's start, or -1 */
    size_t *rows;           /* owned: per job, rows written */
    const struct job *jobs; /* borrowed: the job set */
    unsigned char *changed; /* owned: per job, scratch */
    uint32_t *list;         /* owned: node lists, scratch (n) */
    size_t *start;          /* owned: per job offset in list (n_jobs+1) */
    int64_t t0, last;
    int started;
};

/* Writes the row of job j's holding [b->open[j], t) on the nodes
 * nodes[0..k-1] (ascending). */
static void put_row(struct batsim *b, size_t j, const uint32_t *nodes, size_t k,
                    int64_t t)
{
    FILE *f = rec_text_file(&b->text);
    int64_t s = b->open[j] - b->t0, e = t - b->t0,
            sub = b->jobs[j].tsub - b->t0;

    fprintf(f,
            "%s!%zu,%s,%" PRId64 ",%zu,%" PRId64 ",%" PRId64 ",%" PRId64
            ",%" PRId64 ",",
            b->jobs[j].name, b->rows[j]++, b->jobs[j].name, sub, k, s, e - s, e,
            s - sub);
    hostlist_ids_write(f, nodes, k);
    fputc('\n', f);
}

/* Closes at t the holdings of the jobs marked in b->changed (or of every
 * job, when all is set), from the map b->owner. */
static void close_rows(struct batsim *b, int64_t t, int all)
{
    for (size_t j = 0; j <= b->n_jobs; j++)
        b->start[j] = 0;
    for (size_t i = 0; i < b->n; i++) {
        int32_t j = b->owner[i];
        if (j >= 0 && (all || b->changed[j]))
            b->start[j + 1]++;
    }
    for (size_t j = 0; j < b->n_jobs; j++)
        b->start[j + 1] += b->start[j];
    for (size_t i = 0; i < b->n; i++) {
        int32_t j = b->owner[i];
        if (j >= 0 && (all || b->changed[j]))
            b->list[b->start[j]++] = (uint32_t)i;
    }
    /* start[j] is now the end of j's list; its beginning, start[j-1]. */
    for (size_t j = 0; j < b->n_jobs; j++) {
        size_t lo = j ? b->start[j - 1] : 0, hi = b->start[j];
        if ((all || b->changed[j]) && b->open[j] >= 0) {
            if (t > b->open[j] && hi > lo)
                put_row(b, j, b->list + lo, hi - lo, t);
            b->open[j] = -1;
        }
    }
}

static int batsim_nodes(void *arg, const struct rec_nodes *m)
{
    struct batsim *b = arg;
    size_t any = 0;

    if (!b->started) {
        b->n = m->n;
        b->n_jobs = m->n_jobs;
        b->jobs = m->jobs;
        b->t0 = m->t0;
        b->owner = xmalloc((b->n + 1) * sizeof *b->owner);
        for (size_t i = 0; i < b->n; i++)
            b->owner[i] = -1;
        b->open = xmalloc((b->n_jobs + 1) * sizeof *b->open);
        b->rows = xcalloc(b->n_jobs + 1, sizeof *b->rows);
        b->changed = xcalloc(b->n_jobs + 1, 1);
        b->list = xmalloc((b->n + 1) * sizeof *b->list);
        b->start = xmalloc((b->n_jobs + 1) * sizeof *b->start);
        for (size_t j = 0; j < b->n_jobs; j++)
            b->open[j] = -1;
        b->started = 1;
    }
    memset(b->changed, 0, b->n_jobs);
    for (size_t i = 0; i < b->n; i++)
        if (b->owner[i] != m->owner[i]) {
            if (b->owner[i] >= 0)
                b->changed[b->owner[i]] = 1;
            if (m->owner[i] >= 0)
                b->changed[m->owner[i]] = 1;
            any = 1;
        }
    if (any) {
        close_rows(b, m->time, 0);
        memcpy(b->owner, m->owner, b->n * sizeof *b->owner);
        for (size_t i = 0; i < b->n; i++) {
            int32_t j = b->owner[i];
            if (j >= 0 && b->changed[j] && b->open[j] < 0)
                b->open[j] = m->time;
        }
    }
    b->last = m->time;
    return rec_text_check(b->text.arg);
}

static void batsim_release(struct batsim *b)
{
    xfree(b->owner);
    xfree(b->open);
    xfree(b->rows);
    xfree(b->changed);
    xfree(b->list);
    xfree(b->start);
    xfree(b);
}

static int batsim_finish(void *arg, int partial, struct bfs_error *e)
{
    struct batsim *b = arg;

    if (b->started)
        close_rows(b, b->last, 1);
    return b->text.finish(b->text.arg, partial, e);
}

static int batsim_commit(void *arg, struct bfs_error *e)
{
    struct batsim *b = arg;
    int rc = b->text.commit(b->text.arg, e);

    batsim_release(b);
    return rc;
}

static void batsim_abort(void *arg)
{
    struct batsim *b = arg;

    b->text.abort(b->text.arg);
    batsim_release(b);
}

int batsim_jobs_open(const char *path, struct rec_sink *sink,
                     struct bfs_error *e)
{
    struct batsim *b = xcalloc(1, sizeof *b);
    int rc = rec_text_open(path,
                           "job_id,workload_name,submission_time,"
                           "requested_number_of_resources,starting_time,"
                           "execution_time,finish_time,waiting_time,"
                           "allocated_resources\n",
                           &b->text, e);

    if (rc) {
        xfree(b);
        return rc;
    }
    memset(sink, 0, sizeof *sink);
    sink->arg = b;
    sink->nodes = batsim_nodes;
    sink->finish = batsim_finish;
    sink->commit = batsim_commit;
    sink->abort = batsim_abort;
    return 0;
}
