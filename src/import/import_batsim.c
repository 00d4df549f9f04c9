/* import_batsim.c - Batsim's jobs.csv and external events to native
 * traces (see the Batsim block of import.h for the rules).
 *
 * Both inputs are read whole into one list of busy intervals, each with
 * its ids in a shared pool: a job row is one interval on its allocated
 * resources; the events, sorted by time, become one interval per node and
 * unavailability period.  Only then is the machine's size known (the
 * largest id, unless given), and the trace writer and the job-log engine
 * (import_log.c) are set up and handed every interval; the engine nets
 * the changes per node and second (a node busy because of a job and of
 * an unavailability at once stays busy until both end).
 */
#include "config.h"

#include "formats/hostlist.h"
#include "import/import.h"
#include "import/import_log.h"
#include "import/import_sim.h"
#include "formats/trace.h"
#include "base/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A busy interval on pool[off .. off+n-1]. */
struct interval {
    int64_t start, end;
    size_t off, n;
};

/* A machine event, before sorting. */
struct event {
    int64_t t;
    size_t line;
    int available; /* 0: machine_unavailable */
    size_t off, n; /* its ids in the pool */
};

struct bat {
    const struct import_log_opts *o;
    struct import_batsim_report *r;
    struct bfs_error *e;
    uint32_t limit;       /* ids must be below */
    char limit_what[128]; /* for the parser's message */
    struct interval *iv;
    size_t n_iv, cap_iv;
    uint32_t *pool;
    size_t n_pool, cap_pool;
    struct event *ev;
    size_t n_ev, cap_ev;
    uint32_t *ids; /* scratch for the parser */
    size_t cap_ids;
    uint32_t max_id;
    int any_id;
};

/* Parses the interval set s into the pool; *off and *n locate it. */
static int take_ids(struct bat *b, const char *s, const char *path, size_t line,
                    size_t *off, size_t *n)
{
    size_t k;
    int rc = hostlist_ids_parse(s, b->limit, b->limit_what, &b->ids, &k,
                                &b->cap_ids, path, line, b->e);

    if (rc)
        return rc;
    BFS_GROW(b->pool, b->cap_pool, b->n_pool + k + 1);
    if (k > 0)
        memcpy(b->pool + b->n_pool, b->ids, k * sizeof *b->ids);
    *off = b->n_pool;
    *n = k;
    b->n_pool += k;
    if (k && (!b->any_id || b->ids[k - 1] > b->max_id)) {
        b->max_id = b->ids[k - 1];
        b->any_id = 1;
    }
    return 0;
}

/* A simulation time in seconds (>= 0) as Unix seconds, rounded; the
 * latest one so far in r->last. */
static int sim_time(struct bat *b, double d, const char *what, const char *text,
                    const char *path, size_t line, int64_t *out)
{
    int rc =
        import_sim_time(b->o->origin, d, what, text, path, line, out, b->e);

    if (rc == 0 && *out > b->r->last)
        b->r->last = *out;
    return rc;
}

static void push_interval(struct bat *b, int64_t start, int64_t end, size_t off,
                          size_t n)
{
    BFS_GROW(b->iv, b->cap_iv, b->n_iv + 1);
    b->iv[b->n_iv++] = (struct interval){start, end, off, n};
}

/* ---- jobs.csv ------------------------------------------------------ */

/* Header columns bfsim uses; -1 when absent. */
enum { C_ID, C_STATE, C_START, C_FINISH, C_ALLOC, N_COLS };
static const char *const col_names[N_COLS] = {"job_id", "final_state",
                                              "starting_time", "finish_time",
                                              "allocated_resources"};

/* A time field of a job row; the latest one so far in r->last. */
static int row_time(struct bat *b, const char *f, const char *what,
                    const char *path, size_t line, int64_t *out)
{
    int rc =
        import_sim_time_field(b->o->origin, f, what, path, line, out, b->e);

    if (rc == 0 && *out > b->r->last)
        b->r->last = *out;
    return rc;
}

/* Most fields a jobs.csv line may have (Batsim writes 17). */
#define MAX_FIELDS 256

static int job_row(struct bat *b, char **f, size_t nf, const int *cols,
                   const char *path, size_t ln)
{
    const char *id = cols[C_ID] >= 0 ? bfs_trim(f[cols[C_ID]]) : "?";
    const char *st = cols[C_STATE] >= 0 ? bfs_trim(f[cols[C_STATE]]) : "";
    char *fs = bfs_trim(f[cols[C_START]]), *ff = bfs_trim(f[cols[C_FINISH]]);
    char *alloc = bfs_trim(f[cols[C_ALLOC]]);
    int64_t start, finish;
    size_t off, n;
    int rc;

    (void)nf;
    b->r->rows++;
    if (strcmp(st, "REJECTED") == 0 || *fs == '\0' || *alloc == '\0') {
        b->r->not_run++;
        return 0;
    }
    if ((rc = row_time(b, fs, "starting_time", path, ln, &start)) != 0 ||
        (rc = row_time(b, ff, "finish_time", path, ln, &finish)) != 0)
        return rc;
    if (finish < start)
        return bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                           "job %.60s finishes (finish_time %s) before it "
                           "starts (starting_time %s)",
                           id, ff, fs);
    if ((rc = take_ids(b, alloc, path, ln, &off, &n)) != 0)
        return rc;
    if (n == 0) { /* blanks only */
        b->r->not_run++;
        return 0;
    }
    if (finish == start) {
        b->r->zero_run++;
        return 0;
    }
    b->r->jobs++;
    push_interval(b, start, finish, off, n);
    return 0;
}

static int read_jobs(struct bat *b, const char *path)
{
    struct bfs_lines *in = NULL;
    char *f[MAX_FIELDS], *line;
    size_t n_head = 0, nf;
    int cols[N_COLS], last_metadata = 0, rc;

    if ((rc = bfs_lines_open(path, &in, b->e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, b->e)) == 1) {
        size_t ln = bfs_lines_lineno(in);

        if (*bfs_trim(line) == '\0')
            continue;
        if ((rc = import_sim_csv_split(line, f, MAX_FIELDS, &nf, path, ln,
                                       b->e)) != 0)
            break;
        if (n_head == 0) {
            n_head = nf;
            import_sim_csv_header(f, nf, col_names, N_COLS, cols);
            last_metadata = strcasecmp(bfs_trim(f[nf - 1]), "metadata") == 0;
            for (int c = C_START; c < N_COLS; c++)
                if (cols[c] < 0) {
                    rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                                     "no column %s in the header (a Batsim "
                                     "jobs.csv names starting_time, "
                                     "finish_time and allocated_resources)",
                                     col_names[c]);
                    goto done;
                }
            continue;
        }
        if (nf < n_head || (nf > n_head && !last_metadata)) {
            rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                             "%zu fields, but the header has %zu", nf, n_head);
            break;
        }
        if ((rc = job_row(b, f, nf, cols, path, ln)) != 0)
            break;
    }
    if (rc == 0 && n_head == 0)
        rc = bfs_fail_at(b->e, BFS_EPARSE, path, 0,
                         "empty file: no jobs.csv header");
done:
    bfs_lines_close(in);
    return rc < 0 ? rc : 0;
}

/* ---- external events ----------------------------------------------- */

/* The machine event in object o ("type" and "resources"), if it is one:
 * returns 1 and sets *available and *res; 0 when o's type is another. */
static int machine_event(json_t *o, int *available, const char **res)
{
    const char *type = json_string_value(json_object_get(o, "type"));

    if (!type)
        return 0;
    if (strcmp(type, "machine_unavailable") == 0)
        *available = 0;
    else if (strcmp(type, "machine_available") == 0)
        *available = 1;
    else
        return 0;
    *res = json_string_value(json_object_get(o, "resources"));
    return 1;
}

static int event_line(struct bat *b, const char *line, const char *path,
                      size_t ln)
{
    json_error_t jerr;
    json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *inner = NULL;
    json_t *ts;
    const char *type, *res = NULL;
    char tbuf[64];
    int available = 0, rc = 0;
    struct event ev;

    if (!o)
        return bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                           "not a JSON object: %s (column %d)", jerr.text,
                           jerr.column);
    b->r->events++;
    if (!json_is_object(o)) {
        rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                         "an event is a JSON object");
        goto done;
    }
    type = json_string_value(json_object_get(o, "type"));
    ts = json_object_get(o, "timestamp");
    if (!type || !json_is_number(ts)) {
        rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                         "an event needs a string \"type\" and a number "
                         "\"timestamp\"");
        goto done;
    }
    /* Every event's time counts towards the input's latest time, an
     * ignored one too: Batsim's simulation runs until then. */
    snprintf(tbuf, sizeof tbuf, "%.17g", json_number_value(ts));
    if ((rc = sim_time(b, json_number_value(ts), "timestamp", tbuf, path, ln,
                       &ev.t)) != 0)
        goto done;
    if (strcmp(type, "generic") == 0) {
        const char *data = json_string_value(json_object_get(o, "data"));
        inner = data ? json_loads(data, JSON_REJECT_DUPLICATES, NULL) : NULL;
        if (!inner || !json_is_object(inner) ||
            !machine_event(inner, &available, &res)) {
            b->r->ignored++;
            goto done;
        }
    } else if (!machine_event(o, &available, &res)) {
        rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                         "unknown event type '%.60s' (bfsim reads "
                         "machine_unavailable, machine_available and "
                         "generic)",
                         type);
        goto done;
    }
    if (!res) {
        rc = bfs_fail_at(b->e, BFS_EPARSE, path, ln,
                         "a %s event needs a string \"resources\"",
                         available ? "machine_available"
                                   : "machine_unavailable");
        goto done;
    }
    if ((rc = take_ids(b, res, path, ln, &ev.off, &ev.n)) != 0)
        goto done;
    ev.line = ln;
    ev.available = available;
    if (available)
        b->r->available++;
    else
        b->r->unavailable++;
    BFS_GROW(b->ev, b->cap_ev, b->n_ev + 1);
    b->ev[b->n_ev++] = ev;
done:
    json_decref(inner);
    json_decref(o);
    return rc;
}

static int read_events(struct bat *b, const char *path)
{
    struct bfs_lines *in = NULL;
    char *line;
    int rc;

    if ((rc = bfs_lines_open(path, &in, b->e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, b->e)) == 1) {
        if (*bfs_trim(line) == '\0')
            continue;
        if ((rc = event_line(b, line, path, bfs_lines_lineno(in))) != 0)
            break;
    }
    bfs_lines_close(in);
    return rc < 0 ? rc : 0;
}

static int event_cmp(const void *x, const void *y)
{
    const struct event *a = x, *b = y;

    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Turns the events, in time order, into one interval per node and
 * unavailability period, up to end for the periods left open. */
static void events_to_intervals(struct bat *b, size_t nodes, int64_t end)
{
    int64_t *since = xmalloc((nodes + 1) * sizeof *since);

    for (size_t i = 0; i < nodes; i++)
        since[i] = IMPORT_TIME_NONE;
    if (b->n_ev > 0)
        qsort(b->ev, b->n_ev, sizeof *b->ev, event_cmp);
    for (size_t k = 0; k < b->n_ev; k++) {
        const struct event *ev = &b->ev[k];
        for (size_t j = 0; j < ev->n; j++) {
            uint32_t i = b->pool[ev->off + j];
            if (!ev->available && since[i] == IMPORT_TIME_NONE) {
                since[i] = ev->t;
            } else if (ev->available && since[i] != IMPORT_TIME_NONE) {
                if (ev->t > since[i]) {
                    BFS_GROW(b->pool, b->cap_pool, b->n_pool + 1);
                    b->pool[b->n_pool] = i;
                    push_interval(b, since[i], ev->t, b->n_pool++, 1);
                    b->r->periods++;
                }
                since[i] = IMPORT_TIME_NONE;
            }
        }
    }
    for (size_t i = 0; i < nodes; i++)
        if (since[i] != IMPORT_TIME_NONE) {
            b->r->open_at_end++;
            if (end > since[i]) {
                BFS_GROW(b->pool, b->cap_pool, b->n_pool + 1);
                b->pool[b->n_pool] = (uint32_t)i;
                push_interval(b, since[i], end, b->n_pool++, 1);
                b->r->periods++;
            }
        }
    xfree(since);
}

/* ---- the conversion ------------------------------------------------ */

/* The trace header's comment lines (NULL-terminated, malloc'd). */
static char **header(const char *const *comments, const char *jobs_csv,
                     const char *events, const struct import_log_opts *o,
                     const struct import_batsim_report *r)
{
    char src_jobs[1024], src_events[1024], machine[256];
    const char *own[4];
    size_t k = 0;

    if (jobs_csv) {
        snprintf(src_jobs, sizeof src_jobs, "source: Batsim jobs.csv %s",
                 jobs_csv);
        own[k++] = src_jobs;
    }
    if (events) {
        snprintf(src_events, sizeof src_events,
                 "source: Batsim external events %s", events);
        own[k++] = src_events;
    }
    snprintf(machine, sizeof machine,
             "machine: %zu nodes (%s); node i is Batsim resource i",
             r->log.nodes, r->log.nodes_from);
    own[k++] = machine;
    own[k] = NULL;
    return import_sim_comments(comments, own, o);
}

int import_batsim(const char *jobs_csv, const char *events,
                  const char *out_path, const char *const *comments,
                  const struct import_log_opts *o, struct import_stats *st,
                  struct import_batsim_report *rep, struct bfs_error *e)
{
    struct import_batsim_report r;
    struct import_log_opts wo = *o;
    struct import_stats stats;
    struct trace_writer *w = NULL;
    struct import_log *engine = NULL;
    const char *in = jobs_csv ? jobs_csv : events;
    struct bat b;
    size_t nodes;
    int64_t end;
    char **names, **cm;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&stats, 0, sizeof stats);
    memset(&b, 0, sizeof b);
    snprintf(r.log.format, sizeof r.log.format, "batsim");
    r.origin = o->origin;
    r.last = o->origin;
    b.o = o;
    b.r = &r;
    b.e = e;
    if (!jobs_csv && !events)
        return bfs_fail(e, BFS_EINVAL, "no Batsim input given");
    if (wo.start == IMPORT_TIME_NONE)
        wo.start = o->origin;
    if ((rc = import_log_check_opts(&wo, e)) != 0)
        return rc;
    if (o->machine_nodes > 0) {
        b.limit = o->machine_nodes > UINT32_MAX ? UINT32_MAX
                                                : (uint32_t)o->machine_nodes;
        snprintf(b.limit_what, sizeof b.limit_what,
                 "the machine's %zu nodes (--machine-nodes)", o->machine_nodes);
    } else {
        b.limit =
            o->max_nodes > UINT32_MAX ? UINT32_MAX : (uint32_t)o->max_nodes;
        snprintf(b.limit_what, sizeof b.limit_what,
                 "--max-nodes %zu (give the machine's size with "
                 "--machine-nodes)",
                 o->max_nodes);
    }
    if (jobs_csv && (rc = read_jobs(&b, jobs_csv)) != 0)
        goto fail;
    if (events && (rc = read_events(&b, events)) != 0)
        goto fail;

    if (o->machine_nodes > 0) {
        nodes = o->machine_nodes;
        snprintf(r.log.nodes_from, sizeof r.log.nodes_from, "--machine-nodes");
    } else if (b.any_id) {
        nodes = (size_t)b.max_id + 1;
        snprintf(r.log.nodes_from, sizeof r.log.nodes_from,
                 "largest resource id + 1");
    } else {
        rc = bfs_fail_at(e, BFS_EINVAL, in, 0,
                         "no job ran and no machine was unavailable: "
                         "nothing to convert");
        goto fail;
    }
    r.log.nodes = nodes;
    end = o->end != IMPORT_TIME_NONE ? o->end : r.last;
    events_to_intervals(&b, nodes, end);
    if (b.n_iv == 0 && o->end == IMPORT_TIME_NONE) {
        rc = bfs_fail_at(e, BFS_EINVAL, in, 0,
                         "no job ran and no machine was unavailable for a "
                         "second: nothing to convert (give --end for an "
                         "idle trace)");
        goto fail;
    }

    names = import_log_names(nodes);
    cm = header(comments, jobs_csv, events, &wo, &r);
    rc = import_sim_open(out_path, (const char *const *)names, nodes, cm, &wo,
                         r.last, in, &stats, &w, &engine, e);
    import_log_names_free(names, nodes);
    if (rc)
        goto fail;
    for (size_t k = 0; k < b.n_iv; k++)
        if ((rc = import_log_add_nodes(engine, b.iv[k].start, b.iv[k].end,
                                       b.pool + b.iv[k].off, b.iv[k].n)) != 0) {
            rc = bfs_fail_at(e, rc, in, 0, "internal: interval out of order");
            goto fail;
        }
    rc = import_log_end(engine, w, &r.log, &stats, e);
    engine = NULL;
    w = NULL;
    if (rc)
        goto fail;
    r.log.nodes = nodes;
    r.log.jobs = r.jobs + r.periods;
    if (st)
        *st = stats;
    if (rep)
        *rep = r;
fail:
    import_log_free(engine);
    trace_writer_abort(w);
    xfree(b.iv);
    xfree(b.pool);
    xfree(b.ev);
    xfree(b.ids);
    return rc;
}

void import_batsim_report_write(const struct import_batsim_report *r, FILE *f)
{
    if (r->rows || r->jobs || r->not_run)
        fprintf(f,
                "bfsim: batsim jobs.csv: %zu rows, %zu jobs converted; "
                "skipped: %zu never ran, %zu ran 0 s\n",
                r->rows, r->jobs, r->not_run, r->zero_run);
    if (r->events)
        fprintf(f,
                "bfsim: batsim events: %zu lines, %zu machine_unavailable, "
                "%zu machine_available, %zu generic ignored; %zu node "
                "unavailability periods, %zu nodes still unavailable at the "
                "end\n",
                r->events, r->unavailable, r->available, r->ignored, r->periods,
                r->open_at_end);
    import_sim_report_end(&r->log, r->origin, f);
}

int import_batsim_warnings(const struct import_batsim_report *r, FILE *f)
{
    int n = 0;

    if (strcmp(r->log.nodes_from, "--machine-nodes") != 0) {
        fprintf(f,
                "bfsim: warning: the machine's size was taken as the largest "
                "resource id + 1 (%zu nodes); nodes above it that no job used "
                "are missing: give --machine-nodes (Batsim's schedule.csv "
                "has it as nb_computing_machines)\n",
                r->log.nodes);
        n++;
    }
    return n + import_log_warnings(&r->log, f);
}
