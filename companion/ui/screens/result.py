"""The result sheet: what the card was, one sentence on who won what, and every seat's new counts.

OK goes back to the table, where the seat named plays next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import ColorProperty, NumericProperty, StringProperty

from companion.ui.widgets.mirror import Row
from companion.ui.i18n import tr
from companion.ui.view import TableView
from companion.ui.words import Sentence, sentence
from companion.ui.widgets import load_kv
from companion.ui.widgets.sheet import Sheet
from companion.ui.widgets.stack_card import StackCard

load_kv(__file__)
__all__ = ["ResultSeat", "ResultSheet", "StackCard"]


class ResultSeat(Row):
    """A seat after the challenge: its counts and what they gained."""

    name = StringProperty("")
    colour = ColorProperty()
    score = StringProperty("")
    hand = NumericProperty(0)
    won = NumericProperty(0)
    hand_gain = NumericProperty(0)
    won_gain = NumericProperty(0)
    tab = StringProperty("")
    highlight = ColorProperty((0, 0, 0, 0))

    def counts_text(self, _: Callable[[str], str], *_deps: Any) -> str:
        """Hand and won with what they gained: each count's words held together by no-break spaces,
        so a narrow seat wraps between the counts, never inside one."""
        hand = tr._("hand {n}").format(n=self.hand) + (f" (+{self.hand_gain})" if self.hand_gain > 0 else "")
        won = tr._("won {n}").format(n=self.won) + (f" (+{self.won_gain})" if self.won_gain > 0 else "")
        counts = [hand, won] if self.score else [hand]
        return "   ".join(count.replace(" ", "\u00a0") for count in counts)


class ResultSheet(Sheet):
    def on_view(self, _sheet: ResultSheet, view: TableView | None) -> None:
        if view is not None:
            view.bind(result=self._fill)

    def _fill(self, *_args: Any) -> None:
        from companion.ui import theme

        strip = self.ids.seats
        strip.clear_widgets()
        view: TableView = self.view
        result = view.result
        if result is None:
            return
        for seat in view.seats:
            i = seat.index
            tab = ""
            highlight: tuple[float, ...] = (0, 0, 0, 0)
            if i == result.winner and result.won_gain[i]:
                tab, highlight = tr._("WINS THE STACK"), theme.ARMED
            elif i == result.starter:
                tab, highlight = tr._("STARTS NEXT"), theme.ACCENT
            strip.add_widget(ResultSeat(
                name=seat.name, colour=seat.colour,
                score=theme.signed(seat.score) if seat.score is not None else "",
                hand=seat.hand, won=seat.won, hand_gain=result.hand_gain[i], won_gain=result.won_gain[i],
                tab=tab, highlight=highlight,
            ))

    def starts_text(self, view: TableView | None, *_deps: Any) -> Sentence:
        if view is None or view.result is None or view.result.starter is None or view.ended:
            return Sentence("", {})
        return sentence(tr._("{name} to play: {hint}"), {"name": view.seats[view.result.starter].name}, hint=view.hint)
