/* h5tables.h - small tables written at once as one HDF5 file.
 *
 * For results that are complete before they are written (`bfsim solve`
 * over a corpus): each table is a chunked, compressed compound dataset
 * at the file's root, one field per column (64-bit integers, doubles, or
 * variable-length UTF-8 strings), and the file carries string attributes
 * at its root.  The file is written atomically (base/out.h).
 */
#ifndef BFS_H5TABLES_H
#define BFS_H5TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Kinds of column. */
enum { H5COL_INT, H5COL_REAL, H5COL_TEXT };

/* One column: n_rows values at data (borrowed): int64_t, double or
 * const char * (NULL is written as ""). */
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

/* Writes the tables and the root attributes attrs[2k] = attrs[2k + 1]
 * (n_attrs pairs) to path, atomically.  Returns 0, or BFS_EIO with a
 * message naming path in e (nothing is left on disk). */
int h5tables_write(const char *path, const struct h5tab *tabs, size_t n_tabs,
                   const char *const *attrs, size_t n_attrs,
                   struct bfs_error *e);

#endif
