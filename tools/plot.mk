# plot.mk: tools/bfsim-plot, figures of a replay's HDF5 file and of a
# sweep's results table (Python 3 with matplotlib and h5py), and its test.
# The installed bfsim-plot is built from tools/bfsim-plot with its first
# line rewritten to the Python configure found (BFS_SHEBANG, tools/local.mk).
bin_SCRIPTS = bfsim-plot
EXTRA_DIST += tools/bfsim-plot
CLEANFILES += bfsim-plot
bfsim-plot: $(srcdir)/tools/bfsim-plot Makefile
	$(BFS_SHEBANG)

# tests/plot.test is a shell script printing TAP, like the Check programs.
BFS_SCRIPT_TESTS += tests/plot.test
EXTRA_DIST += tests/plot.test
