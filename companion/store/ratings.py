"""Skill ratings from the saved games: openskill's Plackett-Luce model, every finished game in the order played.

Nothing is kept: the ratings are rebuilt from the ``scores`` of every finished
game each time, so a rename, a merge, an import or an edited row is always
reflected, and no rating can drift from the games it comes from.
"""

from __future__ import annotations

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

    Read in one pass from the cursor, by player id (names are looked up once at
    the end), and each player's rating is the object the model returned for
    their last game: at 100,000 games building a fresh rating per seat and
    joining names on every row took a third of the time.
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
        teams = [[current.get(player) or model.rating()] for player, _w, _s in seats]
        ranks = [1 if won else 2 + sum(other > score for _p, w, other in seats if not w) for _p, won, score in seats]
        for (player, _w, _s), [rated] in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            current[player] = rated
        played.update(player for player, _w, _s in seats)
    names = dict(store.query("SELECT id, name FROM players"))
    found = [Rating(names[player], rated.mu, rated.sigma, played[player]) for player, rated in current.items()]
    return sorted(found, key=lambda r: (-r.ordinal, r.name))
