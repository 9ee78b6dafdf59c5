"""Shared helpers with no tbsg imports: digit limits and number text, the garbage
collector pause, progress bars, optional imports."""
