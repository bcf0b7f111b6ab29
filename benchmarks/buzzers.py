"""Edge-time arbitration against "first callback wins", on the same shuffled deliveries.

Each trial: 2 to 5 of the five armed seats press within 15 ms of each other;
each callback reaches us 0 to 20 ms after its edge, at random. Both handlers
see every callback at the same moment. We count wrong winners (not the
earliest edge) and time each handler from the first callback, the one that
decides the naive handler and starts our settle timer, to its decision.

Part 1 replays the deliveries in real time through a Referee on the keyboard
backend (real timer thread, real locks). Part 2 replays 10,000 trials through
the pure Arbiter with simulated time, for the wrong-winner rate alone.

    python benchmarks/buzzers.py [--trials 300] [--settle-ms 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time

from companion.buzzers import KeyboardBuzzers, Referee
from companion.buzzers.arbiter import Arbiter, Decision

SEATS = 6
OWN_CARD = 0
ARMED = range(1, SEATS)
KEYS = tuple(str(seat) for seat in range(SEATS))

Trial = list[tuple[float, int, float]]  # (callback delay after trial start, seat, edge offset)


def make_trial(rng: random.Random) -> Trial:
    seats = rng.sample(list(ARMED), rng.randint(2, 5))
    edges = rng.sample(range(15_000), len(seats))  # distinct µs: no ties to settle
    return sorted((us / 1e6 + rng.uniform(0, 0.020), seat, us / 1e6) for seat, us in zip(seats, edges))


def earliest(trial: Trial) -> int:
    return min(trial, key=lambda delivery: delivery[2])[1]


def sleep_until(moment: float) -> None:
    """Sleep, never spin: a spinning thread holds the GIL and would delay the timer we measure."""
    time.sleep(max(0.0, moment - time.perf_counter()))


def real_time(trials: list[Trial], settle_ms: float) -> dict[str, tuple[int, list[float]]]:
    buzzers = KeyboardBuzzers(KEYS)
    decided = threading.Event()
    decision_at: list[float] = []
    decisions: list[Decision] = []

    def on_decision(decision: Decision) -> None:
        decision_at.append(time.perf_counter())
        decisions.append(decision)
        decided.set()

    referee = Referee(buzzers, settle_ms=settle_ms, on_decision=on_decision, clock=time.perf_counter)
    wrong = {"naive": 0, "ours": 0}
    latency: dict[str, list[float]] = {"naive": [], "ours": []}
    for trial in trials:
        decided.clear()
        decision_at.clear()
        decisions.clear()
        referee.arm(ARMED, own_card=OWN_CARD)
        start = time.perf_counter() + 0.005
        naive_winner = None
        first_callback = 0.0
        for arrival, seat, edge in trial:
            sleep_until(start + arrival)
            now = time.perf_counter()
            if naive_winner is None:  # "first callback wins" decides right here
                naive_winner, first_callback = seat, now
                latency["naive"].append(time.perf_counter() - now)
            buzzers.key_down(KEYS[seat], start + edge)
        if not decided.wait(2.0):
            raise RuntimeError("the referee never decided")
        latency["ours"].append(decision_at[0] - first_callback)
        wrong["naive"] += naive_winner != earliest(trial)
        wrong["ours"] += decisions[0].winner != earliest(trial)
        referee.disarm()
        for key in KEYS:
            buzzers.key_up(key, time.perf_counter())
    return {name: (wrong[name], latency[name]) for name in wrong}


def simulated(trials: list[Trial], settle_ms: float) -> dict[str, int]:
    wrong = {"naive": 0, "ours": 0}
    for trial in trials:
        arbiter = Arbiter(ARMED, settle=settle_ms / 1000, own_card=OWN_CARD)
        for _, seat, edge in trial:
            arbiter.press(seat, edge)
        decision = arbiter.poll(trial[0][0] + settle_ms / 1000)
        wrong["naive"] += trial[0][1] != earliest(trial)
        wrong["ours"] += decision is None or decision.winner != earliest(trial)
    return wrong


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--settle-ms", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    live = [make_trial(rng) for _ in range(args.trials)]
    results = real_time(live, args.settle_ms)
    print(f"Part 1: {args.trials} real-time trials, settle {args.settle_ms:g} ms")
    print(f"{'handler':<24}{'wrong winner':>14}{'first callback to decision':>30}{'p95':>12}")
    for name, label in (("naive", "first callback wins"), ("ours", "edge-time arbitration")):
        wrong, latency = results[name]
        median = statistics.median(latency)
        p95 = statistics.quantiles(latency, n=20)[-1]
        extra = f" (settle +{ms(median - args.settle_ms / 1000)})" if name == "ours" else ""
        print(f"{label:<24}{wrong / args.trials:>13.1%}{ms(median) + extra:>30}{ms(p95):>12}")
    many = [make_trial(rng) for _ in range(10_000)]
    wrong = simulated(many, args.settle_ms)
    print("Part 2: 10,000 simulated trials, same generator")
    print(f"first callback wins: {wrong['naive'] / len(many):.1%} wrong; "
          f"edge-time arbitration: {wrong['ours'] / len(many):.1%} wrong")


if __name__ == "__main__":
    main()
