"""The claim pad: the seat to play picks a spice, then a number, and the card is played.

On a new stack no spice is picked for the seat: a number tapped first says to
choose the spice, so a hurried tap never lays a spice nobody meant.

Illegal spices and numbers are dimmed, never disabled: a tap on one still
reaches the engine, whose reason the table reads in a toast. A legal number
plays at once; undo is the safety net.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from companion.ui.widgets.mirror import Row
from companion.ui.theme import spice_icon
from companion.ui.view import TableView
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets import load_kv


class SpiceButton(BaseButton):
    spice = StringProperty("")
    selected = BooleanProperty(False)


class NumberButton(BaseButton):
    number = NumericProperty(0)
    spice = StringProperty("")
    claimed = BooleanProperty(False)
    """The number that was declared (the reveal sheet marks it)."""


class ClaimPad(Row):
    view = ObjectProperty(None, allownone=True, rebind=True)
    spice = StringProperty("")
    """The spice picked; numbers light up for it."""
    universal = BooleanProperty(False)
    tuck = NumericProperty(0)
    chain = BooleanProperty(False)
    spice_height = NumericProperty(0)
    number_font = NumericProperty(0)
    """Both larger in portrait: a standing screen is read from further away."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self._keys: tuple[tuple[str, ...], bool] | None = None
        """The spices and whether numbers: what the keys on the pad were made for."""
        self.bind(spice=self._dim, number_font=self._size_numbers)
        self.on_view(self, self.view)

    def on_view(self, _pad: ClaimPad, view: TableView | None) -> None:
        """A new game: what the pad composes starts afresh, and again at every card laid and every turn
        (a universal left on would be saved with the next number tapped)."""
        self._reset()
        if view is not None and "numbers" in self.ids:
            view.bind(spices=self._build, legal=self._pick_default, turn=self._reset, window_entry=self._reset,
                      stack_spice=self._reset)
            view.bind(legal=self._dim)
            self._build()

    def _build(self, *_args: Any) -> None:
        """The keys of the game's spices and numbers; kept when the next game has the same (a replay opened
        again, the next game of the evening): making them costs more than the rest of a table's opening."""
        keys = (tuple(self.view.spices), self.view.numbered)
        if keys != self._keys:
            self._keys = keys
            self._make_keys()
        self._pick_default()
        self._dim()

    def _make_keys(self) -> None:
        grid = self.ids.spices
        grid.clear_widgets()
        for spice in self.view.spices:
            button = SpiceButton(spice=spice, icon=spice_icon(spice))
            button.bind(on_release=self.tap_spice)
            grid.add_widget(button)
        numbers = self.ids.numbers
        numbers.clear_widgets()  # five-spices has no numbers: no hidden keys left to catch a touch
        numbers.height = 0  # kv sets it once: a grid that had keys keeps their height when it stops being stretched
        if self.view.numbered:
            for number in range(1, 11):
                key = NumberButton(number=number, font_size=self.number_font)
                key.bind(on_release=self.tap_number)
                numbers.add_widget(key)

    def _reset(self, *_args: Any) -> None:
        self.universal = False
        self.tuck = 0
        self.chain = False
        if self.view is not None and "spices" in self.ids:
            self.spice = ""
            self._pick_default()

    def _pick_default(self, *_args: Any) -> None:
        legal = self.view.legal
        if self.spice not in legal or not self.view.numbered:
            self.spice = self.view.stack_spice
        for button in self.ids.spices.children:
            button.dimmed = self.view.numbered and button.spice not in legal

    def _dim(self, *_args: Any) -> None:
        allowed = self.view.legal.get(self.spice, [])
        for key in self.ids.numbers.children:
            key.spice = self.spice
            key.dimmed = key.number not in allowed
        self.ids.check.target = None
        for button in self.ids.spices.children:
            button.selected = button.spice == self.spice and self.view.numbered
            if button.selected:
                self.ids.check.target = button

    def _size_numbers(self, *_args: Any) -> None:
        for key in self.ids.numbers.children:
            key.font_size = self.number_font

    def tap_spice(self, button: SpiceButton) -> None:
        view: TableView = self.view
        if not view.numbered:
            if self.chain:
                view.chain(button.spice)
            else:
                view.declare(button.spice)
            self.chain = False
            return
        self.spice = button.spice
        if button.dimmed:
            view.explain(button.spice)

    def tap_number(self, button: NumberButton) -> None:
        if self.view.declare(self.spice, button.number, self.universal, self.tuck):
            self._reset()

    def next_tuck(self) -> None:
        self.tuck = (self.tuck + 1) % 3


load_kv(__file__)
