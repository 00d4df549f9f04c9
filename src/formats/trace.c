/* trace.c - reader and writer of the native trace format (see trace.h).
 *
 * Reader: the node list is read by trace_open (names kept, and per node
 * one 32-bit word: its idle flag and a 31-bit event stamp, so that a
 * change's checks touch one cache line); trace_next then parses one event
 * line at a time into two growable index arrays, so memory is O(nodes +
 * one event) whatever the length of the timeline.  The first event line is
 * met while looking for the end of the node list: it is kept (copied) and
 * returned by the first trace_next.  "A node at most once per event" is
 * checked with the stamps: node i was seen in this event iff its stamp
 * == the event's number, so no per-event clearing is needed; a node's
 * flag changes as it is read (a node listed twice is caught by its stamp
 * before its flag is looked at again), and back if the line is bad.
 * Lines come from bfs_lines (base/util.c's decoder into a 128 KiB
 * buffer, one reused line buffer: no allocation per line).  An event line
 * is parsed in one pass by hand, a time of plain digits and each "+I"/"-I"
 * token with no library call; any other form goes to the general rules
 * (bfs_parse_i64, parse_change), which give the errors, so the fast path
 * changes no verdict.  Reading costs less than decompressing with zlib:
 * gzip is inflated by ISA-L, and `bfsim info`, statistics included, takes
 * 0.68x the CPU of `zcat FILE | wc -l` on a 40,000-node year and 0.85x
 * on a 10,000-node month (tools/doc/trace-compression-2026-11-28.md).
 *
 * Types: the first node line says whether the trace is typed (three
 * fields) or not (two); every later one must agree.  Type names are
 * interned through a hash index (hostlist.h) as they first appear, so
 * node_type[i] is the type's number and reading costs O(nodes) whatever
 * the number of types.  An untyped trace allocates nothing for types.
 *
 * Writer: the same checks on the same state, then one formatted line per
 * event.  Output goes through bfs_out (temporary file renamed into place
 * on success); a path ending in ".gz", ".zst", ".xz" or ".bz2" gets a
 * compressed stream of that codec (bfs_zout, zout.h, at its default
 * level) written into the temporary file and ended before bfs_out_commit
 * syncs and renames the file.  No codec writes a time stamp, so equal
 * input gives equal bytes.
 *
 * Invariants: node i's idle flag (the reader's state[i] & 1, the
 * writer's idle[i]) is 1 iff node i is idle after the last event read
 * or written (a bad line changes no flag); a reader or writer that reported an
 * error stays failed.
 */
#include "config.h"

#include "formats/trace.h"
#include "formats/hostlist.h"
#include "base/out.h"
#include "base/util.h"
#include "base/zout.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ---------------------------------------------------- */

/* Per-event stamps: node i was listed in the current event iff
 * stamp[i] == cur.  Returns the new event's stamp, clearing on wrap. */
static uint32_t next_stamp(uint32_t *stamp, size_t n, uint32_t *cur)
{
    if (++*cur == 0) {
        memset(stamp, 0, n * sizeof *stamp);
        *cur = 1;
    }
    return *cur;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

static void sort_u32(uint32_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i - 1] > v[i]) {
            qsort(v, n, sizeof *v, cmp_u32);
            return;
        }
}

int trace_name_ok(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == 0x7f)
            return 0;
    return 1;
}

struct named {
    const char *name;
    size_t pos; /* line (reader) or index (writer) */
};

static int cmp_named(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    if (c)
        return c;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Sorts v and returns the index of the second of the first equal pair
 * found, or n if the names are unique. */
static size_t find_duplicate(struct named *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_named);
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i - 1].name, v[i].name) == 0)
            return i;
    return n;
}

/* ---- reader ------------------------------------------------------------ */

struct trace_reader {
    struct bfs_lines *in; /* owned */
    char *path;           /* owned */
    size_t n;
    char **names;        /* owned, n strings */
    size_t n_types;      /* 0: untyped */
    char **type_names;   /* owned, n_types strings */
    uint32_t *node_type; /* owned, n numbers; NULL when untyped */
    /* owned, n words: node i's stamp << 1 | its idle flag */
    uint32_t *state;
    uint32_t cur;    /* stamp of the current event, < 2^31 */
    uint32_t *join;  /* owned */
    uint32_t *leave; /* owned */
    size_t cap_join, cap_leave;
    char *held; /* owned: the first event line, read by trace_open */
    size_t held_line;
    int64_t last_time;
    size_t last_line; /* 0 before the first event */
    int failed;       /* sticky error code */
};

/* Whether a line carries nothing (blank or comment). */
static int line_empty(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0' || *s == '#';
}

/* Strips trailing blanks in place. */
static void rstrip(char *s)
{
    size_t n = strlen(s);

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

/* Reads the type field of a node line (NULL: none) into r, interning it
 * in ix; the first node line (line first) fixed whether nodes have types.
 * Returns 0 or BFS_EPARSE (reported in e). */
static int node_type(struct trace_reader *r, struct hostlist_index *ix,
                     const char *type, size_t lineno, size_t first,
                     size_t *cap_types, struct bfs_error *e)
{
    size_t t;

    if (r->n > 0 && (type != NULL) != (r->node_type != NULL))
        return bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                           "node '%s' has %s type but the first node (line "
                           "%zu) has %s: give every node a type, or none",
                           r->names[r->n], type ? "a" : "no", first,
                           type ? "none" : "one");
    if (!type)
        return 0;
    if (!trace_name_ok(type))
        return bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                           "bad node type (control character)");
    t = hostlist_index_find(ix, type);
    if (t == (size_t)-1) {
        t = r->n_types++;
        BFS_GROW(r->type_names, *cap_types, r->n_types);
        r->type_names[t] = xstrdup(type);
        hostlist_index_add(ix, type, t);
    }
    r->node_type[r->n] = (uint32_t)t;
    return 0;
}

int trace_open(const char *path, struct trace_reader **out, struct bfs_error *e)
{
    struct trace_reader *r;
    struct named *seen = NULL;
    struct hostlist_index *types = NULL;
    size_t cap_seen = 0, cap_names = 0, cap_types = 0, cap_nt = 0, dup;
    size_t first = 0;
    char *line, *f[4];
    int rc;

    r = xcalloc(1, sizeof *r);
    r->path = xstrdup(path);
    rc = bfs_lines_open(path, &r->in, e);
    if (rc)
        goto fail;

    rc = bfs_lines_next(r->in, &line, e);
    if (rc < 0)
        goto fail;
    if (rc == 0) {
        rc = bfs_fail_at(e, BFS_EPARSE, path, 1, "empty file (expected '%s')",
                         TRACE_MAGIC);
        goto fail;
    }
    rstrip(line);
    if (strcmp(line, TRACE_MAGIC) != 0) {
        rc = bfs_fail_at(e, BFS_EPARSE, path, 1,
                         "not a bfsim trace: first line '%.60s', expected "
                         "'%s'",
                         line, TRACE_MAGIC);
        goto fail;
    }

    /* Node lines, up to the first event line (or the end). */
    for (;;) {
        size_t nf, lineno;

        rc = bfs_lines_next(r->in, &line, e);
        if (rc < 0)
            goto fail;
        if (rc == 0)
            break;
        if (line_empty(line))
            continue;
        lineno = bfs_lines_lineno(r->in);
        if (strncmp(line, "node", 4) != 0 ||
            (line[4] != ' ' && line[4] != '\t' && line[4] != '\0')) {
            r->held = xstrdup(line);
            r->held_line = lineno;
            break;
        }
        nf = bfs_split_ws(line, f, 4);
        if (nf != 2 && nf != 3) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, lineno,
                             "expected 'node NAME' or 'node NAME TYPE' (no "
                             "blanks in either)");
            goto fail;
        }
        if (!trace_name_ok(f[1])) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, lineno,
                             "bad node name (control character)");
            goto fail;
        }
        if (r->n >= UINT32_MAX) {
            rc = bfs_fail_at(e, BFS_ERANGE, path, lineno, "too many nodes");
            goto fail;
        }
        BFS_GROW(r->names, cap_names, r->n + 1);
        BFS_GROW(seen, cap_seen, r->n + 1);
        r->names[r->n] = xstrdup(f[1]);
        if (r->n == 0) {
            first = lineno;
            if (nf == 3)
                types = hostlist_index_new();
        }
        if (types)
            BFS_GROW(r->node_type, cap_nt, r->n + 1);
        if ((rc = node_type(r, types, nf == 3 ? f[2] : NULL, lineno, first,
                            &cap_types, e)) != 0) {
            xfree(r->names[r->n]);
            goto fail;
        }
        seen[r->n].name = r->names[r->n];
        seen[r->n].pos = lineno;
        r->n++;
    }
    if (r->n == 0) {
        rc = bfs_fail_at(e, BFS_EPARSE, path,
                         r->held ? r->held_line : bfs_lines_lineno(r->in),
                         "no 'node NAME' line before the first event");
        goto fail;
    }
    dup = find_duplicate(seen, r->n);
    if (dup < r->n) {
        rc = bfs_fail_at(e, BFS_EPARSE, path, seen[dup].pos,
                         "duplicate node name '%s' (first on line %zu)",
                         seen[dup].name, seen[dup - 1].pos);
        goto fail;
    }
    xfree(seen);
    hostlist_index_free(types);
    r->state = xcalloc(r->n, sizeof *r->state);
    *out = r;
    return 0;

fail:
    xfree(seen);
    hostlist_index_free(types);
    trace_close(r);
    return rc;
}

size_t trace_node_count(const struct trace_reader *r)
{
    return r->n;
}

const char *trace_node_name(const struct trace_reader *r, size_t i)
{
    return r->names[i];
}

size_t trace_type_count(const struct trace_reader *r)
{
    return r->n_types;
}

const char *trace_type_name(const struct trace_reader *r, size_t t)
{
    return r->type_names[t];
}

uint32_t trace_node_type(const struct trace_reader *r, size_t i)
{
    return r->node_type ? r->node_type[i] : 0;
}

int trace_node_idle(const struct trace_reader *r, size_t i)
{
    return (int)(r->state[i] & 1);
}

const char *trace_path(const struct trace_reader *r)
{
    return r->path;
}

/* Parses "+I" or "-I" (I decimal, < n) into *sign ('+' or '-') and *idx. */
static int parse_change(const char *s, size_t n, char *sign, uint32_t *idx)
{
    uint64_t v = 0;
    const char *p = s + 1;

    if (*s != '+' && *s != '-')
        return BFS_EPARSE;
    if (*p == '\0')
        return BFS_EPARSE;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return BFS_EPARSE;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return BFS_ERANGE;
    }
    if (v >= n)
        return BFS_ERANGE;
    *sign = *s;
    *idx = (uint32_t)v;
    return 0;
}

/* Parses an event time: up to 15 plain digits by hand (the common
 * case: no call, no errno), anything else by bfs_parse_i64, whose rules
 * (sign, range, errors) are the format's.  Returns 0 or its error. */
static int parse_time(const char *s, int64_t *t)
{
    int64_t v = 0;
    const char *p = s;

    while (*p >= '0' && *p <= '9' && p - s < 15)
        v = v * 10 + (*p++ - '0');
    if (p > s && *p == '\0') {
        *t = v;
        return 0;
    }
    return bfs_parse_i64(s, t);
}

/* Reads the change token at *p ("+I" or "-I", I decimal and < n) in one
 * pass, ending it with a NUL if a blank follows, and moves *p past it.
 * Returns 0, or BFS_EPARSE / BFS_ERANGE as parse_change does on the
 * token (which it then checks, for the same errors). */
static int scan_change(char **p, size_t n, char *sign, uint32_t *idx)
{
    char *s = *p, *q = s + 1;
    uint64_t v = 0;

    if ((*s == '+' || *s == '-') && *q >= '0' && *q <= '9') {
        while (*q >= '0' && *q <= '9' && q - s <= 10)
            v = v * 10 + (uint64_t)(*q++ - '0');
        if ((*q == ' ' || *q == '\t' || *q == '\0') && v < n) {
            *sign = *s;
            *idx = (uint32_t)v;
            *p = *q ? q + 1 : q;
            *q = '\0';
            return 0;
        }
    }
    /* The slow path: the whole token, then parse_change's verdict. */
    while (*q && *q != ' ' && *q != '\t')
        q++;
    *p = *q ? q + 1 : q;
    *q = '\0';
    return parse_change(s, n, sign, idx);
}

/* The reader's stamp for a new event: the next below 2^31, the stamps
 * (not the flags) cleared on wrap. */
static uint32_t reader_stamp(struct trace_reader *r)
{
    if (++r->cur == UINT32_C(1) << 31) {
        for (size_t i = 0; i < r->n; i++)
            r->state[i] &= 1;
        r->cur = 1;
    }
    return r->cur;
}

/* Ends parse_event with the error rc: the flags of the nj nodes joined
 * and nl left so far go back to their state before the line. */
static int event_undo(struct trace_reader *r, size_t nj, size_t nl, int rc)
{
    for (size_t k = 0; k < nj; k++)
        r->state[r->join[k]] &= ~UINT32_C(1);
    for (size_t k = 0; k < nl; k++)
        r->state[r->leave[k]] |= 1;
    return rc;
}

/* Parses and validates one event line (modified in place). */
static int parse_event(struct trace_reader *r, char *line, size_t lineno,
                       struct trace_event *ev, struct bfs_error *e)
{
    size_t nj = 0, nl = 0;
    uint32_t stamp;
    int64_t t;
    char *p = line, *tok;

    while (*p == ' ' || *p == '\t')
        p++;
    tok = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    if (*p)
        *p++ = '\0';
    if (tok[0] == 'n' && strcmp(tok, "node") == 0)
        return bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                           "node line after the first event");
    if (parse_time(tok, &t) != 0)
        return bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                           "bad event time '%.40s' (expected Unix seconds)",
                           tok);
    if (t < BFS_TIME_MIN || t > BFS_TIME_MAX)
        return bfs_fail_at(e, BFS_ERANGE, r->path, lineno,
                           "event time %" PRId64 " is out of range (Unix "
                           "seconds within +-%" PRId64 ", years -6000 to 9999)",
                           t, BFS_TIME_MAX);
    if (r->last_line && t <= r->last_time)
        return bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                           "time %" PRId64 " is not after the previous "
                           "event's %" PRId64 " (line %zu)",
                           t, r->last_time, r->last_line);
    stamp = reader_stamp(r);
    for (;;) {
        char sign;
        uint32_t i, st;
        int rc;

        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        tok = p;
        rc = scan_change(&p, r->n, &sign, &i);
        if (rc == BFS_ERANGE)
            return event_undo(
                r, nj, nl,
                bfs_fail_at(e, BFS_ERANGE, r->path, lineno,
                            "node index in '%.40s' out of range (the "
                            "trace has %zu nodes, 0..%zu)",
                            tok, r->n, r->n - 1));
        if (rc)
            return event_undo(r, nj, nl,
                              bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                                          "bad change '%.40s' (expected "
                                          "+INDEX or -INDEX)",
                                          tok));
        st = r->state[i];
        if (st >> 1 == stamp)
            return event_undo(r, nj, nl,
                              bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                                          "node %" PRIu32 " (%s) appears "
                                          "twice in one event",
                                          i, r->names[i]));
        /* Listed once so far: st's flag is the state before the event. */
        if (sign == '+') {
            if (st & 1)
                return event_undo(
                    r, nj, nl,
                    bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                                "node %" PRIu32 " (%s) becomes idle "
                                "(+%" PRIu32 ") but is already idle",
                                i, r->names[i], i));
            if (nj == r->cap_join)
                BFS_GROW(r->join, r->cap_join, nj + 1);
            r->join[nj++] = i;
            r->state[i] = stamp << 1 | 1;
        } else {
            if (!(st & 1))
                return event_undo(r, nj, nl,
                                  bfs_fail_at(e, BFS_EPARSE, r->path, lineno,
                                              "node %" PRIu32
                                              " (%s) is taken back "
                                              "(-%" PRIu32 ") but is not idle",
                                              i, r->names[i], i));
            if (nl == r->cap_leave)
                BFS_GROW(r->leave, r->cap_leave, nl + 1);
            r->leave[nl++] = i;
            r->state[i] = stamp << 1;
        }
    }
    sort_u32(r->join, nj);
    sort_u32(r->leave, nl);
    r->last_time = t;
    r->last_line = lineno;
    ev->time = t;
    ev->n_join = nj;
    ev->join = r->join;
    ev->n_leave = nl;
    ev->leave = r->leave;
    ev->line = lineno;
    return 1;
}

int trace_next(struct trace_reader *r, struct trace_event *ev,
               struct bfs_error *e)
{
    char *line;
    size_t lineno;
    int rc;

    if (r->failed)
        return bfs_fail_at(e, r->failed, r->path, 0,
                           "trace read after an error");
    if (r->held) {
        line = r->held;
        lineno = r->held_line;
        r->held = NULL;
        rc = parse_event(r, line, lineno, ev, e);
        xfree(line);
    } else {
        for (;;) {
            rc = bfs_lines_next(r->in, &line, e);
            if (rc <= 0)
                break;
            if (!line_empty(line))
                break;
        }
        if (rc > 0) {
            struct bfs_error pe, io;
            bfs_error_clear(&pe);
            rc = parse_event(r, line, bfs_lines_lineno(r->in), ev, &pe);
            /* A truncated gzip stream first yields its cut last line:
             * if the line is bad and the stream is cut, report the cut,
             * the real cause. */
            if (rc < 0) {
                bfs_error_clear(&io);
                if (bfs_lines_next(r->in, &line, &io) == BFS_EIO) {
                    pe = io;
                    rc = BFS_EIO;
                }
                if (e && e->msg[0] == '\0')
                    *e = pe;
            }
        }
    }
    if (rc < 0)
        r->failed = rc;
    return rc;
}

void trace_close(struct trace_reader *r)
{
    if (!r)
        return;
    xfree_strv(r->names, r->n);
    xfree_strv(r->type_names, r->n_types);
    XFREE_ALL(r->node_type, r->state, r->join, r->leave, r->held);
    bfs_lines_close(r->in);
    xfree(r->path);
    xfree(r);
}

/* ---- writer ------------------------------------------------------------ */

struct trace_writer {
    struct bfs_out out; /* owned: the temporary file */
    struct bfs_zout *z; /* owned, NULL for plain text */
    size_t n;
    char **names;    /* owned, pointers into arena */
    char *arena;     /* owned */
    uint8_t *idle;   /* owned */
    uint32_t *stamp; /* owned */
    uint32_t cur;
    uint32_t *join, *leave; /* owned, sorted copies of an event */
    size_t cap_join, cap_leave;
    char *buf; /* owned, one line */
    size_t cap_buf;
    int64_t last_time;
    size_t events;
    int failed; /* sticky error code */
};

static int w_write(struct trace_writer *w, const char *s, size_t len,
                   struct bfs_error *e)
{
    if (len == 0)
        return 0;
    if (w->z) {
        if (bfs_zout_write(w->z, s, len, e) == 0)
            return 0;
    } else if (fwrite(s, 1, len, w->out.fp) == len) {
        return 0;
    } else {
        bfs_fail_at(e, BFS_EIO, w->out.path, 0, "write error: %s",
                    strerror(errno));
    }
    w->failed = BFS_EIO;
    return BFS_EIO;
}

/* Appends the decimal form of v to w->buf at *len. */
static void put_u64(struct trace_writer *w, size_t *len, uint64_t v)
{
    char tmp[24];
    size_t k = 0;

    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    BFS_GROW(w->buf, w->cap_buf, *len + k + 2);
    while (k)
        w->buf[(*len)++] = tmp[--k];
}

static void put_char(struct trace_writer *w, size_t *len, char c)
{
    BFS_GROW(w->buf, w->cap_buf, *len + 1);
    w->buf[(*len)++] = c;
}

static int write_header(struct trace_writer *w, const char *const *comments,
                        const char *const *types, struct bfs_error *e)
{
    size_t len = 0;

    for (const char *s = TRACE_MAGIC; *s; s++)
        put_char(w, &len, *s);
    put_char(w, &len, '\n');
    for (size_t c = 0; comments && comments[c]; c++) {
        put_char(w, &len, '#');
        put_char(w, &len, ' ');
        for (const char *s = comments[c]; *s; s++) {
            put_char(w, &len, *s);
            if (*s == '\n') {
                put_char(w, &len, '#');
                put_char(w, &len, ' ');
            }
        }
        put_char(w, &len, '\n');
    }
    for (size_t i = 0; i < w->n; i++) {
        for (const char *s = "node "; *s; s++)
            put_char(w, &len, *s);
        for (const char *s = w->names[i]; *s; s++)
            put_char(w, &len, *s);
        if (types) {
            put_char(w, &len, ' ');
            for (const char *s = types[i]; *s; s++)
                put_char(w, &len, *s);
        }
        put_char(w, &len, '\n');
        if (len > 65536) {
            if (w_write(w, w->buf, len, e))
                return BFS_EIO;
            len = 0;
        }
    }
    return w_write(w, w->buf, len, e);
}

int trace_writer_open(const char *path, const char *const *names, size_t n,
                      const char *const *comments, struct trace_writer **out,
                      struct bfs_error *e)
{
    return trace_writer_open_typed(path, names, NULL, n, comments, out, e);
}

int trace_writer_open_typed(const char *path, const char *const *names,
                            const char *const *types, size_t n,
                            const char *const *comments,
                            struct trace_writer **out, struct bfs_error *e)
{
    struct trace_writer *w;
    struct named *v;
    size_t total = 0, dpos;
    char *p;
    int rc;

    if (n == 0)
        return bfs_fail(e, BFS_EINVAL, "%s: a trace needs at least one node",
                        path);
    if (n > UINT32_MAX)
        return bfs_fail(e, BFS_ERANGE, "%s: too many nodes (%zu)", path, n);
    for (size_t i = 0; i < n; i++) {
        if (!trace_name_ok(names[i]))
            return bfs_fail(e, BFS_EINVAL,
                            "%s: node %zu: name '%.40s' is empty or holds a "
                            "blank",
                            path, i, names[i]);
        if (types && !trace_name_ok(types[i]))
            return bfs_fail(e, BFS_EINVAL,
                            "%s: node %zu (%s): type '%.40s' is empty or "
                            "holds a blank",
                            path, i, names[i], types[i]);
        total += strlen(names[i]) + 1;
    }
    v = xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        v[i].name = names[i];
        v[i].pos = i;
    }
    dpos = find_duplicate(v, n);
    if (dpos < n) {
        rc = bfs_fail(e, BFS_EINVAL,
                      "%s: duplicate node name '%s' (nodes %zu and %zu)", path,
                      v[dpos].name, v[dpos - 1].pos, v[dpos].pos);
        xfree(v);
        return rc;
    }
    xfree(v);

    w = xcalloc(1, sizeof *w);
    w->n = n;
    w->names = xmalloc(n * sizeof *w->names);
    w->arena = p = xmalloc(total);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]) + 1;
        memcpy(p, names[i], len);
        w->names[i] = p;
        p += len;
    }
    w->idle = xcalloc(n, 1);
    w->stamp = xcalloc(n, sizeof *w->stamp);

    rc = bfs_out_open(&w->out, path, e);
    if (rc) {
        trace_writer_abort(w);
        return rc;
    }
    if (bfs_zcodec_of(path) != BFS_Z_PLAIN &&
        (rc = bfs_zout_open(w->out.fp, path, bfs_zcodec_of(path), 0, &w->z,
                            e)) != 0) {
        trace_writer_abort(w);
        return rc;
    }
    rc = write_header(w, comments, types, e);
    if (rc) {
        trace_writer_abort(w);
        return rc;
    }
    *out = w;
    return 0;
}

int trace_writer_set_level(struct trace_writer *w, int level)
{
    struct bfs_error e;
    int rc;

    if (level < 1 || level > 9)
        return BFS_EINVAL;
    if (!w->z || bfs_zcodec_of(w->out.path) != BFS_Z_GZIP)
        return 0;
    rc = bfs_zout_set_level(w->z, level, &e);
    if (rc)
        w->failed = rc;
    return rc;
}

/* Copies and sorts one side of an event, checking each node against the
 * state before the event. */
static int w_take(struct trace_writer *w, int64_t time, const uint32_t *v,
                  size_t k, uint32_t **dst, size_t *cap, int joining,
                  uint32_t stamp, struct bfs_error *e)
{
    const char *path = w->out.path;

    BFS_GROW(*dst, *cap, k + 1);
    for (size_t j = 0; j < k; j++) {
        uint32_t i = v[j];
        if (i >= w->n)
            return bfs_fail(e, BFS_ERANGE,
                            "%s: event %zu (time %" PRId64 "): node index "
                            "%" PRIu32 " out of range (%zu nodes)",
                            path, w->events + 1, time, i, w->n);
        if (w->stamp[i] == stamp)
            return bfs_fail(e, BFS_EINVAL,
                            "%s: event %zu (time %" PRId64 "): node %" PRIu32
                            " (%s) appears twice",
                            path, w->events + 1, time, i, w->names[i]);
        w->stamp[i] = stamp;
        if (joining && w->idle[i])
            return bfs_fail(e, BFS_EINVAL,
                            "%s: event %zu (time %" PRId64 "): node %" PRIu32
                            " (%s) becomes idle but is already idle",
                            path, w->events + 1, time, i, w->names[i]);
        if (!joining && !w->idle[i])
            return bfs_fail(e, BFS_EINVAL,
                            "%s: event %zu (time %" PRId64 "): node %" PRIu32
                            " (%s) is taken back but is not idle",
                            path, w->events + 1, time, i, w->names[i]);
        (*dst)[j] = i;
    }
    sort_u32(*dst, k);
    return 0;
}

int trace_writer_event(struct trace_writer *w, int64_t time,
                       const uint32_t *join, size_t n_join,
                       const uint32_t *leave, size_t n_leave,
                       struct bfs_error *e)
{
    uint32_t stamp;
    size_t len = 0;
    int rc;

    if (w->failed)
        return bfs_fail(e, w->failed, "%s: trace written after an error",
                        w->out.path);
    if (w->events > 0 && time <= w->last_time) {
        w->failed = BFS_EINVAL;
        return bfs_fail(e, BFS_EINVAL,
                        "%s: event %zu: time %" PRId64 " is not after the "
                        "previous event's %" PRId64,
                        w->out.path, w->events + 1, time, w->last_time);
    }
    stamp = next_stamp(w->stamp, w->n, &w->cur);
    rc = w_take(w, time, join, n_join, &w->join, &w->cap_join, 1, stamp, e);
    if (rc == 0)
        rc = w_take(w, time, leave, n_leave, &w->leave, &w->cap_leave, 0, stamp,
                    e);
    if (rc) {
        w->failed = rc;
        return rc;
    }
    for (size_t j = 0; j < n_join; j++)
        w->idle[w->join[j]] = 1;
    for (size_t j = 0; j < n_leave; j++)
        w->idle[w->leave[j]] = 0;

    if (time < 0) {
        put_char(w, &len, '-');
        put_u64(w, &len, (uint64_t)0 - (uint64_t)time);
    } else {
        put_u64(w, &len, (uint64_t)time);
    }
    /* Leaves first, then joins, each ascending. */
    for (size_t j = 0; j < n_leave; j++) {
        put_char(w, &len, ' ');
        put_char(w, &len, '-');
        put_u64(w, &len, w->leave[j]);
    }
    for (size_t j = 0; j < n_join; j++) {
        put_char(w, &len, ' ');
        put_char(w, &len, '+');
        put_u64(w, &len, w->join[j]);
    }
    put_char(w, &len, '\n');
    rc = w_write(w, w->buf, len, e);
    if (rc)
        return rc;
    w->last_time = time;
    w->events++;
    return 0;
}

int trace_writer_finish(struct trace_writer *w, struct bfs_error *e)
{
    int rc = 0;

    if (w->failed) {
        rc = bfs_fail(e, w->failed, "%s: trace not committed after an error",
                      w->out.path);
        trace_writer_abort(w);
        return rc;
    }
    if (w->z) {
        rc = bfs_zout_close(w->z, e);
        w->z = NULL;
    }
    if (rc == 0)
        rc = bfs_out_commit(&w->out, e);
    trace_writer_abort(w);
    return rc;
}

void trace_writer_abort(struct trace_writer *w)
{
    if (!w)
        return;
    bfs_zout_abort(w->z);
    bfs_out_abort(&w->out);
    XFREE_ALL(w->names, w->arena, w->idle, w->stamp, w->join, w->leave, w->buf,
              w);
}

double trace_fraction(const struct trace_reader *r)
{
    return bfs_lines_fraction(r->in);
}
