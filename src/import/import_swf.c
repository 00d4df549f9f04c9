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
 *
 * Partitions (o->partition_nodes, "NAME=COUNT[:PPN],..."): the machine is
 * the partitions' nodes laid end to end in the order given, partition k
 * holding nodes lo_k .. lo_k + COUNT_k - 1, each node typed with its
 * partition's NAME.  A job line's partition field (16) picks the
 * partition, and the job is placed by the usual rule within that range
 * only, at ceil(processors / PPN_k) nodes.  NAME is an SWF partition
 * number, or a name the header's "; Partition: NUMBER NAME" lines give
 * (every number of that name).  Jobs of a partition not listed (and of
 * the unknown partition, -1) are skipped and counted.
 */
#include "config.h"

#include "import/import.h"
#include "import/import_log.h"
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
    int64_t job, submit, wait, run, procs, status, partition;
    size_t line;
};

/* A "; Partition: NUMBER NAME" header line. */
struct hdr_part {
    int64_t number;
    char *name; /* owned */
};

/* An SWF partition number of a --partition-nodes partition. */
struct part_number {
    int64_t number;
    size_t part;
};

struct swf {
    const char *path;
    const struct import_log_opts *o;
    struct import_log_report *rep;
    struct import_stats *stats;
    struct bfs_error *e;
    /* header */
    int64_t unix_start, max_nodes, max_procs;
    struct hdr_part *hdr;
    size_t n_hdr, cap_hdr;
    /* --partition-nodes */
    struct import_partition *parts; /* owned; NULL: one machine */
    size_t n_parts;
    uint32_t *part_lo; /* owned: first node of each, and n_parts + 1 */
    struct part_number *numbers;
    size_t n_numbers, cap_numbers;
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

/* Keeps a "Partition: NUMBER NAME" header value (text after the colon);
 * any other form is free text, ignored. */
static void header_partition(struct swf *s, const char *v)
{
    char buf[256], *f[3];
    int64_t number;

    snprintf(buf, sizeof buf, "%s", v);
    if (bfs_split_ws(buf, f, 3) < 2 || bfs_parse_i64(f[0], &number) != 0)
        return;
    BFS_GROW(s->hdr, s->cap_hdr, s->n_hdr + 1);
    s->hdr[s->n_hdr].number = number;
    s->hdr[s->n_hdr].name = xstrdup(f[1]);
    s->n_hdr++;
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
    if (strncasecmp(p, "Partition:", 10) == 0) {
        header_partition(s, p + 10);
        return 0;
    }
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

/* Gives partition part the SWF partition number, once. */
static int claim_number(struct swf *s, int64_t number, size_t part)
{
    for (size_t k = 0; k < s->n_numbers; k++)
        if (s->numbers[k].number == number)
            return bfs_fail(s->e, BFS_EUSAGE,
                            "--partition-nodes: SWF partition %" PRId64
                            " is both '%s' and '%s'",
                            number, s->parts[s->numbers[k].part].name,
                            s->parts[part].name);
    BFS_GROW(s->numbers, s->cap_numbers, s->n_numbers + 1);
    s->numbers[s->n_numbers++] = (struct part_number){number, part};
    return 0;
}

/* Reads o->partition_nodes into s->parts, resolving each name to its SWF
 * partition numbers (the header's Partition lines), and lays the
 * partitions out: s->part_lo and s->nodes. */
static int setup_partitions(struct swf *s)
{
    int rc;

    if (s->o->machine_nodes > 0)
        return bfs_fail(s->e, BFS_EUSAGE,
                        "give --machine-nodes or --partition-nodes, not both "
                        "(the partitions' counts make the machine)");
    if ((rc = import_partitions_parse(s->o->partition_nodes, &s->parts,
                                      &s->n_parts, s->e)) != 0)
        return rc;
    s->part_lo = xmalloc((s->n_parts + 1) * sizeof *s->part_lo);
    s->nodes = 0;
    for (size_t k = 0; k < s->n_parts; k++) {
        const char *name = s->parts[k].name;
        int64_t number;
        int found = 0;
        s->part_lo[k] = (uint32_t)s->nodes;
        s->nodes += s->parts[k].count;
        if (bfs_parse_i64(name, &number) == 0) {
            if ((rc = claim_number(s, number, k)) != 0)
                return rc;
            continue;
        }
        for (size_t h = 0; h < s->n_hdr; h++)
            if (strcmp(s->hdr[h].name, name) == 0) {
                if ((rc = claim_number(s, s->hdr[h].number, k)) != 0)
                    return rc;
                found = 1;
            }
        if (!found)
            return bfs_fail_at(s->e, BFS_EUSAGE, s->path, 0,
                               "--partition-nodes: '%s' is not a partition "
                               "number, nor a name the header's 'Partition:' "
                               "lines give",
                               name);
    }
    s->part_lo[s->n_parts] = (uint32_t)s->nodes;
    snprintf(s->rep->nodes_from, sizeof s->rep->nodes_from,
             "--partition-nodes");
    s->rep->partitions = s->n_parts;
    return 0;
}

/* The trace header's lines on the partitions (malloc'd, NULL-terminated
 * after line1 and line2; free with import_log_comments_free). */
static char **partition_lines(const struct swf *s, const char *line1,
                              const char *line2)
{
    char **v = xcalloc(s->n_parts + 3, sizeof *v);
    int w = import_log_name_width(s->nodes);

    v[0] = xstrdup(line1);
    v[1] = xstrdup(line2);
    for (size_t k = 0; k < s->n_parts; k++) {
        const struct import_partition *p = &s->parts[k];
        char buf[400];
        snprintf(buf, sizeof buf,
                 "partition %s: nodes n%0*" PRIu32 "..n%0*" PRIu32
                 " (%zu), type %s, %" PRId64 " processors per node",
                 p->name, w, s->part_lo[k], w, s->part_lo[k + 1] - 1, p->count,
                 p->name, p->ppn > 0 ? p->ppn : s->ppn);
        v[k + 2] = xstrdup(buf);
    }
    return v;
}

/* Resolves the machine and opens the writer and the engine. */
static int setup(struct swf *s, const char *out_path,
                 const char *const *comments)
{
    struct import_log_report *r = s->rep;
    const struct import_log_opts *o = s->o;
    char line1[320], line2[160];
    const char *extra[3] = {line1, line2, NULL};
    char **names, **cm, **lines = NULL;
    const char **types = NULL;
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
    if (o->partition_nodes) {
        if ((rc = setup_partitions(s)) != 0)
            return rc;
    } else if (o->machine_nodes > 0) {
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
    if (o->machine_nodes == 0 && !o->partition_nodes && s->nodes > o->max_nodes)
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
    if (s->parts)
        snprintf(line2, sizeof line2,
                 "nodes per job: ceil(allocated processors / the "
                 "partition's processors per node); node i is named n + i "
                 "zero-padded");
    else
        snprintf(line2, sizeof line2,
                 "nodes per job: ceil(allocated processors / %" PRId64
                 "); node i is named n + i zero-padded",
                 s->ppn);
    names = import_log_names(s->nodes);
    if (s->parts) {
        lines = partition_lines(s, line1, line2);
        types = xmalloc(s->nodes * sizeof *types);
        for (size_t k = 0; k < s->n_parts; k++)
            for (uint32_t i = s->part_lo[k]; i < s->part_lo[k + 1]; i++)
                types[i] = s->parts[k].name;
    }
    cm = import_log_comments(comments, "SWF", s->path,
                             lines ? (const char *const *)lines : extra, o);
    rc = import_log_writer_open(out_path, (const char *const *)names, types,
                                s->nodes, (const char *const *)cm, o, s->stats,
                                &s->w, s->e);
    xfree(types);
    import_log_comments_free(lines);
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
    int64_t wait = x->wait, start, end, ppn = s->ppn;
    size_t need, part = 0;
    uint32_t lo = 0, hi = (uint32_t)s->nodes;

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
    if (s->parts) {
        size_t k = 0;
        while (k < s->n_numbers && s->numbers[k].number != x->partition)
            k++;
        if (k == s->n_numbers) {
            r->other_partition++;
            return 0;
        }
        part = s->numbers[k].part;
        lo = s->part_lo[part];
        hi = s->part_lo[part + 1];
        if (s->parts[part].ppn > 0)
            ppn = s->parts[part].ppn;
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
    need = (size_t)((x->procs + ppn - 1) / ppn);
    r->jobs++;
    if (import_log_add_count_in(s->engine, start, end, need, lo, hi) != 0) {
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
    x.partition = v[15];
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
    memset(&stats, 0, sizeof stats);
    memset(&s, 0, sizeof s);
    s.stats = &stats;
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
                goto out;
            continue;
        }
        if (!s.w && (rc = setup(&s, out_path, comments)) != 0)
            goto out;
        if ((rc = job_line(&s, line, bfs_lines_lineno(in))) != 0)
            goto out;
    }
    if (rc < 0)
        goto out;
    r.lines = bfs_lines_lineno(in);
    if (!s.w && (rc = setup(&s, out_path, comments)) != 0)
        goto out;
    if (s.have_held && (rc = convert(&s, &s.held)) != 0)
        goto out;
    rc = import_log_end(s.engine, s.w, &r, &stats, e);
    s.engine = NULL;
    s.w = NULL;
    if (rc)
        goto out;
    r.nodes = s.nodes;
    if (st)
        *st = stats;
    if (rep)
        *rep = r;

out:
    import_log_free(s.engine);
    trace_writer_abort(s.w);
    bfs_lines_close(in);
    for (size_t k = 0; k < s.n_hdr; k++)
        xfree(s.hdr[k].name);
    xfree(s.hdr);
    import_partitions_free(s.parts, s.n_parts);
    xfree(s.part_lo);
    xfree(s.numbers);
    return rc;
}

/* ---- --partition-nodes ------------------------------------------------ */

/* One "NAME=COUNT[:PPN]" item (modified in place) into *p. */
static int parse_partition(char *item, struct import_partition *p,
                           struct bfs_error *e)
{
    char *eq = strrchr(item, '='), *colon;
    int64_t count, ppn = 0;

    if (!eq)
        return bfs_fail(e, BFS_EUSAGE,
                        "--partition-nodes: '%s' is not NAME=COUNT[:PPN]",
                        item);
    *eq = '\0';
    if ((colon = strchr(eq + 1, ':')) != NULL) {
        *colon = '\0';
        if (bfs_parse_i64(colon + 1, &ppn) || ppn < 1 || ppn > (int64_t)1 << 30)
            return bfs_fail(e, BFS_EUSAGE,
                            "--partition-nodes: %s: '%s' is not a number of "
                            "processors per node",
                            item, colon + 1);
    }
    if (!trace_name_ok(item))
        return bfs_fail(e, BFS_EUSAGE,
                        "--partition-nodes: partition name '%s' is empty or "
                        "holds a blank",
                        item);
    if (bfs_parse_i64(eq + 1, &count) || count < 1 || count > (int64_t)1 << 24)
        return bfs_fail(e, BFS_EUSAGE,
                        "--partition-nodes: %s: '%s' is not a node count in "
                        "1..16777216",
                        item, eq + 1);
    p->name = xstrdup(item);
    p->count = (size_t)count;
    p->ppn = ppn;
    return 0;
}

int import_partitions_parse(const char *text, struct import_partition **out,
                            size_t *n, struct bfs_error *e)
{
    char *buf = xstrdup(text), *save = NULL;
    struct import_partition *v = NULL;
    size_t k = 0, cap = 0, total = 0;
    int rc = 0;

    if (*text == '\0' || text[strlen(text) - 1] == ',' || *text == ',' ||
        strstr(text, ",,"))
        rc = bfs_fail(e, BFS_EUSAGE,
                      "--partition-nodes: '%s' has an empty item (expected "
                      "NAME=COUNT[:PPN],...)",
                      text);
    for (char *item = strtok_r(buf, ",", &save); item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        BFS_GROW(v, cap, k + 1);
        if ((rc = parse_partition(item, &v[k], e)) != 0)
            break;
        total += v[k++].count;
        for (size_t j = 0; j + 1 < k; j++)
            if (strcmp(v[j].name, v[k - 1].name) == 0)
                rc = bfs_fail(e, BFS_EUSAGE,
                              "--partition-nodes: partition '%s' is given "
                              "twice",
                              v[j].name);
        if (rc == 0 && total > (size_t)1 << 24)
            rc = bfs_fail(e, BFS_EUSAGE,
                          "--partition-nodes: more than 16777216 nodes in "
                          "all");
    }
    xfree(buf);
    if (rc) {
        import_partitions_free(v, k);
        return rc;
    }
    *out = v;
    *n = k;
    return 0;
}

void import_partitions_free(struct import_partition *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        xfree(p[k].name);
    xfree(p);
}
