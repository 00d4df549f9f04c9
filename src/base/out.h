/* out.h - atomic output: the one way bfsim writes a file.
 *
 * An output is written to a temporary file "TARGET.tmp.XXXXXX" beside its
 * target and renamed over the target by bfs_out_commit, so that a reader
 * never sees a half-written file and a failed or interrupted run leaves
 * nothing behind (bfs_out_abort removes the temporary file).  What
 * happens depends on what the path names when the output is opened:
 *
 *   - nothing, or a regular file: replaced atomically by the rename;
 *   - a symbolic link: followed (link after link, relative links read
 *     from their own directory) to the file it names, which is created
 *     or replaced as above; the link itself stays a link, as the shell's
 *     "> link" would leave it;
 *   - "-": standard output, for text streams only (BFS_OUT_TEXT);
 *   - anything else (a device such as /dev/null, a FIFO, a directory):
 *     never renamed over.  A text stream (BFS_OUT_TEXT) is written in
 *     place, as before (/dev/null, a FIFO, /dev/stdout work; a directory
 *     fails to open); an output that can only be written by rename
 *     (BFS_OUT_FILE, BFS_OUT_PATH) fails with "PATH: not a regular
 *     file" and creates nothing.
 *
 * Commit checks the target again just before the rename, so a target
 * that became something other than a regular file in the meantime is
 * not replaced either.
 */
#ifndef BFS_OUT_H
#define BFS_OUT_H

#include <stdio.h>

#include "base/error.h"

/* How an output is written. */
enum bfs_out_mode {
    BFS_OUT_TEXT, /* a stream (o->fp); "-" is standard output and a
                     device or FIFO is written in place */
    BFS_OUT_FILE, /* a stream (o->fp), to a regular file by rename only
                     (tables that must be complete or absent) */
    BFS_OUT_PATH  /* no stream: the writer creates the file at o->tmp
                     itself (HDF5) and closes it before commit */
};

struct bfs_out {
    FILE *fp;     /* write here (BFS_OUT_TEXT, BFS_OUT_FILE); NULL for
                     BFS_OUT_PATH */
    char *path;   /* owned; the path as given, for messages */
    char *tmp;    /* owned; the temporary file beside the target, NULL for
                     standard output and outputs written in place */
    char *target; /* owned; what the rename replaces: path, or the file a
                     symbolic link at path names; NULL when tmp is */
    int direct;   /* a device or FIFO opened in place */
    int finished; /* bfs_out_finish succeeded: only commit or abort remain */
};

/* Opens the output at path in the given mode.  For BFS_OUT_PATH the
 * temporary file exists, empty and closed, when this returns: the writer
 * may overwrite or truncate it (HDF5's H5F_ACC_TRUNC) but must not remove
 * it.  Returns 0, or BFS_EIO with the problem in e naming path ("cannot
 * create: ...", "not a regular file", ...); on failure nothing is left on
 * disk and o is zeroed. */
int bfs_out_open_mode(struct bfs_out *o, const char *path,
                      enum bfs_out_mode mode, struct bfs_error *e);

/* bfs_out_open_mode(o, path, BFS_OUT_TEXT, e): a text output. */
int bfs_out_open(struct bfs_out *o, const char *path, struct bfs_error *e);

/* The first of two phases, for outputs that must become visible
 * together: flushes, syncs and closes the stream (a BFS_OUT_PATH writer
 * has closed its file already; it is synced here), so that only the
 * rename remains.  Standard output is flushed, not closed; a device or
 * FIFO is flushed and closed.  Returns 0, or BFS_EIO (reported in e,
 * naming path; o is left for bfs_out_abort).  A no-op once it succeeded. */
int bfs_out_finish(struct bfs_out *o, struct bfs_error *e);

/* Makes the output visible: bfs_out_finish if it has not run, then
 * renames the temporary file over the target.  Standard output is
 * flushed, not closed; a device or FIFO is flushed and closed.  Returns
 * 0, or BFS_EIO (reported in e, naming path) with the temporary file
 * removed.  Always releases o; a zeroed or committed struct is a no-op. */
int bfs_out_commit(struct bfs_out *o, struct bfs_error *e);

/* Closes the stream and removes the temporary file, leaving the target
 * as it was; safe on a zeroed, committed or aborted struct. */
void bfs_out_abort(struct bfs_out *o);

#endif
