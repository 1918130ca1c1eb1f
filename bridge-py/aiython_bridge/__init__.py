"""aiython's bridge: runs the user's program inside the chosen CPython and serves the host."""
