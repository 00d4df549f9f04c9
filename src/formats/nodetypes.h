/* nodetypes.h - node-type mapping files: which type each named node is.
 *
 * A mapping file gives node names a type name (tools/DESIGN.md, "Node
 * types"); applied to a list of node names (a trace's, a log's) it gives
 * every node its type.  Plain or compressed text; blank lines and lines whose
 * first non-blank character is '#' are ignored.  Two forms, told apart
 * per file by the first other line:
 *
 * - sinfo: the output of `sinfo -N -h -o '%N %P %f %G'`, four fields a
 *   line: node, partition, features, GRES, e.g.
 *
 *       gpu001 gpu* a100,ib gpu:a100:4(S:0-1)
 *       gpu001 debug a100,ib gpu:a100:4(S:0-1)
 *       cpu001 batch ib (null)
 *
 *   A node in several partitions has one line per partition.  The type
 *   is one field, by the rule (enum nodetypes_rule): its GRES (the
 *   default: what DNN training speed depends on, the GPU model and count;
 *   "(...)" socket bindings removed: "gpu:a100:4"), its features as
 *   listed ("a100,ib"), or its partition (the default partition's '*'
 *   removed).  "(null)", sinfo's empty value, gives the type "none".  The
 *   node field may be a host list (sinfo without -N prints them), and a
 *   first line naming sinfo's column headers (NODELIST PARTITION
 *   AVAIL_FEATURES GRES, when -h was left out) is skipped.
 * - HOSTLIST TYPE: two fields, a Slurm host list (hostlist.h) and the
 *   type of every node it names: "gpu[001-016] A100".
 *
 * A node named twice with the same type is fine (sinfo repeats nodes per
 * partition); with different types it is an error naming both lines (so
 * the partition rule needs disjoint partitions).  A type is non-empty
 * and holds no blank or control character.  Errors name the file and
 * line: a line of the wrong shape, an empty type (a host list without
 * one, or a field empty once the rule has stripped it), a bad host list,
 * a node given two types, a rule named for a file in the HOSTLIST TYPE
 * form.  Each host list may name at most NODETYPES_MAX_HOSTS nodes, and
 * so may the whole file.
 *
 * Applying a mapping (nodetypes_apply) to node names: a node missing from
 * the mapping is an error; hosts of the mapping that are not among the
 * nodes are fine (a mapping of the whole machine applied to a part of
 * it) and counted, for a warning.  Types are numbered in the order they
 * first appear among the nodes, as a typed trace numbers them (trace.h),
 * so a mapping applied at replay time and one written into the trace
 * give the same numbers.
 */
#ifndef BFS_NODETYPES_H
#define BFS_NODETYPES_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Most nodes one host list, or one file, may name. */
#define NODETYPES_MAX_HOSTS ((size_t)1 << 20)

/* Which sinfo field gives the type.  NODETYPES_RULE_DEFAULT: GRES for a
 * sinfo file, and the only one a HOSTLIST TYPE file accepts. */
enum nodetypes_rule {
    NODETYPES_RULE_DEFAULT,
    NODETYPES_RULE_PARTITION,
    NODETYPES_RULE_FEATURES,
    NODETYPES_RULE_GRES
};

/* Parses "partition", "features" or "gres" into *out.  Returns 0, or
 * BFS_EUSAGE (reported in e, naming the choices). */
int nodetypes_rule_parse(const char *s, enum nodetypes_rule *out,
                         struct bfs_error *e);

/* The rule's name as nodetypes_rule_parse reads it ("default" for
 * NODETYPES_RULE_DEFAULT). */
const char *nodetypes_rule_name(enum nodetypes_rule r);

struct nodetypes;

/* Reads the mapping file at path, taking types by rule (a rule other than
 * the default is an error for a HOSTLIST TYPE file).  Returns 0 or a
 * negative code with "path:line: problem" in e; *out (free with
 * nodetypes_free) is written only on success. */
int nodetypes_load(const char *path, enum nodetypes_rule rule,
                   struct nodetypes **out, struct bfs_error *e);

/* An empty mapping, to be filled with nodetypes_add from a source other
 * than a mapping file (a log's partitions); path names that source in
 * messages.  Its form is "built", its rule the default. */
struct nodetypes *nodetypes_new(const char *path);

/* Gives the node name the type (both copied), as line `line` of the
 * source says.  Returns 0; BFS_EPARSE for a type that is empty or holds a
 * blank or control character, or for a node given another type before
 * ("path:line: node 'x' has type 'a' here but 'b' on line N"); BFS_ERANGE
 * beyond NODETYPES_MAX_HOSTS nodes (each reported in e).  A node given
 * the same type again is fine. */
int nodetypes_add(struct nodetypes *m, const char *name, const char *type,
                  size_t line, struct bfs_error *e);

/* The path given to nodetypes_load or nodetypes_new (borrowed). */
const char *nodetypes_path(const struct nodetypes *m);

/* "sinfo" or "hostlist": the file's form ("built" for nodetypes_new). */
const char *nodetypes_form(const struct nodetypes *m);

/* The rule applied: a sinfo file's (DEFAULT resolved to GRES), or
 * NODETYPES_RULE_DEFAULT for a HOSTLIST TYPE file. */
enum nodetypes_rule nodetypes_rule(const struct nodetypes *m);

/* Number of distinct nodes the file names. */
size_t nodetypes_hosts(const struct nodetypes *m);

/* The type of the node named name (borrowed from m), or NULL when the
 * file does not name it. */
const char *nodetypes_find(const struct nodetypes *m, const char *name);

/* A mapping applied to n nodes. */
struct nodetypes_table {
    size_t n_nodes;
    size_t n_types;        /* >= 1 when n_nodes >= 1 */
    char **names;          /* owned: type names, numbered by first appearance */
    uint32_t *type;        /* owned: type of node i, i < n_nodes */
    const char **per_node; /* owned array of borrowed names[type[i]]: the
                              form trace_writer_open_typed takes */
    size_t unused;         /* nodes of the file that are not among the names */
};

/* Gives each of the n nodes named names[i] (borrowed) its type under m.
 * Returns 0, or BFS_ENOTFOUND for a node the file does not name
 * (reported in e as "path: node 'NAME' (node I of N) is not in the
 * mapping"); *out (release with nodetypes_table_release) is written only
 * on success.  names must be distinct for unused to be exact. */
int nodetypes_apply(const struct nodetypes *m, const char *const *names,
                    size_t n, struct nodetypes_table *out, struct bfs_error *e);

/* Frees what t owns and empties it.  An emptied table is a no-op. */
void nodetypes_table_release(struct nodetypes_table *t);

/* NULL is a no-op. */
void nodetypes_free(struct nodetypes *m);

#endif
