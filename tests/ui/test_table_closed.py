"""A table that has closed hears nothing more from the buzzers, even a call the referee posted just before."""

from __future__ import annotations

import threading

from companion.buzzers import Decision, Ignored
from companion.rules import SPICY, new_setup
from table_helpers import Table

ANA, BEN, CY = 0, 1, 2


def test_a_decision_and_an_ignored_press_posted_before_a_new_game_reach_neither_table(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    old, referee = table.view, table.app.referee
    assert referee is not None
    table.declare("chili", 1)
    assert table.lit() == [BEN, CY]

    # The old table's own callbacks, told apart only by the moment each has been posted to the UI loop:
    # no frame runs until the new game is on the table, so both are still waiting when the old table closes.
    decided, ignored = threading.Event(), threading.Event()

    def post_decision(decision: Decision) -> None:
        old._decided(decision)
        decided.set()

    def post_ignored(press: Ignored) -> None:
        old._ignored(press)
        ignored.set()

    referee.report_to(post_decision, post_ignored)
    table.buzz((ANA, 0.0), (BEN, 0.001))  # Ana's own card: ignored; Ben: the challenge
    assert decided.wait(5) and ignored.wait(5)
    sounds, saved = list(table.sounds), old.actions_saved
    assert table.toast() == ""

    table.app.start_game(new_setup(SPICY, ["Dee", "Eve"], first=0))
    ui.step(5)

    new = table.screen.view
    assert new is not old and [seat.name for seat in new.seats] == ["Dee", "Eve"]
    assert table.sounds == sounds and table.toast() == ""
    assert old.buzz is None and old.actions_saved == saved
    assert not any(seat.challenger or seat.locked for seat in old.seats)
    assert new.buzz is None and new.actions_saved == 0 and table.screen.sheet_name == ""
    assert not any(seat.challenger or seat.locked for seat in new.seats)
