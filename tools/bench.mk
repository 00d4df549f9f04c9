# bench.mk: filled in by its area.
