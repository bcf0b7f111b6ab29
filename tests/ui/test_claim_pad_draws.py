"""What an action draws again: each key of the claim pad whose look changed, once; a pad not shown, and the
closed challenge sheet, nothing. Counted by the changes Kivy dispatches, the ones that redraw a key."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kivy.uix.widget import Widget

from companion.rules import SPICY, new_setup
from companion.ui.widgets.claim_pad import ClaimPad
from table_helpers import Table

ANA, BEN, CY = 0, 1, 2
LOOKS = {"NumberButton": ("spice", "dimmed"), "SpiceButton": ("dimmed", "selected")}
"""What a key's look follows: a change of one draws the key again."""


def count_changes(pad: ClaimPad) -> Counter[tuple[int, str]]:
    """From now on, how often each key's look and the check's place change, by (key, property)."""
    changes: Counter[tuple[int, str]] = Counter()
    keys: list[Widget] = [*pad.ids.numbers.children, *pad.ids.spices.children]
    for number, key in enumerate(keys, start=1):
        for name in LOOKS[type(key).__name__]:
            key.fbind(name, lambda *_args, number=number, name=name: changes.update([(number, name)]))
    pad.ids.check.fbind("target", lambda *_args: changes.update([(0, "target")]))
    return changes


def test_a_card_laid_draws_each_key_that_changed_once(ui: Any) -> None:
    """Ana lays wasabi 1 on a new stack: Ben's pad stays on wasabi, 1 dims. Followed a field at a time, the
    keys went blank and back to wasabi three times over (the turn, the card on top, the stack's spice)."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    pad = table.screen.ids.pad
    table.declare("wasabi")
    changes = count_changes(pad)
    table.declare("wasabi", 1)
    assert table.view.turn == BEN and pad.spice == "wasabi"
    assert [pad.ids.numbers.children[-1].dimmed, pad.ids.numbers.children[-2].dimmed] == [True, False]
    assert changes and max(changes.values()) == 1, changes
    assert not any(name == "spice" for _key, name in changes)  # the number keys stay wasabi's colour


def test_the_challenge_sheets_pad_follows_the_table_only_while_shown(ui: Any) -> None:
    """Folded away on the challenge sheet until a challenge may move, its pad draws nothing at each action,
    and shows the table as it is when it unfolds."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    pad = table.screen._sheets["challenge"].ids.pad
    changes = count_changes(pad)
    table.declare("chili", 1)
    table.declare("chili", 2)
    table.declare("chili", 3)
    assert not changes and not pad.following
    table.declare("chili", 4)  # Ana, and Cy slaps it: the sheet offers to move the challenge to Ben's next card
    table.buzz((CY, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.move)
    ui.step(2)
    assert pad.following and pad.spice == "chili"
    assert [key.dimmed for key in reversed(pad.ids.numbers.children)] == [True] * 4 + [False] * 6


def test_a_cancelled_challenge_leaves_the_closed_sheet_as_it_was_drawn(ui: Any) -> None:
    """Cancel closes the challenge sheet: folded away for no buzz and unfolded for the next, each of its
    words was drawn again on the frame the next challenge showed. Ben challenges twice: the second time
    nothing of the sheet but what differs is drawn."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    table.declare("chili", 1)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    sheet = table.sheet()
    choices = sheet.ids.not_spice.parent
    unfolded = choices.height
    table.tap(sheet.ids.cancel)
    ui.step(2)
    assert table.screen.sheet_name == "" and table.view.buzz is None
    assert choices.height == unfolded and not choices.disabled
    drawn: list[str] = []
    for label in (sheet.ids.title, sheet.ids.call):
        label.fbind("texture", lambda label, _texture: drawn.append(label.text))
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    assert sheet.ids.title.text == "Ben challenges Ana's Chili 1" and sheet.ids.call.text == "What does Ben call?"
    assert drawn == []
