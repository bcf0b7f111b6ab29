"""The game being set up, before anything is saved: rules, seats, colours, buzzers, first player.

Plain Python so its rules are tested without a window; the set-up screen only
shows it and turns taps into calls. Each refused change raises
:class:`SetupRefused` with a sentence for a toast and leaves the draft as it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.rules import (
    PROFILES, SPICY, IllegalAction, Profile, Setup, StartAfterChallenge, check_name, new_setup,
)
from companion.rules.profiles import MAX_VARIANTS
from companion.ui.bidi import named
from companion.ui.i18n import say, tr
from companion.table.seating import Seating

MIN_SEATS, MAX_SEATS = 2, 6
COLOURS = 6
"""How many seat colours the theme has."""


class SetupRefused(ValueError):
    """A change the set-up cannot take; the message says why, for the table."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words
        """The message as given: a ``bidi.Named`` knows where the name in it is, which ``str()`` leaves out."""


@dataclass
class Draft:
    profile: Profile = SPICY
    variants: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    colours: list[int] = field(default_factory=list)
    buzzers: list[int | None] = field(default_factory=list)
    """The buzzer pressed for each seat; None until that seat has pressed one."""
    first: int | None = None
    """The seat that plays first; None until chosen or drawn."""
    end_card: int | None = None
    """Cards under the World's End card; None means the rules' default for this many seats."""
    start_after_challenge: StartAfterChallenge = StartAfterChallenge.LOSER
    """Who starts the next stack after a challenge: the rule (the loser) or the house option (the winner)."""

    @classmethod
    def again(cls, setup: Setup, seating: Seating, rng: random.Random) -> Draft:
        """The same table as a game before: its rules, seats in their order, colours and buzzers; the first
        player drawn again, as the rules have it."""
        seats = len(setup.names)
        return cls(
            profile=setup.profile,
            variants=sorted(setup.variants),
            names=list(setup.names),
            colours=list(seating.colours),
            buzzers=list(seating.buzzers),
            first=rng.randrange(seats),
            end_card=setup.end_card if setup.profile.end_card else None,
            start_after_challenge=setup.start_after_challenge,
        )

    # --- rules -------------------------------------------------------------------------------

    def choose_profile(self, profile_id: str) -> None:
        self.profile = PROFILES[profile_id]
        if not self.profile.numbered:
            self.variants.clear()
            self.start_after_challenge = StartAfterChallenge.LOSER
        self.end_card = None

    def choose_start_after_challenge(self, who: str) -> None:
        if not self.profile.numbered:
            raise SetupRefused(tr._("In the five-spice game the seat after the challenger plays next"))
        self.start_after_challenge = StartAfterChallenge(who)

    def toggle_variant(self, variant: str) -> None:
        if variant in self.variants:
            self.variants.remove(variant)
            return
        if not self.profile.numbered:
            raise SetupRefused(tr._("Variant cards belong to Spicy and Sweet & Spicy, not the five-spice game"))
        if len(self.variants) >= MAX_VARIANTS:
            raise SetupRefused(tr._("At most two variant cards: take one out first"))
        self.variants.append(variant)

    # --- seats -------------------------------------------------------------------------------

    def add_seat(self, name: str) -> None:
        name = name.strip()
        try:
            check_name(name)
        except IllegalAction:
            raise SetupRefused(tr._("A seat needs a name on one line")) from None
        if name in self.names:
            raise SetupRefused(named(tr._("{name} already has a seat"), {"name": name}))
        if len(self.names) >= MAX_SEATS:
            raise SetupRefused(tr._("Six seats at most"))
        self.names.append(name)
        self.colours.append(next(c for c in range(COLOURS) if c not in self.colours))
        self.buzzers.append(None)
        self.first = None
        self.end_card = None

    def remove_seat(self, seat: int) -> None:
        for values in (self.names, self.colours, self.buzzers):
            del values[seat]
        self.first = None
        self.end_card = None

    def move_later(self, seat: int) -> None:
        """Swap a seat with the next one clockwise (the last with the first): enough for any order."""
        other = (seat + 1) % len(self.names)
        columns: tuple[list[Any], ...] = (self.names, self.colours, self.buzzers)
        for values in columns:
            values[seat], values[other] = values[other], values[seat]
        self.first = None

    def next_colour(self, seat: int) -> None:
        """The next colour no other seat wears."""
        taken = set(self.colours) - {self.colours[seat]}
        colour = self.colours[seat]
        for _ in range(COLOURS):
            colour = (colour + 1) % COLOURS
            if colour not in taken:
                break
        self.colours[seat] = colour

    # --- buzzers and the first player --------------------------------------------------------

    def bind_buzzer(self, seat: int, buzzer: int) -> None:
        """``buzzer`` is now this seat's; a seat that had it before loses it."""
        self.buzzers = [None if b == buzzer else b for b in self.buzzers]
        self.buzzers[seat] = buzzer

    def press_buzzer(self, buzzer: int) -> int | None:
        """A press while the seats pair their buzzers: it goes to the next seat still waiting, and that seat
        is returned. A buzzer already paired changes nothing (None): a seat slapping its own twice must not
        hand it to the seat after."""
        seat = self.unbound_seat()
        if seat is None or buzzer in self.buzzers:
            return None
        self.bind_buzzer(seat, buzzer)
        return seat

    def unbound_seat(self) -> int | None:
        """The next seat still to press its buzzer, clockwise."""
        return next((seat for seat, b in enumerate(self.buzzers) if b is None), None)

    def draw_first(self, rng: random.Random) -> int:
        self.first = rng.randrange(len(self.names))
        return self.first

    # --- the table's own set-up --------------------------------------------------------------

    @property
    def end_card_range(self) -> tuple[int, int]:
        """Fewest and most cards the World's End card can have under it, for this many seats."""
        return 0, self.profile.spice_cards - self.profile.hand_size * len(self.names)

    def end_card_value(self) -> int:
        if self.end_card is not None:
            return self.end_card
        return self.profile.default_end_card(len(self.names))

    def adjust_end_card(self, step: int) -> None:
        low, high = self.end_card_range
        self.end_card = min(high, max(low, self.end_card_value() + step))

    def setup(self) -> Setup:
        """The rules' set-up; raises SetupRefused with the reason when it is not complete."""
        if len(self.names) < MIN_SEATS:
            raise SetupRefused(tr._("Two seats at least"))
        if self.first is None:
            raise SetupRefused(tr._("Choose who plays first, or draw"))
        end_card = self.end_card_value() if self.profile.end_card else None
        try:
            return new_setup(
                self.profile, self.names, end_card, self.first, frozenset(self.variants), self.start_after_challenge
            )
        except IllegalAction as exc:
            raise SetupRefused(say(exc.reason)) from None

    def seating(self, buzzers: int) -> Seating:
        """Colours, and buzzers with every seat that did not press given a free one in wiring order."""
        free = iter(b for b in range(max(buzzers, len(self.names))) if b not in self.buzzers)
        return Seating(tuple(self.colours), tuple(b if b is not None else next(free) for b in self.buzzers))
