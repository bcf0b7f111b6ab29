"""How a game's set-up and log look in the database: plain columns and JSON text.

JSON keeps names as typed (``ensure_ascii=False``) so ``sqlite-utils`` and
Datasette show them as people wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from companion.rules import Action, Game, IllegalAction, Setup, action_from_dict, new_setup, profile_named
from companion.rules.errors import Reason
from companion.store.snapshots import Snapshot, resume

FIX_ROW = Reason("fix the row with sqlite-utils or Datasette, or delete that game")


class BadRow(ValueError):
    """A row edited by hand into something the app cannot read; the message names the column and the fault."""


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def setup_row(setup: Setup) -> dict[str, Any]:
    return {
        "profile": setup.profile.id,
        "variants": to_json(sorted(setup.variants)),
        "options": to_json({"start_after_challenge": setup.start_after_challenge}),
        "seats": to_json(list(setup.names)),
        "end_card": setup.end_card,
        "first": setup.first,
    }


def from_json(text: Any, column: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        shown = str(text) if len(str(text)) <= 30 else str(text)[:30] + "…"
        raise BadRow(f"column {column} is not JSON: {shown!r}") from None


def names_from_json(text: Any, column: str) -> tuple[str, ...]:
    names = from_json(text, column)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise BadRow(f"column {column} is not a list of names")
    return tuple(names)


def setup_from_row(profile: str, variants: str, options: str, seats: str, end_card: int, first: int) -> Setup:
    """Goes through ``new_setup`` so a row edited by hand is checked like a typed set-up (BadRow if not)."""
    names = names_from_json(seats, "seats")
    chosen, settings = from_json(variants, "variants"), from_json(options, "options")
    try:
        return new_setup(
            profile_named(profile), names, end_card, first, frozenset(chosen), settings["start_after_challenge"]
        )
    except (IllegalAction, KeyError, TypeError) as exc:
        raise BadRow(f"its set-up is not a game ({exc})") from None


@dataclass(frozen=True, slots=True)
class BuzzTime:
    """How a challenge decided by buzzer was won, saved with its ``challenge`` action.

    A challenge taken at the screen has none: it has no edge to time.
    """

    from_tap_ms: float | None
    """From the claim's tap (the window opening) to the winning press. At most 0 for a slap as the card
    landed, before its claim was tapped; None when the buzzers cannot read their edge clock (the keyboard)."""
    margin_ms: float | None
    """From the winning press to the next seat's, before the challenge was called (0 for a tie the
    table split); None when nobody else pressed."""


@dataclass(frozen=True, slots=True)
class Logged:
    """One row of the action log."""

    seq: int
    at: str
    action: Action


def logged_from_row(seq: int, at: str, action: str) -> Logged:
    try:
        return Logged(seq, at, _action(action))
    except (BadRow, IllegalAction) as exc:
        raise BadRow(f"action {seq}: {exc}") from None


def actions_from_rows(rows: Sequence[tuple[int, str, str]]) -> tuple[Action, ...]:
    """The action of each row (``seq``, ``at``, ``action``); BadRow naming the first that cannot be read."""
    try:
        return tuple([_action(text) for _, _, text in rows])
    except (BadRow, IllegalAction):
        for row in rows:  # which one: only once a row is bad
            logged_from_row(*row)
        raise


@lru_cache(maxsize=4096)
def _action(text: str) -> Action:
    """Equal rows give one action (actions are immutable): a long log says the same few hundred again and again."""
    return action_from_dict(from_json(text, "action"))


@dataclass(frozen=True, slots=True)
class SavedGame:
    id: int
    setup: Setup
    log: tuple[Logged, ...]
    started_at: str
    ended_at: str | None
    texts: tuple[str, ...] = ()
    """The log's rows as saved (JSON), which a snapshot is checked against."""
    snapshots: tuple[Snapshot, ...] = ()
    note: str | None = None
    """The line the players kept with the game, if any."""
    abandoned_at: str | None = None
    """When the table gave the game up; it is not resumed."""
    buzz_times: Mapping[int, BuzzTime] = field(default_factory=dict)
    """The buzz of each challenge decided by buzzer, by its action's ``seq``."""

    def game(self) -> Game:
        """Resume and replay are the same fold over the log."""
        return self.resume()[0]

    def resume(self) -> tuple[Game, int]:
        """The fold over the log, from the snapshots that agree with it; and the last one used (0: none)."""
        return resume(self.setup, [entry.action for entry in self.log], self.texts, self.snapshots)


@dataclass(frozen=True, slots=True)
class SavedLog:
    """A saved game as a replay reads it: its log as actions and as rows, each row's time and the snapshots.

    ``SavedGame`` less what a replay does not need at its first step (a ``Logged`` per row, the note, the
    buzz times): read from a 20,000-action game in about half the time.
    """

    id: int
    setup: Setup
    started_at: str
    actions: tuple[Action, ...]
    stamps: tuple[str, ...]
    """When each action came, by log entry."""
    texts: tuple[str, ...]
    """The log's rows as saved (JSON), which a snapshot is checked against."""
    snapshots: tuple[Snapshot, ...] = ()
