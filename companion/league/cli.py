"""``spicy-companion league``: this table's league from a terminal (README "Club night").

``league publish`` writes every game that ended here and is not in the folder yet;
``league import`` takes in the other tables' games and player changes. ``code``,
``join``, ``asking``, ``accept``, ``refuse``, ``status`` and ``leave`` speak to this table's
Syncthing (the one running, else one started for the command); ``run`` keeps the
league in step in the foreground until Ctrl-C.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import LeagueConfig, load_config
from companion.errors import UsageError
from companion.store.cli import _handler, db_path, whole_number
from companion.store.db import Store
from companion.league.beacon import Beacon
from companion.league.folders import BATCH, League
from companion.league.syncthing import (
    Syncthing,
    accept,
    is_on,
    join,
    keep_in_step,
    league_code,
    league_state,
    leave,
    refuse,
    running,
    start_league,
    step,
)

STEP_SECONDS = 5.0
"""Between two steps of ``league run``: a game that ends is at the other tables within seconds."""


def add_commands(subparsers: Any) -> None:
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--db", type=db_path, help="the database file (default: config file, else user data folder)")
    options.add_argument("--folder", type=Path, help="the league folder (default: the config's [league] folder)")
    league = subparsers.add_parser("league", help="this table's games to the league folder, and the others' in",
                                   description="Club night: several tables keep one league in step.")
    commands = league.add_subparsers(dest="league_command", metavar="COMMAND", required=True)
    publish = commands.add_parser("publish", parents=[options], help="write every game that ended here and is "
                                  "not in the league folder yet")
    publish.set_defaults(handler=_handler(run_publish))
    take = commands.add_parser("import", parents=[options], help="take in the other tables' games and player "
                               "changes; a file that is not ours is named and left alone")
    take.add_argument("--batch", type=whole_number(100_000), default=BATCH,
                      help=f"games a transaction (default {BATCH})")
    take.set_defaults(handler=_handler(run_import))
    for name, helped, run in (
        ("code", "start a league here (or stay in it) and print this table's league code", run_code),
        ("asking", "the tables that asked to join, by name and device", run_asking),
        ("status", "the league's state in words", run_status),
        ("leave", "stop sharing with every other table; the games taken in stay", run_leave),
    ):
        command = commands.add_parser(name, parents=[options], help=helped)
        command.set_defaults(handler=_league_handler(run))
    join_ = commands.add_parser("join", parents=[options], help="ask the table of a league code to join its league")
    join_.add_argument("code", help="the code `league code` printed at a table of the league")
    join_.set_defaults(handler=_league_handler(run_join))
    accept_ = commands.add_parser("accept", parents=[options], help="accept a table that asked to join")
    accept_.add_argument("device", help="its device, as `league asking` lists it")
    accept_.set_defaults(handler=_league_handler(run_accept))
    refuse_ = commands.add_parser("refuse", parents=[options], help="refuse a table that asked to join: "
                                  "Syncthing ignores it from then on")
    refuse_.add_argument("device", help="its device, as `league asking` lists it")
    refuse_.set_defaults(handler=_league_handler(run_refuse))
    keep = commands.add_parser("run", parents=[options], help="keep the league in step until Ctrl-C: this table's "
                               "games out, the others' in, every few seconds")
    keep.set_defaults(handler=_handler(run_league))
    beacon = commands.add_parser("beacon", parents=[options], help="say this table's name on the club's network "
                                 "and hear the others' until stopped (the Pi's spicy-companion-beacon.service)")
    beacon.set_defaults(handler=run_beacon)


def _settings(args: argparse.Namespace) -> LeagueConfig:
    config = load_config(args.config).league
    return config if args.folder is None else replace(config, folder=args.folder)


def _league(args: argparse.Namespace) -> League:
    return League(_settings(args))


def _league_handler(run: Callable[[League, Syncthing, argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The league and its Syncthing for a command that needs no saved games."""

    def handle(args: argparse.Namespace) -> int:
        config = _settings(args)
        league = League(config)
        with running(league, config.listen, config.local_discovery, config.beacon_port) as syncthing:
            return run(league, syncthing, args)

    return handle


def run_code(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    start_league(league, syncthing)
    print(league_code(league, syncthing))
    return 0


def run_join(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    host = join(league, syncthing, args.code)
    print(f"{league.table.name} asked {host.name} to join its league: accept it there (league asking, league accept)")
    return 0


def run_asking(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    asking = syncthing.pending_devices()
    for device, asked in asking.items():
        print(f"{asked.get('name') or '?'}  {device}")
    if not asking:
        print("no table is asking to join")
    return 0


def _asking(syncthing: Syncthing, device: str) -> str:
    if device not in syncthing.pending_devices():
        raise UsageError("no table with the device {device} is asking to join: see league asking", device=device)
    return device


def run_accept(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    accept(league, syncthing, _asking(syncthing, args.device))
    print(f"accepted {args.device}")
    return 0


def run_refuse(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    refuse(syncthing, _asking(syncthing, args.device))
    print(f"refused {args.device}: it is asked no more")
    return 0


def run_status(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    if not is_on(league):
        print(f"{league.table.name} is in no league: league code starts one, league join joins one")
        return 0
    keep_in_step(league, syncthing)
    print("\n".join(league_state(league, syncthing)))
    return 0


def run_leave(league: League, syncthing: Syncthing, args: argparse.Namespace) -> int:
    leave(league, syncthing)
    print(f"{league.table.name} left the league; the games taken in stay")
    return 0


def _stop(number: int, _frame: object) -> None:
    """A ``kill`` or a closed terminal ends ``league run`` as Ctrl-C does: the Syncthing it started stops too,
    rather than run on without it."""
    raise SystemExit(128 + number)


def run_league(store: Store, args: argparse.Namespace) -> int:
    config = _settings(args)
    league = League(config)
    if not is_on(league):
        raise UsageError("this table is in no league: league code starts one, league join joins one")
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _stop)
    with running(league, config.listen, config.local_discovery, config.beacon_port) as syncthing:
        print(f"{league.table.name}: keeping the league in step (Ctrl-C stops)", flush=True)
        while True:
            done = step(league, syncthing, store)
            for notice in done.notices:
                print(f"spicy-companion: {notice}", file=sys.stderr, flush=True)
            if done.added or done.extended or done.players:
                print(f"added {done.added} games, extended {done.extended}; {done.players} player changes",
                      flush=True)
            time.sleep(STEP_SECONDS)


def run_beacon(args: argparse.Namespace) -> int:
    """Beside the Syncthing of a Pi's service, as the app's league thread runs it beside its own: the kiosk has
    no network to say anything on."""
    config = _settings(args)
    config.folder.mkdir(parents=True, exist_ok=True)
    beacon = Beacon(config.folder, config.beacon_port)
    for number in (signal.SIGTERM, signal.SIGHUP):  # a clean stop: the service's stop is no failure
        signal.signal(number, lambda _number, _frame: beacon.stop())
    print(f"saying this table's name on port {config.beacon_port} (Ctrl-C stops)", flush=True)
    beacon.run()
    return 0


def run_publish(store: Store, args: argparse.Namespace) -> int:
    league = _league(args)
    written = league.publish_ended(store)
    print(f"{league.table.name}: wrote {len(written)} games into {league.own}")
    return 0


def run_import(store: Store, args: argparse.Namespace) -> int:
    done = _league(args).import_tables(store, max(1, args.batch))
    for notice in done.notices:
        print(f"spicy-companion: {notice}", file=sys.stderr)
    print(f"added {done.added} games, extended {done.extended}, {done.already} already here; "
          f"{done.players} player changes; {len(done.notices)} files refused")
    return 0
