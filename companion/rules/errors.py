"""The app's one error root, and the refusal the rules raise.

``CompanionError`` lives here, inside the rules package, so the rules stay
self-contained (they import nothing of the app); ``companion.errors`` re-exports
it for everything else. The command line catches it once and prints its message.
"""


class CompanionError(Exception):
    """A problem the person at the table can fix; ``str(exc)`` says what to do."""


class IllegalAction(CompanionError, ValueError):
    """An action the rules refuse; ``str(exc)`` is the reason, in table words.

    Nothing changes when it is raised: states are immutable.
    """
