/* check_util.c - time conversion, durations, strict number parsing,
 * numpy's interpolation and summation order, and the line reader (atomic
 * output: check_out.c; compressed formats other than gzip:
 * check_compress.c). */
#include "config.h"

#include "testutil.h"
#include "base/qhist.h"
#include "base/util.h"

#include <check.h>
#include <math.h>
#include <string.h>
#include <zlib.h>

START_TEST(test_time)
{
    char buf[BFS_TIME_LEN];
    int64_t t = 0;

    /* 2021-02-10 20:21:15 UTC: 18668 days after 1970-01-01 (51 years, 13
     * of them leap, plus 40 days) = 1612915200, plus 73275 s. */
    ck_assert_int_eq(bfs_time_parse("2021-02-10 20:21:15", &t), 0);
    ck_assert_int_eq(t, 1612988475);
    ck_assert_str_eq(bfs_time_format(1612988475, buf), "2021-02-10 20:21:15");
    ck_assert_int_eq(bfs_time_parse("2021-02-10T20:21:15", &t), 0);
    ck_assert_int_eq(bfs_time_parse("1612988475", &t), 0);
    ck_assert_int_eq(t, 1612988475);
    ck_assert_str_eq(bfs_time_format(0, buf), "1970-01-01 00:00:00");
    ck_assert_str_eq(bfs_time_format(-1, buf), "1969-12-31 23:59:59");
    ck_assert_int_eq(bfs_time_parse("2024-02-29 00:00:00", &t), 0);
    ck_assert_int_eq(t, 1709164800);
    t = 7;
    ck_assert_int_eq(bfs_time_parse("2023-02-29 00:00:00", &t), BFS_EPARSE);
    ck_assert_int_eq(bfs_time_parse("2021-02-10 24:00:00", &t), BFS_EPARSE);
    ck_assert_int_eq(bfs_time_parse("2021-02-10 20:21", &t), BFS_EPARSE);
    ck_assert_int_eq(bfs_time_parse("2021-02-10 20:21:15x", &t), BFS_EPARSE);
    ck_assert_int_eq(bfs_time_parse("", &t), BFS_EPARSE);
    ck_assert_int_eq(t, 7); /* untouched on failure */
    /* Seconds must lie within years -6000..9999: 9999-12-31 23:59:59 is
     * 2932896 days (253402214400 s) + 86399 s after the epoch. */
    ck_assert_int_eq(bfs_time_parse("9999-12-31 23:59:59", &t), 0);
    ck_assert_int_eq(t, 253402300799);
    ck_assert_int_eq(t, BFS_TIME_MAX);
    ck_assert_int_eq(bfs_time_parse("253402300799", &t), 0);
    ck_assert_int_eq(bfs_time_parse("-253402300799", &t), 0);
    t = 7;
    ck_assert_int_eq(bfs_time_parse("253402300800", &t), BFS_ERANGE);
    ck_assert_int_eq(bfs_time_parse("-253402300800", &t), BFS_ERANGE);
    ck_assert_int_eq(bfs_time_parse("9223372036854775807", &t), BFS_ERANGE);
    ck_assert_int_eq(bfs_time_parse("99999999999999999999", &t), BFS_ERANGE);
    ck_assert_int_eq(t, 7);
    /* Round trip over a few centuries, day by day and a prime stride. */
    for (int64_t x = -5000000000LL; x < 5000000000LL; x += 86400 * 7 + 13) {
        ck_assert_int_eq(bfs_time_parse(bfs_time_format(x, buf), &t), 0);
        ck_assert_int_eq(t, x);
    }
}
END_TEST

/* bfs_word_in matches whole items only, at either end of the list. */
START_TEST(test_word_in)
{
    ck_assert(bfs_word_in("milp or dp", ' ', "milp"));
    ck_assert(bfs_word_in("milp or dp", ' ', "dp"));
    ck_assert(!bfs_word_in("milp or dp", ' ', "mil"));
    ck_assert(!bfs_word_in("milp or dp", ' ', "p"));
    ck_assert(!bfs_word_in("milp", ' ', "milp or"));
    ck_assert(bfs_word_in(",a,bb", ',', "bb"));
    ck_assert(bfs_word_in(",a,bb", ',', "a"));
    ck_assert(!bfs_word_in(",a,bb", ',', "b"));
    ck_assert(!bfs_word_in("a b", ',', "a"));
}
END_TEST

START_TEST(test_numbers)
{
    int64_t i = 0;
    int n = 0;
    double d = 0;

    ck_assert_int_eq(bfs_parse_i64("-42", &i), 0);
    ck_assert_int_eq(i, -42);
    ck_assert_int_eq(bfs_parse_i64("42 ", &i), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_i64(" 42", &i), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_i64("99999999999999999999", &i), BFS_ERANGE);
    ck_assert_int_eq(bfs_parse_int("3000000000", &n), BFS_ERANGE);
    ck_assert_int_eq(bfs_parse_double("7115.3000000000002", &d), 0);
    ck_assert(d == 7115.3000000000002);
    ck_assert_int_eq(bfs_parse_double("nan", &d), BFS_ERANGE);
    ck_assert_int_eq(bfs_parse_double("-inf", &d), BFS_ERANGE);
    /* strtod reads hexadecimal and skips blanks: both refused. */
    ck_assert_int_eq(bfs_parse_double("0x10", &d), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_double("1e0x", &d), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_double("\n5", &d), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_i64("\n5", &i), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_i64("0x10", &i), BFS_EPARSE);
    ck_assert_int_eq(bfs_parse_double("-.5e1", &d), 0);
    ck_assert(d == -5.0);
    ck_assert_int_eq(bfs_parse_i64("+7", &i), 0);
    ck_assert_int_eq(i, 7);
    ck_assert_int_eq(bfs_parse_double("1e999", &d), BFS_ERANGE);
    ck_assert_int_eq(bfs_parse_double("", &d), BFS_EPARSE);
}
END_TEST

/* numpy adds 8 or more values in eight running sums combined pairwise,
 * then the rest in order.  For 1e16 followed by eight 1s (doubles near
 * 1e16 are 2 apart; ties go to the even mantissa):
 *   r = 1e16, 1, 1, 1, 1, 1, 1, 1 (no full block after the first)
 *   ((1e16 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1)) = (1e16 + 2) + 4
 *   = 1e16 + 6, then + 1 = 1e16 + 7, a tie between 1e16 + 6 (mantissa
 *   5e15 + 3, odd) and 1e16 + 8 (even): 1e16 + 8.
 * Adding in order instead loses every 1: 1e16 + 1 ties back to 1e16. */
/* The one duration syntax (gen-trace's --duration and exp:MEAN with
 * min 1, convert's --outage-min-duration with min 0): values by hand. */
START_TEST(test_duration)
{
    static const struct {
        const char *s;
        int64_t min, want; /* want -1: BFS_EPARSE */
    } t[] = {
        {"10", 1, 10},
        {"45s", 1, 45},
        {"90m", 1, 5400},      /* 90 * 60 */
        {"1.5h", 1, 5400},     /* 1.5 * 3600 */
        {"365d", 1, 31536000}, /* 365 * 86400 */
        {"3600", 0, 3600},     /* convert's default, written out */
        {"2h", 0, 7200},
        {"1d", 0, 86400},
        {"0", 0, 0},    /* no minimum period */
        {"0", 1, -1},   /* gen-trace: at least one second */
        {"0.6", 1, 1},  /* rounded: 0.6 s -> 1 s */
        {"0.2", 1, -1}, /* rounded: 0.2 s -> 0 s < 1 */
        {"0.2", 0, 0},
        {"1.25m", 0, 75},                    /* 1.25 * 60 */
        {"1099511627776", 0, 1099511627776}, /* 2^40 s, the largest */
        {"1099511627777", 0, -1},
        {"12725829d", 0, 1099511625600}, /* 12725829 * 86400 <= 2^40 */
        {"12725830d", 0, -1}, /* 12725830 * 86400 = 1099511712000 > 2^40 */
        {"-5", 0, -1},
        {"-0.5s", 0, -1},
        {"5x", 0, -1},
        {"5 s", 0, -1},
        {"m", 0, -1},
        {"h", 0, -1},
        {"", 0, -1},
        {"1hh", 0, -1},
        {"inf", 0, -1},
    };

    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        int64_t v = -42;
        int rc = bfs_parse_duration(t[i].s, t[i].min, &v);
        if (t[i].want < 0) {
            ck_assert_msg(rc == BFS_EPARSE && v == -42,
                          "'%s' (min %lld): rc %d, v %lld", t[i].s,
                          (long long)t[i].min, rc, (long long)v);
        } else {
            ck_assert_msg(rc == 0 && v == t[i].want,
                          "'%s' (min %lld): rc %d, v %lld, want %lld", t[i].s,
                          (long long)t[i].min, rc, (long long)v,
                          (long long)t[i].want);
        }
    }
}
END_TEST

/* numpy.interp for one x (values by hand; the rounding of numpy's
 * formula against independent evaluations is checked in check_jobs
 * through curve_eval, which calls it). */
START_TEST(test_interp)
{
    static const double xp[] = {0, 2, 3, 7}, fp[] = {0, 5, 4, 12};
    static const double one_x[] = {4}, one_f[] = {9};

    ck_assert(bfs_interp(-1, xp, fp, 4) == 0); /* left fill: fp[0] */
    ck_assert(bfs_interp(0, xp, fp, 4) == 0);
    ck_assert(bfs_interp(1, xp, fp, 4) == 2.5);   /* (5 - 0) / 2 * 1 + 0 */
    ck_assert(bfs_interp(2, xp, fp, 4) == 5);     /* a breakpoint */
    ck_assert(bfs_interp(2.5, xp, fp, 4) == 4.5); /* -1 * 0.5 + 5 */
    ck_assert(bfs_interp(3, xp, fp, 4) == 4);
    ck_assert(bfs_interp(5, xp, fp, 4) == 8); /* 2 * 2 + 4 */
    ck_assert(bfs_interp(7, xp, fp, 4) == 12);
    ck_assert(bfs_interp(100, xp, fp, 4) == 12); /* right fill: fp[n-1] */
    ck_assert(bfs_interp(3, one_x, one_f, 1) == 9);
    ck_assert(bfs_interp(5, one_x, one_f, 1) == 9);
}
END_TEST

START_TEST(test_pairwise_sum)
{
    double a[9] = {1e16, 1, 1, 1, 1, 1, 1, 1, 1};
    double seq = 0;

    for (int i = 0; i < 9; i++)
        seq += a[i];
    ck_assert(seq == 1e16);
    ck_assert(bfs_pairwise_sum(a, 9) == 1e16 + 8);
    /* Under 8 values numpy adds in order. */
    ck_assert(bfs_pairwise_sum(a, 7) == 1e16);
    ck_assert(bfs_pairwise_sum(a, 0) == 0.0);
}
END_TEST

START_TEST(test_lines)
{
    char big[10000 + 1];
    char *text, *line;
    struct bfs_lines *r;
    struct bfs_error e;
    const char *p;

    memset(big, 'x', 10000);
    big[10000] = '\0';
    text = xmalloc(20000);
    sprintf(text, "a,b\r\n\n%s\nlast", big);
    p = tu_write("lines.txt", text);
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_lines_open(p, &r, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "a,b");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, big);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "last");
    ck_assert_uint_eq(bfs_lines_lineno(r), 4);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 0);
    bfs_lines_close(r);
    free(text);

    ck_assert_int_lt(bfs_lines_open(tu_tmp("missing"), &r, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "missing"));
}
END_TEST

/* A gzip file cut short is an error at the line where it stops, not a
 * silently shorter input. */
START_TEST(test_lines_truncated_gzip)
{
    const char *p = tu_tmp("cut.gz");
    gzFile gz = gzopen(p, "wb9");
    struct bfs_lines *r;
    struct bfs_error e;
    char *line, *all;
    FILE *f;
    size_t n;
    int rc;

    for (int i = 0; i < 20000; i++)
        gzprintf(gz, "line %d with some text to compress %d\n", i, i * 7919);
    gzclose(gz);
    all = tu_slurp(p);
    f = fopen(p, "rb");
    fseek(f, 0, SEEK_END);
    n = (size_t)ftell(f);
    fclose(f);
    f = fopen(p, "wb");
    fwrite(all, 1, n / 2, f);
    fclose(f);
    free(all);

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_lines_open(p, &r, &e), 0);
    while ((rc = bfs_lines_next(r, &line, &e)) == 1)
        ck_assert_int_eq(strncmp(line, "line ", 5), 0);
    ck_assert_int_eq(rc, BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "unexpected end of compressed data"));
    bfs_lines_close(r);
}
END_TEST

/* A NUL byte is an error at its line and column (1-based), in a plain and
 * in a gzip file; the lines before it are returned whole. */
START_TEST(test_lines_nul)
{
    static const char text[] = "first\nab\0cd\nnext\n";
    const char *paths[2];
    gzFile gz;

    paths[0] = tu_write_bytes("nul.txt", text, sizeof text - 1);
    paths[1] = tu_tmp("nul.txt.gz");
    gz = gzopen(paths[1], "wb");
    ck_assert_int_eq(gzwrite(gz, text, sizeof text - 1), (int)sizeof text - 1);
    gzclose(gz);
    for (int i = 0; i < 2; i++) {
        struct bfs_lines *r;
        struct bfs_error e;
        char *line, want[4200];

        bfs_error_clear(&e);
        ck_assert_int_eq(bfs_lines_open(paths[i], &r, &e), 0);
        ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
        ck_assert_str_eq(line, "first");
        ck_assert_int_eq(bfs_lines_next(r, &line, &e), BFS_EPARSE);
        snprintf(want, sizeof want, "%s:2: NUL byte at column 3", paths[i]);
        ck_assert_str_eq(e.msg, want);
        bfs_lines_close(r);
    }
}
END_TEST

/* Lines longer than the reader's 128 KiB chunk, and a line end falling on
 * the chunk boundary, come back whole. */
START_TEST(test_lines_chunks)
{
    size_t chunk = (size_t)1 << 17, n = 3 * chunk + 10;
    char *text = xmalloc(n + 1), *line;
    struct bfs_lines *r;
    struct bfs_error e;
    const char *p;

    /* Line 1: chunk-1 bytes and its newline fill the first chunk exactly;
     * line 2: 2 * chunk bytes across two refills; line 3: "tail"
     * without a newline. */
    memset(text, 'a', chunk - 1);
    text[chunk - 1] = '\n';
    memset(text + chunk, 'b', 2 * chunk);
    text[3 * chunk] = '\n';
    memcpy(text + 3 * chunk + 1, "tail", 4);
    n = 3 * chunk + 5;
    p = tu_write_bytes("chunks.txt", text, n);
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_lines_open(p, &r, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_uint_eq(strlen(line), chunk - 1);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_uint_eq(strlen(line), 2 * chunk);
    ck_assert_int_eq(line[2 * chunk - 1], 'b');
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "tail");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 0);
    bfs_lines_close(r);
    free(text);
}
END_TEST

/* RFC 4180 fields: quotes removed, "" for a quote, separators inside
 * quotes kept, empty and unquoted fields as they are. */
START_TEST(test_csv_split)
{
    char a[] = "\"J1\",\"a,b\",,x\"y,\"say \"\"hi\"\"\",\"\"";
    char b[] = "\"open,1";
    char c[] = "\"x\"y,2";
    char *f[8];
    size_t n = 0, col = 0;

    ck_assert_int_eq(bfs_csv_split(a, ',', f, 8, &n, &col), 0);
    ck_assert_uint_eq(n, 6);
    ck_assert_str_eq(f[0], "J1");
    ck_assert_str_eq(f[1], "a,b");
    ck_assert_str_eq(f[2], "");
    ck_assert_str_eq(f[3], "x\"y");
    ck_assert_str_eq(f[4], "say \"hi\"");
    ck_assert_str_eq(f[5], "");
    ck_assert_int_eq(bfs_csv_split(b, ',', f, 8, &n, &col), BFS_EPARSE);
    ck_assert_uint_eq(col, 1); /* the quote that never closes */
    ck_assert_int_eq(bfs_csv_split(c, ',', f, 8, &n, &col), BFS_EPARSE);
    ck_assert_uint_eq(col, 4); /* 'y' after the closing quote */
}
END_TEST

/* A UTF-8 byte-order mark is dropped from the first line only. */
START_TEST(test_lines_bom)
{
    const char *p = tu_write("bom.txt", "\xEF\xBB\xBF"
                                        "a,b\r\n\xEF\xBB\xBF"
                                        "c\n");
    struct bfs_lines *r;
    struct bfs_error e;
    char *line;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_lines_open(p, &r, &e), 0);
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "a,b");
    ck_assert_int_eq(bfs_lines_next(r, &line, &e), 1);
    ck_assert_str_eq(line, "\xEF\xBB\xBF"
                           "c");
    bfs_lines_close(r);
}
END_TEST

START_TEST(test_split)
{
    char a[] = "x,,y", b[] = "  p \t q  ";
    char *f[4];

    ck_assert_uint_eq(bfs_split(a, ',', f, 4), 3);
    ck_assert_str_eq(f[0], "x");
    ck_assert_str_eq(f[1], "");
    ck_assert_str_eq(f[2], "y");
    ck_assert_uint_eq(bfs_split_ws(b, f, 4), 2);
    ck_assert_str_eq(f[0], "p");
    ck_assert_str_eq(f[1], "q");
}
END_TEST

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* qhist against the exact nearest rank of the sorted values: 20,000
 * values spread log-uniformly over 1e-7 .. 10 s (a fixed LCG), each
 * quantile within 1% of the exact one, the max exact; then the edges. */
START_TEST(test_qhist)
{
    static double v[20000];
    static struct qhist h;
    const double ps[] = {0, 0.001, 0.01, 0.25, 0.5, 0.9, 0.95, 0.999, 1};
    uint64_t x = 12345;
    size_t n = sizeof v / sizeof *v;

    qhist_init(&h);
    ck_assert_double_eq(qhist_quantile(&h, 0.5), 0);
    for (size_t i = 0; i < n; i++) {
        tu_lcg(&x);
        v[i] = 1e-7 * pow(1e8, (double)(x >> 11) * 0x1p-53);
        qhist_add(&h, v[i]);
    }
    qsort(v, n, sizeof *v, cmp_dbl);
    for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
        size_t rank = (size_t)ceil(ps[k] * (double)n);
        double want = v[rank ? rank - 1 : 0], got = qhist_quantile(&h, ps[k]);
        ck_assert_msg(fabs(got - want) <= QHIST_REL_ERR * want,
                      "p %g: %.9g against %.9g", ps[k], got, want);
    }
    ck_assert_double_eq(qhist_quantile(&h, 1), v[n - 1]);
    ck_assert_double_eq(h.min, v[0]);

    /* one value: every quantile is it, exactly (clamped to min = max) */
    qhist_init(&h);
    qhist_add(&h, 0.0123);
    ck_assert_double_eq(qhist_quantile(&h, 0), 0.0123);
    ck_assert_double_eq(qhist_quantile(&h, 0.5), 0.0123);
    /* zeros, values below 1e-9 and negative ones count as 0... */
    qhist_init(&h);
    qhist_add(&h, 0);
    qhist_add(&h, 1e-12);
    qhist_add(&h, -1);
    qhist_add(&h, 2.0);
    ck_assert_double_eq(qhist_quantile(&h, 0.75), 0);
    /* ... and the top quarter is the 2 s value, within 1% */
    ck_assert_double_le(fabs(qhist_quantile(&h, 0.76) - 2.0), 0.02);
    ck_assert_double_eq(qhist_quantile(&h, 1), 2.0);
}
END_TEST

/* Values seen again (the memo of their buckets): 300 distinct values,
 * more than the memo's entries, drawn 20,000 times in a fixed LCG
 * order; every bucket's count is the one the header's formula gives,
 * counted here value by value. */
START_TEST(test_qhist_repeats)
{
    static struct qhist h;
    static uint64_t want[QHIST_BUCKETS];
    double vals[300];
    uint64_t x = 777;

    qhist_init(&h);
    memset(want, 0, sizeof want);
    for (size_t i = 0; i < 300; i++) /* like ticks x seconds per tick */
        vals[i] = (double)(20 + i) * 3.3e-10;
    for (size_t i = 0; i < 20000; i++) {
        double v, k;
        tu_lcg(&x);
        v = vals[(x >> 33) % 300];
        qhist_add(&h, v);
        k = floor(log(v / QHIST_MIN) / log(QHIST_GROWTH));
        want[k < 0 ? 0 : k >= QHIST_BUCKETS ? QHIST_BUCKETS - 1 : (size_t)k]++;
    }
    ck_assert_uint_eq(h.n, 20000);
    for (size_t b = 0; b < QHIST_BUCKETS; b++)
        ck_assert_msg(h.count[b] == want[b], "bucket %zu: %llu against %llu", b,
                      (unsigned long long)h.count[b],
                      (unsigned long long)want[b]);
}
END_TEST

/* xasprintf, xfree_strv, XFREE_ALL and bfs_unquote, against hand-written
 * results. */
START_TEST(test_strings)
{
    char *a = xasprintf("%s/%03d-%.1f", "runs", 7, 2.25);
    char **v = xmalloc(3 * sizeof *v);
    char q1[] = "\"a\"\"b\",rest", q2[] = "\"open", q3[] = "\"\"";
    char *p = q1, *end;

    ck_assert_str_eq(a, "runs/007-2.2");
    xfree(a);
    a = xasprintf("%.0s", "gone");
    ck_assert_str_eq(a, "");
    xfree(a);
    for (int i = 0; i < 3; i++)
        v[i] = xasprintf("%d", i);
    xfree_strv(v, 3); /* valgrind's leak check fails the test otherwise */
    xfree_strv(NULL, 0);
    /* XFREE_ALL frees every argument, a NULL one too: a count it got
     * wrong leaks the last buffers, which fails the test under valgrind
     * or ASan */
    a = xasprintf("%d", 3);
    XFREE_ALL(a, NULL, xmalloc(1), xasprintf("%s", "x"));
    /* "a""b" copied in place: a"b, and p past the closing quote */
    end = bfs_unquote(&p, q1);
    ck_assert_ptr_nonnull(end);
    ck_assert_int_eq((int)(end - q1), 3);
    ck_assert_int_eq(memcmp(q1, "a\"b", 3), 0);
    ck_assert_str_eq(p, ",rest");
    p = q2; /* no closing quote: NULL, p unchanged */
    ck_assert_ptr_null(bfs_unquote(&p, q2));
    ck_assert_ptr_eq(p, q2);
    p = q3; /* the empty string */
    end = bfs_unquote(&p, q3);
    ck_assert_ptr_eq(end, q3);
    ck_assert_str_eq(p, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_time);
    tcase_add_test(tc, test_numbers);
    tcase_add_test(tc, test_word_in);
    tcase_add_test(tc, test_duration);
    tcase_add_test(tc, test_interp);
    tcase_add_test(tc, test_pairwise_sum);
    tcase_add_test(tc, test_lines);
    tcase_add_test(tc, test_lines_truncated_gzip);
    tcase_add_test(tc, test_lines_nul);
    tcase_add_test(tc, test_lines_chunks);
    tcase_add_test(tc, test_csv_split);
    tcase_add_test(tc, test_lines_bom);
    tcase_add_test(tc, test_split);
    tcase_add_test(tc, test_qhist);
    tcase_add_test(tc, test_qhist_repeats);
    tcase_add_test(tc, test_strings);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
