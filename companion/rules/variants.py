"""The "Spice it up!" variant cards as one table (docs/RULES.md section 4), as python-chess keeps its variants.

A row is a card: whether its rule is the app's reading or the printed one, its words (the name and line
set-up shows, which the French catalogue takes from these same rows), and its hooks into the numbered
game. ``numbered`` asks the cards in play through the functions at the foot of this module and never
tests a card's name, so a new card is one row and its hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from companion.rules.actions import Action, Copy
from companion.rules.cards import Claim
from companion.rules.errors import IllegalAction
from companion.rules.profiles import Variant
from companion.rules.state import Direction, Draft, EventKind, Setup
from companion.rules.steps import win_stack

CardHook = Callable[[Draft, int, Claim], None]
"""What a card in play does as a play or copy goes down: the seat and its claim, on the draft whose last
window has just closed; the card itself is laid afterwards."""


@dataclass(frozen=True, slots=True)
class Tuck:
    """change-your-luck: how many more cards may go under which declared number."""

    under: int
    most: int


@dataclass(frozen=True, slots=True)
class VariantCard:
    variant: Variant
    reading: bool
    """The app's reading of the card rather than a printed rule: set-up marks it so."""
    name: str
    line: str
    """One line of explanation on set-up's rules step."""
    restarts_after: int | None = None
    """A new run of 1-3 may also start after a declared number this high (a declared 10 always restarts)."""
    run_spice: str | None = None
    """A spice that may start any new run instead of the stack's."""
    numbers_match: Callable[[int, int], bool] | None = None
    """More revealed numbers that match a declared one in a number challenge: (revealed, declared)."""
    on_card: CardHook | None = None
    tuck: Tuck | None = None
    moves: tuple[type[Action], ...] = ()
    """Actions the card adds to the game."""
    turns: bool = False
    """The card can turn the direction of play, so the table shows it."""


RAID_NUMBER = 4
"""spice-raider: a declared 4 puts the seat's hand on the stack."""
REVERSING_SPICE = "chili"
FOUR = 4


def _raid(draft: Draft, seat: int, claim: Claim) -> None:
    """The last 4 that got through takes the stack; a new 4 puts its player's hand on it."""
    if draft.raider is not None:
        win_stack(draft, draft.raider, EventKind.RAID)
    draft.raider = seat if claim.number == RAID_NUMBER else None


def _reverse(draft: Draft, seat: int, claim: Claim) -> None:
    """A card declared chili turns the play round at once: the turn goes on from its player the other way."""
    if claim.spice == REVERSING_SPICE:
        draft.direction = Direction.COUNTER_CLOCKWISE if draft.direction == Direction.CLOCKWISE else Direction.CLOCKWISE


VARIANTS: dict[Variant, VariantCard] = {
    card.variant: card
    for card in (
        VariantCard(
            Variant.START_IT_UP, False, "Start it up", "After an 8, 9 or 10, a 1, 2 or 3 of the same spice may follow",
            restarts_after=8,
        ),
        VariantCard(
            Variant.TURN_IT_UP, False, "Turn it up", "In a number challenge a 6 matches a 9, and a 9 a 6",
            numbers_match=lambda revealed, declared: {revealed, declared} == {6, 9},
        ),
        VariantCard(
            Variant.SPICE_RAIDER, False, "Spice raider",
            "A declared 4 wins the cards under it when the next card is played",
            on_card=_raid,
        ),
        VariantCard(
            Variant.WE_LOVE_CHILI, True, "We love chili", "Wherever a new run may start, chili 1 to 3 may start it",
            run_spice="chili",
        ),
        VariantCard(
            Variant.CHANGE_YOUR_LUCK, True, "Change your luck",
            "With a 5, tuck up to 2 more cards under it and draw as many",
            tuck=Tuck(under=5, most=2),
        ),
        VariantCard(
            Variant.COPY_CAT, True, "Copy cat", "Out of turn, another seat may copy the top card's exact claim",
            moves=(Copy,),
        ),
        VariantCard(
            Variant.FOUR_IS_ANY, True, "Four is any",
            "A 4 may be played as any number: revealed, it matches every number",
            numbers_match=lambda revealed, _declared: revealed == FOUR,
        ),
        VariantCard(
            Variant.CHILI_REVERSES, True, "Chili reverses", "A card declared chili reverses the direction of play",
            on_card=_reverse, turns=True,
        ),
    )
}
"""Every variant card, in the order set-up lists them."""


# --------------------------------------------------------------------------
# What the numbered game asks the cards in play


def in_play(setup: Setup) -> tuple[VariantCard, ...]:
    """The cards in play, in table order: asked at almost every check of a numbered game, so found once
    for each set of cards."""
    return _cards(setup.variants)


@cache
def _cards(variants: frozenset[Variant]) -> tuple[VariantCard, ...]:
    """Kept for every set of cards asked: 37 at most (none, one or two of the eight)."""
    return tuple(card for variant, card in VARIANTS.items() if variant in variants)


def restarts(cards: frozenset[Variant], declared: int) -> bool:
    """Whether a new run of 1-3 may start on top of this declared number. Asked of the set of cards alone
    (``setup.variants``), as the claims it shapes are kept for each set (``numbered.allowed_numbers``)."""
    return declared == 10 or any(c.restarts_after is not None and declared >= c.restarts_after for c in _cards(cards))


def run_spices(cards: frozenset[Variant]) -> frozenset[str]:
    """Spices that may start a new run whatever the stack's spice; asked as ``restarts`` is."""
    return frozenset(c.run_spice for c in _cards(cards) if c.run_spice is not None)


def numbers_match(setup: Setup, revealed: int, declared: int) -> bool:
    return revealed == declared or any(c.numbers_match(revealed, declared) for c in in_play(setup) if c.numbers_match)


def on_card(draft: Draft, seat: int, claim: Claim) -> None:
    """Every card in play has its say as a play or copy goes down, in table order."""
    for card in in_play(draft.setup):
        if card.on_card is not None:
            card.on_card(draft, seat, claim)


def tuck(setup: Setup) -> Tuck | None:
    return next((c.tuck for c in in_play(setup) if c.tuck is not None), None)


def check_tuck_allowed(setup: Setup) -> Tuck:
    """The one refusal of a tuck, any count, 0 included, in a game without change-your-luck."""
    rule = tuck(setup)
    if rule is None:
        raise IllegalAction("tucking cards needs the change-your-luck variant")
    return rule


def direction_shown(setup: Setup) -> bool:
    """Whether the direction of play can turn in this game, so the table shows which way it goes."""
    return any(c.turns for c in in_play(setup))


def allows(setup: Setup, move: type[Action]) -> bool:
    """Whether a card in play adds this action to the game (copy-cat's copy)."""
    return any(move in c.moves for c in in_play(setup))
