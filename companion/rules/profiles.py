"""The three rule profiles and the "Spice it up!" variant cards.

A profile is data, not a subclass: the engine asks it what the draw pile holds,
how many cards are dealt and which spices exist, so one engine reads every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.rules.errors import IllegalAction, Word


class ProfileId(StrEnum):
    SPICY = "spicy"
    SWEET_SPICY = "sweet-spicy"
    FIVE_SPICES = "five-spices"


@dataclass(frozen=True, slots=True)
class Profile:
    id: ProfileId
    title: str
    spices: tuple[str, ...]
    numbered: bool
    """False in five-spices: cards carry a spice only, and the game has no scores."""
    spice_cards: int
    hand_size: int
    universals: int = 0
    """Sweet & Spicy's universal cards: one dealt to each seat, the rest in a pile."""
    wild_cards: bool = True
    end_card: bool = True
    """Whether a World's End card sits in the draw pile."""
    trophies: int = 3
    starter_plays: bool = False
    """Sweet & Spicy: the seat that starts the new stack after a challenge starts it with a play, never a pass."""

    @property
    def total_cards(self) -> int:
        """Every card the count must account for, `adjust` aside."""
        return self.spice_cards + self.universals

    def default_end_card(self, seats: int) -> int:
        """One third of what is left after the deal lies under the World's End card.

        >>> [SPICY.default_end_card(n) for n in range(2, 7)]
        [29, 27, 25, 23, 21]
        """
        if not self.end_card:
            return 0
        return (self.spice_cards - self.hand_size * seats + 1) // 3


SPICY = Profile(
    id=ProfileId.SPICY,
    title="Spicy",
    spices=("chili", "wasabi", "pepper"),
    numbered=True,
    spice_cards=100,
    hand_size=6,
)

SWEET_SPICY = Profile(
    id=ProfileId.SWEET_SPICY,
    title="Sweet & Spicy",
    spices=("chili", "lemon", "pepper"),
    numbered=True,
    spice_cards=100,
    hand_size=6,
    universals=6,
    starter_plays=True,
)

FIVE_SPICES = Profile(
    id=ProfileId.FIVE_SPICES,
    title="Five Spices",
    spices=("pepper", "salt", "sugar", "garlic", "cinnamon"),
    numbered=False,
    spice_cards=110,
    hand_size=5,
    wild_cards=False,
    end_card=False,
    trophies=0,
)

PROFILES: dict[str, Profile] = {p.id: p for p in (SPICY, SWEET_SPICY, FIVE_SPICES)}

MIN_SEATS = 2
MAX_SEATS = 6


class Variant(StrEnum):
    """The variant cards of "Spice it up!"; their rules and words are rows of ``variants.VARIANTS``."""

    START_IT_UP = "start-it-up"
    TURN_IT_UP = "turn-it-up"
    SPICE_RAIDER = "spice-raider"
    WE_LOVE_CHILI = "we-love-chili"
    CHANGE_YOUR_LUCK = "change-your-luck"
    COPY_CAT = "copy-cat"
    FOUR_IS_ANY = "four-is-any"
    CHILI_REVERSES = "chili-reverses"


MAX_VARIANTS = 2


class StartAfterChallenge(StrEnum):
    """Who starts the next stack after a challenge (a house option; the official rule is the loser)."""

    LOSER = "loser"
    WINNER = "winner"


def profile_named(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise IllegalAction(
            "unknown rules {name!r}: choose {profiles}", name=name, profiles=tuple(map(Word, PROFILES))
        ) from None
