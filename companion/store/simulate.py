"""``simulate``: random legal games saved as if played at a table, for demos and load."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import islice

from companion.random_play import random_game, random_setup
from companion.rules import Challenge
from companion.store.db import Recorded, Store
from companion.store.records import BuzzTime

BATCH = 10
"""Games a transaction: about 10 ms of inserts, so a live game saving meanwhile hardly waits."""


def recorded_games(count: int, seed: int, start: datetime) -> Iterator[Recorded]:
    """Games an hour apart from ``start``, each action a few seconds after the one before, most challenges
    won by buzzer."""
    rng = random.Random(seed)
    hands = random.Random(f"buzz {seed}")  # apart, so the games are those of the seed with or without buzzes
    for i in range(count):
        game = random_game(rng, random_setup(rng))
        at = start + timedelta(hours=i)
        started_at = at.isoformat(timespec="milliseconds")
        stamps = []
        for _ in game.log:
            at += timedelta(seconds=rng.uniform(2, 20))
            stamps.append(at.isoformat(timespec="milliseconds"))
        buzzes = {seq: simulated_buzz(hands) for seq, action in enumerate(game.log, start=1)
                  if isinstance(action, Challenge) and hands.random() < 0.8}
        yield Recorded(game, started_at, stamps, buzz_times=buzzes)


def simulated_buzz(rng: random.Random) -> BuzzTime:
    """A buzz as a table makes them: about a third of a second after the claim's tap (now and then a slap
    before it), and the next press some tens of milliseconds later, or none."""
    margin = None if rng.random() < 0.3 else round(rng.expovariate(1 / 80), 1)
    return BuzzTime(round(rng.gauss(380, 140), 1), margin)


def simulate(store: Store, count: int, seed: int, start: datetime) -> list[int]:
    """Play and save ``count`` games, a batch per transaction; each batch is played before the lock is taken."""
    games = recorded_games(count, seed, start)
    ids: list[int] = []
    while batch := list(islice(games, BATCH)):
        ids += store.save(batch)
    return ids
