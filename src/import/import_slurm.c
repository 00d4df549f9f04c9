/* import_slurm.c - Slurm accounting output (sacct) to native traces (see
 * the job-log block of import.h for the rules).
 *
 * sacct lists jobs in job-ID order, not start order, and the trace writer
 * needs the node names before the first event, so the file is read more
 * than once, each pass streaming:
 *
 * 1. scan: validates every row and collects the node names (NodeList,
 *    into a hash index), the latest time in the log (where running jobs
 *    end) and the reorder lag L = max over rows of (latest start in the
 *    rows before it - its start), so that once a row with start s has
 *    been read, no later row starts before (max start read) - L;
 * 2. only for counts without --machine-nodes: a count-only sweep for the
 *    peak number of nodes busy at once, the machine's size;
 * 3. emit: every job to the engine (import_log.c), advancing it to
 *    (max start read) - L after each row.
 *
 * Types: with o->types_from_partition, pass 1 also records each node's
 * partition (the Partition column of the job rows that name it) in a
 * mapping built as a node-type file would be (nodetypes_add: a node in
 * jobs of two partitions is an error naming both lines), applied to the
 * final node list before the writer opens; a node no job ran on has no
 * partition, an error.  With o->node_types the mapping is applied to the
 * node names instead (import_log_writer_open).
 *
 * Memory: the node names and index, the running jobs, and the jobs read
 * whose start is within L of the latest start read.  L is a property of
 * the log (the report gives it): for the TACC Lonestar6 log, ordered by
 * job ID (= submission order), it is the longest wait of a job that
 * started after a job submitted later.
 *
 * Two input forms share one row splitter: '|'-separated rows under a
 * '|'-separated header (sacct --parsable2, or --parsable with its
 * trailing '|'); and sacct's fixed-width table, a header of names over a
 * line of dash runs whose extents cut the rows into columns (rows that
 * contain a tab are split at the tabs instead, as in the published
 * Lonestar6 log).  Output without a header (sacct --noheader) takes its
 * columns from o->columns, sacct's --format list, checked against
 * sacct's field names; its rows are '|'-separated.
 */
#include "config.h"

#include "formats/hostlist.h"
#include "import/import.h"
#include "import/import_log.h"
#include "formats/trace.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FORM_PIPE, FORM_FIXED };
enum {
    COL_JOBID,
    COL_START,
    COL_END,
    COL_NNODES,
    COL_NODELIST,
    COL_STATE,
    COL_SUBMIT,
    COL_PARTITION,
    N_COLS
};

/* What one row says. */
enum row_kind {
    ROW_JOB,
    ROW_MALFORMED,
    ROW_STEP,
    ROW_NEVER_RAN,
    ROW_BAD_INTERVAL,
    ROW_ZERO_RUN,
    ROW_NO_NODES,
    ROW_UNKNOWN_SIZE
};

struct row {
    enum row_kind kind;
    int64_t start, end; /* end IMPORT_TIME_NONE: running */
    int64_t submit;     /* IMPORT_TIME_NONE: no Submit */
    int64_t latest;     /* latest time on the row, or IMPORT_TIME_NONE */
    size_t nnodes;      /* 0: not given */
    char *nodelist;     /* into the line; NULL: no NodeList column */
    char *partition;    /* into the line; NULL: no Partition column */
};

struct slurm {
    const char *path;
    const struct import_log_opts *o;
    struct import_log_report *rep;
    struct bfs_error *e;
    /* the table */
    int form;
    int trailing_pipe; /* --parsable: every line ends with '|' */
    long jobname_col;  /* column of JobName, or -1 */
    size_t ncols;
    size_t *cstart, *cend; /* FORM_FIXED column extents */
    int col[N_COLS];       /* column of each field, or -1 */
    char *cols_buf;        /* owned: o->columns split (set_columns_list) */
    char **cols;           /* owned: the names in cols_buf */
    char **fields;
    size_t cap_fields;
    /* nodes */
    struct hostlist names;
    struct hostlist_index *ix;
    struct hostlist exp; /* scratch: one row's hosts */
    uint32_t *idx;       /* scratch: their indices */
    size_t cap_idx;
    /* --type-from partition: each node's partition, from pass 1 */
    struct nodetypes *parts;
    /* from the scan */
    int64_t log_end, lag;
    int64_t submit_lag; /* -1: Submit not usable */
};

/* What the rows read so far promise about the starts of the rows to
 * come: none starts before max start - lag, nor, when every job row has
 * a Submit, before max submit - submit_lag (the lags are the largest
 * amounts by which a row breaks either order, measured by the scan). */
struct order {
    int64_t max_start, max_submit;
    int any;
};

static int is_blank_line(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return 0;
    return 1;
}

static void fields_grow(struct slurm *s, size_t n)
{
    BFS_GROW(s->fields, s->cap_fields, n);
}

/* ---- the header ---------------------------------------------------- */

static int column_of(const char *name)
{
    static const struct {
        const char *name;
        int col;
    } names[] = {
        {"JobID", COL_JOBID},       {"JobIDRaw", COL_JOBID},
        {"Start", COL_START},       {"End", COL_END},
        {"NNodes", COL_NNODES},     {"AllocNodes", COL_NNODES},
        {"NodeList", COL_NODELIST}, {"State", COL_STATE},
        {"Submit", COL_SUBMIT},     {"Partition", COL_PARTITION},
    };

    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strcasecmp(name, names[k].name) == 0)
            return names[k].col;
    return -1;
}

/* Whether a line could be the header: one of its names is JobID (or
 * JobIDRaw), in any case. */
static int looks_like_header(const char *line)
{
    for (const char *p = line; *p; p++) {
        const char *after = p + 5;
        if (strncasecmp(p, "JobID", 5) != 0)
            continue;
        if (strncasecmp(after, "Raw", 3) == 0)
            after += 3;
        if ((p == line || p[-1] == ' ' || p[-1] == '|' || p[-1] == '\t') &&
            (*after == '\0' || *after == ' ' || *after == '|' ||
             *after == '\t'))
            return 1;
    }
    return 0;
}

/* Fields bfs_split (sep) or bfs_split_ws (sep 0) would find, without
 * touching the line. */
static size_t count_fields(const char *line, char sep)
{
    size_t n = 0;

    if (sep) {
        for (n = 1; *line; line++)
            n += *line == sep;
        return n;
    }
    while (*line) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '\0')
            break;
        n++;
        while (*line && *line != ' ' && *line != '\t')
            line++;
    }
    return n;
}

/* Sets the columns from the n names (of the header at line, or of
 * --columns). */
static int set_columns(struct slurm *s, char **names, size_t n, size_t line)
{
    const char *what = s->o->columns ? "--columns" : "the header";
    static const char *const col_names[N_COLS] = {"JobID",  "Start",    "End",
                                                  "NNodes", "NodeList", "State",
                                                  "Submit", "Partition"};

    for (int c = 0; c < N_COLS; c++)
        s->col[c] = -1;
    s->ncols = n;
    s->jobname_col = -1;
    for (size_t k = 0; k < n; k++) {
        const char *name = bfs_trim(names[k]);
        int c = column_of(name);
        if (strcasecmp(name, "JobName") == 0 && s->jobname_col < 0)
            s->jobname_col = (long)k;
        if (c >= 0 && s->col[c] < 0)
            s->col[c] = (int)k;
    }
    for (int c = COL_JOBID; c <= COL_END; c++)
        if (s->col[c] < 0)
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, line,
                               "%s has no %s column", what, col_names[c]);
    if (s->col[COL_NNODES] < 0 && s->col[COL_NODELIST] < 0)
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, line,
                           "%s has neither NNodes nor NodeList", what);
    if (s->o->types_from_partition &&
        (s->col[COL_PARTITION] < 0 || s->col[COL_NODELIST] < 0))
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, line,
                           "%s has no %s column: node types from "
                           "the partition need Partition and NodeList",
                           what,
                           col_names[s->col[COL_PARTITION] < 0 ? COL_PARTITION
                                                               : COL_NODELIST]);
    return 0;
}

/* ---- --columns: the fields of a file without a header ---------------- */

/* sacct's field names (sacct --helpformat, Slurm 17.11 to 24.05). */
static const char *const sacct_fields[] = {"Account",
                                           "AdminComment",
                                           "AllocCPUS",
                                           "AllocGRES",
                                           "AllocNodes",
                                           "AllocTRES",
                                           "AssocID",
                                           "AveCPU",
                                           "AveCPUFreq",
                                           "AveDiskRead",
                                           "AveDiskWrite",
                                           "AvePages",
                                           "AveRSS",
                                           "AveVMSize",
                                           "BlockID",
                                           "Cluster",
                                           "Comment",
                                           "Constraints",
                                           "ConsumedEnergy",
                                           "ConsumedEnergyRaw",
                                           "Container",
                                           "CPUTime",
                                           "CPUTimeRAW",
                                           "DBIndex",
                                           "DerivedExitCode",
                                           "Elapsed",
                                           "ElapsedRaw",
                                           "Eligible",
                                           "End",
                                           "ExitCode",
                                           "Extra",
                                           "FailedNode",
                                           "Flags",
                                           "GID",
                                           "Group",
                                           "JobID",
                                           "JobIDRaw",
                                           "JobName",
                                           "Layout",
                                           "Licenses",
                                           "MaxDiskRead",
                                           "MaxDiskReadNode",
                                           "MaxDiskReadTask",
                                           "MaxDiskWrite",
                                           "MaxDiskWriteNode",
                                           "MaxDiskWriteTask",
                                           "MaxPages",
                                           "MaxPagesNode",
                                           "MaxPagesTask",
                                           "MaxRSS",
                                           "MaxRSSNode",
                                           "MaxRSSTask",
                                           "MaxVMSize",
                                           "MaxVMSizeNode",
                                           "MaxVMSizeTask",
                                           "McsLabel",
                                           "MinCPU",
                                           "MinCPUNode",
                                           "MinCPUTask",
                                           "NCPUS",
                                           "NNodes",
                                           "NodeList",
                                           "NTasks",
                                           "Partition",
                                           "Planned",
                                           "PlannedCPU",
                                           "PlannedCPURAW",
                                           "Priority",
                                           "QOS",
                                           "QOSRAW",
                                           "QOSREQ",
                                           "Reason",
                                           "ReqCPUFreq",
                                           "ReqCPUFreqGov",
                                           "ReqCPUFreqMax",
                                           "ReqCPUFreqMin",
                                           "ReqCPUS",
                                           "ReqGRES",
                                           "ReqMem",
                                           "ReqNodes",
                                           "ReqTRES",
                                           "Reservation",
                                           "ReservationId",
                                           "Reserved",
                                           "ResvCPU",
                                           "ResvCPURAW",
                                           "Restarts",
                                           "Start",
                                           "State",
                                           "StdErr",
                                           "StdIn",
                                           "StdOut",
                                           "Submit",
                                           "SubmitLine",
                                           "Suspended",
                                           "SystemCPU",
                                           "SystemComment",
                                           "Timelimit",
                                           "TimelimitRaw",
                                           "TotalCPU",
                                           "TRESUsageInAve",
                                           "TRESUsageInMax",
                                           "TRESUsageInMaxNode",
                                           "TRESUsageInMaxTask",
                                           "TRESUsageInMin",
                                           "TRESUsageInMinNode",
                                           "TRESUsageInMinTask",
                                           "TRESUsageInTot",
                                           "TRESUsageOutAve",
                                           "TRESUsageOutMax",
                                           "TRESUsageOutMaxNode",
                                           "TRESUsageOutMaxTask",
                                           "TRESUsageOutMin",
                                           "TRESUsageOutMinNode",
                                           "TRESUsageOutMinTask",
                                           "TRESUsageOutTot",
                                           "UID",
                                           "User",
                                           "UserCPU",
                                           "WCKey",
                                           "WCKeyID",
                                           "WorkDir"};

/* Splits a --columns list into *buf (owned: a copy of list, cut in
 * place) and *names (owned, *n of them): each name trimmed, its width
 * suffix (%N, %-N) cut off.  Returns 0, or BFS_EUSAGE for an empty name,
 * a bad width, or a name that is not a sacct field. */
static int columns_split(const char *list, char **buf, char ***names, size_t *n,
                         struct bfs_error *e)
{
    char *copy = xstrdup(list), **v;
    size_t k = count_fields(copy, ',');
    int rc = 0;

    v = xcalloc(k, sizeof *v);
    bfs_split(copy, ',', v, k);
    for (size_t i = 0; i < k && rc == 0; i++) {
        char *name = bfs_trim(v[i]), *pct = strchr(name, '%');
        int known = 0;
        if (pct) {
            const char *w = pct + 1 + (pct[1] == '-');
            if (*w == '\0' || strspn(w, "0123456789") != strlen(w))
                rc = bfs_fail(e, BFS_EUSAGE,
                              "--columns: '%s': a width is %%N or %%-N", name);
            *pct = '\0';
        }
        for (size_t f = 0; f < sizeof sacct_fields / sizeof *sacct_fields; f++)
            known |= strcasecmp(name, sacct_fields[f]) == 0;
        if (rc == 0 && *name == '\0')
            rc =
                bfs_fail(e, BFS_EUSAGE, "--columns: field %zu is empty", i + 1);
        else if (rc == 0 && !known)
            rc = bfs_fail(e, BFS_EUSAGE,
                          "--columns: '%s' is not a sacct field (sacct "
                          "--helpformat lists them)",
                          name);
        v[i] = name;
    }
    if (rc) {
        xfree(v);
        xfree(copy);
        return rc;
    }
    *buf = copy;
    *names = v;
    *n = k;
    return 0;
}

int import_slurm_columns_check(const char *list, struct bfs_error *e)
{
    static const char *const need[][2] = {{"JobID", "JobIDRaw"},
                                          {"Start", NULL},
                                          {"End", NULL},
                                          {"NNodes", "AllocNodes"}};
    char *buf, **names;
    size_t n;
    int rc = columns_split(list, &buf, &names, &n, e);

    if (rc)
        return rc;
    for (size_t r = 0; rc == 0 && r < sizeof need / sizeof *need; r++) {
        int found = 0;
        for (size_t k = 0; k < n; k++)
            found |= strcasecmp(names[k], need[r][0]) == 0 ||
                     (need[r][1] && strcasecmp(names[k], need[r][1]) == 0) ||
                     (r == 3 && strcasecmp(names[k], "NodeList") == 0);
        if (!found)
            rc = bfs_fail(e, BFS_EUSAGE, "--columns: no %s field%s", need[r][0],
                          r == 3   ? " (nor AllocNodes, nor NodeList)"
                          : r == 0 ? " (nor JobIDRaw)"
                                   : "");
    }
    xfree(names);
    xfree(buf);
    return rc;
}

/* With o->columns: the columns from the list, '|'-separated rows, and
 * the first non-blank line read: a header naming the same fields is
 * skipped (another header is an error); any other line is the first row,
 * left in *first for the caller. */
static int columns_header(struct slurm *s, struct bfs_lines *in, char **first)
{
    size_t n, lineno;
    char *line;
    int rc;

    if ((rc = columns_split(s->o->columns, &s->cols_buf, &s->cols, &n, s->e)) !=
        0)
        return rc;
    s->form = FORM_PIPE;
    if ((rc = set_columns(s, s->cols, n, 0)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, s->e)) == 1 && is_blank_line(line))
        ;
    if (rc <= 0)
        return rc;
    lineno = bfs_lines_lineno(in);
    if (!looks_like_header(line)) {
        size_t len = strlen(line);
        /* --parsable ends every row with '|': one field more */
        s->trailing_pipe =
            len > 0 && line[len - 1] == '|' && count_fields(line, '|') == n + 1;
        *first = line;
        return 0;
    }
    {
        char *h = line;
        size_t hn, len = strlen(h);
        int pipes = strchr(h, '|') != NULL;
        if (pipes && len > 0 && h[len - 1] == '|') {
            h[len - 1] = '\0';
            s->trailing_pipe = 1;
        }
        hn = count_fields(h, pipes ? '|' : 0);
        fields_grow(s, hn);
        if (pipes)
            bfs_split(h, '|', s->fields, hn);
        else
            bfs_split_ws(h, s->fields, hn);
        for (size_t k = 0; k < n || k < hn; k++) {
            const char *a = k < hn ? bfs_trim(s->fields[k]) : "(none)";
            const char *b = k < n ? s->cols[k] : "(none)";
            if (strcasecmp(a, b) != 0)
                return bfs_fail_at(
                    s->e, BFS_EPARSE, s->path, lineno,
                    "the header's field %zu is %s, --columns names %s: "
                    "give --columns only to a file without a header, or "
                    "the same fields",
                    k + 1, a, b);
        }
        if (!pipes)
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                               "--columns reads '|'-separated rows "
                               "(sacct --parsable2); this header is "
                               "fixed-width: leave --columns out");
    }
    return 0;
}

/* Reads up to and including the header (and, fixed-width, its dashes);
 * with o->columns, columns_header (*first: a row already read, or NULL). */
static int read_header(struct slurm *s, struct bfs_lines *in, char **first)
{
    char *line;
    int rc;

    *first = NULL;
    if (s->o->columns)
        return columns_header(s, in, first);
    while ((rc = bfs_lines_next(in, &line, s->e)) == 1) {
        size_t lineno = bfs_lines_lineno(in), n;
        if (!looks_like_header(line))
            continue;
        if (strchr(line, '|')) {
            size_t len = strlen(line);
            s->form = FORM_PIPE;
            s->trailing_pipe = len > 0 && line[len - 1] == '|';
            if (s->trailing_pipe)
                line[len - 1] = '\0';
            n = count_fields(line, '|');
            fields_grow(s, n);
            bfs_split(line, '|', s->fields, n);
            return set_columns(s, s->fields, n, lineno);
        }
        s->form = FORM_FIXED;
        n = count_fields(line, 0);
        fields_grow(s, n);
        bfs_split_ws(line, s->fields, n);
        if ((rc = set_columns(s, s->fields, n, lineno)) != 0)
            return rc;
        if ((rc = bfs_lines_next(in, &line, s->e)) < 0)
            return rc;
        {
            size_t k = 0, pos = 0, len = rc == 1 ? strlen(line) : 0;
            s->cstart = xcalloc(n, sizeof *s->cstart);
            s->cend = xcalloc(n, sizeof *s->cend);
            for (size_t i = 0; i < len; i++)
                if (line[i] != '-' && line[i] != ' ')
                    len = 0; /* not a dashes line */
            while (pos < len) {
                while (pos < len && line[pos] == ' ')
                    pos++;
                if (pos >= len)
                    break;
                if (k < n)
                    s->cstart[k] = pos;
                while (pos < len && line[pos] == '-')
                    pos++;
                if (k < n)
                    s->cend[k] = pos;
                k++;
            }
            if (k != n)
                return bfs_fail_at(
                    s->e, BFS_EPARSE, s->path, lineno + 1,
                    k == 0 ? "expected the line of dashes under the header"
                           : "the dashes give %zu columns, the header %zu",
                    k, n);
        }
        return 0;
    }
    if (rc < 0)
        return rc;
    return bfs_fail_at(s->e, BFS_EPARSE, s->path, 0,
                       "no header line naming a JobID column (for sacct "
                       "--noheader output, name its fields with --columns, "
                       "as given to sacct --format)");
}

/* Splits a row into s->fields; returns the number of fields. */
static size_t split_row(struct slurm *s, char *line)
{
    size_t n;

    if (s->form == FORM_PIPE || strchr(line, '\t')) {
        char sep = s->form == FORM_PIPE ? '|' : '\t';
        size_t len = strlen(line);
        if (sep == '|' && s->trailing_pipe && len > 0 && line[len - 1] == '|')
            line[len - 1] = '\0';
        n = count_fields(line, sep);
        fields_grow(s, n);
        bfs_split(line, sep, s->fields, n);
        /* sacct cannot quote: a '|' inside JobName (the one free-text
         * column) makes extra fields.  The other columns hold no '|', so
         * the extra ones belong to JobName: join them back. */
        if (sep == '|' && n > s->ncols && s->jobname_col >= 0) {
            size_t jn = (size_t)s->jobname_col, extra = n - s->ncols;
            for (size_t k = jn; k < jn + extra; k++)
                s->fields[k + 1][-1] = '|';
            memmove(s->fields + jn + 1, s->fields + jn + 1 + extra,
                    (n - jn - 1 - extra) * sizeof *s->fields);
            n = s->ncols;
        }
        for (size_t k = 0; k < n; k++)
            s->fields[k] = bfs_trim(s->fields[k]);
        return n;
    }
    {
        size_t len = strlen(line);
        fields_grow(s, s->ncols);
        for (size_t k = 0; k < s->ncols; k++) {
            size_t a = s->cstart[k];
            size_t b = k + 1 < s->ncols ? s->cend[k] : len;
            s->fields[k] = a < len ? line + a : line + len;
            if (b < len)
                line[b] = '\0';
        }
        for (size_t k = 0; k < s->ncols; k++)
            s->fields[k] = bfs_trim(s->fields[k]);
        return s->ncols;
    }
}

/* ---- rows ---------------------------------------------------------- */

static int unknown_time(const char *v)
{
    return *v == '\0' || strcasecmp(v, "Unknown") == 0 ||
           strcasecmp(v, "None") == 0;
}

/* A time field into UTC; *t IMPORT_TIME_NONE when unknown. */
static int get_time(struct slurm *s, const char *v, const char *what,
                    size_t line, int64_t *t)
{
    if (unknown_time(v)) {
        *t = IMPORT_TIME_NONE;
        return 0;
    }
    if (bfs_time_parse(v, t) != 0)
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, line,
                           "%s is not a time: '%s'", what, v);
    *t -= s->o->tz_offset;
    return 0;
}

static const char *field(const struct slurm *s, int c)
{
    return s->col[c] >= 0 ? s->fields[s->col[c]] : NULL;
}

static void later(int64_t *latest, int64_t t)
{
    if (t != IMPORT_TIME_NONE && (*latest == IMPORT_TIME_NONE || t > *latest))
        *latest = t;
}

static int parse_row(struct slurm *s, char *line, size_t lineno, struct row *r)
{
    const char *v;
    int64_t submit, nn;
    int rc;

    memset(r, 0, sizeof *r);
    r->latest = IMPORT_TIME_NONE;
    r->submit = IMPORT_TIME_NONE;
    if (split_row(s, line) != s->ncols) {
        r->kind = ROW_MALFORMED;
        return 0;
    }
    v = field(s, COL_JOBID);
    if (*v == '\0') {
        r->kind = ROW_MALFORMED;
        return 0;
    }
    if (strchr(v, '.')) {
        r->kind = ROW_STEP;
        return 0;
    }
    if ((rc = get_time(s, field(s, COL_START), "Start", lineno, &r->start)) ||
        (rc = get_time(s, field(s, COL_END), "End", lineno, &r->end)))
        return rc;
    if ((v = field(s, COL_SUBMIT)) != NULL) {
        if ((rc = get_time(s, v, "Submit", lineno, &submit)) != 0)
            return rc;
        later(&r->latest, submit);
        r->submit = submit;
    }
    later(&r->latest, r->start);
    later(&r->latest, r->end);
    v = field(s, COL_STATE);
    if (r->start == IMPORT_TIME_NONE ||
        (v && strncasecmp(v, "PENDING", 7) == 0)) {
        r->kind = ROW_NEVER_RAN;
        return 0;
    }
    if (r->end != IMPORT_TIME_NONE && r->end < r->start) {
        r->kind = ROW_BAD_INTERVAL;
        return 0;
    }
    if (r->end == r->start) {
        r->kind = ROW_ZERO_RUN;
        return 0;
    }
    if ((v = field(s, COL_NNODES)) != NULL && !unknown_time(v)) {
        /* "two" or "0x10" used to pass as an unknown size. */
        if (bfs_parse_i64(v, &nn) != 0 || nn < 0)
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                               "NNodes is not a node count: '%.40s'", v);
        /* Without NodeList or --machine-nodes the machine is the peak
         * use: one row must not make it millions of nodes. */
        if (s->col[COL_NODELIST] < 0 && s->o->machine_nodes == 0 &&
            (uint64_t)nn > s->o->max_nodes)
            return bfs_fail_at(s->e, BFS_ERANGE, s->path, lineno,
                               "NNodes %" PRId64 " is more than --max-nodes "
                               "%zu, the largest machine bfsim infers from a "
                               "log: give the machine's size with "
                               "--machine-nodes (larger jobs are then counted "
                               "and skipped), or raise --max-nodes",
                               nn, s->o->max_nodes);
        r->nnodes = (size_t)nn;
    }
    if ((v = field(s, COL_NODELIST)) != NULL) {
        size_t len = strlen(v);
        if (len == 0 || strcasecmp(v, "None assigned") == 0 ||
            strcasecmp(v, "(null)") == 0 || strcasecmp(v, "None") == 0) {
            r->kind = ROW_NO_NODES;
            return 0;
        }
        if (s->form == FORM_FIXED && v[len - 1] == '+' && !strchr(line, '\t'))
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                               "NodeList '%s' is truncated: use sacct "
                               "--parsable2, or a wider NodeList%%N",
                               v);
        r->nodelist = s->fields[s->col[COL_NODELIST]];
        if (s->o->types_from_partition) {
            v = field(s, COL_PARTITION);
            len = strlen(v);
            if (s->form == FORM_FIXED && len > 0 && v[len - 1] == '+' &&
                !strchr(line, '\t'))
                return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                                   "Partition '%s' is truncated: use sacct "
                                   "--parsable2, or a wider Partition%%N",
                                   v);
            r->partition = s->fields[s->col[COL_PARTITION]];
        }
    } else if (r->nnodes == 0) {
        r->kind = ROW_UNKNOWN_SIZE;
        return 0;
    }
    r->kind = ROW_JOB;
    return 0;
}

static void count_row(struct import_log_report *rep, const struct row *r,
                      size_t lineno)
{
    switch (r->kind) {
    case ROW_JOB:
        break;
    case ROW_MALFORMED:
        if (rep->malformed++ == 0)
            rep->first_malformed = lineno;
        break;
    case ROW_STEP:
        rep->steps++;
        break;
    case ROW_NEVER_RAN:
        rep->never_ran++;
        break;
    case ROW_BAD_INTERVAL:
        rep->bad_interval++;
        break;
    case ROW_ZERO_RUN:
        rep->zero_run++;
        break;
    case ROW_NO_NODES:
        rep->no_nodes++;
        break;
    case ROW_UNKNOWN_SIZE:
        rep->unknown_size++;
        break;
    }
}

/* ---- passes -------------------------------------------------------- */

/* Calls fn for every row (after the header) with a known kind. */
typedef int (*row_fn)(struct slurm *s, struct row *r, size_t lineno, void *arg);

/* The next line: *first (a row read with the header, then NULL) if set,
 * else bfs_lines_next's. */
static int next_line(struct bfs_lines *in, char **first, char **line,
                     struct bfs_error *e)
{
    if (!*first)
        return bfs_lines_next(in, line, e);
    *line = *first;
    *first = NULL;
    return 1;
}

static int each_row(struct slurm *s, row_fn fn, void *arg, size_t *lines)
{
    struct bfs_lines *in = NULL;
    char *line, *first;
    int rc;

    xfree(s->cstart);
    xfree(s->cend);
    xfree(s->cols);
    xfree(s->cols_buf);
    s->cstart = s->cend = NULL;
    s->cols = NULL;
    s->cols_buf = NULL;
    if ((rc = bfs_lines_open(s->path, &in, s->e)) != 0)
        return rc;
    if ((rc = read_header(s, in, &first)) != 0)
        goto out;
    while ((rc = next_line(in, &first, &line, s->e)) == 1) {
        struct row r;
        size_t lineno = bfs_lines_lineno(in);
        if (is_blank_line(line))
            continue;
        if ((rc = parse_row(s, line, lineno, &r)) != 0 ||
            (rc = fn(s, &r, lineno, arg)) != 0)
            goto out;
    }
    if (rc == 0 && lines)
        *lines = bfs_lines_lineno(in);
out:
    bfs_lines_close(in);
    return rc;
}

/* Expands r's NodeList into s->exp. */
static int expand(struct slurm *s, const struct row *r, size_t lineno)
{
    hostlist_clear(&s->exp);
    return hostlist_expand(&s->exp, r->nodelist, s->o->max_nodes, "--max-nodes",
                           s->path, lineno, s->e);
}

static void order_see(struct order *o, const struct row *r)
{
    if (!o->any || r->start > o->max_start)
        o->max_start = r->start;
    if (r->submit != IMPORT_TIME_NONE && (!o->any || r->submit > o->max_submit))
        o->max_submit = r->submit;
    o->any = 1;
}

static int64_t order_horizon(const struct slurm *s, const struct order *o)
{
    int64_t h = o->max_start - s->lag;

    if (s->submit_lag >= 0 && o->max_submit - s->submit_lag > h)
        h = o->max_submit - s->submit_lag;
    return h;
}

static int scan_row(struct slurm *s, struct row *r, size_t lineno, void *arg)
{
    struct order *o = arg;
    int rc;

    later(&s->log_end, r->latest);
    if (r->kind != ROW_JOB)
        return 0;
    if (o->any && o->max_start - r->start > s->lag)
        s->lag = o->max_start - r->start;
    if (r->submit == IMPORT_TIME_NONE)
        s->submit_lag = -1;
    else if (o->any && s->submit_lag >= 0 &&
             o->max_submit - r->start > s->submit_lag)
        s->submit_lag = o->max_submit - r->start;
    order_see(o, r);
    if (r->partition) {
        if (*r->partition == '\0')
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                               "empty Partition: the job's nodes get no "
                               "type");
        if ((rc = expand(s, r, lineno)) != 0)
            return rc;
        for (size_t k = 0; k < s->exp.n; k++)
            if ((rc = nodetypes_add(s->parts, s->exp.names[k], r->partition,
                                    lineno, s->e)) != 0)
                return rc;
    }
    if (r->nodelist && !s->o->nodes_file) {
        if (!r->partition && (rc = expand(s, r, lineno)) != 0)
            return rc;
        for (size_t k = 0; k < s->exp.n; k++)
            if (hostlist_index_add(s->ix, s->exp.names[k], 0))
                hostlist_push(&s->names, s->exp.names[k]);
        if (s->names.n > s->o->max_nodes)
            return bfs_fail_at(s->e, BFS_ERANGE, s->path, lineno,
                               "the NodeList column names more than "
                               "--max-nodes %zu distinct nodes: give the "
                               "machine's nodes with --nodes-file, or raise "
                               "--max-nodes",
                               s->o->max_nodes);
    }
    return 0;
}

struct emit_state {
    struct import_log *engine;
    struct order order;
    int count; /* last pass: count rows in the report */
};

/* Hands a job row to the engine and advances it. */
static int emit_row(struct slurm *s, struct row *r, size_t lineno, void *arg)
{
    struct emit_state *st = arg;
    int64_t end = r->end == IMPORT_TIME_NONE ? s->log_end : r->end;
    int rc = 0;

    if (r->kind == ROW_JOB && end <= r->start)
        r->kind = ROW_ZERO_RUN; /* running, started at the log's end */
    if (st->count) {
        s->rep->records++;
        count_row(s->rep, r, lineno);
    }
    if (r->kind != ROW_JOB)
        return 0;
    if (st->count && r->end == IMPORT_TIME_NONE)
        s->rep->running++;
    if (r->nodelist) {
        size_t n = 0;
        if ((rc = expand(s, r, lineno)) != 0)
            return rc;
        BFS_GROW(s->idx, s->cap_idx, s->exp.n);
        for (size_t k = 0; k < s->exp.n; k++) {
            size_t i = hostlist_index_find(s->ix, s->exp.names[k]);
            if (i != (size_t)-1)
                s->idx[n++] = (uint32_t)i;
        }
        if (st->count) {
            s->rep->outside_nodes += s->exp.n - n;
            if (r->nnodes > 0 && r->nnodes != s->exp.n)
                s->rep->nnodes_mismatch++;
            if (n == 0)
                s->rep->no_nodes++;
            else
                s->rep->jobs++;
        }
        if (n == 0)
            return 0;
        rc = import_log_add_nodes(st->engine, r->start, end, s->idx, n);
    } else {
        if (st->count)
            s->rep->jobs++;
        rc = import_log_add_count(st->engine, r->start, end, r->nnodes);
    }
    if (rc != 0) {
        char t[BFS_TIME_LEN];
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                           "job starts at %s UTC, before times already "
                           "written (internal: reorder lag %" PRId64 " s)",
                           bfs_time_format(r->start, t), s->lag);
    }
    order_see(&st->order, r);
    return import_log_advance(st->engine, order_horizon(s, &st->order), s->e);
}

/* Reads --nodes-file: one name a line, '#' comments and blank lines
 * ignored, order kept. */
static int read_nodes_file(struct slurm *s)
{
    struct bfs_lines *in = NULL;
    char *line;
    int rc;

    if ((rc = bfs_lines_open(s->o->nodes_file, &in, s->e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, s->e)) == 1) {
        char *name = bfs_trim(line);
        if (*name == '\0' || *name == '#')
            continue;
        if (strpbrk(name, " \t")) {
            rc = bfs_fail_at(s->e, BFS_EPARSE, s->o->nodes_file,
                             bfs_lines_lineno(in), "blank in node name '%s'",
                             name);
            break;
        }
        if (!hostlist_index_add(s->ix, name, s->names.n)) {
            rc = bfs_fail_at(s->e, BFS_EPARSE, s->o->nodes_file,
                             bfs_lines_lineno(in), "node '%s' listed twice",
                             name);
            break;
        }
        hostlist_push(&s->names, name);
    }
    bfs_lines_close(in);
    if (rc == 0 && s->names.n == 0)
        rc =
            bfs_fail_at(s->e, BFS_EPARSE, s->o->nodes_file, 0, "no node names");
    return rc;
}

static int convert(struct slurm *s, const char *out_path,
                   const char *const *comments, struct import_stats *st)
{
    const struct import_log_opts *o = s->o;
    struct import_log_report *r = s->rep;
    struct order scan = {0, 0, 0};
    struct emit_state em = {NULL, {0, 0, 0}, 1};
    struct trace_writer *w = NULL;
    struct nodetypes_table tt;
    char **gen = NULL, **cm = NULL;
    const char *const *names;
    char line1[160], line2[160];
    const char *extra[3] = {line1, line2, NULL};
    size_t n;
    int counts, rc;

    memset(&tt, 0, sizeof tt);
    if (strcmp(s->path, "-") == 0)
        return bfs_fail(s->e, BFS_EINVAL,
                        "a Slurm log is read more than once: give a file, "
                        "not standard input");
    s->log_end = IMPORT_TIME_NONE;
    s->submit_lag = 0;
    if (o->nodes_file && (rc = read_nodes_file(s)) != 0)
        return rc;
    /* Pass 1. */
    if ((rc = each_row(s, scan_row, &scan, NULL)) != 0)
        return rc;
    counts = s->col[COL_NODELIST] < 0;
    if (!counts && o->machine_nodes > 0)
        return bfs_fail(s->e, BFS_EINVAL,
                        "--machine-nodes is for logs without NodeList (the "
                        "nodes are the ones named)");
    if (counts && o->nodes_file)
        return bfs_fail(s->e, BFS_EINVAL,
                        "--nodes-file needs a NodeList column");
    if (!counts && !o->nodes_file) {
        hostlist_sort(&s->names);
        hostlist_index_free(s->ix);
        s->ix = hostlist_index_new();
        for (size_t k = 0; k < s->names.n; k++)
            hostlist_index_add(s->ix, s->names.names[k], k);
    }
    if (counts) {
        if (o->machine_nodes > 0) {
            n = o->machine_nodes;
            snprintf(r->nodes_from, sizeof r->nodes_from, "--machine-nodes");
        } else {
            /* Pass 2: the peak node use. */
            struct emit_state cnt = {NULL, {0, 0, 0}, 0};
            cnt.engine = import_log_new(o, 0, NULL, s->path);
            rc = each_row(s, emit_row, &cnt, NULL);
            if (rc == 0)
                rc = import_log_finish(cnt.engine, r, NULL, s->e);
            n = import_log_peak_busy(cnt.engine);
            import_log_free(cnt.engine);
            if (rc)
                return rc;
            if (n > o->max_nodes)
                return bfs_fail_at(s->e, BFS_ERANGE, s->path, 0,
                                   "the jobs use %zu nodes at once, more than "
                                   "--max-nodes %zu, the largest machine "
                                   "bfsim infers from a log: give the "
                                   "machine's size with --machine-nodes, or "
                                   "raise --max-nodes",
                                   n, o->max_nodes);
            snprintf(r->nodes_from, sizeof r->nodes_from,
                     "peak concurrent use in the log");
        }
        gen = import_log_names(n);
        names = (const char *const *)gen;
        snprintf(line2, sizeof line2,
                 "nodes per job: NNodes, placed; node i is named n + i "
                 "zero-padded");
    } else {
        n = s->names.n;
        names = (const char *const *)s->names.names;
        snprintf(r->nodes_from, sizeof r->nodes_from, "%s",
                 o->nodes_file ? "--nodes-file" : "NodeList names in the log");
        snprintf(line2, sizeof line2,
                 "nodes: from NodeList%s; busy while any job holds them",
                 o->nodes_file ? " (--nodes-file order)"
                               : ", in numeric-aware name order");
    }
    if (n == 0) {
        rc = bfs_fail_at(s->e, BFS_EINVAL, s->path, 0,
                         "no job ran: nothing to convert");
        goto out;
    }
    r->nodes = n;
    r->log_end = s->log_end;
    r->reorder_lag = s->lag;
    r->submit_lag = s->col[COL_SUBMIT] >= 0 ? s->submit_lag : -1;
    snprintf(line1, sizeof line1,
             "machine: %zu nodes (%s); times: local - %" PRId64
             " s (--tz-offset)",
             n, r->nodes_from, o->tz_offset);
    if (s->parts) {
        for (size_t i = 0; i < n; i++)
            if (!nodetypes_find(s->parts, names[i])) {
                rc = bfs_fail_at(s->e, BFS_EINVAL, s->path, 0,
                                 "node '%s' ran no job in the log, so it has "
                                 "no partition to be its type: give the "
                                 "types with --node-types instead",
                                 names[i]);
                goto out;
            }
        if ((rc = nodetypes_apply(s->parts, names, n, &tt, s->e)) != 0)
            goto out;
    }
    cm = import_log_comments(comments, "Slurm", s->path, extra, o);
    if ((rc = import_log_writer_open(out_path, names, tt.per_node, n,
                                     (const char *const *)cm, o, st, &w,
                                     s->e)) != 0)
        goto out;
    /* Pass 3. */
    em.engine = import_log_new(o, n, w, s->path);
    rc = each_row(s, emit_row, &em, &r->lines);
    if (rc == 0)
        rc = import_log_finish(em.engine, r, st, s->e);
    import_log_free(em.engine);
    r->nodes = n;
    if (rc == 0) {
        rc = trace_writer_finish(w, s->e);
        w = NULL;
    }
out:
    trace_writer_abort(w);
    nodetypes_table_release(&tt);
    import_log_comments_free(cm);
    import_log_names_free(gen, gen ? n : 0);
    return rc;
}

int import_slurm(const char *src, const char *out_path,
                 const char *const *comments, const struct import_log_opts *o,
                 struct import_stats *st, struct import_log_report *rep,
                 struct bfs_error *e)
{
    struct import_log_report r;
    struct import_stats stats;
    struct slurm s;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&stats, 0, sizeof stats);
    memset(&s, 0, sizeof s);
    snprintf(r.format, sizeof r.format, "slurm");
    s.path = src;
    s.o = o;
    s.rep = &r;
    s.e = e;
    s.ix = hostlist_index_new();
    if (o->types_from_partition)
        s.parts = nodetypes_new(src);
    hostlist_init(&s.names);
    hostlist_init(&s.exp);
    rc = import_log_check_opts(o, e);
    if (rc == 0)
        rc = convert(&s, out_path, comments, &stats);
    xfree(s.idx);
    hostlist_release(&s.exp);
    hostlist_release(&s.names);
    hostlist_index_free(s.ix);
    nodetypes_free(s.parts);
    xfree(s.fields);
    xfree(s.cend);
    xfree(s.cstart);
    xfree(s.cols);
    xfree(s.cols_buf);
    if (rc == 0) {
        if (st)
            *st = stats;
        if (rep)
            *rep = r;
    }
    return rc;
}
