/* table.c - a sweep's results table, OUT/results.csv and
 * OUT/results.h5 (sweep_write_table, sweep.h).
 *
 * The results table is rebuilt from the run directories each time and
 * written atomically (temporary file, then rename), so concurrent shards
 * can each write it: the last writer's table is complete as of its
 * reading, and `--merge` afterwards sees every shard's runs.
 *
 * A row is a complete run: its id, its value of each key, then every
 * leaf of its summary.json, a column each, nested names joined with
 * '.'; the columns are the union over the rows, in order of first
 * appearance.
 */
#include "config.h"

#include "sweep/sweep.h"

#include <hdf5.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/out.h"
#include "base/util.h"
#include "engine/measures.h"
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

    buf_add(&prefix, "", 0);
    flatten(summary, &prefix, &lv);
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
