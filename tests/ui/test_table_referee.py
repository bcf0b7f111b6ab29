"""Every challenge to the right seat on the right card: the table and its referee, with GPIO buzzers
(gpiozero's MockFactory), a decision late on the UI loop, a claim at the screen racing a buzzer."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from buzzers_fixtures import HandOver, timed_factory
from companion.buzzers import GpioBuzzers, Referee
from companion.config import BuzzerConfig
from companion.rules import FIVE_SPICES, SPICY, Challenge, Play, Profile, new_setup
from companion.table.session import Session
from companion.ui.screens.challenge import ChallengeSheet
from companion.ui.view import TableView
from table_helpers import BUTTONS, LEDS

ANA, BEN, CY = 0, 1, 2


class Wired:
    """A table of three on GPIO buzzers, its notices kept."""

    def __init__(self, ui, early_ms: float = 0.0, profile: Profile = SPICY) -> None:
        self.ui = ui
        app = ui.start()
        self.factory = timed_factory()
        self.buzzers = GpioBuzzers(BUTTONS[:3], LEDS[:3], pin_factory=self.factory)
        self.referee = Referee(self.buzzers, settle_ms=20, early_ms=early_ms)
        self.handed_over = HandOver(self.buzzers, self.referee)
        self.view = TableView(Session.new(app.store, new_setup(profile, ["Ana", "Ben", "Cy"])), self.referee)
        self.notices: list[str] = []
        self.view.bind(on_notice=lambda _v, text: self.notices.append(text))

    def press(self, seat: int, offset: float = 0.002) -> None:
        self.factory.pin(BUTTONS[seat]).press(at=self.factory.ticks() + offset)

    def decided_off_screen(self) -> None:
        """Let the referee decide and post its decision, without running the UI loop that would deliver it."""
        time.sleep(0.1)
        assert self.referee.flush()

    def close(self) -> None:
        self.view.close()
        self.referee.stop()
        self.buzzers.close()


@pytest.fixture
def wired(ui) -> Iterator[Wired]:
    table = Wired(ui, early_ms=BuzzerConfig().early_ms)  # as the app runs it
    yield table
    table.close()


def test_a_decision_reaching_the_table_after_a_chain_of_the_same_spice_is_dropped(ui) -> None:
    table = Wired(ui, profile=FIVE_SPICES)
    try:
        view = table.view
        assert view.declare("salt")  # Ana
        table.press(BEN)  # Ben challenges Ana's salt ...
        table.decided_off_screen()
        assert view.chain("salt")  # ... just as Ana chains another salt
        ui.step(3)  # the decision on the first salt reaches the screen now
        assert not view.pending and view.window and view.top_player == ANA
        assert list(view.session.game.log) == [Play(ANA, "salt"), Play(ANA, "salt")]
    finally:
        table.close()


@pytest.mark.parametrize(("taken_back", "on_top"), [(("undo",), ANA), (("undo", "redo"), BEN)])
def test_a_decision_reaching_the_table_after_an_undo_is_dropped(ui, wired: Wired, taken_back, on_top) -> None:
    """After an undo and a redo the card is back, but its window was closed: what was decided in it went with it."""
    view = wired.view
    view.declare("chili", 1)  # Ana
    view.declare("chili", 2)  # Ben
    wired.press(CY)  # Cy challenges Ben's card ...
    wired.decided_off_screen()
    for step in taken_back:  # ... and Ben's play is taken back (and played again)
        assert getattr(view, step)()
    ui.step(3)
    assert view.buzz is None and view.window and view.top_player == on_top


def test_an_adjust_while_a_decision_is_on_its_way_leaves_the_challenge_with_its_winner(ui, wired: Wired) -> None:
    view = wired.view
    view.declare("chili", 1)  # Ana
    wired.press(CY)  # Cy challenges ...
    wired.decided_off_screen()
    assert view.set_draw_pile(40)  # ... as the table corrects the draw pile: the same card on top
    wired.press(BEN)  # Ben, later
    wired.decided_off_screen()
    ui.step(3)
    assert view.buzz.challenger == CY
    assert wired.notices[-1] == "Ben buzzed too late: Cy challenges"


def test_a_claim_by_key_is_not_overtaken_by_a_later_buzzer(ui, wired: Wired) -> None:
    view = wired.view
    view.declare("chili", 1)
    assert view.press(CY)  # a key or a long press
    ui.until(lambda: view.buzz is not None)
    wired.press(BEN)
    wired.decided_off_screen()
    ui.step(3)
    assert view.buzz.challenger == CY
    assert wired.notices[-1] == "Ben buzzed too late: Cy challenges"


def test_a_buzzer_decision_first_makes_a_claim_by_key_later(ui, wired: Wired) -> None:
    view = wired.view
    view.declare("chili", 1)
    wired.press(BEN)
    wired.decided_off_screen()
    assert view.press(CY)  # the key is pressed before the decision reaches the screen
    ui.until(lambda: view.buzz is not None)
    ui.step(3)
    assert view.buzz.challenger == BEN
    assert wired.notices[-1] == "Cy buzzed too late: Ben challenges"


@pytest.mark.parametrize("called", [False, True], ids=["on the sheet", "after the call"])
def test_an_earlier_press_that_arrived_after_the_decision_is_shown_as_contested(ui, wired: Wired, called) -> None:
    view = wired.view
    view.declare("chili", 1)
    base = wired.factory.ticks()
    wired.factory.pin(BUTTONS[BEN]).press(at=base + 0.010)
    ui.until(lambda: view.buzz is not None)
    if called:
        assert view.call("number")  # Ben calls before Cy's press comes in
    wired.factory.pin(BUTTONS[CY]).press(at=base + 0.002)  # 8 ms earlier, but its signal came late
    wired.decided_off_screen()
    ui.step(3)
    assert (view.challenger if called else view.buzz.challenger) == BEN  # the decision stands
    assert wired.notices[-1] == (
        "Contested: Cy pressed 8 ms before Ben, but the press came after the decision; Ben challenges"
    )


def test_a_slap_before_the_claim_is_tapped_takes_the_challenge_and_the_sheet_says_so(ui) -> None:
    table = Wired(ui, early_ms=1500)
    try:
        view = table.view
        view.declare("chili", 1)  # Ana
        view.pass_turn()  # Ben: the window closes
        table.press(ANA)  # Cy lays a card and Ana slaps it before Cy taps the claim
        time.sleep(0.05)
        assert view.declare("chili", 2)  # Cy
        time.sleep(0.05)
        table.press(BEN)  # Ben slaps after the tap: slower
        ui.until(lambda: view.buzz is not None)
        ui.step(3)
        assert view.buzz.challenger == ANA and view.buzz.before_tap == (ANA,)
        assert table.notices in ([], ["Ben buzzed too late: Ana challenges"])  # never "no card to challenge"
        sheet = ChallengeSheet()
        sheet.view = view
        assert "Ana pressed before the claim was tapped" in sheet.later_text(view, view.buzz).text
    finally:
        table.close()


@pytest.mark.parametrize("decided", [False, True], ids=["inside the settle", "decision on its way"])
def test_a_slap_as_the_card_lands_takes_that_card_s_challenge_when_its_claim_is_tapped_at_once(ui, decided) -> None:
    """Ben lays his card and Cy slaps it at once, while Ana's window is still open on the screen; Ben's tap
    comes inside the settle, or with the decision on Ana's card on its way: either way the challenge is
    Cy's, on Ben's card, and the history holds one card played and one challenge."""
    table = Wired(ui, early_ms=1500)
    try:
        view = table.view
        view.declare("chili", 1)  # Ana
        table.press(CY, offset=0.0)  # Cy slaps Ben's card as it lands ...
        table.handed_over.wait()
        if decided:
            table.decided_off_screen()
        assert view.declare("chili", 2)  # ... and Ben taps his claim
        ui.until(lambda: view.buzz is not None)
        ui.step(3)
        assert (view.buzz.challenger, view.buzz.before_tap, view.top_player) == (CY, (CY,), BEN)
        assert table.notices == []
        assert view.call("number") and view.challenger == CY
        assert list(view.session.game.log)[1:] == [Play(BEN, "chili", 2), Challenge(CY, "number")]
    finally:
        table.close()


def test_undo_on_the_challenge_sheet_takes_back_the_buzz_not_the_card(ui) -> None:
    app = ui.start()
    view = TableView(Session.new(app.store, new_setup(SPICY, ["Ana", "Ben", "Cy"])))
    view.declare("chili", 1)
    view.press(CY)
    assert view.buzz is not None
    assert view.undo()
    assert view.buzz is None and view.window and view.top_player == ANA and view.actions_saved == 1


def test_a_buzz_comes_back_after_a_power_cut_and_nobody_can_beat_it(ui, wired: Wired) -> None:
    view = wired.view
    view.declare("chili", 1)
    wired.press(CY)
    ui.until(lambda: view.buzz is not None)  # "Cy challenges!": then the power goes
    view.close()
    resumed = Session.resume(ui.app.store, view.session.game_id)
    assert resumed is not None
    wired.view = again = TableView(resumed, wired.referee)
    again.bind(on_notice=lambda _v, text: wired.notices.append(text))
    assert again.buzz is not None and again.buzz.challenger == CY and not again.seats[BEN].armed
    wired.press(BEN)
    wired.decided_off_screen()
    ui.step(3)
    assert again.buzz.challenger == CY
    assert again.call("number") and again.pending and again.challenger == CY
