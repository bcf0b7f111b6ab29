"""``spicy-companion games``, ``stats`` and ``simulate``: the saved games from a terminal.

Every command takes ``--db PATH`` (else the config file's ``[store] db``, else the
user data folder). Mistakes and a busy or unreadable database print one line on
stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UsageError, brief
from companion.report import describe_state, read_input, score_text, table
from companion.rules import ProfileId, TranscriptError, replay_transcript
from companion.store.backup import export_all
from companion.store.db import RESCUE, GameSummary, Recorded, Store, now
from companion.store.export import FORMATS, export_text, identity
from companion.buzzers import format_delay
from companion.store.review import (
    BuzzFigures,
    RecordKind,
    buzz_figures,
    figures,
    head_to_heads,
    nemesis,
    records,
    rival,
    tables,
    timeline,
)
from companion.store.simulate import simulate

MAX_ID = 2**63 - 1
"""The largest integer SQLite keeps: any bigger game number or limit cannot be bound to a query."""
MAX_GAMES = 100_000
"""For ``simulate``: more is a typo, not a demo (10,000 games already take minutes to play)."""


def whole_number(most: int) -> Callable[[str], int]:
    """An argument type for counts and game numbers: ASCII digits, at most ``most``."""

    def parse(text: str) -> int:
        shown = brief(text, 24)
        if not (text.isascii() and text.isdigit()):
            raise argparse.ArgumentTypeError(f"expected a whole number, not {shown!r}")
        if len(text.lstrip("0")) > len(str(most)) or int(text) > most:
            raise argparse.ArgumentTypeError(f"{shown} is too big: at most {most:,}")
        return int(text)

    return parse


def db_path(text: str) -> Path:
    """``--db ""`` would be the current folder: refuse it before it reaches the store."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give the database file, such as --db games.db")
    return Path(text)


def add_commands(subparsers: Any) -> None:
    db_option = argparse.ArgumentParser(add_help=False)
    db_option.add_argument("--db", type=db_path, help="the database file (default: config file, else user data folder)")

    games = subparsers.add_parser(
        "games", parents=[db_option], help="list, show, export, import or resume saved games",
        description="Saved games. Without a sub-command: the list, newest first.",
    )
    games.add_argument(
        "--limit", type=whole_number(MAX_ID), default=50, help="how many games to list (0: all; default 50)"
    )
    games.set_defaults(handler=_handler(run_list))
    commands = games.add_subparsers(dest="games_command", metavar="COMMAND")

    show = commands.add_parser("show", parents=[db_option], help="one game's timeline and final scores")
    show.add_argument("id", type=whole_number(MAX_ID))
    show.set_defaults(handler=_handler(run_show))

    export = commands.add_parser(
        "export", parents=[db_option], help="print one game as a transcript, JSON or CSV, or write every game",
        description="One game, printed (default: its transcript); or, with --all, every game written into one "
        "dated folder, a sub-folder a format (default: all three).",
    )
    export.add_argument("id", type=whole_number(MAX_ID), nargs="?")
    export.add_argument("--all", action="store_true", help="every game, written into a dated folder")
    export.add_argument("--format", choices=tuple(FORMATS))
    export.add_argument("--out", type=Path, metavar="DIR", help="with --all: where the folder goes (default: here)")
    export.set_defaults(handler=_handler(run_export))

    import_ = commands.add_parser(
        "import", parents=[db_option], help="save a game from a transcript file",
        description="Save a game from a table transcript. A refused line prints 'line N: reason' and nothing is saved.",
    )
    import_.add_argument("file", help="the transcript; - reads standard input")
    import_.set_defaults(handler=_handler(run_import))

    check = commands.add_parser(
        "check", parents=[db_option], help="run SQLite's integrity check on the database and report",
        description="Run SQLite's integrity check. Damage found: the problems, then exit 2; nothing more is saved "
        "in a damaged file.",
    )
    check.set_defaults(handler=_handler(run_check))

    resume = commands.add_parser("resume", parents=[db_option], help="rebuild the unfinished game from its log")
    resume.add_argument("--json", action="store_true", help="print the state as one JSON object")
    resume.set_defaults(handler=_handler(run_resume))

    stats = subparsers.add_parser(
        "stats", parents=[db_option], help="per player: games, wins, scores, trophies and challenges",
        description="Per player, over finished games; with --profile, under those rules only (five-spices keeps "
        "no score, so it has no average); with --player, that player's page.",
    )
    stats.add_argument("--profile", type=ProfileId, choices=list(ProfileId), metavar="RULES",
                       help="only games under these rules: " + ", ".join(ProfileId))
    stats.add_argument("--player", metavar="NAME", help="one player's page: figures per rules, rival, nemesis, "
                       "head-to-head")
    stats.add_argument("--records", action="store_true", help="the table's records: highest score, biggest stack, "
                       "longest game, most challenges won in a game, longest run of survived challenges")
    stats.add_argument("--table", metavar="NAME", help="with --records or --player, one table of the league's "
                       "games only, by its name as the League screen shows it")
    stats.set_defaults(handler=_handler(run_stats))

    sim = subparsers.add_parser(
        "simulate", parents=[db_option], help="play random legal games and save them",
        description="Play random legal games through the rules engine and save them (demos, load, benchmarks).",
    )
    sim.add_argument("--games", type=whole_number(MAX_GAMES), default=10, help="how many games (default 10)")
    sim.add_argument("--seed", type=int, default=0, help="the random seed: the same seed plays the same games")
    sim.set_defaults(handler=_handler(run_simulate))


def _handler(run: Any) -> Any:
    """Open the store for the command (refusals are ``cli.main``'s to print)."""

    def handle(args: argparse.Namespace) -> int:
        config = load_config(args.config).store
        with Store.open(args.db or config.db, config.busy_timeout, move_damaged=args.db is None) as store:
            if store.notice:
                print(f"spicy-companion: {store.notice}", file=sys.stderr)
            return int(run(store, args))

    return handle


def _when(at: str) -> str:
    """Local time to the minute; a stamp edited by hand into something else is shown as it is."""
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(at)


def describe_game(game: GameSummary) -> str:
    if game.problem:
        return f"#{game.id}  {_when(game.started_at)}  cannot be read: {game.problem}"
    if game.ended_at is None:
        left = "abandoned" if game.abandoned_at else "unfinished"
        return f"#{game.id}  {_when(game.started_at)}  {', '.join(game.names)}  ({left})"
    scores = ", ".join(f"{name} {score_text(s)}" for name, s in zip(game.names, game.scores, strict=True))
    return f"#{game.id}  {_when(game.started_at)}  {scores}  winner: {' and '.join(game.winners)}"


def run_list(store: Store, args: argparse.Namespace) -> int:
    """Each game is printed as it is read: ``--limit 0`` over 100,000 games holds one row at a time."""
    listed = 0
    for game in store.each_game(args.limit or None):
        print(describe_game(game))
        listed += 1
    if not listed:
        print("no saved games")
    return 0


def run_show(store: Store, args: argparse.Namespace) -> int:
    saved = store.load(args.id)
    game = saved.game()
    setup = game.setup
    lines = [
        f"game #{saved.id}, {setup.profile.title}: {', '.join(setup.names)}",
        f"started {_when(saved.started_at)}" + (f", ended {_when(saved.ended_at)}" if saved.ended_at else ""),
    ]
    if setup.variants:
        lines.append(f"variants: {', '.join(sorted(setup.variants))}")
    if setup.profile.end_card:
        lines.append(f"World's End card: {setup.end_card} cards under it")
    kept = saved.note
    if kept:
        lines.append(f"note: {kept}")
    lines.append("")
    lines += [f"{_when(moment.at)}  {moment.depth:>4}. {moment.event.text}" for moment in timeline(saved, game)]
    state = game.state
    universals = setup.profile.universals > 0  # Sweet & Spicy's universal cards: other rules have none to count
    rows = [("seat", "won", *(["won universals"] if universals else []), "trophies", "hand",
             *(["universals"] if universals else []), "score")]
    rows += [
        (seat.name + (" (winner)" if i in state.winners else ""), str(seat.won),
         *([str(seat.won_universals)] if universals else []), str(seat.trophies), str(seat.hand),
         *([str(seat.universals)] if universals else []), score_text(state.score(i)))
        for i, seat in enumerate(state.seats)
    ]
    lines += ["", table(rows)]
    if not state.ended:
        lines.append("the game is not over")
    print("\n".join(lines))
    return 0


def run_export(store: Store, args: argparse.Namespace) -> int:
    if args.all == (args.id is not None):
        raise UsageError("give one game's number, or --all for every game")
    if args.all:
        return run_export_all(store, args)
    if args.out is not None:
        raise UsageError("--out is for --all; one game is printed: redirect it to a file")
    saved = store.load(args.id)
    sys.stdout.write(export_text(saved, store.uid_of(args.id), args.format or "transcript"))
    return 0


def run_export_all(store: Store, args: argparse.Namespace) -> int:
    formats = (args.format,) if args.format else tuple(FORMATS)
    done = export_all(store, args.out or Path.cwd(), formats)
    for reason in done.left_out:
        print(f"spicy-companion: {reason}", file=sys.stderr)
    print(f"exported {done.games} games ({', '.join(formats)}) into {done.folder}")
    return 0


def run_import(store: Store, args: argparse.Namespace) -> int:
    text = read_input(args.file)
    try:
        game = replay_transcript(text)
    except TranscriptError as exc:
        raise UsageError(f"{args.file}: {exc}; nothing was saved") from None
    at = now()
    uid, started = identity(text) or (None, at)
    here = store.uids()
    if uid in here:
        print(f"this game is saved already, as game #{here[uid]}: nothing was saved")
        return 0
    (game_id,) = store.save([Recorded(game, started, [at] * len(game.log), uid)])
    print(f"saved game #{game_id} ({len(game.log)} actions)")
    return 0


def run_check(store: Store, args: argparse.Namespace) -> int:
    problems = store.check()
    if not problems:
        print(f"{store.path}: no damage found")
        return 0
    for problem in problems:
        print(problem)
    raise UsageError(f"{store.path} failed the integrity check ({len(problems)} problems); {RESCUE}")


def run_resume(store: Store, args: argparse.Namespace) -> int:
    game_id = store.unfinished_game()
    if game_id is None:
        print("no unfinished game")
        return 0
    state = store.load(game_id).game().state
    if args.json:
        print(json.dumps({"id": game_id, **state.to_json()}, ensure_ascii=False))
    else:
        print(f"game #{game_id}\n{describe_state(state)}")
    return 0


RECORD_WORDS = {
    RecordKind.HIGHEST_SCORE: ("highest score", "points"),
    RecordKind.BIGGEST_STACK: ("biggest stack won", "cards"),
    RecordKind.LONGEST_GAME: ("longest game", "min"),
    RecordKind.MOST_CHALLENGES_WON: ("most challenges won in one game", "challenges"),
    RecordKind.LONGEST_SURVIVAL: ("longest run of survived challenges in one game", "challenges"),
}


def run_stats(store: Store, args: argparse.Namespace) -> int:
    if args.table is not None and not args.records and args.player is None:
        raise UsageError("--table is for --records or --player: the table's records, or a player's page there")
    at = _table_named(store, args.table) if args.table is not None else None
    if args.records:
        return _records(store, at)
    if args.player is not None:
        return _player_page(store, args.player, args.profile, at)
    if args.profile is None:
        rows = [_stats_row(p.name, p.games, p.wins, p.win_rate, p.average_score, p.trophies, p.challenges_made,
                           p.challenges_won, p.caught_bluffing, p.survived_challenges) for p in store.stats()]
    else:
        rows = [_stats_row(f.name, f.games, f.wins, f.win_rate, f.average_score, f.trophies, f.challenges_made,
                           f.challenges_won, f.caught_bluffing, f.survived_challenges)
                for f in figures(store, profile=args.profile)]
    if not rows:
        print("no finished games yet")
        return 0
    print(table([STATS_HEADINGS, *rows]))
    return 0


def _table_named(store: Store, name: str) -> str:
    """The id of the league's table called ``name`` (as ``stats --records`` names it), or a usage error naming
    the tables there are."""
    places = tables(store)
    found = [place.id for place in places if (place.name or "this table").casefold() == name.strip().casefold()]
    if not found:
        named = ", ".join(place.name or "this table" for place in places) or "none"
        raise UsageError(f"there is no table named {name} with games here (the tables: {named})")
    return found[0]


def _records(store: Store, at: str | None = None) -> int:
    found = records(store, at)
    if not found:
        print("no finished games yet")
        return 0
    places = {place.id: place.name or "this table" for place in tables(store)}
    league = len(places) > 1  # a league's records say the table of each record's game
    print(table([("record", "value", "who", "game", *(["table"] if league else []))] + [
        (RECORD_WORDS[r.kind][0], f"{r.value} {RECORD_WORDS[r.kind][1]}", r.name or "-", f"#{r.game_id}",
         *([places.get(r.table, r.table)] if league else []))
        for r in found
    ]))
    return 0


STATS_HEADINGS = ("player", "games", "wins", "win %", "avg score", "trophies", "challenges made", "challenges won",
                  "caught bluffing", "challenged and survived")


def _stats_row(name: str, games: int, wins: int, win_rate: float, average: float | None, *counts: int) -> tuple[str, ...]:
    return (name, str(games), str(wins), f"{100 * win_rate:.0f}", "-" if average is None else f"{average:.1f}",
            *(str(n) for n in counts))


def _player_page(store: Store, name: str, profile: ProfileId | None, at: str | None = None) -> int:
    """``stats --player``: the player page as text, one column per rules profile played (at one table)."""
    if name not in store.players():
        raise UsageError(f"there is no player named {name}")
    found = figures(store, player=name, profile=profile, table=at)
    if not found:
        print(f"{name}: no finished games yet")
        return 0
    buzzes = buzz_figures(store, name, at)
    rows = [("", *(str(f.profile) for f in found))] + [
        (heading, *(value(f) for f in found)) for heading, value in PAGE_ROWS
    ] + [(heading, *(value(buzzes.get(f.profile)) for f in found)) for heading, value in BUZZ_ROWS]
    lines = [name, "", table(rows), ""]
    for title, opponent in (("rival (beaten most)", rival(store, name, at)),
                            ("nemesis (beats them most)", nemesis(store, name, at))):
        lines.append(f"{title}: " + ("-" if opponent is None else f"{opponent.name} ({opponent.times} times)"))
    against = [("against", "games", "won", "lost")] + [
        (h.other, str(h.games), str(h.wins), str(h.losses)) for h in head_to_heads(store, name, table=at)
    ]
    lines += ["", table(against)]
    print("\n".join(lines))
    return 0


PAGE_ROWS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("games", lambda f: str(f.games)),
    ("wins", lambda f: str(f.wins)),
    ("win %", lambda f: f"{100 * f.win_rate:.0f}"),
    ("avg score", lambda f: "-" if f.average_score is None else f"{f.average_score:.1f}"),
    ("best score", lambda f: score_text(f.best_score)),
    ("trophies", lambda f: str(f.trophies)),
    ("challenges made", lambda f: str(f.challenges_made)),
    ("  not that spice", lambda f: f"{f.spice_challenges_won}/{f.spice_challenges}"),
    ("  not that number", lambda f: f"{f.number_challenges_won}/{f.number_challenges}"),
    ("challenges won", lambda f: str(f.challenges_won)),
    ("caught bluffing", lambda f: str(f.caught_bluffing)),
    ("challenged and survived", lambda f: str(f.survived_challenges)),
    ("favourite spice", lambda f: f.favourite_spice or "-"),
)
"""The player page's rows; "won/made" for the challenges by what was called."""

BUZZ_ROWS: tuple[tuple[str, Callable[[BuzzFigures | None], str]], ...] = (
    ("quickest buzz (from the tap)", lambda b: "-" if b is None or b.quickest_ms is None else format_delay(b.quickest_ms)),
    ("  buzzed before the tap", lambda b: "-" if b is None else str(b.before_tap)),
    ("median buzz margin", lambda b: "-" if b is None or b.median_margin_ms is None else format_delay(b.median_margin_ms)),
)
"""The buzz figures' rows: "-" under rules with no saved buzz time (games from before it was saved)."""


def run_simulate(store: Store, args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    started = time.perf_counter()
    ids = simulate(store, args.games, args.seed, datetime.now(UTC) - timedelta(hours=args.games))
    print(f"saved {len(ids)} games (#{ids[0]}–#{ids[-1]}) in {time.perf_counter() - started:.1f} s")
    return 0
