/* import_elastisim.c - ElastiSim's node-utilization output to native
 * traces (see the ElastiSim block of import.h for the rules).
 *
 * One pass over the rows, which come in time order: node names go into
 * an index in order of first appearance, and each node's busy period
 * (allocated or reserved) is kept open from the row that makes it busy to
 * the row that frees it, then stored as an interval.  At the end the
 * periods still open are closed at the trace's end, and the trace writer
 * and the job-log engine (import_log.c) take the names and every
 * interval.  Memory: the nodes and their busy periods.
 */
#include "config.h"

#include "formats/hostlist.h"
#include "import/import.h"
#include "import/import_log.h"
#include "import/import_sim.h"
#include "formats/trace.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most fields a row may have (ElastiSim writes 5). */
#define ES_MAX_FIELDS 64

struct period {
    int64_t start, end;
    uint32_t node;
};

struct es {
    const char *path;
    const struct import_log_opts *o;
    struct import_elastisim_report *r;
    struct bfs_error *e;
    struct hostlist names; /* in order of first appearance */
    struct hostlist_index *ix;
    int64_t *since; /* per node: busy since, or IMPORT_TIME_NONE */
    size_t cap_since;
    struct period *p;
    size_t n_p, cap_p;
};

static void push_period(struct es *s, int64_t start, int64_t end, size_t node)
{
    BFS_GROW(s->p, s->cap_p, s->n_p + 1);
    s->p[s->n_p++] = (struct period){start, end, (uint32_t)node};
    s->r->periods++;
}

/* The node named name in *out, added when new.  Returns 0, or
 * BFS_EPARSE (a blank in the name) or BFS_ERANGE (too many nodes). */
static int node_of(struct es *s, const char *name, size_t ln, size_t *out)
{
    size_t i = hostlist_index_find(s->ix, name);

    if (i != (size_t)-1) {
        *out = i;
        return 0;
    }
    if (*name == '\0' || strpbrk(name, " \t"))
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, ln,
                           "node name '%.60s' is empty or holds a blank", name);
    if (s->names.n >= s->o->max_nodes)
        return bfs_fail_at(s->e, BFS_ERANGE, s->path, ln,
                           "more than --max-nodes %zu distinct nodes",
                           s->o->max_nodes);
    i = s->names.n;
    hostlist_push(&s->names, name);
    hostlist_index_add(s->ix, name, i);
    BFS_GROW(s->since, s->cap_since, i + 1);
    s->since[i] = IMPORT_TIME_NONE;
    *out = i;
    return 0;
}

enum { C_TIME, C_NODE, C_STATE, N_COLS };
static const char *const col_names[N_COLS] = {"Time", "Node", "State"};

static int row(struct es *s, char **f, const int *cols, size_t ln,
               int64_t *prev)
{
    char *tf = bfs_trim(f[cols[C_TIME]]);
    char *state = bfs_trim(f[cols[C_STATE]]);
    int64_t t;
    size_t i = 0;
    int busy, rc;

    s->r->rows++;
    if ((rc = import_sim_time_field(s->o->origin, tf, "Time", s->path, ln, &t,
                                    s->e)) != 0)
        return rc;
    if (t < *prev)
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, ln,
                           "Time %s is before the previous row's: ElastiSim "
                           "writes the rows in time order",
                           tf);
    *prev = t;
    if (t > s->r->last)
        s->r->last = t;
    if (strcasecmp(state, "free") == 0) {
        busy = 0;
        s->r->free_rows++;
    } else if (strcasecmp(state, "allocated") == 0) {
        busy = 1;
        s->r->allocated++;
    } else if (strcasecmp(state, "reserved") == 0) {
        busy = 1;
        s->r->reserved++;
    } else {
        return bfs_fail_at(s->e, BFS_EPARSE, s->path, ln,
                           "unknown State '%.40s' (free, allocated or "
                           "reserved)",
                           state);
    }
    if ((rc = node_of(s, bfs_trim(f[cols[C_NODE]]), ln, &i)) != 0)
        return rc;
    if (busy && s->since[i] == IMPORT_TIME_NONE) {
        s->since[i] = t;
    } else if (!busy && s->since[i] != IMPORT_TIME_NONE) {
        if (t > s->since[i])
            push_period(s, s->since[i], t, i);
        s->since[i] = IMPORT_TIME_NONE;
    }
    return 0;
}

static int read_rows(struct es *s)
{
    struct bfs_lines *in = NULL;
    char *f[ES_MAX_FIELDS], *line;
    size_t n_head = 0, nf;
    int cols[N_COLS], rc;
    int64_t prev = INT64_MIN;

    if ((rc = bfs_lines_open(s->path, &in, s->e)) != 0)
        return rc;
    while ((rc = bfs_lines_next(in, &line, s->e)) == 1) {
        size_t ln = bfs_lines_lineno(in);

        if (*bfs_trim(line) == '\0')
            continue;
        if ((rc = import_sim_csv_split(line, f, ES_MAX_FIELDS, &nf, s->path, ln,
                                       s->e)) != 0)
            break;
        if (n_head == 0) {
            n_head = nf;
            import_sim_csv_header(f, nf, col_names, N_COLS, cols);
            for (int c = 0; c < N_COLS; c++)
                if (cols[c] < 0) {
                    rc = bfs_fail_at(s->e, BFS_EPARSE, s->path, ln,
                                     "no column %s in the header (ElastiSim's "
                                     "node utilization has Time, Node, State, "
                                     "Running jobs, Expected jobs)",
                                     col_names[c]);
                    goto done;
                }
            continue;
        }
        if (nf != n_head) {
            rc = bfs_fail_at(s->e, BFS_EPARSE, s->path, ln,
                             "%zu fields, but the header has %zu", nf, n_head);
            break;
        }
        if ((rc = row(s, f, cols, ln, &prev)) != 0)
            break;
    }
    if (rc == 0 && n_head == 0)
        rc = bfs_fail_at(s->e, BFS_EPARSE, s->path, 0, "empty file: no header");
done:
    bfs_lines_close(in);
    return rc < 0 ? rc : 0;
}

/* The trace header's comment lines (NULL-terminated, malloc'd). */
static char **header(const char *const *comments, const char *path,
                     const struct import_log_opts *o, size_t nodes)
{
    char source[1024], machine[256];
    const char *own[] = {source, machine, NULL};

    snprintf(source, sizeof source, "source: ElastiSim node utilization %s",
             path);
    snprintf(machine, sizeof machine,
             "machine: the %zu nodes named, in order of first appearance; "
             "busy when allocated or reserved",
             nodes);
    return import_sim_comments(comments, own, o);
}

int import_elastisim(const char *src, const char *out_path,
                     const char *const *comments,
                     const struct import_log_opts *o, struct import_stats *st,
                     struct import_elastisim_report *rep, struct bfs_error *e)
{
    struct import_elastisim_report r;
    struct import_log_opts wo = *o;
    struct import_stats stats;
    struct trace_writer *w = NULL;
    struct import_log *engine = NULL;
    struct es s;
    char **cm;
    int64_t end;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&stats, 0, sizeof stats);
    memset(&s, 0, sizeof s);
    snprintf(r.log.format, sizeof r.log.format, "esim");
    r.origin = o->origin;
    r.last = o->origin;
    s.path = src;
    s.o = o;
    s.r = &r;
    s.e = e;
    hostlist_init(&s.names);
    s.ix = hostlist_index_new();
    if (wo.start == IMPORT_TIME_NONE)
        wo.start = o->origin;
    if ((rc = import_log_check_opts(&wo, e)) != 0)
        goto fail;
    if ((rc = read_rows(&s)) != 0)
        goto fail;
    if (s.names.n == 0) {
        rc = bfs_fail_at(e, BFS_EINVAL, src, 0, "no node: nothing to convert");
        goto fail;
    }
    end = o->end != IMPORT_TIME_NONE ? o->end : r.last;
    for (size_t i = 0; i < s.names.n; i++)
        if (s.since[i] != IMPORT_TIME_NONE) {
            r.open_at_end++;
            if (end > s.since[i])
                push_period(&s, s.since[i], end, i);
        }
    if (s.n_p == 0 && o->end == IMPORT_TIME_NONE && r.last <= wo.start) {
        rc = bfs_fail_at(e, BFS_EINVAL, src, 0,
                         "every row is at simulation time 0 and no node is "
                         "busy: nothing to convert (give --end for an idle "
                         "trace)");
        goto fail;
    }
    cm = header(comments, src, &wo, s.names.n);
    rc =
        import_sim_open(out_path, (const char *const *)s.names.names, s.names.n,
                        cm, &wo, r.last, src, &stats, &w, &engine, e);
    if (rc)
        goto fail;
    for (size_t k = 0; k < s.n_p; k++)
        if ((rc = import_log_add_nodes(engine, s.p[k].start, s.p[k].end,
                                       &s.p[k].node, 1)) != 0) {
            rc = bfs_fail_at(e, rc, src, 0, "internal: period out of order");
            goto fail;
        }
    rc = import_log_end(engine, w, &r.log, &stats, e);
    engine = NULL;
    w = NULL;
    if (rc)
        goto fail;
    r.log.nodes = s.names.n;
    snprintf(r.log.nodes_from, sizeof r.log.nodes_from, "the nodes named");
    r.log.jobs = r.periods;
    if (st)
        *st = stats;
    if (rep)
        *rep = r;
fail:
    import_log_free(engine);
    trace_writer_abort(w);
    hostlist_index_free(s.ix);
    hostlist_release(&s.names);
    xfree(s.since);
    xfree(s.p);
    return rc;
}

void import_elastisim_report_write(const struct import_elastisim_report *r,
                                   FILE *f)
{
    fprintf(f,
            "bfsim: elastisim: %zu rows (%zu free, %zu allocated, %zu "
            "reserved); %zu busy periods, %zu nodes busy at the end\n",
            r->rows, r->free_rows, r->allocated, r->reserved, r->periods,
            r->open_at_end);
    import_sim_report_end(&r->log, r->origin, f);
}
