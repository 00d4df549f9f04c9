/* zout.c - see zout.h.
 *
 * Design: one struct for every codec, a tagged union of the four
 * libraries' stream states and one 128 KiB output buffer.  Each codec
 * step compresses into the free end of the buffer; a full buffer (and,
 * at close, what remains) is handed to fwrite, so fp sees few large
 * writes whatever the callers' line sizes.  A write always consumes all
 * its input before returning: no input is held between calls.
 *
 * gzip is deflate with a gzip wrapper (windowBits 16 + 15, memLevel 8,
 * the default strategy): the header deflate writes holds no time stamp
 * or name, so equal input gives equal bytes, the bytes gzwrite gives.
 * zstd writes one frame with its content checksum (as the zstd tool
 * does) through ZSTD_compressStream2; xz one stream with a CRC64 check
 * (xz's default) from lzma_easy_encoder; bzip2 one stream.
 *
 * Invariants: len <= sizeof buf; a stream whose step failed is marked
 * failed and accepts nothing but abort (close then reports the failure).
 */
#include "config.h"

#include "base/zout.h"
#include "base/util.h"

#include <bzlib.h>
#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define ZOUT_BUF (1u << 17)

struct bfs_zout {
    enum bfs_zcodec codec;
    FILE *fp;   /* borrowed */
    char *path; /* owned, for messages */
    int live;   /* the codec holds state to release */
    int failed; /* a step failed: only abort remains */
    union {
        z_stream z;
        ZSTD_CCtx *zs;
        lzma_stream x;
        bz_stream b;
    } u;
    size_t len; /* bytes of buf not yet written to fp */
    unsigned char buf[ZOUT_BUF];
};

static const struct {
    const char *suffix, *name;
    int lo, hi, dflt;
} codecs[] = {
    [BFS_Z_PLAIN] = {"", "plain", 0, 0, 0},
    [BFS_Z_GZIP] = {".gz", "gzip", 1, 9, BFS_ZOUT_GZIP_LEVEL},
    [BFS_Z_ZSTD] = {".zst", "zstd", 1, 19, BFS_ZOUT_ZSTD_LEVEL},
    [BFS_Z_XZ] = {".xz", "xz", 0, 9, BFS_ZOUT_XZ_LEVEL},
    [BFS_Z_BZIP2] = {".bz2", "bzip2", 1, 9, BFS_ZOUT_BZIP2_LEVEL},
};
#define N_CODECS (sizeof codecs / sizeof *codecs)

enum bfs_zcodec bfs_zcodec_of(const char *path)
{
    size_t n = strlen(path);

    for (size_t c = 1; c < N_CODECS; c++) {
        size_t k = strlen(codecs[c].suffix);
        if (n > k && strcmp(path + n - k, codecs[c].suffix) == 0)
            return (enum bfs_zcodec)c;
    }
    return BFS_Z_PLAIN;
}

const char *bfs_zcodec_name(enum bfs_zcodec c)
{
    return (size_t)c < N_CODECS ? codecs[c].name : "unknown";
}

int bfs_zout_level_ok(enum bfs_zcodec c, int level)
{
    return (size_t)c < N_CODECS &&
           (level == 0 || (c != BFS_Z_PLAIN && level >= codecs[c].lo &&
                           level <= codecs[c].hi));
}

/* Marks z failed and reports why (the codec's words, or errno's). */
static int z_fail(struct bfs_zout *z, struct bfs_error *e, const char *what)
{
    z->failed = 1;
    return bfs_fail_at(e, BFS_EIO, z->path, 0, "write error (%s: %s)",
                       codecs[z->codec].name, what);
}

/* Writes the buffer's bytes to fp.  Returns 0 or BFS_EIO. */
static int drain(struct bfs_zout *z, struct bfs_error *e)
{
    if (z->len && fwrite(z->buf, 1, z->len, z->fp) != z->len)
        return z_fail(z, e, strerror(errno));
    z->len = 0;
    return 0;
}

static void release(struct bfs_zout *z)
{
    if (!z->live)
        return;
    switch (z->codec) {
    case BFS_Z_GZIP:
        deflateEnd(&z->u.z);
        break;
    case BFS_Z_ZSTD:
        ZSTD_freeCCtx(z->u.zs);
        break;
    case BFS_Z_XZ:
        lzma_end(&z->u.x);
        break;
    case BFS_Z_BZIP2:
        BZ2_bzCompressEnd(&z->u.b);
        break;
    case BFS_Z_PLAIN:
        break;
    }
    z->live = 0;
}

int bfs_zout_open(FILE *fp, const char *path, enum bfs_zcodec c, int level,
                  struct bfs_zout **out, struct bfs_error *e)
{
    struct bfs_zout *z;
    int ok = 0;

    if (c == BFS_Z_PLAIN || (size_t)c >= N_CODECS ||
        !bfs_zout_level_ok(c, level))
        return bfs_fail(e, BFS_EINVAL, "%s: %s level %d out of range (%d..%d)",
                        path, bfs_zcodec_name(c), level,
                        (size_t)c < N_CODECS ? codecs[c].lo : 0,
                        (size_t)c < N_CODECS ? codecs[c].hi : 0);
    if (level == 0)
        level = codecs[c].dflt;
    z = xcalloc(1, sizeof *z);
    z->codec = c;
    z->fp = fp;
    z->path = xstrdup(path);
    switch (c) {
    case BFS_Z_GZIP:
        ok = deflateInit2(&z->u.z, level, Z_DEFLATED, 16 + 15, 8,
                          Z_DEFAULT_STRATEGY) == Z_OK;
        break;
    case BFS_Z_ZSTD:
        z->u.zs = ZSTD_createCCtx();
        ok = z->u.zs &&
             !ZSTD_isError(ZSTD_CCtx_setParameter(
                 z->u.zs, ZSTD_c_compressionLevel, level)) &&
             !ZSTD_isError(
                 ZSTD_CCtx_setParameter(z->u.zs, ZSTD_c_checksumFlag, 1));
        if (!ok && z->u.zs)
            ZSTD_freeCCtx(z->u.zs);
        break;
    case BFS_Z_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        z->u.x = init;
        ok = lzma_easy_encoder(&z->u.x, (uint32_t)level, LZMA_CHECK_CRC64) ==
             LZMA_OK;
        if (!ok)
            lzma_end(&z->u.x);
        break;
    }
    case BFS_Z_BZIP2:
        ok = BZ2_bzCompressInit(&z->u.b, level, 0, 0) == BZ_OK;
        break;
    case BFS_Z_PLAIN:
        break;
    }
    if (!ok) {
        int rc = bfs_fail_at(e, BFS_EIO, path, 0, "cannot start the %s stream",
                             codecs[c].name);
        xfree(z->path);
        xfree(z);
        return rc;
    }
    z->live = 1;
    *out = z;
    return 0;
}

/* One step of the codec on *in (advanced past what it took) into the
 * buffer's free end; finish asks for the stream's end.  Sets *done when
 * finishing is complete.  Returns 0 or BFS_EIO. */
static int step(struct bfs_zout *z, const unsigned char **in, size_t *avail,
                int finish, int *done, struct bfs_error *e)
{
    size_t room = ZOUT_BUF - z->len;
    unsigned char *dst = z->buf + z->len;
    /* the zlib and bzip2 counters are unsigned int */
    unsigned take = *avail > UINT_MAX ? UINT_MAX : (unsigned)*avail;
    unsigned uroom = room > UINT_MAX ? UINT_MAX : (unsigned)room;
    size_t used = 0, made = 0;

    *done = 0;
    switch (z->codec) {
    case BFS_Z_GZIP: {
        int r;
        z->u.z.next_in = (Bytef *)(uintptr_t)*in;
        z->u.z.avail_in = take;
        z->u.z.next_out = dst;
        z->u.z.avail_out = uroom;
        r = deflate(&z->u.z, finish ? Z_FINISH : Z_NO_FLUSH);
        if (r == Z_STREAM_ERROR)
            return z_fail(z, e, "deflate failed");
        used = take - z->u.z.avail_in;
        made = uroom - z->u.z.avail_out;
        *done = r == Z_STREAM_END;
        break;
    }
    case BFS_Z_ZSTD: {
        ZSTD_inBuffer zin = {*in, *avail, 0};
        ZSTD_outBuffer zo = {dst, room, 0};
        size_t r = ZSTD_compressStream2(z->u.zs, &zo, &zin,
                                        finish ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(r))
            return z_fail(z, e, ZSTD_getErrorName(r));
        used = zin.pos;
        made = zo.pos;
        *done = finish && r == 0;
        break;
    }
    case BFS_Z_XZ: {
        lzma_ret r;
        z->u.x.next_in = *in;
        z->u.x.avail_in = *avail;
        z->u.x.next_out = dst;
        z->u.x.avail_out = room;
        r = lzma_code(&z->u.x, finish ? LZMA_FINISH : LZMA_RUN);
        if (r != LZMA_OK && r != LZMA_STREAM_END)
            return z_fail(
                z, e, r == LZMA_MEM_ERROR ? "out of memory" : "liblzma failed");
        used = *avail - z->u.x.avail_in;
        made = room - z->u.x.avail_out;
        *done = r == LZMA_STREAM_END;
        break;
    }
    case BFS_Z_BZIP2: {
        int r;
        z->u.b.next_in = (char *)(uintptr_t)*in;
        z->u.b.avail_in = take;
        z->u.b.next_out = (char *)dst;
        z->u.b.avail_out = uroom;
        r = BZ2_bzCompress(&z->u.b, finish ? BZ_FINISH : BZ_RUN);
        if (r != BZ_RUN_OK && r != BZ_FINISH_OK && r != BZ_STREAM_END)
            return z_fail(z, e, "libbz2 failed");
        used = take - z->u.b.avail_in;
        made = uroom - z->u.b.avail_out;
        *done = r == BZ_STREAM_END;
        break;
    }
    case BFS_Z_PLAIN:
        return z_fail(z, e, "no codec");
    }
    if (used > 0) /* *in may be NULL when finishing */
        *in += used;
    *avail -= used;
    z->len += made;
    return z->len == ZOUT_BUF ? drain(z, e) : 0;
}

int bfs_zout_write(struct bfs_zout *z, const void *p, size_t len,
                   struct bfs_error *e)
{
    const unsigned char *in = p;
    int done;

    if (z->failed)
        return bfs_fail_at(e, BFS_EIO, z->path, 0,
                           "written after a write error");
    while (len > 0)
        if (step(z, &in, &len, 0, &done, e))
            return BFS_EIO;
    return 0;
}

int bfs_zout_set_level(struct bfs_zout *z, int level, struct bfs_error *e)
{
    int r;

    if (z->codec != BFS_Z_GZIP)
        return bfs_fail(e, BFS_EUNSUP,
                        "%s: the %s level is set when the stream starts",
                        z->path, codecs[z->codec].name);
    if (level < codecs[BFS_Z_GZIP].lo || level > codecs[BFS_Z_GZIP].hi)
        return bfs_fail(e, BFS_EINVAL, "%s: gzip level %d out of range (1..9)",
                        z->path, level);
    if (z->failed)
        return bfs_fail_at(e, BFS_EIO, z->path, 0,
                           "written after a write error");
    /* deflateParams flushes the input taken at the old level; it asks
     * for more room (Z_BUF_ERROR) when the flush does not fit. */
    for (;;) {
        if (drain(z, e))
            return BFS_EIO;
        z->u.z.next_out = z->buf;
        z->u.z.avail_out = ZOUT_BUF;
        r = deflateParams(&z->u.z, level, Z_DEFAULT_STRATEGY);
        z->len = ZOUT_BUF - z->u.z.avail_out;
        if (r == Z_OK)
            return 0;
        if (r != Z_BUF_ERROR || z->len == 0)
            return z_fail(z, e, "cannot change the level");
    }
}

int bfs_zout_close(struct bfs_zout *z, struct bfs_error *e)
{
    const unsigned char *in = NULL;
    size_t avail = 0;
    int rc = 0, done = 0;

    if (z->failed)
        rc = bfs_fail_at(e, BFS_EIO, z->path, 0, "written after a write error");
    while (rc == 0 && !done)
        rc = step(z, &in, &avail, 1, &done, e);
    if (rc == 0)
        rc = drain(z, e);
    if (rc == 0 && fflush(z->fp) != 0)
        rc = z_fail(z, e, strerror(errno));
    bfs_zout_abort(z);
    return rc;
}

void bfs_zout_abort(struct bfs_zout *z)
{
    if (!z)
        return;
    release(z);
    xfree(z->path);
    xfree(z);
}
