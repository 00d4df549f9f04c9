/* import_bftrainer.c - the BFTrainer node matrix (CSV export) to a native
 * trace.  See import.h for the input files.
 *
 * Design: nodes.csv is read whole (it is the node list); rows.csv and the
 * transitions are then read in lockstep, one matrix row at a time: the
 * transitions of row r are gathered (they are sorted by row), checked
 * against rows.csv and against the current idle flags, and written as one
 * event.  Memory: the node list, one idle flag and one stamp per node,
 * and one row's changes.  The trace writer checks the same rules again;
 * the checks here exist to name the CSV line at fault.
 */
#include "config.h"

#include "import/import.h"
#include "import/import_log.h"
#include "formats/hostlist.h"
#include "formats/trace.h"
#include "base/util.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

/* Columns wanted from one CSV file, found by header name. */
struct csv_cols {
    const char *const *want; /* NULL-terminated names */
    size_t col[8];           /* their field positions */
    size_t nfields;          /* fields in the header */
};

/* Splits a line of in into at most 64 fields, RFC 4180 quotes removed. */
static int split_quoted(struct bfs_lines *in, char *line, char **f, size_t *nf,
                        struct bfs_error *e)
{
    size_t col;

    if (bfs_csv_split(line, ',', f, 64, nf, &col) != 0)
        return bfs_fail_at(e, BFS_EPARSE, bfs_lines_path(in),
                           bfs_lines_lineno(in),
                           "column %zu: a quoted field must end on its line, "
                           "its closing quote followed by ',' or the line's "
                           "end",
                           col);
    return 0;
}

/* Reads the header line of in and maps the wanted columns. */
static int csv_header(struct bfs_lines *in, struct csv_cols *c,
                      struct bfs_error *e)
{
    const char *path = bfs_lines_path(in);
    char *line, *f[64];
    size_t nf;
    int rc = bfs_lines_next(in, &line, e);

    if (rc < 0)
        return rc;
    if (rc == 0)
        return bfs_fail_at(e, BFS_EPARSE, path, 1,
                           "empty file (expected a CSV header)");
    if ((rc = split_quoted(in, line, f, &nf, e)) != 0)
        return rc;
    if (nf > 64)
        return bfs_fail_at(e, BFS_EPARSE, path, 1, "too many columns (%zu)",
                           nf);
    c->nfields = nf;
    for (size_t w = 0; c->want[w]; w++) {
        size_t k;
        for (k = 0; k < nf; k++)
            if (strcmp(f[k], c->want[w]) == 0)
                break;
        if (k == nf)
            return bfs_fail_at(e, BFS_EPARSE, path, 1,
                               "no column '%s' in the header", c->want[w]);
        c->col[w] = k;
    }
    return 0;
}

/* Reads the next data line and splits it into the wanted fields v[].
 * Returns 1, 0 at the end, or a negative code.  Blank lines are errors:
 * a CSV export has none. */
static int csv_row(struct bfs_lines *in, const struct csv_cols *c, char **v,
                   struct bfs_error *e)
{
    char *line, *f[64];
    size_t nf;
    int rc = bfs_lines_next(in, &line, e);

    if (rc <= 0)
        return rc;
    if ((rc = split_quoted(in, line, f, &nf, e)) != 0)
        return rc;
    if (nf != c->nfields)
        return bfs_fail_at(e, BFS_EPARSE, bfs_lines_path(in),
                           bfs_lines_lineno(in),
                           "%zu fields, the header has %zu", nf, c->nfields);
    for (size_t w = 0; c->want[w]; w++)
        v[w] = f[c->col[w]];
    return 1;
}

/* Parses an integer field in [lo, hi], reporting name on failure. */
static int field_i64(struct bfs_lines *in, const char *name, const char *s,
                     int64_t lo, int64_t hi, int64_t *out, struct bfs_error *e)
{
    int64_t v;

    if (bfs_parse_i64(s, &v) != 0)
        return bfs_fail_at(e, BFS_EPARSE, bfs_lines_path(in),
                           bfs_lines_lineno(in), "%s '%.40s' is not an integer",
                           name, s);
    if (v < lo || v > hi)
        return bfs_fail_at(
            e, BFS_ERANGE, bfs_lines_path(in), bfs_lines_lineno(in),
            "%s %" PRId64 " out of range [%" PRId64 ", %" PRId64 "]", name, v,
            lo, hi);
    *out = v;
    return 0;
}

/* "dir/name" if it exists, else the first of "dir/name.gz", ".xz",
 * ".bz2", ".zst" that exists (the reader tells the format by content;
 * the suffix only finds the file), else "dir/name" (so that the open
 * error names the plain file).  malloc'd. */
static char *find_input(const char *dir, const char *name)
{
    static const char *const ext[] = {".gz", ".xz", ".bz2", ".zst"};
    struct stat st;
    char *p = xmalloc(strlen(dir) + strlen(name) + 6);
    size_t len;

    sprintf(p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    if (stat(p, &st) == 0)
        return p;
    len = strlen(p);
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        strcpy(p + len, ext[i]);
        if (stat(p, &st) == 0)
            return p;
    }
    p[len] = '\0';
    return p;
}

/* The node list from nodes.csv: names[col_idx], each index exactly once. */
static int read_nodes(const char *path, char ***names_out, size_t *n_out,
                      struct bfs_error *e)
{
    static const char *const want[] = {"col_idx", "node", NULL};
    struct csv_cols c = {.want = want};
    struct bfs_lines *in = NULL;
    char **names = NULL, *v[2];
    size_t *line_of = NULL, cap = 0, cap2 = 0, n = 0;
    int64_t *idx_of = NULL;
    size_t cap3 = 0;
    /* names seen -> their line: a repeated name is an error here, with
     * its line, not later against the output file */
    struct hostlist_index *seen = hostlist_index_new();
    int rc;

    rc = bfs_lines_open(path, &in, e);
    if (rc) {
        hostlist_index_free(seen);
        return rc;
    }
    rc = csv_header(in, &c, e);
    while (rc == 0 && (rc = csv_row(in, &c, v, e)) == 1) {
        int64_t idx;
        rc = field_i64(in, "col_idx", v[0], 0, UINT32_MAX - 1, &idx, e);
        if (rc)
            break;
        if (v[1][0] == '\0' || strpbrk(v[1], " \t")) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, bfs_lines_lineno(in),
                             "node name '%.40s' is empty or holds a blank",
                             v[1]);
            break;
        }
        if (!hostlist_index_add(seen, v[1], bfs_lines_lineno(in))) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, bfs_lines_lineno(in),
                             "node name '%.40s' repeated (first on line %zu)",
                             v[1], hostlist_index_find(seen, v[1]));
            break;
        }
        BFS_GROW(names, cap, n + 1);
        BFS_GROW(line_of, cap2, n + 1);
        BFS_GROW(idx_of, cap3, n + 1);
        names[n] = xstrdup(v[1]);
        line_of[n] = bfs_lines_lineno(in);
        idx_of[n] = idx;
        n++;
        rc = 0;
    }
    if (rc == 0 && n == 0)
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0, "no nodes");
    if (rc == 0) {
        /* Place each name at its column; every column 0..n-1 once. */
        char **by_col = xcalloc(n, sizeof *by_col);
        size_t *line_by_col = xcalloc(n, sizeof *line_by_col);
        for (size_t k = 0; k < n && rc == 0; k++) {
            size_t col = (size_t)idx_of[k];
            if (col >= n)
                rc = bfs_fail_at(e, BFS_ERANGE, path, line_of[k],
                                 "col_idx %zu out of range (%zu nodes, "
                                 "0..%zu)",
                                 col, n, n - 1);
            else if (by_col[col])
                rc = bfs_fail_at(e, BFS_EPARSE, path, line_of[k],
                                 "col_idx %zu repeated (first on line %zu)",
                                 col, line_by_col[col]);
            else {
                by_col[col] = names[k];
                line_by_col[col] = line_of[k];
            }
        }
        xfree(line_by_col);
        if (rc == 0) {
            xfree(names);
            names = by_col;
        } else {
            xfree(by_col);
        }
    }
    bfs_lines_close(in);
    hostlist_index_free(seen);
    xfree(line_of);
    xfree(idx_of);
    if (rc < 0) {
        xfree_strv(names, n);
        return rc;
    }
    *names_out = names;
    *n_out = n;
    return 0;
}

/* One pending transition line, parsed. */
struct transition {
    int64_t row, epoch;
    uint32_t col;
    int state;
    size_t line;
};

static int read_transition(struct bfs_lines *in, const struct csv_cols *c,
                           char *const *names, size_t n, struct transition *t,
                           struct bfs_error *e)
{
    char *v[5];
    int64_t x;
    int rc = csv_row(in, c, v, e);

    if (rc <= 0)
        return rc;
    t->line = bfs_lines_lineno(in);
    if ((rc = field_i64(in, "row", v[0], 0, INT64_MAX, &t->row, e)) ||
        (rc = field_i64(in, "epoch_s", v[1], BFS_TIME_MIN, BFS_TIME_MAX,
                        &t->epoch, e)) ||
        (rc = field_i64(in, "col_idx", v[2], 0, (int64_t)n - 1, &x, e)))
        return rc;
    t->col = (uint32_t)x;
    if (strcmp(v[3], names[t->col]) != 0)
        return bfs_fail_at(e, BFS_EPARSE, bfs_lines_path(in), t->line,
                           "node '%.40s' does not match col_idx %" PRIu32
                           " ('%s' in nodes.csv)",
                           v[3], t->col, names[t->col]);
    if ((rc = field_i64(in, "new_state", v[4], 0, 1, &x, e)))
        return rc;
    t->state = (int)x;
    return 1;
}

/* Called when a row's counts disagree with its transitions: the cause may
 * be transitions.csv out of row order (a row's lines further down), which
 * must then be reported there rather than against rows.csv.  Reads on from
 * t (the next pending transition); returns the error for the first
 * transition whose row decreases, or 0 when the rest is in order. */
static int find_disorder(struct bfs_lines *in, const struct csv_cols *c,
                         char *const *names, size_t n, struct transition *t,
                         struct bfs_error *e)
{
    int64_t prev = t->row;
    int rc;

    while ((rc = read_transition(in, c, names, n, t, e)) == 1) {
        if (t->row < prev)
            return bfs_fail_at(e, BFS_EPARSE, bfs_lines_path(in), t->line,
                               "row %" PRId64 " out of order (after row "
                               "%" PRId64 ")",
                               t->row, prev);
        prev = t->row;
    }
    return rc;
}

void import_bftrainer_inputs(const char *src, char **nodes, char **rows,
                             char **transitions)
{
    struct stat sb;
    char *dir;

    if (stat(src, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        dir = xstrdup(src);
        *transitions = find_input(dir, "transitions.csv");
    } else {
        const char *slash = strrchr(src, '/');
        dir = slash ? xstrdup(src) : xstrdup(".");
        if (slash)
            dir[slash - src] = '\0';
        if (slash == src)
            strcpy(dir, "/");
        *transitions = xstrdup(src);
    }
    *nodes = find_input(dir, "nodes.csv");
    *rows = find_input(dir, "rows.csv");
    xfree(dir);
}

int import_bftrainer(const char *src, const char *out_path,
                     const char *const *comments, struct import_stats *st,
                     struct bfs_error *e)
{
    return import_bftrainer_typed(src, out_path, comments, NULL, st, e);
}

/* comments, then the line on where the types come from (malloc'd,
 * NULL-terminated; free with import_log_comments_free). */
static char **typed_comments(const char *const *comments,
                             const struct import_log_opts *o)
{
    size_t n = 0;
    char **c = xcalloc(import_log_comments_count(comments) + 2, sizeof *c);

    import_log_comments_add(c, &n, comments);
    c[n] = import_log_types_comment(o);
    return c;
}

int import_bftrainer_typed(const char *src, const char *out_path,
                           const char *const *comments,
                           const struct nodetypes *types,
                           struct import_stats *st, struct bfs_error *e)
{
    static const char *const row_cols[] = {
        "row",         "time",         "epoch_s", "n_idle",
        "n_join_0to1", "n_leave_1to0", NULL};
    static const char *const tr_cols[] = {"row",  "epoch_s",   "col_idx",
                                          "node", "new_state", NULL};
    struct csv_cols rc_cols = {.want = row_cols}, tc = {.want = tr_cols};
    struct import_stats s = {0};
    struct import_log_opts o;
    struct bfs_lines *rows = NULL, *trs = NULL;
    char **cm;
    struct trace_writer *w = NULL;
    struct transition t = {0};
    char *p_nodes = NULL, *p_rows = NULL, *p_trs = NULL;
    char **names = NULL;
    uint8_t *idle = NULL;
    uint32_t *stamp = NULL, *join = NULL, *leave = NULL;
    size_t n = 0, cap_j = 0, cap_l = 0, idle_count = 0;
    int64_t expect_row = 0, prev_epoch = 0;
    int have_t, rc;
    struct stat sb;

    /* Locate the three files. */
    if (stat(src, &sb) != 0)
        return bfs_fail_at(e, BFS_EIO, src, 0, "cannot open: %s",
                           strerror(errno));
    import_bftrainer_inputs(src, &p_nodes, &p_rows, &p_trs);

    rc = read_nodes(p_nodes, &names, &n, e);
    if (rc)
        goto out;
    if ((rc = bfs_lines_open(p_rows, &rows, e)) ||
        (rc = csv_header(rows, &rc_cols, e)) ||
        (rc = bfs_lines_open(p_trs, &trs, e)) || (rc = csv_header(trs, &tc, e)))
        goto out;
    import_log_opts_init(&o);
    o.node_types = types;
    cm = types ? typed_comments(comments, &o) : NULL;
    rc = import_log_writer_open(out_path, (const char *const *)names, NULL, n,
                                cm ? (const char *const *)cm : comments, &o, &s,
                                &w, e);
    import_log_comments_free(cm);
    if (rc)
        goto out;
    idle = xcalloc(n, 1);
    stamp = xcalloc(n, sizeof *stamp);

    have_t = read_transition(trs, &tc, names, n, &t, e);
    if (have_t < 0) {
        rc = have_t;
        goto out;
    }
    for (;;) {
        char *v[6];
        int64_t row, epoch, n_idle, n_join, n_leave, parsed;
        size_t nj = 0, nl = 0, rline;

        rc = csv_row(rows, &rc_cols, v, e);
        if (rc < 0)
            goto out;
        if (rc == 0)
            break;
        rline = bfs_lines_lineno(rows);
        if ((rc = field_i64(rows, "row", v[0], 0, INT64_MAX, &row, e)) ||
            (rc = field_i64(rows, "epoch_s", v[2], BFS_TIME_MIN, BFS_TIME_MAX,
                            &epoch, e)) ||
            (rc = field_i64(rows, "n_idle", v[3], 0, (int64_t)n, &n_idle, e)) ||
            (rc = field_i64(rows, "n_join_0to1", v[4], 0, (int64_t)n, &n_join,
                            e)) ||
            (rc = field_i64(rows, "n_leave_1to0", v[5], 0, (int64_t)n, &n_leave,
                            e)))
            goto out;
        if (row != expect_row) {
            rc = bfs_fail_at(e, BFS_EPARSE, p_rows, rline,
                             "row %" PRId64 " out of sequence (expected "
                             "%" PRId64 ")",
                             row, expect_row);
            goto out;
        }
        if (bfs_time_parse(v[1], &parsed) != 0 || parsed != epoch) {
            rc = bfs_fail_at(e, BFS_EPARSE, p_rows, rline,
                             "time '%.40s' does not match epoch_s %" PRId64,
                             v[1], epoch);
            goto out;
        }
        if (row > 0 && epoch <= prev_epoch) {
            rc = bfs_fail_at(e, BFS_EPARSE, p_rows, rline,
                             "epoch_s %" PRId64 " is not after the previous "
                             "row's %" PRId64,
                             epoch, prev_epoch);
            goto out;
        }
        expect_row++;
        prev_epoch = epoch;

        /* Gather this row's transitions. */
        uint32_t cur = (uint32_t)row + 1; /* stamp; rows < 2^32 - 1 here */
        while (have_t == 1 && t.row == row) {
            if (t.epoch != epoch) {
                rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                                 "epoch_s %" PRId64 " differs from row "
                                 "%" PRId64 "'s %" PRId64 " (%s:%zu)",
                                 t.epoch, row, epoch, p_rows, rline);
                goto out;
            }
            if (stamp[t.col] == cur) {
                rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                                 "node %s (col_idx %" PRIu32 ") changes "
                                 "twice in row %" PRId64,
                                 names[t.col], t.col, row);
                goto out;
            }
            stamp[t.col] = cur;
            if (t.state == 1 && idle[t.col]) {
                rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                                 "node %s (col_idx %" PRIu32 ") becomes "
                                 "idle but is already idle",
                                 names[t.col], t.col);
                goto out;
            }
            if (t.state == 0 && !idle[t.col]) {
                rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                                 "node %s (col_idx %" PRIu32 ") is taken "
                                 "back but is not idle",
                                 names[t.col], t.col);
                goto out;
            }
            if (t.state) {
                BFS_GROW(join, cap_j, nj + 1);
                join[nj++] = t.col;
            } else {
                BFS_GROW(leave, cap_l, nl + 1);
                leave[nl++] = t.col;
            }
            have_t = read_transition(trs, &tc, names, n, &t, e);
            if (have_t < 0) {
                rc = have_t;
                goto out;
            }
        }
        if (have_t == 1 && t.row < row) {
            rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                             "row %" PRId64 " out of order (after row "
                             "%" PRId64 ")",
                             t.row, row);
            goto out;
        }
        for (size_t k = 0; k < nj; k++)
            idle[join[k]] = 1;
        for (size_t k = 0; k < nl; k++)
            idle[leave[k]] = 0;
        idle_count = idle_count + nj - nl;
        if ((int64_t)nj != n_join || (int64_t)nl != n_leave ||
            (int64_t)idle_count != n_idle) {
            if (have_t == 1 &&
                (rc = find_disorder(trs, &tc, names, n, &t, e)) != 0)
                goto out;
            rc = bfs_fail_at(e, BFS_EPARSE, p_rows, rline,
                             "row %" PRId64 " says %" PRId64 " joins, "
                             "%" PRId64 " leaves, %" PRId64 " idle; the "
                             "transitions give %zu, %zu, %zu",
                             row, n_join, n_leave, n_idle, nj, nl, idle_count);
            goto out;
        }
        rc = trace_writer_event(w, epoch, join, nj, leave, nl, e);
        if (rc)
            goto out;
        if (s.events == 0)
            s.first_time = epoch;
        s.last_time = epoch;
        s.events++;
        s.joins += nj;
        s.leaves += nl;
        if (idle_count > s.max_idle)
            s.max_idle = idle_count;
    }
    if (have_t == 1) {
        rc = bfs_fail_at(e, BFS_EPARSE, p_trs, t.line,
                         "row %" PRId64 " is not in %s (last row %" PRId64 ")",
                         t.row, p_rows, expect_row - 1);
        goto out;
    }
    if (s.events == 0) {
        rc = bfs_fail_at(e, BFS_EPARSE, p_rows, 0, "no rows");
        goto out;
    }
    rc = trace_writer_finish(w, e);
    w = NULL;
    if (rc)
        goto out;
    s.nodes = n;
    if (st)
        *st = s;

out:
    trace_writer_abort(w);
    xfree(join);
    xfree(leave);
    xfree(stamp);
    xfree(idle);
    bfs_lines_close(trs);
    bfs_lines_close(rows);
    xfree_strv(names, n);
    xfree(p_trs);
    xfree(p_rows);
    xfree(p_nodes);
    return rc;
}
