# bench-solvers.mk: `make bench-solvers` builds the solver corpus
# (tools/solver-corpus: the distinct instances of five short replays, in
# bench-corpus/ of the build tree, made once; `make clean` removes it) and solves it with the
# default configurations (`bfsim solve --config ...`), printing the table
# per configuration.  Override the configurations, time limit or
# processes with BENCH_SOLVERS_FLAGS, for example
#     make bench-solvers BENCH_SOLVERS_FLAGS='-j 1 --config dp --config milp:glpk'
# The per-instance rows are written to bench-solvers.csv.
dist_noinst_SCRIPTS += tools/solver-corpus
BENCH_SOLVERS_FLAGS = -j 2 --time-limit 10 \
	--config milp:cbc --config 'milp:cbc,cuts=off' --config milp:glpk \
	--config 'milp:glpk,br_tech=pch' --config milp:node:cbc \
	--config milp:node:glpk --config dp
bench-solvers: bfsim$(EXEEXT)
	test -e bench-corpus/.done || { \
	  $(SHELL) $(srcdir)/tools/solver-corpus ./bfsim$(EXEEXT) $(srcdir) \
	    bench-corpus && touch bench-corpus/.done; }
	./bfsim$(EXEEXT) solve $(BENCH_SOLVERS_FLAGS) --csv bench-solvers.csv \
	  bench-corpus
clean-local: clean-bench-solvers
clean-bench-solvers:
	rm -rf bench-corpus bench-corpus.tmp bench-solvers.csv
.PHONY: bench-solvers clean-bench-solvers

# tests/profile.test: bfsim-plot profile's steps (no matplotlib needed).
BFS_SCRIPT_TESTS += tests/profile.test
EXTRA_DIST += tests/profile.test
