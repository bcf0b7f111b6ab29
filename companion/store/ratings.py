"""Skill ratings from the saved games: openskill's Plackett-Luce model, every finished game in the order played.

Kept, not rebuilt: each player's rating (mu, sigma and games) is kept in ``player_ratings``, and
``rating_state`` names the last game they include (by start, then number: the order games are rated in).
Opening the Players list folds in only the games after it and keeps the result, in the transaction that
read them (``Store.read_then_keep``). Anything that changes the past empties both tables, by triggers
whatever program writes (``schema.PAST_CHANGED``): a game's scores written, taken back or edited at or
before that last game, so a merge and its undo (which move seats between players), a restore or an import
of older games, a game resumed and finished after newer ones, an end undone, a hand edit. The next open then
rates every game again. A rename or a retirement changes no rating: ratings are kept by player number, and
the names are read as the list opens.

So the kept ratings always equal ``rebuilt``, every game rated afresh, to the last bit (they are folded
from the same floats). A kept row edited or damaged fails the checksum kept with them, and everything is
rated again; a file that cannot be written (read-only, busy) gets its ratings worked out and not kept.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.store.db import Store


@dataclass(frozen=True, slots=True)
class Rating:
    name: str
    mu: float
    """The estimated skill (25 for a newcomer)."""
    sigma: float
    """How unsure that estimate is: it shrinks as the player plays."""
    games: int

    @property
    def ordinal(self) -> float:
        """Skill less three times its uncertainty: the ranking's order, so a lucky newcomer is not first."""
        return self.mu - 3 * self.sigma


RATED = (
    "SELECT scores.game_id, scores.player_id, scores.winner, coalesce(scores.score, 0)"
    " FROM games JOIN scores ON scores.game_id = games.id{after} ORDER BY games.started_at, games.id, scores.seat"
)
"""Every finished game's seats in the order they are rated; ``after`` limits it to the games after one."""
AFTER = " WHERE (games.started_at, games.id) > (?, ?)"


@dataclass(slots=True)
class Folded:
    """The ratings folded so far, by player number, with how many games each player was rated in."""

    current: dict[int, PlackettLuceRating] = field(default_factory=dict)
    played: Counter[int] = field(default_factory=Counter)
    through: tuple[str, int] | None = None
    """The last game folded in: its start and its number."""
    changed: bool = False
    """Something to keep: games folded in, or kept rows found unusable."""
    names: dict[int, str] = field(default_factory=dict)


def ratings(store: Store) -> list[Rating]:
    """Every player with a finished game, best ordinal first: the kept ratings with the games since folded in.

    A game's places: its winners first, then the others by score (five-spices,
    which keeps no score: every other seat shares second place).
    """
    return _ranked(store.read_then_keep(_brought_up_to_date, _keep))


def rebuilt(store: Store) -> list[Rating]:
    """Every finished game rated afresh, nothing kept read or written: what ``ratings`` always equals."""
    folded = Folded()
    _fold(PlackettLuce(), folded, store.stream(RATED.format(after="")))
    folded.names = dict(store.query("SELECT id, name FROM players"))
    return _ranked(folded)


def _brought_up_to_date(conn: sqlite3.Connection) -> Folded:
    model = PlackettLuce()
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    folded = _kept(conn, model) if "rating_state" in tables else Folded()  # a read-only file from before them
    if folded.through is None:
        last = _fold(model, folded, conn.execute(RATED.format(after="")))
    else:
        last = _fold(model, folded, conn.execute(RATED.format(after=AFTER), folded.through))
    if last is not None:
        folded.through = conn.execute("SELECT started_at, id FROM games WHERE id = ?", [last]).fetchone()
    folded.names = dict(conn.execute("SELECT id, name FROM players"))
    return folded


def _kept(conn: sqlite3.Connection, model: PlackettLuce) -> Folded:
    """The kept ratings; none (everything to fold again) when none are kept or they fail their checksum."""
    state = conn.execute("SELECT through_started_at, through_id, checksum FROM rating_state").fetchall()
    rows = conn.execute("SELECT player_id, mu, sigma, games FROM player_ratings ORDER BY player_id").fetchall()
    if len(state) != 1:
        return Folded(changed=bool(state or rows))
    started_at, game, checksum = state[0]
    if checksum != _checksum((started_at, game), rows):
        return Folded(changed=True)
    return Folded({player: model.rating(mu=mu, sigma=sigma) for player, mu, sigma, _games in rows},
                  Counter({player: games for player, _mu, _sigma, games in rows}), (started_at, game))


def _keep(conn: sqlite3.Connection, folded: Folded) -> None:
    if not folded.changed:
        return
    rows = sorted((player, rated.mu, rated.sigma, folded.played[player]) for player, rated in folded.current.items())
    conn.execute("DELETE FROM player_ratings")
    conn.execute("DELETE FROM rating_state")
    if folded.through is None:
        return
    conn.executemany("INSERT INTO player_ratings (player_id, mu, sigma, games) VALUES (?, ?, ?, ?)", rows)
    conn.execute("INSERT INTO rating_state (through_started_at, through_id, checksum) VALUES (?, ?, ?)",
                 [*folded.through, _checksum(folded.through, rows)])


def _checksum(through: tuple[str, int], rows: Iterable[tuple[Any, ...]]) -> str:
    """Of every kept row as SQLite gives it back (a float's repr is exact), and the last game they include."""
    return hashlib.sha256(repr((through, list(rows))).encode()).hexdigest()


def _fold(model: PlackettLuce, folded: Folded, rows: Iterable[tuple[Any, ...]]) -> int | None:
    """Rate each game of ``rows`` (``RATED``'s) in turn, from the ratings ``folded`` has; the last game's number."""
    current, played = folded.current, folded.played
    last = None
    for game, group in groupby(rows, key=itemgetter(0)):
        seats = [(player, winner, score) for _id, player, winner, score in group]
        ranks = [1 if won else 2 + sum(other > score for _p, w, other in seats if not w) for _p, won, score in seats]
        _rate(model, [current.get(player) or current.setdefault(player, model.rating()) for player, _w, _s in seats],
              ranks)
        played.update(player for player, _w, _s in seats)
        last, folded.changed = game, True
    return last


def _ranked(folded: Folded) -> list[Rating]:
    found = [Rating(folded.names[player], rated.mu, rated.sigma, folded.played[player])
             for player, rated in folded.current.items()]
    return sorted(found, key=lambda r: (-r.ordinal, r.name))


def _rate(model: PlackettLuce, players: list[PlackettLuceRating], ranks: list[int]) -> None:
    """``model.rate`` for one game of single-player teams, updating each player's rating in place.

    ``rate`` deep-copies every team and builds a new rating object for each seat
    (uuids and all), which was two thirds of rebuilding 100,000 games (2.4 s of
    CPU; 0.8 s this way). Here are its steps for this case, in its order: the
    dynamics ``tau`` added to each sigma, the teams sorted by rank (a stable sort,
    as ``rate``'s own), then the model's update, which sets each rating it is given.
    ``test_the_rebuild_equals_the_ratings_as_first_computed_over_hundreds_of_games``
    compares the result with ``rate``'s to the last bit, so a new openskill that
    changes these steps fails there first.
    """
    tau_squared = model.tau * model.tau
    for player in players:
        player.sigma = math.sqrt(player.sigma * player.sigma + tau_squared)
    order = sorted(range(len(players)), key=ranks.__getitem__)
    model._compute(teams=[[players[i]] for i in order], ranks=[ranks[i] for i in order])
