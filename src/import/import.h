/* import.h - converters from foreign logs to native traces (trace.h).
 *
 * Design: one function per source format, each streaming its input and
 * writing a native trace through trace_writer (so the output is checked
 * by the same rules as the reader's, and is atomic: nothing appears at
 * out_path unless the whole conversion succeeded).  Every importer takes
 * the output path, optional comment lines for the trace header
 * (NULL-terminated array, may be NULL; provenance belongs there) and an
 * optional struct import_stats to fill, and returns 0 or a negative code
 * with "file:line: problem" in e.  Format-specific options are arguments
 * (or an options struct) of that importer.  `bfsim convert --from NAME`
 * selects an importer from a table in src/cli/cmd_convert.c.
 *
 * Node types (tools/DESIGN.md, "Node types"): every importer that names
 * its nodes can write a typed trace, the types given by a node-type
 * mapping applied to the node names (nodetypes.h; o->node_types, or the
 * types argument of import_bftrainer_typed), or for Slurm by each node's
 * jobs' partition (o->types_from_partition), or for SWF by the
 * partitions' node ranges (o->partition_nodes).  Without any of these
 * the trace is untyped, byte for byte what it was before types existed.
 */
#ifndef BFS_IMPORT_H
#define BFS_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "formats/nodetypes.h"

/* What an importer wrote (filled on success only). */
struct import_stats {
    size_t nodes;        /* nodes in the trace */
    size_t events;       /* events written */
    size_t joins;        /* node changes busy -> idle */
    size_t leaves;       /* node changes idle -> busy */
    int64_t first_time;  /* first event (Unix seconds) */
    int64_t last_time;   /* last event */
    size_t max_idle;     /* largest pool size after an event */
    size_t types;        /* node types in the trace; 0: untyped */
    size_t types_unused; /* nodes of the mapping not in the trace */
};

/* ==== BFTrainer matrix export (import/import_bftrainer.c) =================
 */

/* Converts the BFTrainer replayer's node matrix, exported as three CSV
 * files (plain or compressed) in one directory:
 *
 *   nodes.csv           col_idx,node               (matrix column order)
 *   rows.csv            row,time,epoch_s,n_idle,n_join_0to1,n_leave_1to0
 *   transitions.csv[.gz|.xz|.bz2|.zst] row,epoch_s,col_idx,node,new_state
 *
 * (columns are found by header name, extra columns ignored).  `src` is
 * the directory, or the transitions file itself (the other two are then
 * taken from its directory).  The trace keeps the column order and the
 * names, and has one event per matrix row at epoch_s (row 0 included,
 * even with no change, so the trace keeps the log's first time stamp).
 * Rows must be numbered 0, 1, ... with increasing times; transitions
 * must be sorted by row, name the node of their column, agree with
 * rows.csv (time, join, leave and idle counts) and with the state (only a
 * busy node becomes idle, and vice versa).  Streams: memory holds the
 * node list and one row's changes. */
int import_bftrainer(const char *src, const char *out_path,
                     const char *const *comments, struct import_stats *st,
                     struct bfs_error *e);

/* import_bftrainer with the node types of the mapping types (borrowed;
 * NULL: untyped) applied to nodes.csv's names: a node the mapping does
 * not name is an error, st->types_unused counts the others. */
int import_bftrainer_typed(const char *src, const char *out_path,
                           const char *const *comments,
                           const struct nodetypes *types,
                           struct import_stats *st, struct bfs_error *e);

/* The three files import_bftrainer reads for src (each malloc'd): in
 * src's directory (src itself when it is one), nodes.csv and rows.csv,
 * each NAME.gz instead when only that exists; the transitions file src,
 * or, for a directory, its transitions.csv[.gz] likewise.  For checking
 * an output against them before the import (base/paths.h). */
void import_bftrainer_inputs(const char *src, char **nodes, char **rows,
                             char **transitions);

/* ==== end of BFTrainer block =========================================== */

/* ==== Job logs: SWF and Slurm (import/import_swf.c, import_slurm.c) ==== */

/* A scheduler log lists jobs, not node states: each job holds nodes from
 * its start to its end, and a node is idle whenever no job holds it.  The
 * importers turn job intervals into a node timeline (import/import_log.c):
 *
 * - Time: every job start and end, processed in time order; at one second
 *   ends come before starts (a node freed and retaken in the same second
 *   makes no idle gap), starts in file order.  Changes are netted per node
 *   and second, so one event per second with changes.
 * - Placement, when the log gives node counts only (SWF always, Slurm
 *   without NodeList): IMPORT_FIRST_FIT takes the free nodes of lowest
 *   index; IMPORT_CONTIGUOUS takes the lowest-index run of free nodes long
 *   enough, and if there is none, first fit (the job is counted as
 *   fragmented).
 * - Overflow, a job needing more nodes than are free at its start
 *   (inconsistent logs, or more than the machine has): IMPORT_TRUNCATE
 *   (default) gives it every free node, IMPORT_SKIP gives it none; both
 *   are counted with the node-seconds not placed.
 * - Span: the window start..end if given, else from the first job start
 *   to the last job end.  The trace opens with an event at the span's
 *   start listing every node idle then, and closes with an event at its
 *   end (possibly without changes).
 * - Outages (outage_threshold > 0): a period during which at least
 *   ceil(threshold * nodes) nodes are idle, lasting at least outage_min
 *   seconds, is not offered: at its start every offered node leaves, at
 *   its end the nodes idle then join.  Reported with the node-seconds
 *   removed.
 *
 * - Types: o->node_types (a mapping, applied to the node names), or
 *   o->types_from_partition (Slurm), or o->partition_nodes (SWF): see the
 *   importers.  At most one of them.
 *
 * Memory is proportional to the nodes, the running jobs and the jobs read
 * but not yet started (SWF: submitted before the line being read; Slurm:
 * see import_slurm). */

#include <stdio.h>

enum import_placement { IMPORT_FIRST_FIT, IMPORT_CONTIGUOUS };
enum import_overflow { IMPORT_TRUNCATE, IMPORT_SKIP };

/* "No window bound given". */
#define IMPORT_TIME_NONE INT64_MIN

struct import_log_opts {
    enum import_placement placement;
    enum import_overflow overflow;
    int64_t start, end;      /* window (Unix s); IMPORT_TIME_NONE: none */
    double outage_threshold; /* fraction of the nodes idle; 0: off */
    int64_t outage_min;      /* seconds (default 3600) */
    size_t machine_nodes;    /* 0: from the SWF header / the Slurm log */
    size_t max_nodes;        /* most nodes inferred, or named in one host
                                list (default IMPORT_MAX_NODES) */
    int64_t procs_per_node;  /* SWF; 0: MaxProcs / MaxNodes, else 1 */
    int64_t tz_offset;       /* Slurm: local time minus UTC, seconds */
    const char *nodes_file;  /* Slurm (borrowed); NULL: nodes in the log */
    const char *columns;     /* Slurm (borrowed): the fields of a file without
                                a header, as sacct --format names them
                                (import_slurm_columns_check); NULL: the
                                header names them */
    int64_t origin;          /* Batsim: Unix time of simulation time 0 */
    const struct nodetypes *node_types; /* borrowed; NULL: no mapping */
    int types_from_partition;           /* Slurm: types from Partition */
    const char *partition_nodes; /* SWF (borrowed): "NAME=COUNT[:PPN],..."
                                    (import_swf); NULL: one machine */
    const char *tz; /* PBS (borrowed): the zone of the log's time stamps
                       (import_tz_open); NULL: UTC */
    int skip_bad;   /* PBS, LSF: a malformed record is counted and skipped,
                       not an error */
};

/* Default of --max-nodes: the largest machine a conversion infers from a
 * log on its own (SWF MaxNodes, the peak of a Slurm log's NNodes, the
 * distinct names of its NodeList column) and the most hosts one host list
 * may expand to.  More than any machine has (2^20), so that a small
 * hostile log ("a[1-3222222]", NNodes 11624779) cannot make a trace of
 * millions of nodes; --machine-nodes gives a size explicitly instead. */
#define IMPORT_MAX_NODES ((size_t)1 << 20)

/* Sets the defaults: first fit, truncate, no window, no outage marking
 * (outage_min 3600), max_nodes IMPORT_MAX_NODES, everything else from the
 * input. */
void import_log_opts_init(struct import_log_opts *o);

/* Sets the option named as on the command line ("placement",
 * "overflow", "start", "end", "outage-threshold", "outage-min-duration",
 * "machine-nodes", "max-nodes", "procs-per-node", "tz-offset",
 * "nodes-file", "origin", "partition-nodes", "columns", "tz", "skip-bad")
 * from its text value; value is borrowed for "nodes-file",
 * "partition-nodes", "columns" and "tz" (whose forms are checked here;
 * "skip-bad" takes any value).  Returns 0, or BFS_EINVAL with the problem
 * in e. node_types and types_from_partition are set by the caller. */
int import_log_opts_set(struct import_log_opts *o, const char *name,
                        const char *value, struct bfs_error *e);

/* What a conversion found, counted (filled on success). */
struct import_log_report {
    char format[8]; /* "swf" or "slurm" */
    size_t lines;   /* input lines read (last pass) */
    size_t records; /* job records (SWF) or non-header rows (Slurm) */
    size_t jobs;    /* records that became busy intervals */
    /* records skipped, by reason */
    size_t unknown_submit;  /* SWF: submit time < 0 */
    size_t unknown_run;     /* SWF: run time < 0 */
    size_t zero_run;        /* run time 0 (SWF) or End == Start (Slurm) */
    size_t unknown_size;    /* processors (SWF) or NNodes (Slurm) < 1 */
    size_t partial_summary; /* SWF: summary line of a job given as
                               partial executions (status 2-4) */
    size_t other_partition; /* SWF with partition_nodes: a partition not
                               listed there (or unknown, -1) */
    size_t steps;           /* Slurm: JobID with '.' (job steps) */
    size_t never_ran;       /* Slurm: no Start, or State PENDING */
    size_t no_nodes;        /* Slurm: NodeList "None assigned" */
    size_t bad_interval;    /* Slurm: End before Start */
    size_t malformed;       /* Slurm: rows with a wrong field count */
    size_t first_malformed; /* line of the first one */
    size_t outside_nodes;   /* Slurm: nodes not in --nodes-file, ignored */
    /* records kept, but noted */
    size_t wait_unknown;    /* SWF: wait < 0, started at submission */
    size_t running;         /* Slurm: no End: ends at the log's end */
    size_t nnodes_mismatch; /* Slurm: NNodes != hosts in NodeList */
    int64_t log_end;        /* Slurm: the latest time in the log */
    int64_t reorder_lag;    /* Slurm: largest start before a later one */
    int64_t submit_lag;     /* Slurm: largest start before a Submit
                               read earlier; -1: no usable Submit */
    /* the machine */
    size_t nodes;
    char nodes_from[48];    /* where the node count came from */
    int64_t procs_per_node; /* SWF */
    char ppn_from[96];
    size_t partitions;  /* SWF: partitions of --partition-nodes; 0: none */
    int64_t unix_start; /* SWF: UnixStartTime */
    /* placement */
    enum import_placement placement;
    enum import_overflow overflow;
    size_t placed;        /* jobs given all their nodes */
    size_t truncated;     /* given fewer (IMPORT_TRUNCATE) */
    size_t dropped;       /* given none: IMPORT_SKIP, or no node free */
    size_t oversized;     /* needed more nodes than the machine has */
    size_t fragmented;    /* IMPORT_CONTIGUOUS fell back to first fit */
    uint64_t lost_node_s; /* node-seconds of nodes not given */
    size_t peak_jobs;     /* most jobs held in memory at once */
    /* the trace */
    int64_t start, end;      /* its span */
    uint64_t idle_node_s;    /* idle node-seconds offered by the trace */
    double outage_threshold; /* 0: no outage marking */
    size_t outage_nodes;     /* ceil(threshold * nodes) */
    int64_t outage_min;
    size_t outages;         /* periods marked */
    uint64_t outage_node_s; /* idle node-seconds they removed */
};

/* Converts a Standard Workload Format log (Parallel Workloads Archive,
 * plain or compressed) to a trace at out_path.  18 numeric fields per job line
 * (times may have decimals: rounded to the nearest second); ';' lines are
 * comments, and the header keys UnixStartTime (added to every time),
 * MaxNodes and MaxProcs (leading integer of the value) are read.
 * Nodes per job = ceil(allocated processors / procs per node), procs per
 * node = o->procs_per_node, else MaxProcs / MaxNodes rounded down (noted
 * when inexact), else 1; machine = o->machine_nodes, else MaxNodes, else
 * MaxProcs / procs per node, else an error.  Nodes are named "n" + index
 * zero-padded to the digits of nodes - 1 ("n0000".."n4359").
 * Start = submit + wait (wait < 0: at submission), end = start + run
 * time.  Skipped and counted: submit < 0, run time < 0, run time 0,
 * allocated processors < 1.  Partial executions (status 2, 3, 4) are
 * each an interval, and a summary line (same job number, status 0, 1 or
 * 5) adjacent to them is dropped.  Lines must come in submit order as the
 * format requires (a job starting before events already final is an
 * error).
 *
 * Partitions (o->partition_nodes "NAME=COUNT[:PPN],...", exclusive with
 * o->machine_nodes and o->node_types): the machine is the partitions'
 * nodes in the order given (the first COUNT_1 nodes are NAME_1's, the
 * next COUNT_2 NAME_2's, ...), each typed NAME.  NAME is an SWF partition
 * number or a name given by the header's "; Partition: NUMBER NAME" lines
 * (all the numbers of that name).  A job goes to the partition of its
 * field 16, is placed (o->placement, o->overflow) within its nodes only,
 * and needs ceil(processors / PPN) of them (PPN defaults to the machine's
 * processors per node above); jobs of a partition not listed, or of
 * partition -1, are skipped and counted (other_partition).
 *
 * Returns 0 or a negative code with "file:line: problem" in e. */
int import_swf(const char *src, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_log_report *rep,
               struct bfs_error *e);

/* Converts Slurm accounting output to a trace.  Read forms: `sacct
 * --parsable2` (or --parsable: '|' separated, header line of column
 * names) and sacct's fixed-width output (a header line, a line of dash
 * runs giving the column widths; data rows that contain tabs are split at
 * the tabs instead).  Lines before the header are ignored.  Columns by
 * name (case-insensitive, any order): JobID, Start, End and NNodes (or
 * AllocNodes) or NodeList are required; State and NodeList are used when
 * present.  Times are "YYYY-MM-DDTHH:MM:SS" in local time, converted with
 * o->tz_offset (UTC = local - offset).  Rows: JobID with '.' (steps) are
 * ignored; Start Unknown/None/empty or State PENDING: never ran; End
 * Unknown/None/empty: running, ends at the latest time in the log; End
 * before Start, End == Start, NodeList "None assigned": skipped; a row
 * with a wrong field count is skipped.  All counted.  With NodeList the
 * nodes are those named (host lists expanded), sorted by
 * hostlist_name_cmp, or the names of o->nodes_file in its order (nodes
 * not in it are ignored, counted); a node is busy while at least one job
 * holds it.  Without NodeList, counts and placement as for SWF, on
 * o->machine_nodes nodes, else the peak concurrent node use in the log.
 * The input is read two or three times (it must be a file, not "-"):
 * node names, the log's end and the reorder lag L (largest amount by
 * which a start precedes an earlier row's start) first; then jobs are
 * held only from their row until their end, and events before (latest
 * start read - L) are final.
 *
 * Types: o->node_types is applied to the trace's node names (a node it
 * does not name is an error).  o->types_from_partition instead types each
 * node with the Partition column of the job rows whose NodeList names it
 * (Partition and NodeList columns required; a node in jobs of two
 * partitions, an empty Partition, or a node no job ran on, e.g. from
 * o->nodes_file, are errors).
 *
 * Without a header (sacct --noheader), o->columns names the fields: a
 * comma-separated list as given to sacct --format (names in any case,
 * each with an optional width suffix %N or %-N, ignored), and every
 * non-blank line is a '|'-separated row (--parsable2, or --parsable with
 * its trailing '|').  A file that has a header line as its first
 * non-blank line may still be given o->columns: the header must then
 * name the same fields in the same order (an error otherwise), and is
 * skipped.  A file with neither is an error that suggests --columns.
 *
 * Returns 0 or a negative code. */
int import_slurm(const char *src, const char *out_path,
                 const char *const *comments, const struct import_log_opts *o,
                 struct import_stats *st, struct import_log_report *rep,
                 struct bfs_error *e);

/* Checks a --columns list (import_log_opts.columns): non-empty names,
 * each one of sacct's fields (Account ... WorkDir, case-insensitive) with
 * an optional width suffix (%N, %-N), JobID (or JobIDRaw), Start and End
 * among them, and NNodes (or AllocNodes) or NodeList.  Returns 0, or
 * BFS_EUSAGE with "--columns: problem" in e. */
int import_slurm_columns_check(const char *list, struct bfs_error *e);

/* Writes the report for a person, one "bfsim: " line per fact, to f. */
void import_log_report_write(const struct import_log_report *r, FILE *f);

/* Writes to f a "bfsim: warning: " line for each sign that the log is not
 * one machine: an SWF header without MaxNodes (and no --machine-nodes),
 * or a mean busy share of the nodes above 90% (1 - idle node-seconds /
 * (nodes x the trace's span)).  Returns the number of warnings. */
int import_log_warnings(const struct import_log_report *r, FILE *f);

/* ==== end of SWF and Slurm block ======================================= */

/* ==== Accounting logs: PBS and LSF (import/import_pbs.c, import_lsf.c) ==
 */

/* PBS Pro, OpenPBS and Torque write one accounting record a line,
 * "MM/DD/YYYY HH:MM:SS;T;ID;MESSAGE", to a file a day; LSF writes its
 * records to lsb.acct (rotated to lsb.acct.1, ...).  Both give runs of
 * jobs on named hosts, which become a trace through the job-log engine
 * as for Slurm (ends before starts at one second; a host is busy while a
 * run holds it).  Every input is read whole (records of one job may lie
 * in several files), so memory grows with the runs.  The machine, and
 * the placement of a run that gives a node count only: import_acct.h.
 * Records of kinds not read are counted by kind, never an error; a
 * malformed record is an error naming the file and line, or, with
 * o->skip_bad, skipped and counted (the first message kept).  Types:
 * o->node_types applied to the node names. */

struct import_acct_report {
    struct import_log_report log; /* format, machine, placement, trace */
    size_t files;                 /* files read */
    size_t lines;                 /* lines read, all files */
    size_t records;               /* non-blank lines */
    struct {
        char name[24]; /* the record kind ("Q", "JOB_RESIZE") */
        size_t n;
    } kinds[16];          /* records of kinds not read, by kind */
    size_t n_kinds;       /* the last one is "other" when there were more */
    size_t runs;          /* busy intervals */
    size_t counted;       /* of which with a node count only, placed */
    size_t never_ran;     /* ended without starting (LSF startTime 0; PBS
                             E without start) */
    size_t zero_run;      /* end == start: no interval */
    size_t bad_interval;  /* end before start: skipped */
    size_t no_size;       /* neither hosts nor a node count: skipped */
    size_t running;       /* no end record: end at the latest time read */
    size_t reruns;        /* PBS: R records ending a run */
    size_t deleted;       /* PBS: D or A records ending a run */
    size_t restarted;     /* PBS: S while a run was open: it ends there */
    size_t duplicates;    /* PBS: S or E of a run read already */
    size_t ends_nothing;  /* PBS: R, D or A of a job not running */
    size_t slots;         /* LSF: execHosts entries (slots) */
    size_t outside_nodes; /* host mentions not in o->nodes_file */
    size_t bad;           /* malformed records skipped (o->skip_bad) */
    char first_bad[320];  /* the first one's message */
    char version[16];     /* LSF: the first record's format version */
    char tz[64];          /* PBS: the zone of the time stamps */
    int64_t latest;       /* the latest time read */
};

/* Converts PBS accounting logs to a trace at out_path: the n files or
 * directories src (acct_files: a directory's files, all read in name
 * order).  Record types S (start) and E (end) are read; R (rerun) ends a
 * running run at its time, D (deleted) and A (aborted) too unless an E
 * record of the same run follows (its end is used); other types are
 * counted.  The message is blank-separated key=value attributes (a
 * value may hold '=' and, in double quotes, blanks).  A run's start is
 * the attribute start (Unix seconds), else the S record's time; its end
 * the E record's attribute end, else its time.  Record times are local
 * times of o->tz (default UTC).  Hosts: exec_host ("h1/0*2+h2/0-3"; the
 * host is the text before '/'), else exec_vnode ("(v1:ncpus=2)+(v2:...+
 * v3:...)"; each vnode a host), each host held once; else the node
 * count Resource_List.nodect, else the sum of the chunk counts of
 * Resource_List.select ("2:ncpus=8+1:ngpus=1" is 3), else of
 * Resource_List.nodes ("2:ppn=6" is 2, "n1+n2" is 2), placed.  An S of a
 * job whose run is open with another start ends that run there
 * (restarted); an S or E of a start read already is a duplicate (its
 * hosts are used if the run had none).  A run still open at the end ends
 * at the latest time read.  Returns 0 or a negative code with
 * "file:line: problem" in e; st and rep (each may be NULL) on success. */
int import_pbs(const char *const *src, size_t n, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_acct_report *rep,
               struct bfs_error *e);

/* Converts LSF lsb.acct files (or directories of them, as for PBS) to a
 * trace at out_path.  Records are blank-separated fields, strings in
 * double quotes ("" stands for one quote); the first names the kind.
 * JOB_FINISH records are read by lsb.acct's field order, the same in
 * every version: kind, version, event time (the run's end), jobId,
 * userId, options, numProcessors, submitTime, beginTime, termTime,
 * startTime (the run's start; 0: never started), userName, queue,
 * resReq, dependCond, preExecCmd, fromHost, cwd, inFile, outFile,
 * errFile, jobFile, numAskedHosts and that many askedHosts, numExHosts
 * and that many execHosts; the fields after them are not read.  An
 * execHosts entry is a slot on a host: a host listed k times, or once as
 * "k*host", is one node.  Host names are kept as written (with an
 * "@cluster" suffix of MultiCluster jobs).  Other record kinds are
 * counted.  Returns 0 or a negative code with "file:line: problem" in
 * e; st and rep (each may be NULL) on success. */
int import_lsf(const char *const *src, size_t n, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_acct_report *rep,
               struct bfs_error *e);

/* Writes the report for a person, one "bfsim: " line per fact, to f. */
void import_acct_report_write(const struct import_acct_report *r, FILE *f);

/* Writes to f a "bfsim: warning: " line when the machine is only the
 * hosts the log names, when malformed records were skipped, and the
 * busy-share warning of import_log_warnings.  Returns the number of
 * warnings. */
int import_acct_warnings(const struct import_acct_report *r, FILE *f);

/* ==== end of accounting block ========================================== */

/* ==== Batsim outputs (import/import_batsim.c) ========================== */

/* Batsim's jobs.csv (its main output) and its external-events file (an
 * input: machines becoming unavailable and available again) name the
 * resources as interval sets of ids ("0-3 7", hostlist.h), so a node is
 * busy exactly while a job holds it or it is unavailable, and idle
 * otherwise; no placement rule is involved.  Either file, or both, make
 * one trace through the job-log engine (import_log.h):
 *
 * - jobs.csv: columns found by header name; starting_time, finish_time
 *   and allocated_resources are required, job_id and final_state used
 *   when present, the rest ignored (so bfsim's own --batsim-jobs output
 *   reads back).  A row with more fields than the header is accepted
 *   only when the header's last column is metadata (Batsim does not
 *   quote it).  Rows in any order (Batsim writes them as jobs finish).
 *   A row with final_state REJECTED, or an empty starting_time or
 *   allocated_resources, never ran; a row whose rounded finish equals
 *   its start ran 0 s: both skipped and counted.  A finish before the
 *   start is an error.
 * - external events: JSON lines, one object per line, with "type" and
 *   "timestamp" (a number >= 0).  Types machine_unavailable and
 *   machine_available (Batsim 3 and 4) carry "resources", an interval
 *   set; type generic (Batsim 5) carries a string "data", read as a
 *   machine event when it is itself such a JSON object and otherwise
 *   ignored (counted).  Any other type is an error, as in Batsim without
 *   --forward-unknown-events.  Lines in any order: as Batsim does, they
 *   are sorted by timestamp (file order at equal times).  A node is
 *   unavailable from the first machine_unavailable naming it to the next
 *   machine_available naming it (a repeated event changes nothing), and
 *   until the trace's end when none follows.
 * - Times are simulation seconds: each becomes origin + the value
 *   rounded to the nearest second.  The trace spans o->start (default:
 *   simulation time 0, when Batsim's machines are all idle) to o->end
 *   (default: the latest time in the inputs).
 * - The machine: o->machine_nodes nodes (an id beyond it is an error),
 *   else the largest id named + 1 (reported, and warned about: Batsim's
 *   schedule.csv gives the true size as nb_computing_machines); at most
 *   o->max_nodes.  Node i, named "n" + i zero-padded, is resource i.
 * - Types: o->node_types applied to those names, when given.
 *
 * Memory is proportional to the inputs (both are read whole first, as
 * neither is in time order). */

struct import_batsim_report {
    struct import_log_report log; /* the machine, trace and outage parts */
    size_t rows;                  /* jobs.csv data rows */
    size_t jobs;                  /* rows that became busy intervals */
    size_t not_run;               /* REJECTED, or no start or no allocation */
    size_t zero_run;              /* rounded finish == start */
    size_t events;                /* event lines */
    size_t unavailable; /* machine_unavailable events (generic included) */
    size_t available;   /* machine_available events */
    size_t ignored;     /* generic events that are not machine events */
    size_t periods;     /* node unavailability periods (busy intervals) */
    size_t open_at_end; /* nodes still unavailable at the end */
    int64_t origin;     /* o->origin */
    int64_t last;       /* the latest time in the inputs (Unix s) */
};

/* Converts a Batsim jobs.csv (jobs_csv; may be NULL) and/or external-events
 * file (events; may be NULL; not both NULL), plain or compressed, to a trace at
 * out_path.  Reads o->machine_nodes, max_nodes, start, end, outage
 * settings and origin.  Returns 0 or a negative code with
 * "file:line: problem" in e (nothing is written then); rep and st are
 * filled on success (each may be NULL). */
int import_batsim(const char *jobs_csv, const char *events,
                  const char *out_path, const char *const *comments,
                  const struct import_log_opts *o, struct import_stats *st,
                  struct import_batsim_report *rep, struct bfs_error *e);

/* Writes the report for a person, one "bfsim: " line per fact, to f. */
void import_batsim_report_write(const struct import_batsim_report *r, FILE *f);

/* Writes to f a "bfsim: warning: " line when the machine's size was
 * inferred from the largest resource id, and the busy-share warning of
 * import_log_warnings.  Returns the number of warnings. */
int import_batsim_warnings(const struct import_batsim_report *r, FILE *f);

/* ==== end of Batsim block ============================================== */

/* ==== ElastiSim node utilization (import/import_elastisim.c) ========== */

/* ElastiSim's node-utilization output (its "node_utilization" file) logs
 * every change of a node's state, one CSV row each: Time (simulation
 * seconds), Node (its name), State (free, allocated or reserved), then
 * the running and expected job ids.  Columns are found by header name
 * (Time, Node, State; case-insensitive), the rest ignored.  A node is
 * idle while free and busy while allocated (a job runs on it) or reserved
 * (the scheduler has promised it to a job about to start or expand:
 * harvesting it would delay that job).  Rows must come in time order, as
 * ElastiSim writes them (an earlier time than the row before is an
 * error); at one time the last row of a node wins.  Nodes keep their
 * names, in order of first appearance (ElastiSim lists every node at
 * time 0); at most o->max_nodes.  Times, the window, o->origin and
 * o->node_types are as for Batsim; a node busy at the end stays busy to
 * the end.  Memory is
 * the nodes and their busy periods.  ElastiSim's job statistics file
 * names no nodes, so it cannot give a trace. */

struct import_elastisim_report {
    struct import_log_report log; /* the machine, trace and outage parts */
    size_t rows;                  /* data rows */
    size_t free_rows;             /* rows by state */
    size_t allocated;
    size_t reserved;
    size_t periods;     /* busy periods */
    size_t open_at_end; /* nodes busy at the end */
    int64_t origin;     /* o->origin */
    int64_t last;       /* the latest time (Unix s) */
};

/* Converts an ElastiSim node-utilization file (plain or compressed) to a trace
 * at out_path.  Reads o->max_nodes, start, end, outage settings and
 * origin.  Returns 0 or a negative code with "file:line: problem" in e
 * (nothing is written then); rep and st are filled on success (each may
 * be NULL). */
int import_elastisim(const char *src, const char *out_path,
                     const char *const *comments,
                     const struct import_log_opts *o, struct import_stats *st,
                     struct import_elastisim_report *rep, struct bfs_error *e);

/* Writes the report for a person, one "bfsim: " line per fact, to f. */
void import_elastisim_report_write(const struct import_elastisim_report *r,
                                   FILE *f);

/* ==== end of ElastiSim block =========================================== */

/* ==== native traces, recompressed (import/import_native.c) ============= */

/* Copies the native trace src (plain or compressed, any codec bfs_lines
 * reads) to out_path, compressed as out_path's suffix says (trace.h,
 * zout.h), atomically.  src is first read whole as a trace (every rule
 * of trace.h checked, st filled: nodes, events, joins, leaves, times,
 * max_idle, types), then copied line for line, so the decompressed text
 * is the input's, byte for byte, comments and blank lines included; only
 * line ends are normalized ("\r\n" and a missing last "\n" become
 * "\n", a UTF-8 byte-order mark is dropped), as bfs_lines reads them.
 * Nothing is written when the input is not a valid trace.  Returns 0 or
 * a negative code, reported in e with the file (and line). */
int import_native(const char *src, const char *out_path,
                  struct import_stats *st, struct bfs_error *e);

#endif
