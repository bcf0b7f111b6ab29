"""What a finished game says about each seat, read from the states it went through.

Only the moves that stand count: a challenge that was undone never happened.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

from companion.rules import EventKind, Game


class ChallengeFacts(NamedTuple):
    challenges_made: int
    challenges_won: int
    caught_bluffing: int
    """Challenged and the challenger was right."""
    survived_challenges: int
    """Challenged and the challenger was wrong."""


def challenge_facts(game: Game) -> list[ChallengeFacts]:
    """Fold the standing states: a challenge event names the challenger, the state
    before it names the challenged card's player, the challenge-won event the winner."""
    seats = len(game.setup.names)
    made, won, caught, survived = ([0] * seats for _ in range(4))
    pending: tuple[int, int] | None = None
    steps = game.steps()
    for before, after in pairwise(steps):
        for event in after.state.events:
            if event.kind == EventKind.CHALLENGE and event.seat is not None and before.state.window is not None:
                pending = (event.seat, before.state.window.player)
                made[event.seat] += 1
            elif event.kind == EventKind.CHALLENGE_WON and pending is not None:
                challenger, player = pending
                if event.seat == challenger:
                    won[challenger] += 1
                    caught[player] += 1
                else:
                    survived[player] += 1
                pending = None
    return [ChallengeFacts(*facts) for facts in zip(made, won, caught, survived, strict=True)]
