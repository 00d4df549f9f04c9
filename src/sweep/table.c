/* table.c - a sweep's results table, OUT/results.csv and
 * OUT/results.h5 (sweep_write_table, sweep.h).
 *
 * The results table is rebuilt from the run directories each time and
 * written atomically (temporary file, then rename), so concurrent shards
 * can each write it: the last writer's table is complete as of its
 * reading, and `--merge` afterwards sees every shard's runs.  The HDF5
 * table is written through formats/h5tables.h, fixed-length strings and
 * doubles in one compound dataset /results.
 *
 * A row is a complete run: its id, its value of each key, then every
 * leaf of its summary.json, a column each, nested names joined with
 * '.'; the columns are the union over the rows, in order of first
 * appearance.
 */
#include "config.h"

#include "sweep/sweep.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"
#include "engine/measures.h"
#include "formats/h5tables.h"
#include "sweep/sweep_impl.h"

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

    if (strcmp(n, "id") != 0 && find_key(s, n) == (size_t)-1)
        return xstrdup(n);
    return xasprintf("summary.%s", n);
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

/* Writes the HDF5 table to the temporary file of out (opened here,
 * BFS_OUT_PATH), to be committed by the caller; aborted on failure. */
static int write_h5(const struct sweep *s, const struct table *t,
                    const char *path, struct bfs_out *out, struct bfs_error *e)
{
    size_t nf = 1 + s->n_keys + t->n_cols, rows = t->n_rows + 1;
    struct h5col *cols = xcalloc(nf, sizeof *cols);
    size_t *width = xcalloc(nf, sizeof *width);
    const char **text = xcalloc(nf * rows, sizeof *text);
    double *num = xcalloc(t->n_cols * rows + 1, sizeof *num);
    char **names = xcalloc(nf, sizeof *names);
    char *columns = results_columns();
    const char *const dattrs[] = {"columns", columns};
    const char *const fattrs[] = {"format", "bfsim sweep results 1"};
    const struct h5tab tab = {"results", t->n_rows, cols, nf};
    const struct h5tab_more more = {width, dattrs, 1};
    int rc;

    /* Fields: the id in 16 bytes, options and string measures as long
     * as their longest text, other measures doubles (NaN: absent). */
    cols[0] = (struct h5col){"id", H5COL_FIXED, text};
    width[0] = 16;
    for (size_t row = 0; row < t->n_rows; row++)
        text[row] = s->runs[t->runs[row]].hex;
    for (size_t k = 0; k < s->n_keys; k++) {
        const char **col = text + (1 + k) * rows;
        width[1 + k] = 1;
        for (size_t row = 0; row < t->n_rows; row++) {
            col[row] = run_value(s, t->runs[row], k)->text;
            if (strlen(col[row]) > width[1 + k])
                width[1 + k] = strlen(col[row]);
        }
        cols[1 + k] = (struct h5col){s->keys[k].name, H5COL_FIXED, col};
    }
    for (size_t c = 0; c < t->n_cols; c++) {
        size_t i = 1 + s->n_keys + c;
        names[i] = measure_name(s, t, c);
        if (t->cols[c].is_str) {
            const char **col = text + i * rows;
            width[i] = t->cols[c].maxlen ? t->cols[c].maxlen : 1;
            for (size_t row = 0; row < t->n_rows; row++) {
                const struct cell *cell = table_cell(t, row, c);
                col[row] = cell ? cell->text : NULL;
            }
            cols[i] = (struct h5col){names[i], H5COL_FIXED, col};
        } else {
            double *col = num + c * rows;
            for (size_t row = 0; row < t->n_rows; row++) {
                const struct cell *cell = table_cell(t, row, c);
                col[row] = cell ? cell->d : nan("");
            }
            cols[i] = (struct h5col){names[i], H5COL_REAL, col};
        }
    }
    rc = h5tables_write_out(out, path, &tab, &more, 1, fattrs, 1, e);
    xfree_strv(names, nf);
    xfree(columns);
    xfree(num);
    xfree(text);
    xfree(width);
    xfree(cols);
    return rc;
}

int sweep_write_table(const struct sweep *s, const char *outdir, size_t *rows,
                      struct bfs_error *e)
{
    struct table t = {0};
    struct bfs_out csv, h5;
    char *csv_path = xasprintf("%s/results.csv", outdir);
    char *h5_path = xasprintf("%s/results.h5", outdir);
    int rc;

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
