/* zout.h - compressed output streams, the codec chosen by the path's
 * suffix.
 *
 * The writers of text that may be large (native traces) compress what
 * they write when the output's name says so, the way gzip, xz, bzip2 and
 * zstd name their files: ".gz" gzip (zlib), ".zst" zstd (libzstd), ".xz"
 * xz (liblzma), ".bz2" bzip2 (libbz2); any other name is plain text.  The
 * reader (bfs_lines, util.h) tells the codec by content and reads all
 * four, so whatever is written here reads back.  A stream writes its
 * compressed bytes to a FILE the caller opened (the temporary file of
 * bfs_out, out.h) and never closes it; the caller commits or aborts the
 * file once the stream is closed.
 */
#ifndef BFS_ZOUT_H
#define BFS_ZOUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

enum bfs_zcodec {
    BFS_Z_PLAIN,
    BFS_Z_GZIP,  /* ".gz" */
    BFS_Z_ZSTD,  /* ".zst" */
    BFS_Z_XZ,    /* ".xz" */
    BFS_Z_BZIP2, /* ".bz2" */
};

/* The codec a path's suffix names: BFS_Z_PLAIN for any other name
 * (standard output "-" included). */
enum bfs_zcodec bfs_zcodec_of(const char *path);

/* The codec's name ("plain", "gzip", "zstd", "xz", "bzip2"). */
const char *bfs_zcodec_name(enum bfs_zcodec c);

/* Levels (the codec's own scale; 0 below means the codec's default):
 * gzip 1..9 (default 9), zstd 1..19 (default 12), xz 0..9 (default 6,
 * xz's own), bzip2 1..9 (default 9, bzip2's own).  The defaults are for
 * files written once and read often; tools/doc/trace-compression-*.md has
 * the measurements behind zstd's. */
#define BFS_ZOUT_GZIP_LEVEL 9
#define BFS_ZOUT_ZSTD_LEVEL 12
#define BFS_ZOUT_XZ_LEVEL 6
#define BFS_ZOUT_BZIP2_LEVEL 9

/* Whether level is in c's range (0, the default, always is; plain text
 * takes only 0). */
int bfs_zout_level_ok(enum bfs_zcodec c, int level);

struct bfs_zout;

/* Starts a stream of codec c (not BFS_Z_PLAIN) at level (0: the
 * default) writing to fp (borrowed; it must outlive the stream).  path
 * names the output in messages.  Returns 0 with *out set, or BFS_EINVAL
 * for a level out of range, BFS_EIO when the codec cannot start (both
 * reported in e, naming path). */
int bfs_zout_open(FILE *fp, const char *path, enum bfs_zcodec c, int level,
                  struct bfs_zout **out, struct bfs_error *e);

/* Compresses len bytes of p into the stream.  Returns 0, or BFS_EIO
 * (reported in e, naming the path) after which only bfs_zout_abort
 * remains. */
int bfs_zout_write(struct bfs_zout *z, const void *p, size_t len,
                   struct bfs_error *e);

/* Changes a gzip stream's level from now on (what was written at the old
 * level is flushed first).  Returns 0, BFS_EINVAL for a level out of
 * range, BFS_EUNSUP for another codec (their level is set at open), or
 * BFS_EIO (reported in e). */
int bfs_zout_set_level(struct bfs_zout *z, int level, struct bfs_error *e);

/* Ends the stream (the codec's trailer), writes what remains to fp and
 * flushes fp, then frees z.  Returns 0, or BFS_EIO (reported in e); z is
 * freed either way. */
int bfs_zout_close(struct bfs_zout *z, struct bfs_error *e);

/* Frees the stream without ending it (the output is to be discarded).
 * NULL is a no-op. */
void bfs_zout_abort(struct bfs_zout *z);

#endif
