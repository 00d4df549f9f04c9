# conserve.mk: filled in by its area.
