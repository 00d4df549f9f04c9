/* options.h - the options of `bfsim replay`, as one table.
 *
 * Every option of the replay's command line is one entry of
 * options_table: its names, its argument, the function that reads the
 * argument into struct replay_args, the function that shows its default
 * (taken from options_default(), so the help cannot disagree with the
 * code), its help text and its group.  The command's getopt table and
 * its --help are built from the entries (cli/cmd_replay.c), and so is
 * the check of a sweep's keys (sweep/sweep.c).  Adding an option is
 * adding an entry here (and a paragraph to the man page: a test checks).
 */
#ifndef BFS_OPTIONS_H
#define BFS_OPTIONS_H

#include <stddef.h>

#include "engine/replay.h"

/* The bundled inputs replayed when --trace or --jobs is not given, as
 * paths relative to the data directory. */
#define OPTIONS_BUNDLED_TRACE "traces/summit-2021-02.trace.gz"
#define OPTIONS_BUNDLED_JOBS "datasets/hps-shufflenet-10J.jobs"

/* What the command line of `bfsim replay` sets: the replay's own options
 * and where its outputs go.  Strings are borrowed from the command line
 * (or are the defaults' literals). */
struct replay_args {
    struct replay_opts replay; /* trace/jobs NULL: the bundled inputs */
    const char *summary;       /* --summary FILE ("-": stdout), or NULL */
    const char *job_log;       /* --job-log FILE, or NULL */
    const char *output;        /* -o FILE (HDF5), or NULL */
    int quiet;                 /* -q: no progress line */
    int strict;                /* --strict: a warning fails the run */
    const char *batsim_jobs;   /* --batsim-jobs FILE, or NULL */
    int help;                  /* -h: show the help and do nothing else */
};

/* The groups of the help, in its order. */
enum options_group { OPTIONS_INPUT, OPTIONS_POLICY, OPTIONS_OUTPUT };
#define OPTIONS_N_GROUPS 3

/* One option. */
struct options_entry {
    const char *name; /* long name without dashes, "max-jobs" */
    int short_name;   /* 'o', or 0 for none */
    const char *arg;  /* the argument's name in the help ("N"), NULL for a
                         flag (no argument) */
    enum options_group group;
    /* 1 when `bfsim sweep` sets the option for every run itself (the
     * run's outputs, quietness, help), so a sweep cannot set it. */
    int sweep_managed;
    /* Reads arg (NULL for a flag) into a.  Returns NULL, or the problem
     * as text that follows "'ARG' " in a usage error ("is not a count");
     * a is then unspecified. */
    const char *(*parse)(struct replay_args *a, const char *arg);
    /* Writes the default, as `--help` shows it, from the defaults d into
     * buf (size bytes, NUL-terminated); NULL when the help shows none
     * (flags, outputs). */
    void (*show_default)(const struct replay_args *d, char *buf, size_t size);
    const char *help; /* one sentence or a few, no trailing period */
};

/* The options, in the order of the help within each group. */
extern const struct options_entry options_table[];
extern const size_t options_count;

/* "Input", "Policy", "Output". */
const char *options_group_name(enum options_group g);

/* Fills a with what `bfsim replay` uses without options: the replay's
 * defaults (replay_opts_default), no outputs, not quiet. */
void options_default(struct replay_args *a);

/* Checks the options given (given[i] nonzero for options_table[i]) against
 * each other once all are read: an option that configures some
 * allocators only (--solver, --model, --gap: the MILP; --time-limit: the
 * MILP and dp) given with another, which would silently ignore it; then
 * the allocator's and solver's names (alloc_check_names).  Returns 0, or
 * BFS_EUSAGE (BFS_EUNSUP for a solver not compiled in) with the problem
 * in e. */
int options_check(const struct replay_args *a, const unsigned char *given,
                  struct bfs_error *e);

/* The entry whose long name is name, or NULL. */
const struct options_entry *options_find(const char *name);

/* The entry whose short name is c, or NULL. */
const struct options_entry *options_find_short(int c);

/* Parses "[SKIP:]COUNT" (SKIP >= 0, COUNT >= 1), the syntax of --nodes
 * here and in `bfsim info`.  Returns 0, or -1 with the outputs untouched. */
int options_parse_nodes(const char *s, size_t *skip, size_t *count);

#endif
