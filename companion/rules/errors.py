"""The refusal the rules raise, on the app's error root and sentences (``companion.errors``).

``companion.errors`` is plain Python that imports nothing, so the rules stay
self-contained; its names are re-exported here for the rules' own modules.
"""

from __future__ import annotations

from companion.errors import CompanionError, Name, Param, Reason, Word, either


class IllegalAction(CompanionError, ValueError):
    """An action the rules refuse; ``str(exc)`` is the reason, in table words.

    Its template is a literal, so the catalogue finds it. Nothing changes when
    it is raised: states are immutable.
    """


__all__ = ["CompanionError", "IllegalAction", "Name", "Param", "Reason", "Word", "either"]
