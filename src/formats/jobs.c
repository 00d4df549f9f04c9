/* jobs.c - loading, checking and writing job sets.
 *
 * Both input forms go through one CSV reader (struct csv): the header
 * line names the columns, which are then looked up by name, so that
 * their order does not matter; extra columns are a native file's
 * features (below) and are ignored in a BFTrainer table.  Fields are
 * split as RFC 4180 says (bfs_csv_split: a quoted field may hold commas
 * and doubled quotes), one line at a time, so no field, and no job name,
 * holds a line break: a quoted field left open at its line's end is an
 * error naming the file and line, and so is a carriage return inside a
 * name.  Blank lines are skipped.  Native files may carry comment lines
 * ('#' first) anywhere after the magic line.
 *
 * One row becomes one job through parse_job, whatever the form; curve
 * points are checked one at a time by curve_add as they are read, so
 * that an error names the line of the offending point.  The BFTrainer
 * long curve table is read into one curve per run of rows with bp 0, 1,
 * 2, ...; those curves are sorted by job name and each job finds its own
 * by binary search, so that joining 1,001 jobs costs O(n log n).
 * Duplicate job names are found the same way.
 *
 * Invariants of a loaded set: every job has 1 <= jmin <= jmax, pmax > 0,
 * tcup, tcdw >= 0, and a curve with n >= 2 points, N[0] = 0 with
 * P[0] = O[0] = 0, integer N strictly increasing, N[n-1] >= jmax and
 * P >= 0 everywhere.  O may take any finite value.
 *
 * Node types (native files only): the header's speed and curve@TYPE
 * columns are found once (type_header); each row's entries are gathered
 * in one list, which check_types sorts by name, so that a type named
 * twice, or given both a factor and a curve, shows as a neighbour, and
 * from which it drops the factors of 0.  job_objective_table and
 * job_type_tables share fill_tables: the reference is the type with
 * factor 1, whose products are exact, so the two agree to the bit.
 *
 * Features (native files only): every header column that is not one of
 * the above is found once (feature_header), checked as a type name is,
 * duplicates found by sorting; each row keeps its fields as owned text,
 * NULL for a blank one.  The checkpoint column names are reserved: they
 * are no features.
 *
 * jobset_write prints every number in the shortest form that strtod
 * reads back to the same double, and each name quoted when it needs it
 * (base/csv.h), so that load(write(load(x))) gives bit-identical jobs.
 */
#include "config.h"
#include "formats/jobs.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"

/* ---- numbers ------------------------------------------------------- */

/* The shortest of %.15g, %.16g, %.17g that reads back as v; integers
 * below 2^53 in full, without exponent. */
static const char *fmt_num(char buf[40], double v)
{
    if (floor(v) == v && fabs(v) < 9007199254740992.0) {
        snprintf(buf, 40, "%.0f", v);
        return buf;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 40, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* ---- curves -------------------------------------------------------- */

double curve_eval(const struct curve *c, const double *y, double x)
{
    return bfs_interp(x, c->N, y, c->n);
}

static void curve_release(struct curve *c)
{
    xfree(c->N);
    xfree(c->P);
    xfree(c->O);
    memset(c, 0, sizeof *c);
}

/* Appends the point (N, P, O) to c after checking it against the points
 * already there; cap is c's capacity.  Errors name the curve (what:
 * "curve", or "curve@TYPE" for a node type's own), the job and the
 * line. */
static int curve_add(struct curve *c, size_t *cap, const char *what,
                     const char *job, double N, double P, double O,
                     const char *file, size_t line, struct bfs_error *e)
{
    char b1[40], b2[40];

    if (!(N >= 0 && N <= INT_MAX && floor(N) == N))
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "%s of job %s: N %s is not a node count "
                           "(an integer >= 0)",
                           what, job, fmt_num(b1, N));
    if (c->n == 0) {
        if (N != 0)
            return bfs_fail_at(e, BFS_EPARSE, file, line,
                               "%s of job %s has no point N=0", what, job);
        if (P != 0 || O != 0)
            return bfs_fail_at(e, BFS_EPARSE, file, line,
                               "%s of job %s: point N=0 has P %s and "
                               "O %s, both must be 0",
                               what, job, fmt_num(b1, P), fmt_num(b2, O));
    } else if (N <= c->N[c->n - 1]) {
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "%s of job %s: N %s does not exceed the "
                           "previous N %s",
                           what, job, fmt_num(b1, N),
                           fmt_num(b2, c->N[c->n - 1]));
    }
    if (P < 0)
        return bfs_fail_at(e, BFS_ERANGE, file, line,
                           "%s of job %s: negative P %s at N=%s", what, job,
                           fmt_num(b1, P), fmt_num(b2, N));
    if (c->n == *cap) {
        /* Three arrays, one capacity. */
        size_t capN = *cap, capP = *cap;
        BFS_GROW(c->N, capN, c->n + 1);
        BFS_GROW(c->P, capP, c->n + 1);
        BFS_GROW(c->O, *cap, c->n + 1);
    }
    c->N[c->n] = N;
    c->P[c->n] = P;
    c->O[c->n] = O;
    c->n++;
    return 0;
}

/* Checks that a complete curve reaches jmax (what and job as for
 * curve_add). */
static int curve_finish(const struct curve *c, const char *what,
                        const char *job, int jmax, const char *file,
                        size_t line, struct bfs_error *e)
{
    char b[40];

    if (c->n == 0)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "%s of job %s has no point N=0", what, job);
    if (c->N[c->n - 1] < jmax)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "%s of job %s ends at N=%s, below Jmax %d", what,
                           job, fmt_num(b, c->N[c->n - 1]), jmax);
    return 0;
}

/* ---- CSV reading ----------------------------------------------------- */

struct csv {
    struct bfs_lines *r; /* owned */
    const char *path;    /* borrowed from r */
    char **f;            /* owned array; fields point into the line */
    size_t cap;
    size_t nf;    /* fields of the current row */
    size_t ncols; /* fields of the header */
    int comments; /* whether '#' lines are comments */
};

/* Splits a row, RFC 4180 quotes removed (as spreadsheets and pandas
 * write them: "J1","18",...).  Returns 0 or BFS_EPARSE (reported). */
static int csv_split(struct csv *c, char *line, struct bfs_error *e)
{
    size_t n = 1, col;

    for (const char *p = line; (p = strchr(p, ',')) != NULL; p++)
        n++;
    if (n > c->cap)
        BFS_GROW(c->f, c->cap, n);
    if (bfs_csv_split(line, ',', c->f, c->cap, &c->nf, &col) != 0)
        return bfs_fail_at(e, BFS_EPARSE, c->path, bfs_lines_lineno(c->r),
                           "column %zu: a quoted field must end on its line "
                           "(no field, a job name included, may hold a line "
                           "break), its closing quote followed by ',' or the "
                           "line's end",
                           col);
    return 0;
}

static int blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

/* Reads the next row that is not blank (nor a comment) and splits it.
 * Returns 1, 0 at the end, or a negative code. */
static int csv_next(struct csv *c, struct bfs_error *e)
{
    char *line;
    int rc;

    while ((rc = bfs_lines_next(c->r, &line, e)) == 1) {
        if (blank(line) || (c->comments && line[0] == '#'))
            continue;
        return csv_split(c, line, e) ? BFS_EPARSE : 1;
    }
    return rc;
}

static size_t csv_line(const struct csv *c)
{
    return bfs_lines_lineno(c->r);
}

/* Reads the next row and checks that it has one field per column.
 * Returns 1, 0 at the end, or a negative code. */
static int csv_row(struct csv *c, struct bfs_error *e)
{
    int rc = csv_next(c, e);

    if (rc == 1 && c->nf != c->ncols)
        return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                           "expected %zu fields, found %zu", c->ncols, c->nf);
    return rc;
}

/* Finds each of names[0..n-1] (NULL entries are skipped) among the
 * current row's fields, taken as the header: idx[k] is its column or -1.
 * A column named twice is an error. */
static int csv_header(struct csv *c, const char *const *names, size_t n,
                      long *idx, struct bfs_error *e)
{
    c->ncols = c->nf;
    for (size_t k = 0; k < n; k++) {
        idx[k] = -1;
        if (!names[k])
            continue;
        for (size_t i = 0; i < c->nf; i++) {
            if (strcmp(c->f[i], names[k]) != 0)
                continue;
            if (idx[k] >= 0)
                return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                                   "column %s appears twice", names[k]);
            idx[k] = (long)i;
        }
    }
    return 0;
}

static int csv_open(struct csv *c, const char *path, struct bfs_error *e)
{
    int rc;

    memset(c, 0, sizeof *c);
    rc = bfs_lines_open(path, &c->r, e);
    if (rc)
        return rc;
    c->path = bfs_lines_path(c->r);
    return 0;
}

static void csv_close(struct csv *c)
{
    bfs_lines_close(c->r);
    xfree(c->f);
    memset(c, 0, sizeof *c);
}

/* ---- fields ---------------------------------------------------------- */

static int bad_number(struct bfs_error *e, int rc, const char *file,
                      size_t line, const char *col, const char *s)
{
    if (rc == BFS_ERANGE)
        return bfs_fail_at(e, BFS_ERANGE, file, line,
                           "%s \"%s\" is not a finite number", col, s);
    return bfs_fail_at(e, BFS_EPARSE, file, line, "%s \"%s\" is not a number",
                       col, s);
}

static int get_double(const char *s, const char *col, const char *file,
                      size_t line, double *out, struct bfs_error *e)
{
    int rc = bfs_parse_double(s, out);

    return rc ? bad_number(e, rc, file, line, col, s) : 0;
}

/* A count: an integral number in int range ("64" or "64.0"). */
static int get_count(const char *s, const char *col, const char *file,
                     size_t line, int *out, struct bfs_error *e)
{
    double v;
    int rc = get_double(s, col, file, line, &v, e);

    if (rc)
        return rc;
    if (floor(v) != v)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "%s \"%s\" is not an integer", col, s);
    if (v < INT_MIN || v > INT_MAX)
        return bfs_fail_at(e, BFS_ERANGE, file, line,
                           "%s \"%s\" is out of range", col, s);
    *out = (int)v;
    return 0;
}

/* The fields of a job row, for both forms. */
enum {
    F_JOB,
    F_TSUB,
    F_TSUB_EPOCH,
    F_JMIN,
    F_JMAX,
    F_PMAX,
    F_TCUP,
    F_TCDW,
    F_CURVE,
    F_COUNT
};

static const char *const native_cols[F_COUNT] = {
    "job", "tsub", NULL, "jmin", "jmax", "pmax", "tcup", "tcdw", "curve"};
static const char *const bounds_cols[F_COUNT] = {"job",  "Tsub", "Tsub_epoch_s",
                                                 "Jmin", "Jmax", "Pmax",
                                                 "Tcup", "Tcdw", NULL};

/* Fills j (name, tsub, bounds, work, costs; not the curve) from the row
 * in c.  On failure j->name may be set: the caller releases it. */
static int parse_job(const struct csv *c, const long *idx,
                     const char *const *cols, struct job *j,
                     struct bfs_error *e)
{
    const char *file = c->path;
    size_t line = csv_line(c);
    char *const *f = c->f;
    const char *s;
    int rc;

    memset(j, 0, sizeof *j);
    j->line = line;
    s = f[idx[F_JOB]];
    if (*s == '\0')
        return bfs_fail_at(e, BFS_EPARSE, file, line, "empty job name");
    if (strchr(s, '\r'))
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "job name holds a carriage return (a job name "
                           "may not hold a line break)");
    j->name = xstrdup(s);

    if (idx[F_TSUB_EPOCH] >= 0) {
        s = f[idx[F_TSUB_EPOCH]];
        if (bfs_parse_i64(s, &j->tsub))
            return bfs_fail_at(e, BFS_EPARSE, file, line,
                               "%s \"%s\" is not an integer number of "
                               "seconds",
                               cols[F_TSUB_EPOCH], s);
        if (j->tsub < BFS_TIME_MIN || j->tsub > BFS_TIME_MAX)
            return bfs_fail_at(e, BFS_ERANGE, file, line,
                               "%s %" PRId64 " is out of range (Unix "
                               "seconds within +-%" PRId64 ")",
                               cols[F_TSUB_EPOCH], j->tsub, BFS_TIME_MAX);
    } else {
        s = f[idx[F_TSUB]];
        int trc = bfs_time_parse(s, &j->tsub);
        if (trc == BFS_ERANGE)
            return bfs_fail_at(e, BFS_ERANGE, file, line,
                               "%s %s is out of range (Unix seconds within "
                               "+-%" PRId64 ")",
                               cols[F_TSUB], s, BFS_TIME_MAX);
        if (trc)
            return bfs_fail_at(e, BFS_EPARSE, file, line,
                               "%s \"%s\" is not a time (YYYY-MM-DD "
                               "HH:MM:SS, UTC, or Unix seconds)",
                               cols[F_TSUB], s);
    }

    if ((rc = get_count(f[idx[F_JMIN]], cols[F_JMIN], file, line, &j->jmin,
                        e)) != 0 ||
        (rc = get_count(f[idx[F_JMAX]], cols[F_JMAX], file, line, &j->jmax,
                        e)) != 0 ||
        (rc = get_double(f[idx[F_PMAX]], cols[F_PMAX], file, line, &j->pmax,
                         e)) != 0 ||
        (rc = get_double(f[idx[F_TCUP]], cols[F_TCUP], file, line, &j->tcup,
                         e)) != 0 ||
        (rc = get_double(f[idx[F_TCDW]], cols[F_TCDW], file, line, &j->tcdw,
                         e)) != 0)
        return rc;

    if (j->jmin < 1)
        return bfs_fail_at(e, BFS_ERANGE, file, line, "%s %s is below 1",
                           cols[F_JMIN], f[idx[F_JMIN]]);
    if (j->jmin > j->jmax)
        return bfs_fail_at(e, BFS_ERANGE, file, line, "%s %s > %s %s",
                           cols[F_JMIN], f[idx[F_JMIN]], cols[F_JMAX],
                           f[idx[F_JMAX]]);
    if (!(j->pmax > 0))
        return bfs_fail_at(e, BFS_ERANGE, file, line, "%s %s is not positive",
                           cols[F_PMAX], f[idx[F_PMAX]]);
    if (j->tcup < 0)
        return bfs_fail_at(e, BFS_ERANGE, file, line, "%s %s is negative",
                           cols[F_TCUP], f[idx[F_TCUP]]);
    if (j->tcdw < 0)
        return bfs_fail_at(e, BFS_ERANGE, file, line, "%s %s is negative",
                           cols[F_TCDW], f[idx[F_TCDW]]);
    return 0;
}

/* Looks up the columns of a job table; a missing one is an error.  Of
 * the two submission columns of a bounds table, one is enough. */
static int job_header(struct csv *c, const char *const *cols, long *idx,
                      struct bfs_error *e)
{
    int rc = csv_header(c, cols, F_COUNT, idx, e);

    if (rc)
        return rc;
    for (int k = 0; k < F_COUNT; k++) {
        if (!cols[k] || idx[k] >= 0)
            continue;
        if (k == F_TSUB && idx[F_TSUB_EPOCH] >= 0)
            continue;
        if (k == F_TSUB_EPOCH)
            continue;
        return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                           "missing column %s", cols[k]);
    }
    return 0;
}

/* ---- job sets ---------------------------------------------------------- */

/* Frees what j owns; nf is the number of features of its set. */
static void job_release(struct job *j, size_t nf)
{
    if (j->features)
        xfree_strv(j->features, nf);
    for (size_t k = 0; k < j->n_types; k++) {
        xfree(j->types[k].type);
        curve_release(&j->types[k].curve);
    }
    xfree(j->types);
    xfree(j->name);
    curve_release(&j->curve);
}

void jobset_release(struct jobset *js)
{
    for (size_t i = 0; i < js->n; i++)
        job_release(&js->jobs[i], js->n_features);
    xfree(js->jobs);
    xfree_strv(js->feature_names, js->n_features);
    memset(js, 0, sizeof *js);
}

const char *job_feature(const struct jobset *js, const struct job *d,
                        const char *name)
{
    if (!d->features)
        return NULL;
    for (size_t k = 0; k < js->n_features; k++)
        if (strcmp(js->feature_names[k], name) == 0)
            return d->features[k];
    return NULL;
}

/* A name with where it was seen, for sorting and binary search. */
struct named {
    const char *name;
    size_t line;
    size_t idx;
};

static int named_cmp(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    if (c)
        return c;
    return (x->line > y->line) - (x->line < y->line);
}

static int check_unique(const struct jobset *js, const char *file,
                        struct bfs_error *e)
{
    struct named *v = xcalloc(js->n ? js->n : 1, sizeof *v);
    int rc = 0;

    for (size_t i = 0; i < js->n; i++)
        v[i] = (struct named){js->jobs[i].name, js->jobs[i].line, i};
    qsort(v, js->n, sizeof *v, named_cmp);
    /* Report the duplicate that comes first in the file. */
    size_t best = SIZE_MAX;
    for (size_t i = 1; i < js->n; i++)
        if (strcmp(v[i - 1].name, v[i].name) == 0 &&
            (best == SIZE_MAX || v[i].line < v[best].line))
            best = i;
    if (best != SIZE_MAX) {
        size_t first = best;
        while (first > 0 && strcmp(v[first - 1].name, v[best].name) == 0)
            first--;
        rc = bfs_fail_at(e, BFS_EPARSE, file, v[best].line,
                         "duplicate job name %s (first on line %zu)",
                         v[best].name, v[first].line);
    }
    xfree(v);
    return rc;
}

static void jobs_push(struct jobset *js, size_t *cap, const struct job *j)
{
    BFS_GROW(js->jobs, *cap, js->n + 1);
    js->jobs[js->n++] = *j;
}

/* A new array of a's first n values; a (owned) is freed. */
static double *copy_doubles(double *a, size_t n)
{
    double *b = xmalloc(n * sizeof *b);

    memcpy(b, a, n * sizeof *b);
    xfree(a);
    return b;
}

/* Parses a native curve field "N:P:O N:P:O ..." into c, which must be
 * empty; what ("curve" or "curve@TYPE") names the column in errors.  On
 * failure c may hold points: the caller releases it. */
static int parse_curve_field(char *s, struct curve *c, const char *what,
                             const struct job *j, const char *file, size_t line,
                             struct bfs_error *e)
{
    /* A point takes at least two characters with its separator. */
    size_t cap = 0, max = strlen(s) / 2 + 1;
    char **pts = xcalloc(max, sizeof *pts);
    size_t np = bfs_split_ws(s, pts, max);
    int rc = 0;

    for (size_t i = 0; i < np && rc == 0; i++) {
        char *v[3];
        double N, P, O;
        char *text = xstrdup(pts[i]);

        if (bfs_split(pts[i], ':', v, 3) != 3)
            rc = bfs_fail_at(e, BFS_EPARSE, file, line,
                             "%s point \"%s\" of job %s is not N:P:O", what,
                             text, j->name);
        else if ((rc = get_double(v[0], "N", file, line, &N, e)) == 0 &&
                 (rc = get_double(v[1], "P", file, line, &P, e)) == 0 &&
                 (rc = get_double(v[2], "O", file, line, &O, e)) == 0)
            rc = curve_add(c, &cap, what, j->name, N, P, O, file, line, e);
        xfree(text);
    }
    xfree(pts);
    if (rc == 0)
        rc = curve_finish(c, what, j->name, j->jmax, file, line, e);
    if (rc == 0 && cap > c->n) {
        /* copied to fit (a job set of 10^5 jobs keeps 10^5 curves; a
         * realloc in place would leave the tails as fragments) */
        c->N = copy_doubles(c->N, c->n);
        c->P = copy_doubles(c->P, c->n);
        c->O = copy_doubles(c->O, c->n);
    }
    return rc;
}

/* ---- node types -------------------------------------------------------- */

/* Why s cannot be a node type name, or NULL when it can: a type name is
 * a word of the trace's node lines and an entry of the speed field, so
 * it is not empty and holds no blank, no ':' and no line break. */
static const char *type_name_problem(const char *s)
{
    if (*s == '\0')
        return "is empty";
    if (strpbrk(s, " \t"))
        return "holds a blank";
    if (strchr(s, ':'))
        return "holds ':'";
    if (strpbrk(s, "\r\n"))
        return "holds a line break";
    return NULL;
}

static int job_type_cmp(const void *a, const void *b)
{
    const struct job_type *x = a, *y = b;

    return strcmp(x->type, y->type);
}

/* The node-type columns of a native header: speed and every curve@TYPE. */
struct type_cols {
    long speed;   /* column of speed, or -1 */
    size_t n;     /* curve@ columns */
    long *col;    /* owned: their columns */
    char **label; /* owned, each owned: their names, "curve@TYPE" */
};

static void type_cols_release(struct type_cols *t)
{
    xfree_strv(t->label, t->n);
    xfree(t->col);
    memset(t, 0, sizeof *t);
}

static int label_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks that no two of the header columns names[0..n-1] are the same,
 * an error on the header's line otherwise; sorted copies of the names
 * find a duplicate in O(n log n). */
static int check_twice(const struct csv *c, char *const *names, size_t n,
                       struct bfs_error *e)
{
    char **sorted = xcalloc(n ? n : 1, sizeof *sorted);
    int rc = 0;

    if (n)
        memcpy(sorted, names, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, label_cmp);
    for (size_t k = 1; k < n && rc == 0; k++)
        if (strcmp(sorted[k - 1], sorted[k]) == 0)
            rc = bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                             "column %s appears twice", sorted[k]);
    xfree(sorted);
    return rc;
}

/* Finds the node-type columns of the header row in c.  A curve@ column
 * whose type name is not one, and a curve@ column named twice, are
 * errors on the header's line. */
static int type_header(struct csv *c, struct type_cols *t, struct bfs_error *e)
{
    static const char *const speed_col[] = {"speed"};
    const char *why;
    size_t cap = 0, capc = 0;
    int rc;

    memset(t, 0, sizeof *t);
    rc = csv_header(c, speed_col, 1, &t->speed, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < c->nf; i++) {
        const char *f = c->f[i];
        if (strncmp(f, "curve@", 6) != 0)
            continue;
        if ((why = type_name_problem(f + 6)) != NULL)
            return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                               "column \"%s\": the node type name %s", f, why);
        BFS_GROW(t->col, capc, t->n + 1);
        BFS_GROW(t->label, cap, t->n + 1);
        t->col[t->n] = (long)i;
        t->label[t->n++] = xstrdup(f);
    }
    return check_twice(c, t->label, t->n, e);
}

/* Appends an entry for the type name to j's list (grown to *cap) and
 * returns it, its speed 0 and its curve empty. */
static struct job_type *type_push(struct job *j, size_t *cap, const char *name)
{
    struct job_type *t;

    BFS_GROW(j->types, *cap, j->n_types + 1);
    t = &j->types[j->n_types++];
    memset(t, 0, sizeof *t);
    t->type = xstrdup(name);
    return t;
}

/* Parses one TYPE:FACTOR entry of the speed field of job j into its
 * list. */
static int parse_speed_entry(char *s, struct job *j, size_t *cap,
                             const char *file, size_t line, struct bfs_error *e)
{
    char *colon = strchr(s, ':');
    const char *why;
    char b[40];
    double f;
    int rc;

    if (!colon || strchr(colon + 1, ':'))
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "speed entry \"%s\" of job %s is not TYPE:FACTOR", s,
                           j->name);
    *colon = '\0';
    if ((why = type_name_problem(s)) != NULL)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "speed entry \"%s:%s\" of job %s: the node type "
                           "name %s",
                           s, colon + 1, j->name, why);
    rc = bfs_parse_double(colon + 1, &f);
    if (rc == BFS_ERANGE)
        return bfs_fail_at(e, BFS_ERANGE, file, line,
                           "speed factor \"%s\" for node type %s of job %s is "
                           "not a finite number",
                           colon + 1, s, j->name);
    if (rc)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "speed factor \"%s\" for node type %s of job %s is "
                           "not a number",
                           colon + 1, s, j->name);
    if (f < 0)
        return bfs_fail_at(e, BFS_ERANGE, file, line,
                           "speed factor %s for node type %s of job %s is "
                           "negative",
                           fmt_num(b, f), s, j->name);
    type_push(j, cap, s)->speed = f;
    return 0;
}

/* Checks j's list once read: a type named twice, or given a factor and a
 * curve, is an error; factors of 0 are dropped (the job does not run on
 * the type), and a job that listed types but kept none is an error; so
 * is a factor that makes the scaled curve overflow.  The list ends sorted
 * by name. */
static int check_types(struct job *j, const char *file, size_t line,
                       struct bfs_error *e)
{
    size_t listed = j->n_types, kept = 0;
    char b[40];

    if (j->n_types > 1) /* qsort may not take NULL, even for 0 items */
        qsort(j->types, j->n_types, sizeof *j->types, job_type_cmp);
    for (size_t k = 1; k < j->n_types; k++) {
        const struct job_type *x = &j->types[k - 1], *y = &j->types[k];
        if (strcmp(x->type, y->type) != 0)
            continue;
        if (x->curve.n || y->curve.n)
            return bfs_fail_at(e, BFS_EPARSE, file, line,
                               "node type %s of job %s has both a speed "
                               "factor and a curve (curve@%s)",
                               x->type, j->name, x->type);
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "node type %s appears twice in the speed of job "
                           "%s",
                           x->type, j->name);
    }
    for (size_t k = 0; k < j->n_types; k++) {
        const struct job_type *t = &j->types[k];
        const struct curve *c = &j->curve;
        for (size_t i = 0; t->curve.n == 0 && i < c->n; i++)
            if (!isfinite(t->speed * c->P[i]) || !isfinite(t->speed * c->O[i]))
                return bfs_fail_at(e, BFS_ERANGE, file, line,
                                   "speed factor %s for node type %s of job "
                                   "%s makes its curve overflow (P or O "
                                   "times the factor is not finite)",
                                   fmt_num(b, t->speed), t->type, j->name);
    }
    for (size_t k = 0; k < j->n_types; k++) {
        struct job_type *t = &j->types[k];
        if (t->curve.n == 0 && t->speed == 0)
            xfree(t->type);
        else
            j->types[kept++] = *t;
    }
    j->n_types = kept;
    if (listed && !kept)
        return bfs_fail_at(e, BFS_EPARSE, file, line,
                           "job %s lists node types but can run on none "
                           "(every speed factor is 0)",
                           j->name);
    return 0;
}
/* Reads the node types of job j from the row in c (the columns in tc);
 * a speed field and curve@ fields that are all blank list none.  On
 * failure j's list may be partly filled: the caller releases j. */
static int parse_types(const struct csv *c, const struct type_cols *tc,
                       struct job *j, struct bfs_error *e)
{
    size_t line = csv_line(c), cap = 0;
    int rc = 0;

    if (tc->speed >= 0) {
        char *s = c->f[tc->speed];
        /* An entry takes at least two characters with its separator. */
        size_t max = strlen(s) / 2 + 1;
        char **ent = xcalloc(max, sizeof *ent);
        size_t n = bfs_split_ws(s, ent, max);
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = parse_speed_entry(ent[k], j, &cap, c->path, line, e);
        xfree(ent);
        if (rc)
            return rc;
    }
    for (size_t k = 0; k < tc->n; k++) {
        char *s = c->f[tc->col[k]];
        if (blank(s))
            continue;
        /* The label is "curve@TYPE". */
        struct job_type *t = type_push(j, &cap, tc->label[k] + 6);
        rc = parse_curve_field(s, &t->curve, tc->label[k], j, c->path, line, e);
        if (rc)
            return rc;
    }
    return check_types(j, c->path, line, e);
}

/* ---- features ----------------------------------------------------------- */

/* The columns of a native header that are not features: the job's own,
 * the node types' (curve@TYPE is told by its prefix) and the checkpoint
 * columns. */
static const char *const known_cols[] = {
    "job",  "tsub",  "jmin",  "jmax",          "pmax",       "tcup",
    "tcdw", "curve", "speed", "ckpt_interval", "ckpt_write", "ckpt_restart"};

static int known_column(const char *s)
{
    if (strncmp(s, "curve@", 6) == 0)
        return 1;
    for (size_t k = 0; k < sizeof known_cols / sizeof known_cols[0]; k++)
        if (strcmp(s, known_cols[k]) == 0)
            return 1;
    return 0;
}

/* Why s cannot be a feature name, or NULL when it can: the type name
 * rules, and not a curve@ column. */
static const char *feature_name_problem(const char *s)
{
    if (strncmp(s, "curve@", 6) == 0)
        return "starts with \"curve@\"";
    return type_name_problem(s);
}

/* Finds the feature columns of the header row in c: their names go to
 * js (owned there), their columns to *col (owned array).  A name that
 * is not one, and a feature column named twice, are errors on the
 * header's line. */
static int feature_header(struct csv *c, struct jobset *js, long **col,
                          struct bfs_error *e)
{
    const char *why;
    size_t cap = 0, capc = 0;

    *col = NULL;
    for (size_t i = 0; i < c->nf; i++) {
        const char *f = c->f[i];
        if (strncmp(f, "ckpt_", 5) == 0 && known_column(f))
            return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                               "column %s: checkpoints are not supported yet",
                               f);
        if (known_column(f))
            continue;
        if ((why = feature_name_problem(f)) != NULL)
            return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                               "column %zu \"%s\": the feature name %s", i + 1,
                               f, why);
        BFS_GROW(*col, capc, js->n_features + 1);
        BFS_GROW(js->feature_names, cap, js->n_features + 1);
        (*col)[js->n_features] = (long)i;
        js->feature_names[js->n_features++] = xstrdup(f);
    }
    return check_twice(c, js->feature_names, js->n_features, e);
}

/* Reads job j's feature values from the row in c (the columns in col,
 * one per feature of js). */
static int parse_features(const struct csv *c, const struct jobset *js,
                          const long *col, struct job *j, struct bfs_error *e)
{
    if (js->n_features == 0)
        return 0;
    j->features = xcalloc(js->n_features, sizeof *j->features);
    for (size_t k = 0; k < js->n_features; k++) {
        const char *s = c->f[col[k]];
        if (blank(s))
            continue;
        if (strchr(s, '\r'))
            return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                               "feature %s of job %s holds a carriage return "
                               "(a field may not hold a line break)",
                               js->feature_names[k], j->name);
        j->features[k] = xstrdup(s);
    }
    return 0;
}

static int load_native(struct csv *c, struct jobset *js, struct bfs_error *e)
{
    struct type_cols tc = {-1, 0, NULL, NULL};
    long idx[F_COUNT], *fcol = NULL;
    size_t cap = 0;
    int rc;

    c->comments = 1;
    rc = csv_next(c, e);
    if (rc == 0)
        return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                           "missing header line after \"%s\"", JOBS_MAGIC);
    if (rc < 0 || (rc = job_header(c, native_cols, idx, e)) != 0 ||
        (rc = type_header(c, &tc, e)) != 0 ||
        (rc = feature_header(c, js, &fcol, e)) != 0)
        goto out;
    while ((rc = csv_row(c, e)) == 1) {
        struct job j;
        rc = parse_job(c, idx, native_cols, &j, e);
        if (rc == 0)
            rc = parse_curve_field(c->f[idx[F_CURVE]], &j.curve,
                                   native_cols[F_CURVE], &j, c->path,
                                   csv_line(c), e);
        if (rc == 0)
            rc = parse_types(c, &tc, &j, e);
        if (rc == 0)
            rc = parse_features(c, js, fcol, &j, e);
        if (rc) {
            job_release(&j, js->n_features);
            goto out;
        }
        jobs_push(js, &cap, &j);
    }
out:
    xfree(fcol);
    type_cols_release(&tc);
    return rc;
}

/* One curve of the long table, while it is read. */
struct lcurve {
    char *name;       /* owned */
    size_t line;      /* of its bp 0 */
    size_t last_line; /* of its last point */
    size_t cap;
    struct curve c; /* owned until moved to its job */
};

enum { C_JOB, C_BP, C_N, C_P, C_O, C_COUNT };
static const char *const curve_cols[C_COUNT] = {"job", "bp", "N", "P", "O"};

static int load_long(const char *path, struct lcurve **out, size_t *nout,
                     struct bfs_error *e)
{
    struct csv c;
    struct lcurve *v = NULL, *cur = NULL;
    size_t n = 0, cap = 0;
    long idx[C_COUNT];
    int rc;

    rc = csv_open(&c, path, e);
    if (rc)
        return rc;
    rc = csv_next(&c, e);
    if (rc == 0)
        rc = bfs_fail_at(e, BFS_EPARSE, c.path, 0, "empty file");
    if (rc < 0)
        goto fail;
    if ((rc = csv_header(&c, curve_cols, C_COUNT, idx, e)) != 0)
        goto fail;
    for (int k = 0; k < C_COUNT; k++)
        if (idx[k] < 0) {
            rc = bfs_fail_at(e, BFS_EPARSE, c.path, csv_line(&c),
                             "missing column %s", curve_cols[k]);
            goto fail;
        }
    while ((rc = csv_row(&c, e)) == 1) {
        size_t line = csv_line(&c);
        const char *name = c.f[idx[C_JOB]];
        int64_t bp;
        double N, P, O;

        if (*name == '\0') {
            rc = bfs_fail_at(e, BFS_EPARSE, c.path, line, "empty job name");
            goto fail;
        }
        if (bfs_parse_i64(c.f[idx[C_BP]], &bp) || bp < 0) {
            rc =
                bfs_fail_at(e, BFS_EPARSE, c.path, line,
                            "bp \"%s\" is not an integer >= 0", c.f[idx[C_BP]]);
            goto fail;
        }
        if ((rc = get_double(c.f[idx[C_N]], "N", c.path, line, &N, e)) ||
            (rc = get_double(c.f[idx[C_P]], "P", c.path, line, &P, e)) ||
            (rc = get_double(c.f[idx[C_O]], "O", c.path, line, &O, e)))
            goto fail;
        if (bp == 0) {
            BFS_GROW(v, cap, n + 1);
            cur = &v[n++];
            memset(cur, 0, sizeof *cur);
            cur->name = xstrdup(name);
            cur->line = line;
        } else if (!cur || strcmp(cur->name, name) != 0) {
            rc = bfs_fail_at(e, BFS_EPARSE, c.path, line,
                             "curve of job %s starts at bp %" PRId64 ", not 0",
                             name, bp);
            goto fail;
        } else if ((uint64_t)bp != cur->c.n) {
            rc = bfs_fail_at(e, BFS_EPARSE, c.path, line,
                             "curve of job %s: bp %" PRId64
                             " follows bp %zu (bp must run 0, 1, 2, ...)",
                             name, bp, cur->c.n - 1);
            goto fail;
        }
        rc = curve_add(&cur->c, &cur->cap, "curve", name, N, P, O, c.path, line,
                       e);
        if (rc)
            goto fail;
        cur->last_line = line;
    }
    if (rc < 0)
        goto fail;
    csv_close(&c);
    *out = v;
    *nout = n;
    return 0;

fail:
    for (size_t i = 0; i < n; i++) {
        xfree(v[i].name);
        curve_release(&v[i].c);
    }
    xfree(v);
    csv_close(&c);
    return rc;
}

/* Gives every job of js its curve from the long table at path. */
static int join_curves(struct jobset *js, const char *bounds_path,
                       const char *path, struct bfs_error *e)
{
    struct lcurve *lc = NULL;
    struct named *by_name = NULL;
    char *used = NULL;
    size_t n = 0;
    int rc;

    rc = load_long(path, &lc, &n, e);
    if (rc)
        return rc;
    by_name = xcalloc(n ? n : 1, sizeof *by_name);
    used = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++)
        by_name[i] = (struct named){lc[i].name, lc[i].line, i};
    qsort(by_name, n, sizeof *by_name, named_cmp);
    for (size_t i = 1; i < n; i++)
        if (strcmp(by_name[i - 1].name, by_name[i].name) == 0) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, by_name[i].line,
                             "second curve for job %s (first on line %zu)",
                             by_name[i].name, by_name[i - 1].line);
            goto out;
        }

    for (size_t i = 0; i < js->n; i++) {
        struct job *j = &js->jobs[i];
        struct named key = {j->name, 0, 0};
        const struct named *hit;
        size_t lo = 0, hi = n;

        /* Lower bound on the name alone (key.line 0 sorts first). */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (named_cmp(&by_name[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        hit = lo < n && strcmp(by_name[lo].name, j->name) == 0 ? &by_name[lo]
                                                               : NULL;
        if (!hit) {
            rc = bfs_fail_at(e, BFS_EPARSE, bounds_path, j->line,
                             "job %s has no curve in %s", j->name, path);
            goto out;
        }
        rc = curve_finish(&lc[hit->idx].c, "curve", j->name, j->jmax, path,
                          lc[hit->idx].last_line, e);
        if (rc)
            goto out;
        j->curve = lc[hit->idx].c;
        memset(&lc[hit->idx].c, 0, sizeof lc[hit->idx].c);
        used[hit->idx] = 1;
    }
    /* lc is in file order: the first unused curve has the lowest line. */
    for (size_t i = 0; i < n; i++)
        if (!used[i]) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, lc[i].line,
                             "curve for unknown job %s (not in %s)", lc[i].name,
                             bounds_path);
            goto out;
        }

out:
    for (size_t i = 0; i < n; i++) {
        xfree(lc[i].name);
        curve_release(&lc[i].c);
    }
    xfree(used);
    xfree(by_name);
    xfree(lc);
    return rc;
}

static int load_bounds(struct csv *c, const char *curves_path,
                       struct jobset *js, struct bfs_error *e)
{
    long idx[F_COUNT];
    size_t cap = 0;
    int rc, known = 0;

    /* A header that names none of the bounds columns is no bounds
     * table: say so rather than list the missing columns. */
    rc = csv_header(c, bounds_cols, F_COUNT, idx, e);
    if (rc)
        return rc;
    for (int k = 0; k < F_COUNT; k++)
        known += k != F_JOB && idx[k] >= 0;
    if (!known) {
        for (size_t i = 0; i < c->nf; i++)
            if (strcmp(c->f[i], "curve") == 0)
                return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                                   "missing magic line \"%s\" before the "
                                   "header of a native job file",
                                   JOBS_MAGIC);
        return bfs_fail_at(e, BFS_EPARSE, c->path, csv_line(c),
                           "not a job file: the first line is neither "
                           "\"%s\" nor a BFTrainer bounds header "
                           "(job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub,...)",
                           JOBS_MAGIC);
    }
    if ((rc = job_header(c, bounds_cols, idx, e)) != 0)
        return rc;
    if (!curves_path)
        return bfs_fail_at(e, BFS_EINVAL, c->path, 0,
                           "a BFTrainer bounds table needs its long curve "
                           "table (job,bp,N,P,O)");
    while ((rc = csv_row(c, e)) == 1) {
        struct job j;
        rc = parse_job(c, idx, bounds_cols, &j, e);
        if (rc) {
            job_release(&j, 0);
            return rc;
        }
        jobs_push(js, &cap, &j);
    }
    if (rc < 0)
        return rc;
    if (js->n == 0)
        return bfs_fail_at(e, BFS_EPARSE, c->path, 0, "no jobs");
    if ((rc = check_unique(js, c->path, e)) != 0)
        return rc;
    return join_curves(js, c->path, curves_path, e);
}

int jobset_load(const char *path, const char *curves_path, struct jobset *out,
                struct bfs_error *e)
{
    struct jobset js = {0};
    struct csv c;
    char *line;
    int rc;

    rc = csv_open(&c, path, e);
    if (rc)
        return rc;
    rc = bfs_lines_next(c.r, &line, e);
    if (rc == 0)
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0, "empty file");
    if (rc < 0)
        goto fail;
    if (strcmp(line, JOBS_MAGIC) == 0) {
        if (curves_path) {
            rc = bfs_fail_at(e, BFS_EINVAL, path, 0,
                             "a native job file takes no curve table");
            goto fail;
        }
        rc = load_native(&c, &js, e);
        if (rc == 0 && js.n == 0)
            rc = bfs_fail_at(e, BFS_EPARSE, path, 0, "no jobs");
        if (rc == 0)
            rc = check_unique(&js, path, e);
    } else if (line[0] == '#') {
        rc = bfs_fail_at(e, BFS_EPARSE, path, 1,
                         "bad magic line \"%s\" (expected \"%s\")", line,
                         JOBS_MAGIC);
    } else {
        rc = csv_split(&c, line, e);
        if (rc == 0)
            rc = load_bounds(&c, curves_path, &js, e);
    }
    if (rc)
        goto fail;
    csv_close(&c);
    *out = js;
    return 0;

fail:
    jobset_release(&js);
    csv_close(&c);
    return rc;
}

/* ---- writing ------------------------------------------------------------- */

/* Whether name can be written as a native job name: what the reader
 * takes (parse_job), quoted by csv_field when it needs it. */
static int writable_name(const char *name)
{
    return *name != '\0' && strpbrk(name, "\r\n") == NULL;
}

static void write_curve(FILE *f, const struct curve *c)
{
    char b[3][40];

    for (size_t k = 0; k < c->n; k++)
        fprintf(f, "%s%s:%s:%s", k ? " " : "", fmt_num(b[0], c->N[k]),
                fmt_num(b[1], c->P[k]), fmt_num(b[2], c->O[k]));
}

/* Checks that the node types of js can be written and read back, and
 * collects the names of the types some job has a curve for, in order of
 * first appearance (*ct, owned array of borrowed names; *nct of them),
 * one curve@ column each.  *typed tells whether any job lists a type. */
static int collect_types(const char *path, const struct jobset *js,
                         const char ***ct, size_t *nct, int *typed,
                         struct bfs_error *e)
{
    const char **v = NULL;
    size_t n = 0, cap = 0;
    const char *why;
    char b[40];

    *typed = 0;
    for (size_t i = 0; i < js->n; i++) {
        const struct job *j = &js->jobs[i];
        for (size_t k = 0; k < j->n_types; k++) {
            const struct job_type *t = &j->types[k];
            size_t m = 0;
            *typed = 1;
            if ((why = type_name_problem(t->type)) != NULL) {
                xfree(v);
                return bfs_fail_at(e, BFS_EINVAL, path, 0,
                                   "job %s: node type name \"%s\" cannot be "
                                   "written (it %s)",
                                   j->name, t->type, why);
            }
            if (t->curve.n == 0 && !(t->speed > 0)) {
                xfree(v);
                return bfs_fail_at(e, BFS_EINVAL, path, 0,
                                   "job %s: speed factor %s for node type %s "
                                   "is not > 0",
                                   j->name, fmt_num(b, t->speed), t->type);
            }
            if (t->curve.n == 0)
                continue;
            while (m < n && strcmp(v[m], t->type) != 0)
                m++;
            if (m == n) {
                BFS_GROW(v, cap, n + 1);
                v[n++] = t->type;
            }
        }
    }
    *ct = v;
    *nct = n;
    return 0;
}

/* Writes j's speed field (its factor types as TYPE:FACTOR, blank
 * separated) and its curve@ fields, one per name of ct, each after a
 * comma. */
static void write_types(FILE *f, const struct job *j, const char **ct,
                        size_t nct)
{
    char b[40], *s;
    size_t len = 0, size = 1;

    for (size_t k = 0; k < j->n_types; k++)
        size += strlen(j->types[k].type) + 42;
    s = xmalloc(size);
    s[0] = '\0';
    for (size_t k = 0; k < j->n_types; k++) {
        const struct job_type *t = &j->types[k];
        if (t->curve.n == 0)
            len +=
                (size_t)snprintf(s + len, size - len, "%s%s:%s", len ? " " : "",
                                 t->type, fmt_num(b, t->speed));
    }
    fputc(',', f);
    csv_field(f, s);
    xfree(s);
    for (size_t m = 0; m < nct; m++) {
        fputc(',', f);
        for (size_t k = 0; k < j->n_types; k++)
            if (j->types[k].curve.n && strcmp(j->types[k].type, ct[m]) == 0)
                write_curve(f, &j->types[k].curve);
    }
}

/* Checks that the features of js can be written and read back: each
 * name a feature name (not a known column), each value on one line. */
static int check_features(const char *path, const struct jobset *js,
                          struct bfs_error *e)
{
    const char *why;

    for (size_t k = 0; k < js->n_features; k++) {
        const char *f = js->feature_names[k];
        if ((why = feature_name_problem(f)) != NULL || known_column(f))
            return bfs_fail_at(e, BFS_EINVAL, path, 0,
                               "feature name \"%s\" cannot be written (it %s)",
                               f, why ? why : "is a column bfsim reads");
        for (size_t m = 0; m < k; m++)
            if (strcmp(js->feature_names[m], f) == 0)
                return bfs_fail_at(e, BFS_EINVAL, path, 0,
                                   "feature name \"%s\" cannot be written "
                                   "(it is there twice)",
                                   f);
    }
    for (size_t i = 0; i < js->n; i++)
        for (size_t k = 0; js->jobs[i].features && k < js->n_features; k++) {
            const char *v = js->jobs[i].features[k];
            if (v && strpbrk(v, "\r\n"))
                return bfs_fail_at(e, BFS_EINVAL, path, 0,
                                   "job %s: feature %s cannot be written (a "
                                   "line break)",
                                   js->jobs[i].name, js->feature_names[k]);
        }
    return 0;
}

int jobset_write(const char *path, const struct jobset *js,
                 const char *const *comments, struct bfs_error *e)
{
    struct bfs_out o;
    const char **ct = NULL;
    size_t nct = 0;
    char b[40];
    int rc, typed;

    for (size_t i = 0; i < js->n; i++)
        if (!writable_name(js->jobs[i].name))
            return bfs_fail_at(e, BFS_EINVAL, path, 0,
                               "job name \"%s\" cannot be written (empty, "
                               "or a line break)",
                               js->jobs[i].name);
    rc = check_features(path, js, e);
    if (rc)
        return rc;
    rc = collect_types(path, js, &ct, &nct, &typed, e);
    if (rc)
        return rc;
    rc = bfs_out_open(&o, path, e);
    if (rc)
        goto out;
    fprintf(o.fp, "%s\n", JOBS_MAGIC);
    for (size_t k = 0; comments && comments[k]; k++) {
        /* One "# " line per line of the comment. */
        const char *p = comments[k];
        do {
            size_t len = strcspn(p, "\r\n");
            if (len)
                fprintf(o.fp, "# %.*s\n", (int)len, p);
            else
                fputs("#\n", o.fp);
            p += len;
            if (*p == '\r' && p[1] == '\n')
                p++;
        } while (*p++ != '\0');
    }
    /* The type columns only when some job lists a type, so that an
     * untyped set is written as before types existed. */
    fputs("job,tsub,jmin,jmax,pmax,tcup,tcdw,curve", o.fp);
    if (typed)
        fputs(",speed", o.fp);
    for (size_t m = 0; m < nct; m++) {
        fputc(',', o.fp);
        csv_fieldf(o.fp, "curve@%s", ct[m]);
    }
    for (size_t k = 0; k < js->n_features; k++) {
        fputc(',', o.fp);
        csv_field(o.fp, js->feature_names[k]);
    }
    fputc('\n', o.fp);
    for (size_t i = 0; i < js->n; i++) {
        const struct job *j = &js->jobs[i];

        csv_field(o.fp, j->name);
        fprintf(o.fp, ",%" PRId64 ",%d,%d,", j->tsub, j->jmin, j->jmax);
        fprintf(o.fp, "%s,", fmt_num(b, j->pmax));
        fprintf(o.fp, "%s,", fmt_num(b, j->tcup));
        fprintf(o.fp, "%s,", fmt_num(b, j->tcdw));
        write_curve(o.fp, &j->curve);
        if (typed)
            write_types(o.fp, j, ct, nct);
        for (size_t k = 0; k < js->n_features; k++) {
            fputc(',', o.fp);
            if (j->features && j->features[k])
                csv_field(o.fp, j->features[k]);
        }
        fputc('\n', o.fp);
    }
    rc = bfs_out_commit(&o, e);
out:
    xfree(ct);
    return rc;
}

/* ---- objective metrics ------------------------------------------------ */

static const char *const objective_names[] = {
#define JOB_OBJ_NAME(name, text) text,
    JOB_OBJECTIVES(JOB_OBJ_NAME)
#undef JOB_OBJ_NAME
};

const char *job_objective_name(int objective)
{
    return objective >= 0 && objective < JOB_N_OBJECTIVES
               ? objective_names[objective]
               : "unknown";
}

int job_objective_parse(const char *s)
{
    for (int i = 0; i < JOB_N_OBJECTIVES; i++)
        if (strcmp(s, objective_names[i]) == 0)
            return i;
    return -1;
}

/* Fills o[0..d->jmax] (and p[0..d->jmax] unless p is NULL) for the
 * objective from the curve c scaled by s: P_t(n) = s P_c(n), with the
 * speed-up taken against the reference curve's P(1).  For the reference
 * (c = &d->curve, s = 1) the products are exact, so one function gives
 * the reference and every type. */
static int fill_tables(const struct job *d, const struct curve *c, double s,
                       int objective, double *p, double *o, const char *path,
                       struct bfs_error *e)
{
    const struct curve *ref = &d->curve;
    double p1 = curve_eval(ref, ref->P, 1);

    if ((objective == JOB_OBJ_SPEEDUP || objective == JOB_OBJ_PROP_FAIR) &&
        !(p1 > 0))
        return bfs_fail_at(e, BFS_EINVAL, path, d->line,
                           "job %s: P(1) = %g, so its speed-up (--objective "
                           "%s) is undefined",
                           d->name, p1, job_objective_name(objective));
    for (int n = 0; n <= d->jmax; n++) {
        double pn = s * curve_eval(c, c->P, n);
        if (p)
            p[n] = pn;
        switch (objective) {
        case JOB_OBJ_THROUGHPUT:
            o[n] = pn;
            break;
        case JOB_OBJ_SPEEDUP:
            o[n] = pn / p1;
            break;
        case JOB_OBJ_PROP_FAIR:
            o[n] = log1p(pn / p1);
            break;
        default:
            o[n] = s * curve_eval(c, c->O, n);
        }
    }
    return 0;
}

int job_objective_table(const struct job *d, int objective, double *o,
                        const char *path, struct bfs_error *e)
{
    return fill_tables(d, &d->curve, 1.0, objective, NULL, o, path, e);
}

int job_type_tables(const struct job *d, const char *type, int objective,
                    double *p, double *o, const char *path, struct bfs_error *e)
{
    const struct curve *c = &d->curve;
    double s = 1.0;
    int rc;

    /* A job that lists no type runs on every type with its reference
     * curve. */
    if (type && d->n_types) {
        const struct job_type *t = NULL;
        for (size_t k = 0; k < d->n_types && !t; k++)
            if (strcmp(d->types[k].type, type) == 0)
                t = &d->types[k];
        if (!t || (t->curve.n == 0 && !(t->speed > 0)))
            return 0;
        if (t->curve.n)
            c = &t->curve;
        else
            s = t->speed;
    }
    rc = fill_tables(d, c, s, objective, p, o, path, e);
    return rc ? rc : 1;
}
