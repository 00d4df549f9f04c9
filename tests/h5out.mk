# src/h5out.c (the HDF5 sink of a replay), its tests and the Python
# example that reads its files (run by the test when h5py and pandas are
# importable).
libbfsim_a_SOURCES += src/h5out.c src/h5out.h
dist_noinst_SCRIPTS += tools/h5read-example.py

check_PROGRAMS += tests/check_h5out
tests_check_h5out_SOURCES = tests/check_h5out.c tests/testutil.h
tests_check_h5out_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_h5out_LDADD = $(BFS_TEST_LIBS)
