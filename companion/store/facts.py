"""What a finished game says about each seat, read from the states it went through.

Only the moves that stand count: a challenge that was undone never happened.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import NamedTuple

from companion.rules import Challenge, EventKind, Game, Play


class ChallengeFacts(NamedTuple):
    challenges_made: int
    challenges_won: int
    caught_bluffing: int
    """Challenged and the challenger was right."""
    survived_challenges: int
    """Challenged and the challenger was wrong."""


class ReviewFacts(NamedTuple):
    """What the player page and the records need beyond the totals, kept per seat at a game's end."""

    spice_challenges: int
    """Challenges made calling "not that spice!"."""
    spice_challenges_won: int
    number_challenges: int
    """Challenges made calling "not that number!" (five-spices challenges are neither)."""
    number_challenges_won: int
    biggest_stack: int
    """The most cards won (or raided) in one stack."""
    survival_streak: int
    """The longest run of challenges against this seat's cards that it survived, one after another."""
    declared: dict[str, int]
    """Cards played by spice declared."""


class SeatFacts(NamedTuple):
    challenge: ChallengeFacts
    review: ReviewFacts


def challenge_facts(game: Game) -> list[ChallengeFacts]:
    return [facts.challenge for facts in seat_facts(game)]


def seat_facts(game: Game) -> list[SeatFacts]:
    """Fold the standing states: a challenge event names the challenger, the state
    before it names the challenged card's player, the challenge-won event the winner."""
    seats = len(game.setup.names)
    made, won, caught, survived = ([0] * seats for _ in range(4))
    by_attribute = {attribute: ([0] * seats, [0] * seats) for attribute in ("spice", "number")}
    biggest, streak, longest = ([0] * seats for _ in range(3))
    declared: list[Counter[str]] = [Counter() for _ in range(seats)]
    pending: tuple[int, int, str | None] | None = None
    for before, after in pairwise(game.steps()):
        if isinstance(after.move, Play):
            declared[after.move.seat][after.move.spice] += 1
        for event in after.state.events:
            if event.kind == EventKind.CHALLENGE and event.seat is not None and before.state.window is not None:
                attribute: str | None = after.move.attribute if isinstance(after.move, Challenge) else None
                pending = (event.seat, before.state.window.player, attribute)
                made[event.seat] += 1
                if attribute in by_attribute:
                    by_attribute[attribute][0][event.seat] += 1
            elif event.kind == EventKind.CHALLENGE_WON and pending is not None:
                challenger, player, attribute = pending
                if event.seat == challenger:
                    won[challenger] += 1
                    caught[player] += 1
                    streak[player] = 0
                    if attribute in by_attribute:
                        by_attribute[attribute][1][challenger] += 1
                else:
                    survived[player] += 1
                    streak[player] += 1
                    longest[player] = max(longest[player], streak[player])
                pending = None
            elif event.kind in (EventKind.STACK_WON, EventKind.RAID) and event.seat is not None:
                biggest[event.seat] = max(biggest[event.seat], event.count)
    (spice_made, spice_won), (number_made, number_won) = by_attribute["spice"], by_attribute["number"]
    return [
        SeatFacts(
            ChallengeFacts(made[i], won[i], caught[i], survived[i]),
            ReviewFacts(spice_made[i], spice_won[i], number_made[i], number_won[i], biggest[i], longest[i],
                        dict(declared[i])),
        )
        for i in range(seats)
    ]


REVIEW_COLUMNS = ReviewFacts._fields
"""The ``scores`` columns that keep ``ReviewFacts``, in order (``declared`` as JSON)."""
