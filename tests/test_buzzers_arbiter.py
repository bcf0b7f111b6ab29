"""The pure first-press decision: shuffled callbacks, near ties, bad presses."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.buzzers.arbiter import (
    EARLY,
    NOT_ARMED,
    OWN_CARD,
    STUCK,
    TOO_LATE,
    Arbiter,
    Contested,
    Decision,
    Ignored,
    LaterPress,
    format_delay,
)

SETTLE = 0.030
SEATS = range(6)


def deliver(arbiter: Arbiter, presses: list[tuple[int, float]], delays: list[float]) -> Decision:
    """Feed presses in the order their callbacks arrive, polling as a live driver would.

    The driver's timer fires ``settle`` after the first callback arrives; before
    that, every arrival is a moment at which it could (wrongly) poll early.
    """
    arrivals = sorted((edge + delay, seat, edge) for (seat, edge), delay in zip(presses, delays, strict=True))
    for arrival, seat, edge in arrivals:
        assert arbiter.poll(arrival) is None or arrival >= arbiter.deadline
        arbiter.press(seat, edge)
    decision = arbiter.poll(arrivals[0][0] + SETTLE)
    assert decision is not None
    return decision


def test_earliest_edge_wins_over_10000_shuffled_trials() -> None:
    rng = random.Random(20240611)
    naive_wrong = 0
    for _ in range(10_000):
        seats = rng.sample(list(SEATS), rng.randint(2, 6))
        edges = rng.sample(range(0, 15_000), len(seats))  # distinct µs within 15 ms
        presses = [(seat, 100.0 + us / 1e6) for seat, us in zip(seats, edges, strict=True)]
        delays = [rng.uniform(0, 0.020) for _ in presses]
        decision = deliver(Arbiter(SEATS, settle=SETTLE), presses, delays)
        assert decision.winner == min(presses, key=lambda p: p[1])[0]
        first_callback = min(zip(presses, delays, strict=True), key=lambda pd: pd[0][1] + pd[1])[0][0]
        naive_wrong += first_callback != decision.winner
    assert naive_wrong > 1000  # the shuffling is real: first-callback-wins is often wrong


def test_six_seats_within_one_millisecond_in_order_with_delays() -> None:
    edges = {4: 5.0000, 2: 5.0001, 0: 5.0003, 5: 5.0006, 1: 5.0008, 3: 5.0010}
    arbiter = Arbiter(SEATS, settle=SETTLE)
    for seat in (3, 1, 5, 0, 2, 4):  # reverse order of edges
        assert arbiter.press(seat, edges[seat]) is None
    decision = arbiter.poll(5.1)
    assert decision is not None
    assert decision.winner == 4
    assert [p.seat for p in decision.later] == [2, 0, 5, 1, 3]
    assert [round(p.delay_ms, 6) for p in decision.later] == [0.1, 0.3, 0.6, 0.8, 1.0]
    assert [format_delay(p.delay_ms) for p in decision.later][-1] == "+1 ms"


def test_no_decision_before_the_settle_time() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE)
    arbiter.press(2, 1.000)
    assert arbiter.deadline == pytest.approx(1.030)
    assert arbiter.poll(1.029) is None
    arbiter.press(5, 0.990)  # earlier edge, later callback: the deadline moves with it
    assert arbiter.deadline == pytest.approx(1.020)
    decision = arbiter.poll(1.020)
    assert decision is not None and decision.winner == 5
    assert decision.later == (LaterPress(2, pytest.approx(10.0)),)


def test_own_card_and_unarmed_seats_are_ignored_and_reported() -> None:
    arbiter = Arbiter({1, 2, 3}, settle=SETTLE, own_card=0)
    assert arbiter.press(0, 1.000) == Ignored(0, 1.000, OWN_CARD)
    assert arbiter.press(5, 1.001) == Ignored(5, 1.001, NOT_ARMED)
    assert arbiter.deadline is None  # an ignored press starts nothing
    arbiter.press(3, 1.010)
    decision = arbiter.poll(2.0)
    assert decision is not None and decision.winner == 3
    assert decision.ignored == (Ignored(0, 1.000, OWN_CARD), Ignored(5, 1.001, NOT_ARMED))


def test_own_card_is_never_armed_even_if_listed() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE, own_card=2)
    assert arbiter.press(2, 1.0) == Ignored(2, 1.0, OWN_CARD)
    assert 2 not in arbiter.armed


def test_nothing_armed_ignores_every_press() -> None:
    arbiter = Arbiter(settle=SETTLE)
    for seat in SEATS:
        assert arbiter.press(seat, 1.0 + seat) == Ignored(seat, 1.0 + seat, NOT_ARMED)
    assert arbiter.poll(100.0) is None


def test_stuck_seat_is_ignored_until_released_and_another_seat_wins() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE, stuck={2})
    assert arbiter.press(2, 1.000) == Ignored(2, 1.000, STUCK)
    arbiter.press(4, 1.005)
    decision = arbiter.poll(2.0)
    assert decision is not None
    assert (decision.winner, decision.stuck) == (4, (2,))
    assert Ignored(2, 1.000, STUCK) in decision.ignored

    arbiter = Arbiter(SEATS, settle=SETTLE, stuck={2})
    arbiter.release(2)
    assert arbiter.press(2, 1.000) is None
    assert arbiter.poll(2.0) == Decision(winner=2, first_edge=1.000)


def test_exactly_equal_times_are_a_tie_for_the_table() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE)
    for seat, edge in ((3, 1.25), (1, 1.25), (5, 1.26)):
        arbiter.press(seat, edge)
    decision = arbiter.poll(2.0)
    assert decision is not None
    assert (decision.winner, decision.tie) == (None, (1, 3))
    assert [p.seat for p in decision.later] == [5]


def test_presses_after_the_deadline_are_too_late() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE)
    arbiter.press(1, 1.000)
    arbiter.press(2, 1.031)  # reached us before the poll, but pressed after the moment
    decision = arbiter.poll(1.040)
    assert decision is not None
    assert decision.later == ()
    assert decision.ignored == (Ignored(2, 1.031, TOO_LATE),)
    assert arbiter.press(3, 1.035) == Ignored(3, 1.035, TOO_LATE)
    assert arbiter.poll(5.0) is decision  # decided once, for good


def test_only_a_seats_first_press_counts() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE)
    for seat, edge in ((1, 1.010), (2, 1.005), (1, 1.001)):
        arbiter.press(seat, edge)
    decision = arbiter.poll(2.0)
    assert decision is not None
    assert decision.winner == 1
    assert decision.later == (LaterPress(2, pytest.approx(4.0)),)


def test_settle_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Arbiter(SEATS, settle=0)


@pytest.mark.parametrize(
    ("delay_ms", "text"),
    [(37.4, "+37 ms"), (9.96, "+10 ms"), (2.0, "+2 ms"), (1.0, "+1 ms"), (0.96, "+1 ms"), (0.94, "+0.9 ms"),
     (0.42, "+0.4 ms")],
)
def test_format_delay(delay_ms: float, text: str) -> None:
    assert format_delay(delay_ms) == text


presses_strategy = st.dictionaries(
    st.integers(0, 5), st.integers(0, 40_000).map(lambda us: 10.0 + us / 1e6), min_size=1
)


@given(presses=presses_strategy, armed=st.frozensets(st.integers(0, 5)), data=st.data())
def test_decision_depends_on_edges_not_on_arrival_order(
    presses: dict[int, float], armed: frozenset[int], data: st.DataObject
) -> None:
    def decide(order: list[int]) -> Decision | None:
        arbiter = Arbiter(armed, settle=SETTLE)
        for seat in order:
            arbiter.press(seat, presses[seat])
        return arbiter.poll(11.0)

    order = data.draw(st.permutations(sorted(presses)))
    assert decide(order) == decide(sorted(presses))


@given(presses=presses_strategy)
def test_winner_later_and_too_late_partition_the_presses(presses: dict[int, float]) -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE)
    for seat, edge in presses.items():
        arbiter.press(seat, edge)
    decision = arbiter.poll(11.0)
    assert decision is not None
    first = min(presses.values())
    firsts = sorted(seat for seat, edge in presses.items() if edge == first)
    assert decision.first_edge == first
    assert (decision.winner,) == tuple(firsts) or (decision.winner is None and list(decision.tie) == firsts)
    later = {p.seat for p in decision.later}
    late = {i.seat for i in decision.ignored}
    assert {*firsts} | later | late == set(presses) and not later & late
    for press in decision.later:
        assert 0 < press.delay_ms <= SETTLE * 1000
        assert press.delay_ms == pytest.approx((presses[press.seat] - first) * 1000)
    assert [p.delay_ms for p in decision.later] == sorted(p.delay_ms for p in decision.later)


def test_a_press_stamped_before_the_window_opened_is_refused_whenever_it_arrives() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE, opened=50.0)
    early = arbiter.press(2, 49.998)  # slapped 2 ms before the card, reported after arming
    assert early == Ignored(2, 49.998, EARLY) and EARLY == "pressed before the card was played"
    assert arbiter.press(4, 50.004) is None
    decision = arbiter.poll(50.034)
    assert decision is not None and decision.winner == 4
    assert decision.ignored == (early,)


def test_an_earlier_edge_after_the_decision_is_contested_with_both_times() -> None:
    arbiter = Arbiter(SEATS, settle=SETTLE, opened=0.0)
    arbiter.press(3, 10.0050)
    decision = arbiter.poll(10.0350)
    assert decision is not None and decision.winner == 3
    contested = arbiter.press(1, 10.0042)  # its callback came 31 ms late
    assert isinstance(contested, Contested)
    assert (contested.seat, contested.edge_time, contested.winner, contested.winner_edge) == (1, 10.0042, 3, 10.0050)
    assert contested.ahead_ms == pytest.approx(0.8)
    assert contested.reason == (
        "contested: pressed 0.8 ms before the winning press, but the press reached the referee after the decision"
    )
    assert arbiter.press(2, 10.0060).reason == TOO_LATE  # later than the winner: simply too late
    assert arbiter.decision == decision  # the decision the table saw stands


def test_decisions_and_ignored_presses_name_the_window_they_were_judged_in() -> None:
    arbiter = Arbiter({1, 2}, settle=SETTLE, own_card=0, window=12)
    assert arbiter.press(0, 1.0) == Ignored(0, 1.0, OWN_CARD, window=12)
    arbiter.press(1, 1.001)
    decision = arbiter.poll(1.1)
    assert decision is not None and decision.window == 12
    late = arbiter.press(2, 1.2)
    assert late is not None and late.window == 12


def test_a_claim_at_the_screen_is_a_press_at_its_own_time_and_the_earliest_press_wins() -> None:
    """Ben's edge 5 ms before Cy's key: Cy's claim does not wipe out Ben's press, it is later."""
    arbiter = Arbiter({1, 2, 3}, settle=SETTLE, own_card=0, window=4)
    assert arbiter.press(1, 5.000) is None  # Ben's buzzer, still settling when Cy's key is pressed
    assert arbiter.press(2, 5.005, claim=True) is None  # Cy's key
    assert arbiter.poll(5.029) is None
    decision = arbiter.poll(5.030)
    assert decision is not None and (decision.winner, decision.claimed, decision.window) == (1, False, 4)
    assert decision.later == (LaterPress(2, pytest.approx(5.0)),)


def test_a_claim_first_wins_and_a_buzzer_after_it_is_later() -> None:
    arbiter = Arbiter({1, 2, 3}, settle=SETTLE, own_card=0, window=4)
    assert arbiter.press(1, 5.000, claim=True) is None
    assert arbiter.press(3, 5.020) is None
    decision = arbiter.poll(5.030)
    assert decision is not None and (decision.winner, decision.claimed) == (1, True)
    assert [p.seat for p in decision.later] == [3]
    late = arbiter.press(2, 5.040)
    assert late is not None and late.reason == TOO_LATE


def test_a_claim_after_a_buzzer_decision_is_later_and_changes_nothing() -> None:
    arbiter = Arbiter({1, 2, 3}, settle=SETTLE, own_card=0)
    arbiter.press(2, 5.000)
    decision = arbiter.poll(5.1)
    claim = arbiter.press(1, 5.2, claim=True)
    assert isinstance(claim, Ignored) and claim.reason == TOO_LATE
    assert arbiter.decision is decision and decision.winner == 2


def test_a_press_within_early_of_the_opening_counts_and_is_marked_before_the_tap() -> None:
    arbiter = Arbiter({1, 2, 3}, settle=SETTLE, own_card=0, opened=10.0, early=1.5)
    assert arbiter.press(3, 8.4) == Ignored(3, 8.4, EARLY)  # 1.6 s before: refused as before
    assert arbiter.press(1, 9.2) is None  # the card landed, its claim not yet tapped
    assert arbiter.press(2, 10.01) is None
    decision = arbiter.poll(9.3)
    assert decision is not None and decision.winner == 1 and decision.before_tap == (1,)
