/* replay_out.c - what `bfsim replay` writes besides the step log: the
 * per-job CSV, the HDF5 file's attributes and /summary, the JSON summary
 * and the human report. */
#include "config.h"

#include "cli/cmd.h"
#include "cli/replay_out.h"
#include "formats/h5out.h"
#include "formats/jobs.h"
#include "base/util.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void put_time(FILE *f, int64_t t)
{
    char ts[BFS_TIME_LEN];

    if (t >= 0)
        fputs(bfs_time_format(t, ts), f);
    fputc(',', f);
}

int joblog_job(void *arg, const struct replay_jobrec *j)
{
    struct joblog *jl = arg;
    FILE *f = jl->out.fp;

    fprintf(f, "%s,", j->name);
    put_time(f, j->tsub);
    put_time(f, j->admitted);
    put_time(f, j->first_start);
    put_time(f, j->finished);
    if (j->finished >= 0)
        fprintf(f, "%" PRId64, j->finished - j->tsub);
    fprintf(f, ",%.17g,%.17g,%zu,%zu,%.17g,%.17g,%.17g\n", j->samples,
            j->node_seconds, j->rescales, j->preemptions, j->paused_s,
            j->lost_rescale, j->lost_preempt);
    return ferror(f) ? BFS_EIO : 0;
}

int joblog_open(struct joblog *jl, const char *path)
{
    bfs_error_clear(&jl->e);
    if (bfs_out_open(&jl->out, path, &jl->e))
        return -1;
    fputs("job,tsub,admitted,first_start,finished,completion_s,samples,"
          "node_seconds,rescales,preemptions,paused_s,lost_rescale,"
          "lost_preempt\n",
          jl->out.fp);
    return 0;
}

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

/* Root attributes: version, command line, every option, input CRCs. */
int replay_h5_attrs(struct h5out *h, int argc, char **argv,
                    const struct replay_opts *o)
{
    char *cmdline, crc[16];
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
    rc =
        rc ? rc
           : h5out_attr_str(h, "mode",
                            o->mode == REPLAY_COMPAT ? "bftrainer" : "default");
    rc = rc ? rc : h5out_attr_str(h, "allocator", o->alloc.name);
    rc = rc ? rc
            : h5out_attr_str(h, "objective", job_objective_name(o->objective));
    rc = rc ? rc : h5out_attr_str(h, "solver", o->alloc.solver);
    rc = rc ? rc : h5out_attr_str(h, "model", o->alloc.model);
    rc = rc ? rc
            : h5out_attr_str(h, "big_m", o->legacy_cap ? "legacy" : "exact");
    rc = rc ? rc : h5out_attr_double(h, "tfwd", o->tfwd);
    rc = rc ? rc : h5out_attr_double(h, "time_limit", o->alloc.time_limit);
    rc = rc ? rc : h5out_attr_double(h, "gap", o->alloc.gap_rel);
    rc = rc ? rc : h5out_attr_int(h, "max_jobs", o->max_jobs);
    rc = rc ? rc : h5out_attr_int(h, "apply_feasible", o->apply_feasible);
    rc = rc ? rc : h5out_attr_int(h, "node_skip", (int64_t)o->node_skip);
    rc = rc ? rc : h5out_attr_int(h, "node_count", (int64_t)o->node_count);
    if (o->has_start)
        rc = rc ? rc : h5out_attr_int(h, "start", o->start);
    if (o->has_end)
        rc = rc ? rc : h5out_attr_int(h, "end", o->end);
    xfree(cmdline);
    return rc;
}

/* The summary's numbers as attributes of /summary. */
int replay_h5_summary(struct h5out *h, const struct replay_stats *st)
{
    const struct {
        const char *key;
        double v;
    } d[] = {
        {"samples_trained", st->samples_trained},
        {"rescale_cost", st->rescale_cost},
        {"preempt_cost", st->preempt_cost},
        {"idle_node_seconds", st->idle_node_seconds},
        {"allocated_node_seconds", st->allocated_node_seconds},
        {"jct_mean_seconds", st->jct_mean},
        {"jct_median_seconds", st->jct_median},
        {"jct_p95_seconds", st->jct_p95},
        {"fairness_jain", st->fairness},
        {"efficiency", st->efficiency},
        {"solve_seconds_median", st->solve_s_median},
        {"solve_seconds_p95", st->solve_s_p95},
        {"solve_seconds_max", st->solve_s_max},
        {"wall_seconds", st->wall_seconds},
    };
    const struct {
        const char *key;
        int64_t v;
    } n[] = {
        {"events", (int64_t)st->events},
        {"jobs_admitted", (int64_t)st->jobs_admitted},
        {"jobs_finished", (int64_t)st->jobs_finished},
        {"first_time", st->first_time},
        {"last_event_time", st->last_event_time},
        {"makespan_seconds", st->makespan},
        {"rescales", (int64_t)st->rescales},
        {"preemptions", (int64_t)st->preemptions},
        {"solves", (int64_t)st->solves},
    };
    int rc = 0;

    for (size_t i = 0; i < sizeof d / sizeof *d && !rc; i++)
        rc = h5out_summary_double(h, d[i].key, d[i].v);
    for (size_t i = 0; i < sizeof n / sizeof *n && !rc; i++)
        rc = h5out_summary_int(h, n[i].key, n[i].v);
    for (int s = 0; s < SOLVE_N_STATUSES && !rc; s++) {
        char key[64];
        snprintf(key, sizeof key, "solves_%s", solve_status_name(s));
        rc = h5out_summary_int(h, key, (int64_t)st->solves_by_status[s]);
    }
    return rc;
}

static json_t *summary_json(const struct replay_opts *o,
                            const struct replay_stats *st)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    json_t *root, *by = json_object();
    double ratio = st->idle_node_seconds > 0
                       ? st->allocated_node_seconds / st->idle_node_seconds
                       : 0.0;

    for (int s = 0; s < SOLVE_N_STATUSES; s++)
        json_object_set_new(by, solve_status_name(s),
                            json_integer((json_int_t)st->solves_by_status[s]));
    root = json_pack(
        "{s:s, s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:f, s:f, "
        "s:f, s:f, s:f, s:f, s:I, s:I}",
        "bfsim_version", PACKAGE_VERSION, "mode",
        o->mode == REPLAY_COMPAT ? "bftrainer" : "default", "allocator",
        o->alloc.name, "partial", st->partial, "events", (json_int_t)st->events,
        "nodes", (json_int_t)st->trace_nodes, "jobs_total",
        (json_int_t)st->jobs_total, "jobs_admitted",
        (json_int_t)st->jobs_admitted, "jobs_finished",
        (json_int_t)st->jobs_finished, "first_time",
        bfs_time_format(st->first_time, t0), "last_event_time",
        bfs_time_format(st->last_event_time, t1), "samples_trained",
        st->samples_trained, "rescale_cost", st->rescale_cost, "preempt_cost",
        st->preempt_cost, "idle_node_seconds", st->idle_node_seconds,
        "allocated_node_seconds", st->allocated_node_seconds, "harvest_ratio",
        ratio, "rescales", (json_int_t)st->rescales, "preemptions",
        (json_int_t)st->preemptions);
    json_object_set_new(root, "objective",
                        json_string(job_objective_name(o->objective)));
    json_object_set_new(root, "solves", json_integer((json_int_t)st->solves));
    json_object_set_new(root, "solves_by_status", by);
    json_object_set_new(root, "solve_seconds_median",
                        json_real(st->solve_s_median));
    json_object_set_new(root, "solve_seconds_p95", json_real(st->solve_s_p95));
    json_object_set_new(root, "solve_seconds_max", json_real(st->solve_s_max));
    json_object_set_new(root, "jct_mean_seconds", json_real(st->jct_mean));
    json_object_set_new(root, "jct_median_seconds", json_real(st->jct_median));
    json_object_set_new(root, "jct_p95_seconds", json_real(st->jct_p95));
    json_object_set_new(root, "makespan_seconds",
                        json_integer((json_int_t)st->makespan));
    json_object_set_new(root, "fairness_jain", json_real(st->fairness));
    json_object_set_new(root, "efficiency", json_real(st->efficiency));
    json_object_set_new(root, "max_model_rows",
                        json_integer((json_int_t)st->max_rows));
    json_object_set_new(root, "max_model_cols",
                        json_integer((json_int_t)st->max_cols));
    json_object_set_new(root, "max_model_nnz",
                        json_integer((json_int_t)st->max_nnz));
    json_object_set_new(root, "wall_seconds", json_real(st->wall_seconds));
    json_object_set_new(root, "events_per_second",
                        json_real(st->events_per_second));
    json_object_set_new(root, "peak_rss_kib",
                        json_integer((json_int_t)st->peak_rss_kib));
    return root;
}

int replay_write_summary(const char *path, const struct replay_opts *o,
                         const struct replay_stats *st)
{
    struct bfs_error e;
    struct bfs_out out;
    json_t *root = summary_json(o, st);
    int rc;

    bfs_error_clear(&e);
    rc = bfs_out_open(&out, path, &e);
    if (rc == 0) {
        if (json_dumpf(root, out.fp,
                       JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
            fputc('\n', out.fp) == EOF) {
            bfs_out_abort(&out);
            rc = bfs_fail(&e, BFS_EIO, "%s: write error", path);
        } else {
            rc = bfs_out_commit(&out, &e);
        }
    }
    json_decref(root);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}

void replay_print_report(const struct replay_opts *o,
                         const struct replay_stats *st)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    double offered = st->idle_node_seconds / 3600.0;
    double used = st->allocated_node_seconds / 3600.0;

    printf("bfsim replay (%s mode, allocator %s, objective %s)%s\n",
           o->mode == REPLAY_COMPAT ? "bftrainer" : "default", o->alloc.name,
           job_objective_name(o->objective),
           st->partial ? " - INTERRUPTED, partial results" : "");
    printf("  trace            %s (%zu nodes)\n", o->trace_path,
           st->trace_nodes);
    printf("  jobs             %s (%zu jobs)\n", o->jobs_path, st->jobs_total);
    printf("  replayed         %s .. %s, %zu events\n",
           bfs_time_format(st->first_time, t0),
           bfs_time_format(st->last_event_time, t1), st->events);
    printf("  jobs             %zu admitted, %zu finished\n", st->jobs_admitted,
           st->jobs_finished);
    printf(
        "  idle node-hours  %.1f offered, %.1f used (harvest ratio %.1f%%)\n",
        offered, used, offered > 0 ? 100.0 * used / offered : 0.0);
    printf("  samples          %.6g trained, %.6g lost to rescaling, %.6g to "
           "preemption\n",
           st->samples_trained, st->rescale_cost, st->preempt_cost);
    printf("  rescales         %zu, preemptions %zu, efficiency %.1f%%\n",
           st->rescales, st->preemptions, 100.0 * st->efficiency);
    printf("  completion time  mean %.0f s, median %.0f s, p95 %.0f s; "
           "makespan %" PRId64 " s\n",
           st->jct_mean, st->jct_median, st->jct_p95, st->makespan);
    printf("  fairness         %.3f (Jain's index of node shares)\n",
           st->fairness);
    printf("  allocator        %zu calls, solve time median %.3g s, max %.3g "
           "s\n",
           st->solves, st->solve_s_median, st->solve_s_max);
    printf("  wall time        %.2f s (%.0f events/s, peak memory %ld MiB)\n",
           st->wall_seconds, st->events_per_second, st->peak_rss_kib / 1024);
}
