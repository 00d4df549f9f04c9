/* testh5.h - reading what bfsim writes to HDF5 in the Check tests: an
 * integer attribute, a table's length, and a replay's file as a whole.
 * Header-only, like testutil.h; the HDF5 library's own calls. */
#ifndef BFS_TESTH5_H
#define BFS_TESTH5_H

#include <check.h>
#include <hdf5.h>
#include <stdint.h>

/* An integer attribute of an HDF5 object (the test fails if absent). */
static inline int64_t tu_h5_int_attr(hid_t loc, const char *key)
{
    hid_t a = H5Aopen(loc, key, H5P_DEFAULT);
    int64_t v = -1;

    ck_assert_msg(a >= 0, "no attribute %s", key);
    ck_assert_int_ge(H5Aread(a, H5T_NATIVE_INT64, &v), 0);
    H5Aclose(a);
    return v;
}

/* The number of rows of the one-dimensional table name in file f. */
static inline hsize_t tu_h5_rows(hid_t f, const char *name)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT), sp;
    hsize_t dims[1] = {0};

    ck_assert_msg(d >= 0, "no table %s", name);
    sp = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_ndims(sp), 1);
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    H5Dclose(d);
    return dims[0];
}

/* A replay's HDF5 file at path: marked partial (or not), /events with one
 * row per event, /summary's events the same.  Returns the open file (the
 * caller closes it with H5Fclose). */
static inline hid_t tu_h5_check_run(const char *path, int partial,
                                    size_t events)
{
    hid_t f, g;

    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(f >= 0, "cannot open %s", path);
    ck_assert_int_eq(tu_h5_int_attr(f, "partial"), partial);
    ck_assert_uint_eq(tu_h5_rows(f, "/events"), events);
    g = H5Gopen2(f, "/summary", H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(tu_h5_int_attr(g, "events"), (int64_t)events);
    H5Gclose(g);
    return f;
}

#endif
