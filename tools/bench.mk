# bench.mk: `make bench` measures bfsim replay on the bundled Summit trace
# (tools/bench; it prints a Markdown table).  configure does not look for
# Python, so python3 is taken from PATH; the script needs only the standard
# library.  Restrict the matrix with BENCH_FLAGS, for example
#     make bench BENCH_FLAGS='--sizes 10,64 --jobs 10J --repeat 1'
# The rows of a generated 40,000-node year (generation, trace reading,
# the 1000-job set, 10,000 and 100,000 jobs over the year, 10,000 jobs
# at once, a jobs x nodes grid; each with its CPU ratio to reading the
# trace) are opt-in, since they take an hour or more and about 900 MB of
# temporary disk (--big-trace FILE reuses a generated trace, --big-rows
# picks the groups):
#     make bench BENCH_FLAGS='--big'
#     make bench BENCH_FLAGS='--big-only --big-duration 30d --repeat 1'
dist_noinst_SCRIPTS += tools/bench
BENCH_PYTHON3 = python3
BENCH_FLAGS =
bench: bfsim$(EXEEXT)
	$(BENCH_PYTHON3) $(srcdir)/tools/bench --bfsim ./bfsim$(EXEEXT) \
	  --srcdir $(srcdir) $(BENCH_FLAGS)
.PHONY: bench
# The figures of the --big rows at 2026-11-27, with the commands that
# remake them.
EXTRA_DIST += tools/doc/bench-scale-2026-11-27.md
