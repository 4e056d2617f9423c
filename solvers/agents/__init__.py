"""Full-game players: the blueprint bot, chump bots; each answers a Policy (games/hunl/agent.py)."""
