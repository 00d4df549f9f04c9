/* import_sim.c - what the Batsim and ElastiSim importers share (see
 * import_sim.h).
 *
 * Small pieces with no state: each importer keeps its own reading loop
 * and policy (which columns it needs, what a row means), and calls these
 * for the parts whose rules and messages are the same in both.
 */
#include "config.h"

#include "import/import_sim.h"
#include "import/import_log.h"
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int import_sim_time(int64_t origin, double d, const char *what,
                    const char *text, const char *path, size_t line,
                    int64_t *out, struct bfs_error *e)
{
    int64_t t;

    if (d < 0 || d > IMPORT_SIM_MAX_TIME)
        return bfs_fail_at(e, BFS_ERANGE, path, line,
                           "%s %s is out of range (simulation seconds "
                           "0..2^40)",
                           what, text);
    t = origin + (int64_t)llround(d);
    if (t > BFS_TIME_MAX)
        return bfs_fail_at(e, BFS_ERANGE, path, line,
                           "%s %s is after the year 9999 with --origin", what,
                           text);
    *out = t;
    return 0;
}

int import_sim_time_field(int64_t origin, const char *text, const char *what,
                          const char *path, size_t line, int64_t *out,
                          struct bfs_error *e)
{
    double d;

    if (bfs_parse_double(text, &d) != 0)
        return bfs_fail_at(e, BFS_EPARSE, path, line,
                           "%s is not a number: '%.40s'", what, text);
    return import_sim_time(origin, d, what, text, path, line, out, e);
}

int import_sim_csv_split(char *line, char **f, size_t max, size_t *nf,
                         const char *path, size_t line_no, struct bfs_error *e)
{
    size_t col;

    if (bfs_csv_split(line, ',', f, max, nf, &col) != 0)
        return bfs_fail_at(e, BFS_EPARSE, path, line_no,
                           "unterminated quote, or text after a closing "
                           "quote, at column %zu",
                           col);
    if (*nf > max)
        return bfs_fail_at(e, BFS_EPARSE, path, line_no,
                           "%zu fields, more than %zu", *nf, max);
    return 0;
}

void import_sim_csv_header(char **f, size_t nf, const char *const *names, int n,
                           int *cols)
{
    for (int c = 0; c < n; c++)
        cols[c] = -1;
    for (size_t k = 0; k < nf; k++)
        for (int c = 0; c < n; c++)
            if (cols[c] < 0 && strcasecmp(bfs_trim(f[k]), names[c]) == 0)
                cols[c] = (int)k;
}

char **import_sim_comments(const char *const *comments, const char *const *own,
                           const struct import_log_opts *o)
{
    size_t k = 0;
    char **c = xcalloc(import_log_comments_count(comments) +
                           import_log_comments_count(own) + 5,
                       sizeof *c);
    char t0[BFS_TIME_LEN];

    import_log_comments_add(c, &k, comments);
    import_log_comments_add(c, &k, own);
    c[k++] = xasprintf("simulation time 0 = %s UTC (--origin); times rounded "
                       "to the second",
                       bfs_time_format(o->origin, t0));
    /* o's start is set: simulation time 0 unless given */
    c[k++] = import_log_window_comment(o, "simulation time 0",
                                       "latest time in the input");
    if ((c[k] = import_log_outage_comment(o, NULL)) != NULL)
        k++;
    if ((c[k] = import_log_types_comment(o)) != NULL)
        k++;
    c[k] = NULL;
    return c;
}

void import_sim_report_end(const struct import_log_report *log, int64_t origin,
                           FILE *f)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];

    fprintf(f, "bfsim: machine: %zu nodes (%s); simulation time 0 = %s UTC\n",
            log->nodes, log->nodes_from, bfs_time_format(origin, t0));
    fprintf(f, "bfsim: trace %s .. %s UTC: %.1f idle node-hours offered\n",
            bfs_time_format(log->start, t0), bfs_time_format(log->end, t1),
            (double)log->idle_node_s / 3600.0);
    if (log->outage_threshold > 0.0)
        fprintf(f,
                "bfsim: outages: %zu periods not offered, %.1f idle "
                "node-hours removed\n",
                log->outages, (double)log->outage_node_s / 3600.0);
}

void import_sim_default_end(struct import_log_opts *o, int64_t last)
{
    if (o->end == IMPORT_TIME_NONE && last > o->start)
        o->end = last;
}

int import_sim_open(const char *path, const char *const *names, size_t n,
                    char **cm, struct import_log_opts *wo, int64_t last,
                    const char *in, struct import_stats *st,
                    struct trace_writer **w, struct import_log **engine,
                    struct bfs_error *e)
{
    int rc = import_log_writer_open(path, names, NULL, n,
                                    (const char *const *)cm, wo, st, w, e);

    import_log_comments_free(cm);
    if (rc)
        return rc;
    import_sim_default_end(wo, last);
    *engine = import_log_new(wo, n, *w, in);
    return 0;
}
