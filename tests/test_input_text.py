"""Transcript text and names as people really type them: one clear line for anything bad, nothing saved."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st
from store_helpers import KNOWN

from companion.rules import (
    SPICY,
    IllegalAction,
    Pass,
    check_name,
    new_setup,
    replay_transcript,
)
from companion.table.session import Session
from companion.store import Store


def games_saved(db: Path) -> int:
    with Store.open(db) as store:
        return len(store.list_games())


def both_commands(capsys, tmp_path: Path, data: bytes) -> list[tuple[int, str, str]]:
    """``replay`` and ``games import`` on the same bytes."""
    path = tmp_path / "game.txt"
    path.write_bytes(data)
    return [run(capsys, "replay", str(path)), run(capsys, "games", "import", str(path), "--db", str(tmp_path / "g.db"))]


@pytest.mark.parametrize(
    ("word", "reason"),
    [("²", "the cards under the World's End card must be a whole number, not '²'"),
     ("٣", "the cards under the World's End card must be a whole number"),
     ("5" * 900, "the cards under the World's End card must be at most 999, not 5555555555…"),
     ("1000", "the cards under the World's End card must be at most 999, not 1000"),
     ("5" * 5000, "the line has 5,009 characters; a line has at most 1000")],
    ids=["superscript", "arabic-indic", "900 digits", "1000", "5000 digits"],
)
def test_a_number_is_ascii_digits_within_bounds(capsys, tmp_path: Path, word: str, reason: str) -> None:
    text = KNOWN.replace("end-card 27", f"end-card {word}")
    for code, out, err in both_commands(capsys, tmp_path, text.encode()):
        assert code == 2 and out == ""
        assert len(err.splitlines()) == 1 and f"line 3: {reason}" in err
    assert games_saved(tmp_path / "g.db") == 0


def test_leading_zeros_are_still_a_number() -> None:
    assert replay_transcript(KNOWN.replace("end-card 27", "end-card 0027")).setup.end_card == 27


def test_a_byte_that_is_not_utf8_is_refused_with_its_line_by_replay_and_import(capsys, tmp_path: Path) -> None:
    data = KNOWN.encode().replace(b"seats Ana Ben Cy", b"seats Ana B\xe9n Cy")
    for code, out, err in both_commands(capsys, tmp_path, data):
        assert code == 2 and out == ""
        assert "line 2: byte 0xe9 is not UTF-8 text" in err and len(err.splitlines()) == 1
    assert games_saved(tmp_path / "g.db") == 0


def test_standard_input_is_read_by_the_same_rule(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"rules spicy\nseats \xff Ben\n")))
    code, _, err = run(capsys, "games", "import", "-", "--db", str(tmp_path / "g.db"))
    assert code == 2 and "line 2: byte 0xff is not UTF-8 text" in err


def test_a_bom_and_crlf_line_endings_read_normally(capsys, tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + KNOWN.replace("\n", "\r\n").encode()
    (replayed, _, _), (imported, out, err) = both_commands(capsys, tmp_path, data)
    assert (replayed, imported, err) == (0, 0, "") and out.startswith("saved game #1 (11 actions)")
    with Store.open(tmp_path / "g.db") as store:
        assert store.load(1).setup.names == ("Ana", "Ben", "Cy")
        assert store.players() == ["Ana", "Ben", "Cy"]


def test_a_megabyte_line_is_refused_with_its_line_number(capsys, tmp_path: Path) -> None:
    data = KNOWN.replace("play Ana chili 2", "play Ana chili 2 # " + "x" * 1_000_000).encode()
    for code, _, err in both_commands(capsys, tmp_path, data):
        assert code == 2
        assert "line 4: the line has 1,000,019 characters; a line has at most 1000" in err
    assert games_saved(tmp_path / "g.db") == 0


def test_a_name_typed_two_ways_is_one_player(tmp_path: Path) -> None:
    composed, combining = "Zo\u00eb", "Zoe\u0308"
    with Store.open(tmp_path / "g.db") as store:
        Session.new(store, new_setup(SPICY, [composed, "Ben"])).apply(Pass(0))
        Session.new(store, new_setup(SPICY, [combining, "Ben"])).apply(Pass(0))
        assert store.players() == [composed, "Ben"]
        assert [s.games for s in store.stats()] == []  # neither game is over
        (count,) = store.query("SELECT count(DISTINCT player_id) FROM game_seats WHERE seat = 0")[0]
        assert count == 1
    game = replay_transcript(f"rules spicy\nseats {composed} Ben\npass {combining}\n")
    assert game.setup.names[0] == composed and game.state.turn == 1


def test_two_seats_that_differ_only_in_normal_form_are_the_same_name() -> None:
    with pytest.raises(IllegalAction, match="same name"):
        new_setup(SPICY, ["Zo\u00eb", "Zoe\u0308"])


@pytest.mark.parametrize("name", ["\u200b", "\u200b \u200d", "\ufeff", "\u0301"])
def test_a_name_of_invisible_characters_is_refused_like_an_empty_one(name: str, tmp_path: Path) -> None:
    with pytest.raises(IllegalAction, match="^a seat needs a name$"):
        new_setup(SPICY, [name, "Ben"])
    with Store.open(tmp_path / "g.db") as store, pytest.raises(Exception, match="^a player needs a name$"):
        store.add_player(name)


def test_a_name_longer_than_forty_characters_is_refused_with_the_limit(capsys, tmp_path: Path) -> None:
    assert new_setup(SPICY, ["A" * 40, "Ben"]).names[0] == "A" * 40
    with pytest.raises(IllegalAction, match="at most 40 characters; A{40}… has 41"):
        new_setup(SPICY, ["A" * 41, "Ben"])
    path = tmp_path / "long.txt"
    path.write_text(f"rules spicy\nseats {'A' * 41} Ben\npass Ben\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "line 2: a name has at most 40 characters" in err


@settings(max_examples=300)
@given(st.text(max_size=60))
def test_property_a_name_gets_the_same_answer_in_every_normal_form(name: str) -> None:
    answers = []
    for typed in (name, unicodedata.normalize("NFC", name), unicodedata.normalize("NFD", name)):
        try:
            answers.append(check_name(typed))
        except IllegalAction as exc:
            answers.append(f"refused: {exc}")
    assert answers[0] == answers[1] == answers[2]
    if not answers[0].startswith("refused: "):
        assert unicodedata.is_normalized("NFC", answers[0]) and check_name(answers[0]) == answers[0]
        assert 0 < len(answers[0]) <= 40
