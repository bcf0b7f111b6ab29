"""Files handed to the companion: only regular files are read, each kind up to its size, a game up to its
actions; anything else is one sentence and exit 2, with nothing saved.

FIFOs and devices are real ones, run through the installed command in a child process with a time and a
memory limit, so a command that would wait or read forever fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import resource
import subprocess
from pathlib import Path

import pytest
from cli_helpers import COMMAND, run

from companion.languages import CODES
from companion.errors import LINE
from companion.rules import MAX_ACTIONS
from companion.store import Store

LIMIT = 1 << 30


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def command(*argv: str) -> subprocess.CompletedProcess[str]:
    """The installed command in a child of its own: at most 10 s and 1 GB, standard input at /dev/zero."""
    with open("/dev/zero", "rb") as zero:
        return subprocess.run([COMMAND, *argv], stdin=zero, capture_output=True, text=True, timeout=10,
                              preexec_fn=limited)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    return done.stderr


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "named-pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("argv", [["replay", "{}"], ["games", "import", "{}", "--db", "games.db"],
                                  ["restore", "{}", "--db", "games.db"], ["games", "--db", "{}"],
                                  ["--config", "{}", "games", "--db", "games.db"]],
                         ids=["replay", "import", "restore", "db", "config"])
def test_a_fifo_is_refused_at_once_by_every_command(
    fifo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    err = one_line(command(*[part.replace("{}", str(fifo)) for part in argv]))
    assert f"{fifo} is a named pipe (FIFO), not a file: give the " in err


@pytest.mark.parametrize("argv", [["replay", "{}"], ["games", "import", "{}", "--db", "games.db"],
                                  ["--config", "{}", "games", "--db", "games.db"], ["games", "--db", "{}"]],
                         ids=["replay", "import", "config", "db"])
def test_a_link_to_dev_zero_is_refused_before_a_byte_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "zero"
    link.symlink_to("/dev/zero")
    err = one_line(command(*[part.replace("{}", str(link)) for part in argv]))
    assert f"{link} is a device, not a file" in err


def test_standard_input_that_never_ends_is_read_up_to_the_transcripts_cap(tmp_path: Path) -> None:
    err = one_line(command("games", "import", "-", "--db", str(tmp_path / "games.db")))
    assert err == ("spicy-companion: standard input is larger than 8 MB, more than any transcript holds: "
                   "check that it is the right file\n")
    assert not (tmp_path / "games.db").exists() or Store.open(tmp_path / "games.db").uids() == {}


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.mark.parametrize(("argv", "size", "words"), [
    (["games", "import", "{}"], 8_000_001, "larger than 8 MB, more than any transcript holds"),
    (["--config", "{}", "games"], 1_000_001, "larger than 1 MB, more than any config file holds"),
    (["restore", "{}"], 2_000_000_001, "larger than 2000 MB, more than any backup holds"),
], ids=["transcript", "config", "backup"])
def test_a_file_larger_than_its_kind_is_refused_by_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], size: int, words: str
) -> None:
    big = sparse(tmp_path / "big", size)
    code, _, err = run(capsys, *[part.replace("{}", str(big)) for part in argv], "--db", str(tmp_path / "games.db"))
    assert code == 2 and err == f"spicy-companion: {big} is {words}: check that it is the right file\n"


def test_a_transcript_of_more_actions_than_any_game_is_refused_and_nothing_is_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = "rules spicy\nseats Ana Ben\nend-card 20\nplay Ana chili 1\n"
    path = tmp_path / "endless.txt"
    path.write_text(header + "undo\nredo\n" * (MAX_ACTIONS // 2), encoding="utf-8")  # one more than allowed
    db = tmp_path / "games.db"
    code, _, err = run(capsys, "games", "import", str(path), "--db", str(db))
    assert code == 2
    assert err == (f"spicy-companion: {path}: line {MAX_ACTIONS + 4}: a game has at most {MAX_ACTIONS} actions, "
                   "and this one has reached them; nothing was saved\n")
    assert Store.open(db).uids() == {}


@pytest.mark.parametrize(("text", "words"), [
    ("[ui]\nlanguage = " + "[" * 1000 + "]" * 1000 + "\n", "nests lists or tables too deeply"),
    ('[store]\ndb = "\\u0000"\n', "[store] db must be a file path in quotes, not '\\x00'"),
], ids=["nested", "nul"])
def test_a_config_nested_too_deeply_or_naming_a_nul_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "--config", str(config), "games")
    assert code == 2 and err.count("\n") == 1 and words in err


def test_a_long_value_is_quoted_only_a_lines_worth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[ui]\nlanguage = "{"x" * 500_000}"\n', encoding="utf-8")
    code, _, err = run(capsys, "--config", str(config), "games", "--db", str(tmp_path / "games.db"))
    assert code == 2
    assert err == f"spicy-companion: {config}: [ui] language must be one of {', '.join(CODES)}, not '{'x' * (LINE - 1)}…\n"
