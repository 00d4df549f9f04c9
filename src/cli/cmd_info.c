/* cmd_info.c - `bfsim info`: statistics of a native trace, as text or
 * JSON.  Parsing and printing only; the numbers come from traceinfo.c.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "import/sniff.h"
#include "formats/traceinfo.h"
#include "base/out.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A duration for people: "45s", "7m55s", "3h02m", "2d03h". */
static const char *human(int64_t s, char *buf, size_t size)
{
    if (s < 60)
        snprintf(buf, size, "%" PRId64 "s", s);
    else if (s < 3600)
        snprintf(buf, size, "%" PRId64 "m%02" PRId64 "s", s / 60, s % 60);
    else if (s < 86400)
        snprintf(buf, size, "%" PRId64 "h%02" PRId64 "m", s / 3600,
                 s / 60 % 60);
    else
        snprintf(buf, size, "%" PRId64 "d%02" PRId64 "h", s / 86400,
                 s / 3600 % 24);
    return buf;
}

static void print_lengths(FILE *f, struct traceinfo_hist *h,
                          const int64_t pct[TRACEINFO_N_PCT])
{
    static const char *const names[TRACEINFO_N_PCT] = {"p5", "p25", "median",
                                                       "p75", "p95"};
    char b[32], m[32];

    if (h->count == 0) {
        fputs("  (none)\n", f);
        return;
    }
    fprintf(
        f, "  mean %s, min %s",
        human((int64_t)((double)h->sum / (double)h->count + 0.5), b, sizeof b),
        human(h->min, m, sizeof m));
    for (int k = 0; k < TRACEINFO_N_PCT; k++)
        fprintf(f, ", %s %s", names[k], human(pct[k], b, sizeof b));
    fprintf(f, ", max %s\n", human(h->max, b, sizeof b));
}

/* The holes beyond their count and lengths: p99, the share of idle
 * node-time in short holes, the log2 histogram. */
static void print_holes(FILE *f, const struct traceinfo *ti)
{
    char b[32], c[32];

    fprintf(f, "  p99 %s\n", human(ti->hole_p99, b, sizeof b));
    fputs("  share of idle node-time in holes shorter than:\n ", f);
    for (int k = 0; k < TRACEINFO_N_SHORT; k++)
        fprintf(f, " %d min %.1f%%", traceinfo_short_min[k],
                100.0 * ti->hole_short_share[k]);
    fputs("\n  length histogram (log2 bins)      holes   share of idle "
          "time\n",
          f);
    for (int k = 0; k < TRACEINFO_LOG_BINS; k++) {
        int64_t lo = (int64_t)1 << k;
        if (lo > ti->holes.max)
            break;
        if (lo * 2 <= ti->holes.min)
            continue;
        char range[64];
        snprintf(range, sizeof range, "[%s, %s)", human(lo, b, sizeof b),
                 human(2 * lo, c, sizeof c));
        fprintf(f, "    %-28s %10" PRIu64 "   %6.2f%%\n", range,
                ti->holes.bin_count[k],
                100.0 * (double)ti->holes.bin_sum[k] / (double)ti->holes.sum);
    }
}

static void print_text(FILE *f, struct traceinfo *ti)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    int64_t span = ti->end - ti->start;
    double days = (double)span / 86400.0;

    fprintf(f, "trace            %s\n", ti->path);
    if (ti->nodes == ti->nodes_total)
        fprintf(f, "nodes            %zu\n", ti->nodes);
    else
        fprintf(f, "nodes            %zu (nodes %zu..%zu of %zu)\n", ti->nodes,
                ti->skip, ti->skip + ti->nodes - 1, ti->nodes_total);
    fprintf(f, "window           %s .. %s UTC\n",
            bfs_time_format(ti->start, t0), bfs_time_format(ti->end, t1));
    fprintf(f, "span             %.2f h (%.2f days, %" PRId64 " s)\n",
            (double)span / 3600.0, days, span);
    fprintf(f, "events           %zu (%zu with changes of these nodes)",
            ti->events, ti->events_changed);
    if (span > 0)
        fprintf(f, ", %.1f per day", (double)ti->events / days);
    fputc('\n', f);
    fprintf(f,
            "changes          %" PRIu64 " (%" PRIu64 " become idle, %" PRIu64
            " taken back)\n",
            ti->joins + ti->leaves, ti->joins, ti->leaves);
    fprintf(f, "idle node-hours  %.2f\n", (double)ti->idle_node_s / 3600.0);
    if (ti->n_types > 0)
        fprintf(f, "node types       %zu (nodes, idle node-hours)\n",
                ti->n_types);
    for (size_t t = 0; t < ti->n_types; t++)
        fprintf(f, "  %-14s %6zu %10.2f\n", ti->type_names[t],
                ti->type_nodes[t], (double)ti->type_idle_node_s[t] / 3600.0);
    fprintf(f, "idle pool        time-weighted mean %.1f nodes\n",
            ti->pool_mean);
    fprintf(f,
            "                 min %zu, p5 %zu, p25 %zu, median %zu, p75 %zu, "
            "p95 %zu, max %zu\n",
            ti->pool_min, ti->pool_pct[0], ti->pool_pct[1], ti->pool_pct[2],
            ti->pool_pct[3], ti->pool_pct[4], ti->pool_max);
    fprintf(f, "                 %zu at the start, %zu at the end\n",
            ti->pool_start, ti->pool_end);
    fprintf(f, "nodes ever idle  %zu (%.1f%%)\n", ti->nodes_ever_idle,
            100.0 * (double)ti->nodes_ever_idle / (double)ti->nodes);
    fprintf(f,
            "idle intervals   %" PRIu64 " holes; %" PRIu64
            " open at the window start and %" PRIu64
            " open at its end are cut there\n",
            ti->holes.count, ti->holes_cut_start, ti->holes_cut_end);
    print_lengths(f, &ti->holes, ti->hole_pct);
    if (ti->holes.count)
        print_holes(f, ti);
    fprintf(f,
            "busy intervals   %" PRIu64
            " (from leaving the pool to rejoining it, wholly in the "
            "window)\n",
            ti->busy.count);
    print_lengths(f, &ti->busy, ti->busy_pct);
}

int cmd_info(int argc, char **argv)
{
    struct info_args a;
    struct traceinfo ti;
    struct bfs_error e;
    struct bfs_out out;
    char *bundled;
    int rc, first;

    if (!cmd_parse(&options_info, NULL, argc, argv, &a, &first, &rc))
        return rc;
    if ((rc = cmd_one_operand("info", argc, "TRACE")))
        return rc;
    bfs_error_clear(&e);
    {
        const struct bfs_paths_role in = {"TRACE", argv[optind], 0, NULL};
        if ((rc = cmd_check_paths("info", &in, 1)) != 0)
            return rc; /* an empty name */
    }
    if ((rc = cmd_bundled_trace("TRACE", argv[optind], &bundled, &e)))
        return cmd_report(&e, rc);
    rc = traceinfo_compute(bundled ? bundled : argv[optind], &a.o, &ti, &e);
    xfree(bundled);
    if (rc) {
        const char *fmt = sniff_log_format(argv[optind]);
        cmd_report(&e, rc);
        if (fmt)
            fprintf(stderr,
                    "bfsim info: %s is not a bfsim trace but looks like %s; "
                    "convert it first:\n"
                    "    bfsim convert --from %s %s -o TRACE.trace.gz\n"
                    "then run `bfsim info TRACE.trace.gz`.\n",
                    argv[optind], sniff_format_title(fmt), fmt, argv[optind]);
        return CMD_FAIL;
    }
    rc = bfs_out_open(&out, a.output, &e);
    if (rc == 0) {
        if (a.json) {
            json_t *j = traceinfo_json(&ti);
            if (json_dumpf(j, out.fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) !=
                    0 ||
                fputc('\n', out.fp) == EOF)
                rc = bfs_fail_at(&e, BFS_EIO, a.output, 0, "write error");
            json_decref(j);
        } else {
            print_text(out.fp, &ti);
        }
        if (rc == 0)
            rc = bfs_out_commit(&out, &e);
        else
            bfs_out_abort(&out);
    }
    traceinfo_release(&ti);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
