"""Snapshots of long games: resuming from them is the fold of the log, and one that disagrees is ignored."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.random_play import endless_game
from companion.rules import Game, Undo
from companion.table.session import Session
from companion.store import Store, snapshots
from store_helpers import edit, missing_field, played, random_long_game, rewrite_snapshot

EVERY = 7
"""Snapshots this often in these tests, so short games have many of them."""


@pytest.fixture(autouse=True)
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", EVERY)


def timeline(game: Game) -> tuple[object, ...]:
    """Everything a game is beyond its log: each standing step (state, move, entry, depth) and the redoable ones.

    ``Game.__eq__`` compares set-up and log only, so a resumed game that folded wrong would still be equal.
    """
    def step(s):  # type: ignore[no-untyped-def]
        return (s.state, s.move, s.entry, s.depth, s.before.entry if s.before else None)

    return (game.setup, list(game.log), [step(s) for s in game.steps()], [step(s) for s in game.redoable()])


def resumed(path: Path) -> tuple[Game, int]:
    with Store.open(path) as store:
        session = Session.resume(store, 1)
        assert session is not None
        return session.game, session.snapshot_upto


def snapshot_rows(path: Path) -> list[tuple[int, int]]:
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT since, upto FROM snapshots ORDER BY upto").fetchall()
    conn.close()
    return rows


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), length=st.integers(0, 80), stop=st.integers(0, 80))
def test_resume_from_snapshots_is_the_fold_of_the_log(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                       length: int, stop: int) -> None:
    game = random_long_game(seed, length)
    path = tmp_path_factory.mktemp("snap") / "games.db"
    played(path, game, min(stop, length))
    logged = list(game.log)[: min(stop, length)]
    again, upto = resumed(path)
    assert timeline(again) == timeline(Game.replay(game.setup, logged))
    assert upto == len(logged) - len(logged) % EVERY  # every snapshot was used
    # The resumed game goes on, and undoes all the way back, as the fold does.
    with Store.open(path) as store:
        session = Session.resume(store, 1)
        assert session is not None
        for action in list(game.log)[len(logged):]:
            session.apply(action)
        while session.game.can_undo:
            session.apply(Undo())
        ended_like_the_fold = Game.replay(game.setup, list(session.game.log))
        assert timeline(session.game) == timeline(ended_like_the_fold)
    assert timeline(resumed(path)[0]) == timeline(ended_like_the_fold)


def test_a_long_game_resumes_from_its_last_snapshot_with_its_whole_past(tmp_path: Path) -> None:
    game = endless_game(300, seed=3)
    path = tmp_path / "games.db"
    played(path, game)
    rows = snapshot_rows(path)
    assert rows == [(i - EVERY, i) for i in range(EVERY, 301, EVERY)]
    again, upto = resumed(path)
    assert upto == 294
    assert timeline(again) == timeline(game)


def test_the_log_hash_is_of_each_row_ended_by_a_newline() -> None:
    """Pinned: the snapshots already saved in people's files were checked against it."""
    rows = ['{"action":"undo"}', '{"action":"play","seat":0,"name":"Zoë"}']
    assert snapshots.log_hash(rows) == hashlib.sha256("".join(f"{row}\n" for row in rows).encode()).hexdigest()
    assert snapshots.log_hash([]) == hashlib.sha256(b"").hexdigest()
    assert snapshots.log_hash([""]) == hashlib.sha256(b"\n").hexdigest()


def test_a_replay_reads_the_same_log_and_snapshots_as_resuming(tmp_path: Path) -> None:
    game = random_long_game(5, 60)
    path = tmp_path / "games.db"
    played(path, game)
    with Store.open(path) as store:
        saved, log = store.load(1), store.load_log(1)
    assert (log.id, log.setup, log.started_at) == (saved.id, saved.setup, saved.started_at)
    assert log.actions == tuple(entry.action for entry in saved.log) == tuple(game.log)
    assert log.stamps == tuple(entry.at for entry in saved.log)
    assert (log.texts, log.snapshots) == (saved.texts, saved.snapshots) and len(log.snapshots) == 60 // EVERY


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET payload = substr(payload, 1, 40) WHERE upto = 70",  # cut short: not JSON
    "UPDATE snapshots SET payload = payload || ' ' WHERE upto = 70",  # still JSON, but its checksum disagrees
    "UPDATE snapshots SET rules = 'other rules' WHERE upto = 70",  # made by another version of the rules
    "UPDATE snapshots SET since = 0 WHERE upto = 70",  # not after the one before it
    "UPDATE actions SET action = action || ' ' WHERE seq = 65",  # the same action, but not the row it covered
    "DELETE FROM snapshots WHERE upto = 70",  # missing: the chain ends before it
])
def test_a_snapshot_that_disagrees_or_cannot_be_read_is_ignored_and_the_log_replayed(
    tmp_path: Path, damage: str
) -> None:
    game = endless_game(150, seed=5)
    path = tmp_path / "games.db"
    played(path, game)
    edit(path, damage)
    again, upto = resumed(path)
    assert upto == 63  # the last snapshot before the damaged one
    assert timeline(again) == timeline(game)


def test_a_checksum_that_matches_a_payload_edited_by_hand_is_still_refused_if_it_does_not_read(tmp_path: Path) -> None:
    game = endless_game(30, seed=1)
    path = tmp_path / "games.db"
    played(path, game)
    rewrite_snapshot(path, 14, missing_field)
    again, upto = resumed(path)
    assert upto == 7
    assert timeline(again) == timeline(game)


def test_after_an_ignored_snapshot_the_next_ones_build_on_the_last_good_one(tmp_path: Path) -> None:
    game = endless_game(120, seed=2)
    path = tmp_path / "games.db"
    played(path, game, 80)
    edit(path, "UPDATE snapshots SET rules = 'other rules' WHERE upto = 42")
    with Store.open(path) as store:
        session = Session.resume(store, 1)
        assert session is not None and session.snapshot_upto == 35
        for action in list(game.log)[80:]:
            session.apply(action)
    assert snapshot_rows(path) == [(i - EVERY, i) for i in range(EVERY, 36, EVERY)] + [(35, 84)] + [
        (i - EVERY, i) for i in range(91, 120, EVERY)]
    again, upto = resumed(path)
    assert upto == 119
    assert timeline(again) == timeline(game)
