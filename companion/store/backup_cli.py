"""``spicy-companion backup`` and ``restore``: the saved games to a folder or a stick, and back.

A restore prints what it would add before adding it; ``--dry-run`` stops there, and
writes nothing: not even an empty database where ``--db`` names none yet.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UsageError
from companion.store.backup import Incoming, RestorePlan, backup, backups_in, plan_restore, restore
from companion.store.cli import _handler, _when, db_path
from companion.store.db import Store


def add_commands(subparsers: Any) -> None:
    db_option = argparse.ArgumentParser(add_help=False)
    db_option.add_argument("--db", type=db_path, help="the database file (default: config file, else user data folder)")

    save = subparsers.add_parser(
        "backup", parents=[db_option], help="copy every saved game into a backup file",
        description="Copy the database with SQLite's online backup (safe while a game is being played). PATH is "
        "a folder (the file is named with the date and time) or a file ending in .db; default: the database's "
        "own folder.",
    )
    save.add_argument("path", nargs="?", type=Path, metavar="PATH")
    save.set_defaults(handler=_handler(run_backup))

    back = subparsers.add_parser(
        "restore", parents=[db_option], help="add the games of a backup that this database does not have",
        description="Merge a backup into this database: games it already has are left alone, a game it has "
        "with a longer log in the backup (played on elsewhere) is extended, one whose log parts from the one "
        "here is kept beside it; players with the same name are the same player. PATH is a backup file, or a "
        "folder (its newest backup). What would be added is printed first.",
    )
    back.add_argument("path", type=Path, metavar="PATH")
    back.add_argument("--dry-run", action="store_true", help="only print what would be added; nothing is written")
    back.set_defaults(handler=_restore_handler)


def run_backup(store: Store, args: argparse.Namespace) -> int:
    path: Path = args.path if args.path is not None else store.path.parent
    if path.is_dir():
        written = backup(store, path)
    elif path.suffix == ".db":
        written = backup(store, path.parent, name=path.name)
    else:
        raise UsageError("{path} is not a folder: give a folder, or a file name ending in .db", path=str(path))
    print(f"backed up {len(store.uids())} games to {written}")
    return 0


def _restore_handler(args: argparse.Namespace) -> int:
    """A dry run plans against a copy in memory (an empty one for a database not made yet): it writes no
    file, and an older database is not upgraded by it."""
    if args.dry_run:
        config = load_config(args.config).store
        path = Path(args.db or config.db)
        with Store.copy_in_memory(path, config.busy_timeout) if path.exists() else Store.memory() as store:
            return run_restore(store, args)
    return int(_handler(run_restore)(args))


def run_restore(store: Store, args: argparse.Namespace) -> int:
    path: Path = args.path
    if path.is_dir():
        found = backups_in(path)
        if not found:
            raise UsageError("there is no backup in {folder} (files named spicy-companion-backup-….db)",
                             folder=str(path))
        path = found[0]
    plan = plan_restore(store, path)
    print(describe_plan(plan))
    if args.dry_run or not (plan.games or plan.extended):
        return 0
    ids = restore(store, plan)
    extended = {game.extends for game in plan.extended} & set(ids)
    added = [game_id for game_id in ids if game_id not in extended]
    print(f"restored {len(added)} games" + (f" (#{added[0]}–#{added[-1]})" if added else "")
          + (f", extended {len(extended)}" if extended else ""))
    return 0


def describe_plan(plan: RestorePlan) -> str:
    extend = f", {len(plan.extended)} to extend" if plan.extended else ""
    lines = [f"{plan.source}: {len(plan.games)} games to add{extend}, {plan.already} already here"]
    if plan.new_players:
        lines.append(f"new players: {', '.join(plan.new_players)}")
    for game in [*plan.games, *plan.extended]:
        lines.append(f"  {_when(game.started_at)}  {', '.join(game.names)}{_how(game)}")
    lines += [f"left out: {reason}" for reason in plan.left_out]
    return "\n".join(lines)


def _how(game: Incoming) -> str:
    """How a game of the plan stands and what the restore does with it, after its names."""
    said = "" if game.finished else "  (abandoned)" if game.abandoned else "  (unfinished)"
    if game.extends is not None:
        more = len(game.recorded.stamps) - game.moves_here
        said += f"  extends #{game.extends}: {more} more actions after its {game.moves_here}"
    elif game.beside is not None:
        said += f"  kept beside #{game.beside}: the two logs part at action {game.parts_at}"
    return said
