"""The one base class for mistakes in user input: front ends report these without a traceback."""


class InputError(ValueError):
    """Bad input from a user: a card, range, board, game spec or file. The message is for people."""
