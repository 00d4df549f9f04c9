/* summary.c - the JSON form of a run's summary (summary.h).
 *
 * The object's keys follow the list's order; a group's members go into
 * one nested object created where the group's first member stands, so a
 * list in table order gives a file in table order.  Reals keep 17
 * significant digits, so a reader gets back the very double.
 */
#include "config.h"

#include "formats/summary.h"

#include "base/util.h"

#include <stdio.h>
#include <string.h>

char *summary_name(const struct summary_value *v, char *buf, size_t len)
{
    if (v->group)
        snprintf(buf, len, "%s.%s", v->group, v->key);
    else
        snprintf(buf, len, "%s", v->key);
    return buf;
}

static json_t *value_json(const struct summary_value *v)
{
    char t[BFS_TIME_LEN];

    switch (v->type) {
    case SUMMARY_INT:
        return json_integer((json_int_t)v->v.i);
    case SUMMARY_REAL:
        return json_real(v->v.d);
    case SUMMARY_TIME:
        return json_string(bfs_time_format(v->v.i, t));
    case SUMMARY_BOOL:
        return json_boolean(v->v.i);
    case SUMMARY_TEXT:
        return json_string(v->v.s ? v->v.s : "");
    }
    return json_null();
}

json_t *summary_json(const struct summary_value *v, size_t n)
{
    json_t *root = json_object();

    for (size_t i = 0; i < n; i++) {
        json_t *obj = root;
        if (v[i].group) {
            obj = json_object_get(root, v[i].group);
            if (!json_is_object(obj)) {
                obj = json_object();
                json_object_set_new(root, v[i].group, obj);
            }
        }
        json_object_set_new(obj, v[i].key, value_json(&v[i]));
    }
    return root;
}

int summary_write_json(FILE *f, const char *name, const struct summary_value *v,
                       size_t n, struct bfs_error *e)
{
    json_t *root = summary_json(v, n);
    int rc = 0;

    if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
        fputc('\n', f) == EOF)
        rc = bfs_fail(e, BFS_EIO, "%s: write error", name);
    json_decref(root);
    return rc;
}
