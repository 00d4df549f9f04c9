# bench.mk: `make bench` measures bfsim replay on the bundled Summit trace
# (tools/bench; it prints a Markdown table).  configure does not look for
# Python, so python3 is taken from PATH; the script needs only the standard
# library.  Restrict the matrix with BENCH_FLAGS, for example
#     make bench BENCH_FLAGS='--sizes 10,64 --jobs 10J --repeat 1'
dist_noinst_SCRIPTS += tools/bench
BENCH_PYTHON3 = python3
BENCH_FLAGS =
bench: bfsim$(EXEEXT)
	$(BENCH_PYTHON3) $(srcdir)/tools/bench --bfsim ./bfsim$(EXEEXT) \
	  --srcdir $(srcdir) $(BENCH_FLAGS)
.PHONY: bench
