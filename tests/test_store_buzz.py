"""Buzz times in the real SQLite file: saved with their challenge, counted only when the challenge stands
in a finished game, and carried by export, backup and restore."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from store_helpers import KNOWN

from companion.rules import Challenge, EndCardDrawn, Undo, replay_transcript
from companion.table.session import Session
from companion.store import BuzzTime, Store
from companion.store.backup import backup, plan_restore, restore
from companion.store.export import csv_text, json_record
from companion.store.review import buzz_figures

# KNOWN's challenges: Cy's (seq 3), Ana's (seq 6), Ben's (seq 9, undone at once).
TIMES = {3: BuzzTime(212.5, 41.0), 6: BuzzTime(-130.0, None), 9: BuzzTime(90.0, 3.0)}


def played(store: Store, times: dict[int, BuzzTime] = TIMES, end: bool = True) -> Session:
    """KNOWN through a session, each challenge with its buzz time (and one given to a play, which has none)."""
    game = replay_transcript(KNOWN)
    session = Session.new(store, game.setup)
    for seq, action in enumerate(game.log, start=1):
        if isinstance(action, EndCardDrawn) and not end:
            break
        session.apply(action, times.get(seq, BuzzTime(1.0, 1.0) if seq == 1 else None))
    return session


def test_each_buzz_time_is_saved_with_its_challenge_and_only_standing_ones_count(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = played(store, end=False)
        assert store.buzz_times(session.game_id) == {seq: TIMES[seq] for seq in (3, 6, 9)}  # not the play's
        assert buzz_figures(store, "Cy") == {}  # the game is not over: nothing counts yet
        session.apply(EndCardDrawn())
        cy, ana = buzz_figures(store, "Cy")["spicy"], buzz_figures(store, "Ana")["spicy"]
        assert (cy.timed, cy.quickest_ms, cy.before_tap, cy.median_margin_ms) == (1, 212.5, 0, 41.0)
        assert (ana.timed, ana.quickest_ms, ana.before_tap, ana.median_margin_ms) == (1, None, 1, None)
        assert buzz_figures(store, "Ben") == {}  # his challenge was undone: it never happened
        session.apply(Undo())  # the end taken back: the game is unfinished again
        assert buzz_figures(store, "Cy") == {}
        session.apply(EndCardDrawn())
        assert buzz_figures(store, "Cy")["spicy"].quickest_ms == 212.5


def test_the_quickest_buzz_and_the_median_margin_over_several_games(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        for from_tap, margin in ((300.0, 10.0), (180.0, None), (250.0, 30.0), (-40.0, 2.0)):
            played(store, {3: BuzzTime(from_tap, margin)})
        cy = buzz_figures(store, "Cy")["spicy"]
    assert (cy.timed, cy.quickest_ms, cy.before_tap, cy.median_margin_ms) == (4, 180.0, 1, 10.0)


def test_a_challenge_taken_at_the_screen_keeps_no_buzz_time(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = played(store, {})
        assert store.buzz_times(session.game_id) == {}
        assert buzz_figures(store, "Cy") == {}
        assert any(isinstance(a, Challenge) for a in session.game.log)


def test_export_backup_and_restore_carry_the_buzz_times(tmp_path: Path) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    with Store.open(tmp_path / "games.db") as store:
        game_id = played(store).game_id
        saved = store.load(game_id)
        record = json_record(saved, store.uid_of(game_id))
        rows = list(csv.DictReader(io.StringIO(csv_text(saved))))
        copy = backup(store, stick)
    assert {a["seq"]: a["buzz"] for a in record["actions"] if "buzz" in a} == {
        3: {"from_tap_ms": 212.5, "margin_ms": 41.0}, 6: {"from_tap_ms": -130.0, "margin_ms": None},
        9: {"from_tap_ms": 90.0, "margin_ms": 3.0}}
    json.dumps(record)  # as the export writes it
    assert [(r["seq"], r["buzz_from_tap_ms"], r["buzz_margin_ms"]) for r in rows if r["buzz_from_tap_ms"]] == [
        ("3", "212.5", "41.0"), ("6", "-130.0", ""), ("9", "90.0", "3.0")]
    with Store.open(tmp_path / "other.db") as other:
        (restored,) = restore(other, plan_restore(other, copy))
        assert other.buzz_times(restored) == TIMES
        assert buzz_figures(other, "Cy")["spicy"].quickest_ms == 212.5


@pytest.mark.parametrize("seq", [0, 1, 99])
def test_a_restored_buzz_time_on_no_challenge_is_not_kept(tmp_path: Path, seq: int) -> None:
    """A backup edited by hand (a buzz time on a play, or past the log's end) restores the game without it."""
    with Store.open(tmp_path / "games.db") as store:
        game_id = played(store).game_id
        store.db.execute("UPDATE challenge_buzz SET seq = ? WHERE game_id = ? AND seq = 9", [seq, game_id])
        store.db.conn.commit()
        copy = backup(store, tmp_path)
    with Store.open(tmp_path / "other.db") as other:
        (restored,) = restore(other, plan_restore(other, copy))
        assert set(other.buzz_times(restored)) == {3, 6}
