/* records.c - ending a replay's sinks in two phases, and the text sinks'
 * common life cycle.
 *
 * Design: a sink's output is invisible until its commit renames it, and
 * the owner commits only once every sink has finished (written, flushed,
 * synced).  So a failure in any output, or in the replay, leaves no
 * output at all, and a reader never sees one output of a run beside
 * another's older copy because one of them failed.  A committed or
 * aborted sink has its callbacks cleared, so ending it twice is safe.
 */
#include "config.h"

#include "formats/records.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void released(struct rec_sink *s)
{
    s->commit = NULL;
    s->abort = NULL;
    s->finish = NULL;
}

int rec_sinks_finish(struct rec_sink *const *sinks, size_t n, int partial,
                     struct bfs_error *e)
{
    for (size_t i = 0; i < n; i++)
        if (sinks[i]->finish) {
            int rc = sinks[i]->finish(sinks[i]->arg, partial, e);
            if (rc)
                return rc;
        }
    return 0;
}

int rec_sinks_commit(struct rec_sink *const *sinks, size_t n,
                     struct bfs_error *e)
{
    int rc = 0;

    for (size_t i = 0; i < n; i++) {
        struct bfs_error mine;
        int r;
        if (!sinks[i]->commit)
            continue;
        bfs_error_clear(&mine);
        r = sinks[i]->commit(sinks[i]->arg, &mine);
        released(sinks[i]);
        if (r && rc == 0) {
            rc = r;
            *e = mine;
        }
    }
    return rc;
}

void rec_sinks_abort(struct rec_sink *const *sinks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (sinks[i]->abort)
            sinks[i]->abort(sinks[i]->arg);
        released(sinks[i]);
    }
}

/* ---- text sinks ------------------------------------------------------ */

int rec_text_check(struct rec_text *t)
{
    if (t->err.code)
        return t->err.code;
    if (t->out.fp && ferror(t->out.fp))
        return bfs_fail_at(&t->err, BFS_EIO, t->out.path, 0, "write error");
    return 0;
}

FILE *rec_text_file(const struct rec_sink *sink)
{
    const struct rec_text *t = sink->arg;

    return t->out.fp;
}

static int text_finish(void *arg, int partial, struct bfs_error *e)
{
    struct rec_text *t = arg;
    int rc = rec_text_check(t);

    (void)partial;
    if (rc == 0 && t->pending) {
        fputs(t->pending, t->out.fp);
        rc = rec_text_check(t);
    }
    if (rc == 0)
        rc = bfs_out_finish(&t->out, &t->err);
    if (rc)
        *e = t->err;
    return rc;
}

static int text_commit(void *arg, struct bfs_error *e)
{
    struct rec_text *t = arg;
    int rc = bfs_out_commit(&t->out, e);

    xfree(t->pending);
    xfree(t);
    return rc;
}

static void text_abort(void *arg)
{
    struct rec_text *t = arg;

    bfs_out_abort(&t->out);
    xfree(t->pending);
    xfree(t);
}

int rec_text_open(const char *path, const char *header, struct rec_sink *sink,
                  struct bfs_error *e)
{
    struct rec_text *t = xcalloc(1, sizeof *t);
    int rc = bfs_out_open(&t->out, path, e);

    if (rc) {
        xfree(t);
        return rc;
    }
    fputs(header, t->out.fp);
    memset(sink, 0, sizeof *sink);
    sink->arg = t;
    sink->finish = text_finish;
    sink->commit = text_commit;
    sink->abort = text_abort;
    return 0;
}
