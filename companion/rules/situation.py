"""The moment at the table as a newcomer is told it: what lies on the stack, who is to play, what they may say.

"How to play", opened at the table, starts on this ("Chili 7 on the stack: say Chili 8, 9 or 10, or pass"),
and the table's own hint reads the same facts, so the card and the claim pad can never disagree: every
claim named here is one ``apply`` accepts now, and every play it accepts is named.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.actions import Draw, Pass
from companion.rules.cards import Claim
from companion.rules.engine import challengers, is_legal, playable_claims
from companion.rules.state import State


@dataclass(frozen=True, slots=True)
class Situation:
    """What the table looks at now, as facts; ``companion.ui.words.situation_words`` says them."""

    numbered: bool
    seat: int | None
    """The seat to play; None once the game is over."""
    claim: Claim | None
    """The claim on the stack's top card; None on a new stack (five-spices: the face-up card, unnamed)."""
    stack: int
    claims: tuple[tuple[str, tuple[int, ...]], ...]
    """Each spice the seat to play may declare now with its numbers, the stack's spice first (numbered games;
    none from an empty hand or while a challenge waits)."""
    any_claim: bool
    """Every spice may start the stack: the claims are "1, 2 or 3 of any spice"."""
    may_pass: bool
    """The seat to play may pass (five-spices: draw); False for Sweet & Spicy's starter after a challenge."""
    challenged: int | None
    """The seat whose card on top may still be challenged now; None when no card can be."""
    challengers: frozenset[int]
    """The seats that may challenge it: every other seat in the numbered games, the next one in five-spices."""
    challenge_waiting: bool
    """A challenge was made and waits for the card to be turned over: nothing is played until then."""

    @property
    def ended(self) -> bool:
        return self.seat is None


def situation(state: State) -> Situation:
    """The situation of ``state``: asked of the engine's own checks, so it names only what ``apply`` accepts."""
    numbered = state.profile.numbered
    seat = None if state.ended else state.turn
    claims = tuple(playable_claims(state).items())
    seats = challengers(state)
    window = state.window
    return Situation(
        numbered=numbered,
        seat=seat,
        claim=state.claim,
        stack=state.stack,
        claims=claims,
        any_claim=bool(claims) and len(claims) == len(state.profile.spices) and state.claim is None,
        may_pass=seat is not None and is_legal(state, (Pass if numbered else Draw)(seat)),
        challenged=window.player if window is not None and seats else None,
        challengers=seats,
        challenge_waiting=state.challenge is not None and not state.ended,
    )
