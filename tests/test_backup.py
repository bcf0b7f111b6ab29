"""Backup, export of every game and a restore that merges, into folders standing in for a USB stick.

Real SQLite files throughout; a full stick is a small tmpfs and a read-only one a
read-only tmpfs (mounted when the tests run as root, as in CI), a stick pulled
out is its folder removed in the middle of the write.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import datetime, timedelta, UTC
from pathlib import Path

import pytest
from sqlite_utils import Database
from store_helpers import undo_migrations_from

from companion.cli import main
from companion.rules import replay_transcript
from companion.table.seating import Seating
from companion.store import Store
from companion.store.backup import (
    TakeHomeError,
    backup,
    backups_in,
    export_all,
    plan_restore,
    restore,
)
from companion.store.schema import MIGRATIONS, derived_uid
from companion.store.simulate import simulate

START = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root (CI runs as root)")


def games_of(path: Path) -> list[tuple]:
    """Everything that makes the games what they are, by identity: set-up, actions, stamps and scores."""
    with sqlite3.connect(path) as db:
        games = db.execute(
            "SELECT id, uid, profile, variants, options, seats, end_card, first, started_at, ended_at, end_reason,"
            " winners, note, abandoned_at FROM games").fetchall()
        rows = []
        for game_id, uid, *facts in games:
            actions = db.execute("SELECT seq, at, action FROM actions WHERE game_id = ? ORDER BY seq", [game_id])
            seats = db.execute("SELECT seat, colour, buzzer FROM game_seats WHERE game_id = ? ORDER BY seat",
                               [game_id]).fetchall()
            scores = db.execute(
                "SELECT seat, players.name, score, won, won_universals, trophies, hand, universals, winner,"
                " challenges_made, challenges_won, caught_bluffing, survived_challenges"
                " FROM scores JOIN players ON players.id = scores.player_id WHERE game_id = ? ORDER BY seat",
                [game_id])
            rows.append((uid, *facts, actions.fetchall(), seats, scores.fetchall()))
    return sorted(rows)


def digest(path: Path) -> str:
    """The file's bytes with its WAL: a change that is not yet checkpointed shows too."""
    wal = path.with_name(path.name + "-wal")
    return hashlib.sha256(path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")).hexdigest()


@pytest.fixture
def pi(tmp_path: Path) -> Iterator[Store]:
    """The Pi's database: a dozen random games (one with a note), one abandoned and one still being played."""
    with Store.open(tmp_path / "pi" / "games.db") as store:
        simulate(store, 12, seed=5, start=START)
        store.set_note(3, "Ben's birthday")
        left = store.new_game(replay_transcript("rules spicy\nseats Ana Ben\n").setup, "2026-11-30T19:00:00.000+00:00")
        store.abandon(left, "2026-11-30T19:30:00.000+00:00")
        store.new_game(replay_transcript("rules spicy\nseats Ana Zoë\n").setup, "2026-11-30T20:00:00.000+00:00",
                       Seating(colours=(4, 2), buzzers=(1, 0)))
        yield store


def test_a_backup_restored_into_a_fresh_database_holds_the_same_games_and_twice_adds_nothing(
    pi: Store, tmp_path: Path
) -> None:
    stick = tmp_path / "stick"
    stick.mkdir()
    written = backup(pi, stick)
    assert backups_in(stick) == [written] and written.name.startswith("spicy-companion-backup-")
    assert not list(stick.glob("*.partial")) and not list(stick.glob("*-wal"))

    with Store.open(tmp_path / "home" / "games.db") as home:
        plan = plan_restore(home, written)
        assert (len(plan.games), plan.already) == (14, 0)
        assert sum(not game.finished for game in plan.games) == 2  # the abandoned one and the one in play
        assert "Zoë" in plan.new_players
        assert len(restore(home, plan)) == 14
        again = plan_restore(home, written)
        assert (again.games, again.already) == ([], 14)
        assert restore(home, again) == []
    assert games_of(tmp_path / "home" / "games.db") == games_of(pi.path)


def test_a_restore_adds_only_the_games_this_database_lacks_and_keeps_one_player_a_name(
    pi: Store, tmp_path: Path
) -> None:
    early = backup(pi, tmp_path, name="early.db")
    simulate(pi, 4, seed=9, start=START + timedelta(days=30))
    full = backup(pi, tmp_path, name="full.db")
    with Store.open(tmp_path / "home.db") as home:
        restore(home, plan_restore(home, early))
        players = home.players()
        plan = plan_restore(home, full)
        assert (len(plan.games), plan.already) == (4, 14)
        assert {game.started_at[:10] for game in plan.games} == {"2026-12-01"}
        restore(home, plan)
        assert len(home.uids()) == 18
        # The same names sat down again: no second "Ana".
        assert home.players()[: len(players)] == players
        assert len(set(home.players())) == len(home.players())
    assert games_of(tmp_path / "home.db") == games_of(pi.path)


def test_games_saved_before_uids_get_the_same_uid_in_every_copy(pi: Store, tmp_path: Path) -> None:
    """Two copies of an older database upgraded apart: a backup of one restored into the other adds nothing."""
    old = tmp_path / "old.db"
    backup(pi, tmp_path, name="old.db")
    with sqlite3.connect(old) as db:
        undo_migrations_from(db, "m009_game_uid")
    copy = tmp_path / "copy" / "games.db"
    copy.parent.mkdir()
    shutil.copyfile(old, copy)
    with Store.open(old) as first, Store.open(copy) as second:
        assert first.uids() == second.uids() and len(first.uids()) == 14
        row = first.query("SELECT started_at, profile, variants, options, seats, end_card, first FROM games"
                          " WHERE id = 1")[0]
        assert first.uid_of(1) == derived_uid(list(row)) != pi.uid_of(1)
        assert plan_restore(second, backup(first, tmp_path)).games == []


def test_export_writes_every_game_in_every_format_into_one_dated_folder(pi: Store, tmp_path: Path) -> None:
    done = export_all(pi, tmp_path, at=datetime(2026, 12, 24, 20, 15, 0))
    assert done.folder == tmp_path / "spicy-companion-games-2026-12-24-201500"
    assert (done.games, done.left_out) == (14, [])
    for format, ext in (("transcript", "txt"), ("json", "json"), ("csv", "csv")):
        assert len(list((done.folder / format).glob(f"*.{ext}"))) == 14
    record = json.loads((done.folder / "json" / "game-00003.json").read_text(encoding="utf-8"))
    saved = pi.load(3)
    assert record["uid"] == pi.uid_of(3) and record["state"] == saved.game().state.to_json()
    assert replay_transcript((done.folder / "transcript" / "game-00003.txt").read_text()) == saved.game()


def test_links_a_crafted_stick_holds_under_the_names_written_are_never_followed(pi: Store, tmp_path: Path) -> None:
    """An ext4 stick may hold symbolic links named as the partial export, the partial backup and its journals."""
    stick, elsewhere = tmp_path / "stick", tmp_path / "elsewhere"
    stick.mkdir()
    elsewhere.mkdir()
    at = datetime(2026, 12, 24, 20, 15, 0)
    (stick / "spicy-companion-games-2026-12-24-201500.partial").symlink_to(elsewhere)
    victims = {}
    for suffix in ("", "-journal", "-wal", "-shm"):
        victims[suffix] = elsewhere / f"victim{suffix}"
        victims[suffix].write_bytes(b"not the stick's to change")
        (stick / f"spicy-companion-backup-2026-12-24-201500.db.partial{suffix}").symlink_to(victims[suffix])
    done = export_all(pi, stick, at=at)
    assert sorted(os.listdir(elsewhere)) == sorted(victim.name for victim in victims.values())
    assert not done.folder.is_symlink() and done.games == 14 and len(list((done.folder / "json").iterdir())) == 14
    written = backup(pi, stick, at=at)
    assert all(victim.read_bytes() == b"not the stick's to change" for victim in victims.values())
    assert sorted(os.listdir(stick)) == [written.name, done.folder.name] and not written.is_symlink()
    assert games_of(written) == games_of(pi.path)


def test_a_game_that_cannot_be_read_is_named_and_the_others_are_exported(pi: Store, tmp_path: Path) -> None:
    pi.db.execute("UPDATE games SET options = '{' WHERE id = 2")
    pi.db.conn.commit()
    done = export_all(pi, tmp_path, formats=("json",))
    assert done.games == 13 and len(done.left_out) == 1 and done.left_out[0].startswith("game #2 was left out")


def test_the_command_line_backs_up_exports_and_restores(pi: Store, tmp_path: Path, capsys) -> None:
    db = str(pi.path)
    stick = tmp_path / "stick"
    stick.mkdir()
    assert main(["backup", str(stick), "--db", db]) == 0
    assert capsys.readouterr().out.startswith(f"backed up 14 games to {stick}/spicy-companion-backup-")
    assert main(["games", "export", "--all", "--format", "csv", "--out", str(stick), "--db", db]) == 0
    assert "exported 14 games (csv) into" in capsys.readouterr().out
    fresh = str(tmp_path / "fresh.db")
    assert main(["restore", str(stick), "--dry-run", "--db", fresh]) == 0
    out = capsys.readouterr().out
    assert ": 14 games to add, 0 already here" in out.splitlines()[0] and "(unfinished)" in out
    assert Store.open(Path(fresh)).uids() == {}
    assert main(["restore", str(stick), "--db", fresh]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "restored 14 games (#1–#14)"
    assert main(["restore", str(stick), "--db", fresh]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{backups_in(stick)[0]}: 0 games to add, 14 already here"]


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"", "it is not an SQLite file"), (b"name,score\nAna,3\n" * 20, "it is not an SQLite file"),
     (None, "another program's SQLite database")],
    ids=["empty", "csv", "other sqlite"],
)
def test_a_file_that_is_not_a_backup_is_refused_and_nothing_changes(
    pi: Store, tmp_path: Path, capsys, content: bytes | None, why: str
) -> None:
    path = tmp_path / "spicy-companion-backup-2026-01-01-000000.db"
    if content is None:
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE photos (id INTEGER)")
    else:
        path.write_bytes(content)
    pi.close()
    before = digest(pi.path)
    assert main(["restore", str(path), "--db", str(pi.path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spicy-companion: {path} is not a Spicy Companion backup (") and why in err
    assert err.rstrip().endswith("nothing was changed")
    assert digest(pi.path) == before


def test_a_restore_that_fails_half_way_adds_nothing(pi: Store, tmp_path: Path) -> None:
    written = backup(pi, tmp_path)
    with Store.open(tmp_path / "home.db") as home:
        plan = plan_restore(home, written)
        home.db.execute("CREATE TRIGGER stop AFTER INSERT ON games WHEN (SELECT count(*) FROM games) > 5"
                        " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
        with pytest.raises(Exception, match="disk I/O error"):
            restore(home, plan)
        assert home.uids() == {} and home.players() == []


def test_a_stick_pulled_out_during_a_backup_or_an_export_ends_with_a_message(pi: Store, tmp_path: Path) -> None:
    simulate(pi, 300, seed=2, start=START + timedelta(days=60))
    before = digest(pi.path)
    stick = tmp_path / "stick"

    def pull(done: int, total: int) -> None:
        if done and stick.exists():
            shutil.rmtree(stick)

    for write in (lambda: backup(pi, stick, progress=pull), lambda: export_all(pi, stick, progress=pull)):
        stick.mkdir()
        with pytest.raises(TakeHomeError, match=f"^{stick} went away while spicy-companion-.* was being written: "
                           "the stick was pulled out or failed; nothing on this Pi changed"):
            write()
    assert digest(pi.path) == before


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[Path]:
    stick = tmp_path / "stick"
    stick.mkdir()
    yield stick
    subprocess.run(["umount", stick], capture_output=True)


@AS_ROOT
def test_a_full_stick_ends_with_a_message_and_leaves_no_partial_file(pi: Store, mounted: Path) -> None:
    simulate(pi, 100, seed=3, start=START + timedelta(days=60))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mounted], check=True)
    before = digest(pi.path)
    for write in (lambda: backup(pi, mounted), lambda: export_all(pi, mounted)):
        with pytest.raises(TakeHomeError, match=f"^{mounted} is full: spicy-companion-.* did not fit; "
                           "nothing on this Pi changed; make room on it or use another stick"):
            write()
        assert os.listdir(mounted) == []
    assert digest(pi.path) == before


@AS_ROOT
def test_a_read_only_stick_ends_with_a_message(pi: Store, mounted: Path, capsys) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", mounted], check=True)
    pi.close()
    for command in (["backup", str(mounted)], ["games", "export", "--all", "--out", str(mounted)]):
        assert main([*command, "--db", str(pi.path)]) == 2
        assert capsys.readouterr().err == (
            f"spicy-companion: {mounted} is read-only: nothing was written; use another stick or folder\n")


def test_an_exported_transcript_imported_elsewhere_keeps_its_identity(pi: Store, tmp_path: Path, capsys) -> None:
    done = export_all(pi, tmp_path, formats=("transcript",))
    home = str(tmp_path / "home.db")
    path = str(done.folder / "transcript" / "game-00004.txt")
    assert main(["games", "import", path, "--db", home]) == 0
    assert capsys.readouterr().out.startswith("saved game #1 ")
    assert main(["games", "import", path, "--db", home]) == 0
    assert capsys.readouterr().out == "this game is saved already, as game #1: nothing was saved\n"
    with Store.open(Path(home)) as store:
        assert store.uid_of(1) == pi.uid_of(4) and store.load(1).started_at == pi.load(4).started_at
        plan = plan_restore(store, backup(pi, tmp_path))
        assert (len(plan.games), plan.already) == (13, 1)


@AS_ROOT
def test_a_backup_larger_than_the_temporary_folder_is_read_beside_the_database(
    pi: Store, mounted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mounted], check=True)
    monkeypatch.setattr(tempfile, "tempdir", str(mounted))  # a /tmp in memory, too small for the copy
    written = backup(pi, tmp_path)
    assert written.stat().st_size > 64 * 1024
    with Store.open(tmp_path / "home" / "games.db") as home:
        plan = plan_restore(home, written)
        assert len(plan.games) == 14 and os.listdir(mounted) == []
    assert sorted(p.name for p in (tmp_path / "home").iterdir() if not p.name.startswith("games.db")) == []


def cut_short(written: Path) -> None:
    written.write_bytes(written.read_bytes()[:20_000])


def overwritten(written: Path) -> None:
    with written.open("r+b") as file:
        file.seek(8192)
        file.write(b"\xff" * 8192)


def foreign(written: Path) -> None:
    written.unlink()
    with sqlite3.connect(written) as other:
        other.execute("CREATE TABLE photos (id INTEGER)")


def old_with_a_row_edited_by_hand(written: Path) -> None:
    written.unlink()
    with Database(written) as raw:
        MIGRATIONS.apply(raw, stop_before="m002_challenge_stats")
        raw["games"].insert({"profile": "spicy", "variants": "[]", "options": "{}", "seats": "Ana and Ben",
                             "end_card": 27, "first": 0, "started_at": "2025", "ended_at": "2025"})


@pytest.mark.parametrize(("spoil", "what"), [
    (cut_short, "is cut short: it holds 20000 of its "),
    (overwritten, "is damaged (database disk image is malformed) and cannot be restored"),
    (foreign, "is not a Spicy Companion backup (it is another program's SQLite database, with the tables photos)"),
    (old_with_a_row_edited_by_hand, "cannot be upgraded: a row cannot be read (column seats is not JSON"),
], ids=["cut-short", "damaged", "foreign", "old-bad-row"])
def test_a_bad_backup_is_named_as_it_is_on_the_stick_with_what_is_wrong_with_it(
    pi: Store, tmp_path: Path, capsys, spoil, what: str
) -> None:
    (tmp_path / "stick").mkdir()
    written = backup(pi, tmp_path / "stick")
    spoil(written)
    pi.close()
    assert main(["restore", str(written), "--db", str(pi.path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spicy-companion: {written} {what}") and err.count("\n") == 1
    assert "spicy-restore-" not in err and "games check" not in err


def test_a_folder_that_takes_no_files_is_not_called_a_stick_pulled_out(pi: Store, capsys) -> None:
    pi.close()
    assert main(["games", "export", "--all", "--out", "/proc", "--db", str(pi.path)]) == 2
    err = capsys.readouterr().err
    assert "pulled out" not in err
    assert err.startswith("spicy-companion: spicy-companion-games-") and err.endswith(
        " could not be written in /proc: No such file or directory; nothing on this Pi changed; "
        "choose a folder on a stick or a disk\n")


@AS_ROOT
def test_a_backup_with_no_room_to_read_it_anywhere_is_one_line_saying_how_much(
    pi: Store, mounted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    simulate(pi, 200, seed=3, start=START + timedelta(days=60))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mounted], check=True)
    monkeypatch.setattr(tempfile, "tempdir", str(mounted))
    written = backup(pi, tmp_path)
    size = -(-written.stat().st_size // 1_000_000)
    with Store.open(mounted / "games.db") as home:  # the database on the same small disk: no room beside it
        with pytest.raises(TakeHomeError) as refused:
            plan_restore(home, written)
        said = str(refused.value)
        need = int(said.split(" needs ")[1].split()[0])
        assert need > size and said == (
            f"{written} ({size} MB) needs {need} MB free to be read, but {mounted} has 0 MB and {mounted} 0 MB: "
            "make room, then restore again; nothing was changed")
        assert home.uids() == {}
    assert sorted(os.listdir(mounted)) == ["games.db"]
