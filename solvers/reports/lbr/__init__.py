"""Local best response (Lisý and Bowling 2017): on spots and strategy files (``spot*``), and on
the full game against any agent (``hunl*``); its action-set names (``names``) and the figures it
records in a file's header (``record``). The bot's range along a line and the bet sizer are the
agents' machinery (``solvers/agents/beliefs.py``, ``bet_sizing.py``), which LBR uses."""
