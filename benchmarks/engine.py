"""How fast the rules engine applies one action and replays a 1,000-action game.

Run: .venv/bin/python benchmarks/engine.py

Machines here are noisy, so every figure is a median of many runs, and each is
set beside a baseline measured in the same run: copying one state with
``dataclasses.replace`` (the least any immutable step must do), and reading the
transcript without applying it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from companion.rules import Game, apply, read_transcript, replay_transcript, write_transcript
from companion.store.simulate import long_game, random_game, random_setup

ACTIONS = 1000


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


def median_seconds(run: Callable[[], object], repeat: int, number: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            run()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def main() -> None:
    games = spicy_games(ACTIONS)
    steps = [step for g in games for step in zip(g.states, g.moves)]
    long = long_game(ACTIONS)
    text = write_transcript(long.setup, long.log)
    print(f"{len(steps)} actions from {len(games)} spicy/sweet-spicy games; "
          f"one five-spices game of {len(long.log)} actions")

    def apply_every_action() -> None:
        for state, action in steps:
            apply(state, action)

    def copy_every_state() -> None:
        for state, _ in steps:
            replace(state, events=())

    per_apply = median_seconds(apply_every_action, repeat=15, number=3) / len(steps)
    per_copy = median_seconds(copy_every_state, repeat=15, number=3) / len(steps)
    replay_log = median_seconds(lambda: Game.replay(long.setup, long.log), repeat=15, number=3)
    replay_spicy = median_seconds(lambda: [Game.replay(g.setup, g.log) for g in games], repeat=15, number=3)
    replay_text = median_seconds(lambda: replay_transcript(text), repeat=15, number=3)
    parse_text = median_seconds(lambda: read_transcript(text.splitlines()), repeat=15, number=3)

    print(f"apply one action        median {per_apply * 1e6:8.1f} µs   (target < 100 µs)")
    print(f"  baseline: copy a state median {per_copy * 1e6:8.1f} µs   apply/copy = {per_apply / per_copy:.1f}x")
    print(f"replay a 1,000-action game median {replay_log * 1e3:5.1f} ms   (target < 100 ms)")
    print(f"replay {len(steps)} spicy actions median {replay_spicy * 1e3:5.1f} ms")
    print(f"  the same game from transcript text median {replay_text * 1e3:5.1f} ms")
    print(f"  baseline: parse only  median {parse_text * 1e3:8.1f} ms   replay/parse = {replay_text / parse_text:.1f}x")


if __name__ == "__main__":
    main()
