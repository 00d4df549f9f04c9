/* h5out.h - a replay's results as one HDF5 file.
 *
 * The file is written to "PATH.tmp.XXXXXX" beside PATH (base/out.h,
 * BFS_OUT_PATH), closed and synced by h5out_close and renamed over PATH
 * by h5out_commit (the two phases of a sink, formats/records.h), so that
 * a reader never sees a half-written file and a failed or aborted run
 * leaves nothing behind; a PATH naming anything but a regular file (a
 * device, a FIFO) is refused, never renamed over.  Its layout:
 *
 *   /events       one row per processed event (the step log's columns)
 *   /solves       one row per allocator call; status is an HDF5 enum
 *   /allocations  one row per change of a job's node count: the job holds
 *                 `count` nodes from event `evt` until its next row
 *   /jobs         one row per job of the job set, at the end of the replay;
 *                 the checkpoint fields when some job has checkpoints, and
 *                 the features as strings (named feature:NAME when NAME is
 *                 a field before them) when the job set has any
 *   /node_holdings  one row per contiguous holding of a node by a job:
 *                 node (subset position), job, [start, end) (formats/
 *                 holdings.h), in order of end, then node
 *   /node_idle    one row per interval in which a node stays idle in the
 *                 trace (in the pool): node, [start, end), same order
 *   /summary      a group whose attributes hold the summary's measures
 *   root attributes: "format", "partial" and whatever the caller adds
 *
 * Every table is a chunked, extendible compound dataset (shuffle +
 * deflate) with a "columns" attribute describing its fields and units.
 * Times are int64 Unix seconds (UTC).  String attributes are
 * variable-length UTF-8, which h5py returns as str.
 *
 * After any failure the handle keeps the first error (h5out_error): every
 * later call returns its code, and h5out_close / h5out_commit report it
 * (h5out_commit and h5out_abort remove the temporary file).
 */
#ifndef BFS_H5OUT_H
#define BFS_H5OUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "formats/records.h"
#include "formats/summary.h"

struct h5out;

/* Creates the temporary file beside path and the empty tables.  Returns 0
 * and the handle in *out, or BFS_EIO / BFS_EINVAL (reported in e, naming
 * path: "PATH: not a regular file" when path names an existing device,
 * FIFO or directory); nothing is left on disk on failure.  Silences HDF5's
 * automatic error printing for the whole process (errors become messages in e).
 */
int h5out_open(const char *path, struct h5out **out, struct bfs_error *e);

/* Append one row to /events, /solves, /allocations.  Rows are buffered
 * and written a chunk at a time.  Return 0 or a negative code (the error
 * is kept in h). */
int h5out_step(struct h5out *h, const struct rec_step *s);
int h5out_solve(struct h5out *h, const struct rec_solve *s);
int h5out_alloc(struct h5out *h, const struct rec_alloc *a);
/* Takes the node map after an event (m borrowed): the node holdings and
 * idle intervals it ends become rows of /node_holdings and /node_idle;
 * those still open are written by h5out_close, ending at the last map's
 * time.  Returns 0 or a negative
 * code (kept in h). */
int h5out_nodes(struct h5out *h, const struct rec_nodes *m);
/* Adds one row to /jobs (rows keep the order of the calls).  j->name and
 * j's features are copied.  The first job sets the checkpoint fields
 * (j->ckpt) and the feature fields (j->n_features, j->feature_names); a
 * later job with other ones is BFS_EINVAL.  The table is written by
 * h5out_close, its name field and each feature field a fixed-length UTF-8
 * string as long as the longest value (at least one byte; a blank value
 * is empty). */
int h5out_job(struct h5out *h, const struct rec_job *j);

/* Root attributes: key = value, replacing an attribute of the same name.
 * Strings are stored as variable-length UTF-8, doubles as 64-bit floats,
 * integers as 64-bit signed integers.  "partial" is written by
 * h5out_close.  Return 0 or a negative code (kept in h). */
int h5out_attr_str(struct h5out *h, const char *key, const char *value);
int h5out_attr_double(struct h5out *h, const char *key, double value);
int h5out_attr_int(struct h5out *h, const char *key, int64_t value);

/* The same, as attributes of the group /summary. */
int h5out_summary_double(struct h5out *h, const char *key, double value);
int h5out_summary_int(struct h5out *h, const char *key, int64_t value);
/* Every value of v[0..n) but those that are none as a root attribute
 * named by its key (not its group), typed as h5out_summary_values types
 * them.  Returns 0 or a negative code (kept in h). */
int h5out_attr_values(struct h5out *h, const struct summary_value *v, size_t n);

/* Every value of a summary list that measures the run (not those that
 * describe it, which belong with the root attributes) as an attribute of
 * /summary named as summary_name() names it ("group.key" for a group's
 * member): integers, times (Unix seconds) and flags as 64-bit integers,
 * reals as doubles, text as strings.  Returns 0 or a negative code (kept
 * in h). */
int h5out_summary_values(struct h5out *h, const struct summary_value *v,
                         size_t n);

/* The first error met by h (code 0 and an empty message if none);
 * borrowed, valid until h is finished or aborted. */
const struct bfs_error *h5out_error(const struct h5out *h);

/* Phase 1: flushes the buffered rows, writes /jobs and the root attribute
 * "partial" (0 or 1), closes and syncs the temporary file.  Returns 0, or
 * a negative code (reported in e, also an error h met earlier); either
 * way h must then be committed or aborted. */
int h5out_close(struct h5out *h, int partial, struct bfs_error *e);

/* Phase 2: renames the closed file over the path given to h5out_open.
 * Always releases h.  Returns 0, or a negative code (reported in e; h was
 * not closed, or closing or renaming failed) with no file left at the
 * path or beside it. */
int h5out_commit(struct h5out *h, struct bfs_error *e);

/* Both phases at once, for a file written alone: h5out_close, then
 * h5out_commit, or h5out_abort if closing failed.  Always releases h. */
int h5out_finish(struct h5out *h, int partial, struct bfs_error *e);

/* Closes and removes the temporary file and releases h; NULL is a no-op. */
void h5out_abort(struct h5out *h);

/* Fills sink with callbacks that forward to h, including finish
 * (h5out_close), commit and abort: from then on, whoever ends the sink
 * releases h.  The caller may still add attributes before it is
 * finished. */
void h5out_sink(struct h5out *h, struct rec_sink *sink);

#endif
