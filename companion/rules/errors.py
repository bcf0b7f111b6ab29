"""The one error the rules raise: a refusal a player can read."""


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is the reason, in table words.

    Nothing changes when it is raised: states are immutable.
    """
