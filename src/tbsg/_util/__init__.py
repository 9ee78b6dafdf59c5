"""Shared helpers that import nothing of tbsg but its errors: digit limits and the text of
numbers, bounds on numbers read from text, a factory's parameters filled from texts, the
checks of plain arguments, the garbage collector pause, progress bars, optional imports,
and the aliases of moved modules."""
