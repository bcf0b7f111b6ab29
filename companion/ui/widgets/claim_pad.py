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
    following = BooleanProperty(True)
    """False while the pad is not shown (the challenge sheet's, until a challenge may move): its keys are
    made with the game's, and follow the table again when it shows, not at every action meanwhile."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self._keys: tuple[tuple[str, ...], bool] | None = None
        """The spices and whether numbers: what the keys on the pad were made for."""
        self._moment: tuple[int, object, str] | None = None
        """The seat to play, the card on top and the stack's spice the pad last started afresh for."""
        self._followed: TableView | None = None
        self.bind(spice=self._dim, number_font=self._size_numbers)
        self.on_view(self, self.view)

    def on_view(self, _pad: ClaimPad, view: TableView | None) -> None:
        """A new game: what the pad composes starts afresh, and again at every card laid and every turn
        (a universal left on would be saved with the next number tapped)."""
        if self._followed is not None:
            self._followed.unbind(on_copied=self._follow)
        self._followed = None
        self._moment = None
        if view is None or "numbers" not in self.ids:
            self._reset()
            return
        self._followed = view
        view.bind(on_copied=self._follow)
        self._follow()

    def _follow(self, *_args: Any) -> None:
        """The view holds a new model: the pad follows it once, when all of its fields are in (one field at a
        time, the keys were composed six to eight times an action, a quarter of its CPU), and only the keys
        whose look changed are drawn again. The keys of the game's spices and numbers are kept when the next
        game has the same (a replay opened again, the next game of the evening): making them costs more than
        the rest of a table's opening."""
        view: TableView = self.view
        keys = (tuple(view.spices), view.numbered)
        if keys != self._keys:
            self._keys = keys
            self._make_keys()
        if not self.following:
            return
        moment = (view.turn, view.window_entry, view.stack_spice)
        if moment != self._moment:
            self._moment = moment
            self._reset()
        else:
            self._pick(self.spice if self.spice in view.legal and view.numbered else view.stack_spice)

    def on_following(self, _pad: ClaimPad, following: bool) -> None:
        if following and self._followed is not None:
            self._follow()

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

    def _reset(self) -> None:
        """The claim starts afresh: no universal, no tuck, no chain, on the stack's spice."""
        self.universal = False
        self.tuck = 0
        self.chain = False
        if self.view is not None and "spices" in self.ids:
            self._pick(self.view.stack_spice)

    def _pick(self, spice: str) -> None:
        """``spice`` picked and the keys dimmed for what is legal now: each key's look set once."""
        legal, numbered = self.view.legal, self.view.numbered
        for button in self.ids.spices.children:
            button.dimmed = numbered and button.spice not in legal
        if spice != self.spice:
            self.spice = spice  # its binding dims the numbers
        else:
            self._dim()

    def _dim(self, *_args: Any) -> None:
        allowed = self.view.legal.get(self.spice, [])
        for key in self.ids.numbers.children:
            key.spice = self.spice
            key.dimmed = key.number not in allowed
        picked = None
        for button in self.ids.spices.children:
            button.selected = button.spice == self.spice and self.view.numbered
            if button.selected:
                picked = button
        self.ids.check.target = picked

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
