"""What a finished game says about each seat, read from the states it went through.

Only the moves that stand count: a challenge that was undone never happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.rules import Game, Redo, Undo
from companion.store.records import Logged


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
    states = game.states[: game.cursor + 1]
    for before, after in zip(states, states[1:]):
        for event in after.events:
            if event.kind == "challenge" and event.seat is not None and before.top is not None:
                pending = (event.seat, before.top.player)
                made[event.seat] += 1
            elif event.kind == "challenge-won" and pending is not None:
                challenger, player = pending
                if event.seat == challenger:
                    won[challenger] += 1
                    caught[player] += 1
                else:
                    survived[player] += 1
                pending = None
    return [ChallengeFacts(*facts) for facts in zip(made, won, caught, survived)]


def standing_log(log: Sequence[Logged]) -> list[Logged]:
    """The logged moves that stand after every undo and redo, in game order.

    ``standing_log(log)[i]`` made ``game.states[i + 1]``.
    """
    moves: list[Logged] = []
    cursor = 0
    for entry in log:
        if isinstance(entry.action, Undo):
            cursor -= 1
        elif isinstance(entry.action, Redo):
            cursor += 1
        else:
            del moves[cursor:]
            moves.append(entry)
            cursor += 1
    return moves[:cursor]
