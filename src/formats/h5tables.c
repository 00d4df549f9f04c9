/* h5tables.c - small tables as one HDF5 file (h5tables.h).
 *
 * Each table is packed into one buffer of 8-byte fields (int64, double,
 * or the char * of a variable-length string), described by a compound
 * type of the same layout, and written with one H5Dwrite into a chunked
 * dataset with shuffle and deflate.  The file is created at the
 * temporary path of a BFS_OUT_PATH output and renamed into place only
 * when every table and attribute is written and the file closed.  The
 * versioned HDF5 names are used (Debian maps the plain ones to 1.8).
 */
#include "config.h"

#include "formats/h5tables.h"

#include <string.h>

#include <hdf5.h>

#include "base/out.h"
#include "base/util.h"

#define H5TABLES_CHUNK 4096
#define H5TABLES_DEFLATE 4

static hid_t col_type(int kind, hid_t str_t)
{
    if (kind == H5COL_INT)
        return H5T_NATIVE_INT64;
    if (kind == H5COL_REAL)
        return H5T_NATIVE_DOUBLE;
    return str_t;
}

/* Writes one table; returns 0 or -1. */
static int write_tab(hid_t file, const struct h5tab *t, hid_t str_t)
{
    size_t rec = 8 * (t->n_cols ? t->n_cols : 1);
    char *buf = xcalloc(t->n_rows + 1, rec);
    hsize_t dims[1] = {t->n_rows}, maxd[1] = {H5S_UNLIMITED}, chunk[1];
    hid_t type = -1, sp = -1, dcpl = -1, d = -1;
    int rc = -1;

    chunk[0] = t->n_rows < 1                ? 1
               : t->n_rows < H5TABLES_CHUNK ? t->n_rows
                                            : H5TABLES_CHUNK;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            char *p = buf + r * rec + 8 * c;
            const struct h5col *col = &t->cols[c];
            if (col->kind == H5COL_INT)
                memcpy(p, (const int64_t *)col->data + r, 8);
            else if (col->kind == H5COL_REAL)
                memcpy(p, (const double *)col->data + r, 8);
            else {
                const char *s = ((const char *const *)col->data)[r];
                if (!s)
                    s = "";
                memcpy(p, &s, sizeof s);
            }
        }
    if ((type = H5Tcreate(H5T_COMPOUND, rec)) < 0)
        goto out;
    for (size_t c = 0; c < t->n_cols; c++)
        if (H5Tinsert(type, t->cols[c].name, 8 * c,
                      col_type(t->cols[c].kind, str_t)) < 0)
            goto out;
    if ((sp = H5Screate_simple(1, dims, maxd)) < 0 ||
        (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(dcpl, 1, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
        H5Pset_deflate(dcpl, H5TABLES_DEFLATE) < 0 ||
        (d = H5Dcreate2(file, t->name, type, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT)) < 0)
        goto out;
    if (t->n_rows > 0 &&
        H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        goto out;
    rc = 0;
out:
    if (d >= 0)
        H5Dclose(d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    if (type >= 0)
        H5Tclose(type);
    xfree(buf);
    return rc;
}

static int write_attr(hid_t file, const char *key, const char *value,
                      hid_t str_t)
{
    hid_t sp = H5Screate(H5S_SCALAR), a = -1;
    int rc = -1;

    if (sp >= 0 &&
        (a = H5Acreate2(file, key, str_t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
        H5Awrite(a, str_t, &value) >= 0)
        rc = 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

int h5tables_write(const char *path, const struct h5tab *tabs, size_t n_tabs,
                   const char *const *attrs, size_t n_attrs,
                   struct bfs_error *e)
{
    struct bfs_out out;
    hid_t file = -1, str_t = -1;
    int rc = bfs_out_open_mode(&out, path, BFS_OUT_PATH, e);
    const char *what = "cannot create";

    if (rc)
        return rc;
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if ((file = H5Fcreate(out.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) <
            0 ||
        (str_t = H5Tcopy(H5T_C_S1)) < 0 ||
        H5Tset_size(str_t, H5T_VARIABLE) < 0 ||
        H5Tset_cset(str_t, H5T_CSET_UTF8) < 0)
        goto fail;
    what = "cannot write a table";
    for (size_t k = 0; k < n_tabs; k++)
        if (write_tab(file, &tabs[k], str_t) != 0)
            goto fail;
    what = "cannot write an attribute";
    for (size_t k = 0; k < n_attrs; k++)
        if (write_attr(file, attrs[2 * k], attrs[2 * k + 1], str_t) != 0)
            goto fail;
    H5Tclose(str_t);
    str_t = -1;
    what = "cannot close";
    if (H5Fclose(file) < 0) {
        file = -1;
        goto fail;
    }
    file = -1;
    rc = bfs_out_commit(&out, e);
    if (rc)
        bfs_out_abort(&out);
    return rc;
fail:
    if (str_t >= 0)
        H5Tclose(str_t);
    if (file >= 0)
        H5Fclose(file);
    bfs_out_abort(&out);
    return bfs_fail(e, BFS_EIO, "%s: %s (HDF5)", path, what);
}
