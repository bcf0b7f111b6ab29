"""How fast the rules engine applies one action, replays long games and finds legal moves.

Run: .venv/bin/python benchmarks/engine.py   (about a minute)

Machines here are noisy, so every figure is a median of several runs, and each
is set beside a baseline measured in the same run:
- one action, beside copying one state with ``dataclasses.replace`` (the least
  any immutable step must do);
- replay per action at 50,000 actions (``MAX_ACTIONS``, the most a game may
  log), beside the same at 1,000 (replay must be linear: the ratio stays near 1);
- random legal play (``random_play``, what ``simulate`` does) per game, beside
  replaying the same games (finding the legal moves must cost little more than
  making them).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from companion.random_play import long_game, random_game, random_setup
from companion.rules import MAX_ACTIONS, Game, apply, read_transcript, replay_transcript, write_transcript

ACTIONS = 1000
LONG = MAX_ACTIONS
PLAYED_GAMES = 60


def spicy_games(total_actions: int, seed: int = 7) -> list[Game]:
    """Random legal Spicy and Sweet & Spicy games, as at a table, until they hold ``total_actions`` actions.

    Real games of Spicy end after a few hundred actions (the World's End card
    or the trophies), so a thousand actions of them span several games.
    """
    rng = random.Random(seed)
    games: list[Game] = []
    while sum(len(g.log) for g in games) < total_actions:
        setup = random_setup(rng)
        if setup.profile.numbered:
            games.append(random_game(rng, setup))
    return games


def play_undo(actions: int) -> str:
    """A transcript of ``actions`` lines, a play and its undo over and over: the longest log a table could make."""
    return "rules spicy\nseats Ana Ben\n" + "play Ana chili 1\nundo\n" * (actions // 2)


def median_seconds(run: Callable[[], object], repeat: int, number: int = 1) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            run()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def play_games(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    return [random_game(rng, random_setup(rng)) for _ in range(count)]


def main() -> None:
    games = spicy_games(ACTIONS)
    steps = [(before.state, after.move) for g in games for before, after in pairwise(g.steps())]
    long = long_game(ACTIONS)
    text = write_transcript(long.setup, long.log)
    print(f"{len(steps)} standing actions from {len(games)} spicy/sweet-spicy games; "
          f"one five-spices game of {len(long.log)} actions")

    def apply_every_action() -> None:
        for state, action in steps:
            assert action is not None
            apply(state, action)

    def copy_every_state() -> None:
        for state, _ in steps:
            replace(state, events=())

    per_apply = median_seconds(apply_every_action, repeat=15, number=3) / len(steps)
    per_copy = median_seconds(copy_every_state, repeat=15, number=3) / len(steps)
    print(f"apply one action           median {per_apply * 1e6:8.1f} µs   (target < 100 µs)")
    print(f"  baseline: copy a state   median {per_copy * 1e6:8.1f} µs   apply/copy = {per_apply / per_copy:.1f}x")

    replay_log = median_seconds(lambda: Game.replay(long.setup, long.log), repeat=15, number=3)
    replay_text = median_seconds(lambda: replay_transcript(text), repeat=15, number=3)
    parse_text = median_seconds(lambda: list(read_transcript(text.splitlines()).actions), repeat=15, number=3)
    print(f"replay a 1,000-action game median {replay_log * 1e3:8.1f} ms")
    print(f"  the same from transcript median {replay_text * 1e3:8.1f} ms")
    print(f"  baseline: parse only     median {parse_text * 1e3:8.1f} ms   "
          f"replay/parse = {replay_text / parse_text:.1f}x")

    short_text, long_text = play_undo(ACTIONS), play_undo(LONG)
    per_short = median_seconds(lambda: replay_transcript(short_text), repeat=15, number=3) / ACTIONS
    per_long = median_seconds(lambda: replay_transcript(long_text), repeat=5) / LONG
    print(f"replay {LONG:,} play/undo lines: median {per_long * 1e6:6.1f} µs an action")
    print(f"  baseline: {ACTIONS:,} lines:        median {per_short * 1e6:6.1f} µs an action   "
          f"long/short = {per_long / per_short:.2f}x   (target at most 1.5x)")

    played = play_games(1, PLAYED_GAMES)
    total = sum(len(g.log) for g in played)
    per_play = median_seconds(lambda: play_games(1, PLAYED_GAMES), repeat=5) / PLAYED_GAMES
    per_replay = median_seconds(lambda: [Game.replay(g.setup, g.log) for g in played], repeat=5) / PLAYED_GAMES
    print(f"random legal play (simulate), {PLAYED_GAMES} games of {total / PLAYED_GAMES:.0f} actions on average: "
          f"median {per_play * 1e3:6.2f} ms a game")
    print(f"  baseline: replay the same games: median {per_replay * 1e3:6.2f} ms a game   "
          f"play/replay = {per_play / per_replay:.1f}x   (target at most 3x)")


if __name__ == "__main__":
    main()
