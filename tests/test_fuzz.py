"""Mutated transcripts and config files, from a seeded generator: exit 0 or 2, never a traceback, and a
refused import saves nothing."""

from __future__ import annotations

import random
from pathlib import Path

from cli_helpers import run
from store_helpers import KNOWN

from companion.store import Store

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
