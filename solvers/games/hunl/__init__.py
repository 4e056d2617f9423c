"""Full heads-up no-limit hold'em: the rules (rules.py) and what an agent answers (agent.py)."""
