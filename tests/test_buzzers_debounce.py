"""The debouncer shared by GPIO and the box: first-edge times, glitches, short taps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.buzzers.debounce import PRESS, RELEASE, Debouncer

BOUNCE, CONFIRM = 10_000, 1_500  # microseconds


def run(button: Debouncer, edges: list[tuple[bool, int]], level_at) -> list[tuple[str, int]]:
    """Drive the debouncer as its owners do: check whenever it is due, before each edge and after."""
    reports = []
    for down, time in edges:
        while button.due is not None and button.due <= time:
            reports += button.check(level_at(button.due), button.due)
        reports += button.edge(down, time)
    while button.due is not None:
        reports += button.check(level_at(button.due), button.due)
    return reports


def level_from(edges: list[tuple[bool, int]]):
    def level_at(moment: int) -> bool:
        down = False
        for edge_down, time in edges:
            if time <= moment:
                down = edge_down
        return down

    return level_at


def test_a_2_microsecond_glitch_is_not_a_press() -> None:
    button = Debouncer(BOUNCE, CONFIRM)
    edges = [(True, 1000), (False, 1002)]
    assert run(button, edges, level_from(edges)) == []
    assert button.glitches == 1 and not button.down


def test_twenty_bounces_within_3_ms_are_one_press_at_the_first_edge() -> None:
    button = Debouncer(BOUNCE, CONFIRM)
    edges = [(i % 2 == 0, 2000 + i * 150) for i in range(21)]  # down, up, ..., down: 3 ms
    assert run(button, edges, level_from(edges)) == [(PRESS, 2000)]
    assert button.bounces == 20 and button.down


def test_a_tap_shorter_than_the_debounce_time_is_released() -> None:
    button = Debouncer(BOUNCE, CONFIRM)
    edges = [(True, 0), (False, 4000), (True, 50_000), (False, 120_000)]  # a 4 ms tap, then a press
    assert run(button, edges, level_from(edges)) == [
        (PRESS, 0),
        (RELEASE, 4000),
        (PRESS, 50_000),
        (RELEASE, 120_000),
    ]


def test_a_press_still_bouncing_at_the_check_keeps_its_first_edge() -> None:
    button = Debouncer(BOUNCE, CONFIRM)
    edges = [(True, 0), (False, 1400), (True, 1600)]  # up at the 1.5 ms check, then down for good
    assert run(button, edges, level_from(edges)) == [(PRESS, 0)]
    assert button.glitches == 0


def test_a_ringing_glitch_that_goes_quiet_up_is_not_a_press() -> None:
    button = Debouncer(BOUNCE, CONFIRM)
    edges = [(True, 100), (False, 103), (True, 106), (False, 110)]  # 10 µs of ringing, then quiet
    assert run(button, edges, level_from(edges)) == []
    assert button.glitches == 1


def test_a_press_the_level_check_read_before_its_edge_arrived_is_reported_once() -> None:
    button = Debouncer(BOUNCE)
    assert button.edge(True, 1) == [(PRESS, 1)]
    assert button.edge(False, 2) == []  # bounce
    assert button.check(True, 1 + BOUNCE) == []  # down again: still the press
    assert button.edge(True, 1 + BOUNCE) == []  # that edge, late
    assert button.edge(False, 50_000) == [(RELEASE, 50_000)]


edge_lists = st.lists(st.integers(1, 40_000), min_size=1, max_size=30).map(
    lambda gaps: [(i % 2 == 0, sum(gaps[: i + 1])) for i in range(len(gaps))]
)


@given(edges=edge_lists, confirm=st.sampled_from([0, CONFIRM]))
def test_reports_alternate_use_edge_times_and_end_where_the_line_is(edges, confirm) -> None:
    button = Debouncer(BOUNCE, confirm)
    reports = run(button, edges, level_from(edges))
    kinds = [kind for kind, _ in reports]
    assert kinds == [PRESS, RELEASE] * (len(kinds) // 2) + [PRESS] * (len(kinds) % 2)
    assert button.down == edges[-1][0]  # never stuck: the last report matches the line
    times = {time: down for down, time in edges}
    assert all(times[time] == (kind == PRESS) for kind, time in reports)
    assert [time for _, time in reports] == sorted(time for _, time in reports)
