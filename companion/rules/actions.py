"""Everything a seat or the table can tell the companion, as small frozen values.

Seats are indexes into the setup's names, so an action means the same thing in
the database, in a transcript and on the screen. ``to_dict``/``action_from_dict``
give the JSON form the store keeps.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from companion.rules.cards import Attribute, Card
from companion.rules.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Action:
    keyword: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.keyword, **asdict(self)}


@dataclass(frozen=True, slots=True)
class Play(Action):
    """One card face down on the stack, declaring a claim (number None in five-spices)."""

    keyword: ClassVar[str] = "play"
    seat: int
    spice: str
    number: int | None = None
    universal: bool = False
    tuck: int = 0
    """change-your-luck: extra cards tucked under a declared 5."""


@dataclass(frozen=True, slots=True)
class Copy(Action):
    """copy-cat: a card declaring exactly the top card's claim, out of turn."""

    keyword: ClassVar[str] = "copy"
    seat: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Spicy: draw one card instead of playing."""

    keyword: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Five-spices: draw one card as the turn."""

    keyword: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """"Not that spice!" / "Not that number!" (five-spices: no attribute)."""

    keyword: ClassVar[str] = "challenge"
    seat: int
    attribute: Attribute | None = None


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """The challenged card turned face up."""

    keyword: ClassVar[str] = "reveal"
    card: Card


@dataclass(frozen=True, slots=True)
class Resolve(Action):
    """The outcome told directly, without the card."""

    keyword: ClassVar[str] = "resolve"
    challenger_right: bool


@dataclass(frozen=True, slots=True)
class TakeUniversal(Action):
    """Sweet & Spicy: the loser of a challenge takes a universal card from the pile."""

    keyword: ClassVar[str] = "take-universal"
    seat: int


@dataclass(frozen=True, slots=True)
class EndCardDrawn(Action):
    """The table saw the World's End card."""

    keyword: ClassVar[str] = "end-card-drawn"


@dataclass(frozen=True, slots=True)
class Adjust(Action):
    """Set one drifted count; nothing else moves."""

    keyword: ClassVar[str] = "adjust"
    seat: int
    count: str
    """``hand`` or ``won``."""
    value: int


@dataclass(frozen=True, slots=True)
class AdjustDrawPile(Action):
    """Set the cards still above the World's End card, as the table counts them (``adjust draw-pile N``)."""

    keyword: ClassVar[str] = "adjust-draw-pile"
    value: int


@dataclass(frozen=True, slots=True)
class Undo(Action):
    keyword: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Redo(Action):
    keyword: ClassVar[str] = "redo"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.keyword: cls
    for cls in (
        Play, Copy, Pass, Draw, Challenge, Reveal, Resolve, TakeUniversal, EndCardDrawn, Adjust, AdjustDrawPile,
        Undo, Redo,
    )
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of ``Action.to_dict``; a malformed record is refused, not guessed at."""
    try:
        cls = ACTION_TYPES[data["action"]]
        values = {f.name: data[f.name] for f in fields(cls)}
        if cls is Reveal:
            values["card"] = Card(**values["card"])
        return cls(**values)
    except (KeyError, TypeError) as exc:
        raise IllegalAction("not an action record: {data} ({problem})", data=repr(data), problem=str(exc)) from None
