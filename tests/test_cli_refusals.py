"""The command line under odd arguments, closed pipes and rows edited by hand: one line and exit 2, no traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_helpers import COMMAND, run
from sqlite_utils import Database
from store_helpers import KNOWN

from companion.cli import main
from companion.rules import replay_transcript
from companion.store import Recorded, Store, StoreError

AT = "2025-01-01T20:00:00.000+00:00"


def argument_refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    return err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    game = replay_transcript(KNOWN)
    with Store.open(path) as store:
        store.save([Recorded(game, AT, [AT] * len(game.log))] * 3)
    return path


@pytest.mark.parametrize("argv", [["games", "--limit"], ["games", "show"], ["games", "export"]], ids=" ".join)
def test_numbers_too_big_for_sqlite_are_refused_in_one_line(capsys, db: Path, argv: list[str]) -> None:
    err = argument_refused(capsys, *argv, "99999999999999999999", "--db", str(db))
    assert err.startswith("spicy-companion games") and ": argument " in err
    assert "99999999999999999999 is too big: at most 9,223,372,036,854,775,807" in err


@pytest.mark.parametrize("word", ["²", "-1", "1e3", "٣"])
def test_a_game_number_is_ascii_digits(capsys, db: Path, word: str) -> None:
    err = argument_refused(capsys, "games", "show", word, "--db", str(db))
    assert f"argument id: expected a whole number, not {word!r}" in err


def test_the_largest_limit_lists_every_game(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "games", "--limit", "9223372036854775807", "--db", str(db))
    assert code == 0 and len(out.splitlines()) == 3


def test_simulate_refuses_more_games_than_a_sane_count(capsys, db: Path) -> None:
    err = argument_refused(capsys, "simulate", "--games", "100001", "--db", str(db))
    assert "100001 is too big: at most 100,000" in err


def test_a_reader_that_stops_early_gets_no_traceback(db: Path) -> None:
    game = replay_transcript(KNOWN)
    with Store.open(db) as store:
        store.save([Recorded(game, AT, [AT] * len(game.log))] * 2000)  # well over a pipe's 64 KiB
    done = subprocess.run(f"'{COMMAND}' games --limit 0 --db '{db}' | head -1", shell=True, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.startswith("#2003 ") and done.stdout.count("\n") == 1
    assert done.stderr == ""


# --- rows edited by hand ---------------------------------------------------------------------------


def edit(db: Path, sql: str) -> None:
    with Database(db) as raw:
        raw.execute(sql)
        raw.conn.commit()


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE games SET seats = 'Ana, Ben' WHERE id = 2", "column seats is not JSON: 'Ana, Ben'"),
        ("UPDATE games SET seats = '{\"a\": 1}' WHERE id = 2", "column seats is not a list of names"),
        ("UPDATE games SET winners = '[1, 2]' WHERE id = 2", "column winners is not a list of names"),
    ],
    ids=["seats not JSON", "seats not a list", "winners not names"],
)
def test_one_bad_row_is_named_and_the_rest_of_the_list_still_shows(capsys, db: Path, sql: str, problem: str) -> None:
    edit(db, sql)
    code, out, err = run(capsys, "games", "--db", str(db))
    assert code == 0 and err == ""
    third, second, first = out.splitlines()
    assert third.startswith("#3 ") and first.startswith("#1 ") and third.endswith("winner: Cy")
    assert second.startswith("#2 ") and f"cannot be read: {problem}; fix the row with sqlite-utils" in second


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("UPDATE games SET options = '{' WHERE id = 2", "column options is not JSON: '{'"),
        ("UPDATE games SET options = '{}' WHERE id = 2", "its set-up is not a game ("),
        ("UPDATE games SET profile = 'chess' WHERE id = 2", "its set-up is not a game (unknown rules 'chess'"),
        ("UPDATE actions SET action = 'play' WHERE game_id = 2 AND seq = 4", "action 4: column action is not JSON"),
        ("UPDATE actions SET action = '{\"action\": \"play\"}' WHERE game_id = 2 AND seq = 4",
         "action 4: not an action record"),
    ],
    ids=["options not JSON", "options without a key", "unknown rules", "action not JSON", "action missing fields"],
)
@pytest.mark.parametrize("command", [["show"], ["export"], ["export", "--format", "json"]], ids=" ".join)
def test_show_and_export_name_the_game_and_the_bad_column(capsys, db: Path, sql: str, problem: str,
                                                          command: list[str]) -> None:
    edit(db, sql)
    code, out, err = run(capsys, "games", command[0], "2", *command[1:], "--db", str(db))
    assert (code, out) == (2, "")
    assert err.startswith(f"spicy-companion: game #2 cannot be read: {problem}") and len(err.splitlines()) == 1
    assert run(capsys, "games", command[0], "3", *command[1:], "--db", str(db))[0] == 0


def test_a_bad_time_stamp_is_shown_as_it_is(capsys, db: Path) -> None:
    edit(db, "UPDATE games SET started_at = 'last tuesday' WHERE id = 2")
    code, out, _ = run(capsys, "games", "--db", str(db))
    assert code == 0 and "#2  last tuesday  Ana -6, Ben -5, Cy -4  winner: Cy" in out.splitlines()


@pytest.mark.parametrize(("sql", "problem"), [
    ("UPDATE games SET seats = 'oops' WHERE id = 1", "column seats is not JSON"),
    ("UPDATE actions SET action = 'play' WHERE game_id = 1 AND seq = 4", "action 4: column action is not JSON"),
    ("UPDATE actions SET action = '{\"action\": \"play\"}' WHERE game_id = 1 AND seq = 4", "action 4: not an action record"),
], ids=["seats", "action not JSON", "action missing fields"])
@pytest.mark.parametrize("read", ["load", "load_log"])
def test_a_bad_row_reaches_the_screen_as_a_store_error(db: Path, read: str, sql: str, problem: str) -> None:
    """The game's page reads with ``load``, a replay with ``load_log``: the same words."""
    edit(db, sql)
    with Store.open(db) as store, pytest.raises(StoreError, match=f"^game #1 cannot be read: {problem}.*; fix the row"):
        getattr(store, read)(1)
