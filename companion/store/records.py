"""How a game's set-up and log look in the database: plain columns and JSON text.

JSON keeps names as typed (``ensure_ascii=False``) so ``sqlite-utils`` and
Datasette show them as people wrote them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.rules import Action, Game, Setup, action_from_dict, new_setup, profile_named


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


def setup_from_row(profile: str, variants: str, options: str, seats: str, end_card: int, first: int) -> Setup:
    """Goes through ``new_setup`` so a row edited by hand is checked like a typed set-up."""
    return new_setup(
        profile_named(profile),
        json.loads(seats),
        end_card,
        first,
        frozenset(json.loads(variants)),
        json.loads(options)["start_after_challenge"],
    )


@dataclass(frozen=True, slots=True)
class Logged:
    """One row of the action log."""

    seq: int
    at: str
    action: Action


def logged_from_row(seq: int, at: str, action: str) -> Logged:
    return Logged(seq, at, action_from_dict(json.loads(action)))


@dataclass(frozen=True, slots=True)
class SavedGame:
    id: int
    setup: Setup
    log: tuple[Logged, ...]
    started_at: str
    ended_at: str | None

    def game(self) -> Game:
        """Resume and replay are the same fold over the log."""
        return Game.replay(self.setup, (entry.action for entry in self.log))
