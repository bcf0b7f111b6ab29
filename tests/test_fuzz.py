"""Mutated transcripts and config files, from a seeded generator: exit 0 or 2, never a traceback, and a
refused import saves nothing; and every command, in a child with bounded time and memory, given FIFOs,
devices, folders, huge, nested, random and truncated files."""

from __future__ import annotations

import os
import random
import resource
import subprocess
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, UTC
from pathlib import Path

from cli_helpers import COMMAND, run
from store_helpers import KNOWN

from companion.store import Store
from companion.store.backup import backup
from companion.store.simulate import simulate

TOKENS = [b"\xff", b"\x00", b"\xef\xbb\xbf", b"\r\n", b"\r", b"\t", b"'", b'"', b"#", b"\\", b" ", b"\n", b"9" * 30,
          "²".encode(), "Zoe\u0308".encode(), "\u200b".encode(), b"x" * 1500, b"undo", b"redo", b"seats", b"-1",
          b"play", b"challenge Cy spice", b"end-card-drawn", b"\xc3", b"\xed\xa0\x80"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four edits: flip, insert, delete, duplicate or swap lines, truncate."""
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(data) + 1)
        edit = rng.randrange(6)
        if edit == 0 and data:
            where = min(where, len(data) - 1)
            data = data[:where] + bytes([rng.randrange(256)]) + data[where + 1:]
        elif edit == 1:
            data = data[:where] + rng.choice(TOKENS) + data[where:]
        elif edit == 2:
            data = data[:where] + data[where + rng.randint(1, 20):]
        elif edit in (3, 4):
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if edit == 3:
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:where]
    return data


def test_mutated_transcripts_through_replay_and_import(capsys, tmp_path: Path) -> None:
    rng = random.Random(9)
    db, path = tmp_path / "games.db", tmp_path / "game.txt"
    saved = 0
    outcomes = set()
    with Store.open(db) as store:
        for _ in range(300):
            data = mutate(KNOWN.encode(), rng)
            path.write_bytes(data)
            replayed, _, err = run(capsys, "replay", str(path))
            assert replayed in (0, 2) and (replayed == 0 or len(err.splitlines()) == 1), (data, err)
            imported, _, err = run(capsys, "games", "import", str(path), "--db", str(db))
            assert imported == replayed, (data, err)
            saved += imported == 0
            assert store.query("SELECT count(*) FROM games") == [(saved,)], data
            outcomes.add(imported)
    assert outcomes == {0, 2}


CONFIG = b"""\
[store]
db = "games.db"
busy_timeout = 2.0

[buzzers]
backend = "keyboard"
settle_ms = 30
keys = ["1", "2", "3"]
button_pins = [5, 6, 13]
led_pins = []
"""


def test_mutated_config_files(capsys, tmp_path: Path) -> None:
    rng = random.Random(11)
    config = tmp_path / "config.toml"
    outcomes = set()
    for _ in range(200):
        data = mutate(CONFIG, rng)  # bytes as mutated: a bad byte must be refused in one line too
        config.write_bytes(data)
        code, _, err = run(capsys, "--config", str(config), "games", "--db", str(tmp_path / "games.db"))
        assert code in (0, 2) and (code == 0 or len(err.splitlines()) == 1), (data, err)
        outcomes.add(code)
    assert outcomes == {0, 2}


# --- every command in a child of its own: special, huge, nested, random and truncated files ---------------------

LIMIT_BYTES = 1 << 30
"""The child's address space: a command reading without end meets MemoryError, not the machine's swap."""
WAIT = 10.0
"""Seconds a child may run: a command waiting on a FIFO fails the test instead of hanging it."""


def limited() -> None:
    """Run in the child before the command: its memory bounded, and no file it writes larger than 64 MB."""
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))


def nasty_files(folder: Path, good: bytes, rng: random.Random, nest: bytes) -> dict[str, Path]:
    """One of each: a FIFO, a device, a link to one, a folder, a sparse file of 3 GB, deep nesting, random
    bytes, the good file cut short and the good file mutated."""
    folder.mkdir()
    files = {name: folder / name for name in ("fifo", "link", "folder", "huge", "nested", "random", "cut",
                                              "mutated")}
    os.mkfifo(files["fifo"])
    files["link"].symlink_to("/dev/zero")
    files["folder"].mkdir()
    with files["huge"].open("wb") as huge:
        huge.truncate(3 << 30)
    files["nested"].write_bytes(nest)
    files["random"].write_bytes(good[:16] + rng.randbytes(rng.randrange(1, 100_000)))
    files["cut"].write_bytes(good[:rng.randrange(1, len(good))])
    files["mutated"].write_bytes(mutate(good, rng))
    return {**files, "device": Path("/dev/zero")}


def a_backup(folder: Path) -> bytes:
    with Store.open(folder / "source.db") as store:
        simulate(store, 5, seed=4, start=datetime(2026, 11, 1, tzinfo=UTC))
        return backup(store, folder, name="backup.db").read_bytes()


def test_every_command_given_a_nasty_file_says_one_line_or_works_within_its_limits(tmp_path: Path) -> None:
    rng = random.Random(13)
    db = str(tmp_path / "games.db")
    backup = a_backup(tmp_path)
    kinds = {
        "transcript": nasty_files(tmp_path / "transcripts", KNOWN.encode(), rng, b"seats " + b"'\"[" * 300),
        "config": nasty_files(tmp_path / "configs", CONFIG, rng, b"[ui]\nlanguage = " + b"[" * 5000 + b"]" * 5000),
        "backup": nasty_files(tmp_path / "backups", backup, rng, b'{"a":[' * 20_000),
    }
    runs = [(["replay", "{}"], "transcript"), (["games", "import", "{}", "--db", db], "transcript"),
            (["--config", "{}", "games", "--db", db], "config"), (["restore", "{}", "--db", db], "backup"),
            (["games", "--db", "{}"], "backup")]
    cases = [[part.replace("{}", str(path)) for part in argv] for argv, kind in runs for path in kinds[kind].values()]
    cases.append(["replay", "-"])  # standard input from /dev/zero, below

    def run_one(argv: list[str]) -> tuple[list[str], subprocess.CompletedProcess[str]]:
        with open("/dev/zero", "rb") as zero:
            done = subprocess.run([COMMAND, *argv], stdin=zero, capture_output=True, text=True, timeout=WAIT,
                                  preexec_fn=limited)
        return argv, done

    with ThreadPoolExecutor(max_workers=2) as pool:
        for argv, done in pool.map(run_one, cases):
            assert done.returncode in (0, 2), (argv, done.stderr[-2000:])
            assert "Traceback" not in done.stderr, (argv, done.stderr[-2000:])
            if done.returncode == 2:
                assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 400, (argv, done.stderr[:2000])
