/* import_native.c - a native trace copied into another compression (see
 * the native block of import.h).
 *
 * Two passes over the input: the trace reader (trace.h) checks it whole
 * and counts what convert reports, then bfs_lines reads it again and
 * each line goes, with its "\n", through the output's codec (zout.h)
 * into bfs_out's temporary file.  Copying lines rather than writing the
 * events again keeps the text exactly (comments, their places, blank
 * lines, the order of a line's changes), which trace_writer would make
 * canonical.  Memory: the node list and one line.  Standard input cannot
 * be read twice, so it is refused.
 */
#include "config.h"

#include "import/import.h"
#include "formats/trace.h"
#include "base/out.h"
#include "base/util.h"
#include "base/zout.h"

#include <errno.h>
#include <string.h>

/* Reads src whole as a trace into *st. */
static int check(const char *src, struct import_stats *st, struct bfs_error *e)
{
    struct trace_reader *r;
    struct trace_event ev;
    size_t idle = 0;
    int rc;

    if ((rc = trace_open(src, &r, e)) != 0)
        return rc;
    memset(st, 0, sizeof *st);
    st->nodes = trace_node_count(r);
    st->types = trace_type_count(r);
    while ((rc = trace_next(r, &ev, e)) == 1) {
        if (st->events == 0)
            st->first_time = ev.time;
        st->last_time = ev.time;
        st->events++;
        st->joins += ev.n_join;
        st->leaves += ev.n_leave;
        idle = idle + ev.n_join - ev.n_leave;
        if (idle > st->max_idle)
            st->max_idle = idle;
    }
    trace_close(r);
    return rc;
}

/* Writes len bytes to o, through z when there is one. */
static int put(struct bfs_out *o, struct bfs_zout *z, const char *s, size_t len,
               struct bfs_error *e)
{
    if (z)
        return bfs_zout_write(z, s, len, e);
    if (fwrite(s, 1, len, o->fp) != len)
        return bfs_fail_at(e, BFS_EIO, o->path, 0, "write error: %s",
                           strerror(errno));
    return 0;
}

int import_native(const char *src, const char *out_path,
                  struct import_stats *st, struct bfs_error *e)
{
    struct import_stats s;
    struct bfs_lines *in = NULL;
    struct bfs_out o;
    struct bfs_zout *z = NULL;
    enum bfs_zcodec codec = bfs_zcodec_of(out_path);
    char *line;
    int rc;

    if (strcmp(src, "-") == 0)
        return bfs_fail(e, BFS_EINVAL,
                        "-: a native trace is copied from a file, not from "
                        "standard input (it is read twice)");
    if ((rc = check(src, &s, e)) != 0)
        return rc;
    if ((rc = bfs_lines_open(src, &in, e)) != 0)
        return rc;
    if ((rc = bfs_out_open(&o, out_path, e)) != 0)
        goto close_in;
    if (codec != BFS_Z_PLAIN &&
        (rc = bfs_zout_open(o.fp, out_path, codec, 0, &z, e)) != 0)
        goto abort_out;
    while ((rc = bfs_lines_next(in, &line, e)) == 1) {
        size_t len = strlen(line);
        line[len] = '\n'; /* the reader's line: ours until the next call */
        if ((rc = put(&o, z, line, len + 1, e)) != 0)
            goto abort_z;
        line[len] = '\0';
    }
    if (rc)
        goto abort_z;
    rc = z ? bfs_zout_close(z, e) : 0;
    z = NULL;
    if (rc == 0)
        rc = bfs_out_commit(&o, e);
    if (rc == 0 && st)
        *st = s;
abort_z:
    bfs_zout_abort(z);
abort_out:
    bfs_out_abort(&o);
close_in:
    bfs_lines_close(in);
    return rc;
}
