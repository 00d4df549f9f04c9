/* h5tables.c - small tables as one HDF5 file (h5tables.h).
 *
 * Each table is packed into one buffer of 8-byte fields (int64, double,
 * or the char * of a variable-length string) and fixed-length strings of
 * their own widths, described by a compound type of the same layout, and
 * written with one H5Dwrite into a chunked dataset with shuffle and
 * deflate, without modification times (the same tables make the same
 * bytes).  The file is created at the temporary path of a BFS_OUT_PATH
 * output and renamed into place only when every table and attribute is
 * written and the file closed (by h5tables_write, or by the caller of
 * h5tables_write_out).  The versioned HDF5 names are used (Debian maps
 * the plain ones to 1.8).
 */
#include "config.h"

#include "formats/h5tables.h"

#include <string.h>

#include <hdf5.h>

#include "base/out.h"
#include "base/util.h"

#define H5TABLES_CHUNK 4096
#define H5TABLES_DEFLATE 4

/* A string attribute key = value at loc (the file, or a dataset). */
static int write_attr(hid_t loc, const char *key, const char *value,
                      hid_t str_t)
{
    hid_t sp = H5Screate(H5S_SCALAR), a = -1;
    int rc = -1;

    if (sp >= 0 &&
        (a = H5Acreate2(loc, key, str_t, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0 &&
        H5Awrite(a, str_t, &value) >= 0)
        rc = 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

/* The file type of column c of t: a copy, closed by the caller. */
static hid_t col_type(const struct h5tab *t, const struct h5tab_more *m,
                      size_t c, hid_t str_t)
{
    hid_t ft;

    if (t->cols[c].kind == H5COL_INT)
        return H5Tcopy(H5T_NATIVE_INT64);
    if (t->cols[c].kind == H5COL_REAL)
        return H5Tcopy(H5T_NATIVE_DOUBLE);
    if (t->cols[c].kind == H5COL_TEXT)
        return H5Tcopy(str_t);
    if ((ft = H5Tcopy(H5T_C_S1)) < 0)
        return ft;
    if (H5Tset_size(ft, m->width[c]) < 0 ||
        H5Tset_strpad(ft, H5T_STR_NULLPAD) < 0 ||
        H5Tset_cset(ft, H5T_CSET_UTF8) < 0) {
        H5Tclose(ft);
        return H5I_INVALID_HID;
    }
    return ft;
}

/* Writes one table (m: its additions, NULL for none); returns 0 or -1. */
static int write_tab(hid_t file, const struct h5tab *t,
                     const struct h5tab_more *m, hid_t str_t)
{
    size_t *off = xcalloc(t->n_cols + 1, sizeof *off), rec = 0;
    char *buf;
    hsize_t dims[1] = {t->n_rows}, maxd[1] = {H5S_UNLIMITED}, chunk[1];
    hid_t type = -1, sp = -1, dcpl = -1, d = -1;
    int rc = -1;

    /* 8 bytes a field (int64, double, or a variable-length string's
     * char *), a fixed-length string's own width */
    for (size_t c = 0; c < t->n_cols; c++) {
        off[c] = rec;
        rec += t->cols[c].kind == H5COL_FIXED ? m->width[c] : 8;
    }
    if (rec == 0)
        rec = 8;
    buf = xcalloc(t->n_rows + 1, rec);
    chunk[0] = t->n_rows < 1                ? 1
               : t->n_rows < H5TABLES_CHUNK ? t->n_rows
                                            : H5TABLES_CHUNK;
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            char *p = buf + r * rec + off[c];
            const struct h5col *col = &t->cols[c];
            if (col->kind == H5COL_INT)
                memcpy(p, (const int64_t *)col->data + r, 8);
            else if (col->kind == H5COL_REAL)
                memcpy(p, (const double *)col->data + r, 8);
            else {
                const char *s = ((const char *const *)col->data)[r];
                if (!s)
                    s = "";
                if (col->kind == H5COL_TEXT)
                    memcpy(p, &s, sizeof s);
                else /* NUL-padded: the buffer is zeroed */
                    memcpy(p, s, strnlen(s, m->width[c]));
            }
        }
    if ((type = H5Tcreate(H5T_COMPOUND, rec)) < 0)
        goto out;
    for (size_t c = 0; c < t->n_cols; c++) {
        hid_t ft = col_type(t, m, c, str_t);
        int bad = ft < 0 || H5Tinsert(type, t->cols[c].name, off[c], ft) < 0;
        if (ft >= 0)
            H5Tclose(ft);
        if (bad)
            goto out;
    }
    /* no modification times: the same tables make the same file */
    if ((sp = H5Screate_simple(1, dims, maxd)) < 0 ||
        (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_chunk(dcpl, 1, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
        H5Pset_deflate(dcpl, H5TABLES_DEFLATE) < 0 ||
        H5Pset_obj_track_times(dcpl, 0) < 0 ||
        (d = H5Dcreate2(file, t->name, type, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT)) < 0)
        goto out;
    if (t->n_rows > 0 &&
        H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        goto out;
    for (size_t k = 0; m && k < m->n_attrs; k++)
        if (write_attr(d, m->attrs[2 * k], m->attrs[2 * k + 1], str_t) != 0)
            goto out;
    rc = 0;
out:
    if (d >= 0 && H5Dclose(d) < 0)
        rc = -1;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    if (type >= 0)
        H5Tclose(type);
    xfree(buf);
    xfree(off);
    return rc;
}

int h5tables_write(const char *path, const struct h5tab *tabs, size_t n_tabs,
                   const char *const *attrs, size_t n_attrs,
                   struct bfs_error *e)
{
    struct bfs_out out;
    int rc =
        h5tables_write_out(&out, path, tabs, NULL, n_tabs, attrs, n_attrs, e);

    if (rc == 0 && (rc = bfs_out_commit(&out, e)) != 0)
        bfs_out_abort(&out);
    return rc;
}

int h5tables_write_out(struct bfs_out *out, const char *path,
                       const struct h5tab *tabs, const struct h5tab_more *more,
                       size_t n_tabs, const char *const *attrs, size_t n_attrs,
                       struct bfs_error *e)
{
    hid_t file = -1, str_t = -1, fapl = -1;
    int ok = 0, rc = bfs_out_open_mode(out, path, BFS_OUT_PATH, e);
    const char *what = "cannot create";

    if (rc)
        return rc;
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    /* closing the file closes whatever a failure left open in it */
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (file = H5Fcreate(out->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0 ||
        (str_t = H5Tcopy(H5T_C_S1)) < 0 ||
        H5Tset_size(str_t, H5T_VARIABLE) < 0 ||
        H5Tset_cset(str_t, H5T_CSET_UTF8) < 0)
        goto out;
    what = "cannot write a table";
    for (size_t k = 0; k < n_tabs; k++)
        if (write_tab(file, &tabs[k], more ? &more[k] : NULL, str_t) != 0)
            goto out;
    what = "cannot write an attribute";
    for (size_t k = 0; k < n_attrs; k++)
        if (write_attr(file, attrs[2 * k], attrs[2 * k + 1], str_t) != 0)
            goto out;
    what = "cannot close";
    ok = 1;
out:
    /* the file last, its close checked: it writes what is left */
    if (str_t >= 0)
        H5Tclose(str_t);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file >= 0 && H5Fclose(file) < 0)
        ok = 0;
    if (ok)
        return 0;
    bfs_out_abort(out);
    return bfs_fail(e, BFS_EIO, "%s: %s (HDF5)", path, what);
}
