/* sweep.c - resumable parameter sweeps over `bfsim replay`.
 *
 * Design: the configuration is read once (sweep_load) into keys, each
 * with its list of distinct values, and expanded into runs like an
 * odometer: keys in file order, the last key turning fastest; runs that
 * an "exclude" entry matches are dropped and the rest are numbered in
 * that order (the index --shard slices by).  A run is a vector of value
 * indices, one per key.
 *
 * Ids: a run's canonical option set is one "NAME=TEXT\n" line per key,
 * keys sorted by strcmp, false flags left out; the id is its 64-bit
 * FNV-1a hash.  Neither the keys' order in the file nor the other values
 * of a swept key enter it, so editing a configuration keeps the ids (and
 * so the finished results) of the runs it still contains.  Adding a key
 * whose value is false keeps them too: false is "flag absent".
 *
 * Which keys are replay options, and which of them the sweep manages
 * itself, is read from the replay's table of options (engine/options.h):
 * sweep_load refuses the managed ones, sweep_check_keys anything that is
 * not an option, and a value that does not fit the option (an argument
 * for a flag, true for an option that takes one).  The replay validates
 * the values when it runs (a bad value fails that run with the replay's
 * message).
 *
 * Runs are child processes (fork + exec of the bfsim program), at most
 * `jobs` at once.  The wait loop installs no handler: it keeps SIGCHLD,
 * SIGINT and SIGTERM blocked and sleeps in sigtimedwait() on SIGCHLD, so
 * a child that ends between two looks at the children wakes it at once;
 * at each turn it opens the mask for a moment so that a pending SIGINT
 * or SIGTERM runs the caller's handler (which sets the stop flag), and
 * it sleeps at most 0.1 s so that such a signal is seen within that
 * time.  On stop, the children get SIGINT, the replay's "stop and write
 * partial results" signal, whichever signal the sweep got.  Each run is
 * its own process group (setpgid), and the signal goes to the group, so
 * that a solver worker the replay started stops too; on Linux each run
 * also asks for SIGTERM when the sweep dies (prctl PR_SET_PDEATHSIG), so
 * that a sweep killed outright (SIGKILL) leaves no replay running
 * unattended.  A run is claimed by OUT/runs/ID/lock, created atomically
 * (written aside, then link()ed into place, which fails if it exists)
 * and holding "HOST PID" of the replay running it: a resumed sweep skips
 * a run whose lock names a live process on its own host, or any process
 * on another host (it cannot look there: remove the lock by hand if that
 * sweep is gone), and takes over a lock whose process is dead.  The
 * assumption is that pids are not reused within the time a dead run's
 * lock waits for the next resumption.  Once a run is claimed through its
 * lock, temporary files that a replay killed outright left in its
 * directory are removed.  Completeness is decided from the files alone
 * (summary.json with "partial": false), never from memory, so that
 * shards in separate processes and later resumptions agree.
 *
 * Workers (sweep_work) claim runs through claim files instead of the
 * lock (sweep/claim.c says how), in the order sweep_order gives:
 * decreasing expected cost, a product of per-option factors, ties in
 * expansion order.  A worker loop is sweep_exec's with three more
 * phases: heartbeats (every lease/3 s, each also noticing a claim taken
 * over), a scan that claims pending and stale runs into free slots (runs
 * found complete or given up are remembered, so a scan near the end reads
 * only the runs still held), and the end test: nothing running here,
 * nothing claimable, nothing held by a live worker.  A claim taken over
 * may belong to a worker that is only stalled, whose replay still writes:
 * so each attempt writes under names of its own (NAME.claimN.HOST.PID,
 * and the replay's temporary files beside them) and renames them to the
 * run's names when its replay ends, unless it lost its claim meanwhile;
 * a worker removes another attempt's files only once that attempt's
 * worker is gone (dead on this host, or silent past the lease on
 * another), and a worker that lost its claim ends it "lost" and removes
 * its own.  A complete run whose last claim is open and stale (its
 * worker died between the replay's end and the claim's end) is
 * reconciled, not run again: the next claim ends "done ... reconciled";
 * so is a run whose dead attempt left whole outputs under its own names.
 *
 * OUT/sweep.txt binds the folder to one sweep: the configuration's path
 * and its set of run ids with their digest.  A configuration whose runs
 * do not include all of the recorded ones would replace the folder's
 * table with one that lacks them, and is refused; one that includes them
 * (extended with values) takes the record over.
 *
 * The results table is rebuilt from the run directories each time and
 * written atomically (temporary file, then rename), so concurrent shards
 * can each write it: the last writer's table is complete as of its
 * reading, and `--merge` afterwards sees every shard's runs.
 */
#include "config.h"

#include "sweep/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <hdf5.h>

#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"
#include "engine/measures.h"
#include "engine/options.h"
#include "sweep/claim.h"

/* 1 when name is the long name, or the one-letter short name, of an
 * option the sweep sets for every run itself (its outputs, quietness,
 * help). */
static int sweep_manages(const char *name)
{
    const struct options_entry *o = options_find(name);

    if (!o && name[0] && !name[1])
        o = options_find_short((unsigned char)name[0]);
    return o && o->sweep_managed;
}

#define MANAGED_MSG                                                            \
    "'%s' cannot be set in a sweep: bfsim sweep gives every run its own "      \
    "outputs (OUT/runs/ID/) and runs it quietly"

/* ---- small helpers ------------------------------------------------------- */

static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* The shortest %g text that reads back as v. */
static void real_text(double v, char *buf, size_t size)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, size, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Line (1-based) of the first `"key"` followed by a colon in text, or 0. */
static size_t key_line(const char *text, const char *key)
{
    size_t klen = strlen(key);

    for (const char *p = strchr(text, '"'); p; p = strchr(p + 1, '"')) {
        const char *q = p + 1 + klen;
        if (strncmp(p + 1, key, klen) != 0 || *q != '"')
            continue;
        for (q++; *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'; q++)
            ;
        if (*q == ':') {
            size_t line = 1;
            for (const char *c = text; c < p; c++)
                line += *c == '\n';
            return line;
        }
    }
    return 0;
}

static int key_syntax_ok(const char *k)
{
    if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
          (*k >= '0' && *k <= '9')))
        return 0;
    for (; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
              (*k >= '0' && *k <= '9') || *k == '-' || *k == '_'))
            return 0;
    return 1;
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_NULL:
        return "null";
    default:
        return "a value";
    }
}

/* Fills v from a scalar j.  Returns 0, -1 for a type that is no value,
 * -2 for a string with a control character. */
static int value_from_json(const json_t *j, struct sweep_value *v)
{
    char buf[64];

    memset(v, 0, sizeof *v);
    switch (json_typeof(j)) {
    case JSON_STRING: {
        const char *s = json_string_value(j);
        if (strlen(s) != json_string_length(j))
            return -2;
        for (const char *c = s; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                return -2;
        v->kind = SWEEP_ARG;
        v->text = xstrdup(s);
        return 0;
    }
    case JSON_INTEGER:
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(j));
        v->kind = SWEEP_ARG;
        v->number = 1;
        v->text = xstrdup(buf);
        return 0;
    case JSON_REAL:
        real_text(json_real_value(j), buf, sizeof buf);
        v->kind = SWEEP_ARG;
        v->number = 1;
        v->text = xstrdup(buf);
        return 0;
    case JSON_TRUE:
        v->kind = SWEEP_ON;
        v->text = xstrdup("true");
        return 0;
    case JSON_FALSE:
        v->kind = SWEEP_OFF;
        v->text = xstrdup("false");
        return 0;
    default:
        return -1;
    }
}

static int value_eq(const struct sweep_value *a, const struct sweep_value *b)
{
    return a->kind == b->kind && strcmp(a->text, b->text) == 0;
}

/* ---- loading ------------------------------------------------------------- */

struct excl {
    size_t n;
    size_t *key, *val; /* owned: n pairs (key index, value index) */
};

struct loader {
    const char *path;
    const char *text; /* the file, for key lines */
    struct sweep s;
    struct excl *ex;
    size_t n_ex;
};

static void key_release(struct sweep_key *k)
{
    for (size_t i = 0; i < k->n_vals; i++)
        xfree(k->vals[i].text);
    xfree(k->vals);
    xfree(k->name);
}

static int add_key(struct loader *L, const char *name, const json_t *j,
                   struct bfs_error *e)
{
    struct sweep_key k = {0};
    size_t n = json_is_array(j) ? json_array_size(j) : 1;
    size_t line = key_line(L->text, name);
    int rc = 0;

    if (sweep_manages(name))
        return bfs_fail_at(e, BFS_EINVAL, L->path, line, MANAGED_MSG, name);
    if (!key_syntax_ok(name))
        return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                           "'%s' is not an option name (write replay "
                           "options without their dashes, e.g. \"tfwd\")",
                           name);
    if (json_is_array(j) && n == 0)
        return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                           "%s: empty array: a swept option needs at least "
                           "one value",
                           name);
    k.name = xstrdup(name);
    k.swept = json_is_array(j);
    k.line = line;
    k.vals = xcalloc(n, sizeof *k.vals);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const json_t *v = json_is_array(j) ? json_array_get(j, i) : j;
        char where[300];
        int r;

        if (k.swept)
            snprintf(where, sizeof where, "%s[%zu]", name, i);
        else
            snprintf(where, sizeof where, "%s", name);
        r = value_from_json(v, &k.vals[i]);
        if (r == -1 && json_is_array(v))
            rc = bfs_fail_at(e, BFS_EINVAL, L->path, line,
                             "%s: an array inside an array (a swept "
                             "option is one flat array of values)",
                             where);
        else if (r == -1)
            rc = bfs_fail_at(e, BFS_EINVAL, L->path, line,
                             "%s: %s is not an option value (use a string, "
                             "a number, true, false, or an array of them)",
                             where, type_name(v));
        else if (r == -2)
            rc = bfs_fail_at(e, BFS_EINVAL, L->path, line,
                             "%s: a string with a control character", where);
        if (rc)
            break;
        k.n_vals = i + 1;
        for (size_t p = 0; p < i; p++)
            if (value_eq(&k.vals[p], &k.vals[i])) {
                rc = bfs_fail_at(e, BFS_EINVAL, L->path, line,
                                 "%s: the value %s appears twice", name,
                                 k.vals[i].text);
                break;
            }
    }
    if (rc) {
        key_release(&k);
        return rc;
    }
    L->s.keys = xreallocarray(L->s.keys, L->s.n_keys + 1, sizeof *L->s.keys);
    L->s.keys[L->s.n_keys++] = k;
    return 0;
}

static size_t find_key(const struct sweep *s, const char *name)
{
    for (size_t k = 0; k < s->n_keys; k++)
        if (strcmp(s->keys[k].name, name) == 0)
            return k;
    return (size_t)-1;
}

static int add_excludes(struct loader *L, json_t *j, struct bfs_error *e)
{
    size_t line = key_line(L->text, "exclude");

    if (!json_is_array(j))
        return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                           "exclude: must be an array of objects such as "
                           "[{\"allocator\": \"even\", \"tfwd\": 20}]");
    L->ex = xcalloc(json_array_size(j) + 1, sizeof *L->ex);
    for (size_t i = 0; i < json_array_size(j); i++) {
        json_t *o = json_array_get(j, i);
        struct excl *x = &L->ex[L->n_ex];
        const char *name;
        json_t *v;

        if (!json_is_object(o) || json_object_size(o) == 0)
            return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                               "exclude[%zu]: %s; each entry must be a "
                               "non-empty object of option values",
                               i,
                               json_is_object(o) ? "an empty object would "
                                                   "exclude every run"
                                                 : "not an object");
        x->key = xcalloc(json_object_size(o), sizeof *x->key);
        x->val = xcalloc(json_object_size(o), sizeof *x->val);
        L->n_ex++;
        json_object_foreach(o, name, v)
        {
            struct sweep_value val;
            size_t k = find_key(&L->s, name), m;
            int r;

            if (k == (size_t)-1)
                return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                                   "exclude[%zu]: '%s' is not a key of the "
                                   "configuration",
                                   i, name);
            r = value_from_json(v, &val);
            if (r != 0) {
                xfree(val.text);
                return bfs_fail_at(e, BFS_EINVAL, L->path, line,
                                   "exclude[%zu]: %s: %s is not an option "
                                   "value",
                                   i, name,
                                   r == -2 ? "a string with a control "
                                             "character"
                                           : type_name(v));
            }
            for (m = 0; m < L->s.keys[k].n_vals; m++)
                if (value_eq(&L->s.keys[k].vals[m], &val))
                    break;
            if (m == L->s.keys[k].n_vals) {
                int rc = bfs_fail_at(e, BFS_EINVAL, L->path, line,
                                     "exclude[%zu]: %s=%s is not one of the "
                                     "values of %s",
                                     i, name, val.text, name);
                xfree(val.text);
                return rc;
            }
            xfree(val.text);
            x->key[x->n] = k;
            x->val[x->n] = m;
            x->n++;
        }
    }
    return 0;
}

static int excluded(const struct loader *L, const size_t *idx)
{
    for (size_t i = 0; i < L->n_ex; i++) {
        size_t p;
        for (p = 0; p < L->ex[i].n; p++)
            if (idx[L->ex[i].key[p]] != L->ex[i].val[p])
                break;
        if (p == L->ex[i].n)
            return 1;
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int expand(struct loader *L, struct bfs_error *e)
{
    struct sweep *s = &L->s;
    size_t total = 1, *idx, cap = 0;
    uint64_t *ids;

    for (size_t k = 0; k < s->n_keys; k++) {
        if (total > SWEEP_MAX_RUNS / s->keys[k].n_vals)
            return bfs_fail(e, BFS_ERANGE,
                            "%s: more than %d combinations of values", L->path,
                            SWEEP_MAX_RUNS);
        total *= s->keys[k].n_vals;
    }
    idx = xcalloc(s->n_keys + 1, sizeof *idx);
    for (size_t c = 0; c < total; c++) {
        if (excluded(L, idx)) {
            s->n_excluded++;
        } else {
            struct sweep_run *r;
            BFS_GROW(s->runs, cap, s->n_runs + 1);
            r = &s->runs[s->n_runs++];
            r->val = xcalloc(s->n_keys + 1, sizeof *r->val);
            memcpy(r->val, idx, s->n_keys * sizeof *idx);
        }
        /* The odometer: the last key turns fastest. */
        for (size_t k = s->n_keys; k-- > 0;) {
            if (++idx[k] < s->keys[k].n_vals)
                break;
            idx[k] = 0;
        }
    }
    xfree(idx);

    ids = xcalloc(s->n_runs + 1, sizeof *ids);
    for (size_t r = 0; r < s->n_runs; r++) {
        char *c = sweep_canonical(s, r);
        s->runs[r].id = ids[r] = fnv1a(c, strlen(c));
        snprintf(s->runs[r].hex, sizeof s->runs[r].hex, "%016llx",
                 (unsigned long long)s->runs[r].id);
        xfree(c);
    }
    qsort(ids, s->n_runs, sizeof *ids, cmp_u64);
    for (size_t r = 1; r < s->n_runs; r++)
        if (ids[r] == ids[r - 1]) {
            unsigned long long dup = ids[r]; /* read before the free */
            xfree(ids);
            return bfs_fail(e, BFS_EINVAL,
                            "%s: two runs have the same id %016llx (a hash "
                            "collision: change a value slightly)",
                            L->path, dup);
        }
    xfree(ids);
    return 0;
}

int sweep_load(const char *path, struct sweep *out, struct bfs_error *e)
{
    struct loader L;
    json_error_t jerr;
    json_t *root = NULL, *v, *exclude = NULL;
    const char *name, *slash;
    char *text;
    size_t len;
    int rc = 0;

    memset(&L, 0, sizeof L);
    L.path = path;
    /* plain or compressed; a NUL byte is an error at its line (JSON has
     * no place for one, and the text would be cut there) */
    if ((rc = bfs_read_all(path, &text, &len, e)) != 0)
        return rc;
    L.text = text;
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        rc = bfs_fail_at(e, BFS_EPARSE, path,
                         (size_t)(jerr.line > 0 ? jerr.line : 0),
                         "column %d: %s", jerr.column, jerr.text);
        goto out;
    }
    if (!json_is_object(root)) {
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0,
                         "a sweep configuration is a JSON object of "
                         "replay options, not %s",
                         type_name(root));
        goto out;
    }
    json_object_foreach(root, name, v)
    {
        if (strcmp(name, "exclude") == 0)
            exclude = v;
        else if ((rc = add_key(&L, name, v, e)) != 0)
            goto out;
    }
    if (exclude && (rc = add_excludes(&L, exclude, e)) != 0)
        goto out;
    if ((rc = expand(&L, e)) != 0)
        goto out;
    L.s.path = xstrdup(path);
    slash = strrchr(path, '/');
    if (!slash) {
        L.s.dir = xstrdup(".");
    } else if (slash == path) {
        L.s.dir = xstrdup("/");
    } else {
        L.s.dir = xmalloc((size_t)(slash - path) + 1);
        memcpy(L.s.dir, path, (size_t)(slash - path));
        L.s.dir[slash - path] = '\0';
    }
    *out = L.s;
    memset(&L.s, 0, sizeof L.s);
out:
    for (size_t i = 0; i < L.n_ex; i++) {
        xfree(L.ex[i].key);
        xfree(L.ex[i].val);
    }
    xfree(L.ex);
    sweep_release(&L.s);
    json_decref(root);
    xfree(text);
    return rc;
}

void sweep_release(struct sweep *s)
{
    for (size_t k = 0; k < s->n_keys; k++)
        key_release(&s->keys[k]);
    xfree(s->keys);
    for (size_t r = 0; r < s->n_runs; r++)
        xfree(s->runs[r].val);
    xfree(s->runs);
    xfree(s->path);
    xfree(s->dir);
    memset(s, 0, sizeof *s);
}

/* ---- describing runs ----------------------------------------------------- */

/* A growing string. */
struct buf {
    char *p;
    size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    BFS_GROW(b->p, b->cap, b->n + n + 1);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

static char *buf_take(struct buf *b)
{
    if (!b->p)
        buf_add(b, "", 0);
    return b->p;
}

static const struct sweep_value *run_value(const struct sweep *s, size_t r,
                                           size_t k)
{
    return &s->keys[k].vals[s->runs[r].val[k]];
}

static const struct sweep *sort_ctx;

static int cmp_key(const void *a, const void *b)
{
    return strcmp(sort_ctx->keys[*(const size_t *)a].name,
                  sort_ctx->keys[*(const size_t *)b].name);
}

char *sweep_canonical(const struct sweep *s, size_t r)
{
    size_t *order = xcalloc(s->n_keys + 1, sizeof *order);
    struct buf b = {0};

    for (size_t k = 0; k < s->n_keys; k++)
        order[k] = k;
    sort_ctx = s;
    qsort(order, s->n_keys, sizeof *order, cmp_key);
    for (size_t i = 0; i < s->n_keys; i++) {
        const struct sweep_value *v = run_value(s, r, order[i]);
        if (v->kind == SWEEP_OFF)
            continue;
        buf_str(&b, s->keys[order[i]].name);
        buf_str(&b, "=");
        buf_str(&b, v->text);
        buf_str(&b, "\n");
    }
    xfree(order);
    return buf_take(&b);
}

char *sweep_describe(const struct sweep *s, size_t r)
{
    struct buf b = {0};

    for (size_t k = 0; k < s->n_keys; k++) {
        const char *t = run_value(s, r, k)->text;
        if (k)
            buf_str(&b, " ");
        buf_str(&b, s->keys[k].name);
        buf_str(&b, "=");
        if (!*t || strpbrk(t, " \t'\"\\$`")) {
            buf_str(&b, "'");
            for (; *t; t++)
                if (*t == '\'')
                    buf_str(&b, "'\\''");
                else
                    buf_add(&b, t, 1);
            buf_str(&b, "'");
        } else {
            buf_str(&b, t);
        }
    }
    return buf_take(&b);
}

/* ---- checking keys against the replay's options -------------------------- */

int sweep_check_keys(const struct sweep *s, struct bfs_error *e)
{
    for (size_t k = 0; k < s->n_keys; k++) {
        const struct sweep_key *key = &s->keys[k];
        const struct options_entry *o = options_find(key->name);

        if (sweep_manages(key->name))
            return bfs_fail_at(e, BFS_EINVAL, s->path, key->line, MANAGED_MSG,
                               key->name);
        if (!o)
            return bfs_fail_at(e, BFS_EINVAL, s->path, key->line,
                               "'%s' is not an option of bfsim replay (see "
                               "`bfsim replay --help`; write full option "
                               "names without their dashes)",
                               key->name);
        for (size_t v = 0; v < key->n_vals; v++) {
            enum sweep_kind kind = key->vals[v].kind;
            if (o->arg && kind == SWEEP_ON)
                return bfs_fail_at(e, BFS_EINVAL, s->path, key->line,
                                   "%s: true is not a value of --%s %s "
                                   "(false leaves the option out)",
                                   key->name, key->name, o->arg);
            if (!o->arg && kind == SWEEP_ARG)
                return bfs_fail_at(e, BFS_EINVAL, s->path, key->line,
                                   "%s: '%s' is not a value of the flag "
                                   "--%s (use true or false)",
                                   key->name, key->vals[v].text, key->name);
        }
    }
    return 0;
}

static void exec_prog(const char *prog, char *const argv[])
{
    if (strchr(prog, '/'))
        execv(prog, argv);
    else
        execvp(prog, argv);
}

/* ---- run directories ----------------------------------------------------- */

char *sweep_run_dir(const struct sweep *s, size_t r, const char *outdir)
{
    char *p = xmalloc(strlen(outdir) + 32);

    sprintf(p, "%s/runs/%s", outdir, s->runs[r].hex);
    return p;
}

static char *run_file(const struct sweep *s, size_t r, const char *outdir,
                      const char *name)
{
    char *d = sweep_run_dir(s, r, outdir);
    char *p = xmalloc(strlen(d) + strlen(name) + 2);

    sprintf(p, "%s/%s", d, name);
    xfree(d);
    return p;
}

/* The summary at path if it is complete (new reference), else NULL. */
static json_t *load_complete_at(const char *path)
{
    json_t *j = json_load_file(path, 0, NULL);

    if (j &&
        (!json_is_object(j) || !json_is_false(json_object_get(j, "partial")))) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

/* 1 when the summary at path is complete. */
static int complete_at(const char *path)
{
    json_t *j = load_complete_at(path);

    json_decref(j);
    return j != NULL;
}

/* The run's summary if it is complete (new reference), else NULL. */
static json_t *load_complete(const struct sweep *s, size_t r,
                             const char *outdir)
{
    char *p = run_file(s, r, outdir, "summary.json");
    json_t *j = load_complete_at(p);

    xfree(p);
    return j;
}

int sweep_run_complete(const struct sweep *s, size_t r, const char *outdir)
{
    char *p = run_file(s, r, outdir, "summary.json");
    int c = complete_at(p);

    xfree(p);
    return c;
}

/* mkdir -p. */
static int make_dirs(const char *path, struct bfs_error *e)
{
    char *p = xstrdup(path);
    int rc = 0;

    for (char *c = p + 1;; c++) {
        if (*c == '/' || *c == '\0') {
            char save = *c;
            *c = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = bfs_fail_at(e, BFS_EIO, p, 0, "cannot create: %s",
                                 strerror(errno));
                break;
            }
            *c = save;
            if (!save)
                break;
        }
    }
    xfree(p);
    return rc;
}

int sweep_prepare(const char *outdir, char **abs, struct bfs_error *e)
{
    char *runs = xmalloc(strlen(outdir) + 8);
    int rc;

    sprintf(runs, "%s/runs", outdir);
    rc = make_dirs(runs, e);
    xfree(runs);
    if (rc == 0 && !(*abs = realpath(outdir, NULL)))
        rc = bfs_fail_at(e, BFS_EIO, outdir, 0, "%s", strerror(errno));
    return rc;
}

/* ---- the folder's record ------------------------------------------------- */

/* The ids of s's runs, sorted (malloc'd, n_runs of them). */
static uint64_t *sorted_ids(const struct sweep *s)
{
    uint64_t *ids = xcalloc(s->n_runs + 1, sizeof *ids);

    for (size_t r = 0; r < s->n_runs; r++)
        ids[r] = s->runs[r].id;
    qsort(ids, s->n_runs, sizeof *ids, cmp_u64);
    return ids;
}

/* The record of s (sweep_bind) as text (malloc'd), ids its sorted ids;
 * *digest gets its digest. */
static char *record_text(const struct sweep *s, const uint64_t *ids,
                         uint64_t *digest)
{
    struct buf b = {0}, list = {0};
    char line[64], *abs = realpath(s->path, NULL);

    for (size_t r = 0; r < s->n_runs; r++) {
        snprintf(line, sizeof line, "%016llx\n", (unsigned long long)ids[r]);
        buf_str(&list, line);
    }
    buf_take(&list);
    *digest = fnv1a(list.p, list.n);
    buf_str(&b, "bfsim-sweep 1\nconfig ");
    for (const char *c = abs ? abs : s->path; *c; c++)
        buf_add(&b, *c == '\n' ? "?" : c, 1); /* one line */
    snprintf(line, sizeof line, "\ndigest %016llx\nruns %zu\n",
             (unsigned long long)*digest, s->n_runs);
    buf_str(&b, line);
    buf_add(&b, list.p, list.n);
    xfree(list.p);
    free(abs);
    return buf_take(&b);
}

/* Reads text, 16 lower-case hex digits and nothing else, into *id.
 * Returns 0 or -1. */
static int parse_id(const char *text, uint64_t *id)
{
    if (strspn(text, "0123456789abcdef") != 16 || text[16])
        return -1;
    *id = (uint64_t)strtoull(text, NULL, 16);
    return 0;
}

/* A record read back: its configuration and its ids (sorted). */
struct record {
    char *config;          /* owned */
    uint64_t digest, *ids; /* ids owned */
    size_t n;
};

/* Reads the record at path into *rec.  Returns 0, or BFS_EIO / BFS_EPARSE
 * naming path and line (in e). */
static int record_read(const char *path, struct record *rec,
                       struct bfs_error *e)
{
    static const char *const want[] = {"bfsim-sweep 1", "config PATH",
                                       "digest HEX (16 hex digits)", "runs N",
                                       "a run id (16 hex digits)"};
    char *text, *line, *next;
    size_t len, ln = 0, n = 0;
    int rc;

    memset(rec, 0, sizeof *rec);
    if ((rc = bfs_read_all(path, &text, &len, e)) != 0)
        return rc;
    for (line = text; rc == 0 && *line; line = next) {
        int64_t v;
        int ok;

        if (!(next = strchr(line, '\n'))) {
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln + 1,
                             "the last line is cut short");
            break;
        }
        *next++ = '\0';
        switch (++ln < 5 ? ln : 5) {
        case 1:
            ok = strcmp(line, "bfsim-sweep 1") == 0;
            break;
        case 2:
            if ((ok = strncmp(line, "config ", 7) == 0))
                rec->config = xstrdup(line + 7);
            break;
        case 3:
            ok = strncmp(line, "digest ", 7) == 0 &&
                 parse_id(line + 7, &rec->digest) == 0;
            break;
        case 4:
            ok = strncmp(line, "runs ", 5) == 0 &&
                 bfs_parse_i64(line + 5, &v) == 0 && v >= 0 &&
                 v <= SWEEP_MAX_RUNS;
            if (ok) {
                rec->n = (size_t)v;
                rec->ids = xcalloc(rec->n + 1, sizeof *rec->ids);
            }
            break;
        default:
            ok = n < rec->n && parse_id(line, &rec->ids[n]) == 0;
            n += (size_t)ok;
            break;
        }
        if (!ok)
            rc = bfs_fail_at(e, BFS_EPARSE, path, ln, "expected %s",
                             want[(ln < 5 ? ln : 5) - 1]);
    }
    if (rc == 0 && (ln < 4 || n != rec->n))
        rc = bfs_fail_at(e, BFS_EPARSE, path, ln,
                         "%zu run ids where \"runs\" says %zu", n, rec->n);
    if (rc == 0)
        qsort(rec->ids, rec->n, sizeof *rec->ids, cmp_u64);
    xfree(text);
    if (rc) {
        xfree(rec->config);
        xfree(rec->ids);
        memset(rec, 0, sizeof *rec);
    }
    return rc;
}

/* How many of the sorted have[0..nh-1] are not in the sorted of[]. */
static size_t missing(const uint64_t *have, size_t nh, const uint64_t *of,
                      size_t no)
{
    size_t j = 0, miss = 0;

    for (size_t i = 0; i < nh; i++) {
        while (j < no && of[j] < have[i])
            j++;
        miss += j == no || of[j] != have[i];
    }
    return miss;
}

int sweep_bind(const struct sweep *s, const char *outdir, int update,
               struct bfs_error *e)
{
    uint64_t *ids = sorted_ids(s), digest;
    char *text = record_text(s, ids, &digest);
    char *path = xmalloc(strlen(outdir) + 16);
    struct record rec;
    struct stat st;
    int rc;

    sprintf(path, "%s/sweep.txt", outdir);
    memset(&rec, 0, sizeof rec);
    if (update)
        rc = claim_create(path, text, e); /* 0: the folder's first sweep */
    else
        rc = stat(path, &st) == 0;
    if (rc == 1 && (rc = record_read(path, &rec, e)) == 0 &&
        digest != rec.digest) {
        size_t miss = missing(rec.ids, rec.n, ids, s->n_runs);
        if (miss) {
            rc = bfs_fail(e, BFS_EUSAGE,
                          "%s: this folder holds the sweep of %s (%zu runs); "
                          "%s would leave %zu of them out of its table: use "
                          "another --out (or remove %s to let it replace "
                          "that sweep)",
                          outdir, rec.config, rec.n, s->path, miss, path);
        } else if (update) {
            /* the configuration was extended: the record follows */
            struct bfs_out out;
            if ((rc = bfs_out_open_mode(&out, path, BFS_OUT_FILE, e)) == 0) {
                if (fputs(text, out.fp) == EOF) {
                    bfs_out_abort(&out);
                    rc = bfs_fail_at(e, BFS_EIO, path, 0, "write error");
                } else {
                    rc = bfs_out_commit(&out, e);
                }
            }
        }
    }
    xfree(rec.config);
    xfree(rec.ids);
    xfree(path);
    xfree(text);
    xfree(ids);
    return rc;
}

/* ---- an attempt's own files ---------------------------------------------- */

/* The files of a run that a worker's attempt writes under names of its
 * own, "NAME.TAG" (TAG "claimN.HOST.PID", N the claim's number, unique to
 * the attempt within its run), and renames to NAME: options.json when
 * written, the others when the replay ends, summary.json last since it
 * makes the run complete.  The replay's temporary files are then
 * "NAME.TAG.tmp.XXXXXX" (base/out.h): every file of an attempt starts
 * with "NAME.claimN.". */
enum { ATT_OPTIONS, ATT_LOG, ATT_H5, ATT_SUMMARY, N_ATT };
static const char *const att_names[N_ATT] = {"options.json", "log.txt",
                                             "run.h5", "summary.json"};

/* The tag of attempt gen by host and pid, in buf. */
static void attempt_tag(char *buf, size_t size, int gen, const char *host,
                        long pid)
{
    snprintf(buf, size, "claim%d.%s.%ld", gen, host, pid);
}

/* "DIR/NAME.TAG", or "DIR/NAME" when tag is NULL (malloc'd). */
static char *attempt_path(const char *dir, const char *name, const char *tag)
{
    char *p = xmalloc(strlen(dir) + strlen(name) + (tag ? strlen(tag) : 0) + 3);

    sprintf(p, "%s/%s%s%s", dir, name, tag ? "." : "", tag ? tag : "");
    return p;
}

/* The claim number of the attempt whose file name is, or -1 for a file
 * of no attempt. */
static int attempt_of(const char *name)
{
    for (int i = 0; i < N_ATT; i++) {
        size_t n = strlen(att_names[i]);
        const char *p;
        char *end;
        long k;

        if (strncmp(name, att_names[i], n) != 0 ||
            strncmp(name + n, ".claim", 6) != 0)
            continue;
        p = name + n + 6;
        if (*p < '0' || *p > '9')
            continue;
        k = strtol(p, &end, 10);
        if (*end == '.' && k <= INT_MAX)
            return (int)k;
    }
    return -1;
}

/* Removes files of attempts from run directory dir: those of attempt gen
 * when gen >= 0; else those of every attempt before `below` whose claim
 * has ended or whose worker is not live (claim_holder_live), the leftovers
 * of a worker killed outright or of its replay stopping after it.  Never
 * those of an attempt whose worker may still run it (it removes them
 * itself when it finds its claim lost), nor of one whose claim cannot be
 * read. */
static void remove_attempts(const char *dir, int gen, int below, double lease)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int known = -1, gone = 0;

    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        int k = attempt_of(de->d_name);
        char *p;

        if (k < 0 || (gen >= 0 ? k != gen : k >= below))
            continue;
        if (gen < 0 && k != known) {
            struct claim_info c;
            known = k;
            gone = claim_read_one(dir, k, &c, NULL) == 0 && c.gen == k &&
                   !claim_holder_live(&c, lease, claim_now());
        }
        if (gen < 0 && !gone)
            continue;
        p = attempt_path(dir, de->d_name, NULL);
        unlink(p);
        xfree(p);
    }
    closedir(d);
}

/* Renames the files of attempt tag in dir to the run's names: its log,
 * then (outputs) run.h5 and summary.json.  A file the attempt did not
 * write is skipped.  Returns 0 or BFS_EIO (in e). */
static int attempt_publish(const char *dir, const char *tag, int outputs,
                           struct bfs_error *e)
{
    int rc = 0;

    for (int i = ATT_LOG; i <= ATT_SUMMARY && rc == 0; i++) {
        char *from, *to;
        if (i != ATT_LOG && !outputs)
            continue;
        from = attempt_path(dir, att_names[i], tag);
        to = attempt_path(dir, att_names[i], NULL);
        if (rename(from, to) != 0 && errno != ENOENT)
            rc = bfs_fail_at(e, BFS_EIO, from, 0, "cannot rename to %s: %s",
                             att_names[i], strerror(errno));
        xfree(to);
        xfree(from);
    }
    return rc;
}

/* OUT/runs/ID/options.json: the run's options in key order, numbers as
 * numbers, flags as true/false.  With a tag, written as options.json.TAG
 * and renamed. */
static int write_options(const struct sweep *s, size_t r, const char *outdir,
                         const char *tag, struct bfs_error *e)
{
    char *dir = sweep_run_dir(s, r, outdir);
    char *path = attempt_path(dir, "options.json", tag);
    json_t *o = json_object();
    struct bfs_out out;
    int rc;

    for (size_t k = 0; k < s->n_keys; k++) {
        const struct sweep_value *v = run_value(s, r, k);
        json_t *j = NULL;
        if (v->kind != SWEEP_ARG)
            j = json_boolean(v->kind == SWEEP_ON);
        else if (v->number)
            j = json_loads(v->text, JSON_DECODE_ANY, NULL);
        if (!j)
            j = json_string(v->text);
        json_object_set_new(o, s->keys[k].name, j);
    }
    rc = bfs_out_open(&out, path, e);
    if (rc == 0) {
        if (json_dumpf(o, out.fp, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
            fputc('\n', out.fp) == EOF) {
            bfs_out_abort(&out);
            rc = bfs_fail_at(e, BFS_EIO, path, 0, "write error");
        } else {
            rc = bfs_out_commit(&out, e);
        }
    }
    if (rc == 0 && tag) {
        char *final = attempt_path(dir, "options.json", NULL);
        if (rename(path, final) != 0) {
            rc = bfs_fail_at(e, BFS_EIO, path, 0,
                             "cannot rename to options.json: %s",
                             strerror(errno));
            unlink(path);
        }
        xfree(final);
    }
    json_decref(o);
    xfree(path);
    xfree(dir);
    return rc;
}

/* ---- running ------------------------------------------------------------- */

struct slot {
    pid_t pid; /* 0 when free */
    size_t run;
    double t0;
    int gen;       /* worker: the number of the run's claim */
    int lost;      /* worker: the claim was taken over; the replay is killed */
    char tag[320]; /* worker: the attempt's tag (attempt_tag) */
};

static void free_argv(char **argv)
{
    for (char **a = argv; *a; a++)
        xfree(*a);
    xfree(argv);
}

/* `bfsim replay OPTIONS -q --summary S -o H` for run r (malloc'd), S and
 * H named after the attempt when tag is not NULL. */
static char **run_argv(const struct sweep *s, size_t r, const char *outdir,
                       const char *tag)
{
    char *dir = sweep_run_dir(s, r, outdir);
    char **argv = xcalloc(s->n_keys + 8, sizeof *argv);
    size_t n = 0;

    argv[n++] = xstrdup("bfsim");
    argv[n++] = xstrdup("replay");
    for (size_t k = 0; k < s->n_keys; k++) {
        const struct sweep_value *v = run_value(s, r, k);
        char *a;
        if (v->kind == SWEEP_OFF)
            continue;
        a = xmalloc(strlen(s->keys[k].name) + strlen(v->text) + 4);
        if (v->kind == SWEEP_ON)
            sprintf(a, "--%s", s->keys[k].name);
        else
            sprintf(a, "--%s=%s", s->keys[k].name, v->text);
        argv[n++] = a;
    }
    argv[n++] = xstrdup("-q");
    argv[n++] = xstrdup("--summary");
    argv[n++] = attempt_path(dir, "summary.json", tag);
    argv[n++] = xstrdup("-o");
    argv[n++] = attempt_path(dir, "run.h5", tag);
    argv[n] = NULL;
    xfree(dir);
    return argv;
}

/* Removes what a replay killed outright (SIGKILL, SIGTERM) left in a
 * run directory: its outputs' temporary files. */
static void remove_stale(const char *dir)
{
    static const char *const prefixes[] = {"summary.json.tmp.", "run.h5.tmp.",
                                           "options.json.tmp."};
    DIR *d = opendir(dir);
    struct dirent *de;

    if (!d)
        return;
    while ((de = readdir(d)) != NULL)
        for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
            if (strncmp(de->d_name, prefixes[i], strlen(prefixes[i])) == 0) {
                char *p = xmalloc(strlen(dir) + strlen(de->d_name) + 2);
                sprintf(p, "%s/%s", dir, de->d_name);
                unlink(p);
                xfree(p);
                break;
            }
    closedir(d);
}

/* ---- run locks ----------------------------------------------------------- */

/* Writes "HOST PID\n" to a new file beside lock and links it to lock
 * (replace: renames it over lock instead).  Returns 0, 1 when lock
 * exists (and replace is 0), or BFS_EIO. */
static int lock_write(const char *lock, long pid, int replace,
                      struct bfs_error *e)
{
    char host[256], text[300], *tmp = xmalloc(strlen(lock) + 32);
    int fd, rc = 0, len;

    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    len = snprintf(text, sizeof text, "%s %ld\n", host, pid);
    sprintf(tmp, "%s.tmp.%ld", lock, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 || write(fd, text, (size_t)len) != len) {
        rc = bfs_fail_at(e, BFS_EIO, tmp, 0, "cannot write: %s",
                         strerror(errno));
    } else if (replace ? rename(tmp, lock) : link(tmp, lock)) {
        if (!replace && errno == EEXIST)
            rc = 1;
        else
            rc = bfs_fail_at(e, BFS_EIO, lock, 0, "cannot create: %s",
                             strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    unlink(tmp); /* after link(); after rename() it is gone already */
    xfree(tmp);
    return rc;
}

/* Whether the lock's holder may still run: a live pid on this host, or any
 * holder on another host.  holder receives the lock's text (one line). */
static int lock_live(const char *lock, char *holder, size_t size)
{
    char host[256], their[256], line[300];
    long pid;
    FILE *f = fopen(lock, "r");
    int live = 0;

    holder[0] = '\0';
    if (!f)
        return 0; /* gone meanwhile: free */
    if (fgets(line, sizeof line, f) &&
        sscanf(line, "%255s %ld", their, &pid) == 2 && pid > 0) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(holder, size, "%s", line);
        if (gethostname(host, sizeof host) != 0)
            snprintf(host, sizeof host, "localhost");
        host[sizeof host - 1] = '\0';
        live = strcmp(host, their) != 0 || kill((pid_t)pid, 0) == 0 ||
               errno == EPERM;
    }
    fclose(f);
    return live;
}

/* Claims run r for this sweep.  Returns 0 (claimed), 1 when a live
 * process holds it (holder says which), or BFS_EIO. */
static int lock_claim(const char *lock, char *holder, size_t size,
                      struct bfs_error *e)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int rc = lock_write(lock, (long)getpid(), 0, e);
        if (rc <= 0)
            return rc;
        if (lock_live(lock, holder, size))
            return 1;
        unlink(lock); /* its process is dead: take it over */
    }
    snprintf(holder, size, "another sweep, just now");
    return 1;
}

/* Starts run r in *sl.  A worker's attempt (sl->tag set, no lock) writes
 * its files under its own names (attempt_path).  Returns 0, 1 when
 * another process holds the run (holder names it; nothing started), or
 * BFS_EIO (reported in e). */
static int launch(const struct sweep *s, size_t r, const struct sweep_exec *x,
                  const sigset_t *child_mask, int use_lock, struct slot *sl,
                  char *holder, size_t holder_size, struct bfs_error *e)
{
    const char *tag = use_lock ? NULL : sl->tag;
    char *dir = sweep_run_dir(s, r, x->outdir);
    char *log = attempt_path(dir, "log.txt", tag);
    char *lock = run_file(s, r, x->outdir, "lock");
    char **argv = NULL;
    int fd = -1, rc, claimed = 0;
    pid_t pid, parent = getpid();

    if ((rc = make_dirs(dir, e)) != 0)
        goto out;
    /* a worker's run is claimed already (claim.N, not the lock) */
    if (use_lock && (rc = lock_claim(lock, holder, holder_size, e)) != 0)
        goto out;
    claimed = use_lock;
    if (use_lock)
        remove_stale(dir);
    if ((rc = write_options(s, r, x->outdir, tag, e)) != 0)
        goto out;
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        rc = bfs_fail_at(e, BFS_EIO, log, 0, "cannot create: %s",
                         strerror(errno));
        goto out;
    }
    argv = run_argv(s, r, x->outdir, tag);
    fflush(NULL); /* the child must not write the parent's buffers */
    pid = fork();
    if (pid < 0) {
        rc = bfs_fail(e, BFS_EIO, "fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        char msg[512];
        int len;

        setpgid(0, 0);
#ifdef __linux__
        /* SIGTERM (the replay's stop: partial outputs) if the sweep dies;
         * if it died already, the request came too late: stop now. */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            _exit(127);
#else
        (void)parent;
#endif
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (null >= 0)
            dup2(null, STDIN_FILENO);
        signal(SIGCHLD, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_SETMASK, child_mask, NULL);
        if (chdir(x->workdir) != 0) {
            len =
                snprintf(msg, sizeof msg, "bfsim sweep: cannot enter %s: %s\n",
                         x->workdir, strerror(errno));
        } else {
            exec_prog(x->prog, argv);
            len = snprintf(msg, sizeof msg, "bfsim sweep: cannot run %s: %s\n",
                           x->prog, strerror(errno));
        }
        if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: the child may not have run yet */
    sl->pid = pid;
    sl->run = r;
    sl->t0 = bfs_now();
    /* The lock names the replay from now on, so that a resumption sees
     * the run busy while the replay lives, even if this sweep dies. */
    if (use_lock && lock_write(lock, (long)pid, 1, NULL) != 0) {
        /* the lock keeps this sweep's pid: still a live holder */
    }
    claimed = 0;
out:
    if (rc < 0 && claimed)
        unlink(lock);
    if (fd >= 0)
        close(fd);
    if (argv)
        free_argv(argv);
    xfree(lock);
    xfree(log);
    xfree(dir);
    return rc;
}

/* Blocks SIGCHLD, SIGINT and SIGTERM for a loop over child processes:
 * sets block to those three, old to the mask before (to restore at the
 * end), chld to SIGCHLD alone (to wait on) and window to old with SIGCHLD
 * blocked and SIGINT and SIGTERM open (the mask while the loop lets the
 * caller's handlers run). */
static void block_signals(sigset_t *block, sigset_t *old, sigset_t *chld,
                          sigset_t *window)
{
    sigemptyset(block);
    sigaddset(block, SIGCHLD);
    sigaddset(block, SIGINT);
    sigaddset(block, SIGTERM);
    sigprocmask(SIG_BLOCK, block, old);
    sigemptyset(chld);
    sigaddset(chld, SIGCHLD);
    *window = *old;
    sigaddset(window, SIGCHLD);
    sigdelset(window, SIGINT);
    sigdelset(window, SIGTERM);
}

int sweep_exec(const struct sweep *s, const size_t *todo, size_t n,
               const struct sweep_exec *x, struct bfs_error *e)
{
    int jobs = x->jobs > 0 ? x->jobs : 1;
    struct slot *slots = xcalloc((size_t)jobs, sizeof *slots);
    sigset_t block, old, chld, window;
    /* The longest a pending SIGINT or SIGTERM waits for the caller's
     * handler while the loop sleeps on SIGCHLD. */
    const struct timespec tick = {0, 100000000};
    size_t next = 0;
    int running = 0, forwarded = 0, rc = 0;

    block_signals(&block, &old, &chld, &window);

    for (;;) {
        pid_t pid;
        int st;

        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (int i = 0; i < jobs; i++) {
                if (slots[i].pid != pid)
                    continue;
                slots[i].pid = 0;
                running--;
                {
                    char *lock = run_file(s, slots[i].run, x->outdir, "lock");
                    unlink(lock);
                    xfree(lock);
                }
                if (x->done)
                    x->done(x->arg, slots[i].run, st,
                            sweep_run_complete(s, slots[i].run, x->outdir),
                            bfs_now() - slots[i].t0);
                break;
            }
        }
        /* A pending SIGINT or SIGTERM reaches the caller's handler. */
        sigprocmask(SIG_SETMASK, &window, NULL);
        sigprocmask(SIG_BLOCK, &block, NULL);
        if (x->stop && *x->stop && !forwarded) {
            for (int i = 0; i < jobs; i++)
                if (slots[i].pid > 0)
                    kill(-slots[i].pid, SIGINT); /* the run's group */
            forwarded = 1;
        }
        while (rc == 0 && !(x->stop && *x->stop) && running < jobs &&
               next < n) {
            int i = 0;
            while (slots[i].pid != 0)
                i++;
            char holder[300];
            rc = launch(s, todo[next], x, &old, 1, &slots[i], holder,
                        sizeof holder, e);
            if (rc == 1) { /* held by a live process: skipped */
                if (x->busy)
                    x->busy(x->arg, todo[next], holder);
                rc = 0;
            } else if (rc == 0) {
                running++;
            }
            next++;
        }
        if (running == 0 && (next == n || rc != 0 || (x->stop && *x->stop)))
            break;
        if (running > 0)
            sigtimedwait(&chld, NULL, &tick);
    }

    sigprocmask(SIG_SETMASK, &old, NULL);
    xfree(slots);
    return rc;
}

/* ---- claim order --------------------------------------------------------- */

/* The value of key `name` in run r, or NULL (no such key, or a flag). */
static const char *run_arg(const struct sweep *s, size_t r, const char *name)
{
    size_t k = find_key(s, name);
    const struct sweep_value *v;

    if (k == (size_t)-1)
        return NULL;
    v = run_value(s, r, k);
    return v->kind == SWEEP_ARG ? v->text : NULL;
}

double sweep_cost(const struct sweep *s, size_t r)
{
    const char *alloc = run_arg(s, r, "allocator");
    const char *model = run_arg(s, r, "model");
    const char *nodes = run_arg(s, r, "nodes");
    const char *start = run_arg(s, r, "start");
    const char *end = run_arg(s, r, "end");
    const char *jobs = run_arg(s, r, "jobs");
    double w = 1;
    size_t skip, count;
    int64_t t0, t1;

    if (alloc && strcmp(alloc, "dp") == 0)
        w = 10;
    else if (alloc && strcmp(alloc, "milp") == 0)
        w = model && strcmp(model, "node") == 0 ? 1000 : 100;
    if (nodes && options_parse_nodes(nodes, &skip, &count) == 0 && count > 0)
        w *= (double)count;
    if (start && end && bfs_time_parse(start, &t0) == 0 &&
        bfs_time_parse(end, &t1) == 0 && t1 > t0)
        w *= (double)(t1 - t0);
    if (jobs) {
        char *p = xmalloc(strlen(s->dir) + strlen(jobs) + 2);
        struct stat st;
        if (jobs[0] == '/')
            strcpy(p, jobs);
        else
            sprintf(p, "%s/%s", s->dir, jobs);
        if (stat(p, &st) == 0 && st.st_size > 0)
            w *= (double)st.st_size;
        xfree(p);
    }
    return w;
}

static const double *order_cost;

static int cmp_cost(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    if (order_cost[x] != order_cost[y])
        return order_cost[x] > order_cost[y] ? -1 : 1;
    return x < y ? -1 : x > y; /* ties: expansion order */
}

void sweep_order(const struct sweep *s, size_t *order)
{
    double *cost = xcalloc(s->n_runs + 1, sizeof *cost);

    for (size_t r = 0; r < s->n_runs; r++) {
        order[r] = r;
        cost[r] = sweep_cost(s, r);
    }
    order_cost = cost;
    qsort(order, s->n_runs, sizeof *order, cmp_cost);
    order_cost = NULL;
    xfree(cost);
}

/* ---- workers ------------------------------------------------------------- */

/* How run r's attempt in sl ended, for its claim's end line. */
static enum claim_end attempt_end(const struct slot *sl, int st, int complete,
                                  int stopping)
{
    if (sl->lost)
        return CLAIM_LOST;
    if (complete && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return CLAIM_DONE;
    if (stopping && ((WIFEXITED(st) && WEXITSTATUS(st) == 130) ||
                     (WIFSIGNALED(st) &&
                      (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM))))
        return CLAIM_STOPPED;
    return CLAIM_FAILED;
}

/* Ends the attempt in sl, whose replay ended with wait status st, and
 * returns how: a claim taken over meanwhile ends "lost", its files
 * removed, not published; else the attempt's log takes the run's name,
 * and so do its outputs when they complete the run or the run is not
 * complete (a partial or failed run's outputs never replace a complete
 * one's); then what is left of it goes (the temporary files of a replay
 * killed outright), after a done attempt the leftovers of earlier ones
 * whose workers are gone too, and the claim gets its end line. */
static enum claim_end attempt_close(const struct sweep *s,
                                    const struct sweep_exec *x, struct slot *sl,
                                    int st, int stopping, double secs)
{
    char *dir = sweep_run_dir(s, sl->run, x->outdir);
    enum claim_end end = CLAIM_LOST;

    if (claim_superseded(dir, sl->gen))
        sl->lost = 1;
    if (!sl->lost) {
        char *sum = attempt_path(dir, "summary.json", sl->tag);
        int outputs;

        end = attempt_end(sl, st, complete_at(sum), stopping);
        outputs =
            end == CLAIM_DONE || !sweep_run_complete(s, sl->run, x->outdir);
        if (attempt_publish(dir, sl->tag, outputs, NULL) != 0 &&
            end == CLAIM_DONE)
            end = CLAIM_FAILED;
        /* taken over while it published: the run is the next claim's */
        if (claim_superseded(dir, sl->gen))
            end = CLAIM_LOST;
        xfree(sum);
    }
    remove_attempts(dir, sl->gen, 0, 0);
    if (end == CLAIM_DONE)
        remove_attempts(dir, -1, sl->gen, x->lease);
    claim_finish(dir, sl->gen, end, secs, NULL);
    xfree(dir);
    return end;
}

/* Whether the open, stale claim c of the run in dir left the run's
 * outputs whole under its attempt's names (its replay completed the run,
 * and its worker died before renaming them), and that worker is not live:
 * then they can be taken as the run's. */
static int salvageable(const char *dir, const struct claim_info *c,
                       double lease, double now)
{
    char tag[320], *sum, *h5;
    struct stat st;
    int ok;

    if (claim_holder_live(c, lease, now))
        return 0;
    attempt_tag(tag, sizeof tag, c->gen, c->host, c->pid);
    sum = attempt_path(dir, "summary.json", tag);
    h5 = attempt_path(dir, "run.h5", tag);
    ok = complete_at(sum) && stat(h5, &st) == 0 && S_ISREG(st.st_mode);
    xfree(h5);
    xfree(sum);
    return ok;
}

/* Reconciles run r, whose last claim c is open and stale: the run is
 * complete, or (salvage) c's attempt left its outputs whole under its
 * own names.  Takes claim c->gen + 1 (exclusively, as a takeover),
 * renames the outputs (salvage), removes the leftovers of the attempts
 * before it whose workers are gone, and ends the new claim "done ...
 * reconciled" with the seconds c's replay ran (from c's start to the
 * summary's mtime): the run is done once and not run again, and c, its
 * worker dead, is never written by anyone else.  Returns 0, 1 when
 * another worker took claim c->gen + 1 first, or a negative BFS_E* code
 * (in e). */
static int reconcile(size_t r, const struct sweep_exec *x, const char *dir,
                     const struct claim_info *c, const char *host, int salvage,
                     struct bfs_error *e)
{
    int gen = c->gen + 1, rc;
    double secs = 0;
    struct stat st;
    char *sum;

    rc = claim_take(dir, gen, host, (long)getpid(), claim_now(), e);
    if (rc)
        return rc;
    if (salvage) {
        char tag[320];
        attempt_tag(tag, sizeof tag, c->gen, c->host, c->pid);
        if ((rc = attempt_publish(dir, tag, 1, e)) != 0) {
            claim_finish(dir, gen, CLAIM_STOPPED, 0, NULL);
            return rc;
        }
    }
    sum = attempt_path(dir, "summary.json", NULL);
    if (stat(sum, &st) == 0)
        secs = fmax(0, (double)st.st_mtim.tv_sec +
                           (double)st.st_mtim.tv_nsec * 1e-9 - c->start);
    xfree(sum);
    remove_attempts(dir, -1, gen, x->lease);
    if ((rc = claim_reconciled(dir, gen, secs, e)) != 0)
        return rc;
    if (x->reconciled)
        x->reconciled(x->arg, r, c->gen);
    return 0;
}

/* Takes run r, pending or stale (c its last claim), into the free slot sl
 * and starts it.  Returns 0 (started, or the claim was taken over while
 * starting: ended "lost"), 1 when another worker claimed it first, or a
 * negative BFS_E* code (in e). */
static int work_take(const struct sweep *s, size_t r,
                     const struct sweep_exec *x, const sigset_t *child_mask,
                     const char *dir, const struct claim_info *c,
                     const char *host, struct slot *sl, int *running,
                     struct bfs_error *e)
{
    int gen = c->gen + 1, stale = c->gen >= 0 && c->end == CLAIM_OPEN, rc;

    rc = make_dirs(dir, e);
    if (rc == 0)
        rc = claim_take(dir, gen, host, (long)getpid(), claim_now(), e);
    if (rc)
        return rc;
    if (x->claimed)
        x->claimed(x->arg, r, gen, stale);
    /* what the attempts before left, unless their workers may live */
    remove_attempts(dir, -1, gen, x->lease);
    attempt_tag(sl->tag, sizeof sl->tag, gen, host, (long)getpid());
    sl->gen = gen;
    sl->lost = 0;
    rc = launch(s, r, x, child_mask, 0, sl, NULL, 0, e);
    if (rc == 0) {
        (*running)++;
        return 0;
    }
    /* a worker stalled here past the lease may find its files gone: its
     * claim was taken over, which is no error */
    remove_attempts(dir, gen, 0, 0);
    if (claim_superseded(dir, gen)) {
        claim_finish(dir, gen, CLAIM_LOST, 0, NULL);
        return 0;
    }
    claim_finish(dir, gen, CLAIM_STOPPED, 0, NULL);
    return rc;
}

/* One look at every run in claim order: claims what it can into free
 * slots, reconciles complete runs left with an open stale claim, and
 * names runs given up (once: they are settled).  Returns 0 and sets *live
 * to the runs that other workers hold with a fresh heartbeat or that are
 * still to do, or a negative BFS_E* code. */
static int work_scan(const struct sweep *s, const size_t *order, size_t n,
                     const struct sweep_exec *x, const sigset_t *child_mask,
                     struct slot *slots, int jobs, int *running,
                     unsigned char *settled, const char *host,
                     struct sweep_work_result *res, size_t *live,
                     struct bfs_error *e)
{
    int rc = 0;

    *live = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t r = order[i];
        struct claim_info c;
        enum claim_state st;
        char *dir;
        /* >= 0: reconcile, 1 from the dead attempt's own files */
        int mine = 0, free_slot = -1, complete, salvage = -1;
        double now;

        if (settled[r])
            continue;
        for (int k = 0; k < jobs; k++) {
            if (slots[k].pid > 0 && slots[k].run == r)
                mine = 1;
            if (slots[k].pid == 0 && free_slot < 0)
                free_slot = k;
        }
        if (mine)
            continue;
        complete = sweep_run_complete(s, r, x->outdir);
        dir = sweep_run_dir(s, r, x->outdir);
        if ((rc = claim_read(dir, &c, e)) != 0) {
            xfree(dir);
            break;
        }
        now = claim_now();
        st = claim_state_of(&c, x->lease, x->retries, now);
        if (complete && c.gen >= 0 && c.end == CLAIM_OPEN) {
            /* its worker ends the claim, or died before it could */
            if (now - c.beat <= x->lease)
                (*live)++;
            else
                salvage = 0;
        } else if (complete) {
            settled[r] = 1;
            res->n_complete++;
        } else if (st == CLAIM_GAVE_UP) {
            settled[r] = 2;
            res->n_failed++;
            if (x->gave_up)
                x->gave_up(x->arg, r, c.n_failed);
        } else if (st == CLAIM_RUNNING) {
            (*live)++;
        } else if (st == CLAIM_STALE && salvageable(dir, &c, x->lease, now)) {
            salvage = 1;
        } else if (free_slot >= 0 && !(x->stop && *x->stop)) {
            /* pending, or stale: the next claim number, exclusively */
            rc = work_take(s, r, x, child_mask, dir, &c, host,
                           &slots[free_slot], running, e);
            if (rc == 1) { /* another worker was first: it runs */
                rc = 0;
                (*live)++;
            }
        } else {
            (*live)++; /* claimable, but no slot: still to do */
        }
        if (salvage >= 0) {
            rc = reconcile(r, x, dir, &c, host, salvage, e);
            if (rc == 1) { /* another worker was first */
                rc = 0;
                (*live)++;
            } else if (rc == 0) {
                settled[r] = 1;
                res->n_complete++;
            }
        }
        xfree(dir);
    }
    return rc;
}

int sweep_work(const struct sweep *s, const size_t *order, size_t n,
               const struct sweep_exec *x, struct sweep_work_result *res,
               struct bfs_error *e)
{
    int jobs = x->jobs > 0 ? x->jobs : 1;
    struct slot *slots = xcalloc((size_t)jobs, sizeof *slots);
    unsigned char *settled = xcalloc(s->n_runs + 1, 1);
    sigset_t block, old, chld, window;
    const struct timespec tick = {0, 100000000};
    double beat = x->lease / 3, next_beat = 0, next_scan = 0;
    char host[256];
    int running = 0, forwarded = 0, rc = 0, rescan = 1;

    memset(res, 0, sizeof *res);
    claim_host(host, sizeof host);
    block_signals(&block, &old, &chld, &window);

    for (;;) {
        int stopping = x->stop && *x->stop, st;
        double now;
        pid_t pid;

        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (int i = 0; i < jobs; i++) {
                struct slot *sl = &slots[i];
                enum claim_end end;
                double secs;

                if (sl->pid != pid)
                    continue;
                sl->pid = 0;
                running--;
                secs = bfs_now() - sl->t0;
                /* a lost claim's end too: the record shows how long the
                 * replay ran on after the takeover */
                end = attempt_close(s, x, sl, st, stopping, secs);
                if (end == CLAIM_DONE)
                    res->n_ran++;
                if (x->done && end != CLAIM_LOST)
                    x->done(x->arg, sl->run, st,
                            sweep_run_complete(s, sl->run, x->outdir), secs);
                rescan = 1;
                break;
            }
        }
        sigprocmask(SIG_SETMASK, &window, NULL);
        sigprocmask(SIG_BLOCK, &block, NULL);
        stopping = x->stop && *x->stop;
        if (stopping && !forwarded) {
            for (int i = 0; i < jobs; i++)
                if (slots[i].pid > 0)
                    kill(-slots[i].pid, SIGINT);
            forwarded = 1;
        }
        now = bfs_now();
        if (now >= next_beat) {
            for (int i = 0; i < jobs; i++) {
                struct slot *sl = &slots[i];
                char *dir;
                if (sl->pid <= 0 || sl->lost)
                    continue;
                dir = sweep_run_dir(s, sl->run, x->outdir);
                if (claim_beat(dir, sl->gen, NULL) == 1) {
                    /* taken over: this worker was thought dead */
                    sl->lost = 1;
                    kill(-sl->pid, SIGKILL);
                }
                xfree(dir);
            }
            next_beat = now + beat;
        }
        if (stopping) {
            if (running == 0)
                break;
        } else if (running < jobs && (rescan || now >= next_scan)) {
            size_t live = 0;
            res->n_complete = res->n_failed = 0;
            for (size_t r = 0; r < s->n_runs; r++) {
                res->n_complete += settled[r] == 1;
                res->n_failed += settled[r] == 2;
            }
            rc = work_scan(s, order, n, x, &old, slots, jobs, &running, settled,
                           host, res, &live, e);
            if (rc)
                break;
            /* Slots free and nothing to claim: look again soon, so that
             * the sweep's end (or a run given back) is seen at once; a
             * scan skips the runs known complete, so near the end it
             * reads only the few still held. */
            rescan = 0;
            next_scan = now + (beat < 0.5 ? beat : 0.5);
            if (running == 0 && live == 0)
                break; /* nothing pending, nothing held by a live worker */
        }
        sigtimedwait(&chld, NULL, &tick);
    }
    /* on an error, the runs started are stopped and waited for */
    for (int i = 0; rc && i < jobs; i++)
        if (slots[i].pid > 0)
            kill(-slots[i].pid, SIGINT);
    while (running > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0)
            break;
        for (int i = 0; i < jobs; i++)
            if (slots[i].pid == pid) {
                slots[i].pid = 0;
                running--;
                if (attempt_close(s, x, &slots[i], st, 1,
                                  bfs_now() - slots[i].t0) == CLAIM_DONE)
                    res->n_ran++;
            }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    xfree(settled);
    xfree(slots);
    return rc;
}

/* ---- the results table --------------------------------------------------- */

/* One leaf of a summary. */
struct leaf {
    char *name; /* owned: "a.b.c" */
    const json_t *v;
};

struct leaves {
    struct leaf *l;
    size_t n, cap;
};

static void flatten(json_t *j, struct buf *prefix, struct leaves *out)
{
    size_t keep = prefix->n;

    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
        {
            if (keep)
                buf_str(prefix, ".");
            buf_str(prefix, k);
            flatten(v, prefix, out);
            prefix->n = keep;
            prefix->p[keep] = '\0';
        }
    } else if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) {
            char idx[32];
            snprintf(idx, sizeof idx, "%s%zu", keep ? "." : "", i);
            buf_str(prefix, idx);
            flatten(json_array_get(j, i), prefix, out);
            prefix->n = keep;
            prefix->p[keep] = '\0';
        }
    } else if (!json_is_null(j)) {
        BFS_GROW(out->l, out->cap, out->n + 1);
        out->l[out->n].name = xstrdup(prefix->p ? prefix->p : "");
        out->l[out->n].v = j;
        out->n++;
    }
}

struct column {
    char *name;    /* owned: the header */
    int is_str;    /* some row holds a string */
    size_t maxlen; /* longest text (strings) */
};

struct cell {
    char *text; /* owned; NULL when the run lacks the measure */
    double d;   /* the number (NaN for a string) */
    int is_str;
};

struct table {
    size_t n_rows, *runs; /* owned: the complete runs */
    struct column *cols;  /* owned: the measures */
    size_t n_cols, cap_cols;
    struct cell **cells; /* owned: [row][measure], n_cols_at_row wide */
    size_t *width;       /* owned: cells allocated per row */
};

static size_t find_col(struct table *t, const char *name, size_t hint)
{
    if (hint < t->n_cols && strcmp(t->cols[hint].name, name) == 0)
        return hint;
    for (size_t c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return c;
    return (size_t)-1;
}

static void leaf_cell(const json_t *v, struct cell *c)
{
    char buf[64];

    c->is_str = 0;
    switch (json_typeof(v)) {
    case JSON_INTEGER:
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        c->d = (double)json_integer_value(v);
        break;
    case JSON_REAL:
        snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
        c->d = json_real_value(v);
        break;
    case JSON_TRUE:
    case JSON_FALSE:
        snprintf(buf, sizeof buf, "%d", json_is_true(v) ? 1 : 0);
        c->d = json_is_true(v) ? 1.0 : 0.0;
        break;
    default:
        c->text = xstrdup(json_string_value(v));
        c->d = nan("");
        c->is_str = 1;
        return;
    }
    c->text = xstrdup(buf);
}

static void table_release(struct table *t)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->width[r]; c++)
            xfree(t->cells[r][c].text);
        xfree(t->cells[r]);
    }
    xfree(t->cells);
    xfree(t->width);
    for (size_t c = 0; c < t->n_cols; c++)
        xfree(t->cols[c].name);
    xfree(t->cols);
    xfree(t->runs);
}

static void table_add(struct table *t, size_t r, json_t *summary)
{
    struct leaves lv = {0};
    struct buf prefix = {0};
    size_t row = t->n_rows++;
    /* The run's parameters (its replay options, engine/options.h) are
     * the configuration's keys, already columns: only the measures. */
    json_t *values = json_copy(summary);

    json_object_del(values, "parameters");
    buf_add(&prefix, "", 0);
    flatten(values, &prefix, &lv);
    json_decref(values);
    xfree(prefix.p);
    t->runs = xreallocarray(t->runs, t->n_rows, sizeof *t->runs);
    t->cells = xreallocarray(t->cells, t->n_rows, sizeof *t->cells);
    t->width = xreallocarray(t->width, t->n_rows, sizeof *t->width);
    t->runs[row] = r;
    t->width[row] = t->n_cols + lv.n;
    t->cells[row] = xcalloc(t->width[row] + 1, sizeof **t->cells);
    for (size_t i = 0; i < lv.n; i++) {
        size_t c = find_col(t, lv.l[i].name, i);
        struct cell *cell;
        if (c == (size_t)-1) {
            BFS_GROW(t->cols, t->cap_cols, t->n_cols + 1);
            c = t->n_cols++;
            t->cols[c].name = lv.l[i].name;
            t->cols[c].is_str = 0;
            t->cols[c].maxlen = 0;
            lv.l[i].name = NULL;
        }
        cell = &t->cells[row][c];
        if (cell->text) /* a name seen twice (".": "a.b" and a{b}) */
            xfree(cell->text);
        leaf_cell(lv.l[i].v, cell);
        if (cell->is_str)
            t->cols[c].is_str = 1;
        if (strlen(cell->text) > t->cols[c].maxlen)
            t->cols[c].maxlen = strlen(cell->text);
        xfree(lv.l[i].name);
    }
    xfree(lv.l);
}

static const struct cell *table_cell(const struct table *t, size_t row,
                                     size_t c)
{
    return c < t->width[row] && t->cells[row][c].text ? &t->cells[row][c]
                                                      : NULL;
}

/* The header of measure c: prefixed when it collides with a key or id. */
static char *measure_name(const struct sweep *s, const struct table *t,
                          size_t c)
{
    const char *n = t->cols[c].name;
    char *p;

    if (strcmp(n, "id") != 0 && find_key(s, n) == (size_t)-1)
        return xstrdup(n);
    p = xmalloc(strlen(n) + 9);
    sprintf(p, "summary.%s", n);
    return p;
}

static int write_csv(const struct sweep *s, const struct table *t,
                     const char *path, struct bfs_out *out, struct bfs_error *e)
{
    FILE *f;

    /* a table is complete or absent: never written in place */
    if (bfs_out_open_mode(out, path, BFS_OUT_FILE, e))
        return BFS_EIO;
    f = out->fp;
    fputs("id", f);
    for (size_t k = 0; k < s->n_keys; k++) {
        fputc(',', f);
        csv_field(f, s->keys[k].name);
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        char *n = measure_name(s, t, c);
        fputc(',', f);
        csv_field(f, n);
        xfree(n);
    }
    fputc('\n', f);
    for (size_t row = 0; row < t->n_rows; row++) {
        size_t r = t->runs[row];
        fputs(s->runs[r].hex, f);
        for (size_t k = 0; k < s->n_keys; k++) {
            fputc(',', f);
            csv_field(f, run_value(s, r, k)->text);
        }
        for (size_t c = 0; c < t->n_cols; c++) {
            const struct cell *cell = table_cell(t, row, c);
            fputc(',', f);
            if (cell)
                csv_field(f, cell->text);
        }
        fputc('\n', f);
    }
    if (ferror(f)) {
        bfs_out_abort(out);
        return bfs_fail_at(e, BFS_EIO, path, 0, "write error");
    }
    return 0;
}

/* The machine-dependent measures of the table (engine/measures.h),
 * "a, b and c". */
static char *machine_columns(void)
{
    struct buf b = {0};
    size_t n = 0, k = 0;

    for (size_t i = 0; i < measures_n; i++)
        n += (measures[i].flags & MEASURE_MACHINE) != 0;
    for (size_t i = 0; i < measures_n; i++) {
        if (!(measures[i].flags & MEASURE_MACHINE))
            continue;
        if (k++)
            buf_str(&b, k == n ? " and " : ", ");
        buf_str(&b, measures[i].key);
    }
    return buf_take(&b);
}

/* The text of /results' "columns" attribute. */
static char *results_columns(void)
{
    struct buf b = {0};
    char *machine = machine_columns();

    buf_str(&b,
            "id: the run's id (FNV-1a 64 of its canonical option set), also "
            "the name of its directory runs/ID\n"
            "then one field per key of the configuration: the option's value "
            "as passed to bfsim replay (true/false for flags)\n"
            "then every measure of the run's summary.json, nested names "
            "joined with '.', prefixed with 'summary.' where a name equals a "
            "key; numbers as doubles (NaN: absent), true/false as 1/0, text "
            "as strings\n");
    buf_str(&b, machine);
    buf_str(&b, " measure the machine and differ between repeated runs; "
                "every other field is the same\n");
    xfree(machine);
    return buf_take(&b);
}

static int h5_fail(struct bfs_error *e, const char *path, const char *what)
{
    return bfs_fail_at(e, BFS_EIO, path, 0, "%s", what);
}

static int h5_attr_str(hid_t loc, const char *key, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR), a = -1;
    int ok = t >= 0 && sp >= 0 && H5Tset_size(t, H5T_VARIABLE) >= 0 &&
             H5Tset_cset(t, H5T_CSET_UTF8) >= 0 &&
             (a = H5Acreate2(loc, key, t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
             H5Awrite(a, t, &value) >= 0;

    if (a >= 0 && H5Aclose(a) < 0)
        ok = 0;
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return ok ? 0 : -1;
}

static hid_t str_type(size_t len)
{
    hid_t t = H5Tcopy(H5T_C_S1);

    if (t < 0)
        return t;
    if (H5Tset_size(t, len ? len : 1) < 0 ||
        H5Tset_strpad(t, H5T_STR_NULLPAD) < 0 ||
        H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

/* Writes the HDF5 table to the temporary file of out (opened here,
 * BFS_OUT_PATH), to be committed by the caller; aborted on failure. */
static int write_h5(const struct sweep *s, const struct table *t,
                    const char *path, struct bfs_out *out, struct bfs_error *e)
{
    size_t nf = 1 + s->n_keys + t->n_cols, rec = 0;
    size_t *off = xcalloc(nf, sizeof *off), *len = xcalloc(nf, sizeof *len);
    int *dbl = xcalloc(nf, sizeof *dbl);
    hid_t file = -1, type = -1, sp = -1, dcpl = -1, d = -1, fapl = -1;
    hsize_t dims = t->n_rows;
    unsigned char *data = NULL;
    char *columns = results_columns();
    int rc = 0, opened = 0;

    /* Field sizes: id 16, options and string measures as long as their
     * longest text, other measures 8-byte doubles. */
    len[0] = 16;
    for (size_t k = 0; k < s->n_keys; k++) {
        size_t m = 1;
        for (size_t row = 0; row < t->n_rows; row++) {
            size_t l = strlen(run_value(s, t->runs[row], k)->text);
            m = l > m ? l : m;
        }
        len[1 + k] = m;
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        dbl[1 + s->n_keys + c] = !t->cols[c].is_str;
        len[1 + s->n_keys + c] =
            t->cols[c].is_str ? (t->cols[c].maxlen ? t->cols[c].maxlen : 1)
                              : sizeof(double);
    }
    for (size_t i = 0; i < nf; i++) {
        off[i] = rec;
        rec += len[i];
    }

    if ((rc = bfs_out_open_mode(out, path, BFS_OUT_PATH, e)) != 0)
        goto out;
    opened = 1;
    H5dont_atexit(); /* as in h5out_open: no crash at exit after a failure */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (file = H5Fcreate(out->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0) {
        rc = h5_fail(e, path, "cannot create the HDF5 file");
        goto out;
    }
    if ((type = H5Tcreate(H5T_COMPOUND, rec ? rec : 1)) < 0) {
        rc = h5_fail(e, path, "cannot create the table's type");
        goto out;
    }
    for (size_t i = 0; i < nf && rc == 0; i++) {
        const char *name;
        char *mname = NULL;
        hid_t ft;

        if (i == 0)
            name = "id";
        else if (i <= s->n_keys)
            name = s->keys[i - 1].name;
        else
            name = mname = measure_name(s, t, i - 1 - s->n_keys);
        ft = dbl[i] ? H5Tcopy(H5T_IEEE_F64LE) : str_type(len[i]);
        if (ft < 0 || H5Tinsert(type, name, off[i], ft) < 0)
            rc = h5_fail(e, path, "cannot create the table's type");
        if (ft >= 0)
            H5Tclose(ft);
        xfree(mname);
    }
    if (rc)
        goto out;

    data = xcalloc(t->n_rows ? t->n_rows : 1, rec ? rec : 1);
    for (size_t row = 0; row < t->n_rows; row++) {
        unsigned char *p = data + row * rec;
        size_t r = t->runs[row];
        memcpy(p + off[0], s->runs[r].hex, 16);
        for (size_t k = 0; k < s->n_keys; k++) {
            const char *v = run_value(s, r, k)->text;
            memcpy(p + off[1 + k], v, strlen(v));
        }
        for (size_t c = 0; c < t->n_cols; c++) {
            const struct cell *cell = table_cell(t, row, c);
            size_t i = 1 + s->n_keys + c;
            if (dbl[i]) {
                double v = cell ? cell->d : nan("");
                memcpy(p + off[i], &v, sizeof v);
            } else if (cell) {
                memcpy(p + off[i], cell->text, strlen(cell->text));
            }
        }
    }
    if ((sp = H5Screate_simple(1, &dims, NULL)) < 0 ||
        (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_obj_track_times(dcpl, 0) < 0 ||
        (d = H5Dcreate2(file, "results", type, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT)) < 0 ||
        (t->n_rows > 0 &&
         H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) ||
        h5_attr_str(d, "columns", columns) != 0 ||
        h5_attr_str(file, "format", "bfsim sweep results 1") != 0) {
        rc = h5_fail(e, path, "cannot write the table");
        goto out;
    }
out:
    if (d >= 0 && H5Dclose(d) < 0 && rc == 0)
        rc = h5_fail(e, path, "cannot write the table");
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    if (type >= 0)
        H5Tclose(type);
    if (file >= 0 && H5Fclose(file) < 0 && rc == 0)
        rc = h5_fail(e, path, "cannot close the HDF5 file");
    if (fapl >= 0)
        H5Pclose(fapl);
    if (rc && opened)
        bfs_out_abort(out);
    xfree(columns);
    xfree(data);
    xfree(off);
    xfree(len);
    xfree(dbl);
    return rc;
}

int sweep_write_table(const struct sweep *s, const char *outdir, size_t *rows,
                      struct bfs_error *e)
{
    struct table t = {0};
    struct bfs_out csv, h5;
    char *csv_path = xmalloc(strlen(outdir) + 32);
    char *h5_path = xmalloc(strlen(outdir) + 32);
    int rc;

    sprintf(csv_path, "%s/results.csv", outdir);
    sprintf(h5_path, "%s/results.h5", outdir);
    for (size_t r = 0; r < s->n_runs; r++) {
        json_t *j = load_complete(s, r, outdir);
        if (j) {
            table_add(&t, r, j);
            json_decref(j);
        }
    }
    rc = write_h5(s, &t, h5_path, &h5, e);
    if (rc == 0) {
        rc = write_csv(s, &t, csv_path, &csv, e);
        if (rc == 0)
            rc = bfs_out_commit(&csv, e);
        if (rc == 0)
            rc = bfs_out_commit(&h5, e);
        else
            bfs_out_abort(&h5);
    }
    if (rc == 0)
        *rows = t.n_rows;
    xfree(h5_path);
    xfree(csv_path);
    table_release(&t);
    return rc;
}

/* ---- logs ---------------------------------------------------------------- */

char *sweep_log_tail(const char *path, size_t lines)
{
    FILE *f = fopen(path, "rb");
    char *buf, *p;
    long size;
    size_t n, seen = 0;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
        fclose(f);
        return NULL;
    }
    if (fseek(f, size > 4096 ? size - 4096 : 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = xmalloc(4097);
    n = fread(buf, 1, 4096, f);
    fclose(f);
    buf[n] = '\0';
    /* Ignore one final newline; then walk back over `lines` newlines. */
    p = buf + n;
    if (p > buf && p[-1] == '\n')
        p--;
    while (p > buf) {
        if (p[-1] == '\n' && ++seen == lines)
            break;
        p--;
    }
    memmove(buf, p, strlen(p) + 1);
    return buf;
}
