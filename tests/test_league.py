"""The league folder: each game that ends written as its own file, the other tables' taken in like a restore.

Real SQLite stores and real files; a table's folder reaching another table is a
copy of it here (tests/test_syncthing.py sends it with real Syncthing instances).
A kill in the middle of an import is a real subprocess killed with SIGKILL.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, UTC
from pathlib import Path

import pytest
from test_backup import games_of

from companion.config import LeagueConfig
from companion.random_play import random_game, random_setup
from companion.rules import Game, new_setup, profile_named
from companion.store import Recorded, Store
from companion.league.folders import League, LeagueError
from companion.store.simulate import simulate

START = datetime(2026, 11, 6, 19, 0, tzinfo=UTC)
ROOT = Path(__file__).parent.parent


def table(tmp_path: Path, name: str) -> League:
    return League(LeagueConfig(table_name=name, table_id=name.lower().replace(" ", "-"), folder=tmp_path / name))


def send(source: League, to: League) -> None:
    """What Syncthing does: the source's own folder, as it is now, in the receiver's tables."""
    shutil.copytree(source.own, to.folder_of(source.table.id), dirs_exist_ok=True, symlinks=True)


def uids_and_logs(path: Path) -> dict[str, list[str]]:
    with sqlite3.connect(path) as db:
        return {uid: [a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [i])]
                for i, uid in db.execute("SELECT id, uid FROM games")}


@pytest.fixture
def two(tmp_path: Path) -> tuple[League, Store, League, Store]:
    a, b = table(tmp_path, "Table 1"), table(tmp_path, "Table 2")
    return a, Store.open(tmp_path / "a.db"), b, Store.open(tmp_path / "b.db")


def test_a_table_has_an_id_made_once_and_a_name(tmp_path: Path) -> None:
    config = LeagueConfig(table_name="Table 3", folder=tmp_path / "league")
    first, again = League(config).table, League(config).table
    assert first == again and first.name == "Table 3" and len(first.id) == 12
    assert League(LeagueConfig(folder=tmp_path / "other")).table.id != first.id
    described = json.loads((tmp_path / "league" / "tables" / first.id / "table.json").read_text())
    assert described["name"] == "Table 3" and described["id"] == first.id


def test_a_name_set_on_the_league_screen_is_kept_and_wins_over_the_configs(tmp_path: Path) -> None:
    config = LeagueConfig(table_name="Table 3", folder=tmp_path / "league")
    league = League(config)
    league.rename("  Bar   corner ")
    assert league.table.name == "Bar corner"
    again = League(config).table
    assert again == league.table  # after a restart, the same id and the name set on screen
    described = json.loads((league.own / "table.json").read_text())
    assert described["name"] == "Bar corner"  # what the other tables read
    for bad in ("", "   ", "x" * 41, "esc\x1bape"):
        with pytest.raises(LeagueError, match="one line of 1 to 40 characters"):
            league.rename(bad)
    assert League(config).table.name == "Bar corner"  # a refused name changes nothing


def test_each_game_that_ended_is_one_file_named_by_its_uid_and_nothing_half_written(two) -> None:
    a, pi, _, _ = two
    simulate(pi, 3, seed=1, start=START)
    abandoned = pi.new_game(random_setup(random.Random(3)), START.isoformat())
    pi.abandon(abandoned, START.isoformat())
    unfinished = pi.new_game(random_setup(random.Random(2)), START.isoformat())
    written = a.publish_ended(pi)
    names = sorted(path.name for path in (a.own / "games").iterdir())
    assert names == sorted(f"{uid}.json" for uid, game_id in pi.uids().items() if game_id != unfinished)
    assert {path.name for path in written} == set(names)
    record = json.loads((a.own / "games" / f"{pi.uid_of(abandoned)}.json").read_text())
    assert record["kind"] == "spicy-companion game" and record["abandoned_at"] == START.isoformat()
    assert a.publish_ended(pi) == []  # written once
    assert not list(a.own.rglob("*.partial"))


def test_another_tables_games_come_in_once_the_same_as_there(two) -> None:
    a, pi, b, other = two
    simulate(pi, 5, seed=4, start=START)
    a.publish_ended(pi)
    send(a, b)
    done = b.import_tables(other)
    assert (done.added, done.already, done.notices) == (5, 0, [])
    assert uids_and_logs(other.path) == uids_and_logs(pi.path)
    theirs = {row[0]: row[1:-2] for row in games_of(other.path)}  # but colours and buzzers: they stay there
    assert theirs == {row[0]: row[1:-2] for row in games_of(pi.path)}
    assert b.import_tables(other).added == 0  # read once
    (b.root / "seen.json").unlink()
    again = b.import_tables(other)
    assert (again.added, again.already) == (0, 5)  # read again: the uid and the log say it is here
    assert len(uids_and_logs(other.path)) == 5
    assert b.publish_ended(other) == []  # another table's games are theirs to send


def test_a_longer_log_of_the_same_game_extends_it(two, tmp_path: Path) -> None:
    a, pi, b, other = two
    rng = random.Random(7)
    game = random_game(rng, random_setup(rng))
    half = game.log[: len(game.log) // 2]
    setup = game.setup
    short = Game.start(setup)
    for action in half:
        short = short.apply(action)
    stamps = [START.isoformat()] * len(game.log)
    (game_id,) = pi.save([Recorded(short, START.isoformat(), stamps[: len(half)])])
    pi.abandon(game_id, START.isoformat())
    a.publish(pi, game_id)
    send(a, b)
    assert b.import_tables(other).added == 1
    longer = Store.open(tmp_path / "later.db")
    (later,) = longer.save([Recorded(game, START.isoformat(), stamps, pi.uid_of(game_id))])
    a.publish(longer, later)
    send(a, b)
    done = b.import_tables(other)
    assert (done.added, done.extended) == (0, 1)
    (only,) = uids_and_logs(other.path).values()
    assert len(only) == len(game.log)
    assert other.load(other.uids()[pi.uid_of(game_id)]).game().state.ended


def hostile_files(folder: Path, good: Path) -> dict[str, str]:
    """Each file a receive-only folder may hold that is not ours, and a word its notice must hold."""
    games = folder / "games"
    record = json.loads(good.read_text())
    files = {}

    def put(name: str, data: bytes | str, word: str) -> None:
        (games / name).write_bytes(data if isinstance(data, bytes) else data.encode())
        files[name] = word

    put("00000000-0000-0000-0000-000000000001.json", good.read_bytes()[: good.stat().st_size // 2], "JSON")
    put("dropped by hand.txt", "a shopping list", ".json")
    put("00000000-0000-0000-0000-000000000002.json", json.dumps({"kind": "photos"}), "not a Spicy")
    put("00000000-0000-0000-0000-000000000003.json", json.dumps({**record, "format": 9}), "newer")
    put("00000000-0000-0000-0000-000000000004.json",
        json.dumps({**record, "uid": "00000000-0000-0000-0000-000000000004", "seats": ["x" * 10_000_000, "Bo"]}),
        "name")
    put("00000000-0000-0000-0000-000000000005.json",
        json.dumps({**record, "uid": "[b]<script>[/b]"}), "uid")
    put("00000000-0000-0000-0000-000000000006.json", b"\xff\xfe not text", "UTF-8")
    put("00000000-0000-0000-0000-000000000007.json", "[" * 100_000 + "]" * 100_000, "nested")
    os.symlink(good, games / "00000000-0000-0000-0000-000000000008.json")
    files["00000000-0000-0000-0000-000000000008.json"] = "link"
    os.mkfifo(games / "00000000-0000-0000-0000-000000000009.json")
    files["00000000-0000-0000-0000-000000000009.json"] = "FIFO"
    with open(games / "00000000-0000-0000-0000-00000000000a.json", "wb") as huge:
        huge.truncate(17_000_000)
    files["00000000-0000-0000-0000-00000000000a.json"] = "larger than 16 MB"
    return files


def test_files_that_are_not_ours_are_named_once_and_left_alone(two) -> None:
    a, pi, b, other = two
    simulate(pi, 2, seed=5, start=START)
    (good, _) = a.publish_ended(pi)
    send(a, b)
    there = b.folder_of(a.table.id)
    words = hostile_files(there, good)
    before = {path.name: path.lstat() for path in (there / "games").iterdir()}
    done = b.import_tables(other)
    assert done.added == 2
    for name, word in words.items():
        (notice,) = [str(n) for n in done.notices if name in str(n)]
        assert word in notice and "left as it is" in notice, notice
    assert len(done.notices) == len(words)
    assert len(other.uids()) == 2 and other.check() == []
    after = {path.name: path.lstat() for path in (there / "games").iterdir()}
    assert {n: (s.st_size, s.st_mtime_ns) for n, s in after.items()} == {
        n: (s.st_size, s.st_mtime_ns) for n, s in before.items()}
    assert b.import_tables(other).notices == []  # named once
    (there / "games" / "dropped by hand.txt").write_text("a longer shopping list")
    (again,) = b.import_tables(other).notices  # changed since: named again
    assert "dropped by hand.txt" in str(again)


def test_renames_merges_and_retirements_reach_the_other_table(two) -> None:
    a, pi, b, other = two
    setup = new_setup(profile_named("spicy"), ("Ann", "Bob", "Cy"))
    for seed, names in enumerate((("Ann", "Bob", "Cy"), ("Bobby", "Dee"))):
        rng = random.Random(seed)
        game = random_game(rng, new_setup(setup.profile, names))
        pi.save([Recorded(game, START.isoformat(), [START.isoformat()] * len(game.log))])
    a.publish_ended(pi)
    a.rename_player(pi, "Ann", "Annie")
    a.merge_players(pi, "Bobby", "Bob")
    a.retire_player(pi, "Cy")
    send(a, b)
    done = b.import_tables(other)
    assert done.players == 3
    assert sorted(other.players()) == sorted(pi.players()) == ["Annie", "Bob", "Cy", "Dee"]
    assert other.query("SELECT retired_at IS NOT NULL FROM players WHERE name = 'Cy'") == [(1,)]
    assert other.games_of("Bob") == 2
    assert b.import_tables(other).players == 0  # applied once: nothing left to change


def test_a_rename_that_arrives_before_its_games_still_renames_them(two) -> None:
    a, pi, b, other = two
    rng = random.Random(9)
    game = random_game(rng, new_setup(profile_named("spicy"), ("Ann", "Bob")))
    pi.save([Recorded(game, START.isoformat(), [START.isoformat()] * len(game.log))])
    a.rename_player(pi, "Ann", "Annie")
    games = a.own / "games"
    a.publish_ended(pi)
    held = games.with_name("held")
    games.rename(held)  # the records arrive first
    send(a, b)
    b.import_tables(other)
    held.rename(games)
    send(a, b)
    b.import_tables(other)
    assert sorted(other.players()) == ["Annie", "Bob"]


def test_an_import_killed_midway_leaves_whole_games_and_finishes_on_restart(two, tmp_path: Path) -> None:
    a, pi, b, other = two
    simulate(pi, 300, seed=6, start=START)
    a.publish_ended(pi)
    send(a, b)
    other.close()
    command = [sys.executable, "-m", "companion.cli", "league", "import", "--db", str(tmp_path / "b.db"),
               "--folder", str(b.root), "--batch", "2"]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    count = 0
    while time.monotonic() < deadline and child.poll() is None:
        with sqlite3.connect(f"file:{tmp_path / 'b.db'}?mode=ro", uri=True) as db:
            try:
                count = db.execute("SELECT count(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                count = 0  # not made yet
        if count >= 10:
            child.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.communicate()
    with Store.open(tmp_path / "b.db") as store:
        assert store.check() == []
        here = uids_and_logs(store.path)
        assert 10 <= len(here) < 300
        theirs = uids_and_logs(pi.path)
        assert all(here[uid] == theirs[uid] for uid in here)  # no game half in
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert uids_and_logs(tmp_path / "b.db") == uids_and_logs(pi.path)


def test_syncthings_own_files_and_half_sent_ones_are_passed_over_quietly(two) -> None:
    a, pi, b, other = two
    simulate(pi, 1, seed=8, start=START)
    (good,) = a.publish_ended(pi)
    send(a, b)
    there = b.folder_of(a.table.id)
    (there / ".stfolder").mkdir()
    (there / "games" / f".syncthing.{good.name}.tmp").write_bytes(good.read_bytes()[:100])  # a transfer cut short
    (there / "games" / f"{good.name}.partial").write_bytes(b"")
    done = b.import_tables(other)
    assert (done.added, done.notices) == (1, [])
