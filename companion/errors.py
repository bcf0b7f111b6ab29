"""Every problem a user can fix derives from ``CompanionError``.

``spicy-companion`` catches it once (``companion.cli.main``), prints the one line
``spicy-companion: <message>`` and exits 2, so a new command needs no error
handling of its own. The root is defined in ``companion.rules.errors`` so the
rules package imports nothing of the app. A message a screen shows is built
as a ``Reason`` (a template and its parameters), so the screen can translate it.
"""

from companion.rules.errors import CompanionError, IllegalAction, Reason, either


class UsageError(CompanionError):
    """A command asked for something it cannot do (a missing file, a bad number)."""


__all__ = ["CompanionError", "IllegalAction", "Reason", "UsageError", "either"]
