"""What the table says aloud (``companion.ui.speech``), in the catalogue's words: the sentences the screen
already shows for the same moment, so a call and its sheet say one thing, translated once.

A call is one sentence for one event; when an action brings several (a result that ends the game), they
are said as one, so that the second does not cut the first short. ``ahead`` lists every call that can
be known when a game starts, for speech to make before it is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.rules import Action, Challenge, EndReason, Event
from companion.ui.i18n import tr
from companion.ui.words import Result, end_reason_text, winner_words

if TYPE_CHECKING:
    from companion.ui.view import TableView

LEVELS = ("calm", "warning", "danger")
"""The draw pile's levels towards the World's End card, in the order they come."""


def challenge_call(name: str) -> str:
    return tr._("{name} challenges!").format(name=name)


def tie_call() -> str:
    return tr._("A tie! Who challenges?")


def attribute_call(attribute: str) -> str:
    return tr._("Not that spice!") if attribute == "spice" else tr._("Not that number!")


def last_card_call(name: str) -> str:
    return tr._("{name}: last card!").format(name=name)


def level_call(level: str) -> str:
    """The draw pile's warning as its fuse says it, "" when calm."""
    return {"warning": tr._("World's End is near"), "danger": tr._("World's End next!")}.get(level, "")


def result_call(result: Result) -> str:
    """The result sheet's title and its sentence."""
    return f"{result.title} {result.detail.text}"


def end_call(names: Sequence[str], reason: str | None) -> str:
    """Who won, after the World's End card when it ended the game."""
    winner = winner_words(names).text
    return f"{end_reason_text(reason)} {winner}" if reason == EndReason.END_CARD else winner


def ahead(names: Sequence[str], end_card: bool) -> list[str]:
    """Every call a game of these seats can make but a challenge's result: the challenges first, as they
    come first."""
    calls = [challenge_call(name) for name in names]
    calls += [attribute_call("spice"), attribute_call("number"), tie_call()]
    calls += [last_card_call(name) for name in names]
    if end_card:
        calls += [level_call(level) for level in LEVELS[1:]]
    reasons = [None, EndReason.END_CARD] if end_card else [None]
    calls += [end_call([name], reason) for reason in reasons for name in names]
    return calls


def action_call(view: TableView, action: Action, events: Sequence[Event], result: Result | None,
                level_before: str, ended: bool) -> str:
    """What an action just applied makes the table say ("" for nothing); ``view`` shows the state after it."""
    calls: list[str] = []
    if isinstance(action, Challenge) and action.attribute is not None:
        calls.append(attribute_call(action.attribute))
    if result is not None:
        calls.append(result_call(result))
    calls += [last_card_call(view.name(event.seat)) for event in events
              if event.kind == "last-card" and event.seat is not None]
    if not ended and LEVELS.index(view.end_level) > LEVELS.index(level_before):
        calls.append(level_call(view.end_level))
    if ended:
        calls.append(end_call([view.name(seat) for seat in view.winners], view.end_reason or None))
    return " ".join(calls)
