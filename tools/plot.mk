# plot.mk: tools/bfsim-plot, figures of a replay's HDF5 file and of a
# sweep's results table (Python 3 with matplotlib and h5py), its test,
# and the target remaking the node-type figures of tools/doc/figures/.
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

# The figures of node types in tools/doc/figures/ (the bundled
# summit-2021-02-2types trace with the hetero-10J jobs, default options):
# `make figures-types` remakes them in the source tree, with these
# commands (from the build directory):
#   types-gantt.png   the Gantt chart of 40 nodes (positions 100 to 139
#                     of the trace: V100 and A100) replayed until
#                     2021-02-11 00:00:00 UTC, grouped by type;
#   types-harvest.png idle and used nodes by type over the whole replay,
#                     type-aware (solid) against --types-aware no (dashed).
BFS_TYPES_RUN = ./bfsim$(EXEEXT) replay -q \
	--trace $(srcdir)/traces/summit-2021-02-2types.trace.gz \
	--jobs $(srcdir)/datasets/hetero-10J.jobs --summary /dev/null
EXTRA_DIST += tools/doc/figures/types-gantt.png tools/doc/figures/types-harvest.png
figures-types: bfsim$(EXEEXT) bfsim-plot
	rm -rf figures-types.tmp && mkdir figures-types.tmp
	$(BFS_TYPES_RUN) --nodes 100:40 --end '2021-02-11 00:00:00' \
	  -o figures-types.tmp/gantt.h5
	./bfsim-plot gantt figures-types.tmp/gantt.h5 \
	  -o $(srcdir)/tools/doc/figures/types-gantt.png
	$(BFS_TYPES_RUN) -o figures-types.tmp/aware.h5
	$(BFS_TYPES_RUN) --types-aware no -o figures-types.tmp/unaware.h5
	./bfsim-plot types figures-types.tmp/aware.h5 \
	  figures-types.tmp/unaware.h5 \
	  -o $(srcdir)/tools/doc/figures/types-harvest.png
	rm -rf figures-types.tmp
clean-local: clean-figures-types
clean-figures-types:
	rm -rf figures-types.tmp
.PHONY: figures-types clean-figures-types
