/* options.h - every option of every command, as typed records.
 *
 * Each command's options are one const array of struct options_entry
 * (engine/options.c for replay, options_<command>.c for the others):
 * names, argument, type, the field of the command's struct it sets,
 * bounds, whether --help shows its default (read from the command's
 * defaults, so the help cannot disagree with the code), help text,
 * group, and whether its value is recorded with the results and under
 * which name.  A struct options_command gathers a command's records with
 * its defaults and its check; options_commands lists them all.  One
 * parser (options_parse) builds getopt's table from the records, one
 * writer (options_help) the help, options_record the run's parameters
 * (the replay's JSON summary and HDF5 attributes, a corpus's HDF5
 * attributes), and a sweep's keys are checked against the replay's
 * records (sweep/sweep.c).  Adding an option is adding its record, its
 * handling and its test (check_options also finds it in bfsim(1)).
 */
#ifndef BFS_OPTIONS_H
#define BFS_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "alloc/alloc.h"
#include "alloc/bench.h"
#include "engine/replay.h"
#include "formats/gentrace.h"
#include "formats/summary.h"
#include "formats/traceinfo.h"

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
    const char *label;         /* --label TEXT, or NULL */
    int help;                  /* -h: show the help and do nothing else */
};

/* The groups of the replay's help, in its order. */
enum options_group { OPTIONS_INPUT, OPTIONS_POLICY, OPTIONS_OUTPUT };
#define OPTIONS_N_GROUPS 3

/* What an option's argument is, and how it is read into its field. */
enum options_type {
    OPTIONS_FLAG,   /* no argument; the int field is set to 1 */
    OPTIONS_HELP,   /* no argument; the help is shown, nothing else done */
    OPTIONS_STRING, /* the const char * field borrows the argument */
    OPTIONS_INT,    /* an int field, the argument an integer in [lo, hi] */
    OPTIONS_DOUBLE, /* a double field, in [lo, hi] (lo excluded when
                       lo_open) */
    OPTIONS_LIST,   /* repeatable; a struct options_list field gets the
                       argument appended */
    OPTIONS_KEYED,  /* a struct options_keyed field gets the option's name
                       and argument ("1" for a flag) appended */
    OPTIONS_TIME,   /* an int64_t field of Unix seconds, the argument
                       'YYYY-MM-DD HH:MM:SS' (UTC) or Unix seconds */
    OPTIONS_CUSTOM  /* parse() reads the argument */
};

/* The most arguments an OPTIONS_LIST or OPTIONS_KEYED field keeps. */
#define OPTIONS_MAX_LIST 64

/* The arguments of a repeatable option, in command-line order. */
struct options_list {
    const char *v[OPTIONS_MAX_LIST]; /* borrowed from the command line */
    size_t n;
};

/* Options given by name (a format's own options), in command-line
 * order. */
struct options_keyed {
    const char *name[OPTIONS_MAX_LIST];  /* the records' names */
    const char *value[OPTIONS_MAX_LIST]; /* borrowed; "1" for a flag */
    size_t n;
};

/* The most values one record writes with the results. */
#define OPTIONS_MAX_RECORD 2

/* One option of one command: a typed record.  Everything about an
 * option (getopt's table, the help, the man page's check, a sweep's
 * keys, the run's parameters written with the results) is derived from
 * these fields by the code that iterates a command's records. */
struct options_entry {
    const char *name; /* long name without dashes, "max-jobs" */
    int short_name;   /* 'o', or 0 for none */
    const char *arg;  /* the argument's name in the help ("N"), NULL for a
                         flag (no argument) */
    int group;        /* index into the command's groups */
    /* 1 when `bfsim sweep` sets the option for every run itself (the
     * run's outputs, quietness, help), so a sweep cannot set it
     * (replay's records only). */
    int sweep_managed;
    enum options_type type;
    size_t field;  /* offsetof the field set, in the command's struct */
    double lo, hi; /* OPTIONS_INT, OPTIONS_DOUBLE: the bounds */
    int lo_open;   /* OPTIONS_DOUBLE: lo itself is out of bounds */
    /* OPTIONS_INT, OPTIONS_DOUBLE: the problem with an argument that is
     * not a number or out of bounds, following "'ARG' " in the usage
     * error ("is not a count"). */
    const char *bad;
    /* OPTIONS_CUSTOM: reads arg (NULL for a flag) into the command's
     * struct a.  Returns NULL, or the problem as text as for bad; a is
     * then unspecified. */
    const char *(*parse)(void *a, const char *arg);
    /* The field's value as text, from a (the command's struct) into buf
     * (size bytes, NUL-terminated); NULL for the typed default (INT:
     * "%d", DOUBLE: "%g", STRING: the string or "", TIME: the UTC date,
     * or "" outside BFS_TIME_MIN..BFS_TIME_MAX) or when the value is
     * nowhere shown. */
    void (*show)(const void *a, char *buf, size_t size);
    int show_default; /* the help shows the default value */
    /* 1 when the run's value is written with the results (the JSON
     * summary's "parameters", the HDF5 file's root attributes). */
    int recorded;
    /* Recorded: the name the value is recorded under ("max_jobs"). */
    const char *key;
    /* Recorded: writes the value(s) from a into v (at most
     * OPTIONS_MAX_RECORD, group and describes left to the caller) and
     * returns how many; NULL for the typed value under key (INT, FLAG:
     * an integer, DOUBLE: a real, STRING: text, none when NULL). */
    size_t (*record)(const void *a, struct summary_value *v);
    const char *help; /* one sentence or a few, no trailing period */
};

/* One command's records and what its help says around them. */
struct options_command {
    const char *name;     /* "replay" */
    const char *synopsis; /* the help's head, up to its option groups */
    const char *tail;     /* printed after the options, or NULL */
    const struct options_entry *table;
    size_t count;
    const char *const *groups; /* the groups' headings, in help order */
    size_t n_groups;
    size_t size; /* sizeof the command's struct */
    /* Fills a with the defaults (what the command does without options). */
    void (*defaults)(void *a);
    /* Checks the options given (given[i] nonzero for table[i]) against
     * each other once all are read; NULL for none.  Returns 0, or a
     * negative BFS_E* code with the problem in e. */
    int (*check)(const void *a, const unsigned char *given,
                 struct bfs_error *e);
};

/* In a struct options_command initializer: the table (an array) and its
 * length; the groups' headings (an array) and their number. */
#define OPTIONS_TABLE(t) .table = (t), .count = sizeof(t) / sizeof *(t)
#define OPTIONS_GROUPS(g) .groups = (g), .n_groups = sizeof(g) / sizeof *(g)

/* In a struct options_command initializer, after its name and help
 * text: the records t (an array over struct args) with their groups'
 * headings g (an array), the struct's size, and the command's defaults
 * d and check c (NULL for none). */
#define OPTIONS_RECORDS(t, g, args, d, c)                                      \
    OPTIONS_TABLE(t), OPTIONS_GROUPS(g), .size = sizeof(struct args),          \
                                         .defaults = (d), .check = (c)

/* The groups' headings of a command whose options are one group. */
extern const char *const options_one_group[1];

/* The usual -h/--help record, in a command's first group. */
#define OPTIONS_HELP_ENTRY                                                     \
    {                                                                          \
        "help", 'h', NULL, 0, .type = OPTIONS_HELP, .help = "show this help"   \
    }

/* The options, in the order of the help within each group. */
extern const struct options_entry options_table[];
extern const size_t options_count;

/* bfsim replay's records (options_table) as a command. */
extern const struct options_command options_replay;

/* Every command's records, in the order of `bfsim --help`. */
extern const struct options_command *const options_commands[];
extern const size_t options_n_commands;

/* "Input", "Policy", "Output". */
const char *options_group_name(enum options_group g);

/* Reads arg (NULL for a flag) into a, the command's struct, as o says.
 * Returns NULL, or the problem as text following "'ARG' " in a usage
 * error; a is then unspecified. */
const char *options_set(const struct options_entry *o, void *a,
                        const char *arg);

/* The values of c's recorded options in a (the command's struct), into
 * v (room for max), each in the group "parameters" and describing the
 * run, in the records' order; a value that is none (a time or a file not
 * given, without a default) is left out.  Returns how many (at most
 * max).  Text values are borrowed from a or are literals. */
size_t options_record(const struct options_command *c, const void *a,
                      struct summary_value *v, size_t max);

/* Writes o's value in a (the command's struct) as text into buf (size
 * bytes, NUL-terminated). */
void options_value(const struct options_entry *o, const void *a, char *buf,
                   size_t size);

/* Reads the command line argv[0..argc) (argv[0] the command's name) into
 * a, from c's defaults, with getopt_long over a table built from c's
 * records, then checks the options against each other (c->check).
 * Returns 0 with *help set (1 when a help option was seen: the rest is
 * then neither read nor checked), *operand the index of the first
 * operand and, when given is not NULL, given[i] (c->count bytes) 1 for
 * each record i on the command line, else 0; or BFS_EUSAGE (or check's
 * code) with the problem in e, a unspecified. */
int options_parse(const struct options_command *c, int argc, char **argv,
                  void *a, unsigned char *given, int *help, int *operand,
                  struct bfs_error *e);

/* Writes c's help to f: the synopsis, every record by group with its
 * default, the tail.  Returns 0, or -1 when f failed. */
int options_help(const struct options_command *c, FILE *f);

/* The record of c whose long name is name, or whose short name is ch;
 * or NULL. */
const struct options_entry *options_lookup(const struct options_command *c,
                                           const char *name);
const struct options_entry *
options_lookup_short(const struct options_command *c, int ch);

/* ---- bfsim solve ---- */

/* What the command line of `bfsim solve` sets.  Strings are borrowed from
 * the command line (or are the defaults' literals). */
struct solve_args {
    struct alloc_opts alloc; /* --allocator ... --log-level, --write-mps */
    const char *big_m;       /* --big-m legacy|exact, or NULL: the file's */
    int json;                /* --json */
    /* over a corpus */
    struct options_list configs; /* --config */
    int jobs;                    /* -j, processes */
    const char *csv;             /* --csv FILE, or NULL */
    const char *h5;              /* -o FILE, or NULL */
    struct bench_params q;
    double tol;          /* --tolerance */
    int repeat;          /* >= 1 */
    int seeds;           /* 0: the solver's own seed; k: seeds 1..k */
    int detail;          /* --detail */
    uint64_t order_seed; /* --order-seed */
};

/* bfsim solve's records; their check refuses an option the allocator
 * would ignore (--solver, --model, --gap, --threads, --log-level,
 * --write-mps but with milp; --time-limit with even). */
extern const struct options_command options_solve;

/* Whether the solver spec "NAME,OPT,..." has the item "help". */
int options_solver_wants_help(const char *spec);

/* ---- bfsim sweep ---- */

/* What the command line of `bfsim sweep` sets (its own options; the
 * replay's are the configuration's keys). */
struct sweep_args {
    int jobs;                /* -j: replays at once */
    size_t shard_i, shard_n; /* --shard I/N (0/1: every run) */
    int sharded;             /* --shard given */
    const char *out;         /* --out DIR, or NULL: from CONFIG */
    int merge, list, worker, status, quiet;
    double lease; /* --lease seconds */
    int retries;  /* --retries */
};

/* bfsim sweep's records; their check refuses the options that do not go
 * together (--merge with --list or --shard, ...). */
extern const struct options_command options_sweep;

/* ---- bfsim gen-trace ---- */

/* What the command line of `bfsim gen-trace` sets. */
struct gentrace_args {
    struct gentrace_opts o;       /* nodes, start, duration, gzip_level */
    const char *nodes;            /* --nodes as given, or NULL */
    const char *duration;         /* --duration as given, or NULL */
    int64_t seed;                 /* --seed, >= 0 */
    const char *idle, *busy;      /* --idle, --busy DIST */
    const char *types;            /* --types, or NULL */
    const char *out;              /* -o, or NULL */
    struct options_list comments; /* --comment */
    int quiet;
};

/* bfsim gen-trace's records; their check requires --nodes, --duration
 * and -o. */
extern const struct options_command options_gentrace;

/* ---- bfsim info and bfsim curves ---- */

/* What the command line of `bfsim info` sets. */
struct info_args {
    struct traceinfo_opts o; /* --start, --end, --nodes */
    int json;                /* --json */
    const char *output;      /* -o FILE, "-" standard output */
};

/* bfsim info's records; their check refuses --start not before --end. */
extern const struct options_command options_info;

/* What the command line of `bfsim curves` sets. */
struct curves_args {
    const char *curves;        /* --curves FILE, or NULL */
    int model;                 /* --model: a CURVEFIT_* model, -1 all */
    const char *output;        /* -o FILE, "-" standard output */
    const char *fit_predictor; /* --fit-predictor OUT, or NULL */
    const char *group;         /* --group FEATURE (default "family") */
    double ridge;              /* --ridge L (default PREDICT_RIDGE) */
};

/* bfsim curves's records. */
extern const struct options_command options_curves;

/* ---- bfsim convert ---- */

/* What the command line of `bfsim convert` sets. */
struct convert_cmdline {
    const char *from;             /* --from FORMAT, or NULL */
    const char *jobs;             /* --jobs FILE, or NULL */
    const char *curves;           /* --curves FILE, or NULL */
    const char *output;           /* -o OUT */
    struct options_list comments; /* --comment */
    int quiet;
    struct options_keyed format; /* the formats' own options given */
};

/* bfsim convert's records: its own, then every trace format's (group
 * 1); their check requires -o and one of --from and --jobs. */
extern const struct options_command options_convert;

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
