/* nodetypes.c - node-type mapping files (see nodetypes.h).
 *
 * One pass over the file.  Each line's host list is expanded (hostlist.c)
 * and every host looked up in a hash index of the hosts seen so far,
 * whose value is the host's number; per host the file keeps its type's
 * number and the line that gave it, so that a conflict names both lines.
 * Type names are interned the same way (a second index), so memory is
 * O(hosts + types) and a host costs one hash lookup.
 *
 * nodetypes_new and nodetypes_add build a mapping from another source
 * (a log's partitions) with the same checks.
 *
 * The form is fixed by the first line that is not blank or a comment
 * (four fields: sinfo; two: HOSTLIST TYPE); every later line must have
 * the same shape.  The sinfo type fields are cleaned in place: the
 * partition loses a trailing '*', a GRES loses its "(...)" groups, and
 * "(null)" becomes "none".
 *
 * Invariants: host[h].type < n_types and host[h].line >= 1 for every host
 * number h < n_hosts; type_names[t] is the name with value t in types.
 */
#include "config.h"

#include "formats/nodetypes.h"
#include "formats/hostlist.h"
#include "formats/trace.h"
#include "base/util.h"

#include <string.h>

enum { FORM_NONE, FORM_SINFO, FORM_HOSTLIST };

/* The type a sinfo field "(null)" gives. */
#define NO_VALUE_TYPE "none"

/* What the file says of one node. */
struct host {
    uint32_t type; /* its number */
    size_t line;   /* the line that gave it */
};

struct nodetypes {
    char *path; /* owned */
    int form;
    enum nodetypes_rule rule;
    struct hostlist_index *hosts; /* owned: name -> host number */
    struct host *host;            /* owned, n_hosts */
    size_t n_hosts, cap_hosts;
    struct hostlist_index *types; /* owned: type name -> number */
    char **type_names;            /* owned, n_types strings */
    size_t n_types, cap_types;
};

static const char *const rule_names[] = {"default", "partition", "features",
                                         "gres"};

int nodetypes_rule_parse(const char *s, enum nodetypes_rule *out,
                         struct bfs_error *e)
{
    for (int r = NODETYPES_RULE_PARTITION; r <= NODETYPES_RULE_GRES; r++)
        if (strcmp(s, rule_names[r]) == 0) {
            *out = (enum nodetypes_rule)r;
            return 0;
        }
    return bfs_fail(e, BFS_EUSAGE,
                    "'%s' is not a type rule (partition, features or gres)", s);
}

const char *nodetypes_rule_name(enum nodetypes_rule r)
{
    return rule_names[r];
}

/* Cleans a sinfo field in place into the type it gives (see the top). */
static const char *sinfo_type(char *f, enum nodetypes_rule rule)
{
    size_t n = strlen(f);

    if (strcmp(f, "(null)") == 0)
        return NO_VALUE_TYPE;
    if (rule == NODETYPES_RULE_PARTITION) {
        if (n > 0 && f[n - 1] == '*')
            f[n - 1] = '\0';
    } else if (rule == NODETYPES_RULE_GRES) {
        char *w = f;
        int depth = 0;
        for (const char *r = f; *r; r++) {
            if (*r == '(')
                depth++;
            else if (*r == ')' && depth > 0)
                depth--;
            else if (depth == 0)
                *w++ = *r;
        }
        *w = '\0';
    }
    return f;
}

/* The number of type name, interned. */
static uint32_t intern_type(struct nodetypes *m, const char *name)
{
    size_t t = hostlist_index_find(m->types, name);

    if (t == (size_t)-1) {
        t = m->n_types++;
        BFS_GROW(m->type_names, m->cap_types, m->n_types);
        m->type_names[t] = xstrdup(name);
        hostlist_index_add(m->types, name, t);
    }
    return (uint32_t)t;
}

int nodetypes_add(struct nodetypes *m, const char *name, const char *type,
                  size_t line, struct bfs_error *e)
{
    size_t h;
    uint32_t t;

    if (!trace_name_ok(type))
        return bfs_fail_at(e, BFS_EPARSE, m->path, line,
                           "bad type '%.40s' (empty, or a blank or control "
                           "character)",
                           type);
    h = hostlist_index_find(m->hosts, name);
    if (h != (size_t)-1) {
        if (strcmp(m->type_names[m->host[h].type], type) != 0)
            return bfs_fail_at(e, BFS_EPARSE, m->path, line,
                               "node '%s' has type '%s' here but '%s' on "
                               "line %zu",
                               name, type, m->type_names[m->host[h].type],
                               m->host[h].line);
        return 0;
    }
    if (m->n_hosts >= NODETYPES_MAX_HOSTS)
        return bfs_fail_at(e, BFS_ERANGE, m->path, line,
                           "more than %zu nodes in all", NODETYPES_MAX_HOSTS);
    t = intern_type(m, type);
    h = m->n_hosts++;
    BFS_GROW(m->host, m->cap_hosts, m->n_hosts);
    m->host[h].type = t;
    m->host[h].line = line;
    hostlist_index_add(m->hosts, name, h);
    return 0;
}

/* Gives every host of list the type. */
static int add_hosts(struct nodetypes *m, struct hostlist *scratch,
                     const char *list, const char *type, size_t line,
                     struct bfs_error *e)
{
    int rc;

    hostlist_clear(scratch);
    rc = hostlist_expand(scratch, list, NODETYPES_MAX_HOSTS,
                         "of a node-type file", m->path, line, e);
    for (size_t k = 0; k < scratch->n && rc == 0; k++)
        rc = nodetypes_add(m, scratch->names[k], type, line, e);
    return rc;
}

/* Whether f[0..3] are sinfo's column headers for '%N %P %f %G'. */
static int sinfo_header(char *const *f)
{
    return strcmp(f[0], "NODELIST") == 0 && strcmp(f[1], "PARTITION") == 0 &&
           strcmp(f[2], "AVAIL_FEATURES") == 0 && strcmp(f[3], "GRES") == 0;
}

/* One line that is not blank or a comment. */
static int take_line(struct nodetypes *m, struct hostlist *scratch, char *line,
                     size_t lineno, struct bfs_error *e)
{
    char *f[5];
    const char *type;
    size_t nf = bfs_split_ws(line, f, 5);
    int first = m->form == FORM_NONE;

    if (first) {
        if (nf == 4)
            m->form = FORM_SINFO;
        else if (nf == 2)
            m->form = FORM_HOSTLIST;
        else
            return bfs_fail_at(e, BFS_EPARSE, m->path, lineno,
                               "%zu fields: expected 'HOSTLIST TYPE' or "
                               "sinfo's 'NODE PARTITION FEATURES GRES' "
                               "(sinfo -N -h -o '%%N %%P %%f %%G')",
                               nf);
        if (m->form == FORM_HOSTLIST && m->rule != NODETYPES_RULE_DEFAULT)
            return bfs_fail_at(e, BFS_EINVAL, m->path, lineno,
                               "the type rule '%s' is for sinfo output, but "
                               "the file is in the 'HOSTLIST TYPE' form",
                               rule_names[m->rule]);
        if (m->form == FORM_SINFO && m->rule == NODETYPES_RULE_DEFAULT)
            m->rule = NODETYPES_RULE_GRES;
    }
    if (m->form == FORM_HOSTLIST) {
        if (nf == 1)
            return bfs_fail_at(e, BFS_EPARSE, m->path, lineno,
                               "empty type: '%.60s' has no type after it",
                               f[0]);
        if (nf != 2)
            return bfs_fail_at(e, BFS_EPARSE, m->path, lineno,
                               "%zu fields: expected 'HOSTLIST TYPE', as on "
                               "the lines before",
                               nf);
        return add_hosts(m, scratch, f[0], f[1], lineno, e);
    }
    if (nf != 4)
        return bfs_fail_at(e, BFS_EPARSE, m->path, lineno,
                           "%zu fields: expected sinfo's 'NODE PARTITION "
                           "FEATURES GRES', as on the lines before",
                           nf);
    if (first && sinfo_header(f))
        return 0;
    type = sinfo_type(f[m->rule == NODETYPES_RULE_PARTITION  ? 1
                        : m->rule == NODETYPES_RULE_FEATURES ? 2
                                                             : 3],
                      m->rule);
    if (*type == '\0')
        return bfs_fail_at(e, BFS_EPARSE, m->path, lineno,
                           "empty type: the %s field of node '%.60s' is "
                           "empty once cleaned",
                           rule_names[m->rule], f[0]);
    return add_hosts(m, scratch, f[0], type, lineno, e);
}

struct nodetypes *nodetypes_new(const char *path)
{
    struct nodetypes *m = xcalloc(1, sizeof *m);

    m->path = xstrdup(path);
    m->hosts = hostlist_index_new();
    m->types = hostlist_index_new();
    return m;
}

int nodetypes_load(const char *path, enum nodetypes_rule rule,
                   struct nodetypes **out, struct bfs_error *e)
{
    struct nodetypes *m = nodetypes_new(path);
    struct bfs_lines *in = NULL;
    struct hostlist scratch;
    char *line;
    int rc;

    hostlist_init(&scratch);
    m->rule = rule;
    if ((rc = bfs_lines_open(path, &in, e)) != 0)
        goto fail;
    while ((rc = bfs_lines_next(in, &line, e)) == 1) {
        const char *p = line + strspn(line, " \t");
        if (*p == '\0' || *p == '#')
            continue;
        if ((rc = take_line(m, &scratch, line, bfs_lines_lineno(in), e)) != 0)
            goto fail;
    }
    if (rc < 0)
        goto fail;
    if (m->n_hosts == 0) {
        rc = bfs_fail_at(e, BFS_EPARSE, path, 0, "no node in the file");
        goto fail;
    }
    bfs_lines_close(in);
    hostlist_release(&scratch);
    *out = m;
    return 0;

fail:
    bfs_lines_close(in);
    hostlist_release(&scratch);
    nodetypes_free(m);
    return rc;
}

const char *nodetypes_path(const struct nodetypes *m)
{
    return m->path;
}

const char *nodetypes_form(const struct nodetypes *m)
{
    return m->form == FORM_SINFO      ? "sinfo"
           : m->form == FORM_HOSTLIST ? "hostlist"
                                      : "built";
}

enum nodetypes_rule nodetypes_rule(const struct nodetypes *m)
{
    return m->rule;
}

size_t nodetypes_hosts(const struct nodetypes *m)
{
    return m->n_hosts;
}

const char *nodetypes_find(const struct nodetypes *m, const char *name)
{
    size_t h = hostlist_index_find(m->hosts, name);

    return h == (size_t)-1 ? NULL : m->type_names[m->host[h].type];
}

int nodetypes_apply(const struct nodetypes *m, const char *const *names,
                    size_t n, struct nodetypes_table *out, struct bfs_error *e)
{
    struct nodetypes_table t;
    uint32_t *number = xmalloc((m->n_types ? m->n_types : 1) * sizeof *number);
    size_t cap = 0;

    memset(&t, 0, sizeof t);
    /* number[file type] = table type + 1, 0: not seen yet. */
    memset(number, 0, (m->n_types ? m->n_types : 1) * sizeof *number);
    t.n_nodes = n;
    t.type = xmalloc((n ? n : 1) * sizeof *t.type);
    t.per_node = xmalloc((n ? n : 1) * sizeof *t.per_node);
    for (size_t i = 0; i < n; i++) {
        size_t h = hostlist_index_find(m->hosts, names[i]);
        uint32_t ft;
        if (h == (size_t)-1) {
            int rc = bfs_fail_at(e, BFS_ENOTFOUND, m->path, 0,
                                 "node '%s' (node %zu of %zu) is not in the "
                                 "mapping",
                                 names[i], i, n);
            xfree(number);
            nodetypes_table_release(&t);
            return rc;
        }
        ft = m->host[h].type;
        if (number[ft] == 0) {
            BFS_GROW(t.names, cap, t.n_types + 1);
            t.names[t.n_types] = xstrdup(m->type_names[ft]);
            number[ft] = (uint32_t)++t.n_types;
        }
        t.type[i] = number[ft] - 1;
        t.per_node[i] = t.names[t.type[i]];
    }
    t.unused = m->n_hosts > n ? m->n_hosts - n : 0;
    xfree(number);
    *out = t;
    return 0;
}

void nodetypes_table_release(struct nodetypes_table *t)
{
    xfree_strv(t->names, t->n_types);
    xfree(t->type);
    xfree(t->per_node);
    memset(t, 0, sizeof *t);
}

void nodetypes_free(struct nodetypes *m)
{
    if (!m)
        return;
    xfree_strv(m->type_names, m->n_types);
    hostlist_index_free(m->types);
    xfree(m->host);
    hostlist_index_free(m->hosts);
    xfree(m->path);
    xfree(m);
}
