"""Starting a game answers the tap in its own frame, and the end screen is made before the game ends."""

from __future__ import annotations

from kivy.base import EventLoop

from companion.rules import SPICY, new_setup
from companion.ui import theme
from companion.ui.screens.end import ScoreRow
from conftest import Touch
from table_helpers import Table, on_the_last_step

NAMES = ("Ana", "Ben", "Cy")


def test_start_the_game_says_so_in_the_frame_of_the_tap_and_a_second_tap_starts_nothing(ui) -> None:
    app, setup = on_the_last_step(ui, NAMES)
    ui.step(2)
    start = setup.ids.next
    assert start.text == "Start the game"
    touch = Touch(*start.to_window(*start.center))
    EventLoop.post_dispatch_input("begin", touch)
    ui.step()
    EventLoop.post_dispatch_input("end", touch)
    ui.step()  # the frame that reads the release, drawn before the game is built
    assert app.root.current == "setup" and start.text == "Starting…" and app.session is None
    ui.tap(start)  # tapped again while it starts
    ui.until(lambda: app.root.current == "table")
    ui.step(3)
    assert len(app.store.list_games()) == 1 and [seat.name for seat in app.session.state.seats] == list(NAMES)
    app.show("home")
    app.show("setup")
    assert not setup.starting and setup.ids.next.text == "Next"


def test_the_end_screen_has_its_rows_before_the_end_and_the_end_only_fills_them(ui) -> None:
    table = Table(ui, new_setup(SPICY, list(NAMES), first=0))
    app = table.app
    assert app.root.has_screen("end")  # built while home showed
    end = app.screen("end")
    ui.until(lambda: len(end.ids.rows.children) == len(NAMES))  # prepared while the table plays
    rows = list(end.ids.rows.children)
    table.tap(table.screen.ids.draw_pile)
    table.tap(table.sheet().ids.end_card)  # the World's End card showed
    assert app.root.current == "end"
    assert list(end.ids.rows.children) == rows and all(isinstance(row, ScoreRow) for row in rows)
    scores = {seat.name: theme.signed(seat.score) for seat in table.view.seats}
    assert {row.name: row.score for row in rows} == scores and all(score for score in scores.values())
    assert all(row.winner == (row.name in {NAMES[i] for i in table.view.winners}) for row in rows)
    assert table.view.winners and [row.winner for row in reversed(rows)] == sorted(row.winner for row in rows)[::-1]


def test_the_end_screen_shows_first_and_the_table_under_it_follows_on_the_next_frame(ui) -> None:
    table = Table(ui, new_setup(SPICY, list(NAMES), first=0))
    app, view = table.app, table.view
    ui.step(3)
    ahead_of_the_end = view.turn
    assert ahead_of_the_end >= 0 and not any(seat.winner for seat in view.seats)
    view.end_card_showed()  # the World's End card: the game ends
    assert view.ended and view.winners and app.root.current == "end"  # what the end screen shows, at once
    assert view.turn == ahead_of_the_end and not any(seat.winner for seat in view.seats)  # the table waits
    ui.step()  # the end screen drawn
    ui.step()
    assert view.turn == -1 and [seat.winner for seat in view.seats] == [i in view.winners for i in range(len(NAMES))]
    assert [seat.score for seat in view.seats] == [facts.score for facts in view.model.seat_models]
    view.undo()  # the table again, as it was before the end
    ui.step(2)
    assert app.root.current == "table" and view.turn == ahead_of_the_end and not view.ended
    assert not any(seat.winner for seat in view.seats)
