# tools: files added by this area.
include $(srcdir)/tools/bench.mk
include $(srcdir)/tools/bench-solvers.mk
include $(srcdir)/tools/plot.mk
# The example sweep (tools/doc/studies-2026-11-24.md) and what it produced.
EXTRA_DIST += tools/sweep-objectives.json tools/doc/figures/objectives-tfwd.csv \
	tools/doc/figures/objectives-tfwd.png \
	tools/doc/figures/replay-prop-fair-tfwd100-pool.png \
	tools/doc/figures/replay-prop-fair-tfwd100-jobs.png
# The belief sweep (bfsim(1), BELIEFS; its results in
# tools/doc/measurements-2026-11-27.md): its
# configuration, scripts and what it produced.
EXTRA_DIST += tools/sweep-belief.json tools/belief-sweep tools/perturb-jobs \
	tools/belief-plot tools/doc/figures/belief-regret.png \
	tools/doc/figures/belief-regret.csv tests/perturb.test
# Pooled learning and exploration from uncertainty
# (tools/doc/belief-pool-2026-11-27.md).
EXTRA_DIST += tools/belief-pool-study tools/doc/belief-pool-2026-11-27.md
BFS_SCRIPT_TESTS += tests/perturb.test
# The example sweep over tie-break and node-pick rules (its configurations
# are installed below): its plotting script and what they produced.
EXTRA_DIST += tools/spread-plot tools/doc/figures/tiebreak-spread.csv \
	tools/doc/figures/tiebreak-spread.png tests/spread.test
BFS_SCRIPT_TESTS += tests/spread.test

# Studies and benchmark results moved out of the README, dated.
EXTRA_DIST += tools/doc/studies-2026-11-24.md tools/doc/bench-2026-11-24.md \
	tools/doc/measurements-2026-11-27.md
# The list of measures in bfsim(1), made from `bfsim --measures`
# (tests/check_measures checks it): `make man-measures` after a change of
# the table of measures.
dist_noinst_SCRIPTS += tools/man-measures
man-measures: bfsim$(EXEEXT)
	$(PYTHON3) $(srcdir)/tools/man-measures --bfsim ./bfsim$(EXEEXT) \
		$(srcdir)/src/cli/bfsim.1
.PHONY: man-measures
# The solver study (bfsim(1), ALLOCATION): its command, its report and the
# performance profiles of its main run.
dist_noinst_SCRIPTS += tools/solver-study
EXTRA_DIST += tools/doc/solver-study-2026-11-27.md \
	tools/doc/figures/solver-profile-time.png \
	tools/doc/figures/solver-profile-time.csv \
	tools/doc/figures/solver-profile-nodes.png \
	tools/doc/figures/solver-profile-nodes.csv

# The MILP with 10,000 jobs at once, per job and aggregated over classes
# of alike jobs: its command and dated report.
dist_noinst_SCRIPTS += tools/milp-scale
EXTRA_DIST += tools/doc/milp-scale-2026-11-27.md

# Node types (bfsim(1), NODE TYPES): the study of type-awareness and of
# the allocator's cost as types are added (its command, report script,
# dated results and figure), and the side-by-side benchmark of one type
# against two (`make bench-types`).
dist_noinst_SCRIPTS += tools/types-study tools/types-study-report \
	tools/bench-types
EXTRA_DIST += tools/doc/types-study-2026-11-27.md tools/doc/bench-types-2026-11-27.md \
	tools/doc/figures/types-study.png
BENCH_TYPES_FLAGS =
bench-types: bfsim$(EXEEXT)
	$(BENCH_PYTHON3) $(srcdir)/tools/bench-types --bfsim ./bfsim$(EXEEXT) \
	  --srcdir $(srcdir) $(BENCH_TYPES_FLAGS)
.PHONY: bench-types

# Trace compression (issue 26): the reading speed of a native trace in
# each compression, side by side, and the levels bfsim's zstd writer was
# chosen from (`make bench-compression` remakes the dated report; about
# 5 minutes with the default synthetic trace, BENCH_COMPRESSION_FLAGS=
# '--gen none' for the Summit trace alone).
dist_noinst_SCRIPTS += tools/bench-compression
EXTRA_DIST += tools/doc/trace-compression-2026-11-27.md \
	tools/doc/trace-compression-2026-11-28.md
BENCH_COMPRESSION_FLAGS =
bench-compression: bfsim$(EXEEXT)
	$(BENCH_PYTHON3) $(srcdir)/tools/bench-compression \
	  --bfsim ./bfsim$(EXEEXT) --srcdir $(srcdir) $(BENCH_COMPRESSION_FLAGS)
.PHONY: bench-compression

# check-deps: the dependency rules between the folders of src/ and
# solvers/, run by tests/deps.test (a shell script printing TAP) on the
# tree and on copies with violations added.  DESIGN.md: what a replay
# computes in either mode, and the allocation problem (the sources cite
# it).
dist_noinst_SCRIPTS += tools/check-deps
BFS_SCRIPT_TESTS += tests/deps.test
EXTRA_DIST += tests/deps.test tools/DESIGN.md

# dp with every job at once (10,000 jobs on 4,000-node traces): the job
# file maker, the side-by-side benchmark and its dated results.
dist_noinst_SCRIPTS += tools/gen-jobs-at-once tools/dp-scale
EXTRA_DIST += tools/doc/dp-scale-2026-11-27.md tests/gen-jobs.test
BFS_SCRIPT_TESTS += tests/gen-jobs.test

# Installed under $(pkgdatadir)/tools: the example sweep (its paths,
# ../traces and ../datasets, hold there as in the source tree) and the
# helper scripts.  The Python scripts run with the Python configure found
# (PYTHON3): their first line is rewritten when they are built, here in
# the build directory; the sources keep #!/usr/bin/python3 or env.
bfsimtoolsdir = $(pkgdatadir)/tools
dist_bfsimtools_DATA = tools/sweep-objectives.json tools/sweep-tiebreak.json \
	tools/sweep-tiebreak-10.json
bfsimtools_SCRIPTS = h5read-example.py swf-idle-hours
CLEANFILES += h5read-example.py swf-idle-hours
BFS_SHEBANG = $(AM_V_GEN)rm -f $@ $@.tmp && \
	sed '1s|^\#!.*|\#!$(PYTHON3)|' $(srcdir)/tools/$@ >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
h5read-example.py: $(srcdir)/tools/h5read-example.py Makefile
	$(BFS_SHEBANG)
swf-idle-hours: $(srcdir)/tools/swf-idle-hours Makefile
	$(BFS_SHEBANG)
# The curve predictor's study (tools/doc/predictor-2026-11-27.md).
EXTRA_DIST += tools/predictor-study tools/doc/predictor-2026-11-27.md
# What not knowing the curves costs: true, predicted, learned alone,
# pooled and pooled + Thompson at a fixed horizon over five seeds
# (tools/doc/learning-study-2026-11-27.md).
EXTRA_DIST += tools/learning-study tools/doc/learning-study-2026-11-27.md \
	tools/doc/figures/learning-regret.png tools/doc/figures/learning-regret.csv
# The README's quick start (tools/setup: install what is missing,
# configure, build), which works in an unpacked tarball too.
dist_noinst_SCRIPTS += tools/setup
# The replay core's CPU, two builds interleaved
# (tools/doc/bench-scale-2026-11-27.md, "The replay core per event").
dist_noinst_SCRIPTS += tools/bench-core
