/* joblog.c - the job log: one CSV row per job of the set, at the end of
 * the replay.  The job's name is quoted as RFC 4180 says when it needs
 * it (base/csv.h: a comma, a quote, blanks at an end, ...); times are
 * "YYYY-MM-DD HH:MM:SS" (UTC), empty when the thing never happened;
 * numbers print with 17 digits so that they read back exactly. */
#include "config.h"

#include "base/csv.h"
#include "formats/records.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void put_time(FILE *f, int64_t t)
{
    char ts[BFS_TIME_LEN];

    if (t >= 0)
        fputs(bfs_time_format(t, ts), f);
    fputc(',', f);
}

static int joblog_job(void *arg, const struct rec_job *j)
{
    struct rec_text *t = arg;
    FILE *f = t->out.fp;

    csv_field(f, j->name);
    fputc(',', f);
    put_time(f, j->tsub);
    put_time(f, j->admitted);
    put_time(f, j->first_start);
    put_time(f, j->finished);
    if (j->finished >= 0)
        fprintf(f, "%" PRId64, j->finished - j->tsub);
    fprintf(f, ",%.17g,%.17g,%zu,%zu,%.17g,%.17g,%.17g,%zu", j->samples,
            j->node_seconds, j->rescales, j->preemptions, j->paused_s,
            j->lost_rescale, j->lost_preempt, j->starts);
    return rec_text_check(t);
}

/* With node types: the job's type moves and node-seconds per type. */
static int joblog_job_types(void *arg, const struct rec_job *j)
{
    int rc = joblog_job(arg, j);
    FILE *f = ((struct rec_text *)arg)->out.fp;

    if (rc)
        return rc;
    fprintf(f, ",%zu", j->type_moves);
    for (size_t k = 0; k < j->n_types; k++)
        fprintf(f, ",%.17g", j->node_seconds_t[k]);
    fputc('\n', f);
    return rec_text_check(arg);
}

static int joblog_job_plain(void *arg, const struct rec_job *j)
{
    int rc = joblog_job(arg, j);

    if (rc == 0) {
        fputc('\n', ((struct rec_text *)arg)->out.fp);
        rc = rec_text_check(arg);
    }
    return rc;
}

static int joblog_job_learned(void *arg, const struct rec_job *j)
{
    int rc = joblog_job(arg, j);
    FILE *f = ((struct rec_text *)arg)->out.fp;

    if (rc)
        return rc;
    fprintf(f, ",%zu,%zu,", j->observations, j->counts_observed);
    if (j->fit_ok)
        fprintf(f, "%.17g,%.17g", j->fit_a, j->fit_b);
    else
        fputc(',', f);
    fputc('\n', f);
    return rec_text_check(arg);
}

#define JOBLOG_HEADER                                                          \
    "job,tsub,admitted,first_start,finished,completion_s,samples,"             \
    "node_seconds,rescales,preemptions,paused_s,lost_rescale,lost_preempt,"    \
    "starts"

int joblog_open(const char *path, struct rec_sink *sink, struct bfs_error *e)
{
    int rc = rec_text_open(path, JOBLOG_HEADER "\n", sink, e);
    if (rc == 0)
        sink->job = joblog_job_plain;
    return rc;
}

int joblog_open_types(const char *path, const char *const *types,
                      size_t n_types, struct rec_sink *sink,
                      struct bfs_error *e)
{
    size_t cap = sizeof JOBLOG_HEADER + 16, len;
    char *h;
    int rc;

    for (size_t k = 0; k < n_types; k++)
        cap += strlen(types[k]) + 16;
    h = xmalloc(cap);
    len = (size_t)snprintf(h, cap, "%s,type_moves", JOBLOG_HEADER);
    for (size_t k = 0; k < n_types; k++)
        len +=
            (size_t)snprintf(h + len, cap - len, ",node_seconds@%s", types[k]);
    snprintf(h + len, cap - len, "\n");
    rc = rec_text_open(path, h, sink, e);
    if (rc == 0)
        sink->job = joblog_job_types;
    xfree(h);
    return rc;
}

int joblog_open_learned(const char *path, struct rec_sink *sink,
                        struct bfs_error *e)
{
    int rc = rec_text_open(
        path, JOBLOG_HEADER ",observations,counts_observed,fit_a,fit_b\n", sink,
        e);
    if (rc == 0)
        sink->job = joblog_job_learned;
    return rc;
}
