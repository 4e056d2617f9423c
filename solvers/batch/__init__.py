"""Batches of independent solves: job descriptions (``jobs.py``), flop libraries
(``flop_jobs.py``) and the resumable runner (``runner.py``) over a ``parallel`` backend."""
