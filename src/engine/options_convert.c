/* options_convert.c - the records of `bfsim convert`'s options.
 *
 * Design: as engine/options.c: one const array of typed records over
 * struct convert_cmdline.  The trace formats' own options are records
 * too (group 1), each once, of type OPTIONS_KEYED: the parser keeps
 * their names and arguments in command-line order, and cli/cmd_convert.c
 * checks them against the format chosen (its table says which format
 * takes which, with that format's note) and hands them to the importer.
 * Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <stddef.h>
#include <string.h>

static void convert_defaults(void *v)
{
    memset(v, 0, sizeof(struct convert_cmdline));
}

static int convert_check(const void *v, const unsigned char *given,
                         struct bfs_error *e)
{
    const struct convert_cmdline *a = v;

    (void)given;
    if (!a->output)
        return bfs_fail(e, BFS_EUSAGE, "no output file (-o OUT)");
    if (!a->from == !a->jobs)
        return bfs_fail(e, BFS_EUSAGE,
                        "give one of --from FORMAT or --jobs FILE");
    return 0;
}

#define F(member) .field = offsetof(struct convert_cmdline, member)
#define FORMAT(name, arg, text)                                                \
    {                                                                          \
        name, 0, arg, 1, .type = OPTIONS_KEYED, F(format), .help = text        \
    }

static const struct options_entry convert_table[] = {
    {"from", 0, "FORMAT", 0, .type = OPTIONS_STRING, F(from),
     .help = "input trace format (see below)"},
    {"jobs", 0, "BOUNDS.csv", 0, .type = OPTIONS_STRING, F(jobs),
     .help = "convert a job set: its bounds table (or a native job file, "
             "rewritten)"},
    {"curves", 0, "LONG.csv", 0, .type = OPTIONS_STRING, F(curves),
     .help = "the job set's long curve table (job,bp,N,P,O,...)"},
    {"output", 'o', "OUT", 0, .type = OPTIONS_STRING, F(output),
     .help = "output file (required; '-' = standard output)"},
    {"comment", 0, "TEXT", 0, .type = OPTIONS_LIST, F(comments),
     .help = "add a '#' comment line to the output header (repeatable; say "
             "where the data came from)"},
    {"quiet", 'q', NULL, 0, .type = OPTIONS_FLAG, F(quiet),
     .help = "do not print the summary on standard error"},
    OPTIONS_HELP_ENTRY,

    FORMAT("node-types", "FILE", "node types: sinfo output or HOSTLIST TYPE"),
    FORMAT("type-from", "RULE",
           "which field of sinfo gives a node's type: gres, features or "
           "partition"),
    FORMAT("procs-per-node", "P", "processors per node of an SWF log"),
    FORMAT("machine-nodes", "N", "the machine's nodes"),
    FORMAT("max-nodes", "N", "the largest machine taken or inferred"),
    FORMAT("nodes-file", "FILE",
           "the machine's node names, one a line, or pbsnodes -av output"),
    FORMAT("partition-nodes", "LIST",
           "NAME=COUNT[:PPN],... nodes per partition of an SWF log"),
    FORMAT("tz-offset", "OFF", "local - UTC: seconds or +HH:MM"),
    FORMAT("tz", "ZONE", "zone of the time stamps"),
    FORMAT("columns", "LIST",
           "fields of a sacct file without header, as given to sacct "
           "--format"),
    FORMAT("placement", "first-fit|contiguous", "where jobs without hosts go"),
    FORMAT("overflow", "truncate|skip", "what a job beyond the machine does"),
    FORMAT("skip-bad", NULL, "skip malformed records (counted)"),
    FORMAT("events", "FILE", "also Batsim external events (JSON lines)"),
    FORMAT("origin", "TIME", "Unix time of simulation time 0"),
    FORMAT("start", "TIME", "window start (UTC or Unix s)"),
    FORMAT("end", "TIME", "window end"),
    FORMAT("outage-threshold", "F", "idle fraction marking an outage"),
    FORMAT("outage-min-duration", "D",
           "for at least D (s/m/h/d) to be an outage"),
};

static const char *const convert_groups[] = {
    "Options:",
    "Options of the trace formats (each format's own, with its defaults, "
    "below):"};

const struct options_command options_convert = {
    .name = "convert",
    .synopsis =
        "Usage: bfsim convert --from FORMAT INPUT... -o OUT.trace[.gz|.zst] "
        "[OPTIONS]\n"
        "       bfsim convert --jobs BOUNDS.csv --curves LONG.csv -o OUT.jobs "
        "[OPTIONS]\n"
        "\n"
        "Converts a foreign node log to a native trace (bfsim-trace 1), or\n"
        "a BFTrainer job set (bounds table + long curve table) to a native\n"
        "job file (bfsim-jobs 1).  One INPUT, but pbs and lsf take several\n"
        "files or folders, read together.  The output is written\n"
        "atomically: nothing appears at OUT unless the whole input\n"
        "converted.  An OUT ending in .gz, .zst, .xz or .bz2 is compressed\n"
        "with gzip, zstd, xz or bzip2.  Inputs may be compressed with any\n"
        "of them (told by content, not by name).\n",
    OPTIONS_RECORDS(convert_table, convert_groups, convert_cmdline,
                    convert_defaults, convert_check),
};
