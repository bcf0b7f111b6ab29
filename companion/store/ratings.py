"""Skill ratings from the saved games: openskill's Plackett-Luce model, every finished game in the order played.

Nothing is kept: the ratings are rebuilt from the ``scores`` of every finished
game each time, so a rename, a merge, an import or an edited row is always
reflected, and no rating can drift from the games it comes from.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

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


def ratings(store: Store) -> list[Rating]:
    """Every player with a finished game, best ordinal first.

    A game's places: its winners first, then the others by score (five-spices,
    which keeps no score: every other seat shares second place).
    """
    model = PlackettLuce()
    current: dict[int, PlackettLuceRating] = {}
    played: Counter[int] = Counter()
    rows = store.stream(
        "SELECT scores.game_id, scores.player_id, scores.winner, coalesce(scores.score, 0)"
        " FROM games JOIN scores ON scores.game_id = games.id ORDER BY games.started_at, games.id, scores.seat"
    )
    for _game, group in groupby(rows, key=itemgetter(0)):
        seats = [(player, winner, score) for _id, player, winner, score in group]
        ranks = [1 if won else 2 + sum(other > score for _p, w, other in seats if not w) for _p, won, score in seats]
        _rate(model, [current.get(player) or current.setdefault(player, model.rating()) for player, _w, _s in seats],
              ranks)
        played.update(player for player, _w, _s in seats)
    names = dict(store.query("SELECT id, name FROM players"))
    found = [Rating(names[player], rated.mu, rated.sigma, played[player]) for player, rated in current.items()]
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
