# bench-solvers.mk: `make bench-solvers` solves the bundled MILP corpus
# (datasets/solver-corpus.tar.gz, made by tools/solver-corpus, checked
# against its SHA256SUMS when unpacked into bench-corpus/: 73 allocation
# instances of eight replays of the Summit trace that the whole count or
# node model makes non-trivial, and 25 hetero-* ones with node types that
# the count model does) with the default configurations, each instance 3
# times per configuration in one shuffled order, one solve at a time, and
# prints the table per configuration and the affected instances.  The
# node model refuses node types, so the typed instances are a second
# run, with the count configurations only.  The runs go to
# bench-solvers.csv and bench-solvers.h5 (/rows, /instances, /summary),
# the typed ones to bench-solvers-types.csv and .h5.  Override the
# configurations, repeats or limit with BENCH_SOLVERS_FLAGS (and
# BENCH_SOLVERS_TYPES_FLAGS), e.g.
#     make bench-solvers BENCH_SOLVERS_FLAGS='--repeat 5 --seeds 3 \
#         --config milp:glpk --config milp:glpk,br_tech=pch'
# `make bench-solvers-corpus` remakes the corpus from the data with this
# build, into bench-corpus-new/ (about 7 minutes; the selection near its
# 0.1 s line depends on the machine, see tools/solver-corpus).
dist_noinst_SCRIPTS += tools/solver-corpus
nobase_dist_pkgdata_DATA += datasets/solver-corpus.tar.gz
BENCH_SOLVERS_FLAGS = --repeat 3 --time-limit 10 --detail \
	--config milp:cbc --config 'milp:cbc,cuts=off' --config milp:glpk \
	--config 'milp:glpk,br_tech=pch' --config milp:node:cbc \
	--config 'milp:node:cbc,cuts=off' --config milp:node:glpk
BENCH_SOLVERS_TYPES_FLAGS = --repeat 3 --time-limit 10 --detail \
	--config milp:cbc --config 'milp:cbc,cuts=off' --config milp:glpk \
	--config 'milp:glpk,br_tech=pch'
bench-corpus/.done: $(srcdir)/datasets/solver-corpus.tar.gz
	rm -rf bench-corpus && mkdir bench-corpus
	tar -xzf $(srcdir)/datasets/solver-corpus.tar.gz -C bench-corpus
	cd bench-corpus/solver-corpus && sha256sum -c --quiet SHA256SUMS
	touch $@
bench-solvers: bfsim$(EXEEXT) bench-corpus/.done
	./bfsim$(EXEEXT) solve $(BENCH_SOLVERS_FLAGS) --csv bench-solvers.csv \
	  -o bench-solvers.h5 \
	  `ls bench-corpus/solver-corpus/*.json | grep -v /hetero-`
	./bfsim$(EXEEXT) solve $(BENCH_SOLVERS_TYPES_FLAGS) \
	  --csv bench-solvers-types.csv -o bench-solvers-types.h5 \
	  bench-corpus/solver-corpus/hetero-*.json
bench-solvers-corpus: bfsim$(EXEEXT)
	$(SHELL) $(srcdir)/tools/solver-corpus ./bfsim$(EXEEXT) $(srcdir) \
	  bench-corpus-new
clean-local: clean-bench-solvers
clean-bench-solvers:
	rm -rf bench-corpus bench-corpus-new bench-corpus-new.tmp \
	  bench-solvers.csv bench-solvers.h5 bench-solvers-types.csv \
	  bench-solvers-types.h5
.PHONY: bench-solvers bench-solvers-corpus clean-bench-solvers

# tests/profile.test: bfsim-plot profile's steps (no matplotlib needed).
BFS_SCRIPT_TESTS += tests/profile.test
EXTRA_DIST += tests/profile.test
