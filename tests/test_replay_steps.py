"""A saved game replayed: each position is the engine's fold of that many standing moves, and nothing changes it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, UTC
from functools import reduce
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.random_play import random_game, random_setup
from companion.replay import Replay
from companion.rules import Challenge, IllegalAction, Pass, apply, start
from companion.store import Recorded, Store
from companion.table_model import table_model

AT = datetime(2026, 9, 1, 18, tzinfo=UTC)


def saved(path: Path, seed: int) -> Replay:
    """A random game (undos and redos included) saved with a time a second apart, then read back."""
    rng = random.Random(seed)
    game = random_game(rng, random_setup(rng), max_actions=rng.randint(0, 120))
    stamps = [(AT + timedelta(seconds=i + 1)).isoformat(timespec="milliseconds") for i in range(len(game.log))]
    with Store.open(path) as store:
        (game_id,) = store.save([Recorded(game, AT.isoformat(timespec="milliseconds"), stamps)])
        return Replay(store.load(game_id), store.seating(game_id))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_each_position_is_a_fresh_fold_of_that_many_standing_moves(tmp_path_factory: pytest.TempPathFactory,
                                                                   seed: int) -> None:
    replay = saved(tmp_path_factory.mktemp("replay") / "games.db", seed)
    moves = [step.move for step in replay.whole.steps()[1:]]
    assert replay.last == len(moves) and replay.position == 0
    for n in range(replay.last + 1):
        assert replay.go(n) == n
        assert replay.state == reduce(apply, moves[:n], start(replay.whole.setup))
        model = table_model(replay.game)
        assert model.stack == replay.state.stack and not model.can_redo
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
    assert replay.length() == timedelta(seconds=len(replay.saved.log))
