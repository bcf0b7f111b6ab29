"""How fast the rules engine applies one action, replays long games and finds legal moves.

Run: .venv/bin/python benchmarks/engine.py [--no-callgrind]   (about 15 s, two minutes with callgrind)

Machines here are noisy, so every figure is a median of several runs, and each
is set beside a baseline measured in the same run:
- one action, beside copying one state with ``dataclasses.replace`` (the least
  any immutable step must do);
- replay per action at 50,000 actions (``MAX_ACTIONS``, the most a game may
  log), beside the same at 1,000 (replay must be linear: the ratio stays near 1);
- random legal play (``random_play``, what ``simulate`` does) per game, beside
  replaying the same games (finding the legal moves must cost little more than
  making them);
- the target row: a 1,000-action transcript replayed (parse and replay, as
  ``replay_transcript`` does) beside the engine's own parse of it.

The last two are also counted in instructions under callgrind where valgrind is
installed, which the machine's load does not change. Each count is a process of
its own (``--count``, ``PYTHONHASHSEED=0``) that reads the same games, does every
work once on a few of them to warm up, and then its own work once; the count of
a process that does no work after its warm-up is taken off each.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from companion.random_play import long_game, random_game, random_setup
from companion.rules import MAX_ACTIONS, Action, Game, Setup, apply, read_transcript, replay_transcript
from companion.rules import write_transcript

ACTIONS = 1000
LONG = MAX_ACTIONS
PLAYED_GAMES = 60
TARGET = 3.0
"""issue 26: replaying a 1,000-action transcript costs at most 3 times its parse."""
PLAY_TARGET = 3.0
"""Random legal play costs at most 3 times replaying the same games."""


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


def paired_medians(first: Callable[[], object], second: Callable[[], object], repeat: int,
                   number: int = 1) -> tuple[float, float]:
    """Medians of both, their runs taken in turn, so a change of load in the middle weighs on both alike."""
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for run, found in zip((first, second), samples, strict=True):
            found.append(median_seconds(run, repeat=1, number=number))
    return statistics.median(samples[0]), statistics.median(samples[1])


def play_games(seed: int, count: int) -> list[Game]:
    rng = random.Random(seed)
    return [random_game(rng, random_setup(rng)) for _ in range(count)]


def parse(text: str) -> list[object]:
    """The engine's own reading of a transcript, without playing it: the baseline of the target row."""
    return list(read_transcript(text.splitlines()).actions)


Played = list[tuple[Setup, list[Action]]]


def works(text: str, played: Played) -> dict[str, Callable[[], object]]:
    """What the callgrind processes count: the transcript parsed or replayed, and ``played`` played again
    (the same seed) or replayed."""
    return {
        "none": lambda: None,
        "parse": lambda: parse(text),
        "replay": lambda: replay_transcript(text),
        "play": lambda: play_games(1, len(played)),
        "replay-played": lambda: [Game.replay(setup, log) for setup, log in played],
    }


def count(work: str, folder: str) -> None:
    """What one process under callgrind runs: every work on a few games to warm up, then ``work`` once."""
    text = (Path(folder) / "game.txt").read_text(encoding="utf-8")
    played: Played = []
    for path in sorted(Path(folder).glob("played-*.txt")):
        transcript = read_transcript(path.read_text(encoding="utf-8").splitlines())
        played.append((transcript.setup, [action for _, action in transcript.actions]))
    for warm_up in works("\n".join(text.splitlines()[:100]), played[:3]).values():
        warm_up()
    works(text, played)[work]()


def instructions(work: str, folder: Path) -> int:
    out = folder / f"{work}.callgrind"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--count", work, str(folder)],
        env={**os.environ, "PYTHONHASHSEED": "0"}, check=True, capture_output=True,
    )
    totals = [line for line in out.read_text().splitlines() if line.startswith("totals:")]
    return int(totals[0].split()[1])


def print_callgrind(text: str, played: list[Game]) -> None:
    if shutil.which("valgrind") is None:
        print("in instructions (callgrind): skipped, valgrind is not installed")
        return
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "game.txt").write_text(text, encoding="utf-8")
        for i, game in enumerate(played):
            (folder / f"played-{i:03}.txt").write_text(write_transcript(game.setup, game.log), encoding="utf-8")
        base = instructions("none", folder)
        counted = {work: instructions(work, folder) - base for work in ("parse", "replay", "play", "replay-played")}
    print(f"in instructions (callgrind): replay of 1,000 actions {counted['replay'] / 1e6:.1f} M, "
          f"its parse {counted['parse'] / 1e6:.1f} M   replay/parse = {counted['replay'] / counted['parse']:.2f}x   "
          f"(target <= {TARGET:g}x)")
    print(f"  random legal play {counted['play'] / 1e6:.0f} M, replaying the same games "
          f"{counted['replay-played'] / 1e6:.0f} M   play/replay = {counted['play'] / counted['replay-played']:.2f}x   "
          f"(target at most {PLAY_TARGET:g}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts (valgrind)")
    parser.add_argument("--count", nargs=2, metavar=("WORK", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count(*args.count)
    else:
        figures(callgrind=not args.no_callgrind)


def figures(callgrind: bool) -> None:
    print(f"load {os.getloadavg()[0]:.1f}")
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
    replay_text, parse_text = paired_medians(lambda: replay_transcript(text), lambda: parse(text), repeat=21, number=3)
    print(f"replay a 1,000-action game median {replay_log * 1e3:8.1f} ms")
    print(f"replay of 1,000 actions against its parse: median {replay_text * 1e3:6.1f} ms (parse and replay)")
    print(f"  baseline: parse only     median {parse_text * 1e3:8.1f} ms   "
          f"replay/parse = {replay_text / parse_text:.2f}x   (target <= {TARGET:g}x)")

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
          f"play/replay = {per_play / per_replay:.1f}x   (target at most {PLAY_TARGET:g}x)")
    if callgrind:
        print_callgrind(text, played)


if __name__ == "__main__":
    main()
