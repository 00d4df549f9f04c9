/* paths.h - the files one command reads and writes, checked against each
 * other before anything is read.
 *
 * A command that writes names its inputs and outputs (struct
 * bfs_paths_role, one per option given) and calls bfs_paths_check once,
 * after parsing and before opening anything: an output that is an input
 * would destroy it (the atomic rename of base/out.h replaces it whole),
 * and two outputs on one file lose one of them.  Both are usage errors.
 */
#ifndef BFS_PATHS_H
#define BFS_PATHS_H

#include <stddef.h>

#include "base/error.h"

/* One file (or folder) a command reads or writes. */
struct bfs_paths_role {
    const char *option; /* how the user named it, for messages: "--trace",
                           "-o", "INPUT" (borrowed) */
    const char *path;   /* as given (or as resolved, e.g. a bundled file),
                           NULL when the option was not given (borrowed) */
    int output;         /* nonzero: written; zero: read */
    const char *member; /* when path is a folder: a fnmatch(3) pattern of
                           the files in it that are read or written
                           ("*.json"), or NULL (borrowed) */
};

/* Checks the n roles r against each other.  Each given path must be
 * non-empty.  An output and an input conflict when they name the same
 * file: the same path as given, the same path once symbolic links, "."
 * and ".." are resolved (for a path that does not exist yet: its
 * folder's), or the same device and inode when both exist; or when one
 * is a folder with a member pattern and the other a file in that folder
 * whose name matches it.  Two outputs conflict in the same ways.  Never
 * in conflict: "-" (standard input or output) and character devices
 * (/dev/null), which writing does not replace.  Returns 0, or BFS_EUSAGE
 * with a message naming both options and the path ("--steps and
 * --summary both name 'x'"), or naming the option of an empty path. */
int bfs_paths_check(const struct bfs_paths_role *r, size_t n,
                    struct bfs_error *e);

#endif
