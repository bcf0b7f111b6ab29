"""The review of saved games: the list page by page, a game's timeline and score race, players' figures.

A player's figures are read from what the store keeps as each game ends
(``player_totals``, ``player_scores``, ``player_spices``, ``player_pairs``, and the
same per table of a league, ``table_totals`` and so on: see ``companion.store.schema``),
and their chart from their newest games only, so a player's page, over the league or
at one table, costs the same with 100 or 100,000 games; only a game's own
timeline and score race replay its log through the rules engine.
Figures are kept per rules profile: five-spices has no score, so no average
ever mixes it in.
"""

from __future__ import annotations

import json
from datetime import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.rules import Action, Event, EventKind, Game, ProfileId, State
from companion.store.db import Store
from companion.store.records import FIX_ROW, BadRow, SavedGame, names_from_json, to_json
from companion.store.schema import AT_TABLES, COUNTED, GAME_MINUTES, MINUTES_INDEX, TABLE_OF_GAME

TIMELINE_KINDS = frozenset({
    EventKind.LAST_CARD, EventKind.CHALLENGE, EventKind.CHALLENGE_WON, EventKind.STACK_WON, EventKind.RAID,
    EventKind.TROPHY, EventKind.END,
})
"""What a game's timeline tells: the moments the table remembers, not every card played."""


class Status(StrEnum):
    FINISHED = "finished"
    UNFINISHED = "unfinished"
    """Not finished and not given up: a game that can still be resumed."""
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Filter:
    """Which games the list shows; None in a field: any."""

    player: str | None = None
    profile: ProfileId | None = None
    period: str | None = None
    """A year (``2026``) or a month (``2026-11``), in UTC as the stamps are kept."""
    status: Status | None = None
    table: str | None = None
    """One table's games (``HERE``: this table's own); the league's store holds every table's."""

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``games`` and its parameters."""
        terms: list[str] = ["1"]
        params: list[Any] = []
        if self.player is not None:
            terms.append(
                "games.id IN (SELECT game_id FROM game_seats JOIN players ON players.id = game_seats.player_id"
                " WHERE players.name = ?)"
            )
            params.append(self.player)
        if self.profile is not None:
            terms.append("games.profile = ?")
            params.append(str(self.profile))
        if self.period is not None:
            # started_at is an ISO stamp: a year or month is a range of it, which the index answers
            terms.append("games.started_at >= ? AND games.started_at < ?")
            params += [self.period, _after(self.period)]
        if self.status is Status.FINISHED:
            terms.append("games.ended_at IS NOT NULL")
        elif self.status is Status.UNFINISHED:
            terms.append("games.ended_at IS NULL AND games.abandoned_at IS NULL")
        elif self.status is Status.ABANDONED:
            terms.append("games.abandoned_at IS NOT NULL")
        if self.table is not None:
            terms.append(AT_TABLE)
            params.append(_table_param(self.table))
        return " AND ".join(terms), params


HERE = ""
"""This table, in a filter and in ``league_tables``: its own games keep no table id."""
AT_TABLE = "games.table_id IS ?"
"""The condition for one table's games (the index on ``table_id`` answers it); its parameter: ``_table_param``."""


def _table_param(table: str) -> str | None:
    return None if table == HERE else table


def _at(table: str | None) -> tuple[str, list[Any]]:
    """The condition on ``games`` for one table's games (every game's with None) and its parameters."""
    return (AT_TABLE, [_table_param(table)]) if table is not None else ("1", [])


def _kept_at(store: Store, table: str | None, player: str | None) -> tuple[str, list[Any]]:
    """The ``WITH`` a query of the figures kept per table (``AT_TABLES``) starts with, and its parameters, which
    come first: nothing when the file keeps them. A read-only file from before m019 keeps none: there the same
    tables are counted afresh from the player's seats (at ``table``; at every table with None), read by their
    index, then kept if at the table."""
    if at_tables_kept(store):
        return "", []
    common, seats, params = list[str](), list[str](), list[Any]()
    if table is not None:
        common.append(f"at_table AS (SELECT id FROM games WHERE {AT_TABLE})")
        seats.append("{seat}.game_id IN (SELECT id FROM at_table)")
        params.append(_table_param(table))
    if player is not None:
        common.append("who AS (SELECT id FROM players WHERE name = ?)")
        seats.insert(0, "{seat}.player_id = (SELECT id FROM who)")
        params.append(player)
    chosen = " AND ".join(seats) or "true"
    common += [f"{kept.table} AS MATERIALIZED ({kept.select(chosen.format(seat=kept.seats[0]), '')})"
               for kept in AT_TABLES]
    return f"WITH {', '.join(common)} ", params


def at_tables_kept(store: Store) -> bool:
    """Whether the file keeps a player's figures per table (a read-only file from before m019 does not)."""
    return "table_totals" in store.db.table_names()


@dataclass(frozen=True, slots=True)
class TablePlace:
    """A table whose games the store holds, for the filter and for saying where a game was played."""

    id: str
    """``HERE`` for this table."""
    name: str
    games: int


def tables_kept(store: Store) -> bool:
    """Whether the file says which table each game was at (a read-only file from before m017 does not)."""
    return "table_id" in store.db.table("games").columns_dict


def tables(store: Store) -> list[TablePlace]:
    """Every table with games here, this one first, then by name: one entry when the store is one table's,
    which the screens then show as before (no filter, no table named)."""
    if not tables_kept(store):
        return []  # a read-only file from before m017: every game is this table's
    names = dict(store.query("SELECT id, name FROM league_tables"))
    rows = store.query("SELECT coalesce(table_id, ''), count(*) FROM games GROUP BY table_id")
    found = [TablePlace(table_id, names.get(table_id) or (f"Table {table_id[:4]}" if table_id else ""), count)
             for table_id, count in rows]
    return sorted(found, key=lambda place: (place.id != HERE, place.name.casefold(), place.id))


def _after(period: str) -> str:
    """The first stamp after a year or a month: ``2026`` -> ``2027``, ``2026-12`` -> ``2027-01``."""
    if len(period) == 4:
        return str(int(period) + 1)
    year, month = int(period[:4]), int(period[5:7])
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


@dataclass(frozen=True, slots=True)
class GameLine:
    """One row of the saved games' list."""

    id: int
    started_at: str
    ended_at: str | None
    profile: str
    names: tuple[str, ...]
    winners: tuple[str, ...]
    scores: tuple[int | None, ...]
    """Final scores by seat; empty while the game goes on."""
    actions: int
    minutes: int | None
    """From the first action to the last (None while unfinished)."""
    note: str | None
    abandoned_at: str | None = None
    """When the table gave the game up (it is not resumed)."""
    problem: str | None = None
    """Why the row cannot be read (edited by hand); the list shows it and goes on."""
    table: str = HERE
    """The table it was played at."""


def count_games(store: Store, chosen: Filter = Filter()) -> int:
    where, params = chosen.where()
    return int(store.query(f"SELECT count(*) FROM games WHERE {where}", params)[0][0])


def games_page(store: Store, chosen: Filter = Filter(), offset: int = 0, limit: int = 50) -> list[GameLine]:
    """Newest first, ``limit`` rows from ``offset``: the list reads only what it shows."""
    where, params = chosen.where()
    rows = store.query(
        "SELECT id, started_at, ended_at, profile, seats, winners, note, abandoned_at,"
        " (SELECT json_group_array(score) FROM (SELECT score FROM scores WHERE game_id = games.id ORDER BY seat)),"
        " (SELECT max(seq) FROM actions WHERE game_id = games.id),"
        " CAST(round((julianday(ended_at) - julianday(started_at)) * 1440) AS INTEGER),"
        f" {TABLE_OF_GAME if tables_kept(store) else repr(HERE)}"
        f" FROM games WHERE {where} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    return [replace(_line(*row[:-1]), table=row[-1]) for row in rows]


def _line(
    game_id: int, started: str, ended: str | None, profile: str, seats: str, winners: str | None, note: str | None,
    abandoned: str | None, scores: str, actions: int | None, minutes: int | None,
) -> GameLine:
    try:
        names, won = names_from_json(seats, "seats"), names_from_json(winners or "[]", "winners")
    except BadRow as exc:
        return GameLine(game_id, started, ended, profile, (), (), (), 0, None, note, abandoned, f"{exc}; {FIX_ROW}")
    return GameLine(game_id, started, ended, profile, names, won, tuple(json.loads(scores)), actions or 0, minutes,
                    note, abandoned)


def periods(store: Store) -> list[str]:
    """Every month with a saved game, newest first (``2026-11``): the list's choice of month or year."""
    return [month for (month,) in store.query(
        "SELECT DISTINCT substr(started_at, 1, 7) FROM games ORDER BY 1 DESC"
    )]


# --- one game ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moment:
    """One line of a game's timeline: when, after how many standing moves, what happened and the move that did it."""

    at: str
    depth: int
    event: Event
    move: Action | None
    before: State
    """The state the move was made in (the challenged card's player and claim, for a screen's own words)."""


def timeline(saved: SavedGame, game: Game) -> list[Moment]:
    """What ``games show`` prints and the game's page lists: ``game`` is ``saved.game()``, replayed once."""
    return [
        moment
        for step in game.steps()[1:]
        if step.before is not None
        for moment in step_moments(saved.log[step.entry].at, step.depth, step.move, step.before.state, step.state)
    ]


def step_moments(at: str, depth: int, move: Action | None, before: State, after: State) -> list[Moment]:
    """The timeline's lines of one standing move, made at ``at`` on ``before``: what a replay says at that move."""
    return [Moment(at, depth, event, move, before) for event in after.events if event.kind in TIMELINE_KINDS]


def score_race(game: Game) -> list[tuple[int, ...]]:
    """Every seat's score after each standing move, from the start; empty when the rules keep no score."""
    if not game.setup.profile.numbered:
        return []
    return [tuple(step.state.score(i) or 0 for i in range(len(game.setup.names))) for step in game.steps()]


# --- players -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One row of the Players list."""

    name: str
    games: int
    """Finished games."""
    wins: int
    retired: bool


def player_lines(store: Store, retired: bool = False, name: str | None = None,
                 table: str | None = None) -> list[PlayerLine]:
    """Every player (the retired ones instead, with ``retired``; only ``name``, retired or not), most finished
    games first; with ``table``, the players who finished a game at that table, with their games there."""
    where, params = ("players.name = ?", [name]) if name is not None else (
        "(players.retired_at IS NOT NULL) = ?", [retired])
    if table is not None:
        return _at_table(store, table, where, params)
    rows = store.query(
        "SELECT players.name, coalesce(sum(totals.games), 0) AS games, coalesce(sum(totals.wins), 0),"
        " players.retired_at IS NOT NULL"
        f" FROM players LEFT JOIN player_totals AS totals ON totals.player_id = players.id WHERE {where}"
        " GROUP BY players.id ORDER BY games DESC, players.name",
        params,
    )
    return [PlayerLine(name, games, wins, bool(gone)) for name, games, wins, gone in rows]


def _at_table(store: Store, table: str, where: str, params: list[Any]) -> list[PlayerLine]:
    """The players' finished games and wins at one table, from the figures kept for it (``table_totals``):
    a few rows a player, whatever the number of the table's games."""
    common, kept = _kept_at(store, table, None)
    rows = store.query(
        f"{common}SELECT players.name, sum(totals.games) AS played, sum(totals.wins), players.retired_at IS NOT NULL"
        " FROM table_totals AS totals JOIN players ON players.id = totals.player_id"
        f" WHERE totals.table_id = ? AND {where} GROUP BY players.id HAVING played > 0"
        " ORDER BY played DESC, players.name", [*kept, table, *params])
    return [PlayerLine(str(player), int(games), int(wins), bool(gone)) for player, games, wins, gone in rows]


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's figures under one rules profile, over finished games."""

    name: str
    profile: str
    games: int
    wins: int
    win_rate: float
    average_score: float | None
    """None under five-spices, which keeps no score."""
    best_score: int | None
    trophies: int
    challenges_made: int
    challenges_won: int
    spice_challenges: int
    spice_challenges_won: int
    number_challenges: int
    number_challenges_won: int
    caught_bluffing: int
    survived_challenges: int
    favourite_spice: str | None
    """The spice this player declared most often under these rules; None before any card."""


FIGURES = """
SELECT players.name, totals.profile, totals.games, totals.wins, 1.0 * totals.wins / totals.games,
  1.0 * totals.score_sum / nullif(totals.scored, 0),
  (SELECT max(score) FROM {scores} AS kept
   WHERE kept.player_id = totals.player_id AND kept.profile = totals.profile AND kept.games > 0{same}),
  totals.trophies, totals.challenges_made, totals.challenges_won, totals.spice_challenges,
  totals.spice_challenges_won, totals.number_challenges, totals.number_challenges_won, totals.caught_bluffing,
  totals.survived_challenges,
  (SELECT spice FROM {spices} AS kept
   WHERE kept.player_id = totals.player_id AND kept.profile = totals.profile AND kept.cards > 0{same}
   ORDER BY kept.cards DESC, kept.spice LIMIT 1)
FROM {totals} AS totals JOIN players ON players.id = totals.player_id
WHERE totals.games > 0 AND {where}
ORDER BY totals.profile, totals.wins DESC, 1.0 * totals.wins / totals.games DESC, players.name
"""
"""Read from the kept figures (``player_totals``, ``player_scores``, ``player_spices``): a few rows a player;
at one table, the same kept for that table (``table_totals``, ``table_scores``, ``table_spices``)."""


def figures(store: Store, player: str | None = None, profile: ProfileId | None = None,
            table: str | None = None) -> list[Figures]:
    """Per player and rules profile: the ``stats`` table, kept apart by rules; with ``table``, over that
    table's games alone (``HERE``: this one's)."""
    common, terms, params = "", ["1"], list[Any]()
    kept = {"totals": "player_totals", "scores": COUNTED[0].table, "spices": COUNTED[1].table, "same": ""}
    if table is not None and tables_kept(store):
        common, params = _kept_at(store, table, player)
        terms, params = ["totals.table_id = ?"], [*params, table]
        kept = {"totals": "table_totals", "scores": "table_scores", "spices": "table_spices",
                "same": " AND kept.table_id = totals.table_id"}
    if player is not None:
        terms.append("players.name = ?")
        params.append(player)
    if profile is not None:
        terms.append("totals.profile = ?")
        params.append(str(profile))
    query = common + FIGURES.format(where=" AND ".join(terms), **kept)
    return [Figures(*row) for row in store.query(query, params)]


@dataclass(frozen=True, slots=True)
class BuzzFigures:
    """How one player wins challenges by buzzer under one rules profile, over finished games.

    Only challenges saved with their buzz time count (``BuzzTime``): games from
    before it was saved, and challenges taken at the screen, have none.
    """

    profile: str
    timed: int
    """Challenges won by buzzer with a buzz time."""
    quickest_ms: float | None
    """The quickest winning press after the claim's tap; None when there is none."""
    before_tap: int
    """Winning presses that came before the tap (a slap as the card landed): not a reaction to the claim,
    so not in ``quickest_ms``, counted here instead."""
    median_margin_ms: float | None
    """The median lead over the next seat's press, over the challenges where someone else pressed."""


BUZZES = """
SELECT profile, count(*), min(CASE WHEN from_tap_ms >= 0 THEN from_tap_ms END), coalesce(sum(from_tap_ms < 0), 0),
  count(margin_ms)
FROM player_buzzes WHERE player_id = (SELECT id FROM players WHERE name = ?) AND {at} GROUP BY profile
"""
"""Read from the kept buzzes (``player_buzzes``): one index range a profile, at one table as for the league."""

MIDDLE_MARGINS = """
SELECT margin_ms FROM player_buzzes
WHERE player_id = (SELECT id FROM players WHERE name = ?) AND profile = ? AND margin_ms IS NOT NULL AND {at}
ORDER BY margin_ms LIMIT ? OFFSET ?
"""
"""The one or two middle margins, as ``statistics.median`` takes them, skipped to along the index."""


def buzz_figures(store: Store, player: str, table: str | None = None) -> dict[str, BuzzFigures]:
    """The player's buzz figures by rules profile (at one table's games, with ``table``); a profile with no
    saved buzz time has none."""
    if "player_buzzes" not in store.db.table_names():
        return {}  # a file from before buzz times, opened read-only
    found = {}
    at, chosen = "1", list[Any]()
    if table is not None and tables_kept(store):  # each buzz's table kept since m019, else its game's
        at, chosen = ("table_id = ?", [table]) if at_tables_kept(store) else (
            f"game_id IN (SELECT id FROM games WHERE {AT_TABLE})", [_table_param(table)])
    for profile, timed, quickest, before_tap, margins in store.query(BUZZES.format(at=at), [player, *chosen]):
        middle = [ms for (ms,) in store.query(MIDDLE_MARGINS.format(at=at),
                                              [player, profile, *chosen, 2 - margins % 2, (margins - 1) // 2])]
        median = None if not middle else middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
        found[profile] = BuzzFigures(profile, timed, quickest, before_tap, median)
    return found


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game as a player's results over time show it."""

    game_id: int
    started_at: str
    profile: str
    score: int | None
    won: bool
    place: int
    """1 for the winners, then by score (five-spices: 1 or 2, won or not)."""
    table: str = HERE
    """The table it was played at."""


RESULTS_SHOWN = 200
"""How many of a player's newest games the chart of results over time shows: at a point every few pixels,
more would not fit a screen's width; reading them all took 0.1 s for a player of 38,000 games."""


def results(store: Store, player: str, profile: str, last: int = RESULTS_SHOWN,
            table: str | None = None) -> list[Result]:
    """The player's newest ``last`` finished games under ``profile`` (at one table, with ``table``), oldest
    first: the chart of results over time. Each game's place is worked out for these games alone."""
    at, chosen = _at(table if tables_kept(store) else None)
    rows = store.query(
        "SELECT game_id, started_at, profile, score, winner, table_id,"
        " 1 + (SELECT count(*) FROM scores AS other WHERE other.game_id = newest.game_id AND"
        "      (other.winner > newest.winner OR (other.winner = newest.winner AND other.score > newest.score)))"
        " FROM (SELECT mine.game_id, games.started_at, games.profile, mine.score, mine.winner, games.table_id"
        "       FROM scores AS mine JOIN games ON games.id = mine.game_id"
        "       WHERE mine.player_id = (SELECT id FROM players WHERE name = ?) AND games.profile = ?"
        f"      AND {at} ORDER BY games.started_at DESC, games.id DESC LIMIT ?) AS newest"
        " ORDER BY started_at, game_id",
        [player, profile, *chosen, last],
    )
    return [Result(game_id, at, profile, score, bool(won), place, table or HERE)
            for game_id, at, profile, score, won, table, place in rows]


def player_tables(store: Store, player: str, profile: str) -> list[tuple[str, int]]:
    """The player's finished games under ``profile`` at each table of the league (``HERE`` for this one), most
    first; empty when the store holds one table's games."""
    if not tables_kept(store):
        return []
    common, params = _kept_at(store, None, player)
    rows = store.query(
        f"{common}SELECT table_id, games FROM table_totals"
        " WHERE player_id = (SELECT id FROM players WHERE name = ?) AND profile = ? AND games > 0"
        " ORDER BY games DESC, table_id", [*params, player, profile])
    return [(str(table), int(games)) for table, games in rows] if len(rows) > 1 or rows and rows[0][0] else []


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players over the finished games they both sat at."""

    player: str
    other: str
    games: int
    wins: int
    """Games ``player`` won and ``other`` did not."""
    losses: int
    """Games ``other`` won and ``player`` did not."""


def head_to_head(store: Store, player: str, other: str) -> HeadToHead:
    found = head_to_heads(store, player, other)
    return found[0] if found else HeadToHead(player, other, 0, 0, 0)


def head_to_heads(store: Store, player: str, other: str | None = None, table: str | None = None) -> list[HeadToHead]:
    """``player`` against each player met (or only ``other``), most games together first (``player_pairs``;
    with ``table``, the games together at that table: ``table_pairs``)."""
    common, pairs, at, params = _pairs(store, player, table)
    rows = store.query(
        f"{common}SELECT players.name, pairs.games, pairs.wins, pairs.losses"
        f" FROM {pairs} AS pairs JOIN players ON players.id = pairs.other_id"
        f" WHERE {at} AND pairs.player_id = (SELECT id FROM players WHERE name = ?) AND pairs.games > 0"
        " AND (? IS NULL OR players.name = ?) ORDER BY pairs.games DESC, players.name",
        [*params, player, other, other],
    )
    return [HeadToHead(player, name, games, wins, losses) for name, games, wins, losses in rows]


@dataclass(frozen=True, slots=True)
class Opponent:
    name: str
    times: int


def rival(store: Store, player: str, table: str | None = None) -> Opponent | None:
    """The player ``player`` beat most often (won a game they both sat at and the other did not)."""
    return _most_beaten(store, player, "wins", table)


def nemesis(store: Store, player: str, table: str | None = None) -> Opponent | None:
    """The player who beat ``player`` most often."""
    return _most_beaten(store, player, "losses", table)


def _pairs(store: Store, player: str, table: str | None) -> tuple[str, str, str, list[Any]]:
    """The ``WITH``, the pairs kept (the league's, or every table's), the condition on them (``pairs``) for
    ``table``, and the parameters of both, which come first in a query."""
    if table is None or not tables_kept(store):
        return "", "player_pairs", "true", []
    common, params = _kept_at(store, table, player)
    return common, "table_pairs", "pairs.table_id = ?", [*params, table]


def _most_beaten(store: Store, player: str, column: str, table: str | None) -> Opponent | None:
    common, pairs, at, params = _pairs(store, player, table)
    rows = store.query(
        f"{common}SELECT players.name, pairs.{column} FROM {pairs} AS pairs"
        " JOIN players ON players.id = pairs.other_id"
        f" WHERE {at} AND pairs.player_id = (SELECT id FROM players WHERE name = ?) AND pairs.{column} > 0"
        f" ORDER BY pairs.{column} DESC, players.name LIMIT 1",
        [*params, player],
    )
    return Opponent(*rows[0]) if rows else None


# --- records -------------------------------------------------------------------------


class RecordKind(StrEnum):
    HIGHEST_SCORE = "highest-score"
    BIGGEST_STACK = "biggest-stack"
    LONGEST_GAME = "longest-game"
    MOST_CHALLENGES_WON = "most-challenges-won"
    LONGEST_SURVIVAL = "longest-survival"


@dataclass(frozen=True, slots=True)
class Record:
    kind: RecordKind
    value: int
    """Points, cards, minutes or challenges, as the kind says."""
    name: str | None
    """Who holds it; None for the longest game, which is everyone's."""
    game_id: int
    started_at: str
    """When that game started: the date a record screen gives it."""
    table: str = HERE
    """The table the game was at."""


_RECORDS: Sequence[tuple[RecordKind, str]] = (
    (RecordKind.HIGHEST_SCORE, "scores.score"),
    (RecordKind.BIGGEST_STACK, "scores.biggest_stack"),
    (RecordKind.MOST_CHALLENGES_WON, "scores.challenges_won"),
    (RecordKind.LONGEST_SURVIVAL, "scores.survival_streak"),
)


def records(store: Store, table: str | None = None) -> list[Record]:
    """The records over every finished game of the league (of one table's, with ``table``); the first to set
    one keeps it on a tie (in one game, the first seat)."""
    placed = tables_kept(store)
    at, params = _record_at(store, table if placed else None)
    where = "games.table_id" if placed else "NULL"
    # the longest game from the top of its index (m018), unless the table's own games are the fewer to read
    by_length = f" INDEXED BY {MINUTES_INDEX}" if not at.startswith(AT_TABLE) and _has_index(store, MINUTES_INDEX) else ""
    found = []
    for kind, column in _RECORDS:
        rows = store.query(
            f"SELECT {column}, players.name, scores.game_id, games.started_at, {where} FROM scores"
            " JOIN players ON players.id = scores.player_id JOIN games ON games.id = scores.game_id"
            f" WHERE {column} > 0 AND {at} ORDER BY {column} DESC, games.started_at, games.id, scores.seat LIMIT 1", params
        )
        found += [Record(kind, value, name, game_id, started, table_id or HERE)
                  for value, name, game_id, started, table_id in rows]
    rows = store.query(
        f"SELECT {GAME_MINUTES}, id, started_at, {where} FROM games{by_length} WHERE ended_at IS NOT NULL AND {at}"
        f" ORDER BY {GAME_MINUTES} DESC, started_at, id LIMIT 1",
        params,
    )
    found += [Record(RecordKind.LONGEST_GAME, minutes, None, game_id, started, table_id or HERE)
              for minutes, game_id, started, table_id in rows]
    return found


def _has_index(store: Store, name: str) -> bool:
    """Whether the file has that index (a read-only file from before its migration has not)."""
    return bool(store.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [name]))


def _record_at(store: Store, table: str | None) -> tuple[str, list[Any]]:
    """The condition for one table's records: a table with fewer than half the games is read from its games
    (the index on ``table_id``); a larger one from the top of each record's index (m018), down to its first
    seat there (``+`` keeps SQLite from reading every one of its games first)."""
    if table is None:
        return _at(None)
    ((own, every),) = store.query(f"SELECT (SELECT count(*) FROM games WHERE {AT_TABLE}), (SELECT count(*) FROM games)",
                                  [_table_param(table)])  # both from an index
    return (AT_TABLE if own <= every - own else f"+{AT_TABLE}"), [_table_param(table)]


# --- tonight -------------------------------------------------------------------------

EVENING_GAP_HOURS = 3
"""A longer pause between two games ends an evening: the next game starts another."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's evening so far, over its finished games."""

    name: str
    games: int
    wins: int
    points: int
    """Scores added up over the evening's scored games (five-spices keeps none)."""
    trophies: int
    challenges_made: int
    challenges_won: int
    caught_bluffing: int
    cards_played: int


class AwardKind(StrEnum):
    BEST_BLUFFER = "best-bluffer"
    SHARPEST_CHALLENGER = "sharpest-challenger"
    QUICKEST_HAND = "quickest-hand"
    MOST_TROPHIES = "most-trophies"


@dataclass(frozen=True, slots=True)
class Award:
    kind: AwardKind
    name: str
    standing: Standing
    figure: float | None = None
    """What won it when it is a measure, not a count: the quickest hand's buzz, in ms."""


@dataclass(frozen=True, slots=True)
class Evening:
    started_at: str
    games: tuple[int, ...]
    """Every game of the evening, finished or not, newest first."""
    standings: list[Standing]
    """Most wins first, then most points."""
    awards: list[Award]
    tables: tuple[tuple[str, int], ...] = ()
    """Each table's games of the evening (``HERE`` for this one), when they were at more than one table."""


def evening_games(store: Store, gap_hours: float = EVENING_GAP_HOURS,
                  table: str | None = None) -> list[tuple[int, str]]:
    """The newest evening's games (at one table, with ``table``), newest first, as (id, started_at): back from
    the newest game while the one before ended (or started) at most ``gap_hours`` before the next began."""
    found: list[tuple[int, str]] = []
    offset = 0
    at, params = _at(table)
    while True:
        rows = store.query(
            f"SELECT id, started_at, coalesce(ended_at, started_at) FROM games WHERE {at}"
            " ORDER BY started_at DESC, id DESC LIMIT 100 OFFSET ?", [*params, offset])
        for game_id, started, ended in rows:
            if found and _hours_between(ended, found[-1][1]) > gap_hours:
                return found
            found.append((game_id, started))
        if len(rows) < 100:
            return found
        offset += 100


def _hours_between(earlier: str, later: str) -> float:
    """Hours from one stamp to another; a stamp edited by hand into something else ends the evening there."""
    try:
        return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds() / 3600
    except (TypeError, ValueError):
        return float("inf")


STANDINGS = """
SELECT players.name, count(*), sum(scores.winner), coalesce(sum(scores.score), 0), sum(scores.trophies),
  sum(scores.challenges_made), sum(scores.challenges_won), sum(scores.caught_bluffing),
  (SELECT coalesce(sum(played.value), 0) FROM scores AS mine, json_each(mine.declared) AS played
   WHERE mine.player_id = players.id AND mine.game_id IN (SELECT value FROM json_each(?)))
FROM scores JOIN players ON players.id = scores.player_id
WHERE scores.game_id IN (SELECT value FROM json_each(?))
GROUP BY players.id ORDER BY sum(scores.winner) DESC, coalesce(sum(scores.score), 0) DESC, players.name
"""


def tonight(store: Store, gap_hours: float = EVENING_GAP_HOURS, table: str | None = None) -> Evening | None:
    """The newest evening (of one table, with ``table``): its games, a running leaderboard over its finished
    ones, its awards, and how many of its games each table had."""
    games = evening_games(store, gap_hours, table)
    if not games:
        return None
    ids = to_json([game_id for game_id, _at in games])
    standings = [Standing(*row) for row in store.query(STANDINGS, [ids, ids])]
    quickest = store.query(QUICKEST, [ids]) if "challenge_buzz" in store.db.table_names() else []
    at = store.query("SELECT coalesce(table_id, ''), count(*) FROM games WHERE id IN (SELECT value FROM json_each(?))"
                     " GROUP BY table_id ORDER BY count(*) DESC, table_id", [ids]) if tables_kept(store) else []
    return Evening(games[-1][1], tuple(game_id for game_id, _at in games), standings,
                   awards(standings, quickest[0] if quickest else None),
                   tuple((str(table_id), int(count)) for table_id, count in at) if len(at) > 1 else ())


QUICKEST = """
SELECT players.name, buzz.from_tap_ms FROM challenge_buzz AS buzz
JOIN game_seats AS sat ON sat.game_id = buzz.game_id AND sat.seat = buzz.seat JOIN players ON players.id = sat.player_id
WHERE buzz.standing AND buzz.from_tap_ms >= 0 AND buzz.game_id IN (SELECT value FROM json_each(?))
ORDER BY buzz.from_tap_ms, buzz.game_id, buzz.seq LIMIT 1
"""
"""The evening's quickest winning press after a claim's tap, and whose it was."""


def awards(standings: Sequence[Standing], quickest: tuple[str, float] | None = None) -> list[Award]:
    """Each award to one player, ties to the first in the leaderboard; none when nobody qualifies.

    - best bluffer: caught bluffing least often for each card played (at least one card played);
    - sharpest challenger: most challenges won (fewest made on a tie), at least one won;
    - quickest hand: ``quickest``, the evening's quickest winning press after a claim's tap (the first on a tie);
    - most trophies: most trophies taken, at least one.
    """
    found = []
    played = [s for s in standings if s.cards_played]
    if played:
        best = min(played, key=lambda s: s.caught_bluffing / s.cards_played)
        found.append(Award(AwardKind.BEST_BLUFFER, best.name, best))
    challengers = [s for s in standings if s.challenges_won]
    if challengers:
        sharpest = max(challengers, key=lambda s: (s.challenges_won, -s.challenges_made))
        found.append(Award(AwardKind.SHARPEST_CHALLENGER, sharpest.name, sharpest))
    hand = next((s for s in standings if quickest is not None and s.name == quickest[0]), None)
    if hand is not None and quickest is not None:
        found.append(Award(AwardKind.QUICKEST_HAND, hand.name, hand, quickest[1]))
    holders = [s for s in standings if s.trophies]
    if holders:
        most = max(holders, key=lambda s: s.trophies)
        found.append(Award(AwardKind.MOST_TROPHIES, most.name, most))
    return found
