# The one list of bfsim's sources.  Each folder of src/ is a part of the
# program; data flows files -> formats -> engine -> alloc -> solver ->
# backend (solvers/) and back, foreign logs -> import -> native traces,
# and cli/ drives it (src/README, "Inside bfsim").  Everything but cli/
# goes into the library the tests link.
noinst_LIBRARIES += libbfsim.a
libbfsim_a_SOURCES = \
	src/base/error.c src/base/error.h \
	src/base/util.c src/base/util.h \
	src/base/out.c src/base/out.h \
	src/base/zout.c src/base/zout.h \
	src/base/paths.c src/base/paths.h \
	src/base/status.c src/base/status.h \
	src/base/csv.c src/base/csv.h \
	src/base/qhist.c src/base/qhist.h \
	src/formats/trace.c src/formats/trace.h \
	src/formats/jobs.c src/formats/jobs.h \
	src/formats/hostlist.c src/formats/hostlist.h \
	src/formats/nodetypes.c src/formats/nodetypes.h \
	src/formats/traceinfo.c src/formats/traceinfo.h \
	src/formats/gentrace.c src/formats/gentrace.h \
	src/formats/records.c src/formats/records.h \
	src/formats/steps.c src/formats/joblog.c src/formats/batsim.c \
	src/formats/h5out.c src/formats/h5out.h \
	src/formats/holdings.c src/formats/holdings.h \
	src/formats/h5tables.c src/formats/h5tables.h \
	src/formats/summary.c src/formats/summary.h \
	src/import/import.h src/import/import_bftrainer.c \
	src/import/import_log.c src/import/import_log.h \
	src/import/import_swf.c src/import/import_slurm.c \
	src/import/import_batsim.c src/import/import_elastisim.c \
	src/import/import_acct.c src/import/import_acct.h \
	src/import/import_pbs.c src/import/import_lsf.c \
	src/import/import_sim.c src/import/import_sim.h \
	src/import/import_native.c \
	src/import/sniff.c src/import/sniff.h \
	src/engine/evq.c src/engine/evq.h \
	src/engine/replay.c src/engine/replay.h src/engine/replay_impl.h \
	src/engine/completion.h \
	src/engine/pool.c src/engine/compat.c src/engine/default.c \
	src/engine/options.c src/engine/options.h \
	src/engine/options_solve.c src/engine/options_sweep.c \
	src/engine/options_gentrace.c src/engine/options_info.c \
	src/engine/options_convert.c \
	src/engine/tiebreak.c src/engine/tiebreak.h \
	src/engine/nodepick.c src/engine/nodepick.h \
	src/engine/measures.c src/engine/measures.h \
	src/engine/curvefit.c src/engine/curvefit.h \
	src/engine/belief.c src/engine/belief.h \
	src/engine/predict.c src/engine/predict.h \
	src/alloc/alloc.c src/alloc/alloc.h src/alloc/alloc_impl.h \
	src/alloc/objective.c src/alloc/objective.h \
	src/alloc/milp_alloc.c src/alloc/milp_impl.h src/alloc/milp_base.c \
	src/alloc/milp_count.c src/alloc/milp_node.c src/alloc/milp_mixed.c \
	src/alloc/milp_agg.c \
	src/alloc/dp_types.c \
	src/alloc/instance.c src/alloc/instance.h \
	src/alloc/bench.c src/alloc/bench.h \
	src/solver/milp.c src/solver/milp.h \
	src/solver/mps.c src/solver/mps.h \
	src/solver/solver.c src/solver/solver.h src/solver/backend.h \
	src/solver/backend.c \
	src/sweep/sweep.c src/sweep/sweep.h src/sweep/sweep_impl.h \
	src/sweep/run.c src/sweep/work.c src/sweep/table.c \
	src/sweep/claim.c src/sweep/claim.h

# The dp allocator's row extension is nearly all of a dp replay's time;
# its inner loop vectorises with -ftree-vectorize (GCC enables only the
# cheap vectoriser at -O2).  Automake sets flags per target, not per
# file, so dp.c is built as a convenience library of its own and its
# object goes into libbfsim.a.  The flag changes no result: the loop
# takes a maximum of sums, and each sum is the same one rounding.
noinst_LIBRARIES += libbfsim_dp.a
libbfsim_dp_a_SOURCES = src/alloc/dp.c
libbfsim_dp_a_CFLAGS = $(AM_CFLAGS) -ftree-vectorize
libbfsim_a_LIBADD = $(libbfsim_dp_a_OBJECTS)
libbfsim_a_DEPENDENCIES = $(libbfsim_dp_a_OBJECTS)

# solvers/: one file per backend that configure found.
if HAVE_CBC
libbfsim_a_SOURCES += solvers/cbc.c
endif
if HAVE_GLPK
libbfsim_a_SOURCES += solvers/glpk.c
endif

bin_PROGRAMS += bfsim
bfsim_SOURCES = src/cli/main.c src/cli/cmd.h \
	src/cli/cmd_replay.c \
	src/cli/replay_out.c src/cli/replay_out.h \
	src/cli/cmd_solve.c \
	src/cli/cmd_convert.c \
	src/cli/cmd_info.c \
	src/cli/cmd_gentrace.c \
	src/cli/cmd_sweep.c \
	src/cli/cmd_curves.c
bfsim_LDADD = libbfsim.a $(BFS_LIBS)

dist_man1_MANS += src/cli/bfsim.1
