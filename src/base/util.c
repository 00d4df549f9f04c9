/* util.c - see util.h.
 *
 * Time conversion uses the days-from-civil algorithm on the proleptic
 * Gregorian calendar instead of timegm()/gmtime_r(), so results do not
 * depend on the C library or the TZ variable.
 *
 * Every text input is read through one decoder (struct dec), which tells
 * the format by the first bytes, never by the name: plain, gzip (ISA-L's
 * igzip, which inflates the traces about five times as fast as zlib:
 * reading a trace is most of a long replay's time), xz (liblzma), bzip2
 * (libbz2) or zstd (libzstd), each decoded as a
 * stream with a fixed buffer, so a file of any size takes the same memory,
 * standard input included.  Concatenated members or streams decode as one,
 * as gunzip, xz -d, bunzip2 and zstd -d do; input cut short, corrupt data
 * and bytes after the last member are errors at the line reached (zero
 * bytes after a gzip member excepted: gunzip ignores them too).  A zip
 * file, an archive of named members rather than a stream, is refused with
 * its format named, and so is compressed data inside compressed data.
 */
#include "config.h"

#include "base/util.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <isa-l/igzip_lib.h>
#include <limits.h>
#include <lzma.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

static void out_of_memory(size_t size)
{
    FILE *err = stderr; /* check-deps: oom */

    fprintf(err, "bfsim: out of memory (%zu bytes)\n", size);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (!p)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);

    if (!q)
        out_of_memory(size);
    return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        out_of_memory(SIZE_MAX);
    return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
    va_end(ap);
    return s;
}

void xfree_each(void *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        xfree(v[i]);
}

void xfree_strv(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        xfree(v[i]);
    xfree(v);
}

void bfs_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 16;

    if (need <= *cap)
        return;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            out_of_memory(SIZE_MAX);
        c *= 2;
    }
    *p = xreallocarray(*p, c, elem);
    *cap = c;
}

/* ---- time ---------------------------------------------------------- */

int64_t bfs_time_from_civil(int64_t y, int mon, int d, int h, int min, int s)
{
    /* Howard Hinnant's days_from_civil, public-domain arithmetic. */
    int64_t era, yoe, doy, doe, days;

    y -= mon <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (mon + (mon > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    days = era * 146097 + doe - 719468;
    return days * 86400 + h * 3600 + min * 60 + s;
}

static int days_in_month(int64_t y, int m)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

    return dm[m - 1] + (m == 2 && leap);
}

/* Reads exactly n digits at *p. */
static int digits(const char **p, int n, int *out)
{
    int v = 0;

    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

int bfs_time_parse(const char *s, int64_t *out)
{
    const char *p = s;
    int y, mo, d, h, mi, se, rc;
    int64_t v;

    if ((rc = bfs_parse_i64(s, &v)) != BFS_EPARSE) {
        if (rc == 0 && (v < BFS_TIME_MIN || v > BFS_TIME_MAX))
            rc = BFS_ERANGE;
        if (rc == 0)
            *out = v;
        return rc;
    }
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
        digits(&p, 2, &d) || (*p != ' ' && *p != 'T'))
        return BFS_EPARSE;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) || *p++ != ':' ||
        digits(&p, 2, &se) || *p != '\0')
        return BFS_EPARSE;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 ||
        mi > 59 || se > 59)
        return BFS_EPARSE;
    *out = bfs_time_from_civil(y, mo, d, h, mi, se);
    return 0;
}

char *bfs_time_format(int64_t t, char buf[BFS_TIME_LEN])
{
    /* Hinnant's civil_from_days. */
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    int64_t sod = t - days * 86400;
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (m <= 2);

    snprintf(buf, BFS_TIME_LEN, "%04" PRId64 "-%02d-%02d %02d:%02d:%02d", y,
             (int)m, (int)d, (int)(sod / 3600), (int)(sod / 60 % 60),
             (int)(sod % 60));
    return buf;
}

double bfs_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bfs_cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bfs_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int bfs_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

uint64_t bfs_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void bfs_shuffle(size_t *a, size_t n, uint64_t *state)
{
    for (size_t k = n; k-- > 1;) {
        size_t i = (size_t)(bfs_splitmix64(state) % (k + 1));
        size_t x = a[k];
        a[k] = a[i];
        a[i] = x;
    }
}

int bfs_parse_duration(const char *s, int64_t min, int64_t *out)
{
    static const struct {
        char suffix;
        double mult;
    } units[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}};
    char buf[64];
    size_t n = strlen(s);
    double mult = 1, v;

    if (n == 0 || n >= sizeof buf)
        return BFS_EPARSE;
    memcpy(buf, s, n + 1);
    for (size_t k = 0; k < sizeof units / sizeof *units; k++)
        if (buf[n - 1] == units[k].suffix) {
            mult = units[k].mult;
            buf[--n] = '\0';
            break;
        }
    if (bfs_parse_double(buf, &v) != 0 || v < 0)
        return BFS_EPARSE;
    v = round(v * mult);
    if (v < (double)min || v > (double)BFS_DURATION_MAX)
        return BFS_EPARSE;
    *out = (int64_t)v;
    return 0;
}

/* ---- numbers ------------------------------------------------------- */

int bfs_parse_i64(const char *s, int64_t *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    char *end;
    long long v;

    if (*p < '0' || *p > '9') /* strtoll would skip blanks */
        return BFS_EPARSE;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0')
        return BFS_EPARSE;
    if (errno == ERANGE)
        return BFS_ERANGE;
    *out = v;
    return 0;
}

int bfs_parse_int(const char *s, int *out)
{
    int64_t v;
    int rc = bfs_parse_i64(s, &v);

    if (rc)
        return rc;
    if (v < INT_MIN || v > INT_MAX)
        return BFS_ERANGE;
    *out = (int)v;
    return 0;
}

int bfs_parse_double(const char *s, double *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    char *end;
    double v;

    /* strtod also skips blanks and reads hexadecimal ("0x10" is 16):
     * only a digit or a point may follow the sign, or the "inf" and "nan"
     * that the finiteness check below refuses with BFS_ERANGE. */
    if (!((*p >= '0' && *p <= '9') || *p == '.' ||
          (*p && strchr("iInN", *p))) ||
        strpbrk(s, "xX"))
        return BFS_EPARSE;
    errno = 0;
    v = strtod(s, &end);
    if (*end != '\0')
        return BFS_EPARSE;
    if (errno == ERANGE || !isfinite(v))
        return BFS_ERANGE;
    *out = v;
    return 0;
}

double bfs_interp(double x, const double *xp, const double *fp, size_t n)
{
    size_t lo, hi;
    double slope, d;

    if (x <= xp[0])
        return fp[0];
    if (x >= xp[n - 1])
        return fp[n - 1];
    /* Find i with xp[i] <= x < xp[i+1]. */
    lo = 0;
    hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (xp[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    if (xp[lo] == x)
        return fp[lo];
    slope = (fp[lo + 1] - fp[lo]) / (xp[lo + 1] - xp[lo]);
    /* Two statements, so that no compiler fuses them into one fma: numpy
     * rounds the product before the sum. */
    d = slope * (x - xp[lo]);
    return d + fp[lo];
}

/* numpy's pairwise summation (PW_BLOCKSIZE 128, eight accumulators), as
 * numpy.add.reduce applies it to a contiguous float64 array, after the
 * identity 0.0. */
static double pairwise(const double *a, size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8], res;
        size_t i;
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

double bfs_pairwise_sum(const double *a, size_t n)
{
    return 0.0 + pairwise(a, n);
}

/* ---- compressed input ---------------------------------------------- */

/* The formats a file may come in, told apart by their first bytes. */
enum dec_kind { DEC_PLAIN, DEC_GZIP, DEC_XZ, DEC_BZIP2, DEC_ZSTD, DEC_ZIP };

static const struct {
    const char *name, *undo;
} dec_kinds[] = {
    [DEC_PLAIN] = {"plain", "cat"},   [DEC_GZIP] = {"gzip", "gunzip"},
    [DEC_XZ] = {"xz", "xz -d"},       [DEC_BZIP2] = {"bzip2", "bunzip2"},
    [DEC_ZSTD] = {"zstd", "zstd -d"}, [DEC_ZIP] = {"zip", "unzip"},
};

/* Bytes of the longest magic below: what the sniffing waits for. */
#define DEC_MAGIC_LEN 6

/* The format whose magic bytes head[0..n) begins with (RFC 1952, the xz
 * and zstd specifications with zstd's skippable frames, bzip2's "BZh" and
 * block size, a zip's local or empty-archive header), else DEC_PLAIN. */
static enum dec_kind dec_sniff(const unsigned char *h, size_t n)
{
    if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
        return DEC_GZIP;
    if (n >= 6 && memcmp(h,
                         "\xfd"
                         "7zXZ\0",
                         6) == 0)
        return DEC_XZ;
    if (n >= 4 && memcmp(h, "BZh", 3) == 0 && h[3] >= '1' && h[3] <= '9')
        return DEC_BZIP2;
    if (n >= 4 &&
        ((h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd) ||
         ((h[0] & 0xf0) == 0x50 && h[1] == 0x2a && h[2] == 0x4d &&
          h[3] == 0x18)))
        return DEC_ZSTD;
    if (n >= 4 &&
        (memcmp(h, "PK\x03\x04", 4) == 0 || memcmp(h, "PK\x05\x06", 4) == 0))
        return DEC_ZIP;
    return DEC_PLAIN;
}

int bfs_compressed_check(const char *path, const void *head, size_t n,
                         struct bfs_error *e)
{
    if (dec_sniff(head, n) != DEC_ZIP)
        return 0;
    return bfs_fail_at(e, BFS_EUNSUP, path, 0,
                       "zip-compressed; decompress it (unzip) or use gzip, "
                       "xz, bzip2 or zstd");
}

/* A decoder: the bytes of a file, undone of its compression.  Each
 * codec's state is set up at the first read, once the first bytes have
 * told the format, and kept for the whole file, so memory does not grow
 * with it. */
struct dec {
    int fd;           /* owned, except standard input */
    const char *path; /* borrowed */
    enum dec_kind kind;
    int started;        /* the format is known */
    int live;           /* the codec holds state to release */
    int done;           /* the decoded data has ended */
    unsigned char *raw; /* owned: bytes read from fd, DEC_RAW of them */
    size_t raw_pos, raw_len;
    int raw_eof;
    double raw_read;  /* bytes read from fd in all */
    int member_end;   /* gzip, bzip2: a member ended, another may follow */
    size_t zstd_hint; /* zstd: 0 once a frame is whole */
    struct inflate_state *gz; /* owned (about 70 KB: not kept inline) */
    lzma_stream x;
    bz_stream b;
    ZSTD_DStream *zs;
};

#define DEC_RAW ((size_t)1 << 16)

/* Most memory the xz decoder may take: xz -9's 64 MiB dictionary four
 * times over, so that a crafted header cannot make it allocate
 * gigabytes (zstd has its own such limit, a 128 MiB window). */
#define DEC_XZ_MEMLIMIT ((uint64_t)256 << 20)

/* Opens path ("-": standard input) into d.  Returns 0 or BFS_EIO. */
static int dec_open(struct dec *d, const char *path, struct bfs_error *e)
{
    int fd = STDIN_FILENO;

    if (strcmp(path, "-") != 0 && (fd = open(path, O_RDONLY)) < 0)
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot open: %s",
                           strerror(errno));
    memset(d, 0, sizeof *d);
    d->fd = fd;
    d->path = path;
    d->raw = xmalloc(DEC_RAW);
    return 0;
}

static void dec_close(struct dec *d)
{
    if (d->live)
        switch (d->kind) {
        case DEC_GZIP:
            xfree(d->gz);
            break;
        case DEC_XZ:
            lzma_end(&d->x);
            break;
        case DEC_BZIP2:
            BZ2_bzDecompressEnd(&d->b);
            break;
        case DEC_ZSTD:
            ZSTD_freeDStream(d->zs);
            break;
        default:
            break;
        }
    if (d->fd != STDIN_FILENO)
        close(d->fd);
    xfree(d->raw);
}

/* Reads from fd until at least want bytes are unconsumed (want <=
 * DEC_RAW) or the file ends, moving the unconsumed bytes to the front.
 * Returns 0 or BFS_EIO naming path and line. */
static int dec_fill(struct dec *d, size_t want, size_t line,
                    struct bfs_error *e)
{
    if (d->raw_pos > 0) {
        memmove(d->raw, d->raw + d->raw_pos, d->raw_len - d->raw_pos);
        d->raw_len -= d->raw_pos;
        d->raw_pos = 0;
    }
    while (!d->raw_eof && d->raw_len < want) {
        ssize_t n = read(d->fd, d->raw + d->raw_len, DEC_RAW - d->raw_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return bfs_fail_at(e, BFS_EIO, d->path, line, "read error: %s",
                               strerror(errno));
        d->raw_eof = n == 0;
        d->raw_len += (size_t)n;
        d->raw_read += (double)n;
    }
    return 0;
}

/* Readies g for a gzip member (RFC 1952): its header parsed, its CRC-32
 * and length checked at its end. */
static void gz_reset(struct inflate_state *g)
{
    isal_inflate_init(g);
    g->crc_flag = ISAL_GZIP;
}

/* The words for a negative isal_inflate() result. */
static const char *gz_error(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK:
        return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
        return "invalid code in a deflate block";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
        return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check (CRC-32 or length)";
    default:
        return "inflate failed";
    }
}

/* Sets up the codec of d->kind.  Returns 0 or BFS_EIO. */
static int dec_start(struct dec *d, size_t line, struct bfs_error *e)
{
    int ok = 1;

    switch (d->kind) {
    case DEC_GZIP:
        d->gz = xmalloc(sizeof *d->gz);
        gz_reset(d->gz);
        break;
    case DEC_XZ: { /* concatenated streams and their padding, as xz -d */
        lzma_stream init = LZMA_STREAM_INIT;
        d->x = init;
        ok = lzma_stream_decoder(&d->x, DEC_XZ_MEMLIMIT, LZMA_CONCATENATED) ==
             LZMA_OK;
        break;
    }
    case DEC_BZIP2:
        ok = BZ2_bzDecompressInit(&d->b, 0, 0) == BZ_OK;
        break;
    case DEC_ZSTD:
        d->zs = ZSTD_createDStream();
        ok = d->zs && !ZSTD_isError(ZSTD_initDStream(d->zs));
        d->zstd_hint = 1;
        break;
    default:
        return 0;
    }
    /* a failed set-up holds nothing, except a stream liblzma or libzstd
     * made (both release a half-made one) */
    d->live = ok || d->kind == DEC_XZ || d->kind == DEC_ZSTD;
    if (!ok)
        return bfs_fail_at(e, BFS_EIO, d->path, line,
                           "cannot set up the %s decoder",
                           dec_kinds[d->kind].name);
    return 0;
}

/* After a gzip or bzip2 member: the next bytes start another member
 * (decoded on, as gunzip and bunzip2 do), are zero bytes after a gzip
 * member (tape padding, which gunzip ignores too), or are an error.
 * Returns 0 (d->done set when nothing follows) or a negative code. */
static int dec_next_member(struct dec *d, size_t line, struct bfs_error *e)
{
    int rc = dec_fill(d, DEC_MAGIC_LEN, line, e);
    const unsigned char *p = d->raw + d->raw_pos;
    size_t avail = d->raw_len - d->raw_pos;

    if (rc)
        return rc;
    if (avail == 0) {
        d->done = 1;
        return 0;
    }
    if (dec_sniff(p, avail) == d->kind) {
        d->member_end = 0;
        if (d->kind == DEC_GZIP) {
            gz_reset(d->gz);
            return 0;
        }
        return dec_start(d, line, e);
    }
    if (d->kind == DEC_GZIP)
        for (;;) {
            while (d->raw_pos < d->raw_len && d->raw[d->raw_pos] == 0)
                d->raw_pos++;
            if (d->raw_pos < d->raw_len)
                break;
            if ((rc = dec_fill(d, 1, line, e)) != 0)
                return rc;
            if (d->raw_len == 0) {
                d->done = 1;
                return 0;
            }
        }
    return bfs_fail_at(e, BFS_EIO, d->path, line,
                       "data after the end of the %s-compressed data",
                       dec_kinds[d->kind].name);
}

/* Decodes what the codec of d->kind makes of the unconsumed input into
 * buf[0..cap): *made bytes out, *used bytes of input taken.  Returns 0, or
 * BFS_EIO for corrupt data (the codec's words). */
static int dec_step(struct dec *d, unsigned char *buf, size_t cap, size_t *made,
                    size_t *used, size_t line, struct bfs_error *e)
{
    const unsigned char *in = d->raw + d->raw_pos;
    size_t avail = d->raw_len - d->raw_pos;
    const char *why = NULL;

    switch (d->kind) {
    case DEC_GZIP: {
        uint32_t ain = avail > UINT32_MAX ? UINT32_MAX : (uint32_t)avail;
        uint32_t aout = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
        int gr;
        d->gz->next_in = (uint8_t *)(uintptr_t)in;
        d->gz->avail_in = ain;
        d->gz->next_out = buf;
        d->gz->avail_out = aout;
        gr = isal_inflate(d->gz);
        *used = ain - d->gz->avail_in;
        *made = aout - d->gz->avail_out;
        if (gr < 0)
            why = gz_error(gr);
        else if (d->gz->block_state == ISAL_BLOCK_FINISH)
            d->member_end = 1;
        break;
    }
    case DEC_XZ: {
        lzma_ret xr;
        d->x.next_in = in;
        d->x.avail_in = avail;
        d->x.next_out = buf;
        d->x.avail_out = cap;
        xr = lzma_code(&d->x, d->raw_eof ? LZMA_FINISH : LZMA_RUN);
        *used = avail - d->x.avail_in;
        *made = cap - d->x.avail_out;
        if (xr == LZMA_STREAM_END)
            d->done = 1;
        else if (xr == LZMA_MEM_ERROR)
            why = "out of memory";
        else if (xr == LZMA_MEMLIMIT_ERROR)
            why = "needs more than 256 MiB to decode (xz -9 needs 65)";
        else if (xr == LZMA_FORMAT_ERROR || xr == LZMA_OPTIONS_ERROR)
            why = "not xz data, or options this liblzma does not read";
        else if (xr == LZMA_DATA_ERROR)
            why = "corrupt data";
        else if (xr != LZMA_OK && xr != LZMA_BUF_ERROR)
            why = "liblzma failed";
        break;
    }
    case DEC_BZIP2: {
        unsigned ain = avail > UINT_MAX ? UINT_MAX : (unsigned)avail;
        unsigned aout = cap > UINT_MAX ? UINT_MAX : (unsigned)cap;
        int br;
        d->b.next_in = (char *)(uintptr_t)in;
        d->b.avail_in = ain;
        d->b.next_out = (char *)buf;
        d->b.avail_out = aout;
        br = BZ2_bzDecompress(&d->b);
        *used = ain - d->b.avail_in;
        *made = aout - d->b.avail_out;
        if (br == BZ_STREAM_END) {
            BZ2_bzDecompressEnd(&d->b);
            d->live = 0;
            d->member_end = 1;
        } else if (br == BZ_DATA_ERROR || br == BZ_DATA_ERROR_MAGIC)
            why = "corrupt data";
        else if (br == BZ_MEM_ERROR)
            why = "out of memory";
        else if (br != BZ_OK)
            why = "libbz2 failed";
        break;
    }
    case DEC_ZSTD: {
        ZSTD_inBuffer zin = {in, avail, 0};
        ZSTD_outBuffer zout = {buf, cap, 0};
        size_t zr = ZSTD_decompressStream(d->zs, &zout, &zin);
        *used = zin.pos;
        *made = zout.pos;
        if (ZSTD_isError(zr))
            why = ZSTD_getErrorName(zr);
        else if (zin.pos > 0 || zout.pos > 0)
            d->zstd_hint = zr; /* (a call on no input asks for a new frame) */
        break;
    }
    default: /* plain */
        *used = *made = avail < cap ? avail : cap;
        memcpy(buf, in, *made);
        break;
    }
    d->raw_pos += *used;
    if (why)
        return bfs_fail_at(e, BFS_EIO, d->path, line, "%s-compressed: %s",
                           dec_kinds[d->kind].name, why);
    return 0;
}

/* Reads up to cap (> 0) decoded bytes into buf: *got of them.  line is the
 * line errors name.  Returns 1 with *got > 0, 0 at the end of the data,
 * BFS_EIO on a read error or corrupt or truncated data, BFS_EUNSUP for a
 * zip file. */
static int dec_read(struct dec *d, unsigned char *buf, size_t cap, size_t *got,
                    size_t line, struct bfs_error *e)
{
    int rc;

    if (!d->started) {
        if ((rc = dec_fill(d, DEC_MAGIC_LEN, line, e)) != 0)
            return rc;
        if ((rc = bfs_compressed_check(d->path, d->raw, d->raw_len, e)) != 0)
            return rc;
        d->kind = dec_sniff(d->raw, d->raw_len);
        d->started = 1;
        if ((rc = dec_start(d, line, e)) != 0)
            return rc;
    }
    for (;;) {
        size_t made = 0, used = 0;
        if (d->done)
            return 0;
        if (d->member_end) {
            if ((rc = dec_next_member(d, line, e)) != 0)
                return rc;
            continue;
        }
        if (d->raw_pos == d->raw_len &&
            (rc = dec_fill(d, DEC_RAW, line, e)) != 0)
            return rc;
        if ((rc = dec_step(d, buf, cap, &made, &used, line, e)) != 0)
            return rc;
        if (made > 0) {
            *got = made;
            return 1;
        }
        if (used > 0 || d->member_end || d->done)
            continue;
        /* no progress: the input has ended, where it may or may not */
        if (d->raw_pos == d->raw_len && d->raw_eof &&
            (d->kind == DEC_PLAIN || (d->kind == DEC_ZSTD && !d->zstd_hint))) {
            d->done = 1;
            return 0;
        }
        if (d->raw_pos == d->raw_len && d->raw_eof)
            return bfs_fail_at(e, BFS_EIO, d->path, line,
                               "unexpected end of compressed data (%s)",
                               dec_kinds[d->kind].name);
        if (d->raw_pos < d->raw_len) /* no codec stalls on input it has */
            return bfs_fail_at(e, BFS_EIO, d->path, line,
                               "%s-compressed: the decoder made no progress",
                               dec_kinds[d->kind].name);
    }
}

/* A compressed file whose decoded first bytes (head[0..n)) are compressed
 * again is refused, naming both formats: nothing is undone twice.
 * Returns 0 or BFS_EUNSUP. */
static int dec_check_inner(const struct dec *d, const void *head, size_t n,
                           struct bfs_error *e)
{
    enum dec_kind inner = dec_sniff(head, n);

    if (d->kind == DEC_PLAIN || inner == DEC_PLAIN)
        return 0;
    return bfs_fail_at(e, BFS_EUNSUP, d->path, 0,
                       "%s-compressed inside %s; decompress it (%s, then %s)",
                       dec_kinds[inner].name, dec_kinds[d->kind].name,
                       dec_kinds[d->kind].undo, dec_kinds[inner].undo);
}

int bfs_read_all(const char *path, char **text, size_t *len,
                 struct bfs_error *e)
{
    struct dec d;
    char *buf = NULL;
    size_t n = 0, cap = 0, lines = 1, got;
    const char *nul;
    int rc;

    if (!*path)
        return bfs_fail(e, BFS_EIO, "empty file name");
    if ((rc = dec_open(&d, path, e)) != 0)
        return rc;
    for (;;) {
        BFS_GROW(buf, cap, n + DEC_RAW + 1);
        rc =
            dec_read(&d, (unsigned char *)buf + n, cap - n - 1, &got, lines, e);
        if (rc <= 0)
            break;
        if (n == 0 && (rc = dec_check_inner(&d, buf, got, e)) != 0)
            break;
        for (const char *q = buf + n; (q = memchr(q, '\n', buf + n + got - q));
             q++)
            lines++;
        n += got;
    }
    dec_close(&d);
    if (rc == 0 && (nul = memchr(buf, '\0', n)) != NULL) {
        size_t line = 1;
        const char *bol = buf;
        for (const char *q = buf; q < nul; q++)
            if (*q == '\n') {
                line++;
                bol = q + 1;
            }
        rc = bfs_fail_at(e, BFS_EPARSE, path, line, "NUL byte at column %zu",
                         (size_t)(nul - bol) + 1);
    }
    if (rc) {
        xfree(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ---- line input ---------------------------------------------------- */

struct bfs_lines {
    struct dec d;
    char *path; /* owned; d.path borrows it */
    char *buf;  /* the line returned, NUL-terminated */
    size_t cap;
    size_t lineno;
    double size; /* bytes of the file, 0 when unknown (a pipe) */
    char *in;    /* decoded bytes not yet returned */
    size_t in_pos, in_len;
    int checked; /* the first decoded bytes were checked (dec_check_inner) */
};

/* Size of the decoded buffer: large enough that the per-call cost of the
 * codecs vanishes. */
#define LINES_CHUNK ((size_t)1 << 17)

int bfs_lines_open(const char *path, struct bfs_lines **out,
                   struct bfs_error *e)
{
    struct bfs_lines *r;
    struct stat st;
    int rc;

    if (!*path)
        return bfs_fail(e, BFS_EIO, "empty file name");
    r = xcalloc(1, sizeof *r);
    r->path = xstrdup(path);
    if ((rc = dec_open(&r->d, r->path, e)) != 0) {
        xfree(r->path);
        xfree(r);
        return rc;
    }
    if (strcmp(path, "-") != 0 && fstat(r->d.fd, &st) == 0 &&
        S_ISREG(st.st_mode))
        r->size = (double)st.st_size;
    r->in = xmalloc(LINES_CHUNK);
    *out = r;
    return 0;
}

/* Refills r->in.  Returns 1 if bytes were decoded, 0 at the end of the
 * data, or dec_read's and dec_check_inner's errors. */
static int lines_fill(struct bfs_lines *r, struct bfs_error *e)
{
    size_t got = 0;
    int rc = dec_read(&r->d, (unsigned char *)r->in, LINES_CHUNK, &got,
                      r->lineno + 1, e);

    if (rc <= 0)
        return rc;
    r->in_pos = 0;
    r->in_len = got;
    if (!r->checked) {
        r->checked = 1;
        if ((rc = dec_check_inner(&r->d, r->in, got, e)) != 0)
            return rc;
    }
    return 1;
}

int bfs_lines_next(struct bfs_lines *r, char **line, struct bfs_error *e)
{
    size_t len = 0;
    int got = 0; /* some byte of this line was read */
    char *nul;

    for (;;) {
        const char *p = r->in + r->in_pos;
        size_t avail = r->in_len - r->in_pos;
        const char *nl = avail ? memchr(p, '\n', avail) : NULL;
        size_t take = nl ? (size_t)(nl - p) : avail;

        BFS_GROW(r->buf, r->cap, len + take + 1);
        memcpy(r->buf + len, p, take);
        len += take;
        got |= avail > 0;
        if (nl) {
            r->in_pos += take + 1;
            break;
        }
        r->in_pos = r->in_len;
        int rc = lines_fill(r, e);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            if (!got)
                return 0;
            break; /* a last line without a newline */
        }
    }
    r->buf[len] = '\0';
    r->lineno++;
    /* A NUL byte would silently cut the line for every caller that treats
     * it as a C string: refuse it here, once, for every reader. */
    nul = memchr(r->buf, '\0', len);
    if (nul)
        return bfs_fail_at(e, BFS_EPARSE, r->path, r->lineno,
                           "NUL byte at column %zu",
                           (size_t)(nul - r->buf) + 1);
    if (len > 0 && r->buf[len - 1] == '\r')
        r->buf[--len] = '\0';
    *line = r->buf;
    /* A UTF-8 byte-order mark, as spreadsheets write it, opens no field. */
    if (r->lineno == 1 && len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
        *line += 3;
    return 1;
}

size_t bfs_lines_lineno(const struct bfs_lines *r)
{
    return r->lineno;
}

const char *bfs_lines_path(const struct bfs_lines *r)
{
    return r->path;
}

double bfs_lines_fraction(const struct bfs_lines *r)
{
    double f;

    if (r->size <= 0)
        return -1.0;
    f = r->d.raw_read / r->size;
    return f < 0 ? -1.0 : f > 1 ? 1.0 : f;
}

void bfs_lines_close(struct bfs_lines *r)
{
    if (!r)
        return;
    dec_close(&r->d);
    xfree(r->in);
    xfree(r->buf);
    xfree(r->path);
    xfree(r);
}

size_t bfs_split(char *line, char sep, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;

    for (;;) {
        char *q = strchr(p, sep);
        if (n < max)
            fields[n] = p;
        n++;
        if (!q)
            break;
        *q = '\0';
        p = q + 1;
    }
    return n;
}

int bfs_word_in(const char *list, char sep, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == sep) && (p[n] == sep || p[n] == '\0'))
            return 1;
    return 0;
}

char *bfs_trim(char *s)
{
    char *end;

    while (*s == ' ' || *s == '\t')
        s++;
    end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    return s;
}

char *bfs_unquote(char **p, char *w)
{
    char *s = *p + 1;

    for (;;) {
        if (*s == '\0')
            return NULL;
        if (*s == '"' && s[1] == '"') {
            *w++ = '"';
            s += 2;
        } else if (*s == '"') {
            *p = s + 1;
            return w;
        } else {
            *w++ = *s++;
        }
    }
}

int bfs_csv_split(char *line, char sep, char **fields, size_t max, size_t *n,
                  size_t *col)
{
    /* Unquoting only shortens the text, so the write position w never
     * passes the read position p and the fields stay in the line. */
    char *p = line, *w = line;
    size_t k = 0;

    for (;;) {
        if (k < max)
            fields[k] = w;
        k++;
        if (*p == '"') {
            if ((w = bfs_unquote(&p, w)) == NULL) {
                *col = (size_t)(p - line) + 1;
                return BFS_EPARSE;
            }
            if (*p != sep && *p != '\0') {
                *col = (size_t)(p - line) + 1;
                return BFS_EPARSE;
            }
        } else {
            while (*p != sep && *p != '\0')
                *w++ = *p++;
        }
        if (*p == '\0') {
            *w = '\0';
            break;
        }
        *w++ = '\0';
        p++; /* the separator */
    }
    *n = k;
    return 0;
}

size_t bfs_split_ws(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;

    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        if (n < max)
            fields[n] = p;
        n++;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p == '\0')
            break;
        *p++ = '\0';
    }
    return n;
}
