"""Where independent tasks run: a local process pool or a Ray cluster (``backends.py``)."""
