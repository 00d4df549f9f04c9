/* h5tables.h - small tables written at once as one HDF5 file.
 *
 * For results that are complete before they are written (`bfsim solve`
 * over a corpus): each table is a chunked, compressed compound dataset
 * at the file's root, one field per column (64-bit integers, doubles, or
 * variable-length UTF-8 strings; or fixed-length ones, for a table that
 * asks), and the file carries string attributes at its root, a table
 * at its dataset if it asks.  The file is written atomically
 * (base/out.h).
 */
#ifndef BFS_H5TABLES_H
#define BFS_H5TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct bfs_out;

/* Kinds of column.  H5COL_FIXED: a fixed-length, NUL-padded UTF-8
 * string field of h5tab_more.width[column] bytes (a longer value is cut
 * there). */
enum { H5COL_INT, H5COL_REAL, H5COL_TEXT, H5COL_FIXED };

/* One column: n_rows values at data (borrowed): int64_t, double or
 * const char * (H5COL_TEXT and H5COL_FIXED; NULL is written as ""). */
struct h5col {
    const char *name;
    int kind; /* H5COL_* */
    const void *data;
};

/* One table: a dataset of n_rows records. */
struct h5tab {
    const char *name;
    size_t n_rows;
    const struct h5col *cols;
    size_t n_cols;
};

/* What a table may add to the defaults (h5tables_write_out).  All
 * borrowed. */
struct h5tab_more {
    /* per column, the bytes of an H5COL_FIXED field (>= 1); NULL when
     * the table has no such column */
    const size_t *width;
    /* string attributes of the table's dataset, attrs[2k] = attrs[2k + 1]
     * (n_attrs pairs) */
    const char *const *attrs;
    size_t n_attrs;
};

/* Writes the tables and the root attributes attrs[2k] = attrs[2k + 1]
 * (n_attrs pairs) to path, atomically.  Returns 0, or BFS_EIO with a
 * message naming path in e (nothing is left on disk). */
int h5tables_write(const char *path, const struct h5tab *tabs, size_t n_tabs,
                   const char *const *attrs, size_t n_attrs,
                   struct bfs_error *e);

/* The same, table k with more[k] added when more is not NULL, into the
 * temporary file of out, opened here (base/out.h, BFS_OUT_PATH) and left
 * for the caller to commit (bfs_out_commit) or abort (bfs_out_abort):
 * so that several outputs are replaced together.  Returns 0, or BFS_EIO
 * with a message naming path in e, out then aborted. */
int h5tables_write_out(struct bfs_out *out, const char *path,
                       const struct h5tab *tabs, const struct h5tab_more *more,
                       size_t n_tabs, const char *const *attrs, size_t n_attrs,
                       struct bfs_error *e);

#endif
