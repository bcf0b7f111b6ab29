"""The table's link to the referee, without a window: seats to buzzers and back, each report kept to its card.

Real GPIO buzzers on gpiozero's MockFactory, a real referee thread; the link is
called here as the view calls it on the UI thread.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from buzzers_fixtures import HandOver, Recorder, timed_factory
from companion.buzzers import Decision, GpioBuzzers, Ignored, Referee
from companion.config import BuzzerConfig
from companion.table.seating import Seating
from companion.table.link import Press, RefereeLink
from companion.table.model import Buzz

ANA, BEN, CY = 0, 1, 2
BUTTONS = BuzzerConfig().button_pins
LEDS = (17, 27, 22)
SEATING = Seating(colours=(0, 1, 2), buzzers=(2, 0, 1))
"""Ana's buzzer is wired third, Ben's first, Cy's second."""


@pytest.fixture
def wired() -> Iterator[tuple[RefereeLink, Recorder, Recorder, object]]:
    factory = timed_factory()
    with GpioBuzzers(BUTTONS[:3], LEDS, pin_factory=factory) as buzzers:
        referee = Referee(buzzers, settle_ms=20)
        decisions, ignored = Recorder(), Recorder()
        link = RefereeLink(referee, SEATING)
        link.report_to(decisions, ignored)
        yield link, decisions, ignored, factory
        link.close()
        referee.stop()


def lit(factory, link: RefereeLink) -> list[int]:
    assert link.referee is not None and link.referee.flush()
    return [b for b, pin in enumerate(LEDS) if factory.pin(pin).state]


def test_the_seats_the_table_arms_light_their_own_buzzers(wired) -> None:
    link, _decisions, _ignored, factory = wired
    link.follow(card=0, armed={BEN, CY}, own_card=ANA, buzzed=False)
    assert lit(factory, link) == [0, 1]  # Ben's and Cy's buzzers, wherever they are wired
    link.follow(card=None, armed=set(), own_card=None, buzzed=False)
    assert lit(factory, link) == []


def test_a_decision_reads_as_seats_and_only_for_the_card_it_was_made_on(wired) -> None:
    link, decisions, _ignored, factory = wired
    link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=False)
    link.referee.flush()
    base = factory.ticks()
    factory.pin(BUTTONS[1]).press(at=base + 0.004)  # Cy's buzzer
    factory.pin(BUTTONS[0]).press(at=base + 0.002)  # Ben's, 2 ms earlier
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert link.buzz(decision) == Buzz(BEN, ((CY, pytest.approx(2, abs=0.5)),))
    link.follow(card=5, armed={ANA, CY}, own_card=BEN, buzzed=False)  # Ben's card was tapped meanwhile
    assert link.buzz(decision) is None


def test_an_own_card_press_reads_as_its_seat_and_a_press_for_another_card_as_nothing(wired) -> None:
    link, _decisions, ignored, factory = wired
    link.follow(card=2, armed={BEN, CY}, own_card=ANA, buzzed=False)
    link.referee.flush()
    factory.pin(BUTTONS[2]).press(at=factory.ticks() + 0.001)  # Ana's buzzer, on Ana's card
    press = ignored.next()
    assert isinstance(press, Ignored)
    assert link.press(press) == Press(ANA, "own card")
    link.follow(card=3, armed={ANA, CY}, own_card=BEN, buzzed=False)
    assert link.press(press) is None


def test_a_claim_at_the_screen_is_decided_by_the_referee_for_the_open_card(wired) -> None:
    link, decisions, _ignored, _factory = wired
    link.follow(card=7, armed={BEN, CY}, own_card=ANA, buzzed=False)
    assert link.claim(CY)
    decision = decisions.next()
    assert isinstance(decision, Decision) and decision.claimed and link.buzz(decision) == Buzz(CY)


def test_without_a_referee_a_claim_is_left_to_the_table() -> None:
    link = RefereeLink(None, SEATING)
    link.follow(card=0, armed={BEN}, own_card=ANA, buzzed=False)
    assert not link.claim(BEN)


def test_the_buzz_time_is_the_winner_s_edge_from_the_opening_and_the_lead_over_the_next_seat(wired) -> None:
    link, decisions, ignored, factory = wired
    link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=False)
    link.referee.flush()
    opened = link.referee.buzzers.opened_at
    base = factory.ticks()
    factory.pin(BUTTONS[0]).press(at=base + 0.002)  # Ben's buzzer
    decision = decisions.next()
    assert link.buzz(decision) == Buzz(BEN)
    assert link.buzz_time(BEN).margin_ms is None  # nobody else yet
    assert link.buzz_time(BEN).from_tap_ms == pytest.approx((decision.first_edge - opened) * 1000)
    assert link.buzz_time(CY) is None  # Cy did not win it
    link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=True)  # the table holds Ben's buzz
    factory.pin(BUTTONS[1]).press(at=base + 0.052)  # Cy's, after the decision: too late, but the next press
    assert link.press(ignored.next()) == Press(CY, "too late")
    assert link.buzz_time(BEN).margin_ms == pytest.approx(50.0)
    link.follow(card=5, armed={ANA, CY}, own_card=BEN, buzzed=False)  # the next card
    assert link.buzz_time(BEN) is None


def test_a_tie_has_no_margin_to_speak_of_and_a_claim_at_the_screen_no_buzz_time(wired) -> None:
    link, decisions, _ignored, factory = wired
    link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=False)
    link.referee.flush()
    at = factory.ticks() + 0.002
    factory.pin(BUTTONS[0]).press(at=at)
    factory.pin(BUTTONS[1]).press(at=at)
    assert link.buzz(decisions.next()).tie == (BEN, CY)
    assert link.buzz_time(CY).margin_ms == 0.0  # the table picks one of the two: the other pressed with them
    link.follow(card=6, armed={BEN, CY}, own_card=ANA, buzzed=False)
    assert link.claim(CY)
    assert link.buzz(decisions.next()) == Buzz(CY) and link.buzz_time(CY) is None


class HeldClock:
    """A link on GPIO buzzers whose referee's clock moves only when the test moves it: no window decides
    before the test says so, however loaded the machine. ``press`` returns once the referee has the press."""

    def __init__(self, early_ms: float = 1500) -> None:
        self.now = 1000.0
        self.factory = timed_factory()
        self.buzzers = GpioBuzzers(BUTTONS[:3], LEDS, pin_factory=self.factory)
        self.decisions, self.ignored = Recorder(), Recorder()
        self.referee = Referee(self.buzzers, settle_ms=30, early_ms=early_ms, clock=lambda: self.now)
        self._handed_over = HandOver(self.buzzers, self.referee)
        self.link = RefereeLink(self.referee, SEATING)
        self.link.report_to(self.decisions, self.ignored)

    def open(self, window: int) -> None:
        """Ana's card at ``window``: Ben and Cy armed, and the window open 50 ms by the pins' clock."""
        self.link.follow(card=window, armed={BEN, CY}, own_card=ANA, buzzed=False)
        assert self.referee.flush()
        time.sleep(0.05)

    def press(self, seat: int, at: float | None = None) -> None:
        """``seat``'s buzzer, its edge ``at`` on the pins' clock (now by default)."""
        self.factory.pin(BUTTONS[SEATING.buzzer_of(seat)]).press(at=self.factory.ticks() if at is None else at)
        self._handed_over.wait()

    def tap_ben_s_claim(self) -> None:
        """Ben's card, laid on Ana's, is tapped in: Ana and Cy may challenge it."""
        self.link.follow(card=5, armed={ANA, CY}, own_card=BEN, buzzed=False)
        assert self.referee.flush()

    def settle(self) -> Decision:
        self.now += 1.0
        decision = self.decisions.next(timeout=2.0)
        assert isinstance(decision, Decision)
        return decision

    def close(self) -> None:
        self.link.close()
        self.referee.stop()
        self.buzzers.close()


@pytest.fixture
def held() -> Iterator[HeldClock]:
    table = HeldClock()
    yield table
    table.close()


def test_an_action_that_keeps_the_card_on_top_inside_the_settle_keeps_the_press(held: HeldClock) -> None:
    held.open(window=4)
    held.press(CY)
    held.link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=False)  # adjust draw-pile 40
    assert held.link.buzz(held.settle()) == Buzz(CY)


def test_a_slap_as_the_next_card_lands_counts_for_it_when_its_claim_is_tapped_inside_the_settle(
    held: HeldClock,
) -> None:
    held.open(window=4)  # Ana's card
    held.press(CY)  # Cy slaps Ben's card as it lands ...
    held.tap_ben_s_claim()  # ... and Ben taps his claim 10 ms later
    assert held.link.buzz(held.settle()) == Buzz(CY, before_tap=(CY,))


def test_a_slap_for_the_card_that_landed_is_not_beaten_by_a_later_one_from_the_last_card_s_player(
    held: HeldClock,
) -> None:
    held.open(window=4)  # Ana's card
    landed = held.factory.ticks()
    held.press(CY, at=landed)  # Cy slaps Ben's card as it lands
    held.press(ANA, at=landed + 0.004)  # Ana 4 ms later: on her own card, for the window still open
    held.tap_ben_s_claim()
    assert held.link.buzz(held.settle()) == Buzz(CY, ((ANA, pytest.approx(4, abs=0.5)),), before_tap=(CY, ANA))


def test_a_slap_before_the_tap_beats_a_press_after_it(held: HeldClock) -> None:
    held.open(window=4)
    held.press(CY)  # before Ben's tap
    held.tap_ben_s_claim()
    held.press(ANA)  # after it
    decision = held.settle()
    assert held.link.buzz(decision) is not None and held.link.buzz(decision).challenger == CY


def test_a_decision_still_on_its_way_when_the_next_claim_is_tapped_is_taken_again_for_that_card(
    held: HeldClock,
) -> None:
    held.open(window=4)
    held.press(CY)
    on_ana_s_card = held.settle()  # decided, not yet read by the table ...
    held.tap_ben_s_claim()  # ... when Ben taps his claim
    assert held.link.buzz(on_ana_s_card) is None
    assert held.link.buzz(held.settle()) == Buzz(CY, before_tap=(CY,))


def test_a_press_with_no_card_to_challenge_is_told_only_once_it_can_no_longer_count(held: HeldClock) -> None:
    held.link.follow(card=None, armed=set(), own_card=None, buzzed=False)  # a new stack
    held.press(CY)
    assert held.ignored.items.empty()  # not "no card to challenge": Ben's card may be landing
    held.now += 2.0  # longer than early_ms, and no claim tapped
    assert held.referee.flush()
    assert held.link.press(held.ignored.next()) == Press(CY, "not armed")


def test_a_challenge_moved_to_the_card_just_laid_takes_its_presses_however_long_ago() -> None:
    """The sheet was up on Ana's card; the table moved the challenge to Ben's card once his claim was in.
    Here no press counts before a tap (early_ms 0), so only the move can carry Cy's press."""
    held = HeldClock(early_ms=0)
    try:
        held.open(window=4)
        held.press(CY)
        assert held.link.buzz(held.settle()) == Buzz(CY)
        held.link.follow(card=4, armed={BEN, CY}, own_card=ANA, buzzed=True)  # the sheet: "Cy challenges"
        held.link.follow(card=5, armed={ANA, CY}, own_card=BEN, buzzed=False, moved=True)
        assert held.referee.flush()
        assert held.link.buzz(held.settle()) == Buzz(CY, before_tap=(CY,))
    finally:
        held.close()
