/* joblog.c - the job log: one CSV row per job of the set, at the end of
 * the replay.  The job's name is quoted as RFC 4180 says when it needs
 * it (base/csv.h: a comma, a quote, blanks at an end, ...); times are
 * "YYYY-MM-DD HH:MM:SS" (UTC), empty when the thing never happened;
 * numbers print with 17 digits so that they read back exactly.
 *
 * Columns that depend on the records (node types, checkpoints,
 * features) make the header wait for the first record (rec_text's
 * pending header); a replay without them writes the fixed header, byte
 * for byte as before they existed. */
#include "config.h"

#include "base/csv.h"
#include "base/util.h"
#include "formats/records.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define JOBLOG_HEADER                                                          \
    "job,tsub,admitted,first_start,finished,completion_s,samples,"             \
    "node_seconds,rescales,preemptions,paused_s,lost_rescale,lost_preempt,"    \
    "starts"

static void put_time(FILE *f, int64_t t)
{
    char ts[BFS_TIME_LEN];

    if (t >= 0)
        fputs(bfs_time_format(t, ts), f);
    fputc(',', f);
}

#define JOBLOG_LEARNED ",observations,counts_observed,fit_a,fit_b"
#define JOBLOG_CKPT                                                            \
    ",ckpt_lost_samples,ckpt_pause_cost,ckpt_writes,ckpt_restarts"

/* Whether feature name is already a column of the job log: it is then
 * written as feature:NAME, as /jobs of the HDF5 file does (a feature
 * name holds no ':', so that name is free). */
static int joblog_taken(const struct rec_job *j, int learned, const char *name)
{
    if (bfs_word_in(JOBLOG_HEADER, ',', name) ||
        (learned && bfs_word_in(JOBLOG_LEARNED, ',', name)) ||
        (j->ckpt && bfs_word_in(JOBLOG_CKPT, ',', name)))
        return 1;
    if (learned || j->n_types == 0)
        return 0;
    if (strcmp(name, "type_moves") == 0)
        return 1;
    for (size_t k = 0; k < j->n_types; k++)
        if (strncmp(name, "node_seconds@", 13) == 0 &&
            strcmp(name + 13, j->type_names[k]) == 0)
            return 1;
    return 0;
}

/* The header, with the node types' columns of j's trace (unless
 * learned), the checkpoint columns when its set has checkpoints and the
 * features' columns of its job set (feature:NAME for a name taken),
 * written at the first record in place of the pending one. */
static void joblog_header(struct rec_text *t, const struct rec_job *j,
                          int learned)
{
    FILE *f = t->out.fp;

    fputs(JOBLOG_HEADER, f);
    if (learned)
        fputs(JOBLOG_LEARNED, f);
    if (!learned && j->n_types > 0)
        fputs(",type_moves", f);
    for (size_t k = 0; !learned && k < j->n_types; k++)
        fprintf(f, ",node_seconds@%s", j->type_names[k]);
    if (j->ckpt)
        fputs(JOBLOG_CKPT, f);
    for (size_t k = 0; k < j->n_features; k++) {
        fputs(joblog_taken(j, learned, j->feature_names[k]) ? ",feature:" : ",",
              f);
        csv_field(f, j->feature_names[k]);
    }
    fputc('\n', f);
    xfree(t->pending);
    t->pending = NULL;
}

/* The job's checkpoint fields (if its set has checkpoints) and feature
 * fields, each after a comma, and the row's end. */
static int joblog_end(struct rec_text *t, const struct rec_job *j)
{
    FILE *f = t->out.fp;

    if (j->ckpt)
        fprintf(f, ",%.17g,%.17g,%zu,%zu", j->ckpt_lost_samples,
                j->ckpt_pause_cost, j->ckpt_writes, j->ckpt_restarts);
    for (size_t k = 0; k < j->n_features; k++) {
        fputc(',', f);
        if (j->features && j->features[k])
            csv_field(f, j->features[k]);
    }
    fputc('\n', f);
    return rec_text_check(t);
}

/* Writes the header if it is pending, then j's columns up to starts. */
static int joblog_job(struct rec_text *t, const struct rec_job *j, int learned)
{
    FILE *f = t->out.fp;

    if (t->pending)
        joblog_header(t, j, learned);
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

static int joblog_job_plain(void *arg, const struct rec_job *j)
{
    struct rec_text *t = arg;
    FILE *f = t->out.fp;
    int rc = joblog_job(t, j, 0);

    if (rc)
        return rc;
    if (j->n_types > 0)
        fprintf(f, ",%zu", j->type_moves);
    for (size_t k = 0; k < j->n_types; k++)
        fprintf(f, ",%.17g", j->node_seconds_t[k]);
    return joblog_end(t, j);
}

static int joblog_job_learned(void *arg, const struct rec_job *j)
{
    struct rec_text *t = arg;
    FILE *f = t->out.fp;
    int rc = joblog_job(t, j, 1);

    if (rc)
        return rc;
    fprintf(f, ",%zu,%zu,", j->observations, j->counts_observed);
    if (j->fit_ok)
        fprintf(f, "%.17g,%.17g", j->fit_a, j->fit_b);
    else
        fputc(',', f);
    return joblog_end(t, j);
}

int joblog_open(const char *path, struct rec_sink *sink, struct bfs_error *e)
{
    int rc = rec_text_open(path, "", sink, e);

    if (rc == 0) {
        ((struct rec_text *)sink->arg)->pending = xstrdup(JOBLOG_HEADER "\n");
        sink->job = joblog_job_plain;
    }
    return rc;
}

int joblog_open_learned(const char *path, struct rec_sink *sink,
                        struct bfs_error *e)
{
    int rc = rec_text_open(path, "", sink, e);

    if (rc == 0) {
        ((struct rec_text *)sink->arg)->pending =
            xstrdup(JOBLOG_HEADER JOBLOG_LEARNED "\n");
        sink->job = joblog_job_learned;
    }
    return rc;
}
