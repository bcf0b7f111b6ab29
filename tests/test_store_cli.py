"""The store's commands: games, show, export, import, resume, stats, simulate; each with --help."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from cli_helpers import run
from store_helpers import KNOWN, damaged_database

from companion.cli import main
from companion.rules import SPICY, Play, new_setup, replay_transcript
from companion.table.session import Session
from companion.store import Store

COMMANDS = [["games"], ["games", "show"], ["games", "export"], ["games", "import"], ["games", "resume"],
            ["stats"], ["simulate"]]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def imported(capsys: pytest.CaptureFixture[str], db: Path, text: str) -> int:
    path = db.with_name("game.txt")
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "games", "import", str(path), "--db", str(db))
    assert (code, err) == (0, "")
    return int(out.split("#")[1].split()[0])


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: spicy-companion {' '.join(command)}") and "--db" in out


def test_games_lists_date_players_winner_and_scores(capsys, db: Path) -> None:
    imported(capsys, db, KNOWN)
    with Store.open(db) as store:
        Session.new(store, new_setup(SPICY, ["Dee", "Eli"])).apply(Play(0, "chili", 1))
    code, out, _ = run(capsys, "games", "--db", str(db))
    unfinished, known = out.splitlines()
    assert code == 0
    assert unfinished.startswith("#2 ") and "Dee, Eli  (unfinished)" in unfinished
    assert known.startswith("#1 ") and known.endswith("Ana -6, Ben -5, Cy -4  winner: Cy")


def test_show_gives_the_timeline_and_the_final_breakdown(capsys, db: Path) -> None:
    game_id = imported(capsys, db, KNOWN)
    code, out, _ = run(capsys, "games", "show", str(game_id), "--db", str(db))
    assert code == 0
    assert "World's End card: 27 cards under it" in out
    timeline = [line.split(". ", 1)[1] for line in out.splitlines() if ". " in line and line[:4].isdigit()]
    assert timeline == [
        "Cy challenges Ben's chili 6: not that spice!",
        "Cy wins the challenge: the card is pepper 6",
        "Cy wins the stack of 2",
        "Ana challenges Ben's chili 1: not that number!",
        "Ben wins the challenge: the card is chili 1",
        "Ben wins the stack of 1",
        "the game is over (the World's End card showed; Cy wins)",
    ]
    assert out.splitlines()[-4].split() == ["seat", "won", "trophies", "hand", "score"]  # no universal cards
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[-3:]}
    assert rows == {"Ana": ["0", "0", "6", "-6"], "Ben": ["1", "0", "6", "-5"], "Cy": ["(winner)", "2", "0", "6", "-4"]}


def test_show_counts_universal_cards_only_for_sweet_and_spicy(capsys, db: Path) -> None:
    game_id = imported(capsys, db, "rules sweet-spicy\nseats Ana Ben\nplay Ana lemon 1\n")
    code, out, _ = run(capsys, "games", "show", str(game_id), "--db", str(db))
    header = next(line for line in out.splitlines() if line.startswith("seat"))
    assert header.split() == ["seat", "won", "won", "universals", "trophies", "hand", "universals", "score"]
    assert out.splitlines()[-3].split() == ["Ana", "0", "0", "0", "6", "1", "-10"]


def test_export_transcript_reads_back_as_the_same_game(capsys, db: Path) -> None:
    game_id = imported(capsys, db, KNOWN)
    code, out, _ = run(capsys, "games", "export", str(game_id), "--db", str(db))
    assert code == 0
    assert replay_transcript(out) == replay_transcript(KNOWN)


def test_export_json_and_csv_hold_every_logged_action(capsys, db: Path) -> None:
    game_id = imported(capsys, db, KNOWN)
    _, out, _ = run(capsys, "games", "export", str(game_id), "--format", "json", "--db", str(db))
    record = json.loads(out)
    assert [a["action"] for a in record["actions"]][-3:] == ["challenge", "undo", "end-card-drawn"]
    assert record["state"] == replay_transcript(KNOWN).state.to_json()
    _, out, _ = run(capsys, "games", "export", str(game_id), "--format", "csv", "--db", str(db))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["seq"] for r in rows] == [str(n) for n in range(1, 12)]
    assert (rows[2]["action"], rows[2]["seat"], rows[2]["line"]) == ("challenge", "Cy", "challenge Cy spice")


def test_awkward_names_survive_export_and_import(capsys, db: Path) -> None:
    names = ["[b]Ana[/b]", "O'Brien \"Bob\"", "x'); DROP TABLE games;--", "🌶️ 🔥", "مريم שָׁלוֹם", "é" * 40]
    with Store.open(db) as store:
        session = Session.new(store, new_setup(SPICY, names))
        session.apply(Play(0, "chili", 1))
    _, transcript, _ = run(capsys, "games", "export", "1", "--db", str(db))
    other = db.with_name("other.db")
    again = imported(capsys, other, transcript)
    with Store.open(other) as store:
        assert list(store.load(again).setup.names) == names
    _, out, _ = run(capsys, "games", "export", str(again), "--format", "json", "--db", str(other))
    assert json.loads(out)["seats"] == names


def test_a_bad_transcript_is_refused_with_its_line_and_nothing_saved(capsys, db: Path) -> None:
    path = db.with_name("bad.txt")
    path.write_text(KNOWN.replace("play Ben chili 1", "play Ben chili 11"), encoding="utf-8")
    code, out, err = run(capsys, "games", "import", str(path), "--db", str(db))
    assert code == 2 and out == ""
    assert err.startswith("spicy-companion: ") and "line 8: numbers go from 1 to 10" in err
    assert "nothing was saved" in err
    with Store.open(db) as store:
        assert store.query("SELECT count(*) FROM games") == [(0,)]


def test_resume_rebuilds_the_unfinished_game(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "games", "resume", "--db", str(db))
    assert (code, out) == (0, "no unfinished game\n")
    imported(capsys, db, KNOWN.replace("end-card-drawn\n", ""))
    code, out, _ = run(capsys, "games", "resume", "--json", "--db", str(db))
    state = json.loads(out)
    assert (state["id"], state["turn"], state["ended"]) == (1, "Ben", False)
    assert state["claim"] == {"spice": "wasabi", "number": 3} and state["challenge"] is None


def test_stats_per_player(capsys, db: Path) -> None:
    imported(capsys, db, KNOWN)
    code, out, _ = run(capsys, "stats", "--db", str(db))
    header, *rows = out.splitlines()
    assert code == 0 and header.split()[:4] == ["player", "games", "wins", "win"]
    assert rows[0].split() == ["Cy", "1", "1", "100", "-4.0", "0", "1", "1", "0", "0"]
    assert sorted(r.split()[0] for r in rows) == ["Ana", "Ben", "Cy"]


def stats_rows(capsys, *argv: str) -> dict[str, list[str]]:
    code, out, err = run(capsys, "stats", *argv)
    assert (code, err) == (0, "")
    return {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}


def test_stats_by_profile_keep_each_rules_apart_and_add_up_to_the_whole(capsys, db: Path) -> None:
    run(capsys, "simulate", "--games", "30", "--seed", "3", "--db", str(db))
    whole = stats_rows(capsys, "--db", str(db))
    parts = {profile: stats_rows(capsys, "--profile", profile, "--db", str(db))
             for profile in ("spicy", "sweet-spicy", "five-spices")}
    assert all(parts.values())
    for name, row in whole.items():
        counts = [sum(int(part[name][i]) for part in parts.values() if name in part) for i in (0, 1, 4, 5, 6, 7, 8)]
        assert counts == [int(row[i]) for i in (0, 1, 4, 5, 6, 7, 8)]
    assert {row[3] for row in parts["five-spices"].values()} == {"-"}  # no score: no average
    with Store.open(db) as store:
        for name, row in parts["spicy"].items():
            (average,) = store.query(
                "SELECT avg(score) FROM scores JOIN games ON games.id = game_id JOIN players ON players.id = player_id"
                " WHERE profile = 'spicy' AND name = ?", [name])[0]
            assert row[3] == f"{average:.1f}"


def test_stats_for_one_player_is_the_player_page(capsys, db: Path) -> None:
    imported(capsys, db, KNOWN)
    code, out, _ = run(capsys, "stats", "--player", "Cy", "--db", str(db))
    assert code == 0
    page = {line[:24].strip(): line[24:].split() for line in out.splitlines()[2:16]}
    assert page[""] == ["spicy"]
    assert (page["games"], page["wins"], page["win %"], page["avg score"]) == (["1"], ["1"], ["100"], ["-4.0"])
    assert (page["not that spice"], page["not that number"], page["favourite spice"]) == (["1/1"], ["0/0"], ["-"])
    assert "rival (beaten most): Ana (1 times)" in out and "nemesis (beats them most): -" in out
    against = {line.split()[0]: line.split()[1:] for line in out.splitlines()[-2:]}
    assert against == {"Ana": ["1", "1", "0"], "Ben": ["1", "1", "0"]}
    code, out, err = run(capsys, "stats", "--player", "Nobody", "--db", str(db))
    assert (code, err.strip()) == (2, "spicy-companion: there is no player named Nobody")


def test_simulate_saves_finished_games_the_same_for_the_same_seed(capsys, tmp_path: Path) -> None:
    finals = []
    for name in ("a.db", "b.db"):
        code, out, _ = run(capsys, "simulate", "--games", "6", "--seed", "5", "--db", str(tmp_path / name))
        assert code == 0 and out.startswith("saved 6 games")
        with Store.open(tmp_path / name) as store:
            assert store.unfinished_game() is None
            finals.append([(g.names, g.winners, g.scores) for g in store.list_games()])
            assert store.stats()
    assert finals[0] == finals[1] and len(finals[0]) == 6


def test_the_config_file_names_the_database_and_db_overrides_it(capsys, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndb = "{tmp_path / "from-config.db"}"\n')
    run(capsys, "--config", str(config), "simulate", "--games", "1")
    assert (tmp_path / "from-config.db").exists()
    run(capsys, "--config", str(config), "simulate", "--games", "1", "--db", str(tmp_path / "other.db"))
    assert (tmp_path / "other.db").exists()


def test_a_damaged_database_at_the_configured_path_is_reported_and_replaced(capsys, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged_database(db)
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndb = "{db}"\n')
    code, out, err = run(capsys, "--config", str(config), "games")
    assert code == 0 and out == "no saved games\n"
    assert "was damaged and could not be read: it was moved to games.db.corrupt-" in err


def test_an_unknown_game_is_one_line_not_a_traceback(capsys, db: Path) -> None:
    code, _, err = run(capsys, "games", "show", "7", "--db", str(db))
    assert (code, err) == (2, "spicy-companion: there is no game 7\n")


def test_without_db_or_config_the_database_is_in_the_user_data_folder(capsys, own_user_folders: Path) -> None:
    code, _, err = run(capsys, "simulate", "--games", "1")
    assert (code, err) == (0, "")
    default = own_user_folders / "data" / "spicy-companion" / "games.db"
    with Store.open(default) as store:
        assert len(store.list_games()) == 1


def test_show_and_the_json_export_carry_the_games_note(capsys, db: Path) -> None:
    game_id = imported(capsys, db, KNOWN)
    with Store.open(db) as store:
        store.set_note(game_id, "Ben's birthday")
    code, out, _ = run(capsys, "games", "show", str(game_id), "--db", str(db))
    assert code == 0 and "note: Ben's birthday" in out.splitlines()
    code, out, _ = run(capsys, "games", "export", str(game_id), "--format", "json", "--db", str(db))
    assert json.loads(out)["note"] == "Ben's birthday"


def test_stats_records_names_each_record_its_holder_and_game(capsys, db: Path) -> None:
    game_id = imported(capsys, db, KNOWN)
    code, out, _ = run(capsys, "stats", "--records", "--db", str(db))
    assert code == 0
    lines = {line[:47].strip(): line[47:].split() for line in out.splitlines()[1:]}
    assert lines["biggest stack won"] == ["2", "cards", "Cy", f"#{game_id}"]
    assert lines["most challenges won in one game"] == ["1", "challenges", "Cy", f"#{game_id}"]
    assert lines["longest run of survived challenges in one game"] == ["1", "challenges", "Ben", f"#{game_id}"]
    assert "highest score" not in lines  # every score of the game is below zero
