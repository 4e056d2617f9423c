"""The engine run over hands played elsewhere: import hand histories, value each decision.

Sits above ``agents`` and ``reports`` (it values decisions against a full-game agent with the
live panel's numbers) and below ``runs`` and ``batch``. See ``docs/analyze.md``.
"""
