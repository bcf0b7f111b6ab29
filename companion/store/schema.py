"""The database schema as migrations, recorded in the database itself.

Each migration is applied once and named in ``_sqlite_migrations`` (sqlite-utils'
own table), so any earlier database upgrades in place when the app opens it.
Never edit a migration that has shipped: add the next one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from sqlite_utils import Database, Migrations

from companion.rules import Game, action_from_dict
from companion.store.facts import REVIEW_COLUMNS, SeatFacts, seat_facts
from companion.store.records import setup_from_row, to_json

MIGRATIONS = Migrations("spicy-companion")


@MIGRATIONS()
def m001_tables(db: Database) -> None:
    """Players, games with their seats, the action log and the final scores."""
    db.table("players").create({"id": int, "name": str, "created_at": str}, pk="id", not_null={"name", "created_at"})
    db.table("players").create_index(["name"], unique=True)
    db.table("games").create(
        {
            "id": int,
            "profile": str,
            "variants": str,  # JSON list
            "options": str,  # JSON object
            "seats": str,  # JSON list of names, clockwise
            "end_card": int,
            "first": int,
            "started_at": str,
            "ended_at": str,
            "end_reason": str,
            "winners": str,  # JSON list of names
        },
        pk="id",
        not_null={"profile", "variants", "options", "seats", "end_card", "first", "started_at"},
    )
    db.table("game_seats").create(
        {"game_id": int, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        not_null={"player_id"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db.table("actions").create(
        {"game_id": int, "seq": int, "at": str, "action": str},  # action: JSON of Action.to_dict()
        pk=("game_id", "seq"),
        not_null={"at", "action"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("scores").create(
        {
            "game_id": int,
            "seat": int,
            "player_id": int,
            "score": int,  # null in five-spices
            "won": int,
            "won_universals": int,
            "trophies": int,
            "hand": int,
            "universals": int,
            "winner": int,
        },
        pk=("game_id", "seat"),
        not_null={"player_id", "won", "won_universals", "trophies", "hand", "universals", "winner"},
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )


@MIGRATIONS()
def m002_challenge_stats(db: Database) -> None:
    """Who challenged whom, kept per seat when a game ends, so ``stats`` is one query.

    Games that ended before this migration get their facts from their logs.
    """
    for column in ("challenges_made", "challenges_won", "caught_bluffing", "survived_challenges"):
        db.table("scores").add_column(column, int, not_null_default=0)
    for game_id, seat, facts in _ended_facts(db):
        db.execute(
            "UPDATE scores SET challenges_made = ?, challenges_won = ?, caught_bluffing = ?,"
            " survived_challenges = ? WHERE game_id = ? AND seat = ?",
            [*facts.challenge, game_id, seat],
        )
    db.table("games").create_index(["started_at"])
    db.table("games").create_index(["ended_at"])
    db.table("game_seats").create_index(["player_id"])
    db.table("scores").create_index(["player_id"])
    db.create_view("player_stats", PLAYER_STATS)


@MIGRATIONS()
def m003_app(db: Database) -> None:
    """Facts about the file itself, such as which version of the app last changed its schema.

    An older app that finds a newer schema can then name the version that wrote it.
    """
    db.table("app").create({"key": str, "value": str}, pk="key")


@MIGRATIONS()
def m004_player_last_played(db: Database) -> None:
    """When each player last sat down, kept on the player by a trigger as each seat is saved.

    Set-up lists the regulars most recent first at every tap; reading every seat of
    every game for that took 0.6 s at 100,000 games. A trigger keeps it right for
    every way a game is saved (a live game, an import, ``simulate``).
    """
    db.table("players").add_column("last_played", str)
    db.execute(
        "UPDATE players SET last_played = (SELECT max(games.started_at) FROM game_seats"
        " JOIN games ON games.id = game_seats.game_id WHERE game_seats.player_id = players.id)"
    )
    db.execute(LAST_PLAYED_TRIGGER)


@MIGRATIONS()
def m005_player_totals(db: Database) -> None:
    """Per player and rules profile, the sums over finished games that ``stats`` shows.

    Kept by triggers on ``scores``: a game's end adds its seats, an undo of the end
    (which deletes them) takes them back, whatever wrote them. ``stats`` then reads
    a few rows instead of every seat of every finished game. Scores are summed
    only where there is one (five-spices has none), so an average never mixes them.
    """
    db.execute(
        "CREATE TABLE player_totals (player_id INTEGER NOT NULL REFERENCES players(id), profile TEXT NOT NULL, "
        + ", ".join(f"{column} INTEGER NOT NULL" for column in TOTALS)
        + ", PRIMARY KEY (player_id, profile))"
    )
    sums = ", ".join(f"sum({value.format(row='scores')})" for value in TOTALS.values())
    db.execute(
        f"INSERT INTO player_totals (player_id, profile, {', '.join(TOTALS)})"
        f" SELECT scores.player_id, games.profile, {sums}"
        " FROM scores JOIN games ON games.id = scores.game_id GROUP BY scores.player_id, games.profile"
    )
    db.execute(_totals_trigger("player_totals_insert", "AFTER INSERT", "NEW", ""))
    db.execute(_totals_trigger("player_totals_delete", "AFTER DELETE", "OLD", "-"))
    db.execute(_totals_trigger("player_totals_update_old", "BEFORE UPDATE", "OLD", "-"))
    db.execute(_totals_trigger("player_totals_update_new", "AFTER UPDATE", "NEW", ""))
    db.execute("DROP VIEW player_stats")
    db.create_view("player_stats", PLAYER_TOTALS_STATS)


@MIGRATIONS()
def m006_snapshots(db: Database) -> None:
    """A long game's steps every few hundred actions, so resuming it folds only the actions since.

    Checked against the log on reading (``companion.store.snapshots``): the log stays the truth.
    """
    db.table("snapshots").create(
        {"game_id": int, "upto": int, "since": int, "rules": str, "log_hash": str, "checksum": str, "payload": str},
        pk=("game_id", "upto"),
        not_null={"since", "rules", "log_hash", "checksum", "payload"},
        foreign_keys=[("game_id", "games", "id")],
    )


@MIGRATIONS()
def m007_game_seating(db: Database) -> None:
    """Each seat's colour and buzzer, saved with the game in the transaction that starts it.

    Null for games started before, or saved without a table (``store import``): they get the default seating.
    """
    db.table("game_seats").add_column("colour", int)
    db.table("game_seats").add_column("buzzer", int)


@MIGRATIONS()
def m008_game_buzz(db: Database) -> None:
    """Who took the challenge of the card on top, saved as it happens, before spice or number is called.

    The rules' log has no line for it (a transcript says ``challenge Zoë number`` once it is called), so
    it is kept beside the log: one row a game at most, for the card by its place in the log, removed by
    the next action saved.
    """
    db.table("game_buzz").create(
        {"game_id": int, "entry": int, "seat": int},
        pk="game_id",
        not_null={"entry", "seat"},
        foreign_keys=[("game_id", "games", "id")],
    )


@MIGRATIONS()
def m009_game_uid(db: Database) -> None:
    """Each game's identity beyond this file, so a restored or re-imported game is never doubled.

    Games saved before get one worked out from what never changes in them (when
    they started and their set-up), so two copies of the same database, upgraded
    apart, give each game the same identity; two games alike in all that get
    ``-2``, ``-3`` in the order they were saved.
    """
    db.table("games").add_column("uid", str)
    taken: set[str] = set()
    rows = db.execute(
        "SELECT id, started_at, profile, variants, options, seats, end_card, first FROM games ORDER BY id"
    ).fetchall()
    for game_id, *facts in rows:
        base = derived_uid(facts)
        uid, n = base, 1
        while uid in taken:
            n += 1
            uid = f"{base}-{n}"
        taken.add(uid)
        db.execute("UPDATE games SET uid = ? WHERE id = ?", [uid, game_id])
    db.table("games").create_index(["uid"], unique=True)


UID_NAMESPACE = uuid.UUID("5b1c9d2e-7f3a-4e55-9a1d-53504359c0de")


def derived_uid(facts: list[object]) -> str:
    """The identity of a game saved before games had one: a name-based UUID of its start and set-up."""
    return str(uuid.uuid5(UID_NAMESPACE, "\x1f".join(str(fact) for fact in facts)))


@MIGRATIONS()
def m010_review(db: Database) -> None:
    """What the review screens show beyond the totals: challenges by what was called, the biggest stack,
    the longest run of survived challenges and the spices declared, per seat; a note on a game; retired players.

    Games that ended before this migration get these facts from their logs.
    """
    for column in REVIEW_COLUMNS[:-1]:
        db.table("scores").add_column(column, int, not_null_default=0)
    db.table("scores").add_column("declared", str, not_null_default="{}")  # JSON: cards played by spice declared
    db.table("games").add_column("note", str)
    db.table("players").add_column("retired_at", str)
    assignments = ", ".join(f"{column} = ?" for column in REVIEW_COLUMNS)
    for game_id, seat, facts in _ended_facts(db):
        *counts, declared = facts.review
        db.execute(f"UPDATE scores SET {assignments} WHERE game_id = ? AND seat = ?",
                   [*counts, to_json(declared), game_id, seat])


def _ended_facts(db: Database) -> list[tuple[int, int, SeatFacts]]:
    """Every finished game's per-seat facts, read again from its log."""
    found = []
    ended = db.execute(
        "SELECT id, profile, variants, options, seats, end_card, first FROM games WHERE ended_at IS NOT NULL"
    ).fetchall()
    for row in ended:
        game_id = row[0]
        setup = setup_from_row(*row[1:])
        log = [action_from_dict(json.loads(text)) for (text,) in db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [game_id])]
        found += [(game_id, seat, facts) for seat, facts in enumerate(seat_facts(Game.replay(setup, log)))]
    return found


@MIGRATIONS()
def m011_game_abandoned(db: Database) -> None:
    """When the table gave a game up: it stays in the history, and start-up no longer reopens it.

    A plain column, so a list can filter on it (``abandoned_at IS NOT NULL``). A game
    left unfinished when a later one was started was given up then: it is marked
    abandoned at the time that later game started.
    """
    db.table("games").add_column("abandoned_at", str)
    db.execute(
        "UPDATE games SET abandoned_at = (SELECT min(later.started_at) FROM games AS later"
        " WHERE later.started_at > games.started_at OR (later.started_at = games.started_at AND later.id > games.id))"
        " WHERE ended_at IS NULL"
    )


@MIGRATIONS()
def m012_challenge_buzz_times(db: Database) -> None:
    """How each challenge decided by buzzer was won, saved with its ``challenge`` action: from the claim's
    tap to the winning press, and the margin to the next press (``BuzzTime``).

    ``standing`` is set when the game ends, for the challenges that stand (an undone one never happened),
    so the figures read only those. Games saved before have no row: they show no buzz figure.
    """
    db.table("challenge_buzz").create(
        {"game_id": int, "seq": int, "seat": int, "from_tap_ms": float, "margin_ms": float, "standing": int},
        pk=("game_id", "seq"),
        not_null={"seat", "standing"},
        defaults={"standing": 0},
        foreign_keys=[("game_id", "games", "id")],
    )


@MIGRATIONS()
def m013_player_page_totals(db: Database) -> None:
    """A player's page from kept figures: challenges by what was called in ``player_totals``, how often each
    score and each declared spice came up (``player_scores``, ``player_spices``), and every pair of players'
    games, wins and losses together (``player_pairs``); and each standing buzz time with whose it was
    (``player_buzzes``, indexed by player, so the quickest is one step and the median one count and a skip).

    Kept by triggers on ``scores`` as ``player_totals`` is (the buzzes by triggers on ``challenge_buzz`` and
    ``game_seats``), so a page reads a few rows whatever the number of games: at 100,000 games reading every
    seat of the player's games took over a second. Filled from the saved games here.
    """
    for name in TRIGGER_PHASES:
        db.execute(f"DROP TRIGGER player_totals_{name}")
    for column in PAGE_TOTALS:
        db.table("player_totals").add_column(column, int, not_null_default=0)
    db.execute("DELETE FROM player_totals")
    db.execute(f"INSERT INTO player_totals (player_id, profile, {', '.join(KEPT_TOTALS)}) {totals_select()}")
    for counted in COUNTED:
        db.execute(counted.create())
        db.execute(counted.fill())
    db.execute(
        "CREATE TABLE player_pairs (player_id INTEGER NOT NULL REFERENCES players(id),"
        " other_id INTEGER NOT NULL REFERENCES players(id), games INTEGER NOT NULL, wins INTEGER NOT NULL,"
        " losses INTEGER NOT NULL, PRIMARY KEY (player_id, other_id))"
    )
    db.execute(f"INSERT INTO player_pairs (player_id, other_id, games, wins, losses) {pairs_select()}")
    for statement in kept_triggers("player_totals", _totals_added):
        db.execute(statement)
    for counted in COUNTED:
        for statement in kept_triggers(counted.table, counted.added):
            db.execute(statement)
    for statement in kept_triggers("player_pairs", _pairs_added):
        db.execute(statement)
    db.execute(
        "CREATE TABLE player_buzzes (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,"
        " seat INTEGER NOT NULL, player_id INTEGER NOT NULL REFERENCES players(id), profile TEXT NOT NULL,"
        " from_tap_ms REAL, margin_ms REAL, PRIMARY KEY (game_id, seq))"
    )
    db.execute("CREATE INDEX idx_player_buzzes_from_tap ON player_buzzes (player_id, profile, from_tap_ms, margin_ms)")
    db.execute("CREATE INDEX idx_player_buzzes_margin ON player_buzzes (player_id, profile, margin_ms)")
    db.execute(f"INSERT INTO player_buzzes {_buzz_row('buzz')} AND buzz.standing")
    for statement in BUZZ_TRIGGERS:
        db.execute(statement)


@MIGRATIONS()
def m014_game_arrived(db: Database) -> None:
    """When a restore brought a game in (or more of its log), until the table plays it here.

    Start-up reopens only the table's own unfinished game, and a new game abandons only
    that one: another table's unfinished game, restored here, waits on its page to be
    resumed. Games saved before were all played here: null.
    """
    db.table("games").add_column("arrived_at", str)


@MIGRATIONS()
def m015_merge_undo(db: Database) -> None:
    """The last merge of two players, kept so the player's page can take it back until the next game starts:
    the merged player's own row and the games that were theirs (a JSON list of ids), and the kept player's
    last game before the merge. One row at most."""
    db.table("merge_undo").create(
        {"gone_id": int, "gone_name": str, "gone_created_at": str, "gone_last_played": str, "gone_retired_at": str,
         "kept_id": int, "kept_last_played": str, "games": str},
        pk="gone_id",
        not_null={"gone_name", "gone_created_at", "kept_id", "games"},
    )


@MIGRATIONS()
def m016_kept_ratings(db: Database) -> None:
    """Each player's skill rating kept with the last game it includes (``companion.store.ratings``), so the
    Players list folds in only the games after it instead of every game at each open.

    ``rating_state`` is one row: that last game (its start and number, the order games are rated in) and a
    checksum of every kept rating with it. Triggers on ``scores`` and ``games`` empty both tables as soon as
    anything at or before that game changes (``PAST_CHANGED``): the next open rates every game again. Empty
    here: the first open fills them.
    """
    db.execute("CREATE TABLE player_ratings (player_id INTEGER PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,"
               " games INTEGER NOT NULL)")
    db.execute("CREATE TABLE rating_state (through_started_at TEXT NOT NULL, through_id INTEGER NOT NULL,"
               " checksum TEXT NOT NULL)")
    for statement in PAST_CHANGED:
        db.execute(statement)


@MIGRATIONS()
def m017_game_table(db: Database) -> None:
    """Which table of a league each game was at (README "Club night"), so the review screens can say it and
    show one table's games: ``games.table_id`` is the owner table's id for a game another table sent, null for
    a game played here; ``league_tables`` names each table, ``''`` this one, as its last ``table.json`` said.

    Games saved before were played here or came from a backup: null. Games an older version took in from a
    league are given their table by the next import (``League.import_tables``), which finds their files.
    """
    db.execute("ALTER TABLE games ADD COLUMN table_id TEXT")
    db.execute("CREATE INDEX idx_games_table ON games (table_id, started_at)")
    db.execute("CREATE TABLE league_tables (id TEXT PRIMARY KEY, name TEXT NOT NULL)")


RECORD_COLUMNS = ("score", "biggest_stack", "challenges_won", "survival_streak")
"""The seats' figures a record is the highest of (``companion.store.review.records``)."""
MINUTES_INDEX = "idx_games_minutes"
GAME_MINUTES = "CAST(round((julianday(ended_at) - julianday(started_at)) * 1440) AS INTEGER)"
"""A game's length in minutes, from its start to its end (null while it goes on): the longest game's record
reads it from its index (m018), which a query finds only when it says the expression exactly so."""


@MIGRATIONS()
def m018_record_indexes(db: Database) -> None:
    """An index on each seat figure a record is the highest of, and on a game's length, so the Records screen
    reads each record from the top of its index, not every seat of every game (at 100,000 games, about 1 s
    before: docs/PERFORMANCE.md)."""
    for column in RECORD_COLUMNS:
        db.execute(f"CREATE INDEX idx_scores_{column} ON scores ({column})")
    db.execute(f"CREATE INDEX {MINUTES_INDEX} ON games ({GAME_MINUTES})")


@MIGRATIONS()
def m019_kept_at_table(db: Database) -> None:
    """A player's page at one table of a league from kept figures, as the league's page is: ``player_totals``,
    ``player_scores``, ``player_spices`` and ``player_pairs`` kept again per table (``AT_TABLES``), and each
    kept buzz's table, indexed by player and table.

    At one table a page summed the player's seats there at every open, so it grew with the table's games: at
    10,000 games of another table, 370 ms to open it there against 219 ms at 2,000 (docs/PERFORMANCE.md). Kept
    by triggers on ``scores`` and on a game's table (``AT_TABLE_TRIGGERS``); filled from the saved games here.
    """
    for kept in AT_TABLES:
        db.execute(kept.create())
        db.execute(kept.fill())
    db.table("player_buzzes").add_column("table_id", str, not_null_default="")
    db.execute(f"UPDATE player_buzzes SET table_id = (SELECT {TABLE_OF_GAME} FROM games"
               " WHERE games.id = player_buzzes.game_id)")
    db.execute("CREATE INDEX idx_player_buzzes_table_from_tap ON player_buzzes"
               " (player_id, table_id, profile, from_tap_ms, margin_ms)")
    db.execute("CREATE INDEX idx_player_buzzes_table_margin ON player_buzzes (player_id, table_id, profile, margin_ms)")
    for statement in AT_TABLE_TRIGGERS:
        db.execute(statement)


KNOWN = tuple(m.name for m in MIGRATIONS.pending(Database(memory=True)))
"""Every migration this version has, in order; ``PRAGMA user_version`` is how many a file has had."""

PLAYER_STATS = """
SELECT
  players.id AS player_id,
  players.name AS name,
  count(*) AS games,
  sum(scores.winner) AS wins,
  round(1.0 * sum(scores.winner) / count(*), 3) AS win_rate,
  round(avg(scores.score), 1) AS average_score,
  sum(scores.trophies) AS trophies,
  sum(scores.challenges_made) AS challenges_made,
  sum(scores.challenges_won) AS challenges_won,
  sum(scores.caught_bluffing) AS caught_bluffing,
  sum(scores.survived_challenges) AS survived_challenges
FROM scores JOIN players ON players.id = scores.player_id
GROUP BY players.id
"""

LAST_PLAYED_TRIGGER = """
CREATE TRIGGER player_last_played AFTER INSERT ON game_seats BEGIN
  UPDATE players SET last_played = max(coalesce(last_played, ''), (SELECT started_at FROM games WHERE id = NEW.game_id))
  WHERE id = NEW.player_id;
END
"""

TOTALS = {
    "games": "1",
    "wins": "{row}.winner",
    "scored": "{row}.score IS NOT NULL",
    "score_sum": "coalesce({row}.score, 0)",
    "trophies": "{row}.trophies",
    "challenges_made": "{row}.challenges_made",
    "challenges_won": "{row}.challenges_won",
    "caught_bluffing": "{row}.caught_bluffing",
    "survived_challenges": "{row}.survived_challenges",
}
"""The kept sums of ``player_totals``, and what one seat's row of ``scores`` adds to each."""


def _totals_trigger(name: str, when: str, row: str, sign: str) -> str:
    """A trigger on ``scores`` that adds (or, with ``sign`` "-", takes back) one seat's row."""
    values = ", ".join(f"{sign}({value.format(row=row)})" for value in TOTALS.values())
    added = ", ".join(f"{column} = {column} + excluded.{column}" for column in TOTALS)
    return (
        f"CREATE TRIGGER {name} {when} ON scores BEGIN"
        f" INSERT INTO player_totals (player_id, profile, {', '.join(TOTALS)})"
        f" VALUES ({row}.player_id, (SELECT profile FROM games WHERE id = {row}.game_id), {values})"
        f" ON CONFLICT (player_id, profile) DO UPDATE SET {added};"
        " END"
    )


PLAYER_TOTALS_STATS = """
SELECT
  players.id AS player_id,
  players.name AS name,
  sum(totals.games) AS games,
  sum(totals.wins) AS wins,
  round(1.0 * sum(totals.wins) / sum(totals.games), 3) AS win_rate,
  round(1.0 * sum(totals.score_sum) / nullif(sum(totals.scored), 0), 1) AS average_score,
  sum(totals.trophies) AS trophies,
  sum(totals.challenges_made) AS challenges_made,
  sum(totals.challenges_won) AS challenges_won,
  sum(totals.caught_bluffing) AS caught_bluffing,
  sum(totals.survived_challenges) AS survived_challenges
FROM player_totals AS totals JOIN players ON players.id = totals.player_id
GROUP BY players.id
HAVING sum(totals.games) > 0
"""

PAGE_TOTALS = {
    "spice_challenges": "{row}.spice_challenges",
    "spice_challenges_won": "{row}.spice_challenges_won",
    "number_challenges": "{row}.number_challenges",
    "number_challenges_won": "{row}.number_challenges_won",
}
"""The sums a player's page needs beyond ``TOTALS``, kept in ``player_totals`` since ``m012``."""
KEPT_TOTALS = TOTALS | PAGE_TOTALS
"""Every sum ``player_totals`` keeps now."""

TRIGGER_PHASES = {
    "insert": ("AFTER INSERT", "NEW", ""),
    "delete": ("AFTER DELETE", "OLD", "-"),
    "update_old": ("BEFORE UPDATE", "OLD", "-"),
    "update_new": ("AFTER UPDATE", "NEW", ""),
}
"""How a kept table follows ``scores``: a row added adds, a row deleted takes back, and an update takes back
the old row before and adds the new one after. Row by row, so any statement (a game's end, an undo of it, a
merge, a hand edit) leaves the kept table equal to reading ``scores`` afresh."""


def kept_triggers(table: str, added: Callable[[str, str], str]) -> list[str]:
    """The four triggers on ``scores`` that keep ``table``; ``added(row, sign)`` is the statements that add
    (sign "") or take back (sign "-") one row of ``scores``, named ``NEW`` or ``OLD``."""
    return [
        f"CREATE TRIGGER {table}_{name} {when} ON scores BEGIN {added(row, sign)} END"
        for name, (when, row, sign) in TRIGGER_PHASES.items()
    ]


def _profile(row: str) -> str:
    return f"(SELECT profile FROM games WHERE id = {row}.game_id)"


def _totals_added(row: str, sign: str) -> str:
    values = ", ".join(f"{sign}({value.format(row=row)})" for value in KEPT_TOTALS.values())
    added = ", ".join(f"{column} = {column} + excluded.{column}" for column in KEPT_TOTALS)
    return (
        f"INSERT INTO player_totals (player_id, profile, {', '.join(KEPT_TOTALS)})"
        f" VALUES ({row}.player_id, {_profile(row)}, {values})"
        f" ON CONFLICT (player_id, profile) DO UPDATE SET {added};"
    )


TABLE_OF_GAME = "coalesce(games.table_id, '')"
"""A game's table: ``''`` for this one's (``review.HERE``), else the other table's id; the figures kept per
table are kept under it."""


def _by_table(by_table: bool) -> str:
    """The column of a seat's table in a kept table's rows summed afresh: the figures kept per table have it."""
    return f" {TABLE_OF_GAME} AS table_id," if by_table else ""


def totals_select(seats: str = "true", sign: str = "", by_table: bool = False) -> str:
    """``player_totals``'s rows summed afresh from the seats ``seats`` chooses (a condition on ``scores`` and
    ``games``): every seat fills it; ``by_table``, each table's apart (``table_totals``); ``sign`` "-", what
    taking those seats back subtracts."""
    sums = ", ".join(f"{sign}sum({value.format(row='scores')}) AS {column}" for column, value in KEPT_TOTALS.items())
    return (f"SELECT scores.player_id AS player_id,{_by_table(by_table)} games.profile AS profile, {sums}"
            f" FROM scores JOIN games ON games.id = scores.game_id WHERE {seats}"
            f" GROUP BY {'1, 2, 3' if by_table else '1, 2'}")


def pairs_select(seats: str = "true", sign: str = "", by_table: bool = False) -> str:
    """``player_pairs``'s rows counted afresh from the games whose seats ``seats`` chooses (a condition on
    ``mine``, one of the two seats, and ``theirs``, the other): every game fills it; ``by_table`` and ``sign``
    as for ``totals_select``."""
    return (
        f"SELECT mine.player_id AS player_id, theirs.player_id AS other_id,{_by_table(by_table)}"
        f" {sign}count(*) AS games, {sign}sum(mine.winner > theirs.winner) AS wins,"
        f" {sign}sum(theirs.winner > mine.winner) AS losses FROM scores AS mine JOIN scores AS theirs"
        " ON theirs.game_id = mine.game_id AND theirs.player_id != mine.player_id"
        f"{' JOIN games ON games.id = mine.game_id' if by_table else ''}"
        f" WHERE {seats} GROUP BY {'1, 2, 3' if by_table else '1, 2'}"
    )


def _pairs_added(row: str, sign: str) -> str:
    """Both ways round, ``row``'s player against each other seat of its game: each pair is met once, when the
    later of its two rows is added (or the earlier taken back)."""
    return "".join(
        f"INSERT INTO player_pairs (player_id, other_id, games, wins, losses)"
        f" SELECT {one}.player_id, {two}.player_id, {sign}1, {sign}({one}.winner > {two}.winner),"
        f" {sign}({two}.winner > {one}.winner) FROM scores AS other"
        f" WHERE other.game_id = {row}.game_id AND other.player_id != {row}.player_id"
        " ON CONFLICT (player_id, other_id) DO UPDATE SET games = games + excluded.games,"
        " wins = wins + excluded.wins, losses = losses + excluded.losses;"
        for one, two in ((row, "other"), ("other", row))
    )


@dataclass(frozen=True, slots=True)
class Counted:
    """A kept count, per player and rules profile, of how often each value came up in their seats' rows:
    the best score is the highest value counted, a favourite the most counted, a median the middle one.
    Unlike a kept maximum, a count can be taken back when a row goes."""

    table: str
    key: str
    """The column of the value counted."""
    count: str
    """The column of how often."""
    value: str
    """One row's value (``{row}`` its name), or values with ``each``."""
    times: str
    """How often one row adds its value."""
    each: str | None = None
    """A table-valued function when one row adds many values, e.g. ``json_each({row}.declared) AS declared``."""
    where: str = "true"
    """Which values count (``{row}.score IS NOT NULL``)."""

    def create(self) -> str:
        return (
            f"CREATE TABLE {self.table} (player_id INTEGER NOT NULL REFERENCES players(id), profile TEXT NOT NULL,"
            f" {self.key} NOT NULL, {self.count} INTEGER NOT NULL, PRIMARY KEY (player_id, profile, {self.key}))"
        )

    def fill(self) -> str:
        """Counted afresh from every saved seat."""
        return f"INSERT INTO {self.table} (player_id, profile, {self.key}, {self.count}) {self.select()}"

    def select(self, seats: str = "true", sign: str = "", by_table: bool = False) -> str:
        """The kept table's rows counted afresh from the seats ``seats`` chooses (a condition on ``scores`` and
        ``games``): every seat fills it; ``by_table`` and ``sign`` as for ``totals_select``."""
        each = f", {self.each.format(row='scores')}" if self.each else ""
        return (
            f"SELECT scores.player_id AS player_id,{_by_table(by_table)} games.profile AS profile,"
            f" {self.value.format(row='scores')} AS {self.key},"
            f" {sign}sum({self.times.format(row='scores')}) AS {self.count}"
            f" FROM scores JOIN games ON games.id = scores.game_id{each}"
            f" WHERE {self.where.format(row='scores')} AND {seats} GROUP BY {'1, 2, 3, 4' if by_table else '1, 2, 3'}"
        )

    def added(self, row: str, sign: str) -> str:
        each = f" FROM {self.each.format(row=row)}" if self.each else ""
        return (
            f"INSERT INTO {self.table} (player_id, profile, {self.key}, {self.count})"
            f" SELECT {row}.player_id, {_profile(row)}, {self.value.format(row=row)},"
            f" {sign}({self.times.format(row=row)}){each} WHERE {self.where.format(row=row)}"
            f" ON CONFLICT (player_id, profile, {self.key}) DO UPDATE SET {self.count} = {self.count} +"
            f" excluded.{self.count};"
        )


COUNTED = (
    Counted("player_scores", "score", "games", "{row}.score", "1", where="{row}.score IS NOT NULL"),
    Counted("player_spices", "spice", "cards", "declared.key", "declared.value",
            each="json_each({row}.declared) AS declared"),
)
"""The kept counts: each score a player finished with, and the cards they declared of each spice."""


@dataclass(frozen=True, slots=True)
class AtTable:
    """One of the league's kept tables kept again per table of the league (``table_id``, ``''`` for this one),
    so a player's page at one table reads a few rows as the league's page does: the same sums and counts,
    over that table's seats alone."""

    table: str
    columns: tuple[str, ...]
    """In the order ``select`` gives them."""
    keys: tuple[str, ...]
    """The primary key: the player, then the table, as a page at one table reads them."""
    select: Callable[[str, str], str]
    """The rows summed afresh from the seats a condition chooses, by table, with a sign (``totals_select``)."""
    seats: tuple[str, ...] = ("scores",)
    """The names of the seats in ``select``: a row of ``scores`` counts in the rows of any of them."""

    def create(self) -> str:
        kinds = {"player_id": "INTEGER NOT NULL REFERENCES players(id)",
                 "other_id": "INTEGER NOT NULL REFERENCES players(id)", "table_id": "TEXT NOT NULL",
                 "profile": "TEXT NOT NULL"}
        columns = ", ".join(f"{column} {kinds.get(column, 'NOT NULL') if column in self.keys else 'INTEGER NOT NULL'}"
                            for column in self.columns)
        return f"CREATE TABLE {self.table} ({columns}, PRIMARY KEY ({', '.join(self.keys)}))"

    def fill(self) -> str:
        """Summed afresh from every saved seat."""
        return f"INSERT INTO {self.table} ({', '.join(self.columns)}) {self.select('true', '')}"

    def added(self, seats: str, sign: str) -> str:
        """What the seats ``seats`` chooses add (sign "") or take back (sign "-"), row by kept row."""
        counts = ", ".join(f"{column} = {column} + excluded.{column}" for column in self.columns
                           if column not in self.keys)
        return (f"INSERT INTO {self.table} ({', '.join(self.columns)}) {self.select(seats, sign)}"
                f" ON CONFLICT ({', '.join(self.keys)}) DO UPDATE SET {counts};")

    def of_seat(self, row: str) -> str:
        """The condition for the rows that one seat's row of ``scores`` (``NEW`` or ``OLD``) is counted in."""
        return (f"{self.seats[0]}.game_id = {row}.game_id"
                f" AND {row}.seat IN ({', '.join(f'{seat}.seat' for seat in self.seats)})")

    def of_game(self, game: str) -> str:
        """The condition for every row that one game's seats are counted in."""
        return f"{self.seats[0]}.game_id = {game}"


AT_TABLES = (
    AtTable("table_totals", ("player_id", "table_id", "profile", *KEPT_TOTALS), ("player_id", "table_id", "profile"),
            partial(totals_select, by_table=True)),
    *(AtTable(f"table_{counted.table.removeprefix('player_')}",
              ("player_id", "table_id", "profile", counted.key, counted.count),
              ("player_id", "table_id", "profile", counted.key),
              partial(counted.select, by_table=True))
      for counted in COUNTED),
    AtTable("table_pairs", ("player_id", "other_id", "table_id", "games", "wins", "losses"),
            ("player_id", "table_id", "other_id"), partial(pairs_select, by_table=True),
            ("mine", "theirs")),
)
"""``player_totals``, ``player_scores``, ``player_spices`` and ``player_pairs`` per table of the league."""

BY_PLAYER = (
    ("player_totals", "player_id"),
    *((counted.table, "player_id") for counted in COUNTED),
    ("player_pairs", "player_id"),
    ("player_pairs", "other_id"),
    *((kept.table, "player_id") for kept in AT_TABLES),
    ("table_pairs", "other_id"),
)
"""Every kept table's rows of one player: a player merged into another leaves only zeros in them."""


def _buzz_row(row: str) -> str:
    """The ``player_buzzes`` row of one ``challenge_buzz`` row: whose buzz it was, under which rules."""
    return (
        f"(game_id, seq, seat, player_id, profile, from_tap_ms, margin_ms) SELECT {row}.game_id, {row}.seq,"
        f" {row}.seat, sat.player_id, games.profile, {row}.from_tap_ms, {row}.margin_ms"
        f" FROM {'challenge_buzz AS buzz JOIN ' if row == 'buzz' else ''}game_seats AS sat"
        f" JOIN games ON games.id = sat.game_id WHERE sat.game_id = {row}.game_id AND sat.seat = {row}.seat"
    )


BUZZ_TRIGGERS = (
    "CREATE TRIGGER player_buzzes_insert AFTER INSERT ON challenge_buzz BEGIN"
    " DELETE FROM player_buzzes WHERE game_id = NEW.game_id AND seq = NEW.seq;"  # INSERT OR REPLACE
    f" INSERT INTO player_buzzes {_buzz_row('NEW')} AND NEW.standing; END",
    "CREATE TRIGGER player_buzzes_delete AFTER DELETE ON challenge_buzz BEGIN"
    " DELETE FROM player_buzzes WHERE game_id = OLD.game_id AND seq = OLD.seq; END",
    "CREATE TRIGGER player_buzzes_update AFTER UPDATE ON challenge_buzz BEGIN"
    " DELETE FROM player_buzzes WHERE game_id = OLD.game_id AND seq = OLD.seq;"
    f" INSERT INTO player_buzzes {_buzz_row('NEW')} AND NEW.standing; END",
    "CREATE TRIGGER player_buzzes_seat AFTER UPDATE OF player_id ON game_seats BEGIN"
    " UPDATE player_buzzes SET player_id = NEW.player_id WHERE game_id = NEW.game_id AND seat = NEW.seat; END",
)
"""``player_buzzes`` follows ``challenge_buzz``: a buzz counts once its game ends with its challenge standing
(``standing``), and leaves when the end is undone; a merge moves it with the seat."""

AT_TABLE_PHASES = {
    "insert": ("AFTER INSERT", "NEW", ""),
    "delete": ("BEFORE DELETE", "OLD", "-"),
    "update_old": ("BEFORE UPDATE", "OLD", "-"),
    "update_new": ("AFTER UPDATE", "NEW", ""),
}
"""As ``TRIGGER_PHASES``, but a row deleted is taken back before it goes: the kept tables per table read each
seat from ``scores`` itself, joined to its game for its table, so the row must be there."""

MOVED = "coalesce(OLD.table_id, '') != coalesce(NEW.table_id, '')"

AT_TABLE_TRIGGERS = (
    *(f"CREATE TRIGGER kept_at_table_{name} {when} ON scores BEGIN"
      f" {' '.join(kept.added(kept.of_seat(row), sign) for kept in AT_TABLES)} END"
      for name, (when, row, sign) in AT_TABLE_PHASES.items()),
    f"CREATE TRIGGER kept_at_table_moved_out BEFORE UPDATE OF table_id ON games WHEN {MOVED} BEGIN"
    f" {' '.join(kept.added(kept.of_game('OLD.id'), '-') for kept in AT_TABLES)} END",
    f"CREATE TRIGGER kept_at_table_moved_in AFTER UPDATE OF table_id ON games WHEN {MOVED} BEGIN"
    f" {' '.join(kept.added(kept.of_game('NEW.id'), '') for kept in AT_TABLES)}"
    " UPDATE player_buzzes SET table_id = coalesce(NEW.table_id, '') WHERE game_id = NEW.id; END",
    "CREATE TRIGGER player_buzzes_table AFTER INSERT ON player_buzzes BEGIN"
    f" UPDATE player_buzzes SET table_id = (SELECT {TABLE_OF_GAME} FROM games WHERE id = NEW.game_id)"
    " WHERE game_id = NEW.game_id AND seq = NEW.seq; END",
)
"""The kept tables per table follow ``scores`` row by row, whatever writes it, as the league's do; and a game
given its table after its seats were saved (``Store.place_games``: an import saves a game, then says whose it
is) moves its seats' figures and its buzzes from this table's to that table's. A buzz kept takes its game's
table."""


THROUGH = "(SELECT through_started_at, through_id FROM rating_state)"
"""Where the kept ratings stop: the last game they include, as (started_at, id); NULL when none are kept."""


def _at_or_before(game: str) -> str:
    """Whether the game ``game`` (a row value of its start and number) is one the kept ratings include."""
    return f"{game} <= {THROUGH}"


def _game(row: str) -> str:
    return f"(SELECT started_at, id FROM games WHERE id = {row}.game_id)"


FORGET_RATINGS = "DELETE FROM rating_state; DELETE FROM player_ratings;"

PAST_CHANGES = {
    "score_added": ("INSERT ON scores", _at_or_before(_game("NEW"))),
    "score_taken_back": ("DELETE ON scores", _at_or_before(_game("OLD"))),
    "score_edited": ("UPDATE OF game_id, seat, player_id, score, winner ON scores",
                     f"{_at_or_before(_game('OLD'))} OR {_at_or_before(_game('NEW'))}"),
    "game_moved": ("UPDATE OF id, started_at ON games",
                   f"{_at_or_before('(OLD.started_at, OLD.id)')} OR {_at_or_before('(NEW.started_at, NEW.id)')}"),
    "game_deleted": ("DELETE ON games", _at_or_before("(OLD.started_at, OLD.id)")),
    "game_inserted": ("INSERT ON games", f"{_at_or_before('(NEW.started_at, NEW.id)')}"
                      " AND EXISTS (SELECT 1 FROM scores WHERE game_id = NEW.id)"),
}
PAST_CHANGED = tuple(f"CREATE TRIGGER kept_ratings_{name} AFTER {event} WHEN {when} BEGIN {FORGET_RATINGS} END"
                     for name, (event, when) in PAST_CHANGES.items())
"""What the kept ratings come from changed at or before their last game: they are forgotten, and the next open
of the Players list rates every finished game again. Row by row on ``scores`` (a game's end at or before it,
an undo of such an end, a merge or its undo moving seats, a hand edit of who won or a score) and on ``games``
(a start moved, a game deleted, or inserted over scores already there, with foreign keys off). A game ended
after the last one kept changes nothing kept: it is folded in at the next open. Whatever program writes."""
