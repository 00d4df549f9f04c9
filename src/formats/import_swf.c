/* import_swf.c - Standard Workload Format logs to native traces (see the
 * job-log block of import.h for the rules).
 *
 * One pass: the ';' header comments before the first job line give the
 * machine (MaxNodes, MaxProcs) and the time origin (UnixStartTime); the
 * trace writer and the engine (import_log.c) are set up at the first job
 * line.  The format sorts lines by submit time and a job starts at or
 * after its submission, so once a line with submit time S has been read,
 * no later line starts a job before S: the engine may write every second
 * before S.  Memory is therefore the nodes, the running jobs and the jobs
 * submitted but not yet started.
 *
 * Partial executions: SWF gives a job that was checkpointed or swapped
 * out as a summary line (status 0, 1 or 5) and one line per part (status
 * 2, 3 or 4) with the same job number.  The parts are the busy intervals;
 * a summary line is held back one line (that is the only look-ahead) and
 * dropped when parts of its job follow it or precede it directly.
 */
#include "config.h"

#include "formats/import.h"
#include "formats/import_log.h"
#include "formats/trace.h"
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SWF_FIELDS 18

/* Largest magnitude accepted for a time or size field (about 35,000
 * years of seconds), so that sums cannot overflow. */
#define SWF_MAX_VALUE ((int64_t)1 << 40)

/* The fields a conversion uses, of one job line. */
struct rec {
    int64_t job, submit, wait, run, procs, status;
    size_t line;
};

struct swf {
    const char *path;
    const struct import_log_opts *o;
    struct import_log_report *rep;
    struct bfs_error *e;
    /* header */
    int64_t unix_start, max_nodes, max_procs;
    /* set up at the first job line */
    int64_t ppn;
    size_t nodes;
    struct trace_writer *w;
    struct import_log *engine;
    /* partial executions */
    struct rec held;
    int have_held;
    int64_t last_partial_job;
    int have_last_partial;
};

/* Reads the leading integer of a header value ("338 (batch partition)"). */
static int header_int(const char *s, int64_t *out)
{
    char buf[32];
    size_t n = 0;

    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '-' || *s == '+')
        buf[n++] = *s++;
    while (*s >= '0' && *s <= '9' && n < sizeof buf - 1)
        buf[n++] = *s++;
    buf[n] = '\0';
    return bfs_parse_i64(buf, out);
}

/* A "; Key: value" line.  A key bfsim uses must have an integer value
 * in range (UnixStartTime a time within BFS_TIME_MIN..MAX, so that adding
 * two fields to it cannot overflow); other comments are free text. */
static int parse_header(struct swf *s, const char *line, size_t lineno)
{
    static const char *const keys[] = {"UnixStartTime", "MaxNodes", "MaxProcs"};
    int64_t *dest[] = {&s->unix_start, &s->max_nodes, &s->max_procs};
    const char *p = line + 1;

    while (*p == ' ' || *p == '\t')
        p++;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        size_t len = strlen(keys[k]);
        int64_t v;
        const char *val = p + len + 1;
        if (strncasecmp(p, keys[k], len) != 0 || p[len] != ':')
            continue;
        val += strspn(val, " \t");
        if (*val == '\0') /* an empty value: as if absent */
            continue;
        if (header_int(val, &v) != 0)
            return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                               "%s is not an integer: '%.40s'", keys[k], val);
        if (k == 0 && (v < BFS_TIME_MIN || v > BFS_TIME_MAX))
            return bfs_fail_at(s->e, BFS_ERANGE, s->path, lineno,
                               "UnixStartTime %" PRId64 " is out of range "
                               "(Unix seconds within +-%" PRId64 ")",
                               v, BFS_TIME_MAX);
        *dest[k] = v;
    }
    return 0;
}

/* A numeric field: an integer, or a decimal rounded to the nearest
 * integer (the format allows fractional times). */
static int field(struct swf *s, const char *f, int k, size_t line, int64_t *out)
{
    double d;

    if (bfs_parse_i64(f, out) == 0) {
        if (*out > SWF_MAX_VALUE || *out < -SWF_MAX_VALUE)
            goto range;
        return 0;
    }
    if (bfs_parse_double(f, &d) == 0) {
        if (fabs(d) > (double)SWF_MAX_VALUE)
            goto range;
        *out = (int64_t)llround(d);
        return 0;
    }
    return bfs_fail_at(s->e, BFS_EPARSE, s->path, line,
                       "field %d is not a number: '%s'", k, f);
range:
    return bfs_fail_at(s->e, BFS_ERANGE, s->path, line,
                       "field %d is out of range: '%s'", k, f);
}

/* Resolves the machine and opens the writer and the engine. */
static int setup(struct swf *s, const char *out_path,
                 const char *const *comments)
{
    struct import_log_report *r = s->rep;
    const struct import_log_opts *o = s->o;
    char line1[320], line2[160];
    const char *extra[3] = {line1, line2, NULL};
    char **names, **cm;
    int rc;

    if (o->procs_per_node > 0) {
        s->ppn = o->procs_per_node;
        snprintf(r->ppn_from, sizeof r->ppn_from, "--procs-per-node");
    } else if (s->max_procs > 0 && s->max_nodes > 0) {
        s->ppn = s->max_procs / s->max_nodes;
        if (s->ppn < 1)
            s->ppn = 1;
        snprintf(r->ppn_from, sizeof r->ppn_from,
                 "MaxProcs %" PRId64 " / MaxNodes %" PRId64 "%s", s->max_procs,
                 s->max_nodes,
                 s->max_procs % s->max_nodes ? ", rounded down" : "");
    } else {
        s->ppn = 1;
        snprintf(r->ppn_from, sizeof r->ppn_from,
                 "default: the header lacks MaxProcs or MaxNodes");
    }
    if (o->machine_nodes > 0) {
        s->nodes = o->machine_nodes;
        snprintf(r->nodes_from, sizeof r->nodes_from, "--machine-nodes");
    } else if (s->max_nodes > 0) {
        s->nodes = (size_t)s->max_nodes;
        snprintf(r->nodes_from, sizeof r->nodes_from, "header MaxNodes");
    } else if (s->max_procs > 0) {
        s->nodes = (size_t)(s->max_procs / s->ppn);
        snprintf(r->nodes_from, sizeof r->nodes_from,
                 "header MaxProcs / processors per node");
    }
    if (s->nodes < 1)
        return bfs_fail_at(s->e, BFS_EINVAL, s->path, 0,
                           "the header gives no MaxNodes or MaxProcs: "
                           "give --machine-nodes");
    if (o->machine_nodes == 0 && s->nodes > o->max_nodes)
        return bfs_fail_at(s->e, BFS_ERANGE, s->path, 0,
                           "the machine would have %zu nodes (%s), more "
                           "than --max-nodes %zu: give its size with "
                           "--machine-nodes, or raise --max-nodes",
                           s->nodes, r->nodes_from, o->max_nodes);
    r->nodes = s->nodes;
    r->procs_per_node = s->ppn;
    r->unix_start = s->unix_start;
    snprintf(line1, sizeof line1,
             "machine: %zu nodes (%s), %" PRId64 " processors per node (%s)",
             s->nodes, r->nodes_from, s->ppn, r->ppn_from);
    snprintf(line2, sizeof line2,
             "nodes per job: ceil(allocated processors / %" PRId64
             "); node i is named n + i zero-padded",
             s->ppn);
    names = import_log_names(s->nodes);
    cm = import_log_comments(comments, "SWF", s->path, extra, o);
    rc = trace_writer_open(out_path, (const char *const *)names, s->nodes,
                           (const char *const *)cm, &s->w, s->e);
    import_log_comments_free(cm);
    import_log_names_free(names, s->nodes);
    if (rc)
        return rc;
    s->engine = import_log_new(o, s->nodes, s->w, s->path);
    return 0;
}

/* Turns a record into a job, or counts why not. */
static int convert(struct swf *s, const struct rec *x)
{
    struct import_log_report *r = s->rep;
    int64_t wait = x->wait, start, end;
    size_t need;

    if (x->run < 0) {
        r->unknown_run++;
        return 0;
    }
    if (x->run == 0) {
        r->zero_run++;
        return 0;
    }
    if (x->procs < 1) {
        r->unknown_size++;
        return 0;
    }
    if (wait < 0) {
        r->wait_unknown++;
        wait = 0;
    }
    /* Each term is within +-2^40 (field) or BFS_TIME_MAX (the header):
     * the sums cannot overflow, but may leave the range of times. */
    start = s->unix_start + x->submit + wait;
    end = start + x->run;
    if (end > BFS_TIME_MAX)
        return bfs_fail_at(s->e, BFS_ERANGE, s->path, x->line,
                           "job %" PRId64 " ends after the year 9999 "
                           "(UnixStartTime + submit + wait + run = %" PRId64
                           ")",
                           x->job, end);
    need = (size_t)((x->procs + s->ppn - 1) / s->ppn);
    r->jobs++;
    if (import_log_add_count(s->engine, start, end, need) != 0) {
        char t[BFS_TIME_LEN];
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, x->line,
                           "job %" PRId64 " starts at %s UTC, before times "
                           "already written: the lines are not in submit "
                           "order",
                           x->job, bfs_time_format(start, t));
    }
    return 0;
}

/* One job line with a known submit time, through the partial-execution
 * rule. */
static int take_record(struct swf *s, const struct rec *x)
{
    int rc;

    if (x->status >= 2 && x->status <= 4) {
        if (s->have_held && s->held.job == x->job)
            s->rep->partial_summary++;
        else if (s->have_held && (rc = convert(s, &s->held)) != 0)
            return rc;
        s->have_held = 0;
        s->last_partial_job = x->job;
        s->have_last_partial = 1;
        return convert(s, x);
    }
    if (s->have_last_partial && s->last_partial_job == x->job) {
        s->rep->partial_summary++;
        return 0;
    }
    if (s->have_held && (rc = convert(s, &s->held)) != 0)
        return rc;
    s->held = *x;
    s->have_held = 1;
    return 0;
}

static int job_line(struct swf *s, char *line, size_t lineno)
{
    char *f[SWF_FIELDS + 1];
    int64_t v[SWF_FIELDS];
    size_t n = bfs_split_ws(line, f, SWF_FIELDS + 1);
    struct rec x;
    int rc;

    if (n != SWF_FIELDS)
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, lineno,
                           "%zu fields, expected %d", n, SWF_FIELDS);
    for (int k = 0; k < SWF_FIELDS; k++)
        if ((rc = field(s, f[k], k + 1, lineno, &v[k])) != 0)
            return rc;
    x.job = v[0];
    x.submit = v[1];
    x.wait = v[2];
    x.run = v[3];
    x.procs = v[4];
    x.status = v[10];
    x.line = lineno;
    s->rep->records++;
    if (x.submit < 0) {
        s->rep->unknown_submit++;
        return 0;
    }
    if ((rc = take_record(s, &x)) != 0)
        return rc;
    /* Every job not yet handed over was submitted at or after the held
     * one (or this one): nothing can start before it any more. */
    return import_log_advance(
        s->engine, s->unix_start + (s->have_held ? s->held.submit : x.submit),
        s->e);
}

int import_swf(const char *src, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_log_report *rep,
               struct bfs_error *e)
{
    struct import_log_report r;
    struct import_stats stats;
    struct bfs_lines *in = NULL;
    struct swf s;
    char *line;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    snprintf(r.format, sizeof r.format, "swf");
    s.path = src;
    s.o = o;
    s.rep = &r;
    s.e = e;
    if ((rc = import_log_check_opts(o, e)) != 0)
        return rc;
    if ((rc = bfs_lines_open(src, &in, e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, e)) == 1) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            continue;
        if (*p == ';') {
            if (!s.w && (rc = parse_header(&s, p, bfs_lines_lineno(in))) != 0)
                goto fail;
            continue;
        }
        if (!s.w && (rc = setup(&s, out_path, comments)) != 0)
            goto fail;
        if ((rc = job_line(&s, line, bfs_lines_lineno(in))) != 0)
            goto fail;
    }
    if (rc < 0)
        goto fail;
    r.lines = bfs_lines_lineno(in);
    if (!s.w && (rc = setup(&s, out_path, comments)) != 0)
        goto fail;
    if (s.have_held && (rc = convert(&s, &s.held)) != 0)
        goto fail;
    if ((rc = import_log_finish(s.engine, &r, &stats, e)) != 0)
        goto fail;
    r.nodes = s.nodes;
    if ((rc = trace_writer_finish(s.w, e)) != 0) {
        s.w = NULL;
        goto fail;
    }
    s.w = NULL;
    import_log_free(s.engine);
    bfs_lines_close(in);
    if (st)
        *st = stats;
    if (rep)
        *rep = r;
    return 0;

fail:
    import_log_free(s.engine);
    trace_writer_abort(s.w);
    bfs_lines_close(in);
    return rc;
}
