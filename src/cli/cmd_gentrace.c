/* cmd_gentrace.c - `bfsim gen-trace`: a synthetic node trace.  Parsing
 * and reporting only; the generator is gentrace.c.
 */
#include "config.h"

#include "cli/cmd.h"
#include "formats/gentrace.h"
#include "base/util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_START "2021-01-01 00:00:00"
#define DEFAULT_IDLE "exp:20m"
#define DEFAULT_BUSY "exp:3h"
/* Synthetic traces are cheap to make again from their seed: favour speed
 * (level 1 compresses about 5 times faster than 6, 15-20% larger). */
#define DEFAULT_GZIP_LEVEL 1
#define STR(x) STR_(x)
#define STR_(x) #x

static void usage(FILE *f)
{
    fputs(
        "Usage: bfsim gen-trace --nodes N --duration D -o OUT.trace[.gz] "
        "[OPTIONS]\n"
        "\n"
        "Writes a synthetic native trace: every node alternates between "
        "idle\n"
        "intervals (holes) and busy intervals, independently, with "
        "lengths\n"
        "drawn from the given distributions (integer seconds >= 1).  "
        "Nodes\n"
        "start in their stationary state; the first event lists the "
        "nodes\n"
        "idle at the start, a last event marks the end.  The same options\n"
        "and seed give the same bytes.\n"
        "\n"
        "Options:\n"
        "  --nodes N          number of nodes (named n0, n1, ..., "
        "zero-padded)\n"
        "  --duration D       length of the trace: seconds, or with a "
        "suffix\n"
        "                     s, m, h or d (\"90m\", \"365d\")\n"
        "  --seed S           PRNG seed, 0..2^63-1 (default 1)\n"
        "  --start T          time of the first event: Unix seconds or\n"
        "                     'YYYY-MM-DD HH:MM:SS' UTC (default " DEFAULT_START
        ")\n"
        "  --idle DIST        hole lengths (default " DEFAULT_IDLE ")\n"
        "  --busy DIST        busy lengths (default " DEFAULT_BUSY ")\n"
        "  --types NAME:SHARE,...\n"
        "                     give the nodes types (written in the trace):\n"
        "                     shares are weights (normalised), counts by\n"
        "                     largest remainder, nodes drawn by the seed\n"
        "  -o, --output OUT   output file (required; .gz, .zst, .xz, .bz2 =\n"
        "                     compressed; '-' = standard output)\n"
        "  --gzip-level L     compression of a .gz output, 1 (fastest) .. 9\n"
        "                     (smallest); default " STR(
            DEFAULT_GZIP_LEVEL) "\n"
                                "  --comment TEXT     add a '#' comment line "
                                "(repeatable)\n"
                                "  -q, --quiet        do not print the summary "
                                "on standard error\n"
                                "  -h, --help         show this help\n"
                                "\n"
                                "Distributions (DIST):\n"
                                "  exp:MEAN           exponential, mean MEAN "
                                "(a duration as above)\n"
                                "  lognormal:MU,SIGMA e^N(MU,SIGMA^2) seconds: "
                                "median e^MU\n"
                                "  empirical:TRACE    resample the complete "
                                "holes (for --idle) or\n"
                                "                     busy intervals (for "
                                "--busy) of a native "
                                "trace,\n"
                                "                     e.g. the bundled "
                                "summit-2021-02.trace.gz\n",
        f);
}

/* The trace an empirical:TRACE distribution reads, or NULL. */
static const char *empirical_trace(const char *spec)
{
    return strncmp(spec, "empirical:", 10) == 0 ? spec + 10 : NULL;
}

int cmd_gen_trace(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"nodes", required_argument, NULL, 'N'},
        {"duration", required_argument, NULL, 'D'},
        {"seed", required_argument, NULL, 's'},
        {"start", required_argument, NULL, 'S'},
        {"idle", required_argument, NULL, 'I'},
        {"busy", required_argument, NULL, 'B'},
        {"types", required_argument, NULL, 'T'},
        {"output", required_argument, NULL, 'o'},
        {"comment", required_argument, NULL, 'C'},
        {"gzip-level", required_argument, NULL, 'L'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct gentrace_opts o = {0};
    struct gentrace_dist idle = {0}, busy = {0};
    struct gentrace_types types = {0, NULL, NULL};
    struct gentrace_stats st;
    struct bfs_error e;
    const char *out = NULL, *idle_spec = DEFAULT_IDLE,
               *busy_spec = DEFAULT_BUSY, *nodes_arg = NULL, *dur_arg = NULL,
               *types_spec = NULL;
    const char **comments;
    size_t n_comments = 0;
    int64_t v, seed = 1;
    int quiet = 0, c, rc, status = CMD_OK, idle_failed = 1;
    char auto_comment[1024];
    double t0;

    bfs_time_parse(DEFAULT_START, &o.start);
    o.gzip_level = DEFAULT_GZIP_LEVEL;
    comments = xcalloc((size_t)argc + 2, sizeof *comments);
    comments[n_comments++] = auto_comment;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'N':
            if (bfs_parse_i64(optarg, &v) || v < 1 || v > UINT32_MAX) {
                status =
                    cmd_usage_error("gen-trace", "bad --nodes '%s'", optarg);
                goto done;
            }
            o.nodes = (size_t)v;
            nodes_arg = optarg;
            break;
        case 'D':
            if (bfs_parse_duration(optarg, 1, &o.duration)) {
                status =
                    cmd_usage_error("gen-trace", "bad --duration '%s'", optarg);
                goto done;
            }
            dur_arg = optarg;
            break;
        case 's':
            if (bfs_parse_i64(optarg, &seed) || seed < 0) {
                status =
                    cmd_usage_error("gen-trace", "bad --seed '%s'", optarg);
                goto done;
            }
            break;
        case 'S':
            if (bfs_time_parse(optarg, &o.start)) {
                status =
                    cmd_usage_error("gen-trace", "bad --start '%s'", optarg);
                goto done;
            }
            break;
        case 'I':
            idle_spec = optarg;
            break;
        case 'B':
            busy_spec = optarg;
            break;
        case 'T':
            gentrace_types_release(&types);
            bfs_error_clear(&e);
            if ((rc = gentrace_types_parse(optarg, &types, &e)) != 0) {
                status = cmd_report(&e, rc);
                goto done;
            }
            types_spec = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'C':
            comments[n_comments++] = optarg;
            break;
        case 'L':
            if (bfs_parse_int(optarg, &o.gzip_level) || o.gzip_level < 1 ||
                o.gzip_level > 9) {
                status = cmd_usage_error(
                    "gen-trace", "bad --gzip-level '%s' (1..9)", optarg);
                goto done;
            }
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            goto done;
        default:
            status = cmd_option_error("gen-trace", c, argv);
            goto done;
        }
    }
    if (optind < argc) {
        status = cmd_usage_error("gen-trace", "unexpected argument '%s'",
                                 argv[optind]);
        goto done;
    }
    if (!nodes_arg || !dur_arg || !out) {
        status = cmd_usage_error("gen-trace", "%s",
                                 "--nodes, --duration and -o are required");
        goto done;
    }
    {
        const struct bfs_paths_role roles[] = {
            {"--idle", empirical_trace(idle_spec), 0, NULL},
            {"--busy", empirical_trace(busy_spec), 0, NULL},
            {"-o", out, 1, NULL},
        };
        if ((status = cmd_check_paths("gen-trace", roles, 3)) != CMD_OK)
            goto done;
    }
    o.seed = (uint64_t)seed;
    bfs_error_clear(&e);
    rc = gentrace_dist_parse(idle_spec, 0, &idle, &e);
    if (rc == 0 && (rc = gentrace_dist_parse(busy_spec, 1, &busy, &e)) != 0)
        idle_failed = 0;
    if (rc) { /* the message names the option */
        struct bfs_error named;
        bfs_error_clear(&named);
        bfs_fail(&named, rc, "%s: %s", idle_failed ? "--idle" : "--busy",
                 e.msg);
        status = cmd_report(&named, rc);
        goto done;
    }
    o.idle = &idle;
    o.busy = &busy;
    o.comments = comments;
    snprintf(auto_comment, sizeof auto_comment,
             "synthetic trace by bfsim %s: bfsim gen-trace --nodes %s "
             "--duration %s --seed %" PRId64 " --start %" PRId64
             " --idle %s --busy %s%s%s",
             PACKAGE_VERSION, nodes_arg, dur_arg, seed, o.start, idle_spec,
             busy_spec, types_spec ? " --types " : "",
             types_spec ? types_spec : "");
    t0 = bfs_now();
    rc = gentrace_write_typed(out, &o, types_spec ? &types : NULL, &st, &e);
    if (rc) {
        status = cmd_report(&e, rc);
        goto done;
    }
    if (!quiet)
        fprintf(stderr,
                "bfsim: wrote %s: %zu nodes, %zu events, %" PRIu64
                " changes, %zu idle at the start (%.1f s)\n",
                out, o.nodes, st.events, st.joins + st.leaves, st.idle_at_start,
                bfs_now() - t0);
    if (!quiet && types_spec) {
        size_t *counts = xmalloc(types.n * sizeof *counts);
        gentrace_types_counts(&types, o.nodes, counts);
        fputs("bfsim: node types:", stderr);
        for (size_t k = 0; k < types.n; k++)
            fprintf(stderr, "%s %s %zu", k ? "," : "", types.names[k],
                    counts[k]);
        fputc('\n', stderr);
        xfree(counts);
    }

done:
    gentrace_types_release(&types);
    gentrace_dist_release(&busy);
    gentrace_dist_release(&idle);
    xfree(comments);
    return status;
}
