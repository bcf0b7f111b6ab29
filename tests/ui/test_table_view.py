"""The table's view on its own: buzzers bound to seats in any wiring order, and undo through a challenge."""

from __future__ import annotations

import random
import time

from buzzers_fixtures import timed_factory
from companion.buzzers import GpioBuzzers, Referee, format_delay
from companion.random_play import random_action
from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, Card, Copy, Game, is_legal, new_setup
from companion.table.seating import Seating
from companion.table.session import Session
from companion.ui.view import TableView
from table_helpers import BUTTONS, LEDS

ANA, BEN, CY = 0, 1, 2


def test_buzzers_bound_at_set_up_arm_and_answer_for_their_seats(ui) -> None:
    app = ui.start()
    factory = timed_factory()
    seating = Seating(colours=(0, 1, 2), buzzers=(2, 0, 1))  # Ana's buzzer is wired third
    session = Session.new(app.store, new_setup(SPICY, ["Ana", "Ben", "Cy"]), seating=seating)
    with GpioBuzzers(BUTTONS[:3], LEDS[:3], pin_factory=factory) as buzzers:
        # The seats are the point here: a long settle leaves a busy machine room between the two presses.
        referee = Referee(buzzers, settle_ms=250)
        view = TableView(session, referee)
        view.declare("pepper", 2)
        referee.flush()  # the lights change on the referee's thread
        assert [b for b, pin in enumerate(LEDS[:3]) if factory.pin(pin).state] == [0, 1]  # Ben's and Cy's
        base = factory.ticks()
        factory.pin(BUTTONS[1]).press(at=base + 0.004)  # Cy
        factory.pin(BUTTONS[0]).press(at=base + 0.002)  # Ben, 2 ms earlier
        ui.until(lambda: view.buzz is not None)
        assert view.buzz.challenger == BEN and [(seat, format_delay(ms)) for seat, ms in view.buzz.later] == [(CY, "+2 ms")]
        view.close()
        referee.stop()


def test_undo_walks_back_through_a_challenge_and_redo_forward(ui) -> None:
    app = ui.start()
    view = TableView(Session.new(app.store, new_setup(SPICY, ["Ana", "Ben", "Cy"])))
    view.declare("chili", 3)
    view.press(CY)
    view.call("spice")
    view.reveal(Card("wasabi", 3))
    assert view.result is not None and view.seats[CY].won == 1
    view.undo()
    assert view.result is None and view.pending and view.challenger == CY and view.seats[CY].won == 0
    view.undo()
    assert not view.pending and view.window and view.buzz is None
    view.redo()
    view.redo()
    assert view.seats[CY].won == 1 and view.turn == ANA and not view.can_redo


def test_a_buzzer_decision_wakes_the_ui_loop_instead_of_waiting_for_the_next_frame(ui) -> None:
    """The referee's decision arrives as a *free* clock event: it ends the clock's sleep between frames
    (``free_all``, companion/pi/display.py), so the challenge sheet starts drawing at once; a plain
    ``@mainthread`` call would wait for the next frame's turn."""
    from kivy.clock import Clock

    app = ui.start()
    factory = timed_factory()
    session = Session.new(app.store, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    with GpioBuzzers(BUTTONS[:3], pin_factory=factory) as buzzers:
        referee = Referee(buzzers, settle_ms=5)
        view = TableView(session, referee)
        view.declare("pepper", 2)

        def wakes_the_clock() -> bool:
            return Clock.get_min_free_timeout() <= Clock.time()  # a free event is due: the clock's sleep ends

        assert not wakes_the_clock()
        base = factory.ticks()
        factory.pin(BUTTONS[CY]).press(at=base + 0.002)
        deadline = time.monotonic() + 5
        while not wakes_the_clock():  # no frame runs meanwhile: only the referee acts
            assert time.monotonic() < deadline, "the decision never asked to wake the clock"
            time.sleep(0.001)
        assert view.buzz is None  # delivered on the UI thread, not the referee's
        ui.step()
        assert view.buzz is not None and view.buzz.challenger == CY
        view.close()
        referee.stop()


def copy_cat_game_with_an_empty_handed_seat() -> tuple[Game, int]:
    """A Sweet & Spicy game with copy-cat at a moment a seat other than the top card's holds only its
    universal: the first such moment in seeded random play."""
    setup = new_setup(SWEET_SPICY, ["Ana", "Ben"], variants=["copy-cat"])
    for seed in range(500):
        rng, game = random.Random(seed), Game.start(setup)
        while not game.state.ended and len(game.log) < 300:
            state = game.state
            if state.window is not None and state.challenge is None:
                for seat, live in enumerate(state.seats):
                    if seat != state.window.player and live.spice_cards == 0:
                        return game, seat
            game = game.apply(random_action(game, rng))
    raise AssertionError("no such moment in 500 seeds")


def test_copy_cat_offers_no_copy_to_a_seat_without_a_spice_card(ui) -> None:
    app = ui.start()
    game, seat = copy_cat_game_with_an_empty_handed_seat()
    session = Session.new(app.store, game.setup)
    for action in game.log:
        session.apply(action)
    view = TableView(session)
    other = 1 - seat
    assert not is_legal(session.state, Copy(seat)) and not view.seats[seat].can_copy
    assert view.seats[other].can_copy == is_legal(session.state, Copy(other))


def test_the_five_spice_draw_pile_gauge_starts_where_the_engine_does(ui) -> None:
    app = ui.start()
    view = TableView(Session.new(app.store, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"])))
    assert view.draw_pile == view.draw_pile_start == 94
