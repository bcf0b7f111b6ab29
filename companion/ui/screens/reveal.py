"""The reveal sheet: the challenged card is turned over and the table taps what it shows.

Every card the profile has is one tap away (spice and number, wild spice, wild
number); when nobody can show the card, the table says who was right. Cancel
takes the challenge back (an undo).
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.rules import Card
from companion.ui.i18n import tr
from companion.ui.theme import spice_icon
from companion.ui.view import TableView
from companion.ui.words import Sentence, claim_words, sentence
from companion.ui.widgets import load_kv
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.marks import ClaimMark  # noqa: F401  (used in the kv)
from companion.ui.widgets.sheet import Sheet


class SpiceLabel(BaseButton):
    """The head of a spice's row: its icon and word, so the table matches the card's picture to the row."""

    spice = StringProperty("")


load_kv(__file__)


class RevealSheet(Sheet):
    _keys: tuple[tuple[str, ...], bool] | None = None
    """The spices and whether numbers, that the cards' keys were made for."""

    def on_view(self, _sheet: RevealSheet, view: TableView | None) -> None:
        if view is not None:
            view.bind(spices=self._build, pending=self._mark_claim)
            self._build()

    def on_size(self, *_args: Any) -> None:
        self._shape()

    def _build(self, *_args: Any) -> None:
        """One key per card the profile has; built when the rules change, not on every play nor for the next
        game of the same rules. Each spice gets a row: its name, then its numbers."""
        view: TableView = self.view
        keys = (tuple(view.spices), bool(view.numbered))
        if keys != self._keys:
            self._keys = keys
            self._make_keys(view)
        self._shape()
        self._mark_claim()

    def _make_keys(self, view: TableView) -> None:
        cards = self.ids.cards
        cards.clear_widgets()
        if not view.numbered:
            grid = GridLayout(cols=3, spacing=dp(6))
            for spice in view.spices:
                button = SpiceButton(spice=spice, icon=spice_icon(spice))
                button.bind(on_release=lambda b: self.view.reveal(Card(b.spice, None)))
                grid.add_widget(button)
            cards.add_widget(grid)
        for spice in view.spices if view.numbered else ():
            row = BoxLayout(spacing=dp(6))
            row.add_widget(SpiceLabel(spice=spice, icon=spice_icon(spice)))
            numbers = GridLayout(spacing=dp(6))
            for number in range(1, 11):
                key = NumberButton(spice=spice, number=number)
                key.bind(on_release=lambda b: self.view.reveal(Card(b.spice, b.number)))
                numbers.add_widget(key)
            row.add_widget(numbers)
            cards.add_widget(row)

    def _shape(self) -> None:
        """Landscape, a spice's name heads a row of ten; portrait, it tops two rows of five."""
        upright = self.height > self.width
        for row in self.ids.cards.children if self.view is not None and self.view.numbered else ():
            label, numbers = row.children[1], row.children[0]
            row.orientation = "vertical" if upright else "horizontal"
            numbers.cols = 5 if upright else 10
            label.size_hint = (1, None) if upright else (None, 1)
            label.size = (label.width, dp(56)) if upright else (dp(128), label.height)

    def _mark_claim(self, *_args: Any) -> None:
        view: TableView = self.view
        self.ids.claim_mark.target = None
        for key in self.ids.cards.walk(restrict=True):
            if isinstance(key, NumberButton):
                key.claimed = key.spice == view.claim_spice and key.number == view.claim_number
                if key.claimed:
                    self.ids.claim_mark.target = key

    def title_text(self, view: TableView | None, *_deps: Any) -> Sentence:
        if view is None or view.top_player < 0:
            return Sentence("", {})
        return sentence(tr._("Flip {name}'s card. Which is it?"), {"name": view.seats[view.top_player].name})

    def line_text(self, view: TableView | None, *_deps: Any) -> Sentence:
        if view is None or view.challenger < 0:
            return Sentence("", {})
        claim = claim_words(view.claim_spice, view.claim_number or None)
        called = {"spice": tr._('"not that spice!"'), "number": tr._('"not that number!"')}.get(
            view.pending_attribute, tr._('"challenge!"'))
        return sentence(tr._("{name} called {called} on {claim}"), {"name": view.seats[view.challenger].name},
                        called=called, claim=claim)

    def reveal_wild(self, wild: str) -> None:
        self.view.reveal(Card.wild_spice() if wild == "wild-spice" else Card.wild_number())
