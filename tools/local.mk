# tools: files added by this area.
include $(srcdir)/tools/bench.mk
include $(srcdir)/tools/plot.mk
# The example sweep of the README and what it produced.
EXTRA_DIST += tools/sweep-objectives.json tools/figures/objectives-tfwd.csv \
	tools/figures/objectives-tfwd.png \
	tools/figures/replay-prop-fair-tfwd100-pool.png \
	tools/figures/replay-prop-fair-tfwd100-jobs.png
# check-deps: the dependency rules between the folders of src/ and
# solvers/, run by tests/deps.test (a shell script printing TAP) on the
# tree and on copies with violations added.  DESIGN.md: what a replay
# computes in either mode, and the allocation problem (the sources cite
# it).
dist_noinst_SCRIPTS += tools/check-deps
BFS_SCRIPT_TESTS += tests/deps.test
EXTRA_DIST += tests/deps.test tools/DESIGN.md
