"""Spices, declarations and revealed cards: the words a player says at the table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from companion.rules.errors import IllegalAction, Param, Reason, either

NUMBERS = range(1, 11)
"""Spice cards run from 1 to 10."""

STARTING_NUMBERS = (1, 2, 3)
"""A new stack (and a stack after a declared 10) starts with one of these."""

Attribute = Literal["spice", "number"]
ATTRIBUTES: tuple[Attribute, ...] = ("spice", "number")



def attribute_named(word: str) -> Attribute:
    """A challenge names one attribute: "not that spice!" or "not that number!"."""
    for attribute in ATTRIBUTES:
        if word == attribute:
            return attribute
    raise IllegalAction("a challenge names spice or number, not {word!r}", word=word)


WILD_SPICE = "wild-spice"
WILD_NUMBER = "wild-number"


@dataclass(frozen=True, slots=True)
class Claim:
    """What a seat declares for the card it lays face down (number is None in five-spices)."""

    spice: str
    number: int | None = None

    def __str__(self) -> str:
        return self.spice if self.number is None else f"{self.spice} {self.number}"


@dataclass(frozen=True, slots=True)
class Card:
    """A card turned face up to settle a challenge.

    A normal card has both a spice and a number; a wild-spice card is every spice
    and has no number; a wild-number card is every number and has no spice.
    """

    spice: str | None
    number: int | None
    wild: str | None = None

    @classmethod
    def wild_spice(cls) -> Card:
        return cls(None, None, WILD_SPICE)

    @classmethod
    def wild_number(cls) -> Card:
        return cls(None, None, WILD_NUMBER)

    def __str__(self) -> str:
        if self.wild:
            return self.wild
        return f"{self.spice}" if self.number is None else f"{self.spice} {self.number}"


def same_number(revealed: int, declared: int) -> bool:
    return revealed == declared


def challenger_right(
    attribute: Attribute, claim: Claim, card: Card, numbers_match: Callable[[int, int], bool] = same_number
) -> bool:
    """Only the named attribute counts: a double lie loses to a challenge on the true half.

    ``numbers_match(revealed, declared)`` is the variant cards' say on which numbers match.

    >>> challenger_right("spice", Claim("pepper", 5), Card("pepper", 4))
    False
    >>> challenger_right("number", Claim("pepper", 5), Card("pepper", 4))
    True
    >>> challenger_right("spice", Claim("chili", 3), Card.wild_spice())
    False
    >>> challenger_right("number", Claim("chili", 3), Card.wild_spice())
    True
    """
    if attribute == "spice":
        if card.wild == WILD_SPICE:
            return False
        if card.wild == WILD_NUMBER:
            return True
        return card.spice != claim.spice
    if card.wild == WILD_NUMBER:
        return False
    if card.wild == WILD_SPICE:
        return True
    assert card.number is not None and claim.number is not None
    return not numbers_match(card.number, claim.number)


def describe_numbers(numbers: list[int]) -> Param:
    """Contiguous runs read as ranges: [1, 2, 3, 9, 10] -> "1 to 3 or 9 to 10".

    >>> str(describe_numbers([6, 7, 8, 9, 10]))
    '6 to 10'
    >>> str(describe_numbers([1, 2, 3, 10]))
    '1 to 3 or 10'
    """
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return either([r[0] if len(r) == 1 else Reason("{low} to {high}", low=r[0], high=r[-1]) for r in runs])
