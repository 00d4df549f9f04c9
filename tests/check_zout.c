/* check_zout.c - compressed outputs: the codec by suffix (base/zout.h),
 * the trace writer through it, and convert --from native between
 * compressions (import/import.h).
 *
 * What bfsim writes is decompressed here by each format's own library
 * (zlib's inflate, liblzma's lzma_stream_buffer_decode, libbz2's
 * BZ2_bzBuffToBuffDecompress, libzstd's ZSTD_decompress), never by
 * bfsim's reader, and compared with the text written plain, itself
 * compared with a text written out by hand.  Texts stay under 400 KB so
 * that the encoders are cheap under valgrind.
 */
#include "config.h"

#include "testutil.h"
#include "base/util.h"
#include "base/zout.h"
#include "import/import.h"
#include "formats/trace.h"

#include <bzlib.h>
#include <check.h>
#include <lzma.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* The compressed codecs, looped over, and their suffixes. */
static const enum bfs_zcodec codec[] = {BFS_Z_GZIP, BFS_Z_ZSTD, BFS_Z_XZ,
                                        BFS_Z_BZIP2};
static const char *const suffix[] = {".gz", ".zst", ".xz", ".bz2"};
#define N_CODECS (sizeof codec / sizeof *codec)

/* The whole of a file (malloc'd) and its size; the test fails if it
 * cannot be read. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, k;

    ck_assert_msg(f != NULL, "cannot open %s", path);
    *n = 0;
    do {
        BFS_GROW(buf, cap, *n + 65536);
        k = fread(buf + *n, 1, cap - *n, f);
        *n += k;
    } while (k > 0);
    fclose(f);
    return buf;
}

/* path decompressed by the library of codec c (malloc'd, NUL-terminated;
 * the test fails on corrupt or truncated data).  want_max bounds the
 * decompressed size. */
static char *decompress(enum bfs_zcodec c, const char *path, size_t want_max)
{
    size_t n, cap = want_max + 1, out = 0;
    unsigned char *in = slurp(path, &n);
    char *text = xmalloc(cap + 1);

    switch (c) {
    case BFS_Z_GZIP: {
        z_stream z;
        memset(&z, 0, sizeof z);
        ck_assert_int_eq(inflateInit2(&z, 16 + 15), Z_OK);
        z.next_in = in;
        z.avail_in = (uInt)n;
        z.next_out = (Bytef *)text;
        z.avail_out = (uInt)cap;
        ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
        ck_assert_uint_eq(z.avail_in, 0); /* one member, nothing after */
        out = cap - z.avail_out;
        inflateEnd(&z);
        break;
    }
    case BFS_Z_ZSTD:
        out = ZSTD_decompress(text, cap, in, n);
        ck_assert_msg(!ZSTD_isError(out), "%s: %s", path,
                      ZSTD_getErrorName(out));
        break;
    case BFS_Z_XZ: {
        uint64_t limit = UINT64_MAX;
        size_t in_pos = 0;
        ck_assert_int_eq(lzma_stream_buffer_decode(&limit, 0, NULL, in, &in_pos,
                                                   n, (uint8_t *)text, &out,
                                                   cap),
                         LZMA_OK);
        ck_assert_uint_eq(in_pos, n);
        break;
    }
    case BFS_Z_BZIP2: {
        unsigned len = (unsigned)cap;
        ck_assert_int_eq(BZ2_bzBuffToBuffDecompress(text, &len, (char *)in,
                                                    (unsigned)n, 0, 0),
                         BZ_OK);
        out = len;
        break;
    }
    case BFS_Z_PLAIN:
        ck_abort_msg("no codec");
    }
    ck_assert_uint_le(out, want_max);
    text[out] = '\0';
    xfree(in);
    return text;
}

/* ---- the codec by suffix ------------------------------------------------ */

START_TEST(test_suffix)
{
    ck_assert_int_eq(bfs_zcodec_of("a.trace.gz"), BFS_Z_GZIP);
    ck_assert_int_eq(bfs_zcodec_of("a.trace.zst"), BFS_Z_ZSTD);
    ck_assert_int_eq(bfs_zcodec_of("dir.gz/a.xz"), BFS_Z_XZ);
    ck_assert_int_eq(bfs_zcodec_of("a.bz2"), BFS_Z_BZIP2);
    /* only the last suffix counts, case and all; a bare suffix names a
     * hidden file, not a codec */
    ck_assert_int_eq(bfs_zcodec_of("a.zst.txt"), BFS_Z_PLAIN);
    ck_assert_int_eq(bfs_zcodec_of("a.GZ"), BFS_Z_PLAIN);
    ck_assert_int_eq(bfs_zcodec_of(".gz"), BFS_Z_PLAIN);
    ck_assert_int_eq(bfs_zcodec_of("a.gzip"), BFS_Z_PLAIN);
    ck_assert_int_eq(bfs_zcodec_of("-"), BFS_Z_PLAIN);
    ck_assert(bfs_zout_level_ok(BFS_Z_ZSTD, 19));
    ck_assert(!bfs_zout_level_ok(BFS_Z_ZSTD, 20));
    ck_assert(bfs_zout_level_ok(BFS_Z_XZ, 0));
    ck_assert(!bfs_zout_level_ok(BFS_Z_GZIP, 10));
    ck_assert(!bfs_zout_level_ok(BFS_Z_PLAIN, 1));
}
END_TEST

START_TEST(test_bad_level)
{
    struct bfs_zout *z = NULL;
    struct bfs_error e;
    FILE *f = fopen(tu_tmp("level.zst"), "wb");

    ck_assert_ptr_nonnull(f);
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_zout_open(f, "level.zst", BFS_Z_ZSTD, 23, &z, &e),
                     BFS_EINVAL);
    ck_assert_ptr_null(z);
    ck_assert_msg(strstr(e.msg, "level.zst") && strstr(e.msg, "1..19"), "%s",
                  e.msg);
    fclose(f);
}
END_TEST

/* ---- streams ------------------------------------------------------------ */

/* About 360 KB of lines with numbers from a fixed LCG: it compresses to
 * more than the stream's 128 KiB buffer with gzip, so that the buffer is
 * written out mid-stream. */
static char *make_text(size_t *len)
{
    size_t n_lines = 9000;
    char *t = xmalloc(n_lines * 48 + 1);
    uint64_t x = 2026;

    *len = 0;
    for (size_t i = 0; i < n_lines; i++) {
        tu_lcg(&x);
        *len += (size_t)sprintf(t + *len, "%zu +%llu -%llu\n", i,
                                (unsigned long long)(x >> 40),
                                (unsigned long long)(x >> 17));
    }
    return t;
}

/* Writes text through a stream of codec[_i] in pieces of 1, 2, 3, ...
 * 4096 bytes (and, for gzip, with the level changed midway, as gen-trace
 * does): the library's decoder gives the text back. */
START_TEST(test_stream)
{
    size_t len, pos = 0, piece = 1;
    char *text = make_text(&len), *back, name[16];
    const char *path;
    struct bfs_zout *z;
    struct bfs_error e;
    FILE *f;

    snprintf(name, sizeof name, "s%s", suffix[_i]);
    path = tu_tmp(name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    bfs_error_clear(&e);
    /* xz at preset 1: the default's 94 MB of encoder would be slow under
     * valgrind; the trace writer's test below uses the default. */
    ck_assert_msg(
        bfs_zout_open(f, path, codec[_i], codec[_i] == BFS_Z_XZ, &z, &e) == 0,
        "%s", e.msg);
    while (pos < len) {
        size_t k = piece < len - pos ? piece : len - pos;
        ck_assert_int_eq(bfs_zout_write(z, text + pos, k, &e), 0);
        pos += k;
        piece = piece % 4096 + 1;
        if (codec[_i] == BFS_Z_GZIP && pos >= len / 2 && pos - k < len / 2)
            ck_assert_msg(bfs_zout_set_level(z, 1, &e) == 0, "%s", e.msg);
    }
    if (codec[_i] != BFS_Z_GZIP)
        ck_assert_int_eq(bfs_zout_set_level(z, 1, &e), BFS_EUNSUP);
    ck_assert_msg(bfs_zout_close(z, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(fclose(f), 0);
    back = decompress(codec[_i], path, len);
    ck_assert_uint_eq(strlen(back), len);
    ck_assert(memcmp(back, text, len) == 0);
    xfree(back);
    xfree(text);
}
END_TEST

/* ---- the trace writer --------------------------------------------------- */

/* What write_trace writes, by hand: the header, the comment, the node
 * list, then each event with its leaves before its joins, ascending. */
#define HAND_TRACE                                                             \
    "bfsim-trace 1\n# made by check_zout\nnode a\nnode b\nnode c\n"            \
    "100 +0 +2\n160 -0 +1\n200\n250 -1 -2 +0\n"

/* Writes the trace of HAND_TRACE to path through trace_writer. */
static int write_trace(const char *path, struct bfs_error *e)
{
    static const char *const names[] = {"a", "b", "c"};
    static const char *const comments[] = {"made by check_zout", NULL};
    static const uint32_t j1[] = {2, 0}, j2[] = {1}, l2[] = {0}, j4[] = {0},
                          l4[] = {2, 1};
    struct trace_writer *w;
    int rc;

    bfs_error_clear(e);
    if ((rc = trace_writer_open(path, names, 3, comments, &w, e)) != 0)
        return rc;
    if ((rc = trace_writer_event(w, 100, j1, 2, NULL, 0, e)) != 0 ||
        (rc = trace_writer_event(w, 160, j2, 1, l2, 1, e)) != 0 ||
        (rc = trace_writer_event(w, 200, NULL, 0, NULL, 0, e)) != 0 ||
        (rc = trace_writer_event(w, 250, j4, 1, l4, 2, e)) != 0) {
        trace_writer_abort(w);
        return rc;
    }
    return trace_writer_finish(w, e);
}

/* The plain write is the text by hand; the write to NAME.trace.SUFFIX of
 * codec[_i], decompressed by its library, is the same text. */
START_TEST(test_trace_writer)
{
    char name[32], *plain, *back;
    struct bfs_error e;

    ck_assert_msg(write_trace(tu_tmp("w.trace"), &e) == 0, "%s", e.msg);
    plain = tu_slurp(tu_tmp("w.trace"));
    ck_assert_str_eq(plain, HAND_TRACE);
    snprintf(name, sizeof name, "w.trace%s", suffix[_i]);
    ck_assert_msg(write_trace(tu_tmp(name), &e) == 0, "%s", e.msg);
    back = decompress(codec[_i], tu_tmp(name), 4096);
    ck_assert_str_eq(back, plain);
    xfree(back);
    xfree(plain);
}
END_TEST

/* A compressed trace in a folder that does not exist: an error naming
 * the path, and nothing written. */
START_TEST(test_trace_unwritable)
{
    char name[64];
    struct bfs_error e;

    snprintf(name, sizeof name, "%s/w.trace%s", tu_tmp("missing"), suffix[_i]);
    ck_assert_int_eq(write_trace(name, &e), BFS_EIO);
    ck_assert_msg(strstr(e.msg, name) != NULL, "%s", e.msg);
    ck_assert(!tu_exists(tu_tmp("missing")));
}
END_TEST

/* ---- convert --from native ---------------------------------------------- */

/* A trace as a person might have edited it: comments between events, a
 * blank line, leaves after joins on a line (all kept by the copy, which
 * the writer would not keep).  3 nodes, 4 events, 5 joins, 3 leaves;
 * idle after each event 2, 2, 1, 2: at most 2. */
#define EDITED_TRACE                                                           \
    "bfsim-trace 1\n# header comment\nnode x A\nnode y B\nnode z A\n"          \
    "10 +0 +1\n# between events\n20 +2 -0\n\n30 -1\n40 +0 +1 -2\n"

START_TEST(test_native_round_trip)
{
    const char *in = tu_write("e.trace", EDITED_TRACE);
    const char *gz = tu_tmp("e.trace.gz"), *zst = tu_tmp("e.trace.zst");
    const char *gz2 = tu_tmp("e2.trace.gz"), *plain = tu_tmp("e3.trace");
    struct import_stats st;
    struct bfs_error e;
    char *back, *text;

    bfs_error_clear(&e);
    ck_assert_msg(import_native(in, gz, &st, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(st.nodes, 3);
    ck_assert_uint_eq(st.types, 2);
    ck_assert_uint_eq(st.events, 4);
    ck_assert_uint_eq(st.joins, 5);
    ck_assert_uint_eq(st.leaves, 3);
    ck_assert_int_eq(st.first_time, 10);
    ck_assert_int_eq(st.last_time, 40);
    ck_assert_uint_eq(st.max_idle, 2);
    ck_assert_msg(import_native(gz, zst, NULL, &e) == 0, "%s", e.msg);
    ck_assert_msg(import_native(zst, gz2, NULL, &e) == 0, "%s", e.msg);
    ck_assert_msg(import_native(gz2, plain, NULL, &e) == 0, "%s", e.msg);
    back = decompress(BFS_Z_ZSTD, zst, 4096);
    ck_assert_str_eq(back, EDITED_TRACE);
    xfree(back);
    back = decompress(BFS_Z_GZIP, gz2, 4096);
    ck_assert_str_eq(back, EDITED_TRACE);
    xfree(back);
    text = tu_slurp(plain);
    ck_assert_str_eq(text, EDITED_TRACE);
    xfree(text);
}
END_TEST

/* An invalid trace (node 1 taken back while busy, line 5), and an output
 * in a missing folder: errors naming the file, nothing written. */
START_TEST(test_native_errors)
{
    const char *bad =
        tu_write("bad.trace", "bfsim-trace 1\nnode a\nnode b\n10 +0\n20 -1\n");
    const char *out = tu_tmp("bad.trace.zst");
    char missing[64];
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_lt(import_native(bad, out, NULL, &e), 0);
    ck_assert_msg(strstr(e.msg, "bad.trace") && strstr(e.msg, ":5"), "%s",
                  e.msg);
    ck_assert(!tu_exists(out));
    snprintf(missing, sizeof missing, "%s/x.trace.zst", tu_tmp("nowhere"));
    bfs_error_clear(&e);
    ck_assert_int_eq(import_native(tu_good_trace(), missing, NULL, &e),
                     BFS_EIO);
    ck_assert_msg(strstr(e.msg, missing) != NULL, "%s", e.msg);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_native("-", out, NULL, &e), BFS_EINVAL);
    ck_assert(!tu_exists(out));
}
END_TEST

/* The command line: convert --from native to .zst and back to plain
 * gives the text; --comment is refused (exit 2). */
START_TEST(test_cli)
{
    char args[4096], *err, *text;

    if (!tu_bfsim_built())
        return;
    snprintf(args, sizeof args, "convert --from native -q %s -o %s",
             tu_good_trace(), tu_tmp("c.trace.zst"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    xfree(err);
    snprintf(args, sizeof args, "convert --from native -q %s -o %s",
             tu_tmp("c.trace.zst"), tu_tmp("c.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    xfree(err);
    text = tu_slurp(tu_tmp("c.trace"));
    ck_assert_str_eq(text, TU_GOOD_TRACE);
    xfree(text);
    snprintf(args, sizeof args, "convert --from native --comment hi %s -o %s",
             tu_good_trace(), tu_tmp("d.trace.zst"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 2);
    ck_assert_msg(strstr(err, "--comment") != NULL, "%s", err);
    xfree(err);
    ck_assert(!tu_exists(tu_tmp("d.trace.zst")));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zout");
    TCase *tc = tcase_create("zout");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_suffix);
    tcase_add_test(tc, test_bad_level);
    tcase_add_loop_test(tc, test_stream, 0, (int)N_CODECS);
    tcase_add_loop_test(tc, test_trace_writer, 0, (int)N_CODECS);
    tcase_add_loop_test(tc, test_trace_unwritable, 0, (int)N_CODECS);
    tcase_add_test(tc, test_native_round_trip);
    tcase_add_test(tc, test_native_errors);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
