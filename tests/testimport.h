/* testimport.h - what the importer tests share: options written
 * "name=value;..." and a trace read back as text.
 *
 * Header-only (static functions), like testutil.h.
 */
#ifndef BFS_TESTIMPORT_H
#define BFS_TESTIMPORT_H

#include "testutil.h"
#include "import/import.h"
#include "formats/trace.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Sets *o to the defaults, then to each "name=value" of opts (separated
 * by ';'; NULL or "" for none) through import_log_opts_set; the test
 * fails on a malformed item or a refused value.  The values *o points to
 * (a --nodes-file path, say) live until exit. */
static inline void tu_import_opts(const char *opts, struct import_log_opts *o)
{
    char *buf, *save = NULL;

    opts = opts ? opts : "";
    buf = tu_keep(xmalloc(strlen(opts) + 1));
    memcpy(buf, opts, strlen(opts) + 1);
    import_log_opts_init(o);
    for (char *kv = strtok_r(buf, ";", &save); kv;
         kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert_ptr_nonnull(eq);
        *eq = '\0';
        ck_assert_int_eq(import_log_opts_set(o, kv, eq + 1, NULL), 0);
    }
}

/* The trace at path as text (malloc'd), one "SECONDS +joined -left" line
 * per event, times minus t0.  When not NULL, *nodes gets its size and
 * names the node names, blank-separated (truncated to 255 characters). */
static inline char *tu_trace_text(const char *path, int64_t t0, size_t *nodes,
                                  char names[256])
{
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    if (nodes)
        *nodes = trace_node_count(r);
    if (names) {
        names[0] = '\0';
        for (size_t i = 0; i < trace_node_count(r); i++) {
            size_t n = strlen(names);
            snprintf(names + n, 256 - n, "%s%s", i ? " " : "",
                     trace_node_name(r, i));
        }
    }
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        fprintf(f, "%" PRId64, ev.time - t0);
        for (size_t k = 0; k < ev.n_join; k++)
            fprintf(f, " +%" PRIu32, ev.join[k]);
        for (size_t k = 0; k < ev.n_leave; k++)
            fprintf(f, " -%" PRIu32, ev.leave[k]);
        fputc('\n', f);
    }
    ck_assert_msg(rc == 0, "%s", e.msg);
    trace_close(r);
    fclose(f);
    return text;
}

#endif
