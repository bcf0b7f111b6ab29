"""``spicy-companion buzzers test``: a console check for the buzzer wiring.

It arms every seat and prints each press as it comes (seat, edge time, gap to
the press before), each release with the bounces seen, and which buttons are
stuck down, then a summary, including the seats never pressed: the ones whose
wiring to look at. Seats are shown counting from 1, like the keys.
"""

from __future__ import annotations

import argparse
import queue
import sys
import termios
import threading
import time
import tty
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TextIO

from companion.buzzers import Buzzers, KeyboardBuzzers, format_delay, open_buzzers
from companion.config import Backend, load_config


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("buzzers", help="check the challenge buzzers")
    commands = parser.add_subparsers(dest="buzzers_command", metavar="COMMAND", required=True)
    test = commands.add_parser(
        "test", help="arm every seat and show each press, bounce and stuck button"
    )
    test.add_argument("--seconds", type=float, help="stop after this long (default: at Ctrl-C)")
    test.add_argument(
        "--backend", choices=[b.value for b in Backend if b != Backend.AUTO], help="instead of the config's backend"
    )
    test.set_defaults(handler=_test)


def _test(args: argparse.Namespace) -> int:
    config = load_config(args.config).buzzers
    if args.backend:
        config = replace(config, backend=args.backend)
    buzzers = open_buzzers(config)
    with buzzers, _terminal_keys(buzzers):
        return run_test(buzzers, sys.stdout, seconds=args.seconds)


def run_test(
    buzzers: Buzzers,
    out: TextIO,
    *,
    seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Report presses until ``seconds`` have passed or Ctrl-C; always exit 0."""
    events: queue.Queue[tuple[str, int, float]] = queue.Queue()
    buzzers.on_press = lambda seat, edge: events.put(("press", seat, edge))
    buzzers.on_release = lambda seat, edge: events.put(("release", seat, edge))
    if buzzers.notice:
        print(f"note: {buzzers.notice}", file=out)
    stuck = buzzers.arm(range(buzzers.seats))
    print(f"{buzzers.kind}: all {buzzers.seats} seats armed; press each button (Ctrl-C stops)", file=out)
    for seat in sorted(stuck):
        print(f"seat {seat + 1}  STUCK    held down from the start: ignored until released", file=out)
    presses: Counter[int] = Counter()
    down_at: dict[int, float] = {}
    last_press: float | None = None
    bounces_seen = buzzers.bounces()
    end = None if seconds is None else clock() + seconds
    try:
        while end is None or clock() < end:
            try:
                kind, seat, edge = events.get(timeout=0.1 if end is None else max(0.0, min(0.1, end - clock())))
            except queue.Empty:
                continue
            if kind == "press":
                gap = "" if last_press is None else f"   {_gap((edge - last_press) * 1000)}"
                print(f"seat {seat + 1}  press    at {edge:.6f} s{gap}", file=out)
                presses[seat] += 1
                down_at[seat] = last_press = edge
                continue
            bounces = buzzers.bounces()
            new_bounces = bounces.get(seat, 0) - bounces_seen.get(seat, 0)
            bounces_seen = bounces
            held = f"held {(edge - down_at.pop(seat)) * 1000:.0f} ms" if seat in down_at else "was stuck, now free"
            print(f"seat {seat + 1}  release  {held}, {new_bounces} bounces", file=out)
    except KeyboardInterrupt:
        pass
    _summary(buzzers, presses, stuck, out)
    buzzers.disarm()
    return 0


def _gap(ms: float) -> str:
    """Presses are confirmed one by one, so one may come in before an earlier one."""
    if ms >= 0:
        return f"{format_delay(ms)} after the last press"
    return f"{format_delay(-ms).removeprefix('+')} before the last press"


def _summary(buzzers: Buzzers, presses: Counter[int], stuck: frozenset[int], out: TextIO) -> None:
    bounces = buzzers.bounces()
    print("summary:", file=out)
    held = buzzers.held()
    for seat in range(buzzers.seats):
        note = ""
        if seat in stuck and seat in held:
            note = "  STUCK: still held down"
        elif not presses[seat]:
            note = "  never pressed: check its wiring"
        glitches = buzzers.glitches().get(seat, 0)
        noise = f", {glitches} glitches (too short to be a press)" if glitches else ""
        print(f"  seat {seat + 1}: {presses[seat]} presses, {bounces.get(seat, 0)} bounces{noise}{note}", file=out)


@contextmanager
def _terminal_keys(buzzers: Buzzers) -> Iterator[None]:
    """Let the keyboard backend hear keys typed in this terminal, one tap per key.

    A terminal reports characters, not keys going down and up, so each
    character is a press and an immediate release.
    """
    if not isinstance(buzzers, KeyboardBuzzers) or not sys.stdin.isatty():
        yield
        return
    saved = termios.tcgetattr(sys.stdin)
    tty.setcbreak(sys.stdin)

    def read() -> None:
        while key := sys.stdin.read(1):
            buzzers.key_down(key, time.monotonic())
            buzzers.key_up(key, time.monotonic())

    threading.Thread(target=read, name="buzzer-keys", daemon=True).start()
    try:
        yield
    finally:
        termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)
