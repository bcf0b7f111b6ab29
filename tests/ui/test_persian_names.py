"""A name ending in a number ("Ben 2", "Table 3") drawn as typed in each Persian line that fills one in: the
league's state, the table's hint and toasts, the rules' refusals, a player's page, Tonight, the records, How to
play, an unfinished game's lines, the set-up's refusal and the saved games' lines. Drawn "۲ Ben" it read as Ben
and a number of the sentence's. What a screen sets stays the plain words, in English as in Persian."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp

from companion.config import UiConfig
from companion.league.syncthing import Standing, league_words
from companion.rules import FIVE_SPICES, SPICY, EndCardDrawn, Play, new_setup
from companion.store import Store
from companion.store.backup import backup
from companion.store.review import Filter, rival
from companion.table.session import Session
from companion.ui.league import Seen
from companion.ui.widgets.fit import ELLIPSIS, fit_names
from companion.ui.widgets.label import Label
from companion.ui.widgets.left_game import LeftGameSheet
from companion.ui.widgets.seat_panel import SeatPanel
from scenes_review import busiest, longest_spicy, simulated, two_tables
from scenes_takehome import restore_plan_shown
from table_helpers import Table

BIDI_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
"""What a drawn line may hold around a name drawn as typed: the marks and embeddings that order it."""


def record_lines(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[str]]:
    """Each line SDL2_ttf was handed at each core text's last drawing, top first, by its id: as the eye reads it."""
    drawn: dict[int, list[str]] = {}
    begin, render_text = CoreLabel._render_begin, CoreLabel._render_text
    monkeypatch.setattr(CoreLabel, "_render_begin", lambda self: (drawn.__setitem__(id(self), []), begin(self))[1])
    monkeypatch.setattr(CoreLabel, "_render_text", lambda self, words, x, y: (
        drawn.setdefault(id(self), []).append(words), render_text(self, words, x, y))[1])
    return drawn


def misdrawn(ui: Any, drawn: dict[int, list[str]], *names: str) -> list[tuple[str, list[str]]]:
    """The labels on screen (and over it: a toast, a sheet) that hold one of ``names`` but do not draw it as
    typed, with what they draw; each name must be on some label."""
    seen, wrong = set(), []
    for label in ui.find_all(Label):
        held = [name for name in names if name in label.text]
        if not held or not label.opacity or label.width <= 1:
            continue
        lines = drawn.get(id(label._label), [])
        seen.update(held)
        if not all(any(name in line for line in lines) for name in held):
            wrong.append((label.text, lines))
    assert seen == set(names), f"not on screen: {set(names) - seen}"
    return wrong


def persian(ui: Any, language: str = "fa") -> Any:
    return ui.start(config=ui.config(ui=UiConfig(language=language)))


def goto(ui: Any, name: str) -> Any:
    ui.app.show(name)
    ui.until(lambda: not ui.app.root.transition.is_active)
    ui.step(3)
    return ui.app.screen(name)


def test_the_leagues_state_names_its_tables_as_typed(ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Table 3 last seen 3 days ago", "3 games from Table 1 arriving": on the League screen, in Settings' League
    row and on the Saved games strip, each table's name as typed, its digit Western and after it."""
    drawn = record_lines(monkeypatch)
    app = persian(ui)
    runner = app.league
    monkeypatch.setattr(runner, "look", lambda _looking: None)  # no Syncthing: the words are the test's
    now = datetime.now(UTC)
    words = league_words([Standing("Table 1", True, now, 3), Standing("Table 3", False, now - timedelta(days=3), 0)],
                         now)
    runner._show(Seen(on=True, name="Table 2", words=words))
    goto(ui, "league")
    assert misdrawn(ui, drawn, "Table 1", "Table 3") == []
    goto(ui, "settings")
    assert misdrawn(ui, drawn, "Table 3") == []  # the row says the first line
    games = goto(ui, "games")
    games.on_leave()  # the strip's own questions to Syncthing stopped: it says the test's words
    games._asking = True
    games._told(words)
    ui.step(3)
    assert misdrawn(ui, drawn, "Table 1", "Table 3") == []


def test_the_tables_hint_and_a_buzzers_toast_name_a_seat_as_typed(ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ben 2 laid a card: "Ana to play: play a card, draw, or challenge Ben 2" (the hint); his own buzzer pressed
    on it, "Ben 2 played this card and cannot challenge it" (the press's toast); his panel held, the rules' own
    refusal ("only Ana, the seat after Ben 2, may challenge")."""
    drawn = record_lines(monkeypatch)
    table = Table(ui, new_setup(FIVE_SPICES, ["Ben 2", "Ana", "Cy"], first=0), settings=UiConfig(language="fa"))
    table.declare("cinnamon")
    ui.step(2)
    assert "Ben 2" in table.view.hint and misdrawn(ui, drawn, "Ben 2") == []
    table.buzz((0, 0.0))
    ui.until(lambda: table.toast().startswith("Ben 2"))
    ui.step(2)
    assert misdrawn(ui, drawn, "Ben 2") == []
    table.app.toast.dismiss()
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[0]), 0.8)  # a long press on his panel: the rules refuse it
    assert "Ben 2" in table.toast() and misdrawn(ui, drawn, "Ben 2") == []


def test_a_players_page_names_the_player_their_rival_and_the_tables_as_typed(
        ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ben 2's page in a league of Table 1 and Table 2: its title, "Games at Table 1", "Cy 3 (4)" as a rival, the
    versus line, the merge buttons, the questions before a change and the toasts after one."""
    drawn = record_lines(monkeypatch)
    app = persian(ui)
    two_tables(ui)
    store = app.store
    store.rename_player(busiest(ui), "Ben 2")
    opponent = rival(store, "Ben 2")
    assert opponent is not None
    store.rename_player(opponent.name, "Cy 3")
    page = app.screen("player")
    page.open("Ben 2")
    goto(ui, "player")
    assert misdrawn(ui, drawn, "Ben 2", "Cy 3", "Table 1", "Table 2") == []
    ui.tap(page.ids.versus_tab)
    ui.tap(next(button for button in page.ids.opponents.children if button.text == "Cy 3"))
    assert "Cy 3" in page.versus and misdrawn(ui, drawn, "Ben 2", "Cy 3") == []
    ui.tap(page.ids.manage_tab)
    page.ids.rename.text = "Cy 3"
    ui.tap(page.ids.rename_button)  # asked first: "Ben 2's games will say Cy 3"
    assert misdrawn(ui, drawn, "Ben 2", "Cy 3") == []
    ui.tap(page.sheet.ids.yes)  # refused: a player is named so
    assert "Cy 3" in app.toast.text and misdrawn(ui, drawn, "Cy 3") == []
    app.toast.dismiss()
    ui.tap(next(button for button in page.ids.merge.children if button.text == "Cy 3"))
    assert misdrawn(ui, drawn, "Cy 3") == []  # "Merge into Cy 3"
    page.ids.manage.scroll_to(page.ids.merge_button, animate=False)
    ui.step(2)
    ui.tap(page.ids.merge_button)
    ui.tap(page.sheet.ids.yes)  # refused: "Ben 2 and Cy 3 both sat at game #6"
    assert misdrawn(ui, drawn, "Ben 2", "Cy 3") == []
    app.toast.dismiss()
    store.add_player("Dee 4")  # no game with Ben 2: the merge is taken, and can be undone
    page.merge_choices()
    ui.step(2)
    ui.tap(next(button for button in page.ids.merge.children if button.text == "Dee 4"))
    ui.tap(page.ids.merge_button)
    ui.tap(page.sheet.ids.yes)
    assert page.name_shown == "Dee 4" and misdrawn(ui, drawn, "Ben 2", "Dee 4") == []  # "Undo the merge: Ben 2 back"
    ui.tap(page.ids.undo_merge)
    assert page.name_shown == "Ben 2" and "Ben 2" in app.toast.text
    assert misdrawn(ui, drawn, "Ben 2") == []  # "Ben 2 has their games back"


@pytest.mark.parametrize("language", ["fa", "en"])
def test_tonight_and_the_records_name_the_leagues_tables_as_typed(
        ui: Any, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """Tonight's "5 at Table 2, 6 at Table 1" and a record's "20:14 · Table 1", as typed; in English each line is
    drawn as the plain sentence it always was (a line that knows its names prints as one that does not)."""
    drawn = record_lines(monkeypatch)
    persian(ui, language)
    two_tables(ui, datetime.now(UTC) - timedelta(hours=9), here=5, there=6)
    tonight = goto(ui, "tonight")
    assert misdrawn(ui, drawn, "Table 1", "Table 2") == []
    assert (language == "en") == ("5 at Table 2" in tonight.since and "6 at Table 1" in tonight.since)
    shown = [label for label in ui.find_all(Label) if "Table 1" in label.text]
    goto(ui, "records")
    assert misdrawn(ui, drawn, "Table 1") == []
    shown += [label for label in ui.find_all(Label) if "Table 1" in label.text]
    if language == "en":
        assert all(" ".join(drawn[id(label._label)]) == label.text.replace("\n", " ") for label in shown)


def test_an_unfinished_game_and_the_set_up_name_its_seats_as_typed(ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana's chili 2, Ben 2 to play, when the app stopped: "Reopened the game of … with Ana, Ben 2, Cy", How to
    play's "Now: Ben 2 to play" and its lines, Home's question over the unfinished game, and "Ben 2 already has a
    seat" when the set-up is given the name again."""
    drawn = record_lines(monkeypatch)
    with Store.open(ui.tmp_path / "games.db") as store:
        Session.new(store, new_setup(SPICY, ["Ana", "Ben 2", "Cy"], end_card=27)).apply(Play(0, "chili", 2))
    app = persian(ui)
    ui.step(2)
    assert "Ben 2" in app.toast.text and misdrawn(ui, drawn, "Ben 2") == []
    app.toast.dismiss()
    table = app.screen("table")
    ui.tap(table.ids.menu)
    ui.tap(table._menu.ids.how_to_play)
    ui.until(lambda: app.root.current == "howto")
    ui.step(3)
    assert misdrawn(ui, drawn, "Ben 2") == []
    goto(ui, "home")
    ui.tap(app.screen("home").ids.new_game)
    assert misdrawn(ui, drawn, "Ben 2") == []  # the question: its game's seats
    ui.tap(ui.find(LeftGameSheet).ids.abandon)
    setup = app.screen("setup")
    setup.go("seats")
    ui.step(2)
    for _twice in range(2):
        setup.ids.new_name.text = "Ben 2"
        ui.tap(setup.ids.add)
    assert "Ben 2" in app.toast.text and misdrawn(ui, drawn, "Ben 2") == []


def test_a_replay_the_saved_games_and_a_backups_plan_name_the_players_as_typed(
        ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player's name ending in a number: a replay's line under the table ("Cy 5 wins the challenge · Cy 5
    wins the stack of 3 cards"), the saved games filtered to one player's, and what restoring another table's
    backup would bring."""
    drawn = record_lines(monkeypatch)
    persian(ui)
    simulated(ui, 12)
    store = ui.app.store
    for number, name in enumerate(store.players(), start=1):
        store.rename_player(name, f"{name} {number}")
    ui.app.screen("game").open(longest_spicy(ui))
    ui.tap(goto(ui, "game").ids.replay)
    ui.until(lambda: ui.app.root.current == "replay")
    screen = ui.app.screen("replay")
    ui.tap(screen.ids.next_challenge)  # the card challenged,
    ui.tap(screen.ids.forward)  # and its challenge
    ui.step(3)
    words = screen.ids.words
    assert words.opacity == 1 and "  ·  " in words.text and words.text.count("Cy 5") == 2  # a name in each moment
    assert misdrawn(ui, drawn, "Cy 5") == []
    chosen = store.players()[0]
    goto(ui, "games").choose(Filter(player=chosen))
    ui.step(3)
    assert chosen in ui.app.screen("games").summary and misdrawn(ui, drawn, chosen) == []
    other = ui.tmp_path / "from-another-table"
    other.mkdir()
    with Store.open(other / "games.db") as theirs:
        finished = Session.new(theirs, new_setup(SPICY, ["Zed 9", chosen], end_card=27))
        for action in (Play(0, "chili", 2), EndCardDrawn()):
            finished.apply(action)
        backup(theirs, other)
    restore_plan_shown(ui, other)
    assert "Zed 9" in ui.app.screen("takehome").status and misdrawn(ui, drawn, "Zed 9", chosen) == []
    where = ui.app.screen("takehome").ids.where  # the folder, as typed: its first slash first, none after it
    seen = "".join(drawn[id(where._label)]).strip(BIDI_MARKS)
    assert where.text == str(other) and seen.endswith("/from-another-table"), seen


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_leagues_saved_games_name_their_table_whole_and_as_typed(
        ui: Any, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """Each row of a league's saved games starts with its table ("Table 1 · Ana +12,  Ben −3"): drawn as typed
    in Persian, and kept whole while the seats' names give way; in English the line reads as it always did."""
    drawn = record_lines(monkeypatch)
    persian(ui, language)
    two_tables(ui, datetime.now(UTC) - timedelta(hours=9), here=3, there=3)
    goto(ui, "games")
    rows = [label for label in ui.find_all(Label) if label.text.startswith(("Table 1 · ", "Table 2 · "))]
    assert rows and misdrawn(ui, drawn, "Table 1", "Table 2") == []
    row = rows[0]
    cut = fit_names(*row.parent.names, dp(120), row.font_size)  # a row far too narrow for its seats
    assert cut.startswith(row.text[:9]) and ELLIPSIS in cut  # the table whole, the seats' names cut
    if language == "en":
        assert all(" ".join(drawn[id(label._label)]) == label.text for label in rows)
