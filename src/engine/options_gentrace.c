/* options_gentrace.c - the records of `bfsim gen-trace`'s options.
 *
 * Design: as engine/options.c: one const array of typed records over
 * struct gentrace_args, from which cli/cmd_gentrace.c's getopt table and
 * help are derived.  --nodes and --duration keep their argument's text
 * too: the trace's first comment repeats the command line as given.
 * Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

#define DEFAULT_START "2021-01-01 00:00:00"

static void gentrace_defaults(void *v)
{
    struct gentrace_args *a = v;

    memset(a, 0, sizeof *a);
    bfs_time_parse(DEFAULT_START, &a->o.start);
    /* Synthetic traces are cheap to make again from their seed: favour
     * speed (level 1 compresses about 5 times faster than 6, 15-20%
     * larger). */
    a->o.gzip_level = 1;
    a->seed = 1;
    a->idle = "exp:20m";
    a->busy = "exp:3h";
}

static const char *p_nodes(void *v, const char *s)
{
    struct gentrace_args *a = v;
    int64_t n;

    if (bfs_parse_i64(s, &n) || n < 1 || n > UINT32_MAX)
        return "is not a count of 1 to 4294967295 nodes";
    a->o.nodes = (size_t)n;
    a->nodes = s;
    return NULL;
}

static const char *p_duration(void *v, const char *s)
{
    struct gentrace_args *a = v;

    if (bfs_parse_duration(s, 1, &a->o.duration))
        return "is not a duration (seconds, or with a suffix s, m, h or d)";
    a->duration = s;
    return NULL;
}

static const char *p_seed(void *v, const char *s)
{
    struct gentrace_args *a = v;

    if (bfs_parse_i64(s, &a->seed) || a->seed < 0)
        return "is not a seed of 0 to 2^63-1";
    return NULL;
}

static void d_seed(const void *v, char *b, size_t n)
{
    snprintf(b, n, "%" PRId64, ((const struct gentrace_args *)v)->seed);
}

static int gentrace_check(const void *v, const unsigned char *given,
                          struct bfs_error *e)
{
    const struct gentrace_args *a = v;

    (void)given;
    if (!a->nodes || !a->duration || !a->out)
        return bfs_fail(e, BFS_EUSAGE,
                        "--nodes, --duration and -o are required");
    return 0;
}

#define F(member) .field = offsetof(struct gentrace_args, member)
#define STRING(member) .type = OPTIONS_STRING, F(member)
#define CUSTOM(p) .type = OPTIONS_CUSTOM, .parse = p

static const struct options_entry gentrace_table[] = {
    {"nodes", 0, "N", 0, CUSTOM(p_nodes),
     .help = "number of nodes (named n0, n1, ..., zero-padded)"},
    {"duration", 0, "D", 0, CUSTOM(p_duration),
     .help = "length of the trace: seconds, or with a suffix s, m, h or d "
             "(\"90m\", \"365d\")"},
    {"seed", 0, "S", 0, CUSTOM(p_seed), .show = d_seed, .show_default = 1,
     .help = "PRNG seed, 0..2^63-1"},
    {"start", 0, "T", 0, .type = OPTIONS_TIME, F(o.start), .show_default = 1,
     .help = "time of the first event: Unix seconds or 'YYYY-MM-DD HH:MM:SS' "
             "UTC"},
    {"idle", 0, "DIST", 0, STRING(idle), .show_default = 1,
     .help = "hole lengths"},
    {"busy", 0, "DIST", 0, STRING(busy), .show_default = 1,
     .help = "busy lengths"},
    {"types", 0, "NAME:SHARE,...", 0, STRING(types),
     .help = "give the nodes types (written in the trace): shares are "
             "weights (normalised), counts by largest remainder, nodes drawn "
             "by the seed"},
    {"output", 'o', "OUT", 0, STRING(out),
     .help = "output file (required; .gz, .zst, .xz, .bz2 = compressed; '-' "
             "= standard output)"},
    {"gzip-level", 0, "L", 0, .type = OPTIONS_INT, F(o.gzip_level), .lo = 1,
     .hi = 9, .bad = "is not a level of 1 to 9", .show_default = 1,
     .help = "compression of a .gz output, 1 (fastest) .. 9 (smallest)"},
    {"comment", 0, "TEXT", 0, .type = OPTIONS_LIST, F(comments),
     .help = "add a '#' comment line (repeatable)"},
    {"quiet", 'q', NULL, 0, .type = OPTIONS_FLAG, F(quiet),
     .help = "do not print the summary on standard error"},
    OPTIONS_HELP_ENTRY,
};

const struct options_command options_gentrace = {
    .name = "gen-trace",
    .synopsis =
        "Usage: bfsim gen-trace --nodes N --duration D -o OUT.trace[.gz] "
        "[OPTIONS]\n"
        "\n"
        "Writes a synthetic native trace: every node alternates between idle\n"
        "intervals (holes) and busy intervals, independently, with lengths\n"
        "drawn from the given distributions (integer seconds >= 1).  Nodes\n"
        "start in their stationary state; the first event lists the nodes\n"
        "idle at the start, a last event marks the end.  The same options\n"
        "and seed give the same bytes.\n",
    .tail = "\n"
            "Distributions (DIST):\n"
            "  exp:MEAN           exponential, mean MEAN (a duration as "
            "above)\n"
            "  lognormal:MU,SIGMA e^N(MU,SIGMA^2) seconds: median e^MU\n"
            "  empirical:TRACE    resample the complete holes (for --idle) "
            "or\n"
            "                     busy intervals (for --busy) of a native "
            "trace,\n"
            "                     e.g. the bundled summit-2021-02.trace.gz\n",
    OPTIONS_RECORDS(gentrace_table, options_one_group, gentrace_args,
                    gentrace_defaults, gentrace_check),
};
