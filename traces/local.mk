# traces: files added by this area.
# The bundled Summit trace (see traces/README for its source and the
# command that made it).
nobase_dist_pkgdata_DATA += traces/summit-2021-02.trace.gz
# The same timeline with its nodes typed by datasets/summit-2types.map (a
# what-if; traces/README).
nobase_dist_pkgdata_DATA += traces/summit-2021-02-2types.trace.gz
EXTRA_DIST += traces/README
