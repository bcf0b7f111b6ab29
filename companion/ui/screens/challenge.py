"""The challenge sheet: who buzzed first, who was later and by how much, and what they call.

A tie (two edges at the very same time) asks the table which seat challenges.
Cancel reopens the window, as if nobody had buzzed.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, DictProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.metrics import sp
from kivy.uix.widget import Widget

from companion.ui.widgets.mirror import Row
from companion.ui.i18n import tr
from companion.ui.view import Buzz, TableView
from companion.ui.words import Sentence, delay, spice_name
from companion.ui.widgets import SecondaryButton, load_kv, short
from companion.ui.widgets.buttons import KeptClear
from companion.ui.widgets.fit import lines_size
from companion.ui.widgets.sheet import Sheet
from companion.ui.widgets.stack_card import StackCard

load_kv(__file__)
__all__ = ["BigChoice", "ChallengeSheet", "StackCard"]


class BigChoice(KeptClear, ButtonBehavior, Row):
    """A choice big enough to slap: the claim's spice or number struck through, a title, and one line
    saying what it means."""

    title = StringProperty("")
    line = StringProperty("")
    """What it means, a template whose {name} gives way to fit (``fit_names``), never its words."""
    name = StringProperty("")
    words = DictProperty()
    """The line's other fields: the spice or the number called against."""
    fill = ColorProperty()
    ink = ColorProperty()
    kind = OptionProperty("spice", options=["spice", "number"])
    """What the choice calls false: its mark strikes the claim's spice or its number."""
    spice = StringProperty("")
    number = NumericProperty(0)


class TieChoice(KeptClear, SecondaryButton):
    """One of the seats that buzzed at the very same time: a tap names it the challenger."""


class ChallengeSheet(Sheet):
    buzz = ObjectProperty(None, allownone=True)
    """The buzz drawn: the view's last one, or until the first a stand-in that lays the sheet out ahead
    (``prepare``)."""
    standing = BooleanProperty(False)
    """The stand-in buzz is drawn: the sheet shows all it can show, the offer to move the challenge too."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self._places = {place.children[0]: place for place in (self.ids.pad_place, self.ids.move_place)}
        """The parts shown only now and then, and where each goes; kept here while out of the sheet (by the
        widget itself: ``ids`` keeps only a weak proxy)."""
        for part in self._places:
            part.bind(height=self._place)
            self._place(part, part.height)

    def _place(self, part: Widget, height: float) -> None:
        """A part folded away (no height) leaves the sheet: Kivy would still draw each of its keys, transparent
        (tests/ui/test_drawing.py), and take touches on them."""
        place = self._places[part]
        if height and part.parent is None:
            place.add_widget(part)
        elif not height and part.parent is not None:
            place.remove_widget(part)

    def on_view(self, _sheet: ChallengeSheet, view: TableView | None) -> None:
        if view is not None:
            view.bind(buzz=self._follow)
            self.buzz = view.buzz

    def _follow(self, _view: TableView, buzz: Buzz | None) -> None:
        """The view's buzz, drawn; a buzz gone (called, cancelled, undone) closes the sheet and leaves it as it
        was drawn: folded away for no buzz and unfolded again for the next, every part of it was laid out
        and its every word drawn again in the frame the next challenge shows (docs/PERFORMANCE.md)."""
        if buzz is not None:
            self.buzz = buzz

    def on_buzz(self, _sheet: ChallengeSheet, buzz: Buzz | None) -> None:
        row = self.ids.tie
        row.clear_widgets()
        for seat in buzz.tie if buzz is not None else ():
            button = TieChoice(text=short(self.view.seats[seat].name))
            button.bind(on_release=lambda _b, seat=seat: self.view.pick(seat))
            row.add_widget(button)

    def stand_in(self, standing: bool) -> None:
        """With a stand-in buzz, the sheet lays itself out as a challenge shows it, ahead of the first one
        (``TableScreen.prepare``); without, it draws the view's buzz again."""
        self.standing = standing
        if standing:
            self.buzz = Buzz(0, later=((1, 1.0),))
        else:
            self._follow(self.view, self.view.buzz)  # no buzz: the sheet stays closed, laid out as a challenge shows it

    def challenger_name(self, view: TableView | None, *_deps: Any) -> str:
        buzz = self.buzz
        if view is None or buzz is None or buzz.challenger is None:
            return ""
        return view.seats[buzz.challenger].name

    def title(self, view: TableView, *_deps: Any) -> Sentence:
        """Who challenges which card: a challenge as the next card lands may be meant for that card, so the
        sheet says the one it is on ("Dee challenges Ana's Chili 4")."""
        name = self.challenger_name(view)
        if not name:
            return Sentence(tr._("A tie! Who challenges?"), {})
        if view.top_player < 0:
            return Sentence(tr._("{name} challenges!"), {"name": name})
        claim = f"{spice_name(view.claim_spice)} {view.claim_number}"
        template = tr._("{name} challenges {player}'s {claim}").replace("{claim}", claim)
        return Sentence(template, {"name": name, "player": view.seats[view.top_player].name})

    def title_size(self, view: TableView, width: float, size: float, *_deps: Any) -> float:
        """The title's size: ``size``, or smaller for the whole title to fit on one line, down to 24 sp."""
        return max(sp(24), lines_size(self.title(view).text, size, width))

    def move_text(self, view: TableView, moving: bool, move_to: int, standing: bool) -> Sentence:
        """The one tap that moves the challenge to the card the seat to play has just laid, or keeps it."""
        if moving:
            return Sentence(tr._("Keep it on {name}'s card"), {"name": view.seats[view.top_player].name})
        return Sentence(tr._("For the card {name} just laid"), {"name": view.seats[1 if standing else move_to].name})

    def later_text(self, view: TableView | None, *_deps: Any) -> Sentence:
        """Who pressed after the challenger and by how much; who pressed as the card landed, before its claim
        was tapped (their press counted all the same)."""
        buzz = self.buzz
        if view is None or buzz is None:
            return Sentence("", {})
        names: dict[str, str] = {}
        lines = []
        for seat in buzz.before_tap:
            field = f"name{len(names)}"
            names[field] = view.seats[seat].name
            lines.append(tr._("{name} pressed before the claim was tapped").format(name="{" + field + "}"))
        if buzz.later:
            presses = []
            for seat, ms in buzz.later:
                field = f"name{len(names)}"
                names[field] = view.seats[seat].name
                presses.append(f"{{{field}}} {delay(ms)}")
            lines.append(tr._("{presses}   later, too late").format(presses="   ".join(presses)))
        return Sentence("   ·   ".join(lines), names)
