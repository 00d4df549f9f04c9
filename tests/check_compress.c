/* check_compress.c - compressed inputs: gzip, xz, bzip2 and zstd, told
 * by content, through the line reader (base/util.h) and so through every
 * reader.
 *
 * The compressed bytes are made here by each format's own library
 * (zlib's deflate, liblzma's lzma_easy_buffer_encode, libbz2's
 * BZ2_bzBuffToBuffCompress, libzstd's ZSTD_compress): the encoders, not
 * the decoding code under test, so the text read back must equal the
 * text given.  Texts are small (under 200 KB) so that the encoders stay
 * cheap under valgrind.
 */
#include "config.h"

#include "testimport.h"
#include "testutil.h"
#include "base/util.h"
#include "import/import.h"
#include "formats/jobs.h"
#include "formats/trace.h"

#include <bzlib.h>
#include <check.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

enum { GZ, XZ, BZ2, ZST, N_KINDS };
static const char *const kind_name[N_KINDS] = {"gzip", "xz", "bzip2", "zstd"};

/* Compresses in[0..n) in format k into out (cap bytes); returns the
 * compressed size (the test fails if the encoder does). */
static size_t compress_to(int k, const void *in, size_t n, unsigned char *out,
                          size_t cap)
{
    size_t pos = 0;

    switch (k) {
    case GZ: {
        z_stream z;
        memset(&z, 0, sizeof z);
        /* 16 + 15: a gzip wrapper (RFC 1952), as gzip writes */
        ck_assert_int_eq(
            deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
        z.next_in = (Bytef *)(uintptr_t)in;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)cap;
        ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
        pos = cap - z.avail_out;
        deflateEnd(&z);
        break;
    }
    case XZ:
        ck_assert_int_eq(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, in,
                                                 n, out, &pos, cap),
                         LZMA_OK);
        break;
    case BZ2: {
        unsigned len = (unsigned)cap;
        ck_assert_int_eq(BZ2_bzBuffToBuffCompress((char *)out, &len,
                                                  (char *)(uintptr_t)in,
                                                  (unsigned)n, 1, 0, 0),
                         BZ_OK);
        pos = len;
        break;
    }
    default:
        pos = ZSTD_compress(out, cap, in, n, 3);
        ck_assert(!ZSTD_isError(pos));
        break;
    }
    return pos;
}

/* Writes text compressed in format k to the temporary file name, as one
 * member, or as two (the text cut at byte split, inside a line) when
 * split > 0.  Returns the path; *size receives the file's size. */
static const char *write_compressed(const char *name, int k, const char *text,
                                    size_t split, size_t *size)
{
    size_t n = strlen(text), cap = n + n / 2 + 1024, len;
    unsigned char *buf = xmalloc(2 * cap);
    const char *p;

    if (split) {
        len = compress_to(k, text, split, buf, cap);
        len += compress_to(k, text + split, n - split, buf + len, cap);
    } else {
        len = compress_to(k, text, n, buf, cap);
    }
    p = tu_write_bytes(name, (const char *)buf, len);
    xfree(buf);
    if (size)
        *size = len;
    return p;
}

/* Lines "NNNNN some words VALUE" with values from a fixed LCG (so that
 * the text does not compress to nothing), about n_lines * 40 bytes. */
static char *make_text(size_t n_lines)
{
    char *t = xmalloc(n_lines * 64 + 1);
    size_t len = 0;
    uint64_t x = 12345;

    for (size_t i = 0; i < n_lines; i++) {
        tu_lcg(&x);
        len += (size_t)sprintf(t + len, "%05zu some words %llu\n", i,
                               (unsigned long long)(x >> 24));
    }
    t[len] = '\0';
    return t;
}

/* Reads path line by line and compares with text; returns the number of
 * lines read, and the reader's last code in *rc. */
static size_t read_compare(const char *path, const char *text, int *rc,
                           struct bfs_error *e)
{
    struct bfs_lines *r;
    const char *want = text;
    char *line;
    size_t n = 0;

    bfs_error_clear(e);
    ck_assert_int_eq(bfs_lines_open(path, &r, e), 0);
    while ((*rc = bfs_lines_next(r, &line, e)) == 1) {
        const char *nl = strchr(want, '\n');
        ck_assert_ptr_nonnull(nl);
        ck_assert_uint_eq(strlen(line), (size_t)(nl - want));
        ck_assert(memcmp(line, want, (size_t)(nl - want)) == 0);
        want = nl + 1;
        n++;
        ck_assert_uint_eq(bfs_lines_lineno(r), n);
    }
    bfs_lines_close(r);
    return n;
}

/* The same text, in two members cut inside a line (about 160 KB decoded,
 * more than the reader's 128 KiB buffer), reads back line for line in
 * each format, from a file and from standard input. */
START_TEST(test_formats)
{
    char *text = make_text(4000);
    size_t n = strlen(text), lines;
    struct bfs_error e;
    char name[64];
    int rc;

    for (int k = 0; k < N_KINDS; k++) {
        snprintf(name, sizeof name, "two.%s", kind_name[k]);
        const char *p = write_compressed(name, k, text, n / 3, NULL);
        lines = read_compare(p, text, &rc, &e);
        ck_assert_msg(rc == 0, "%s: %s", kind_name[k], e.msg);
        ck_assert_uint_eq(lines, 4000);

        /* standard input: the same file put on fd 0 for the read */
        int saved = dup(STDIN_FILENO), fd = open(p, O_RDONLY);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
        close(fd);
        lines = read_compare("-", text, &rc, &e);
        ck_assert_int_eq(dup2(saved, STDIN_FILENO), STDIN_FILENO);
        close(saved);
        ck_assert_msg(rc == 0, "%s stdin: %s", kind_name[k], e.msg);
        ck_assert_uint_eq(lines, 4000);
    }
    xfree(text);
}
END_TEST

/* Each format cut at half its size: the lines before the cut come back
 * as they were, then an error naming the file and the next line. */
START_TEST(test_truncated)
{
    char *text = make_text(4000);
    struct bfs_error e;
    char name[64], want[4300];
    int rc;

    for (int k = 0; k < N_KINDS; k++) {
        size_t size, lines;
        snprintf(name, sizeof name, "cut.%s", kind_name[k]);
        const char *p = write_compressed(name, k, text, 0, &size);
        ck_assert(truncate(p, (off_t)(size / 2)) == 0);
        lines = read_compare(p, text, &rc, &e);
        ck_assert_int_eq(rc, BFS_EIO);
        ck_assert_uint_lt(lines, 4000);
        snprintf(want, sizeof want,
                 "%s:%zu: unexpected end of compressed data (%s)", p, lines + 1,
                 kind_name[k]);
        ck_assert_str_eq(e.msg, want);
    }
    xfree(text);
}
END_TEST

/* Bytes after the last member are an error naming the file (gunzip,
 * bunzip2 only warn; xz -d and zstd -d fail), except zero bytes after a
 * gzip member, which gunzip ignores too. */
START_TEST(test_trailing)
{
    static const char text[] = "a\nb\n";
    unsigned char buf[1024];
    struct bfs_error e;
    char name[64];
    int rc;

    for (int k = 0; k < N_KINDS; k++) {
        size_t len = compress_to(k, text, 4, buf, sizeof buf - 16);
        memcpy(buf + len, "garbage\n", 8);
        snprintf(name, sizeof name, "trail.%s", kind_name[k]);
        const char *p = tu_write_bytes(name, (const char *)buf, len + 8);
        read_compare(p, "a\nb\n", &rc, &e);
        ck_assert_msg(rc == BFS_EIO, "%s: %d", kind_name[k], rc);
        ck_assert_ptr_nonnull(strstr(e.msg, p));
        if (k == GZ || k == BZ2)
            ck_assert_ptr_nonnull(strstr(e.msg, "data after the end"));
    }
    {
        size_t len = compress_to(GZ, text, 4, buf, sizeof buf - 16);
        memset(buf + len, 0, 16);
        const char *p = tu_write_bytes("zeros.gz", (const char *)buf, len + 16);
        ck_assert_uint_eq(read_compare(p, text, &rc, &e), 2);
        ck_assert_msg(rc == 0, "%s", e.msg);
    }
}
END_TEST

/* The line reader opens path, and its first read fails with BFS_EUNSUP
 * and the message want. */
static void refused_at_first_read(const char *path, const char *want)
{
    struct bfs_lines *r;
    struct bfs_error e;
    char *line;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_lines_open(path, &r, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), BFS_EUNSUP);
    ck_assert_str_eq(e.msg, want);
    bfs_lines_close(r);
}

/* Zip is named and refused, by the check and by the line reader at its
 * first read; so is compressed data inside gzip; text that merely starts
 * like a magic is read as text. */
START_TEST(test_refused)
{
    static const char zip[] = "PK\x03\x04\x14\x00\x00\x00\x08\x00\x03\x4c";
    struct bfs_lines *r;
    struct bfs_error e;
    char want[4300], *line;
    const char *p;
    gzFile gz;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_compressed_check("f", zip, 12, &e), BFS_EUNSUP);
    ck_assert_str_eq(e.msg, "f: zip-compressed; decompress it (unzip) or "
                            "use gzip, xz, bzip2 or zstd");
    /* the formats bfsim reads pass the check */
    for (size_t i = 0; i < TU_N_COMPRESSED; i++)
        if (strcmp(tu_compressed[i].name, "zip") != 0)
            ck_assert_int_eq(
                bfs_compressed_check("f", tu_compressed[i].head, 12, &e), 0);
    ck_assert_int_eq(bfs_compressed_check("f", "\x1f\x8b\x08", 3, &e), 0);
    p = tu_write_bytes("a.zip", zip, 12);
    snprintf(want, sizeof want,
             "%s: zip-compressed; decompress it (unzip) or use gzip, xz, "
             "bzip2 or zstd",
             p);
    refused_at_first_read(p, want);

    /* the first 12 bytes of an xz file, inside gzip */
    p = tu_tmp("xz-in.gz");
    gz = gzopen(p, "wb");
    ck_assert_int_eq(
        gzwrite(gz, "\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6", 10), 10);
    gzclose(gz);
    snprintf(want, sizeof want,
             "%s: xz-compressed inside gzip; decompress it (gunzip, then xz "
             "-d)",
             p);
    refused_at_first_read(p, want);

    /* "BZh" and "PK" as text, and a lone 0x1f, are plain */
    p = tu_write("text.txt", "BZh is text\nPK\n\x1f\n");
    ck_assert_int_eq(bfs_lines_open(p, &r, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "BZh is text");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "PK");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "\x1f");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 0);
    bfs_lines_close(r);
}
END_TEST

/* bfs_read_all (the JSON inputs' reader): a zstd file whole, and a NUL
 * byte at its line and column. */
START_TEST(test_read_all)
{
    static const char json[] = "{\n  \"a\": 1\n}\n";
    struct bfs_error e;
    char *text = NULL, want[4300];
    size_t len = 0;
    const char *p = write_compressed("a.json.zst", ZST, json, 0, NULL);

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_read_all(p, &text, &len, &e), 0);
    ck_assert_uint_eq(len, strlen(json));
    ck_assert_str_eq(text, json);
    xfree(text);

    p = tu_write_bytes("nul.json", "{\n  \"a\0\": 1}\n", 13);
    ck_assert_int_eq(bfs_read_all(p, &text, &len, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:2: NUL byte at column 5", p);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* A trace read xz-compressed: testutil's good trace, nodes a and b;
 * 1612988400 a idle, +100 s b idle, +100 s a busy: three events, and
 * 1 * 100 + 2 * 100 = 300 idle node-seconds up to the last. */
START_TEST(test_trace_xz)
{
    const char *p =
        write_compressed("good.trace.xz", XZ, TU_GOOD_TRACE, 0, NULL);
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    size_t events = 0, idle = 0;
    int64_t prev = 0, idle_s = 0;
    int rc;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(p, &r, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(trace_node_count(r), 2);
    ck_assert_str_eq(trace_node_name(r, 1), "b");
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        if (events++ > 0)
            idle_s += (int64_t)idle * (ev.time - prev);
        idle = idle + ev.n_join - ev.n_leave;
        prev = ev.time;
    }
    ck_assert_msg(rc == 0, "%s", e.msg);
    trace_close(r);
    ck_assert_uint_eq(events, 3);
    ck_assert_int_eq(prev, 1612988600);
    ck_assert_int_eq(idle_s, 300);
}
END_TEST

/* A job file read bzip2-compressed: testutil's good job set, one job. */
START_TEST(test_jobs_bzip2)
{
    const char *p =
        write_compressed("good.jobs.bz2", BZ2, TU_GOOD_JOBS, 0, NULL);
    struct jobset js;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(p, NULL, &js, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(js.n, 1);
    ck_assert_str_eq(js.jobs[0].name, "A");
    ck_assert_int_eq(js.jobs[0].tsub, 1612988400);
    ck_assert_int_eq(js.jobs[0].jmax, 2);
    ck_assert_double_eq(js.jobs[0].pmax, 1000);
    jobset_release(&js);
}
END_TEST

/* A converter's input read zstd-compressed: five nodes, one processor
 * each (check_import_swf.c's five_swf, whose idle node-seconds are worked
 * out there by hand):
 *   A [0, 100) 1 node, B [1, 11) 1, C [2, 102) 1, D [20, 50) 2,
 *   E [21, 26) 3 (truncated to the one free node).
 * Idle: [0,1) 4, [1,2) 3, [2,11) 2*9, [11,20) 3*9, [20,21) 1, [21,26) 0,
 * [26,50) 1*24, [50,100) 3*50, [100,102) 4*2: 235 node-seconds. */
START_TEST(test_convert_zstd)
{
    static const char swf[] = "; MaxNodes: 5\n"
                              "1 0 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "2 1 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "3 2 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "4 20 0 30 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "5 21 0 5 3 -1 -1 3 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";
    const char *in = write_compressed("five.swf.zst", ZST, swf, 0, NULL);
    const char *out = tu_tmp("five.trace");
    struct import_log_opts o;
    struct import_stats st;
    struct import_log_report rep;
    struct bfs_error e;

    tu_import_opts(NULL, &o);
    bfs_error_clear(&e);
    ck_assert_msg(import_swf(in, out, NULL, &o, &st, &rep, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(rep.records, 5);
    ck_assert_uint_eq(rep.idle_node_s, 235);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compress");
    TCase *tc = tcase_create("compress");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_trailing);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_read_all);
    tcase_add_test(tc, test_trace_xz);
    tcase_add_test(tc, test_jobs_bzip2);
    tcase_add_test(tc, test_convert_zstd);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
