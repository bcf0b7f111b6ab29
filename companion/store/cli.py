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
from companion.errors import UsageError
from companion.report import describe_state, read_input, score_text, table
from companion.rules import EventKind, TranscriptError, replay_transcript
from companion.store.backup import export_all
from companion.store.db import RESCUE, GameSummary, Recorded, Store, now
from companion.store.export import FORMATS, export_text, identity
from companion.store.simulate import simulate

TIMELINE_KINDS = frozenset({
    EventKind.LAST_CARD, EventKind.CHALLENGE, EventKind.CHALLENGE_WON, EventKind.STACK_WON, EventKind.RAID,
    EventKind.TROPHY, EventKind.END,
})
MAX_ID = 2**63 - 1
"""The largest integer SQLite keeps: any bigger game number or limit cannot be bound to a query."""
MAX_GAMES = 100_000
"""For ``simulate``: more is a typo, not a demo (10,000 games already take minutes to play)."""


def whole_number(most: int) -> Callable[[str], int]:
    """An argument type for counts and game numbers: ASCII digits, at most ``most``."""

    def parse(text: str) -> int:
        shown = text if len(text) <= 24 else text[:24] + "…"
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
        description="Per player, over finished games.",
    )
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
        return f"#{game.id}  {_when(game.started_at)}  {', '.join(game.names)}  (unfinished)"
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
    lines.append("")
    for step in game.steps()[1:]:
        for event in step.state.events:
            if event.kind in TIMELINE_KINDS:
                lines.append(f"{_when(saved.log[step.entry].at)}  {step.depth:>4}. {event.text}")
    state = game.state
    rows = [("seat", "won", "won universals", "trophies", "hand", "universals", "score")]
    rows += [
        (seat.name + (" (winner)" if i in state.winners else ""), str(seat.won), str(seat.won_universals),
         str(seat.trophies), str(seat.hand), str(seat.universals), score_text(state.score(i)))
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


def run_stats(store: Store, args: argparse.Namespace) -> int:
    rows = [("player", "games", "wins", "win %", "avg score", "trophies", "challenges made", "challenges won",
             "caught bluffing", "challenged and survived")]
    for p in store.stats():
        average = "-" if p.average_score is None else f"{p.average_score:.1f}"
        rows.append((p.name, str(p.games), str(p.wins), f"{100 * p.win_rate:.0f}", average, str(p.trophies),
                     str(p.challenges_made), str(p.challenges_won), str(p.caught_bluffing),
                     str(p.survived_challenges)))
    if len(rows) == 1:
        print("no finished games yet")
        return 0
    print(table(rows))
    return 0


def run_simulate(store: Store, args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    started = time.perf_counter()
    ids = simulate(store, args.games, args.seed, datetime.now(UTC) - timedelta(hours=args.games))
    print(f"saved {len(ids)} games (#{ids[0]}–#{ids[-1]}) in {time.perf_counter() - started:.1f} s")
    return 0
