"""``simulate``: random legal games saved as if played at a table, for demos and load."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import islice

from companion.random_play import random_game, random_setup
from companion.store.db import Recorded, Store

BATCH = 10
"""Games a transaction: about 10 ms of inserts, so a live game saving meanwhile hardly waits."""


def recorded_games(count: int, seed: int, start: datetime) -> Iterator[Recorded]:
    """Games an hour apart from ``start``, each action a few seconds after the one before."""
    rng = random.Random(seed)
    for i in range(count):
        game = random_game(rng, random_setup(rng))
        at = start + timedelta(hours=i)
        started_at = at.isoformat(timespec="milliseconds")
        stamps = []
        for _ in game.log:
            at += timedelta(seconds=rng.uniform(2, 20))
            stamps.append(at.isoformat(timespec="milliseconds"))
        yield Recorded(game, started_at, stamps)


def simulate(store: Store, count: int, seed: int, start: datetime) -> list[int]:
    """Play and save ``count`` games, a batch per transaction; each batch is played before the lock is taken."""
    games = recorded_games(count, seed, start)
    ids: list[int] = []
    while batch := list(islice(games, BATCH)):
        ids += store.save(batch)
    return ids
