# solvers: files added by this area.
