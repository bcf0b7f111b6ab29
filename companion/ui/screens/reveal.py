"""The reveal sheet: the challenged card is turned over and the table taps what it shows.

Every card the profile has is one tap away (spice and number, wild spice, wild
number); when nobody can show the card, the table says who was right. Cancel
takes the challenge back (an undo).
"""

from __future__ import annotations

from typing import Any

from companion.rules import Card
from companion.ui.i18n import tr
from companion.ui.view import TableView, claim_words
from companion.ui.widgets import load_kv
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton, spice_icon
from companion.ui.widgets.sheet import Sheet

load_kv(__file__)


class RevealSheet(Sheet):
    def on_view(self, _sheet: RevealSheet, view: TableView | None) -> None:
        if view is not None:
            view.bind(spices=self._build, pending=self._mark_claim)
            self._build()

    def _build(self, *_args: Any) -> None:
        """One key per card the profile has; built when the profile changes, not on every play."""
        view: TableView = self.view
        grid = self.ids.cards
        grid.clear_widgets()
        grid.cols = 11 if view.numbered else 3
        for spice in view.spices:
            if view.numbered:
                grid.add_widget(SpiceButton(spice=spice, icon=spice_icon(spice), selected=True))
                for number in range(1, 11):
                    key = NumberButton(spice=spice, number=number)
                    key.bind(on_release=lambda b: self.view.reveal(Card(b.spice, b.number)))
                    grid.add_widget(key)
            else:
                button = SpiceButton(spice=spice, icon=spice_icon(spice))
                button.bind(on_release=lambda b: self.view.reveal(Card(b.spice, None)))
                grid.add_widget(button)
        self._mark_claim()

    def _mark_claim(self, *_args: Any) -> None:
        view: TableView = self.view
        for key in self.ids.cards.children:
            if isinstance(key, NumberButton):
                key.claimed = key.spice == view.claim_spice and key.number == view.claim_number

    def title_text(self, view: TableView | None, *_deps: Any) -> str:
        if view is None or view.top_player < 0:
            return ""
        return tr._("Flip {name}'s card. Which is it?").format(name=view.seats[view.top_player].name)

    def line_text(self, view: TableView | None, *_deps: Any) -> str:
        if view is None or view.challenger < 0:
            return ""
        claim = claim_words(view.claim_spice, view.claim_number or None)
        called = {"spice": tr._('"not that spice!"'), "number": tr._('"not that number!"')}.get(
            view.pending_attribute, tr._('"challenge!"'))
        return tr._("{name} called {called} on {claim}").format(
            name=view.seats[view.challenger].name, called=called, claim=claim)

    def reveal_wild(self, wild: str) -> None:
        self.view.reveal(Card.wild_spice() if wild == "wild-spice" else Card.wild_number())
