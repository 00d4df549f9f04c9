# plot.mk: tools/bfsim-plot, figures of a replay's HDF5 file and of a
# sweep's results table (Python 3 with matplotlib and h5py), and its test.
dist_bin_SCRIPTS += tools/bfsim-plot

# tests/plot.test is a shell script printing TAP, like the Check programs.
BFS_SCRIPT_TESTS += tests/plot.test
EXTRA_DIST += tests/plot.test
