"""The BG Stats play link: its JSON holds the saved game, and a long one is shortened to fit the QR code."""

from __future__ import annotations

import json
from urllib.parse import unquote

from companion.bgstats import DROPPED, LINK, MAX_VERSION, fitted_link, link, play_record, qr_version
from companion.rules import replay_transcript
from companion.table.session import elapsed
from companion.store import Recorded, Store
from companion.ui.words import length_words

SHORT = "rules spicy\nseats Ana Ben\nend-card 27\nplay Ana chili 2\nend-card-drawn\n"
LONG_NAMES = ["Bartholomew Alexander", "Maximiliane Wilhelmina", "Konstantinos Papadopoulos", "Anne-Charlotte Dubois",
              "Guðmundur Sigurðsson", "Oluwaseun Adebayo-Okafor"]


def saved(transcript: str, variants: str = ""):  # type: ignore[no-untyped-def]
    store = Store.memory()
    game = replay_transcript(transcript)
    (game_id,) = store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00",
                                      ["2026-11-30T20:31:10.000+00:00"] * len(game.log))])
    return store.load(game_id), store.uid_of(game_id)


def data(url: str) -> dict:
    assert url.startswith(LINK)
    return json.loads(unquote(url[len(LINK):]))


def test_a_short_play_keeps_every_field() -> None:
    game, uid = saved(SHORT)
    play = play_record(game, uid, 299169)
    url, dropped = fitted_link(play)
    assert dropped == [] and data(url) == play
    assert play["durationMin"] == 31 and play["sourcePlayId"] == uid
    assert [(p["name"], p["winner"], p["startPlayer"], p["rank"]) for p in play["players"]] == [
        ("Ana", True, True, 1), ("Ben", False, False, 2)]


def test_no_id_leaves_bgg_id_out_and_five_spices_has_no_points() -> None:
    game, uid = saved("rules five-spices\nseats Ana Ben\n")
    play = play_record(game, uid, 0)
    assert "bggId" not in play["game"] and play["game"]["noPoints"] is True
    assert all("score" not in p and "rank" not in p for p in play["players"])


def test_six_long_names_are_shortened_by_the_optional_fields_only() -> None:
    game, uid = saved(f"rules spicy\nseats {' '.join(repr(n) for n in LONG_NAMES)}\nvariant copy-cat\nvariant "
                      "turn-it-up\nend-card 20\nplay 'Bartholomew Alexander' chili 2\nend-card-drawn\n")
    play = play_record(game, uid, 299169)
    assert qr_version(link(play)) > MAX_VERSION
    url, dropped = fitted_link(play)
    assert qr_version(url) <= MAX_VERSION and dropped == [what for what, _ in DROPPED[: len(dropped)]]
    short = data(url)
    assert "comments" not in short and "comments" in play
    # What the play is stays: the game, the date, the length, every name, score and winner.
    assert (short["game"]["bggId"], short["playDate"], short["durationMin"]) == (
        299169, play["playDate"], play["durationMin"])
    assert [(p["name"], p["score"], p.get("winner", False)) for p in short["players"]] == [
        (p["name"], p["score"], p["winner"]) for p in play["players"]]


def test_the_link_and_the_end_screen_say_one_length_to_the_minute() -> None:
    """3 min 20 s: "Played for 3 min" on the end screen, 4 in the BG Stats link."""
    store = Store.memory()
    game = replay_transcript(SHORT)
    for end, minutes in (("20:03:20", 3), ("20:03:40", 4), ("20:00:10", 1), ("21:10:29", 70)):
        (game_id,) = store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00",
                                          [f"2026-11-30T{end}.000+00:00"] * len(game.log))])
        saved_game = store.load(game_id)
        play = play_record(saved_game, store.uid_of(game_id), None)
        assert play["durationMin"] == minutes
        assert length_words(elapsed(saved_game.started_at, saved_game.ended_at or "")) in (
            f"Played for {minutes} min", f"Played for 1 h {minutes - 60:02d}")
