"""The buzz figures from real presses: a game played through the app's own referee on GPIO buzzers
(gpiozero's MockFactory), its buzz times saved in the real SQLite file, and the same numbers on the
player's page, on tonight's awards and in ``stats --player``; a file from before buzz times shows none."""

from __future__ import annotations

import sqlite3
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.buzzers import format_delay
from companion.cli import main
from companion.rules import SPICY, new_setup
from companion.store import Store
from companion.store.review import AwardKind, buzz_figures, tonight
from companion.ui.screens.games import profile_title
from store_helpers import undo_migrations_from
from table_helpers import BUTTONS, Table

NAMES = ("Ana", "Ben", "Cy")
ANA, BEN, CY = range(3)


@dataclass
class Played:
    """What the test pressed, on the buzzers' own edge clock: the times each challenge must keep."""

    table: Table
    expected: dict[int, tuple[int, float, float | None]] = field(default_factory=dict)
    """By the challenge's seq: challenger, ms from the tap, ms to the next press (None: nobody)."""

    @property
    def buzzers(self):  # type: ignore[no-untyped-def]
        return self.table.app.referee.buzzers

    def opened(self) -> float:
        """When the open window opened, on the edge clock, once the referee has armed it."""
        assert self.table.app.referee.flush()
        return float(self.buzzers.opened_at)

    def press(self, seat: int, after: float = 0.002, tick: float | None = None) -> float:
        """Press (and let go of) ``seat``'s button ``after`` seconds from now, or at ``tick``; its edge's tick."""
        factory = self.table.factory
        at = factory.ticks() + after if tick is None else tick
        factory.pin(BUTTONS[seat]).press(at=at)
        time.sleep(0.01)
        factory.pin(BUTTONS[seat]).release(at=factory.ticks())
        return at

    def from_tap(self, tick: float, opened: float) -> float:
        """Milliseconds from the window's opening to the edge at ``tick``: the tick put on the buzzers' clock.

        The buzzers' clock is the factory's ticks from an origin, read inside ``edge_clock``; the factory's own
        read after it is later by however long the thread waited in between (on a loaded machine, a preemption
        of 0.1 ms or more). So the offset is the largest of a few paired reads: the one that waited least."""
        factory = self.table.factory
        offset = max(self.buzzers.edge_clock() - factory.ticks() for _ in range(50))
        return (offset + tick - opened) * 1000

    def call(self, seat: int, attribute: str, from_tap: float, margin: float | None) -> None:
        view = self.table.view
        assert view.buzz is not None and view.buzz.challenger == seat
        assert view.call(attribute)
        self.expected[view.actions_saved] = (seat, from_tap, margin)
        assert view.resolve(False)
        self.table.ui.step(2)


def play(ui) -> Played:  # type: ignore[no-untyped-def]
    """Five challenges: two buzzes near each other, one whose next press came after the decision,
    a slap before the claim was tapped, one taken at the screen, and one taken back."""
    played = Played(Table(ui, new_setup(SPICY, list(NAMES))))
    view = played.table.view

    assert view.declare("chili", 1)  # Ana
    opened = played.opened()
    ben = played.press(BEN, 0.002)
    cy = played.press(CY, tick=ben + 0.007)  # 7 ms after: inside the settle time
    ui.until(lambda: view.buzz is not None)
    played.call(BEN, "number", played.from_tap(ben, opened), (cy - ben) * 1000)

    assert view.turn == BEN  # the challenger was wrong: Ben takes the card, Ben starts
    assert view.declare("chili", 1)
    opened = played.opened()
    cy = played.press(CY, 0.002)
    ui.until(lambda: view.buzz is not None)
    time.sleep(0.08)
    ana = played.press(ANA, tick=cy + 0.060)  # after the decision, while Cy calls
    ui.step(3)
    played.call(CY, "spice", played.from_tap(cy, opened), (ana - cy) * 1000)

    assert view.turn == CY
    assert view.declare("chili", 1)  # Cy
    assert view.pass_turn()  # Ana: the window closes
    ana = played.press(ANA, 0.002)  # Ben lays a card, Ana slaps it before Ben taps the claim
    time.sleep(0.05)
    assert view.declare("chili", 2)  # Ben
    opened = played.opened()
    ui.until(lambda: view.buzz is not None)
    assert view.buzz.before_tap == (ANA,)
    played.call(ANA, "number", played.from_tap(ana, opened), None)
    assert played.expected[view.actions_saved - 1][1] < 0  # before the tap

    assert view.turn == ANA
    assert view.declare("chili", 1)  # Ana: a new stack
    assert view.press(CY)  # a long press on Cy's panel: taken at the screen, no buzzer
    ui.until(lambda: view.buzz is not None)
    assert view.call("number") and view.resolve(False)
    ui.step(2)

    other = next(seat for seat in range(3) if seat != view.turn)
    assert view.declare("chili", 1)
    played.press(other, 0.002)
    ui.until(lambda: view.buzz is not None)
    assert view.call("spice") and view.undo()  # called, then taken back: it never happened
    ui.step(2)
    assert view.end_card_showed()
    ui.step(2)
    assert view.state.ended
    return played


def saved_rows(path: Path) -> dict[int, tuple[int, float, float | None]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seq, seat, from_tap_ms, margin_ms FROM challenge_buzz WHERE standing").fetchall()
    return {seq: (seat, from_tap, margin) for seq, seat, from_tap, margin in rows}


def test_a_game_on_gpio_buzzers_keeps_each_challenge_s_buzz_times_and_shows_them_everywhere(
        ui, capsys) -> None:  # type: ignore[no-untyped-def]
    played = play(ui)
    path = ui.app.store.path
    saved = saved_rows(path)
    assert saved.keys() == played.expected.keys()  # not the one by touch, nor the one taken back
    for seq, (seat, from_tap, margin) in played.expected.items():
        assert saved[seq][0] == seat
        assert saved[seq][1] == pytest.approx(from_tap, abs=0.05)  # the edge clock read twice: microseconds apart
        assert (saved[seq][2] is None) == (margin is None)
        if margin is not None:
            assert saved[seq][2] == pytest.approx(margin, abs=1e-6)  # two edges on the same clock
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM challenge_buzz WHERE NOT standing").fetchone() == (1,)

    by_seat = {seat: [(t, m) for s, t, m in saved.values() if s == seat] for seat in range(3)}
    expected_text = {}
    for seat, times in by_seat.items():
        after_tap = [t for t, _ in times if t >= 0]
        margins = [m for _, m in times if m is not None]
        expected_text[NAMES[seat]] = (
            format_delay(min(after_tap)) if after_tap else "–",
            format_delay(statistics.median(margins)) if margins else "–",
            sum(t < 0 for t, _ in times),
        )
    assert expected_text["Ana"] == ("–", "–", 1)  # her only buzz came before the tap, with nobody after it

    with Store.open(path) as store:
        figures = {name: buzz_figures(store, name) for name in NAMES}
        evening = tonight(store)
    assert figures["Ana"]["spicy"].before_tap == 1 and figures["Ana"]["spicy"].quickest_ms is None

    page = ui.app.screen("player")
    for name, (quickest, margin, early) in expected_text.items():
        assert page.open(name)
        ui.app.show("player")
        ui.step(2)
        rows = dict(page.rows)
        assert (rows["Quickest buzz, from the tap"], rows["Median buzz margin"]) == (quickest, margin)
        assert rows.get("Buzzed before the tap") == (str(early) if early else None)

        assert main(["stats", "--player", name, "--db", str(path)]) == 0
        printed = {line[:30].strip(): line[30:].strip() for line in capsys.readouterr().out.splitlines()}
        assert printed["quickest buzz (from the tap)"] == quickest.replace("–", "-")
        assert printed["median buzz margin"] == margin.replace("–", "-")
        assert printed["buzzed before the tap"] == str(early)

    quickest = min((t, NAMES[s]) for s, t, _ in saved.values() if t >= 0)
    award = next(a for a in evening.awards if a.kind is AwardKind.QUICKEST_HAND)
    assert (award.name, award.figure) == (quickest[1], quickest[0])
    ui.app.show("tonight")
    ui.step(3)
    screen = ui.app.screen("tonight")
    assert ("Quickest hand", "The quickest winning buzz, from the claim's tap", quickest[1],
            quickest[0]) in [tuple(a) for a in screen.awards]
    shown = [(row.winner, row.figure) for row in screen.ids.awards.children if row.title == "Quickest hand"]
    assert shown == [(quickest[1], format_delay(quickest[0]))]


def test_a_game_saved_before_buzz_times_shows_no_buzz_figure(ui, capsys) -> None:  # type: ignore[no-untyped-def]
    play(ui)
    path = ui.app.store.path
    ui.stop()
    with sqlite3.connect(path) as db:
        undo_migrations_from(db, "m012_challenge_buzz_times")  # the file as an app from before left it
    with Store.open(path) as store:  # upgraded: the table is back, empty
        assert store.query("SELECT count(*) FROM challenge_buzz") == [(0,)]
        assert buzz_figures(store, "Ben") == {}
        assert tonight(store) is not None
        assert AwardKind.QUICKEST_HAND not in [a.kind for a in tonight(store).awards]
    app = ui.start()
    page = app.screen("player")
    assert page.open("Ben") and page.profiles == ["spicy"]
    rows = dict(page.rows)
    assert rows["Quickest buzz, from the tap"] == rows["Median buzz margin"] == "–"
    assert rows["Challenges made"] == "1"  # the rest of the page is as it was
    assert main(["stats", "--player", "Ben", "--db", str(path)]) == 0
    printed = {line[:30].strip(): line[30:].strip() for line in capsys.readouterr().out.splitlines()}
    assert printed["quickest buzz (from the tap)"] == printed["median buzz margin"] == "-"
    assert profile_title("spicy")
