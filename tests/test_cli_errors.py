"""One error path: every problem a user can fix is a CompanionError, printed once by ``cli.main``."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

import pytest

from companion import cli
from companion.buzzers import BuzzerError
from companion.config import ConfigError
from companion.errors import CompanionError, UsageError
from companion.rules import IllegalAction, TranscriptError
from companion.store import StoreError


@pytest.mark.parametrize("error", [IllegalAction, TranscriptError, StoreError, ConfigError, BuzzerError, UsageError])
def test_every_user_fixable_error_is_a_companion_error(error: type[Exception]) -> None:
    assert issubclass(error, CompanionError)


def test_illegal_action_is_still_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


def test_a_new_command_gets_the_one_line_and_exit_2_without_handling_anything(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def add_broken(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        def run(args: argparse.Namespace) -> int:
            raise StoreError("the database is busy: close the other program and try again")

        subparsers.add_parser("broken").set_defaults(handler=run)

    monkeypatch.setattr(cli, "REGISTRARS", [*cli.REGISTRARS, add_broken])
    assert cli.main(["broken"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "spicy-companion: the database is busy: close the other program and try again\n"


def test_errors_that_are_not_the_users_to_fix_are_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def add_bug(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        def run(args: argparse.Namespace) -> int:
            raise KeyError("a bug")

        subparsers.add_parser("bug").set_defaults(handler=run)

    monkeypatch.setattr(cli, "REGISTRARS", [*cli.REGISTRARS, add_bug])
    with pytest.raises(KeyError):
        cli.main(["bug"])


def test_replay_and_import_read_a_missing_file_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = "/nonexistent/game.txt"
    assert cli.main(["replay", missing]) == 2
    replay_err = capsys.readouterr().err
    assert cli.main(["games", "--db", f"{tmp_path}/games.db", "import", missing]) == 2
    import_err = capsys.readouterr().err
    assert replay_err == import_err == f"spicy-companion: no file {missing}\n"


def test_the_app_refused_before_its_first_frame_leaves_the_collector_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Start-up keeps the collector off until the first frame; a config refused first (or a window that never
    draws) must not leave it off for the rest of the process."""
    config = tmp_path / "config.toml"
    config.write_text("[ui]\nsounds = 'yes'\n")
    assert gc.isenabled()
    assert cli.main(["--config", str(config)]) == 2
    assert "[ui] sounds must be true or false" in capsys.readouterr().err
    assert gc.isenabled()
