/* hostlist.c - Slurm host list expansion, numeric-aware name order and a
 * name-to-index hash map.
 *
 * Expansion is one left-to-right scan per host expression that records
 * its literal pieces and bracket groups (ranges with their print width),
 * validates everything, and only then generates the cross product with an
 * odometer over the groups.  A failing list leaves the output list as it
 * was: names appended before the error are removed again.
 *
 * Interval sets: the ranges are checked against the caller's limit as
 * they are read, then sorted and merged, so expansion costs at most
 * limit ids whatever the overlaps.
 *
 * The index is open addressing with linear probing over a power-of-two
 * table kept at most half full, keyed by FNV-1a; names are copied.
 */
#include "config.h"

#include "formats/hostlist.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Longest number a bound may have: 18 digits always fit in uint64_t. */
#define MAX_DIGITS 18

void hostlist_init(struct hostlist *h)
{
    h->names = NULL;
    h->n = 0;
    h->cap = 0;
}

void hostlist_push(struct hostlist *h, const char *name)
{
    BFS_GROW(h->names, h->cap, h->n + 1);
    h->names[h->n++] = xstrdup(name);
}

void hostlist_clear(struct hostlist *h)
{
    for (size_t i = 0; i < h->n; i++)
        xfree(h->names[i]);
    h->n = 0;
}

void hostlist_release(struct hostlist *h)
{
    hostlist_clear(h);
    xfree(h->names);
    hostlist_init(h);
}

/* ---- parsing ------------------------------------------------------- */

struct range {
    uint64_t lo, hi;
    int width; /* 0: no padding */
};

/* A piece of a host expression: literal text followed by an optional
 * bracket group (ranges[first .. first + n_ranges - 1]). */
struct part {
    const char *lit;
    size_t lit_len;
    size_t first, n_ranges; /* n_ranges 0: no group */
    uint64_t size;          /* numbers in the group */
};

struct parser {
    const char *list; /* the whole text, for columns and messages */
    const char *file;
    size_t line;
    struct bfs_error *e;
    size_t max;             /* most hosts the list may expand to */
    const char *limit_name; /* the option setting max, for messages */
    struct part *parts;
    size_t n_parts, cap_parts;
    struct range *ranges;
    size_t n_ranges, cap_ranges;
};

static int perr(struct parser *ps, const char *at, const char *what)
{
    return bfs_fail_at(ps->e, BFS_EPARSE, ps->file, ps->line,
                       "host list '%.80s%s': %s at column %zu", ps->list,
                       strlen(ps->list) > 80 ? "..." : "", what,
                       (size_t)(at - ps->list) + 1);
}

static int too_many(struct parser *ps, const char *at)
{
    char what[160];

    snprintf(what, sizeof what, "more than %zu hosts (the limit %s sets)",
             ps->max, ps->limit_name);
    return perr(ps, at, what);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

/* Reads a bound at *p: its value and digit count. */
static int parse_bound(struct parser *ps, const char **p, uint64_t *v,
                       int *ndig)
{
    const char *s = *p;
    uint64_t x = 0;
    int n = 0;

    if (!is_digit(*s)) {
        if (*s == '[')
            return perr(ps, s, "nested '['");
        if (*s == ',' || *s == ']' || *s == '-' || *s == '\0')
            return perr(ps, s, "empty range");
        return perr(ps, s, "expected a number");
    }
    while (is_digit(s[n])) {
        if (n == MAX_DIGITS)
            return perr(ps, s, "number too long");
        x = x * 10 + (uint64_t)(s[n] - '0');
        n++;
    }
    *v = x;
    *ndig = n;
    *p = s + n;
    return 0;
}

/* Parses the group after the '[' at open; leaves *p after the ']'. */
static int parse_group(struct parser *ps, const char *open, const char **p,
                       struct part *pt)
{
    const char *s = open + 1;

    pt->first = ps->n_ranges;
    pt->size = 0;
    for (;;) {
        const char *item = s, *hs = NULL;
        uint64_t lo, hi;
        int dlo, dhi, width;
        int rc;

        if (*s == '\0')
            return perr(ps, open, "unbalanced '['");
        if (*s == '[')
            return perr(ps, s, "nested '['");
        if ((rc = parse_bound(ps, &s, &lo, &dlo)) != 0)
            return rc;
        hi = lo;
        dhi = dlo;
        if (*s == '-') {
            hs = ++s;
            if ((rc = parse_bound(ps, &s, &hi, &dhi)) != 0)
                return rc;
        }
        if (*s != ',' && *s != ']') {
            if (*s == '\0')
                return perr(ps, open, "unbalanced '['");
            if (*s == '[')
                return perr(ps, s, "nested '['");
            return perr(ps, s, "unexpected character in brackets");
        }
        /* A leading zero fixes the width; both bounds must show it. */
        width = 0;
        if ((dlo > 1 && item[0] == '0') || (hs && dhi > 1 && hs[0] == '0')) {
            if (dlo != dhi)
                return perr(ps, item, "range bounds of different widths");
            width = dlo;
        }
        if (lo > hi)
            return perr(ps, item, "reversed range");
        if (hi - lo >= ps->max || pt->size + (hi - lo + 1) > ps->max)
            return too_many(ps, item);
        BFS_GROW(ps->ranges, ps->cap_ranges, ps->n_ranges + 1);
        ps->ranges[ps->n_ranges++] = (struct range){lo, hi, width};
        pt->size += hi - lo + 1;
        if (*s++ == ']')
            break;
    }
    pt->n_ranges = ps->n_ranges - pt->first;
    *p = s;
    return 0;
}

/* Parses the host expression at *p up to a ',' outside brackets or the
 * end, filling ps->parts; leaves *p at the ',' or the end. */
static int parse_expr(struct parser *ps, const char **p)
{
    const char *s = *p;
    const char *start = s;

    ps->n_parts = 0;
    ps->n_ranges = 0;
    for (;;) {
        struct part pt = {s, 0, 0, 0, 1};
        int rc;

        while (*s && *s != ',' && *s != '[') {
            if (*s == ']')
                return perr(ps, s, "unbalanced ']'");
            if (is_blank(*s))
                return perr(ps, s, "blank in host name");
            s++;
        }
        pt.lit_len = (size_t)(s - pt.lit);
        if (*s == '[' && (rc = parse_group(ps, s, &s, &pt)) != 0)
            return rc;
        BFS_GROW(ps->parts, ps->cap_parts, ps->n_parts + 1);
        ps->parts[ps->n_parts++] = pt;
        if (*s == '\0' || *s == ',')
            break;
    }
    if (s == start)
        return perr(ps, s, "empty host name");
    *p = s;
    return 0;
}

/* Appends the cross product of ps->parts to h. */
static int expand_expr(struct parser *ps, struct hostlist *h, size_t *total,
                       const char *at)
{
    size_t count = 1, len = 1;
    size_t *ri;    /* per part: current range */
    uint64_t *val; /* per part: current number */
    char *buf;

    for (size_t i = 0; i < ps->n_parts; i++) {
        count *= (size_t)ps->parts[i].size;
        if (count > ps->max || *total + count > ps->max)
            return too_many(ps, at);
        len += ps->parts[i].lit_len + 2 * MAX_DIGITS;
    }
    *total += count;
    ri = xcalloc(ps->n_parts, sizeof *ri);
    val = xcalloc(ps->n_parts, sizeof *val);
    buf = xmalloc(len);
    for (size_t i = 0; i < ps->n_parts; i++)
        if (ps->parts[i].n_ranges)
            val[i] = ps->ranges[ps->parts[i].first].lo;
    for (size_t k = 0; k < count; k++) {
        char *o = buf;
        for (size_t i = 0; i < ps->n_parts; i++) {
            const struct part *pt = &ps->parts[i];
            memcpy(o, pt->lit, pt->lit_len);
            o += pt->lit_len;
            if (pt->n_ranges)
                o += sprintf(o, "%0*llu", ps->ranges[pt->first + ri[i]].width,
                             (unsigned long long)val[i]);
        }
        *o = '\0';
        hostlist_push(h, buf);
        /* Advance the odometer, rightmost group fastest. */
        for (size_t i = ps->n_parts; i-- > 0;) {
            const struct part *pt = &ps->parts[i];
            if (!pt->n_ranges)
                continue;
            if (val[i] < ps->ranges[pt->first + ri[i]].hi) {
                val[i]++;
                break;
            }
            if (ri[i] + 1 < pt->n_ranges) {
                ri[i]++;
                val[i] = ps->ranges[pt->first + ri[i]].lo;
                break;
            }
            ri[i] = 0;
            val[i] = ps->ranges[pt->first].lo;
        }
    }
    xfree(buf);
    xfree(val);
    xfree(ri);
    return 0;
}

int hostlist_expand(struct hostlist *h, const char *list, size_t max,
                    const char *limit_name, const char *file, size_t line,
                    struct bfs_error *e)
{
    struct parser ps = {list, file, line, e,    max, limit_name,
                        NULL, 0,    0,    NULL, 0,   0};
    size_t old_n = h->n, total = 0;
    const char *p = list;
    int rc = 0;

    if (*list == '\0') {
        rc = bfs_fail_at(e, BFS_EPARSE, file, line, "empty host list");
        goto out;
    }
    for (;;) {
        const char *at = p;
        if ((rc = parse_expr(&ps, &p)) != 0)
            goto fail;
        if ((rc = expand_expr(&ps, h, &total, at)) != 0)
            goto fail;
        if (*p == '\0')
            break;
        p++; /* the ',' */
        if (*p == '\0') {
            rc = perr(&ps, p, "empty host name");
            goto fail;
        }
    }
    goto out;
fail:
    while (h->n > old_n)
        xfree(h->names[--h->n]);
out:
    xfree(ps.ranges);
    xfree(ps.parts);
    return rc;
}

/* ---- order --------------------------------------------------------- */

int hostlist_name_cmp(const char *a, const char *b)
{
    int zeros = 0; /* first difference in zero padding, the last resort */

    while (*a && *b) {
        if (is_digit(*a) && is_digit(*b)) {
            const char *a0 = a, *b0 = b;
            size_t la = 0, lb = 0;
            int c;
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            while (is_digit(a[la]))
                la++;
            while (is_digit(b[lb]))
                lb++;
            if (la != lb)
                return la < lb ? -1 : 1;
            if ((c = memcmp(a, b, la)) != 0)
                return c < 0 ? -1 : 1;
            if (!zeros && a - a0 != b - b0)
                zeros = a - a0 < b - b0 ? -1 : 1;
            a += la;
            b += lb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return zeros;
}

static int cmp_names(const void *x, const void *y)
{
    return hostlist_name_cmp(*(char *const *)x, *(char *const *)y);
}

void hostlist_sort(struct hostlist *h)
{
    size_t k = 0;

    if (h->n == 0)
        return;
    qsort(h->names, h->n, sizeof *h->names, cmp_names);
    for (size_t i = 1; i < h->n; i++) {
        if (strcmp(h->names[i], h->names[k]) == 0)
            xfree(h->names[i]);
        else
            h->names[++k] = h->names[i];
    }
    h->n = k + 1;
}

/* ---- index --------------------------------------------------------- */

struct slot {
    char *name; /* owned; NULL: empty */
    size_t v;
};

struct hostlist_index {
    struct slot *slots;
    size_t cap; /* power of two */
    size_t n;
};

static uint64_t hash(const char *s)
{
    uint64_t x = 1469598103934665603ULL;

    for (; *s; s++) {
        x ^= (unsigned char)*s;
        x *= 1099511628211ULL;
    }
    return x;
}

struct hostlist_index *hostlist_index_new(void)
{
    struct hostlist_index *ix = xcalloc(1, sizeof *ix);

    ix->cap = 64;
    ix->slots = xcalloc(ix->cap, sizeof *ix->slots);
    return ix;
}

static size_t probe(const struct hostlist_index *ix, const char *name)
{
    size_t i = (size_t)hash(name) & (ix->cap - 1);

    while (ix->slots[i].name && strcmp(ix->slots[i].name, name) != 0)
        i = (i + 1) & (ix->cap - 1);
    return i;
}

static void grow_index(struct hostlist_index *ix)
{
    struct slot *old = ix->slots;
    size_t old_cap = ix->cap;

    ix->cap *= 2;
    ix->slots = xcalloc(ix->cap, sizeof *ix->slots);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].name)
            ix->slots[probe(ix, old[i].name)] = old[i];
    xfree(old);
}

int hostlist_index_add(struct hostlist_index *ix, const char *name, size_t v)
{
    size_t i;

    if (2 * (ix->n + 1) > ix->cap)
        grow_index(ix);
    i = probe(ix, name);
    if (ix->slots[i].name)
        return 0;
    ix->slots[i].name = xstrdup(name);
    ix->slots[i].v = v;
    ix->n++;
    return 1;
}

size_t hostlist_index_find(const struct hostlist_index *ix, const char *name)
{
    size_t i = probe(ix, name);

    return ix->slots[i].name ? ix->slots[i].v : (size_t)-1;
}

size_t hostlist_index_count(const struct hostlist_index *ix)
{
    return ix->n;
}

void hostlist_index_free(struct hostlist_index *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->cap; i++)
        xfree(ix->slots[i].name);
    xfree(ix->slots);
    xfree(ix);
}

/* ---- Batsim interval sets ------------------------------------------ */

struct id_range {
    uint32_t lo, hi;
};

static int range_cmp(const void *a, const void *b)
{
    const struct id_range *x = a, *y = b;

    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Reads the decimal number at *p (advanced past it) into *v; returns 0,
 * 1 when there is no digit, 2 when the number exceeds UINT32_MAX. */
static int id_number(const char **p, uint64_t *v)
{
    const char *s = *p;

    *v = 0;
    if (*s < '0' || *s > '9')
        return 1;
    while (*s >= '0' && *s <= '9') {
        *v = *v * 10 + (uint64_t)(*s - '0');
        if (*v > UINT32_MAX)
            return 2;
        s++;
    }
    *p = s;
    return 0;
}

int hostlist_ids_parse(const char *s, uint32_t limit, const char *limit_what,
                       uint32_t **ids, size_t *n, size_t *cap, const char *file,
                       size_t line, struct bfs_error *e)
{
    struct id_range *r = NULL;
    size_t nr = 0, rcap = 0, k = 0;
    const char *p = s, *at = s;
    const char *why = NULL;
    int code = BFS_EPARSE;

    while (*p) {
        uint64_t lo, hi;
        int rc;
        if (*p == ' ') {
            p++;
            continue;
        }
        at = p;
        if ((rc = id_number(&p, &lo)) != 0) {
            why = rc == 1 ? "expected a resource id" : "id too large";
            goto fail;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            at = p;
            if ((rc = id_number(&p, &hi)) != 0) {
                why = rc == 1 ? "expected the range's upper bound"
                              : "id too large";
                goto fail;
            }
            if (hi < lo) {
                why = "reversed range";
                goto fail;
            }
        }
        if (*p != '\0' && *p != ' ') {
            at = p;
            why = "expected a space between intervals";
            goto fail;
        }
        if (hi >= limit) {
            code = BFS_ERANGE;
            why = NULL;
            bfs_fail_at(e, code, file, line,
                        "interval set '%.80s%s': resource %" PRIu64
                        " at column %zu is beyond %s",
                        s, strlen(s) > 80 ? "..." : "", hi,
                        (size_t)(at - s) + 1, limit_what);
            xfree(r);
            return code;
        }
        BFS_GROW(r, rcap, nr + 1);
        r[nr].lo = (uint32_t)lo;
        r[nr].hi = (uint32_t)hi;
        nr++;
    }
    /* Merged, the ranges are disjoint and within limit: at most limit ids. */
    if (nr > 0)
        qsort(r, nr, sizeof *r, range_cmp);
    for (size_t i = 0; i < nr; i++) {
        uint32_t lo = r[i].lo;
        if (k > 0 && (*ids)[k - 1] >= lo) {
            if ((*ids)[k - 1] >= r[i].hi)
                continue;
            lo = (*ids)[k - 1] + 1;
        }
        BFS_GROW(*ids, *cap, k + (size_t)(r[i].hi - lo) + 1);
        for (uint64_t v = lo; v <= r[i].hi; v++)
            (*ids)[k++] = (uint32_t)v;
    }
    xfree(r);
    *n = k;
    return 0;

fail:
    xfree(r);
    return bfs_fail_at(e, code, file, line,
                       "interval set '%.80s%s': %s at column %zu", s,
                       strlen(s) > 80 ? "..." : "", why, (size_t)(at - s) + 1);
}

void hostlist_ids_write(FILE *f, const uint32_t *ids, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t r = i;
        while (r + 1 < n && ids[r + 1] == ids[r] + 1)
            r++;
        fprintf(f, "%s%" PRIu32, i ? " " : "", ids[i]);
        if (r > i)
            fprintf(f, "-%" PRIu32, ids[r]);
        i = r + 1;
    }
}
