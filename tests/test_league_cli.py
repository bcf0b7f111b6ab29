"""``spicy-companion league`` commands on one table, with the real Syncthing each command starts and stops.

Two and three tables kept in step are tests/test_syncthing.py's; here, what a person at a terminal meets.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_syncthing import free_port

from companion.cli import main
from companion.league.syncthing import Syncthing, read_code

ROOT = Path(__file__).parent.parent


@pytest.fixture
def folder() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="st-", dir="/tmp"))  # short: a Unix socket's path has at most 107 bytes
    yield base / "league"
    shutil.rmtree(base, ignore_errors=True)


def league(config: Path, *words: str) -> list[str]:
    return ["--config", str(config), "league", *words]


def test_a_table_starts_a_league_prints_its_code_and_leaves(folder: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[league]\ntable_name = "Table 7"\ntable_id = "t7"\nfolder = "{folder}"\n'
                      f'listen = "tcp://127.0.0.1:{free_port()}"\nlocal_discovery = false\n', encoding="utf-8")
    assert main(league(config, "status")) == 0
    assert capsys.readouterr().out == "Table 7 is in no league: league code starts one, league join joins one\n"
    assert main(league(config, "code")) == 0
    code = capsys.readouterr().out.strip()
    assert read_code(code).table == "t7" and read_code(code).name == "Table 7" and (folder / "on").exists()
    assert main(league(config, "status")) == 0
    assert capsys.readouterr().out == ("League: this table alone so far; another table joins from its Settings, League\n")
    assert main(league(config, "asking")) == 0
    assert capsys.readouterr().out == "no table is asking to join\n"
    assert main(league(config, "accept", "AAAAAAA-BBBBBBB")) == 2
    assert capsys.readouterr().err == ("spicy-companion: no table with the device AAAAAAA-BBBBBBB is asking to join: "
                                       "see league asking\n")
    assert main(league(config, "refuse", "AAAAAAA-BBBBBBB")) == 2
    assert capsys.readouterr().err == ("spicy-companion: no table with the device AAAAAAA-BBBBBBB is asking to join: "
                                       "see league asking\n")
    assert main(league(config, "join", code[:-9])) == 2  # a code cut short
    assert capsys.readouterr().err == ("spicy-companion: this is not a league code: copy the whole code the other "
                                       "table shows\n")
    assert main(league(config, "leave")) == 0
    assert capsys.readouterr().out == "Table 7 left the league; the games taken in stay\n"
    assert not (folder / "on").exists()
    assert main(league(config, "run", "--db", str(tmp_path / "games.db"))) == 2
    assert "in no league" in capsys.readouterr().err
    assert not Syncthing(folder / "syncthing").answers()  # each command stopped the Syncthing it started


def running_league(folder: Path, tmp_path: Path) -> subprocess.Popen[str]:
    """``league run`` of a table that started a league, once it says it keeps it in step."""
    config = tmp_path / "config.toml"
    config.write_text(f'[league]\nfolder = "{folder}"\nlisten = "tcp://127.0.0.1:{free_port()}"\n'
                      'local_discovery = false\n', encoding="utf-8")
    assert main(league(config, "code")) == 0
    command = [sys.executable, "-m", "companion.cli", *league(config, "run", "--db", str(tmp_path / "games.db"))]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None and "keeping the league in step" in child.stdout.readline()
    return child


def test_league_run_stopped_by_a_kill_stops_its_syncthing(folder: Path, tmp_path: Path) -> None:
    child = running_league(folder, tmp_path)
    try:
        assert Syncthing(folder / "syncthing").answers()
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        child.kill()
        child.wait()
    assert not Syncthing(folder / "syncthing").answers()


def test_league_run_killed_with_sigkill_takes_its_syncthing_along(folder: Path, tmp_path: Path) -> None:
    child = running_league(folder, tmp_path)
    child.kill()
    child.wait(timeout=30)
    deadline = time.monotonic() + 15
    while Syncthing(folder / "syncthing").answers() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not Syncthing(folder / "syncthing").answers()
