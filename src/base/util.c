/* util.c - see util.h.
 *
 * Time conversion uses the days-from-civil algorithm on the proleptic
 * Gregorian calendar instead of timegm()/gmtime_r(), so results do not
 * depend on the C library or the TZ variable.  The line reader goes
 * through zlib's gzFile, which reads plain files unchanged, so every input
 * may be gzip-compressed.
 */
#include "config.h"

#include "base/util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

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

int bfs_compressed_check(const char *path, const void *head, size_t n,
                         int gzip_ok, struct bfs_error *e)
{
    /* magic bytes (RFC 1952, xz's and zstd's specifications, bzip2's
     * "BZh" and block size, a zip's local or empty-archive header) */
    static const struct {
        const char *name, *magic, *undo;
        size_t len;
    } kinds[] = {
        {"gzip", "\x1f\x8b", "gunzip", 2},
        {"xz",
         "\xfd"
         "7zXZ\0",
         "xz -d", 6},
        {"bzip2", "BZh", "bunzip2", 3},
        {"zip", "PK\x03\x04", "unzip", 4},
        {"zip", "PK\x05\x06", "unzip", 4},
        {"zstd", "\x28\xb5\x2f\xfd", "zstd -d", 4},
    };
    const unsigned char *h = head;

    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t len = kinds[i].len;
        if (n < len || memcmp(h, kinds[i].magic, len) != 0 ||
            (gzip_ok && i == 0))
            continue;
        /* bzip2's "BZh" is followed by the block size, '1'..'9' */
        if (strcmp(kinds[i].name, "bzip2") == 0 &&
            (n < 4 || h[3] < '1' || h[3] > '9'))
            continue;
        return bfs_fail_at(e, BFS_EUNSUP, path, 0,
                           "%s-compressed; decompress it (%s)%s", kinds[i].name,
                           kinds[i].undo, gzip_ok ? " or use gzip" : "");
    }
    return 0;
}

/* ---- line input ---------------------------------------------------- */

struct bfs_lines {
    gzFile gz;
    char *path;
    char *buf; /* the line returned, NUL-terminated */
    size_t cap;
    size_t lineno;
    double size; /* bytes of the file, 0 when unknown (a pipe) */
    char *in;    /* bytes read from gz and not yet returned */
    size_t in_pos, in_len;
    int eof;
    int started; /* bytes were read (and their format checked) */
};

/* Size of the read buffer: large enough that gzread's per-call cost
 * vanishes. */
#define LINES_CHUNK ((size_t)1 << 17)

int bfs_lines_open(const char *path, struct bfs_lines **out,
                   struct bfs_error *e)
{
    gzFile gz;
    struct bfs_lines *r;
    struct stat st;

    if (!*path)
        return bfs_fail(e, BFS_EIO, "empty file name");
    gz = strcmp(path, "-") == 0 ? gzdopen(dup(STDIN_FILENO), "rb")
                                : gzopen(path, "rb");
    if (!gz)
        return bfs_fail_at(e, BFS_EIO, path, 0, "cannot open: %s",
                           strerror(errno ? errno : ENOENT));
    gzbuffer(gz, 1 << 17);
    r = xcalloc(1, sizeof *r);
    r->gz = gz;
    r->path = xstrdup(path);
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        r->size = (double)st.st_size;
    r->in = xmalloc(LINES_CHUNK);
    *out = r;
    return 0;
}

/* Refills r->in.  Returns 1 if bytes were read, 0 at the end of the
 * data, BFS_EIO on a read error or a truncated compressed stream,
 * BFS_EUNSUP when the first bytes are another compressed format. */
static int lines_fill(struct bfs_lines *r, struct bfs_error *e)
{
    int n, zerr;
    const char *msg;

    if (r->eof)
        return 0;
    n = gzread(r->gz, r->in, (unsigned)LINES_CHUNK);
    if (n > 0) {
        r->in_pos = 0;
        r->in_len = (size_t)n;
        /* zlib passes other formats through as they are: name them
         * rather than report their bytes as a malformed line */
        if (!r->started) {
            r->started = 1;
            return bfs_compressed_check(r->path, r->in, r->in_len, 1, e)
                       ? BFS_EUNSUP
                       : 1;
        }
        return 1;
    }
    msg = gzerror(r->gz, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR))
        return bfs_fail_at(e, BFS_EIO, r->path, r->lineno + 1, "read error: %s",
                           zerr == Z_ERRNO ? strerror(errno) : msg);
    /* zlib ends a truncated gzip stream with Z_BUF_ERROR. */
    if (zerr == Z_BUF_ERROR)
        return bfs_fail_at(e, BFS_EIO, r->path, r->lineno + 1,
                           "unexpected end of compressed data");
    r->eof = 1;
    return 0;
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
    f = (double)gzoffset(r->gz) / r->size;
    return f < 0 ? -1.0 : f > 1 ? 1.0 : f;
}

void bfs_lines_close(struct bfs_lines *r)
{
    if (!r)
        return;
    gzclose(r->gz);
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
            const char *open = p++;
            for (;;) {
                if (*p == '\0') {
                    *col = (size_t)(open - line) + 1;
                    return BFS_EPARSE;
                }
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
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
