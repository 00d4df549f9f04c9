/* hostlist.h - Slurm host lists ("nid[00012-00015,00020]") and node names.
 *
 * A host list is a comma-separated list of host expressions.  An
 * expression is literal text with zero or more bracket groups; a group is
 * a comma-separated list of numbers and ranges LO-HI.  An expression with
 * several groups expands to their cross product, the leftmost group
 * varying slowest, as Slurm prints them:
 *
 *     a[1-3,5],b7,c[01-02]-ib  ->  a1 a2 a3 a5 b7 c01-ib c02-ib
 *     rack[1-2]-n[01-02]       ->  rack1-n01 rack1-n02 rack2-n01 rack2-n02
 *
 * Zero padding: a bound written with a leading zero ("01", "007") fixes
 * the width of every number of its range, and both bounds must then have
 * the same number of digits ("01-10" gives 01..10, "1-010" is an error);
 * bounds without leading zeros print as plain numbers ("8-10" gives 8, 9,
 * 10).  Errors (reported with the column, 1-based, of the problem):
 * empty list, empty host name or range, unbalanced or nested brackets,
 * reversed range (5-3), bounds of different widths, anything but digits,
 * ',' and '-' inside brackets, blanks, more hosts in one list than the
 * caller's limit (checked before any name is made, so that a short list
 * such as "n[0-99999999]" costs nothing).  Duplicates are kept in list order;
 * hostlist_sort removes them.
 *
 * Node order: hostlist_name_cmp compares names piecewise, runs of digits
 * by numeric value ("n2" < "n10"), everything else byte by byte; names
 * equal but for leading zeros order the one with fewer zeros first, so the
 * order is total.
 *
 * Batsim interval sets ("0-3 7 9-10"), the other way a log names nodes:
 * non-negative integer ids, single ids "a" and closed ranges "a-b"
 * (a <= b), separated by spaces, in any order, overlaps allowed (Batsim's
 * interval-set documentation).  hostlist_ids_parse reads one into sorted
 * distinct ids; hostlist_ids_write prints the canonical form (ascending,
 * maximal runs, "a" for a run of one), which the parser reads back.
 */
#ifndef BFS_HOSTLIST_H
#define BFS_HOSTLIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* A growing list of host names. */
struct hostlist {
    char **names; /* owned, and each name owned */
    size_t n;
    size_t cap;
};

/* Makes h an empty list. */
void hostlist_init(struct hostlist *h);

/* Expands the host list text and appends its names to h; a list of more
 * than max hosts is an error (its message names max and limit_name, the
 * option that sets it, e.g. "--max-nodes").  file and line (file may be
 * NULL, line 0) prefix error messages.  Returns 0, or BFS_EPARSE
 * (reported in e with the column) leaving h unchanged. */
int hostlist_expand(struct hostlist *h, const char *list, size_t max,
                    const char *limit_name, const char *file, size_t line,
                    struct bfs_error *e);

/* Appends a copy of name to h. */
void hostlist_push(struct hostlist *h, const char *name);

/* Sorts h by hostlist_name_cmp and removes duplicates. */
void hostlist_sort(struct hostlist *h);

/* Numeric-aware comparison of two names: <0, 0 (equal strings only), >0. */
int hostlist_name_cmp(const char *a, const char *b);

/* Empties h (it can be reused). */
void hostlist_clear(struct hostlist *h);

/* Frees the names; h is left empty. */
void hostlist_release(struct hostlist *h);

/* A hash map from names to indices, for mapping the names a log mentions
 * to node positions in memory proportional to the number of names. */
struct hostlist_index;

struct hostlist_index *hostlist_index_new(void);

/* Adds name (copied) with value v unless it is already present.  Returns
 * 1 if added, 0 if it was there (its value is left as it was). */
int hostlist_index_add(struct hostlist_index *ix, const char *name, size_t v);

/* The value of name, or (size_t)-1 when it is absent. */
size_t hostlist_index_find(const struct hostlist_index *ix, const char *name);

/* Number of names held. */
size_t hostlist_index_count(const struct hostlist_index *ix);

/* NULL is a no-op. */
void hostlist_index_free(struct hostlist_index *ix);

/* Parses the Batsim interval set s into the distinct ids it names, in
 * ascending order: *ids (grown with *cap as by BFS_GROW; the caller owns
 * and frees it) gets them and *n their number (0 for an empty or blank
 * s).  An id >= limit is an error whose message says "beyond LIMIT_WHAT"
 * (e.g. "the machine's 8 nodes (--machine-nodes)"), checked before any
 * range is expanded.  file and line (file may be NULL, line 0) and the
 * 1-based column prefix messages.  Returns 0, or BFS_EPARSE (not an
 * interval set: a character other than digits, '-' and ' ', an empty
 * bound, a reversed range) or BFS_ERANGE (an id at or beyond limit), with
 * *ids, *n and *cap unchanged but for growth. */
int hostlist_ids_parse(const char *s, uint32_t limit, const char *limit_what,
                       uint32_t **ids, size_t *n, size_t *cap, const char *file,
                       size_t line, struct bfs_error *e);

/* Writes ids[0..n-1] (ascending, distinct) to f as a canonical Batsim
 * interval set ("0-3 7"); nothing for n = 0. */
void hostlist_ids_write(FILE *f, const uint32_t *ids, size_t n);

#endif
