/* util.h - memory, time, number parsing and line input.
 *
 * Everything here is small and shared by the input readers, the replay and
 * the command line.  Allocation wrappers abort on failure: running out of
 * memory is not an input error that a caller could report better.
 */
#ifndef BFS_UTIL_H
#define BFS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"

/* Allocation that aborts with a message on failure.  xfree(NULL) is a
 * no-op, like free(). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Reallocates p to hold n elements of size bytes, checking for overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* The text printf(fmt, ...) would print, allocated. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define xfree free
/* Frees the n strings of v, then v (NULL: nothing). */
void xfree_strv(char **v, size_t n);
/* Frees the n pointers of v, in order (NULL ones are no-ops). */
void xfree_each(void *const *v, size_t n);
/* xfree of each argument, in order: XFREE_ALL(a->x, a->y, a) for the
 * several buffers a release function owns. */
#define XFREE_ALL(...)                                                         \
    xfree_each((void *const[]){__VA_ARGS__},                                   \
               sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* Grows *cap (starting at 16, doubling) until it is at least need and
 * reallocates *p to *cap elements of elem bytes. */
void bfs_grow(void **p, size_t *cap, size_t need, size_t elem);
/* bfs_grow when need exceeds cap (checked here: no call when there is
 * room, as at most uses; cap and need are read twice). */
#define BFS_GROW(ptr, cap, need)                                               \
    ((need) <= (cap)                                                           \
         ? (void)0                                                             \
         : bfs_grow((void **)&(ptr), &(cap), (need), sizeof *(ptr)))

/* ---- time ---------------------------------------------------------- */

/* The range of every time bfsim reads, in Unix seconds: up to the end of
 * the year 9999 (the last a "YYYY-MM-DD" date can write) and as far back.
 * Two such times, or one and a duration up to BFS_DURATION_MAX, add and
 * subtract without overflow, so that code past the readers need not
 * check. */
#define BFS_TIME_MAX ((int64_t)253402300799) /* 9999-12-31 23:59:59 */
#define BFS_TIME_MIN (-BFS_TIME_MAX)

/* Parses "YYYY-MM-DD HH:MM:SS" (UTC; 'T' may stand for the space) or an
 * integer number of Unix seconds into *out.  Returns 0, BFS_ERANGE for
 * seconds outside [BFS_TIME_MIN, BFS_TIME_MAX], or BFS_EPARSE for
 * anything else (trailing characters included), without touching *out. */
int bfs_time_parse(const char *s, int64_t *out);

/* Writes t as "YYYY-MM-DD HH:MM:SS" (UTC) into buf, which must hold
 * BFS_TIME_LEN bytes; returns buf. */
#define BFS_TIME_LEN 96
char *bfs_time_format(int64_t t, char buf[BFS_TIME_LEN]);

/* Unix seconds of a civil UTC date and time (proleptic Gregorian). */
int64_t bfs_time_from_civil(int64_t y, int mon, int d, int h, int min, int s);

/* Seconds on a monotonic clock, for measuring wall time. */
double bfs_now(void);

/* CPU seconds this process has used (all its threads). */
double bfs_cpu_now(void);

/* qsort comparators: doubles in increasing order (NaN-free input), and
 * C strings (an array of char *) in strcmp order. */
int bfs_cmp_double(const void *a, const void *b);
int bfs_cmp_str(const void *a, const void *b);

/* The splitmix64 generator (Steele, Lea and Flood 2014): advances *state
 * by 0x9E3779B97F4A7C15 and returns the mixed value. */
uint64_t bfs_splitmix64(uint64_t *state);

/* Shuffles a[0..n) in place (Fisher-Yates, from the last element down,
 * each swap partner drawn as bfs_splitmix64(state) % (k + 1)). */
void bfs_shuffle(size_t *a, size_t n, uint64_t *state);

/* Longest duration bfs_parse_duration accepts: 2^40 s, 34,800 years. */
#define BFS_DURATION_MAX ((int64_t)1 << 40)

/* Parses a duration: a number of seconds (fractions allowed) with an
 * optional unit suffix s, m, h or d ("3600", "90s", "30m", "1.5h",
 * "365d"), rounded to whole seconds, which must lie in [min,
 * BFS_DURATION_MAX].  Returns 0, or BFS_EPARSE for anything else (a
 * negative number, another suffix, trailing text) without touching
 * *out.  The one duration syntax of every option that takes one. */
int bfs_parse_duration(const char *s, int64_t min, int64_t *out);

/* ---- numbers ------------------------------------------------------- */

/* Strict parsers: the whole string must be a decimal number (no trailing
 * text, no empty string, no leading blanks, no hexadecimal: "0x10" is not
 * 16).  Return 0 or BFS_EPARSE / BFS_ERANGE; *out is written only on
 * success. */
int bfs_parse_i64(const char *s, int64_t *out);
int bfs_parse_int(const char *s, int *out);
int bfs_parse_double(const char *s, double *out); /* finite values only */

/* numpy.interp(x, xp, fp) for one x: the piecewise-linear function
 * through the n >= 1 points (xp[i], fp[i]), xp strictly increasing.  At
 * a breakpoint it is the breakpoint's own value; between xp[i] and
 * xp[i+1] it is slope * (x - xp[i]) + fp[i], slope = (fp[i+1] - fp[i]) /
 * (xp[i+1] - xp[i]), the product rounded before the sum, exactly as
 * numpy computes it (so that results match the published replayer, whose
 * scipy interp1d delegates to it, to the last bit); below xp[0] it is
 * fp[0] and above xp[n-1] it is fp[n-1], numpy's default fill values. */
double bfs_interp(double x, const double *xp, const double *fp, size_t n);

/* Sum of a[0..n-1] in the order numpy's pairwise summation adds them
 * (numpy.add.reduce on a contiguous float64 array), so that sums printed
 * in the compatible mode match the published replayer to the last bit. */
double bfs_pairwise_sum(const double *a, size_t n);

/* ---- compressed input ---------------------------------------------- */

/* Checks the first n bytes of what path holds (head) for the magic bytes
 * of a compressed format bfsim does not read: zip (an archive, not a
 * stream).  Returns 0, or BFS_EUNSUP with "PATH: zip-compressed;
 * decompress it (unzip) or use gzip, xz, bzip2 or zstd" in e. */
int bfs_compressed_check(const char *path, const void *head, size_t n,
                         struct bfs_error *e);

/* Reads the whole of path ("-" is standard input), decoded as
 * bfs_lines decodes it, into *text (NUL-terminated, owned by the caller)
 * and its length into *len.  Returns 0, BFS_EIO (a file that cannot be
 * read, corrupt or truncated compressed data), BFS_EPARSE (a NUL byte,
 * with its line and column) or BFS_EUNSUP (zip, or compressed data inside
 * compressed data), each reported in e with the file name; the outputs
 * are written only on success. */
int bfs_read_all(const char *path, char **text, size_t *len,
                 struct bfs_error *e);

/* ---- line input ---------------------------------------------------- */

/* A line reader over a plain or compressed file: gzip, xz, bzip2 or zstd,
 * told by the first bytes (never by the name) and decoded as a stream in
 * constant memory, concatenated members or streams as one.  Lines are
 * returned without their "\n" or "\r\n", of any length, and the first
 * without a UTF-8 byte-order mark (EF BB BF) if it has one.  A NUL byte
 * inside a line is an error (with the file, line and column), never a
 * line silently cut short, so no reader has to check for one.  A zip file
 * (bfs_compressed_check), or compressed data whose decoded bytes are
 * compressed again, is an error at the first read, naming the formats. */
struct bfs_lines;

/* Opens path ("-" is standard input).  Returns 0 or BFS_EIO (reported in
 * e with the file name; "empty file name" for ""). */
int bfs_lines_open(const char *path, struct bfs_lines **out,
                   struct bfs_error *e);

/* Reads the next line into *line (valid until the next call; the reader
 * owns it, and the caller may modify it in place).  Returns 1 for a line,
 * 0 at the end of the file, BFS_EIO on a read error or corrupt, truncated
 * or trailing compressed data, BFS_EPARSE on a line holding a NUL byte,
 * BFS_EUNSUP for zip or doubly compressed data (each reported in e with
 * the file and the line reached). */
int bfs_lines_next(struct bfs_lines *r, char **line, struct bfs_error *e);

/* Number of the line last returned (1-based), for error messages. */
size_t bfs_lines_lineno(const struct bfs_lines *r);
/* The path given to bfs_lines_open (borrowed). */
const char *bfs_lines_path(const struct bfs_lines *r);
/* The share of the file read so far (compressed bytes for a compressed
 * file, counting the read-ahead buffer), 0..1, or -1 when the size is not
 * known (standard input, a pipe). */
double bfs_lines_fraction(const struct bfs_lines *r);

void bfs_lines_close(struct bfs_lines *r);

/* Splits line in place at every sep, storing at most max field pointers.
 * Returns the number of fields found (which may exceed max: the extra
 * ones are not stored).  Fields are not trimmed or unquoted. */
size_t bfs_split(char *line, char sep, char **fields, size_t max);

/* Splits one CSV record in place at sep, as RFC 4180 quotes fields: a
 * field may be enclosed in double quotes (which are removed), inside which
 * sep stands for itself and "" for one quote; an unquoted field is taken
 * as it is.  Stores at most max field pointers and the number of fields
 * found in *n (which may exceed max).  Returns 0, or BFS_EPARSE with the
 * 1-based column of the problem in *col: a quoted field that does not end
 * on its line (line breaks inside fields are not read), or text after a
 * closing quote. */
int bfs_csv_split(char *line, char sep, char **fields, size_t max, size_t *n,
                  size_t *col);

/* Copies the double-quoted string at *p (at its opening quote) to w, ""
 * as one quote, and moves *p past its closing quote.  w may be inside
 * the string, at or before *p + 1 (the copy never overtakes the read).
 * Returns the end of the copy (no NUL written), or NULL when the string
 * does not end (*p then unchanged). */
char *bfs_unquote(char **p, char *w);

/* Whether word is one of the items of list separated by sep ("milp or
 * dp" with ' ', ",a,b" or "a,b" with ','), matched whole. */
int bfs_word_in(const char *list, char sep, const char *word);

/* Strips blanks (spaces and tabs) from both ends of s in place; returns
 * the first character kept (inside s). */
char *bfs_trim(char *s);

/* Splits line in place at runs of blanks (spaces and tabs), like
 * bfs_split.  Leading and trailing blanks make no empty field. */
size_t bfs_split_ws(char *line, char **fields, size_t max);

#endif
