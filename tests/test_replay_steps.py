"""A saved game replayed: each position is the engine's fold of that many standing moves, and nothing changes it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, UTC
from functools import reduce
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.random_play import endless_game, random_game, random_setup
from companion.table.replay import Replay
from companion.rules import Challenge, Game, IllegalAction, Pass, apply, start
from companion.store import Recorded, Store, snapshots
from companion.table.model import table_model
from store_helpers import StatesMade, edit, missing_field, played, random_long_game, rewrite_snapshot

AT = datetime(2026, 9, 1, 18, tzinfo=UTC)


def saved(path: Path, seed: int) -> Replay:
    """A random game (undos and redos included) saved with a time a second apart, then read back."""
    rng = random.Random(seed)
    game = random_game(rng, random_setup(rng), max_actions=rng.randint(0, 120))
    stamps = [(AT + timedelta(seconds=i + 1)).isoformat(timespec="milliseconds") for i in range(len(game.log))]
    with Store.open(path) as store:
        (game_id,) = store.save([Recorded(game, AT.isoformat(timespec="milliseconds"), stamps)])
        return Replay(store.load_log(game_id), store.seating(game_id))


def whole(replay: Replay) -> Game:
    """A full fold of the saved log, as the game's page and resuming make it."""
    return Game.replay(replay.setup, replay.saved.actions)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_each_position_is_a_fresh_fold_of_that_many_standing_moves(tmp_path_factory: pytest.TempPathFactory,
                                                                   seed: int) -> None:
    replay = saved(tmp_path_factory.mktemp("replay") / "games.db", seed)
    folded = whole(replay)
    steps = folded.steps()
    moves = [step.move for step in steps[1:]]
    assert replay.last == len(moves) and replay.position == 0
    for n in range(replay.last + 1):
        assert replay.go(n) == n
        assert replay.state == reduce(apply, moves[:n], start(replay.setup))
        model = table_model(replay.game)
        assert model.stack == replay.state.stack and not model.can_redo
        assert model == table_model(Game(folded.setup, steps[n], None, folded.log))  # the card on top's entry too
    assert replay.challenges == tuple(n for n, move in enumerate(moves, 1) if isinstance(move, Challenge))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), start_at=st.integers(-5, 200))
def test_jumps_go_to_the_nearest_challenge_each_way_and_go_stays_within_the_game(
        tmp_path_factory: pytest.TempPathFactory, seed: int, start_at: int) -> None:
    replay = saved(tmp_path_factory.mktemp("replay") / "games.db", seed)
    at = replay.go(start_at)
    assert at == min(max(start_at, 0), replay.last)
    after, before = replay.next_challenge(), replay.previous_challenge()
    assert after == min((n for n in replay.challenges if n > at), default=None)
    assert before == max((n for n in replay.challenges if n < at), default=None)


def test_a_replay_refuses_every_action_and_its_file_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    replay = saved(path, 7)
    before = path.read_bytes()
    replay.go(replay.last // 2)
    state = replay.state
    with pytest.raises(IllegalAction, match="replay"):
        replay.apply(Pass(0))
    replay.keep_buzz(0)
    replay.drop_buzz()
    assert replay.state is state and replay.saved_buzz() is None
    assert path.read_bytes() == before
    assert replay.length() == timedelta(seconds=len(replay.saved.actions))


# --- from the snapshots a live game saved ---------------------------------------------------------

EVERY = 7
"""Snapshots this often in these games, so a short game has many of them."""


def no_steps(data: dict) -> None:
    """A snapshot holding none of the steps it covers."""
    data["steps"] = []


DAMAGE = {
    "none": None,
    "every snapshot missing": "DELETE FROM snapshots",
    "one missing": f"DELETE FROM snapshots WHERE upto = {4 * EVERY}",
    "another version's rules": f"UPDATE snapshots SET rules = 'other rules' WHERE upto = {3 * EVERY}",
    "payload edited": f"UPDATE snapshots SET payload = payload || ' ' WHERE upto = {5 * EVERY}",
    "row edited": f"UPDATE actions SET action = action || ' ' WHERE seq = {2 * EVERY + 3}",
    "a state that does not read back": missing_field,
    "no steps": no_steps,
}
"""What a file may have lived through: a snapshot that disagrees is never read, and one that agrees but
does not read back, or lacks a step, is dropped with the later ones when it is first read."""


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(6 * EVERY, 12 * EVERY), damage=st.sampled_from(list(DAMAGE)),
       order=st.randoms(use_true_random=False))
def test_every_position_from_the_snapshots_is_the_fold_in_any_order(
        tmp_path_factory: pytest.TempPathFactory, seed: int, length: int, damage: str, order: random.Random) -> None:
    """Random long games (many undos and redos) played at a table, so saved with their snapshots; the replay
    goes to every position in a random order (a jump anywhere, back, forward) and each is the full fold's."""
    game = random_long_game(seed, length)
    path = tmp_path_factory.mktemp("replay") / "games.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(snapshots, "EVERY", EVERY)
        played(path, game)
    change = DAMAGE[damage]
    if isinstance(change, str):
        edit(path, change)
    elif change is not None:
        rewrite_snapshot(path, 4 * EVERY, change)
    with Store.open(path) as store:
        replay = Replay(store.load_log(1))
    folded = Game.replay(game.setup, game.log)
    steps = folded.steps()
    assert replay.last == len(steps) - 1
    positions = list(range(replay.last + 1))
    order.shuffle(positions)
    for n in positions:
        assert replay.go(n) == n
        assert replay.state == steps[n].state
        assert table_model(replay.game) == table_model(Game(folded.setup, steps[n], None, folded.log))


def test_a_replay_opens_from_the_last_snapshot_not_from_a_fold_of_the_whole_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1,700-action game with its snapshots every 500 actions: the replay's opening makes the states after
    the last one, and those of that one, and no more; each step after that makes a handful."""
    game = endless_game(3 * snapshots.EVERY + 200, seed=4)
    path = tmp_path / "games.db"
    played(path, game)
    with Store.open(path) as store:
        saved = store.load_log(1)
        assert [snapshot.upto for snapshot in saved.snapshots] == [500, 1000, 1500]
        made = StatesMade(monkeypatch)
        replay = Replay(saved)
    assert replay.state == start(game.setup) and replay.last == len(game.steps()) - 1
    assert made.count <= snapshots.EVERY + 200  # the whole game's fold, or its resume, makes 1,700
    for position in (replay.last // 2, replay.last // 2 - 1, replay.last // 2 + 1, 1, replay.last):
        made.count = 0
        replay.go(position)
        assert replay.state == game.steps()[position].state
        assert made.count <= snapshots.EVERY  # one snapshot read at the most
