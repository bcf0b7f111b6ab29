"""Skill ratings from the saved games: openskill's Plackett-Luce model, every finished game in the order played.

Nothing is kept: the ratings are rebuilt from the ``scores`` of every finished
game each time, so a rename, a merge, an import or an edited row is always
reflected, and no rating can drift from the games it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from openskill.models import PlackettLuce

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
    rows = store.query(
        "SELECT scores.game_id, players.name, scores.winner, coalesce(scores.score, 0)"
        " FROM scores JOIN games ON games.id = scores.game_id JOIN players ON players.id = scores.player_id"
        " ORDER BY games.started_at, games.id, scores.seat"
    )
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    for _game, group in groupby(rows, key=lambda row: row[0]):
        seats = [(name, bool(winner), score) for _id, name, winner, score in group]
        teams = [[model.rating(*current.get(name, (model.mu, model.sigma)), name=name)] for name, _w, _s in seats]
        ranks = [1 if won else 2 + sum(other > score for _n, w, other in seats if not w) for _n, won, score in seats]
        for name, [rated] in zip((name for name, _w, _s in seats), model.rate(teams, ranks=ranks), strict=True):
            current[name] = (rated.mu, rated.sigma)
            played[name] = played.get(name, 0) + 1
    found = [Rating(name, mu, sigma, played[name]) for name, (mu, sigma) in current.items()]
    return sorted(found, key=lambda r: (-r.ordinal, r.name))
