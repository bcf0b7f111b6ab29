"""``spicy-companion league``: this table's league folder from a terminal (README "Club night").

``league publish`` writes every game that ended here and is not in the folder yet;
``league import`` takes in the other tables' games and player changes. Both are
what the app does by itself while the league is on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.store.cli import _handler, db_path, whole_number
from companion.store.db import Store
from companion.store.league import BATCH, League


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


def _league(args: argparse.Namespace) -> League:
    config = load_config(args.config).league
    if args.folder is not None:
        config = type(config)(config.table_name, config.table_id, args.folder)
    return League(config)


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
