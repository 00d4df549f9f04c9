/* sweep.c - a sweep's configuration: its keys and values, their
 * expansion into runs, the runs' ids and descriptions (sweep.h).
 *
 * A sweep is four files, each using only the ones before it (through
 * sweep_impl.h): sweep.c, the configuration and its expansion; run.c,
 * running the replays and the run folders; work.c, the workers that
 * share a sweep through claims (claim.c); table.c, the results table.
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
 */
#include "config.h"

#include "sweep/sweep.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/options.h"
#include "sweep/sweep_impl.h"

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

uint64_t fnv1a(const char *p, size_t n)
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

size_t find_key(const struct sweep *s, const char *name)
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

int cmp_u64(const void *a, const void *b)
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

void buf_add(struct buf *b, const char *s, size_t n)
{
    BFS_GROW(b->p, b->cap, b->n + n + 1);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void buf_str(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

char *buf_take(struct buf *b)
{
    if (!b->p)
        buf_add(b, "", 0);
    return b->p;
}

const struct sweep_value *run_value(const struct sweep *s, size_t r, size_t k)
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
