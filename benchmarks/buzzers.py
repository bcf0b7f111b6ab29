"""Edge-time arbitration against "first callback wins", under the deliveries real backends make.

Part 1 (real time): each trial, 2 to 5 of the five armed seats press within
15 ms of each other; each callback reaches us 0 to 20 ms after its edge, at
random. Both handlers see every callback at the same moment, through a Referee
on the keyboard backend (real thread, real locks): the cost of the referee
itself beyond its settle wait.

Part 2 (simulated time, 10,000 trials per model): the same slaps delivered as
each backend delivers them. ``lgpio``: kernel stamps, events held back 0.5 ms
and handed over sorted, jitter up to 1 ms. ``box``: the Pico's one-snapshot
stamps, lines sent by its 1 ms loop in seat order over 1 ms USB frames.
``worst case``: callbacks 0-20 ms late and one in twenty later than the settle
time. One trial in ten has a seat that slapped 0-3 ms before the card was
played; one in ten has two seats within 30 µs. Three handlers: first callback
wins; edge time without the arm-time cutoff and confirmation (as before); and
ours. Wrong winner: a single winner who was not the first to slap after the
card. A tie shown is not a wrong winner: the table decides it. Latency runs
from the first slap to the decision.

Part 3 (real time): what arming holds up its caller, the UI thread, on each
backend: the backend's own ``arm``, which the table called before the referee
owned the buzzers, against ``Referee.arm``, which posts to the referee's
thread. The box is a real pty answered by a thread of this script, at once
or never (then the backend's wait runs out at ``ARM_REPLY``); GPIO is
gpiozero's MockFactory with six LEDs. Also timed: until the window is open
(the arm has reached the buzzers), and where the window opens on the edge
clock against the moment of the call.

    python benchmarks/buzzers.py [--trials 300] [--sim-trials 10000] [--arm-trials 200] [--settle-ms 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import select
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from gpiozero.pins.mock import MockFactory

from companion.buzzers import Buzzers, GpioBuzzers, KeyboardBuzzers, Referee, SerialBuzzers, protocol
from companion.buzzers.arbiter import Arbiter, Contested, Decision
from companion.config import BuzzerConfig

SEATS = 6
OWN_CARD = 0
ARMED = range(1, SEATS)
KEYS = tuple(str(seat) for seat in range(SEATS))

Trial = list[tuple[float, int, float]]  # (callback delay after trial start, seat, edge offset)


def make_trial(rng: random.Random) -> Trial:
    seats = rng.sample(list(ARMED), rng.randint(2, 5))
    edges = rng.sample(range(15_000), len(seats))  # distinct µs: no ties to settle
    return sorted((us / 1e6 + rng.uniform(0, 0.020), seat, us / 1e6) for seat, us in zip(seats, edges, strict=True))


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


# Part 2: delivery models. Times in seconds; the window opens (arm) at 0.
CONFIRM = 0.0015  # confirm_ms: our backends report a press this long after its edge at the earliest
IRQ_LATENCY = 10e-6  # the Pico's interrupt reads every button this long after the first edge
Delivery = tuple[float, int, float]  # (callback arrival, seat, edge stamp)


def make_slaps(rng: random.Random) -> tuple[list[tuple[int, float]], tuple[int, float] | None]:
    """Physical presses after the card is played, and maybe one slap just before it.

    2-4 seats press; the first 5-300 ms after arming, each other one a few ms
    later (exponential, mean 6 ms), and one in ten trials a second seat within
    30 µs of the first (a true near-tie). One trial in ten, another seat jumped
    the gun 0-3 ms before the card was played.
    """
    seats = rng.sample(list(ARMED), rng.randint(2, 4) + 1)
    early_seat = seats.pop()
    first = rng.uniform(0.005, 0.300)
    times = [first] + [first + rng.expovariate(1 / 0.006) for _ in seats[1:]]
    if rng.random() < 0.1:
        times[1] = first + rng.uniform(0, 30e-6)
    early = (early_seat, -rng.uniform(0, 0.003)) if rng.random() < 0.1 else None
    return list(zip(seats, times, strict=True)), early


def lgpio(slaps: list[tuple[int, float]], rng: random.Random) -> tuple[list[Delivery], list[Delivery]]:
    """Kernel stamps; lgpio holds events back 0.5 ms and hands them over sorted, jitter up to 1 ms."""
    stamped = sorted((at, seat) for seat, at in slaps)
    naive, arrival = [], float("-inf")
    for at, seat in stamped:
        arrival = max(arrival, at + 0.0005 + rng.uniform(0, 0.001))
        naive.append((arrival, seat, at))
    ours = [(max(arrival, stamp + CONFIRM), seat, stamp) for arrival, seat, stamp in naive]
    return naive, ours


def box(slaps: list[tuple[int, float]], rng: random.Random) -> tuple[list[Delivery], list[Delivery]]:
    """The Pico: one snapshot per interrupt, lines sent by its 1 ms loop in seat order, 1 ms USB frames."""
    stamped: list[tuple[float, int]] = []
    group_stamp = float("-inf")
    for at, seat in sorted((at, seat) for seat, at in slaps):
        if at > group_stamp:
            group_stamp = at + IRQ_LATENCY
        stamped.append((group_stamp, seat))
    deliveries = []
    for stamp, seat in sorted(stamped):
        sent = math.ceil((stamp + CONFIRM) * 1000) / 1000  # the loop after the press is confirmed
        deliveries.append((math.ceil(sent * 1000 + rng.random()) / 1000 + 0.0001, seat, stamp))
    deliveries.sort()
    return deliveries, deliveries


def worst(slaps: list[tuple[int, float]], rng: random.Random) -> tuple[list[Delivery], list[Delivery]]:
    """A loaded Pi: callbacks 0-20 ms late, and one in twenty 30-80 ms late (past the settle time)."""
    naive = []
    for seat, at in slaps:
        late = rng.uniform(0, 0.020) + (rng.uniform(0.030, 0.080) if rng.random() < 0.05 else 0)
        naive.append((at + late, seat, at))
    naive.sort()
    return naive, sorted((max(arrival, stamp + CONFIRM), seat, stamp) for arrival, seat, stamp in naive)


MODELS = {"lgpio": lgpio, "box": box, "worst case": worst}


def referee(deliveries: list[Delivery], settle: float, opened: float) -> tuple[Decision, float, int]:
    """The Referee's timing on simulated time: its settle wait, its clock offset, the real Arbiter.

    Returns the decision, its moment, and how many presses came in contested after it.
    """
    arbiter = Arbiter(ARMED, settle=settle, own_card=OWN_CARD, opened=opened)
    offset, due, decided_at, contested = float("-inf"), None, None, 0
    pending = list(deliveries)
    while pending or decided_at is None:
        if decided_at is None and due is not None and (not pending or pending[0][0] >= due):
            now = due + offset
            decision = arbiter.poll(now)
            if decision is not None:
                decided_at = due
                continue
            due += max(arbiter.deadline - now, 1e-9)  # type: ignore[operator]  # the Referee's clock moves on
            continue
        if not pending:
            raise RuntimeError("no valid press: nothing to decide")
        arrival, seat, stamp = pending.pop(0)
        if isinstance(arbiter.press(seat, stamp), Contested):
            contested += 1
        elif arbiter.decision is None and seat != OWN_CARD and stamp >= opened:
            offset = max(offset, stamp - arrival)
            due = arrival + settle if due is None else due
    assert arbiter.decision is not None and decided_at is not None
    return arbiter.decision, decided_at, contested


@dataclass
class Tally:
    """One handler's figures under one delivery model."""

    wrong: int = 0
    tie: int = 0
    contested: int = 0
    latency: list[float] = field(default_factory=list)


def simulated(trials: int, settle: float, rng: random.Random) -> dict[str, dict[str, Tally]]:
    results = {}
    for name, model in MODELS.items():
        naive, uncut, ours = Tally(), Tally(), Tally()
        for _ in range(trials):
            slaps, early = make_slaps(rng)
            truth_time, truth = min((time, seat) for seat, time in slaps)
            naive_deliveries, our_deliveries = model(slaps + ([early] if early else []), rng)
            first = next(d for d in naive_deliveries if d[0] >= 0)  # callbacks before arming are dropped
            naive.wrong += first[1] != truth
            naive.latency.append(first[0] - truth_time)
            for tally, deliveries, opened in (
                (uncut, naive_deliveries, float("-inf")),  # before: no cutoff at arming, no confirm wait
                (ours, our_deliveries, 0.0),
            ):
                decision, decided_at, contested = referee(deliveries, settle, opened)
                tally.tie += bool(decision.tie)
                tally.wrong += not decision.tie and decision.winner != truth
                tally.contested += contested > 0
                tally.latency.append(decided_at - truth_time)
        results[name] = {"first callback wins": naive, "edge time, no cutoff": uncut, "edge time (ours)": ours}
    return results


# Part 3: what arming costs the caller.
LEDS = (17, 27, 22, 23, 24, 25)


@contextmanager
def box_on_a_pty(answer: bool) -> Iterator[SerialBuzzers]:
    """A buzzer box on a real pty: says HELLO when asked, and answers each ``A`` with a ``T`` if ``answer``."""
    master, slave = os.openpty()
    stop = threading.Event()

    def serve() -> None:
        lines = protocol.LineSplitter()
        while not stop.is_set():
            if not select.select([master], [], [], 0.05)[0]:
                continue
            for line in lines.feed(os.read(master, 4096)):
                kind = protocol.decode(line)[0]
                micros = round(time.monotonic() * 1e6)
                if kind == protocol.QUERY:
                    os.write(master, protocol.encode_hello(SEATS, 0, micros))
                elif kind == protocol.ARM and answer:
                    os.write(master, protocol.encode_opened(micros))

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    buzzers = SerialBuzzers([os.ttyname(slave)], seats=SEATS)
    try:
        if not buzzers.wait_connected(5):
            raise RuntimeError("the pty box never answered")
        yield buzzers
    finally:
        buzzers.close()
        stop.set()
        server.join()
        os.close(master)
        os.close(slave)


@contextmanager
def backend(name: str) -> Iterator[Buzzers]:
    if name == "keyboard":
        yield KeyboardBuzzers(KEYS)
    elif name == "GPIO":
        with GpioBuzzers(BuzzerConfig().button_pins, LEDS, pin_factory=MockFactory()) as buzzers:
            yield buzzers
    else:
        with box_on_a_pty(answer=name == "box") as buzzers:
            yield buzzers


@dataclass
class ArmCost:
    """One way of arming on one backend, in seconds."""

    held: list[float] = field(default_factory=list)  # the caller waited this long
    open_after: list[float] = field(default_factory=list)  # until the arm had reached the buzzers
    opening: list[float] = field(default_factory=list)  # the window's opening on the edge clock, minus the call's


def arm_costs(name: str, trials: int, settle_ms: float) -> dict[str, ArmCost]:
    """The backend's own arm (before), then Referee.arm (ours), each ``trials`` times, disarmed between."""
    direct, posted = ArmCost(), ArmCost()
    with backend(name) as buzzers:
        for _ in range(trials):
            called_at, start = buzzers.edge_clock(), time.perf_counter()
            buzzers.arm(ARMED)
            direct.held.append(time.perf_counter() - start)
            direct.open_after.append(direct.held[-1])
            if called_at is not None and buzzers.opened_at is not None:
                direct.opening.append(buzzers.opened_at - called_at)
            buzzers.disarm()
        referee = Referee(buzzers, settle_ms=settle_ms)
        for _ in range(trials):
            called_at, start = buzzers.edge_clock(), time.perf_counter()
            referee.arm(ARMED, own_card=OWN_CARD)
            posted.held.append(time.perf_counter() - start)
            referee.flush()
            posted.open_after.append(time.perf_counter() - start)
            if called_at is not None and buzzers.opened_at is not None:
                posted.opening.append(buzzers.opened_at - called_at)
            referee.disarm()
            referee.flush()
        referee.stop()
    return {"backend's arm (before)": direct, "Referee.arm (ours)": posted}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--settle-ms", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sim-trials", type=int, default=10_000)
    parser.add_argument("--arm-trials", type=int, default=200)
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
        extra = f" (settle {(median * 1000 - args.settle_ms):+.3f} ms)" if name == "ours" else ""
        print(f"{label:<24}{wrong / args.trials:>13.1%}{ms(median) + extra:>30}{ms(p95):>12}")
    results2 = simulated(args.sim_trials, args.settle_ms / 1000, rng)
    print(f"Part 2: {args.sim_trials:,} simulated trials per delivery model, settle {args.settle_ms:g} ms")
    print(f"{'model':<12}{'handler':<22}{'wrong winner':>13}{'tie shown':>11}{'contested':>11}"
          f"{'slap to decision':>18}{'p95':>11}")
    for model, handlers in results2.items():
        for handler, tally in handlers.items():
            rates = [f"{count / args.sim_trials:>10.2%}" for count in (tally.wrong, tally.tie, tally.contested)]
            print(f"{model:<12}{handler:<22}{rates[0]:>13}{rates[1]:>11}{rates[2]:>11}"
                  f"{ms(statistics.median(tally.latency)):>18}{ms(statistics.quantiles(tally.latency, n=20)[-1]):>11}")
    print(f"Part 3: arming, {args.arm_trials} trials a way ({max(5, args.arm_trials // 20)} on the silent box)")
    print(f"{'backend':<13}{'way':<24}{'caller held':>13}{'p95':>11}{'window open after':>19}"
          f"{'opening - call':>16}")
    for name in ("keyboard", "GPIO", "box", "silent box"):
        trials = args.arm_trials if name != "silent box" else max(5, args.arm_trials // 20)
        for way, cost in arm_costs(name, trials, args.settle_ms).items():
            opening = ms(statistics.median(cost.opening)) if cost.opening else "none"
            print(f"{name:<13}{way:<24}{ms(statistics.median(cost.held)):>13}"
                  f"{ms(statistics.quantiles(cost.held, n=20)[-1]):>11}"
                  f"{ms(statistics.median(cost.open_after)):>19}{opening:>16}")


if __name__ == "__main__":
    main()
