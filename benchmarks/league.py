"""Club night figures: a table's ended games into its league folder, and the other tables' in.

Run: python benchmarks/league.py [--games 2000]. ``games`` simulated games are
written into a table's folder and taken in by a fresh store, each against the
same games through the backup and restore of "Taking games home" in the same
run (the same plan, the same transaction code); then an import that finds
nothing new (every file seen), and one with the record of what was seen lost
(every file read again, every game found here). The machine's load beside each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from companion.config import LeagueConfig
from companion.store import Store
from companion.store.backup import backup, plan_restore, restore
from companion.league.folders import League
from companion.store.simulate import simulate

T = TypeVar("T")


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def once(fn: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2_000, help="games played at the first table (default 2000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        one = League(LeagueConfig(table_name="Table 1", table_id="t1", folder=folder / "one"))
        two = League(LeagueConfig(table_name="Table 2", table_id="t2", folder=folder / "two"))
        with Store.open(folder / "one.db") as store:
            _, simulated = once(lambda: simulate(store, args.games, 1, datetime(2026, 1, 1, tzinfo=UTC)))
            print(f"simulate {args.games:,} games: {simulated:.1f} s ({load()})")
            written, published = once(lambda: one.publish_ended(store))
            made, backed_up = once(lambda: backup(store, folder))
        size = sum(path.stat().st_size for path in written)
        print(f"publish {len(written):,} games, one file each ({size / 1e6:.1f} MB): {published:.1f} s; "
              f"baseline, backup of the same games {backed_up:.2f} s ({published / backed_up:.0f}x) ({load()})")
        shutil.copytree(one.own, two.folder_of("t1"))
        with Store.open(folder / "fresh.db") as fresh:
            plan, planned = once(lambda: plan_restore(fresh, made))
            _, restored = once(lambda: restore(fresh, plan))
        with Store.open(folder / "two.db") as store:
            done, imported = once(lambda: two.import_tables(store))
            assert done.added == args.games, done
            _, nothing_new = once(lambda: two.import_tables(store))
            (two.root / "seen.json").unlink()
            again, reread = once(lambda: two.import_tables(store))
            assert again.already == args.games, again
        baseline = planned + restored
        print(f"import {args.games:,} games into a fresh store: {imported:.1f} s "
              f"({imported / args.games * 1000:.1f} ms a game); baseline, restore of their backup "
              f"{baseline:.1f} s ({imported / baseline:.1f}x) ({load()})")
        print(f"import again, nothing new: {nothing_new:.2f} s; with seen.json lost, every file read and found "
              f"here: {reread:.1f} s ({load()})")


if __name__ == "__main__":
    main()
