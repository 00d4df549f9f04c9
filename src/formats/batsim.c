/* batsim.c - the training jobs' node-level schedule as a Batsim-style
 * jobs.csv (--batsim-jobs): one row per contiguous holding, that is per
 * job and interval in which the job's set of nodes stays the same, its
 * nodes written as a Batsim interval set ("0-3 7": subset node
 * positions, ascending, runs joined by '-', separated by spaces).  The
 * job_id and workload_name fields are quoted as RFC 4180 says when the
 * job's name needs it (base/csv.h).
 *
 * The job holdings come from formats/holdings.c; this file writes them.
 * Times are seconds since the replay's start (Batsim's simulation time).
 * The rows' (finish - start) x nodes, summed per job, are the job's
 * node-seconds of the job log.
 *
 * The holdings still open when the replay ends are written by finish(),
 * after the replay has released its job set; so the sink keeps its own
 * copy of what a row needs of each job (name, submission time), taken
 * from the first node map, and never reads a map's job set after the
 * callback that handed it.
 */
#include "config.h"

#include "base/csv.h"
#include "formats/holdings.h"
#include "formats/hostlist.h"
#include "formats/records.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct batsim {
    struct rec_sink text;  /* the CSV file (rec_text_open) */
    struct holdings *hold; /* owned */
    size_t n_jobs;
    /* Per job, from the first map (all NULL before it): rows written, the
     * name and the submission time. */
    size_t *rows;  /* owned */
    char **names;  /* owned, and each name */
    int64_t *tsub; /* owned */
};

/* The job-holding callback: writes the row of job j's holding
 * [start, end) on the nodes nodes[0..k-1] (ascending). */
static int put_row(void *arg, size_t j, int64_t start, int64_t end,
                   const uint32_t *nodes, size_t k)
{
    struct batsim *b = arg;
    FILE *f = rec_text_file(&b->text);
    int64_t t0 = holdings_t0(b->hold);
    int64_t s = start - t0, e = end - t0, sub = b->tsub[j] - t0;

    csv_fieldf(f, "%s!%zu", b->names[j], b->rows[j]++);
    fputc(',', f);
    csv_field(f, b->names[j]);
    fprintf(f,
            ",%" PRId64 ",%zu,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",",
            sub, k, s, e - s, e, s - sub);
    hostlist_ids_write(f, nodes, k);
    fputc('\n', f);
    return 0;
}

static int batsim_nodes(void *arg, const struct rec_nodes *m)
{
    struct batsim *b = arg;

    if (!b->rows) {
        b->n_jobs = m->n_jobs;
        b->rows = xcalloc(b->n_jobs + 1, sizeof *b->rows);
        b->names = xcalloc(b->n_jobs + 1, sizeof *b->names);
        b->tsub = xcalloc(b->n_jobs + 1, sizeof *b->tsub);
        for (size_t j = 0; j < b->n_jobs; j++) {
            b->names[j] = xstrdup(m->jobs[j].name);
            b->tsub[j] = m->jobs[j].tsub;
        }
    }
    holdings_update(b->hold, m);
    return rec_text_check(b->text.arg);
}

static void batsim_release(struct batsim *b)
{
    holdings_free(b->hold);
    for (size_t j = 0; b->names && j < b->n_jobs; j++)
        xfree(b->names[j]);
    xfree(b->names);
    xfree(b->tsub);
    xfree(b->rows);
    xfree(b);
}

static int batsim_finish(void *arg, int partial, struct bfs_error *e)
{
    struct batsim *b = arg;

    holdings_end(b->hold);
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
    struct hold_cb cb = {.arg = b, .job = put_row};
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
    b->hold = holdings_new(&cb);
    memset(sink, 0, sizeof *sink);
    sink->arg = b;
    sink->nodes = batsim_nodes;
    sink->finish = batsim_finish;
    sink->commit = batsim_commit;
    sink->abort = batsim_abort;
    return 0;
}
