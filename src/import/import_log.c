/* import_log.c - job intervals to node events, shared by the SWF and Slurm
 * importers (see import_log.h and the job-log block of import.h).
 *
 * Three stages, each streaming:
 *
 * 1. Ordering.  A binary heap of (time, kind, sequence) entries: a job's
 *    start is pushed when the importer adds it, its end when the start is
 *    processed; kind END (0) sorts before START (1) at one second, and the
 *    sequence number (file order) makes every other tie first-in
 *    first-out.  Seconds before the importer's horizon are popped whole.
 * 2. Placement and netting.  ref[i] counts the jobs holding node i; the
 *    bitmap freebits has bit i set iff ref[i] == 0, so first fit is a scan
 *    for set bits and contiguous placement a scan for runs of them.  The
 *    first time a node changes within a second its old state is saved
 *    (touched/was_busy); at the end of the second only nodes whose state
 *    differs are reported, so a node freed and retaken in the same second
 *    makes no change.
 * 3. Output.  The window (nothing before its start but the opening event
 *    listing every idle node, nothing after its end) and the outage
 *    filter: a state machine NORMAL -> CANDIDATE (at least thr nodes
 *    idle: events buffered) -> OUTAGE (the period reached outage_min: one
 *    event takes every offered node back) -> NORMAL (fewer than thr idle:
 *    the nodes idle then join).  A candidate that ends early has its
 *    buffered events written unchanged.  `offered` is what a reader of
 *    the written trace believes is idle.
 *
 * Invariants: busy == number of i with ref[i] > 0; bit i of freebits is
 * set iff i < n and ref[i] == 0; touched[i] iff i is in tlist; outside an
 * outage and its candidate, offered[i] == (ref[i] == 0) at every second
 * written.
 */
#include "config.h"

#include "import/import_log.h"
#include "formats/hostlist.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/util.h"

enum { KIND_END = 0, KIND_START = 1 };
enum { NORMAL, CANDIDATE, OUTAGE };

struct entry {
    int64_t time;
    uint64_t key; /* kind << 63 | sequence */
    uint32_t job;
};

struct job {
    int64_t start, end;
    size_t need;     /* count jobs: nodes needed; named jobs: 0 */
    uint32_t lo, hi; /* count jobs: placed on nodes lo .. hi - 1 */
    size_t n;        /* nodes held */
    uint32_t *nodes; /* owned */
};

/* A buffered event: its changes are bufnodes[off .. off + nj + nl - 1],
 * joins first. */
struct bev {
    int64_t t;
    size_t off, nj, nl;
};

struct import_log {
    struct import_log_opts o;
    size_t n;               /* nodes; 0 in count mode */
    struct trace_writer *w; /* borrowed; NULL in count mode */
    const char *path;       /* borrowed */

    struct entry *heap;
    size_t n_heap, cap_heap;
    uint64_t seq;
    int64_t final_before; /* every second before it is processed */

    struct job *jobs;
    size_t n_jobs, cap_jobs;
    uint32_t *free_jobs; /* recycled job slots */
    size_t n_free_jobs, cap_free_jobs;
    size_t live_jobs, peak_jobs;

    uint32_t *ref;
    uint64_t *freebits;
    size_t n_words;
    size_t busy, peak_busy;

    uint8_t *touched, *was_busy;
    uint32_t *tlist, *join, *leave, *scratch;
    size_t n_t;

    size_t placed, truncated, dropped, oversized, fragmented;
    uint64_t lost_node_s;
    int64_t last_second;
    int any_second;

    /* output */
    int started;
    int64_t span_start;
    uint8_t *offered;
    size_t n_offered;
    int64_t last_emit;
    int any_emit;
    uint64_t offered_ns;
    size_t events, joins, leaves, max_idle;

    /* outages */
    size_t thr; /* 0: off */
    int ostate;
    int64_t oa;       /* start of the candidate or outage */
    int64_t tt_prev;  /* last event seen by the filter */
    size_t ti_prev;   /* true idle count after it */
    uint64_t cand_ns; /* true idle node-seconds since oa */
    size_t outages;
    uint64_t outage_ns;
    struct bev *buf;
    size_t n_buf, cap_buf;
    uint32_t *bufnodes;
    size_t n_bufnodes, cap_bufnodes;
};

/* ---- options and report -------------------------------------------- */

void import_log_opts_init(struct import_log_opts *o)
{
    memset(o, 0, sizeof *o);
    o->placement = IMPORT_FIRST_FIT;
    o->overflow = IMPORT_TRUNCATE;
    o->start = IMPORT_TIME_NONE;
    o->end = IMPORT_TIME_NONE;
    o->outage_threshold = 0.0;
    o->outage_min = 3600;
    o->max_nodes = IMPORT_MAX_NODES;
}

/* Seconds, or [+-]HH:MM. */
static int parse_offset(const char *s, int64_t *out)
{
    int64_t v;
    int sign = 1, h, m;
    char extra;

    if (bfs_parse_i64(s, &v) == 0) {
        if (v < -26 * 3600 || v > 26 * 3600)
            return BFS_ERANGE;
        *out = v;
        return 0;
    }
    if (*s == '+' || *s == '-')
        sign = *s++ == '-' ? -1 : 1;
    else
        return BFS_EPARSE;
    if (strlen(s) != 5 || sscanf(s, "%2d:%2d%c", &h, &m, &extra) != 2 ||
        s[0] < '0' || s[0] > '9' || s[3] < '0' || s[3] > '9' || h > 26 ||
        m > 59)
        return BFS_EPARSE;
    *out = sign * (int64_t)(h * 3600 + m * 60);
    return 0;
}

int import_log_opts_set(struct import_log_opts *o, const char *name,
                        const char *value, struct bfs_error *e)
{
    int64_t v;
    double d;

    if (strcmp(name, "placement") == 0) {
        if (strcmp(value, "first-fit") == 0)
            o->placement = IMPORT_FIRST_FIT;
        else if (strcmp(value, "contiguous") == 0)
            o->placement = IMPORT_CONTIGUOUS;
        else
            return bfs_fail(e, BFS_EUSAGE,
                            "--placement: '%s' is not first-fit or "
                            "contiguous",
                            value);
    } else if (strcmp(name, "overflow") == 0) {
        if (strcmp(value, "truncate") == 0)
            o->overflow = IMPORT_TRUNCATE;
        else if (strcmp(value, "skip") == 0)
            o->overflow = IMPORT_SKIP;
        else
            return bfs_fail(e, BFS_EUSAGE,
                            "--overflow: '%s' is not truncate or skip", value);
    } else if (strcmp(name, "start") == 0 || strcmp(name, "end") == 0) {
        if (bfs_time_parse(value, &v) || v == IMPORT_TIME_NONE)
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s: '%s' is not a time (YYYY-MM-DD HH:MM:SS "
                            "UTC, or Unix seconds)",
                            name, value);
        *(name[0] == 's' ? &o->start : &o->end) = v;
    } else if (strcmp(name, "outage-threshold") == 0) {
        if (bfs_parse_double(value, &d) || !(d > 0.0) || d > 1.0)
            return bfs_fail(e, BFS_EUSAGE,
                            "--outage-threshold: '%s' is not a fraction in "
                            "(0, 1]",
                            value);
        o->outage_threshold = d;
    } else if (strcmp(name, "outage-min-duration") == 0) {
        if (bfs_parse_duration(value, 0, &v))
            return bfs_fail(e, BFS_EUSAGE,
                            "--outage-min-duration: '%s' is not a duration "
                            "(seconds, or a number with s, m, h or d)",
                            value);
        o->outage_min = v;
    } else if (strcmp(name, "machine-nodes") == 0 ||
               strcmp(name, "max-nodes") == 0) {
        if (bfs_parse_i64(value, &v) || v < 1 || v > (int64_t)1 << 24)
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s: '%s' is not a node count in 1..16777216",
                            name, value);
        *(strcmp(name, "max-nodes") == 0 ? &o->max_nodes : &o->machine_nodes) =
            (size_t)v;
    } else if (strcmp(name, "procs-per-node") == 0) {
        if (bfs_parse_i64(value, &v) || v < 1 || v > (int64_t)1 << 30)
            return bfs_fail(e, BFS_EUSAGE,
                            "--procs-per-node: '%s' is not a positive count",
                            value);
        o->procs_per_node = v;
    } else if (strcmp(name, "origin") == 0) {
        if (bfs_time_parse(value, &v))
            return bfs_fail(e, BFS_EUSAGE,
                            "--origin: '%s' is not a time (YYYY-MM-DD "
                            "HH:MM:SS UTC, or Unix seconds)",
                            value);
        o->origin = v;
    } else if (strcmp(name, "tz-offset") == 0) {
        if (parse_offset(value, &v))
            return bfs_fail(e, BFS_EUSAGE,
                            "--tz-offset: '%s' is not an offset (seconds, or "
                            "+HH:MM / -HH:MM)",
                            value);
        o->tz_offset = v;
    } else if (strcmp(name, "nodes-file") == 0) {
        o->nodes_file = value;
    } else if (strcmp(name, "columns") == 0) {
        int rc = import_slurm_columns_check(value, e);
        if (rc)
            return rc;
        o->columns = value;
    } else if (strcmp(name, "tz") == 0) {
        struct import_tz *z;
        int rc = import_tz_open(value, &z, e);
        if (rc)
            return rc;
        import_tz_close(z);
        o->tz = value;
    } else if (strcmp(name, "skip-bad") == 0) {
        o->skip_bad = 1;
    } else if (strcmp(name, "partition-nodes") == 0) {
        struct import_partition *p;
        size_t n;
        int rc = import_partitions_parse(value, &p, &n, e);
        if (rc)
            return rc;
        import_partitions_free(p, n);
        o->partition_nodes = value;
    } else {
        return bfs_fail(e, BFS_EUSAGE, "unknown option '%s'", name);
    }
    return 0;
}

int import_log_check_opts(const struct import_log_opts *o, struct bfs_error *e)
{
    if (o->node_types && o->types_from_partition)
        return bfs_fail(e, BFS_EUSAGE,
                        "give --node-types or --type-from partition, not "
                        "both");
    if (o->node_types && o->partition_nodes)
        return bfs_fail(e, BFS_EUSAGE,
                        "give --node-types or --partition-nodes, not both "
                        "(the partitions are the types)");
    if (o->start != IMPORT_TIME_NONE && o->end != IMPORT_TIME_NONE &&
        o->end <= o->start)
        return bfs_fail(e, BFS_EUSAGE, "--end must be after --start");
    return 0;
}

size_t import_log_comments_count(const char *const *v)
{
    size_t n = 0;

    while (v && v[n])
        n++;
    return n;
}

void import_log_comments_add(char **c, size_t *k, const char *const *v)
{
    for (size_t i = 0; v && v[i]; i++)
        c[(*k)++] = xstrdup(v[i]);
}

char **import_log_comments(const char *const *comments, const char *format,
                           const char *path, const char *const *extra,
                           const struct import_log_opts *o)
{
    size_t k = 0;
    char **c = xcalloc(import_log_comments_count(comments) +
                           import_log_comments_count(extra) + 6,
                       sizeof *c);

    import_log_comments_add(c, &k, comments);
    c[k++] = xasprintf("source: %s log %s", format, path);
    import_log_comments_add(c, &k, extra);
    if ((c[k] = import_log_types_comment(o)) != NULL)
        k++;
    c[k++] = xasprintf("placement: %s, overflow: %s",
                       o->placement == IMPORT_CONTIGUOUS ? "contiguous"
                                                         : "first-fit",
                       o->overflow == IMPORT_SKIP ? "skip" : "truncate");
    c[k++] = import_log_window_comment(o, "first job start", "last job end");
    c[k++] = import_log_outage_comment(o, "outages: not marked");
    c[k] = NULL;
    return c;
}

char *import_log_window_comment(const struct import_log_opts *o,
                                const char *no_start, const char *no_end)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];

    return xasprintf("window: %s .. %s",
                     o->start == IMPORT_TIME_NONE
                         ? no_start
                         : strcat(bfs_time_format(o->start, t0), " UTC"),
                     o->end == IMPORT_TIME_NONE
                         ? no_end
                         : strcat(bfs_time_format(o->end, t1), " UTC"));
}

char *import_log_outage_comment(const struct import_log_opts *o,
                                const char *none)
{
    if (o->outage_threshold > 0.0)
        return xasprintf("outages not offered: at least %g of the nodes idle "
                         "for at least %" PRId64 " s",
                         o->outage_threshold, o->outage_min);
    return none ? xstrdup(none) : NULL;
}

char *import_log_types_comment(const struct import_log_opts *o)
{
    const struct nodetypes *m = o->node_types;

    if (o->types_from_partition)
        return xasprintf(
            "node types: the partition of the jobs that ran on each "
            "node (Partition column)");
    if (!m)
        return NULL;
    if (nodetypes_rule(m) == NODETYPES_RULE_DEFAULT)
        return xasprintf("node types: from %s (HOSTLIST TYPE form)",
                         nodetypes_path(m));
    return xasprintf("node types: from %s (sinfo output, type = %s)",
                     nodetypes_path(m), nodetypes_rule_name(nodetypes_rule(m)));
}

/* The number of distinct strings of v[0..n-1]. */
static size_t count_distinct(const char *const *v, size_t n)
{
    struct hostlist_index *ix = hostlist_index_new();
    size_t k;

    for (size_t i = 0; i < n; i++)
        hostlist_index_add(ix, v[i], i);
    k = hostlist_index_count(ix);
    hostlist_index_free(ix);
    return k;
}

int import_log_writer_open(const char *path, const char *const *names,
                           const char *const *types, size_t n,
                           const char *const *comments,
                           const struct import_log_opts *o,
                           struct import_stats *st, struct trace_writer **w,
                           struct bfs_error *e)
{
    struct nodetypes_table t;
    int rc;

    memset(&t, 0, sizeof t);
    st->types_unused = 0;
    if (!types && o->node_types) {
        if ((rc = nodetypes_apply(o->node_types, names, n, &t, e)) != 0)
            return rc;
        types = t.per_node;
        st->types_unused = t.unused;
    }
    st->types = types ? count_distinct(types, n) : 0;
    rc = trace_writer_open_typed(path, names, types, n, comments, w, e);
    nodetypes_table_release(&t);
    return rc;
}

void import_log_comments_free(char **c)
{
    if (!c)
        return;
    for (size_t i = 0; c[i]; i++)
        xfree(c[i]);
    xfree(c);
}

static double hours(uint64_t node_s)
{
    return (double)node_s / 3600.0;
}

void import_log_report_write(const struct import_log_report *r, FILE *f)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    int swf = strcmp(r->format, "swf") == 0;

    fprintf(f, "bfsim: %s: %zu lines, %zu job records, %zu jobs converted\n",
            r->format, r->lines, r->records, r->jobs);
    if (swf)
        fprintf(f,
                "bfsim: skipped: %zu unknown submit time, %zu unknown run "
                "time, %zu ran 0 s, %zu unknown size, %zu summaries of "
                "partial executions\n",
                r->unknown_submit, r->unknown_run, r->zero_run, r->unknown_size,
                r->partial_summary);
    else
        fprintf(f,
                "bfsim: skipped: %zu job steps, %zu never ran, %zu ran 0 s, "
                "%zu end before start, %zu no nodes, %zu unknown size, %zu "
                "malformed rows",
                r->steps, r->never_ran, r->zero_run, r->bad_interval,
                r->no_nodes, r->unknown_size, r->malformed);
    if (!swf && r->malformed)
        fprintf(f, " (first at line %zu)", r->first_malformed);
    if (!swf)
        fputc('\n', f);
    if (swf && r->partitions)
        fprintf(f,
                "bfsim: %zu partitions (--partition-nodes): %zu jobs of "
                "other partitions skipped\n",
                r->partitions, r->other_partition);
    if (swf && r->wait_unknown)
        fprintf(f,
                "bfsim: %zu jobs with unknown wait time started at "
                "submission\n",
                r->wait_unknown);
    if (!swf) {
        fprintf(f, "bfsim: %zu running jobs end at the log's end %s UTC\n",
                r->running, bfs_time_format(r->log_end, t0));
        fprintf(f, "bfsim: rows out of start order by up to %" PRId64 " s",
                r->reorder_lag);
        if (r->submit_lag >= 0)
            fprintf(f,
                    "; starts before an earlier row's Submit by up to "
                    "%" PRId64 " s",
                    r->submit_lag);
        fputc('\n', f);
        if (r->nnodes_mismatch)
            fprintf(f,
                    "bfsim: %zu jobs whose NNodes differs from their "
                    "NodeList (NodeList used)\n",
                    r->nnodes_mismatch);
        if (r->outside_nodes)
            fprintf(f,
                    "bfsim: %zu node mentions outside --nodes-file "
                    "ignored\n",
                    r->outside_nodes);
    }
    fprintf(f, "bfsim: machine: %zu nodes (%s)", r->nodes, r->nodes_from);
    if (swf)
        fprintf(f,
                ", processors per node: %" PRId64
                " (%s), UnixStartTime %" PRId64,
                r->procs_per_node, r->ppn_from, r->unix_start);
    fputc('\n', f);
    fprintf(f,
            "bfsim: placement %s, overflow %s: %zu jobs placed in full, %zu "
            "truncated, %zu dropped, %zu larger than the machine, %zu "
            "fragmented; %.1f node-hours not placed\n",
            r->placement == IMPORT_CONTIGUOUS ? "contiguous" : "first-fit",
            r->overflow == IMPORT_SKIP ? "skip" : "truncate", r->placed,
            r->truncated, r->dropped, r->oversized, r->fragmented,
            hours(r->lost_node_s));
    fprintf(f, "bfsim: trace %s .. %s UTC: %.1f idle node-hours offered\n",
            bfs_time_format(r->start, t0), bfs_time_format(r->end, t1),
            hours(r->idle_node_s));
    if (r->outage_threshold > 0.0)
        fprintf(f,
                "bfsim: outages: threshold %g (at least %zu of %zu nodes "
                "idle) for at least %" PRId64 " s: %zu periods not offered, "
                "%.1f idle node-hours removed\n",
                r->outage_threshold, r->outage_nodes, r->nodes, r->outage_min,
                r->outages, hours(r->outage_node_s));
    else
        fprintf(f, "bfsim: outages: not marked (no --outage-threshold)\n");
    fprintf(f, "bfsim: memory: at most %zu jobs held at once\n", r->peak_jobs);
}

/* ---- time zones ---------------------------------------------------- */

struct import_tz {
    char *name;     /* owned: as given */
    int zone;       /* 1: a zone of the system's database, 0: an offset */
    int64_t offset; /* local - UTC (offset form; zone: of the cached hour) */
    int64_t key;    /* zone: the local hour offset holds for, or -1 */
};

int import_tz_open(const char *spec, struct import_tz **out,
                   struct bfs_error *e)
{
    struct import_tz z = {NULL, 0, 0, -1};
    const char *dir = getenv("TZDIR");
    struct stat st;
    char *path;
    int ok;

    if (strcmp(spec, "UTC") == 0 || strcmp(spec, "Z") == 0) {
        /* offset 0 */
    } else if (parse_offset(spec, &z.offset) == 0) {
        /* an offset */
    } else {
        /* A zone name: glibc takes an unknown one for UTC without a
         * word, so the file must be there. */
        if (!*spec || *spec == '/' || strstr(spec, "..") ||
            strpbrk(spec, " \t,<>"))
            return bfs_fail(e, BFS_EUSAGE,
                            "--tz: '%s' is not UTC, an offset (+HH:MM, "
                            "-HH:MM, seconds) or a zone name such as "
                            "America/Chicago",
                            spec);
        dir = dir && *dir ? dir : "/usr/share/zoneinfo";
        path = xasprintf("%s/%s", dir, spec);
        ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        xfree(path);
        if (!ok)
            return bfs_fail(e, BFS_EUSAGE,
                            "--tz: no zone '%s' in %s (a name such as "
                            "Europe/Paris, or an offset such as +01:00)",
                            spec, dir);
        z.zone = 1;
    }
    z.name = xstrdup(spec);
    *out = xmalloc(sizeof **out);
    **out = z;
    return 0;
}

/* The offset (local - UTC) of the zone z at the local time given, from
 * the C library with TZ set to the zone for the call (and restored). */
static int64_t zone_offset(const struct import_tz *z, int64_t local, int y,
                           int mo, int d, int h, int mi, int s)
{
    char *old = getenv("TZ");
    struct tm tm;
    time_t t;

    old = old ? xstrdup(old) : NULL;
    setenv("TZ", z->name, 1);
    tzset();
    memset(&tm, 0, sizeof tm);
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    tm.tm_isdst = -1;
    t = mktime(&tm);
    if (old) {
        setenv("TZ", old, 1);
        xfree(old);
    } else {
        unsetenv("TZ");
    }
    tzset();
    return t == (time_t)-1 ? 0 : local - (int64_t)t;
}

int64_t import_tz_local(struct import_tz *z, int y, int mo, int d, int h,
                        int mi, int s)
{
    int64_t local = bfs_time_from_civil(y, mo, d, h, mi, s);

    if (z->zone) {
        int64_t key = local - local % 3600;
        if (key != z->key) {
            z->offset = zone_offset(z, local, y, mo, d, h, mi, s);
            z->key = key;
        }
    }
    return local - z->offset;
}

const char *import_tz_name(const struct import_tz *z)
{
    return z->name;
}

void import_tz_close(struct import_tz *z)
{
    if (!z)
        return;
    xfree(z->name);
    xfree(z);
}

/* ---- names --------------------------------------------------------- */

int import_log_name_width(size_t n)
{
    int w = 1;

    for (size_t x = n > 0 ? n - 1 : 0; x >= 10; x /= 10)
        w++;
    return w;
}

char **import_log_names(size_t n)
{
    char **v = xcalloc(n, sizeof *v);
    int w = import_log_name_width(n);

    for (size_t i = 0; i < n; i++) {
        size_t x = i;
        v[i] = xmalloc((size_t)w + 2);
        v[i][0] = 'n';
        v[i][w + 1] = '\0';
        for (int k = w; k >= 1; k--, x /= 10)
            v[i][k] = (char)('0' + x % 10);
    }
    return v;
}

void import_log_names_free(char **names, size_t n)
{
    xfree_strv(names, n);
}

/* ---- heap and jobs ------------------------------------------------- */

static int before(const struct entry *a, const struct entry *b)
{
    return a->time != b->time ? a->time < b->time : a->key < b->key;
}

static void heap_push(struct import_log *l, struct entry x)
{
    size_t i;

    BFS_GROW(l->heap, l->cap_heap, l->n_heap + 1);
    i = l->n_heap++;
    while (i > 0 && before(&x, &l->heap[(i - 1) / 2])) {
        l->heap[i] = l->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    l->heap[i] = x;
}

static struct entry heap_pop(struct import_log *l)
{
    struct entry top = l->heap[0], x = l->heap[--l->n_heap];
    size_t i = 0, n = l->n_heap;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&l->heap[c + 1], &l->heap[c]))
            c++;
        if (!before(&l->heap[c], &x))
            break;
        l->heap[i] = l->heap[c];
        i = c;
    }
    if (n > 0)
        l->heap[i] = x;
    return top;
}

static uint32_t job_new(struct import_log *l)
{
    uint32_t id;

    if (l->n_free_jobs > 0) {
        id = l->free_jobs[--l->n_free_jobs];
    } else {
        BFS_GROW(l->jobs, l->cap_jobs, l->n_jobs + 1);
        id = (uint32_t)l->n_jobs++;
    }
    memset(&l->jobs[id], 0, sizeof l->jobs[id]);
    if (++l->live_jobs > l->peak_jobs)
        l->peak_jobs = l->live_jobs;
    return id;
}

static void job_free(struct import_log *l, uint32_t id)
{
    xfree(l->jobs[id].nodes);
    l->jobs[id].nodes = NULL;
    BFS_GROW(l->free_jobs, l->cap_free_jobs, l->n_free_jobs + 1);
    l->free_jobs[l->n_free_jobs++] = id;
    l->live_jobs--;
}

static int add_job(struct import_log *l, int64_t start, int64_t end,
                   size_t need, uint32_t lo, uint32_t hi, const uint32_t *nodes,
                   size_t n)
{
    uint32_t id;
    struct job *j;

    if (start < l->final_before)
        return BFS_ERANGE;
    id = job_new(l);
    j = &l->jobs[id];
    j->start = start;
    j->end = end;
    j->need = need;
    j->lo = lo;
    j->hi = hi;
    if (nodes) {
        j->n = n;
        j->nodes = xmalloc((n ? n : 1) * sizeof *j->nodes);
        if (n)
            memcpy(j->nodes, nodes, n * sizeof *nodes);
    }
    heap_push(l,
              (struct entry){start, (uint64_t)KIND_START << 63 | l->seq++, id});
    return 0;
}

int import_log_add_count(struct import_log *l, int64_t start, int64_t end,
                         size_t need)
{
    return import_log_add_count_in(l, start, end, need, 0, (uint32_t)l->n);
}

int import_log_add_count_in(struct import_log *l, int64_t start, int64_t end,
                            size_t need, uint32_t lo, uint32_t hi)
{
    return add_job(l, start, end, need, lo, hi, NULL, 0);
}

int import_log_add_nodes(struct import_log *l, int64_t start, int64_t end,
                         const uint32_t *nodes, size_t n)
{
    return add_job(l, start, end, 0, 0, 0, nodes, n);
}

/* ---- node state ---------------------------------------------------- */

static void touch(struct import_log *l, uint32_t i)
{
    if (!l->touched[i]) {
        l->touched[i] = 1;
        l->was_busy[i] = l->ref[i] > 0;
        l->tlist[l->n_t++] = i;
    }
}

static void take(struct import_log *l, uint32_t i)
{
    touch(l, i);
    if (l->ref[i]++ == 0) {
        l->freebits[i / 64] &= ~((uint64_t)1 << (i % 64));
        l->busy++;
    }
}

static void release(struct import_log *l, uint32_t i)
{
    touch(l, i);
    if (--l->ref[i] == 0) {
        l->freebits[i / 64] |= (uint64_t)1 << (i % 64);
        l->busy--;
    }
}

/* First index >= pos whose bit is set (set = 1) or clear (set = 0), or n. */
static size_t scan(const struct import_log *l, size_t pos, int set)
{
    size_t wi = pos / 64;
    uint64_t x;

    if (pos >= l->n)
        return l->n;
    x = set ? l->freebits[wi] : ~l->freebits[wi];
    x &= ~(uint64_t)0 << (pos % 64);
    while (x == 0) {
        if (++wi >= l->n_words)
            return l->n;
        x = set ? l->freebits[wi] : ~l->freebits[wi];
    }
    pos = wi * 64 + (size_t)__builtin_ctzll(x);
    return pos < l->n ? pos : l->n;
}

/* Start of the lowest run of at least k free nodes within lo .. hi - 1,
 * or hi. */
static size_t find_run(const struct import_log *l, size_t k, size_t lo,
                       size_t hi)
{
    size_t pos = lo;

    while (pos < hi) {
        size_t s = scan(l, pos, 1), end;
        if (s >= hi)
            break;
        end = scan(l, s, 0);
        if (end > hi)
            end = hi;
        if (end - s >= k)
            return s;
        pos = end;
    }
    return hi;
}

/* The free nodes within lo .. hi - 1. */
static size_t free_in(const struct import_log *l, size_t lo, size_t hi)
{
    size_t k = 0;

    if (lo == 0 && hi == l->n)
        return l->n - l->busy;
    for (size_t i = lo; i < hi;) {
        size_t b = i % 64, m = 64 - b;
        uint64_t x = l->freebits[i / 64] >> b;
        if (hi - i < m) {
            m = hi - i;
            x &= ((uint64_t)1 << m) - 1;
        }
        k += (size_t)__builtin_popcountll(x);
        i += m;
    }
    return k;
}

/* Places a count job; returns whether it holds nodes (or, in count mode,
 * always 1). */
static int start_count_job(struct import_log *l, struct job *j)
{
    size_t need = j->need, avail, got;
    uint64_t dur = (uint64_t)(j->end - j->start);

    if (!l->w) {
        l->busy += need;
        if (l->busy > l->peak_busy)
            l->peak_busy = l->busy;
        return 1;
    }
    avail = free_in(l, j->lo, j->hi);
    if (need > (size_t)(j->hi - j->lo))
        l->oversized++;
    if (need <= avail) {
        got = need;
        l->placed++;
    } else {
        got = l->o.overflow == IMPORT_SKIP ? 0 : avail;
        if (got == 0)
            l->dropped++;
        else
            l->truncated++;
        l->lost_node_s += (uint64_t)(need - got) * dur;
    }
    if (got == 0)
        return 0;
    j->nodes = xmalloc(got * sizeof *j->nodes);
    j->n = got;
    if (l->o.placement == IMPORT_CONTIGUOUS && got == need) {
        size_t s = find_run(l, got, j->lo, j->hi);
        if (s < j->hi) {
            for (size_t k = 0; k < got; k++) {
                j->nodes[k] = (uint32_t)(s + k);
                take(l, (uint32_t)(s + k));
            }
            return 1;
        }
        l->fragmented++;
    }
    for (size_t k = 0, pos = j->lo; k < got; k++) {
        pos = scan(l, pos, 1);
        j->nodes[k] = (uint32_t)pos;
        take(l, (uint32_t)pos);
        pos++;
    }
    return 1;
}

/* ---- output -------------------------------------------------------- */

static int emit(struct import_log *l, int64_t t, const uint32_t *join,
                size_t nj, const uint32_t *leave, size_t nl,
                struct bfs_error *e)
{
    int rc;

    if (l->any_emit)
        l->offered_ns += (uint64_t)l->n_offered * (uint64_t)(t - l->last_emit);
    rc = trace_writer_event(l->w, t, join, nj, leave, nl, e);
    if (rc)
        return rc;
    for (size_t k = 0; k < nj; k++)
        l->offered[join[k]] = 1;
    for (size_t k = 0; k < nl; k++)
        l->offered[leave[k]] = 0;
    l->n_offered = l->n_offered + nj - nl;
    l->events++;
    l->joins += nj;
    l->leaves += nl;
    if (l->n_offered > l->max_idle)
        l->max_idle = l->n_offered;
    l->last_emit = t;
    l->any_emit = 1;
    return 0;
}

/* The nodes (in order) whose flag in v is `want` (v NULL: ref == 0). */
static size_t collect(struct import_log *l, const uint8_t *v, uint32_t *out)
{
    size_t k = 0;

    for (size_t i = 0; i < l->n; i++)
        if (v ? v[i] != 0 : l->ref[i] == 0)
            out[k++] = (uint32_t)i;
    return k;
}

static void buffer_push(struct import_log *l, int64_t t, const uint32_t *join,
                        size_t nj, const uint32_t *leave, size_t nl)
{
    size_t off = l->n_bufnodes;

    BFS_GROW(l->buf, l->cap_buf, l->n_buf + 1);
    BFS_GROW(l->bufnodes, l->cap_bufnodes, l->n_bufnodes + nj + nl);
    if (nj)
        memcpy(l->bufnodes + off, join, nj * sizeof *join);
    if (nl)
        memcpy(l->bufnodes + off + nj, leave, nl * sizeof *leave);
    l->n_bufnodes += nj + nl;
    l->buf[l->n_buf++] = (struct bev){t, off, nj, nl};
}

static int buffer_flush(struct import_log *l, struct bfs_error *e)
{
    int rc = 0;

    for (size_t k = 0; k < l->n_buf && rc == 0; k++) {
        const struct bev *b = &l->buf[k];
        rc = emit(l, b->t, l->bufnodes + b->off, b->nj,
                  l->bufnodes + b->off + b->nj, b->nl, e);
    }
    l->n_buf = 0;
    l->n_bufnodes = 0;
    return rc;
}

/* Marks the candidate period as an outage: every offered node leaves at
 * its start. */
static int outage_begin(struct import_log *l, struct bfs_error *e)
{
    size_t k = collect(l, l->offered, l->scratch);

    l->n_buf = 0;
    l->n_bufnodes = 0;
    l->ostate = OUTAGE;
    l->outages++;
    return emit(l, l->oa, NULL, 0, l->scratch, k, e);
}

/* The outage filter: one written second, with idle true idle nodes after
 * it. */
static int filt(struct import_log *l, int64_t t, const uint32_t *join,
                size_t nj, const uint32_t *leave, size_t nl, size_t idle,
                struct bfs_error *e)
{
    size_t k;
    int rc = 0;

    if (l->thr == 0)
        return emit(l, t, join, nj, leave, nl, e);
    if (l->ostate != NORMAL)
        l->cand_ns += (uint64_t)l->ti_prev * (uint64_t)(t - l->tt_prev);
    l->ti_prev = idle;
    l->tt_prev = t;
    if (l->ostate == NORMAL) {
        if (idle < l->thr)
            return emit(l, t, join, nj, leave, nl, e);
        l->ostate = CANDIDATE;
        l->oa = t;
        l->cand_ns = 0;
        buffer_push(l, t, join, nj, leave, nl);
        return 0;
    }
    if (l->ostate == CANDIDATE) {
        if (t - l->oa < l->o.outage_min) {
            if (idle >= l->thr) {
                buffer_push(l, t, join, nj, leave, nl);
                return 0;
            }
            l->ostate = NORMAL;
            if ((rc = buffer_flush(l, e)) != 0)
                return rc;
            return emit(l, t, join, nj, leave, nl, e);
        }
        if ((rc = outage_begin(l, e)) != 0)
            return rc;
    }
    /* OUTAGE */
    if (idle >= l->thr)
        return 0;
    l->outage_ns += l->cand_ns;
    l->cand_ns = 0;
    l->ostate = NORMAL;
    k = collect(l, NULL, l->scratch);
    return emit(l, t, l->scratch, k, NULL, 0, e);
}

/* The closing event at t. */
static int filt_finish(struct import_log *l, int64_t t, struct bfs_error *e)
{
    int rc = 0;

    if (l->thr > 0 && l->ostate != NORMAL)
        l->cand_ns += (uint64_t)l->ti_prev * (uint64_t)(t - l->tt_prev);
    if (l->thr > 0 && l->ostate == CANDIDATE) {
        if (t - l->oa >= l->o.outage_min)
            rc = outage_begin(l, e);
        else {
            l->ostate = NORMAL;
            rc = buffer_flush(l, e);
        }
    }
    if (rc == 0 && l->ostate == OUTAGE) {
        l->outage_ns += l->cand_ns;
        l->cand_ns = 0;
    }
    if (rc == 0 && (!l->any_emit || t > l->last_emit))
        rc = emit(l, t, NULL, 0, NULL, 0, e);
    return rc;
}

/* The opening event at t: every node idle now joins. */
static int start_at(struct import_log *l, int64_t t, struct bfs_error *e)
{
    size_t k = collect(l, NULL, l->scratch);

    l->started = 1;
    l->span_start = t;
    return filt(l, t, l->scratch, k, NULL, 0, l->n - l->busy, e);
}

/* ---- seconds ------------------------------------------------------- */

static int process_second(struct import_log *l, int64_t t, struct bfs_error *e)
{
    size_t nj = 0, nl = 0;
    int rc;

    if (l->w && !l->started && l->o.start != IMPORT_TIME_NONE &&
        t > l->o.start && (rc = start_at(l, l->o.start, e)) != 0)
        return rc;
    while (l->n_heap > 0 && l->heap[0].time == t) {
        struct entry x = heap_pop(l);
        struct job *j = &l->jobs[x.job];
        int holds;

        if ((x.key >> 63) == KIND_END) {
            if (!l->w)
                l->busy -= j->need;
            for (size_t k = 0; k < j->n; k++)
                release(l, j->nodes[k]);
            job_free(l, x.job);
            continue;
        }
        if (j->need > 0) {
            holds = start_count_job(l, j);
        } else {
            for (size_t k = 0; k < j->n; k++)
                take(l, j->nodes[k]);
            holds = j->n > 0;
        }
        if (holds) {
            x.time = j->end;
            x.key &= ~((uint64_t)1 << 63);
            heap_push(l, x);
        } else {
            job_free(l, x.job);
        }
    }
    l->last_second = t;
    l->any_second = 1;
    if (!l->w)
        return 0;
    for (size_t k = 0; k < l->n_t; k++) {
        uint32_t i = l->tlist[k];
        int now = l->ref[i] > 0;
        if (l->was_busy[i] && !now)
            l->join[nj++] = i;
        else if (!l->was_busy[i] && now)
            l->leave[nl++] = i;
        l->touched[i] = 0;
    }
    l->n_t = 0;
    if (!l->started) {
        if (l->o.start == IMPORT_TIME_NONE || t == l->o.start) {
            if (l->o.end != IMPORT_TIME_NONE && t > l->o.end)
                return 0;
            return start_at(l, t, e);
        }
        return 0;
    }
    if (l->o.end != IMPORT_TIME_NONE && t > l->o.end)
        return 0;
    if (nj == 0 && nl == 0)
        return 0;
    return filt(l, t, l->join, nj, l->leave, nl, l->n - l->busy, e);
}

int import_log_advance(struct import_log *l, int64_t horizon,
                       struct bfs_error *e)
{
    int rc;

    while (l->n_heap > 0 && l->heap[0].time < horizon)
        if ((rc = process_second(l, l->heap[0].time, e)) != 0)
            return rc;
    if (horizon > l->final_before)
        l->final_before = horizon;
    return 0;
}

/* ---- life cycle ---------------------------------------------------- */

struct import_log *import_log_new(const struct import_log_opts *o,
                                  size_t n_nodes, struct trace_writer *w,
                                  const char *path)
{
    struct import_log *l = xcalloc(1, sizeof *l);
    size_t n = n_nodes;

    l->o = *o;
    l->o.nodes_file = NULL;
    l->path = path;
    l->n = n;
    l->w = w;
    l->final_before = INT64_MIN;
    l->n_words = (n + 63) / 64;
    l->ref = xcalloc(n, sizeof *l->ref);
    l->freebits = xcalloc(l->n_words ? l->n_words : 1, sizeof *l->freebits);
    for (size_t i = 0; i < n; i++)
        l->freebits[i / 64] |= (uint64_t)1 << (i % 64);
    l->touched = xcalloc(n, 1);
    l->was_busy = xcalloc(n, 1);
    l->offered = xcalloc(n, 1);
    l->tlist = xcalloc(n, sizeof *l->tlist);
    l->join = xcalloc(n, sizeof *l->join);
    l->leave = xcalloc(n, sizeof *l->leave);
    l->scratch = xcalloc(n, sizeof *l->scratch);
    if (w && o->outage_threshold > 0.0) {
        double thr = ceil(o->outage_threshold * (double)n - 1e-9);
        l->thr = thr < 1.0 ? 1 : (size_t)thr;
    }
    return l;
}

size_t import_log_peak_busy(const struct import_log *l)
{
    return l->peak_busy;
}

int import_log_finish(struct import_log *l, struct import_log_report *rep,
                      struct import_stats *st, struct bfs_error *e)
{
    int64_t end;
    int rc;

    if ((rc = import_log_advance(l, INT64_MAX, e)) != 0)
        return rc;
    if (!l->w)
        return 0;
    if (!l->started) {
        if (l->o.start == IMPORT_TIME_NONE)
            return bfs_fail_at(
                e, BFS_EINVAL, l->path, 0, "no job ran%s: nothing to convert",
                l->o.end != IMPORT_TIME_NONE ? " before --end" : "");
        if ((rc = start_at(l, l->o.start, e)) != 0)
            return rc;
    }
    end = l->o.end != IMPORT_TIME_NONE ? l->o.end : l->last_second;
    if (end < l->span_start)
        end = l->span_start;
    if ((rc = filt_finish(l, end, e)) != 0)
        return rc;

    rep->placement = l->o.placement;
    rep->overflow = l->o.overflow;
    rep->placed = l->placed;
    rep->truncated = l->truncated;
    rep->dropped = l->dropped;
    rep->oversized = l->oversized;
    rep->fragmented = l->fragmented;
    rep->lost_node_s = l->lost_node_s;
    rep->peak_jobs = l->peak_jobs;
    rep->start = l->span_start;
    rep->end = l->last_emit;
    rep->idle_node_s = l->offered_ns;
    rep->outage_threshold = l->thr ? l->o.outage_threshold : 0.0;
    rep->outage_nodes = l->thr;
    rep->outage_min = l->o.outage_min;
    rep->outages = l->outages;
    rep->outage_node_s = l->outage_ns;
    rep->nodes = l->n;
    if (st) {
        st->nodes = l->n;
        st->events = l->events;
        st->joins = l->joins;
        st->leaves = l->leaves;
        st->first_time = l->span_start;
        st->last_time = l->last_emit;
        st->max_idle = l->max_idle;
    }
    return 0;
}

int import_log_end(struct import_log *l, struct trace_writer *w,
                   struct import_log_report *rep, struct import_stats *st,
                   struct bfs_error *e)
{
    int rc = import_log_finish(l, rep, st, e);

    if (rc == 0)
        rc = trace_writer_finish(w, e);
    else
        trace_writer_abort(w);
    import_log_free(l);
    return rc;
}

void import_log_free(struct import_log *l)
{
    if (!l)
        return;
    for (size_t k = 0; k < l->n_heap; k++)
        xfree(l->jobs[l->heap[k].job].nodes);
    XFREE_ALL(l->bufnodes, l->buf, l->scratch, l->leave, l->join, l->tlist,
              l->offered, l->was_busy, l->touched, l->freebits, l->ref,
              l->free_jobs, l->jobs, l->heap, l);
}

int import_log_warnings(const struct import_log_report *r, FILE *f)
{
    double span = (double)(r->end - r->start), busy;
    int n = 0;

    if (strcmp(r->format, "swf") == 0 &&
        strcmp(r->nodes_from, "header MaxNodes") != 0 &&
        strcmp(r->nodes_from, "--machine-nodes") != 0 && r->partitions == 0) {
        fprintf(f,
                "bfsim: warning: the SWF header gives no MaxNodes: the log "
                "became one machine of %zu nodes (%s); if it records several "
                "machines (a grid), convert each one's jobs with "
                "--machine-nodes\n",
                r->nodes, r->nodes_from);
        n++;
    }
    if (r->nodes > 0 && span > 0) {
        busy = 1.0 - (double)r->idle_node_s / ((double)r->nodes * span);
        if (busy > 0.9) {
            fprintf(f,
                    "bfsim: warning: the %zu nodes are busy %.1f%% of the "
                    "time on average: the jobs may come from several "
                    "machines, or the machine is larger (--machine-nodes)\n",
                    r->nodes, 100.0 * busy);
            n++;
        }
    }
    return n;
}
