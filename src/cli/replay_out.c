/* replay_out.c - what `bfsim replay` writes besides its sinks' records
 * (formats/records.h): the HDF5 file's attributes and /summary, the JSON
 * summary and the human report. */
#include "config.h"

#include "cli/cmd.h"
#include "cli/replay_out.h"
#include "formats/h5out.h"
#include "formats/jobs.h"
#include "engine/options.h"
#include "formats/summary.h"
#include "base/util.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- the HDF5 file ---------------------------------------------------- */

/* CRC-32 (zlib's) of a file's bytes as 8 hex digits, or "unreadable". */
static void file_crc(const char *path, char out[16])
{
    FILE *f = fopen(path, "rb");
    unsigned char buf[65536];
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t n;

    if (!f) {
        strcpy(out, "unreadable");
        return;
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        crc = crc32(crc, buf, (uInt)n);
    fclose(f);
    snprintf(out, 16, "%08lx", (unsigned long)crc);
}

/* The most values the replay's recorded options write. */
#define N_PARAMS (OPTIONS_MAX_RECORD * 64)

/* Root attributes: version, command line, the inputs and their CRCs,
 * every recorded option (options_record) and the solver's parameters. */
int replay_h5_attrs(struct h5out *h, int argc, char **argv,
                    const struct replay_args *a, const struct replay_opts *o)
{
    struct summary_value v[N_PARAMS];
    char *cmdline, crc[16], params[512];
    size_t len = 1;
    int rc = 0;

    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 3;
    cmdline = xmalloc(len + 8);
    strcpy(cmdline, "bfsim");
    for (int i = 0; i < argc; i++) {
        strcat(cmdline, " ");
        strcat(cmdline, argv[i]);
    }
    rc = rc ? rc : h5out_attr_str(h, "bfsim_version", PACKAGE_VERSION);
    rc = rc ? rc : h5out_attr_str(h, "command_line", cmdline);
    rc = rc ? rc : h5out_attr_str(h, "trace", o->trace_path);
    rc = rc ? rc : h5out_attr_str(h, "jobs", o->jobs_path);
    file_crc(o->trace_path, crc);
    rc = rc ? rc : h5out_attr_str(h, "trace_crc32", crc);
    file_crc(o->jobs_path, crc);
    rc = rc ? rc : h5out_attr_str(h, "jobs_crc32", crc);
    if (o->curves_path) {
        rc = rc ? rc : h5out_attr_str(h, "curves", o->curves_path);
        file_crc(o->curves_path, crc);
        rc = rc ? rc : h5out_attr_str(h, "curves_crc32", crc);
    }
    rc = rc ? rc
            : h5out_attr_values(
                  h, v, options_record(&options_replay, a, v, N_PARAMS));
    /* the replay checked them when it created its allocator */
    if (rc == 0 &&
        alloc_solver_params(&o->alloc, params, sizeof params, NULL) != 0)
        params[0] = '\0';
    rc = rc ? rc : h5out_attr_str(h, "solver_params", params);
    xfree(cmdline);
    return rc;
}

/* The summary's measures as attributes of /summary (the run's
 * description is among the root attributes, those known only after the
 * run too: types_aware and mixed_types, on a trace with node types). */
int replay_h5_summary(struct h5out *h, const struct replay_stats *st)
{
    struct summary_value v[MEASURES_MAX_VALUES];
    int rc = h5out_summary_values(h, v, measures_values(st, v));

    if (rc == 0 && st->n_types > 0)
        rc = h5out_attr_int(h, "types_aware", st->types_aware);
    if (rc == 0 && st->n_types > 0)
        rc = h5out_attr_int(h, "mixed_types", st->mixed_types);
    return rc;
}

int replay_write_summary(FILE *f, const char *path, const struct replay_args *a,
                         const struct replay_stats *st, struct bfs_error *e)
{
    struct summary_value v[MEASURES_MAX_VALUES + N_PARAMS];
    size_t n = measures_values(st, v);

    n += options_record(&options_replay, a, v + n, N_PARAMS);
    return summary_write_json(f, path, v, n, e);
}

/* ---- the human report ------------------------------------------------ */

/* x for a person: a whole number as it is, others whole from 1000, with
 * one decimal from 10, with three significant digits below. */
static void human(char *buf, size_t len, double x)
{
    double a = x < 0 ? -x : x;

    snprintf(buf, len,
             a >= 1000 || (a < 1e15 && x == (double)(int64_t)x) ? "%.0f"
             : a >= 10                                          ? "%.1f"
                                                                : "%.3g",
             x);
}

/* v in the display unit show (measures.h), into buf (size len). */
static void show_value(const struct summary_value *v, const char *show,
                       char *buf, size_t len)
{
    char t[BFS_TIME_LEN], num[64];
    double d = v->type == SUMMARY_REAL ? v->v.d : (double)v->v.i;
    double a = d < 0 ? -d : d;

    if (v->none) {
        snprintf(buf, len, "none");
        return;
    }
    switch (v->type) {
    case SUMMARY_TIME:
        snprintf(buf, len, "%s UTC", bfs_time_format(v->v.i, t));
        return;
    case SUMMARY_BOOL:
        snprintf(buf, len, "%s", v->v.i ? "yes" : "no");
        return;
    case SUMMARY_TEXT:
        snprintf(buf, len, "%s", v->v.s ? v->v.s : "");
        return;
    case SUMMARY_INT:
        if (!*show) {
            snprintf(buf, len, "%" PRId64, v->v.i);
            return;
        }
        break;
    case SUMMARY_REAL:
        break;
    }
    if (strcmp(show, "%") == 0) {
        snprintf(buf, len, "%.1f%%", 100.0 * d);
    } else if (strcmp(show, "index") == 0) {
        snprintf(buf, len, "%.3f", d);
    } else if (strcmp(show, "node-hours") == 0) {
        human(buf, len, d / 3600.0);
    } else if (strcmp(show, "duration") == 0) {
        human(num, sizeof num, a < 120 ? d : a < 7200 ? d / 60.0 : d / 3600.0);
        snprintf(buf, len, "%s %s", num,
                 a < 120    ? "s"
                 : a < 7200 ? "min"
                            : "h");
    } else if (strcmp(show, "samples") == 0) {
        human(num, sizeof num, a >= 1e9 ? d / 1e9 : a >= 1e6 ? d / 1e6 : d);
        snprintf(buf, len, "%s%s", num,
                 a >= 1e9   ? " billion"
                 : a >= 1e6 ? " million"
                            : "");
    } else if (strcmp(show, "MiB") == 0) {
        human(num, sizeof num, d / 1024.0);
        snprintf(buf, len, "%s MiB", num);
    } else {
        human(num, sizeof num, d);
        snprintf(buf, len, "%s%s%s", num, *show ? " " : "", show);
    }
}

/* Prints the report's line of value i: every value of its group and
 * line from i on, each marked in done, less empty texts and the zeros of
 * MEASURE_REPORT_NONZERO rows; nothing when none is left. */
static void print_line(const struct summary_value *v,
                       const struct measure *const *rows, size_t n, size_t i,
                       char *done)
{
    const struct measure *m0 = rows[i];
    size_t parts = 0;

    for (size_t k = i; k < n; k++) {
        char val[256];
        const char *hash;
        if (rows[k]->group != m0->group || strcmp(rows[k]->line, m0->line))
            continue;
        done[k] = 1;
        if (v[k].type == SUMMARY_TEXT && !(v[k].v.s && *v[k].v.s))
            continue;
        if ((rows[k]->flags & MEASURE_REPORT_NONZERO) && !v[k].none &&
            (v[k].type == SUMMARY_REAL ? v[k].v.d == 0 : v[k].v.i == 0))
            continue;
        show_value(&v[k], rows[k]->show, val, sizeof val);
        fputs(parts++ ? ", " : "  ", stdout);
        if (parts == 1)
            printf("%s: ", m0->line);
        if (v[k].group) /* an array's value: its status or type first */
            printf("%s ", v[k].key);
        hash = strchr(rows[k]->label, '#');
        assert(hash != NULL); /* check_measures checks every label */
        printf("%.*s%s%s", (int)(hash - rows[k]->label), rows[k]->label, val,
               hash + 1);
    }
    if (parts)
        putchar('\n');
}

void replay_print_report(const struct replay_opts *o,
                         const struct replay_stats *st)
{
    struct summary_value v[MEASURES_MAX_VALUES];
    const struct measure *rows[MEASURES_MAX_VALUES];
    char done[MEASURES_MAX_VALUES] = {0};
    size_t n = measures_values_rows(st, v, rows);

    printf("bfsim replay (%s mode, allocator %s, objective %s)%s\n", st->mode,
           st->allocator, st->objective,
           st->partial ? " - INTERRUPTED, partial results" : "");
    for (int g = MEASURE_G_HEAD + 1; g < MEASURE_N_GROUPS; g++) {
        printf("%s\n", measure_group_titles[g]);
        if (g == MEASURE_G_REPLAYED) {
            printf("  trace: %s\n", o->trace_path);
            printf("  job set: %s\n", o->jobs_path);
        }
        for (size_t i = 0; i < n; i++)
            if ((int)rows[i]->group == g && !done[i])
                print_line(v, rows, n, i, done);
    }
}

/* "warning: " and the text on stderr, for replay_warnings. */
static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
    va_list ap;

    fputs("bfsim replay: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int replay_warnings(const struct replay_stats *st)
{
    char a[BFS_TIME_LEN], b[BFS_TIME_LEN], c[BFS_TIME_LEN], d[BFS_TIME_LEN];
    int n = 0;

    if (st->solves_unproven > 0) {
        const size_t *k = st->solves_by_status;
        bfs_time_format(st->unproven_first_time, a);
        warn("%zu of %zu allocator calls were not proven optimal (%zu "
             "failed, %zu stopped at the time limit with an answer, %zu "
             "without one, %zu infeasible), the first at event %zu (%s "
             "UTC); %zu answers found at the limit were not applied%s",
             st->solves_unproven, st->solves, k[SOLVE_FAILED],
             k[SOLVE_FEASIBLE], k[SOLVE_NO_SOLUTION], k[SOLVE_INFEASIBLE],
             st->unproven_first_evt, a, st->solves_dropped,
             st->solves_dropped ? " (--apply-feasible applies them in the "
                                  "default mode)"
                                : "");
        n++;
    }
    if (st->partial || st->jobs_total == 0)
        return n;
    if (st->tsub_first > st->last_event_time ||
        st->tsub_last < st->first_time) {
        bfs_time_format(st->tsub_first, a);
        bfs_time_format(st->tsub_last, b);
        bfs_time_format(st->first_time, c);
        bfs_time_format(st->last_event_time, d);
        warn("the job set's submissions (%s .. %s UTC) lie %s the replayed "
             "window (%s .. %s UTC); --align-jobs shifts them to its start",
             a, b, st->tsub_first > st->last_event_time ? "after" : "before", c,
             d);
        n++;
    }
    if (st->jobs_admitted == 0) {
        warn("no job was admitted: every measure of the jobs is empty");
        n++;
    } else if (st->jobs_finished == 0) {
        warn("no job finished: the completion measures (jct_*, makespan) are "
             "none");
        n++;
    }
    return n;
}
