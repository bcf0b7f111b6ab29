"""A name ending in a number ("Ben 2", "Table 3") drawn as typed in each Persian line that fills one in: the
league's state, the table's hint and toasts, a player's page, Tonight and the records. Drawn "۲ Ben" it read
as Ben and a number of the sentence's. What a screen sets stays the plain words, in English as in Persian."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel

from companion.config import UiConfig
from companion.league.syncthing import Standing, league_words
from companion.rules import FIVE_SPICES, new_setup
from companion.store.review import rival
from companion.ui.league import Seen
from companion.ui.widgets.label import Label
from scenes_review import busiest, two_tables
from table_helpers import Table

PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"


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


def persian(ui: Any, language: str = "fa", size: tuple[int, int] = (800, 480)) -> Any:
    return ui.start(size=size, config=ui.config(ui=UiConfig(language=language)))


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
    """Ben 2 laid a card: "Ana to play: play a card, draw, or challenge Ben 2" (the hint), and his own buzzer
    pressed on it, "Ben 2 played this card and cannot challenge it" (the press's toast)."""
    drawn = record_lines(monkeypatch)
    table = Table(ui, new_setup(FIVE_SPICES, ["Ben 2", "Ana", "Cy"], first=0), settings=UiConfig(language="fa"))
    table.declare("cinnamon")
    ui.step(2)
    assert "Ben 2" in table.view.hint and misdrawn(ui, drawn, "Ben 2") == []
    table.buzz((0, 0.0))
    ui.until(lambda: table.toast().startswith("Ben 2"))
    ui.step(2)
    assert misdrawn(ui, drawn, "Ben 2") == []


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
