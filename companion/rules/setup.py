"""Setting up a game: the set-up checked once, so the engine can trust it, and the deal."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal

from companion.rules.errors import IllegalAction, Word
from companion.rules.profiles import MAX_SEATS, MAX_VARIANTS, MIN_SEATS, Profile, StartAfterChallenge, Variant
from companion.rules.state import Seat, Setup, State


def new_setup(
    profile: Profile,
    names: Iterable[str],
    end_card: int | None = None,
    first: int = 0,
    variants: Iterable[str] = (),
    start_after_challenge: str = StartAfterChallenge.LOSER,
) -> Setup:
    """Check the set-up once, so the engine can trust it afterwards.

    A transcript checks its header lines one by one with the same helpers, so
    each refusal is worded once and reported at the line that caused it.
    """
    seat_names = checked_names(profile, names)
    if not 0 <= first < len(seat_names):
        raise IllegalAction("the first player must be one of the seats")
    cards = checked_variants(profile, variants)
    starter = start_after_challenge_named(start_after_challenge)
    if not profile.numbered:
        starter = StartAfterChallenge.LOSER  # five-spices starts no stack: the option means nothing there
    if end_card is None:
        end_card = profile.default_end_card(len(seat_names))
    elif end_card or profile.end_card:
        check_end_card(profile, end_card, len(seat_names))
    return Setup(profile, seat_names, end_card, first, cards, starter)


def check_end_card(profile: Profile, end_card: int, seats: int | None = None) -> None:
    """Cards under the World's End card: 0 to what the deal leaves, for ``seats`` or, before the seats are
    known, for the smallest table (a transcript checks its end-card line where it stands)."""
    if not profile.end_card:
        raise IllegalAction("five-spices has no World's End card")
    after_deal = profile.spice_cards - profile.hand_size * (MIN_SEATS if seats is None else seats)
    if not 0 <= end_card <= after_deal:
        raise IllegalAction(
            "the World's End card can have 0 to {most} cards under it, not {end_card}",
            most=after_deal, end_card=end_card,
        )


def checked_names(profile: Profile, names: Iterable[str]) -> tuple[str, ...]:
    seat_names = tuple(names)
    if not MIN_SEATS <= len(seat_names) <= MAX_SEATS:
        raise IllegalAction(
            "{profile} needs {fewest} to {most} seats, not {seats}",
            profile=Word(profile.title), fewest=MIN_SEATS, most=MAX_SEATS, seats=len(seat_names),
        )
    seat_names = tuple(check_name(name) for name in seat_names)
    if len(set(seat_names)) != len(seat_names):
        raise IllegalAction("two seats have the same name; give each seat its own")
    return seat_names


def checked_variants(profile: Profile, names: Iterable[str]) -> frozenset[Variant]:
    """The variant cards in play; refused at the first name that is unknown, repeated or one too many."""
    cards: list[Variant] = []
    for name in names:
        if not profile.numbered:
            raise IllegalAction("variant cards belong to spicy and sweet-spicy, not five-spices")
        try:
            card = Variant(name)
        except ValueError:
            raise IllegalAction(
                "unknown variant {name!r}: choose from {variants}", name=name, variants=tuple(map(Word, Variant))
            ) from None
        if card in cards:
            raise IllegalAction("the {card} variant card is already in play", card=Word(card))
        cards.append(card)
        if len(cards) > MAX_VARIANTS:
            raise IllegalAction("at most {most} variant cards may be in play", most=MAX_VARIANTS)
    return frozenset(cards)


def check_option(profile: Profile) -> None:
    """The house option says who starts the next stack: a game without stacks to start has none."""
    if not profile.numbered:
        raise IllegalAction("five-spices has no house option: no stack is started after a challenge")


def start_after_challenge_named(word: str) -> StartAfterChallenge:
    try:
        return StartAfterChallenge(word)
    except ValueError:
        raise IllegalAction("start-after-challenge is loser or winner") from None


MAX_NAME = 40
"""Characters in a name: enough for "Mary Ann Whitfield-Okonkwo", short enough for a seat's label."""
INVISIBLE = frozenset({"Cc", "Cf", "Mn", "Me", "Zs", "Zl", "Zp"})


def check_name(name: str, who: Literal["seat", "player"] = "seat") -> str:
    """The name as kept, or IllegalAction: any text a person can read on one line is a name.

    Names are NFC-normalised here, at the one door every name comes through, so
    "Zoë" typed with a composed or a combining diaeresis is one player.

    >>> check_name("[b]Zoe\u0308[/b] 🌶") == "[b]Zoë[/b] 🌶"
    True
    >>> check_name("\u200b ")
    Traceback (most recent call last):
    companion.rules.errors.IllegalAction: a seat needs a name
    """
    name = unicodedata.normalize("NFC", name)
    if all(unicodedata.category(c) in INVISIBLE for c in name):
        raise IllegalAction("a player needs a name") if who == "player" else IllegalAction("a seat needs a name")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
        raise IllegalAction("{name!r}: a name is one line of text, without control characters", name=name)
    if len(name) > MAX_NAME:
        raise IllegalAction(
            "a name has at most {most} characters; {start}… has {length}",
            most=MAX_NAME, start=name[:MAX_NAME], length=len(name),
        )
    return name


def starting_stack(setup: Setup) -> int:
    """Five-spices turns one card face up to start the stack; the numbered games start with none."""
    return 0 if setup.profile.numbered else 1


def starting_draw_pile(setup: Setup) -> int:
    """The draw pile after the deal: above the World's End card, less the five-spice game's face-up card."""
    profile = setup.profile
    return profile.spice_cards - profile.hand_size * len(setup.names) - setup.end_card - starting_stack(setup)


def start(setup: Setup) -> State:
    """Deal: hands, the draw pile above the World's End card, trophies, universals."""
    profile = setup.profile
    seats_n = len(setup.names)
    hand = profile.hand_size + (1 if profile.universals else 0)
    seats = tuple(Seat(name, hand, universals=1 if profile.universals else 0) for name in setup.names)
    return State(
        setup=setup,
        seats=seats,
        turn=setup.first,
        draw_pile=starting_draw_pile(setup),
        stack=starting_stack(setup),
        universal_pile=profile.universals - seats_n if profile.universals else 0,
        trophies_left=profile.trophies,
    )
