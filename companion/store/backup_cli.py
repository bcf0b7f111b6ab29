"""``spicy-companion backup`` and ``restore``: the saved games to a folder or a stick, and back.

A restore prints what it would add before adding it; ``--dry-run`` stops there.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.errors import UsageError
from companion.store.backup import RestorePlan, backup, backups_in, plan_restore, restore
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
        description="Merge a backup into this database: games it already has are left alone, players with the "
        "same name are the same player. PATH is a backup file, or a folder (its newest backup). What would be "
        "added is printed first.",
    )
    back.add_argument("path", type=Path, metavar="PATH")
    back.add_argument("--dry-run", action="store_true", help="only print what would be added")
    back.set_defaults(handler=_handler(run_restore))


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
    if args.dry_run or not plan.games:
        return 0
    ids = restore(store, plan)
    print(f"restored {len(ids)} games" + (f" (#{ids[0]}–#{ids[-1]})" if ids else ""))
    return 0


def describe_plan(plan: RestorePlan) -> str:
    lines = [f"{plan.source}: {len(plan.games)} games to add, {plan.already} already here"]
    if plan.new_players:
        lines.append(f"new players: {', '.join(plan.new_players)}")
    for game in plan.games:
        state = "" if game.finished else "  (unfinished)"
        lines.append(f"  {_when(game.started_at)}  {', '.join(game.names)}{state}")
    lines += [f"left out: {reason}" for reason in plan.left_out]
    return "\n".join(lines)
