/* summary.h - a run's summary as a list of named, typed values, and its
 * JSON form.
 *
 * The writers of a summary (this file's JSON writer, the HDF5 file's
 * /summary, the human report) know nothing of where the values come
 * from: the engine's table of measures (engine/measures.h) produces the
 * list, in its order, and every writer walks it.  A value either
 * describes the run (its version, mode, allocator, ...) or measures it;
 * a value may belong to a group, which the JSON form writes as a nested
 * object and a flat table names "group.key".
 */
#ifndef BFS_FORMATS_SUMMARY_H
#define BFS_FORMATS_SUMMARY_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <jansson.h>

#include "base/error.h"

enum summary_type {
    SUMMARY_INT,  /* v.i */
    SUMMARY_REAL, /* v.d */
    SUMMARY_TIME, /* v.i, Unix seconds; text "YYYY-MM-DD HH:MM:SS" (UTC) */
    SUMMARY_BOOL, /* v.i, 0 or 1 */
    SUMMARY_TEXT, /* v.s */
};

/* One value.  Strings are borrowed (static, or owned by whoever made the
 * list and outliving it). */
struct summary_value {
    const char *group; /* NULL, or the object it belongs to */
    const char *key;
    enum summary_type type;
    const char *unit; /* "" for text, flags and plain numbers */
    int describes;    /* describes the run rather than measuring it */
    int machine;      /* measures the machine: differs between two runs */
    int none;         /* undefined (over finished jobs, and none finished): the
                         human report prints "none"; v holds 0 */
    union {
        int64_t i;
        double d;
        const char *s;
    } v;
};

/* The list as a JSON object, keys in list order (a group becomes an
 * object at its first member's place); times as UTC text, reals as JSON
 * reals.  Returns a new reference. */
json_t *summary_json(const struct summary_value *v, size_t n);

/* Writes summary_json(v, n) to f, indented by 2, reals with 17
 * significant digits, and a final newline; name (the file's) is for
 * errors.  The caller makes the file atomic (formats/records.h's text
 * sink).  Returns 0 or BFS_EIO (reported in e). */
int summary_write_json(FILE *f, const char *name, const struct summary_value *v,
                       size_t n, struct bfs_error *e);

/* The value's flat name, "key" or "group.key", in buf (size len);
 * returns buf. */
char *summary_name(const struct summary_value *v, char *buf, size_t len);

#endif
