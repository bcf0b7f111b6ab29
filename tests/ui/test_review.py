"""The review on the real app: the saved games' list page by page, its filters by touch, a game's page.

The database is filled by ``simulate``; every number on screen is checked against the store.
"""

from __future__ import annotations

from datetime import datetime, UTC
from pathlib import Path

import pytest
from kivy.metrics import dp
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

from companion.rules import SPICY, Play, ProfileId, new_setup, replay_transcript
from companion.table.session import Session
from companion.table.seating import Seating
from companion.store.db import Recorded
from companion.ui import theme
from store_helpers import KNOWN
from companion.store import Store
from companion.cli import main
from companion.config import UiConfig
from companion.ui.keyboard import BACKSPACE, ENTER, HIDE
from keyboard_helpers import keys, type_on_screen
from table_helpers import on_screen, shows
from companion.errors import CompanionError
from companion.store.ratings import ratings
from companion.buzzers import format_delay
from companion.store.review import (
    Filter,
    buzz_figures,
    count_games,
    figures,
    games_page,
    head_to_heads,
    RESULTS_SHOWN,
    player_lines,
    results,
    rival,
    score_race,
    timeline,
    tonight,
)
from companion.store.simulate import simulate
from companion.ui.i18n import tr
from companion.ui.screens.games import PAGE, GameRow, profile_title, row_data
from companion.ui.screens.players import PlayerRow
from companion.ui.widgets.forms import Header
from layouts import SHAPES, sizes

GAMES = 130


@pytest.fixture
def filled(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, GAMES, 4, datetime(2026, 9, 1, 18, tzinfo=UTC))
    return path


def open_games(ui, keyboard: str = "auto"):  # type: ignore[no-untyped-def]
    app = ui.start(config=ui.config(ui=UiConfig(keyboard=keyboard)))
    ui.tap(app.screen("home").ids.games)
    ui.step(3)
    return app.screen("games")


def test_the_list_reads_a_page_at_a_time_and_scrolls_to_every_game(ui, filled: Path) -> None:
    games = open_games(ui)
    rows = games.ids.list
    assert games.total == GAMES and len(rows.data) == PAGE  # not every game at once
    while len(rows.data) < GAMES:
        before = len(rows.data)
        rows.scroll_y = 0  # to the end of what was read
        ui.step(3)
        assert len(rows.data) > before
    with Store.open(filled) as store:
        assert rows.data == [row_data(line) for line in games_page(store, limit=GAMES)]
    assert games.summary == f"{GAMES} games"


def test_filters_are_chosen_by_touch_and_the_list_keeps_what_the_store_counts(ui, filled: Path) -> None:
    games = open_games(ui)
    ui.tap(games.ids.filters)
    assert games.filtering
    ui.tap(next(b for b in games.ids.profile.children if b.text == "Five Spices"))
    month = next(b for b in games.ids.period.children if b.text == "September 2026")
    ui.tap(month)
    with Store.open(filled) as store:
        chosen = Filter(profile=ProfileId.FIVE_SPICES, period="2026-09")
        expected = count_games(store, chosen)
        first = games_page(store, chosen, limit=PAGE)
    assert games.total == expected > 0 and games.summary == f"{expected} games · Five Spices · September 2026"
    games.ids.panel.scroll_y = 0  # the buttons under the choices
    ui.step(2)
    ui.tap(games.ids.show_button)
    assert not games.filtering
    assert [row["game_id"] for row in games.ids.list.data] == [line.id for line in first]
    assert all("Five Spices" in row["title"].text for row in games.ids.list.data)
    ui.tap(games.ids.filters)
    games.ids.panel.scroll_y = 0
    ui.step(2)
    ui.tap(games.ids.clear_button)
    assert games.total == GAMES and not games.filtered


def test_a_game_page_shows_the_store_breakdown_timeline_and_race(ui, filled: Path) -> None:
    games = open_games(ui)
    row = next(r for r in sorted(ui.find_all(GameRow), key=lambda r: -r.y) if "Five Spices" not in r.title.text)
    ui.tap(row)
    ui.until(lambda: ui.app.root.current == "game")
    page = ui.app.screen("game")
    with Store.open(filled) as store:
        saved = store.load(int(row.game_id))
        scores = [s for (s,) in store.query("SELECT score FROM scores WHERE game_id = ? ORDER BY seat",
                                            [row.game_id])]
    game = saved.game()
    cells = [getattr(cell, "text", "") for cell in reversed(page.ids.summary.children)][5:]
    assert [cells[i + 4] for i in range(0, len(cells), 5)] == [f"{s}".replace("-", "−") for s in scores]
    moments = timeline(saved, game)
    assert [line["depth"] for line in page.ids.timeline.data] == [str(m.depth) for m in moments]
    assert page.ids.timeline.data[-1]["text"] == "The World's End card showed." or game.state.end_reason != "end-card"
    ui.tap(page.ids.race_button)
    assert page.racing
    race = page.ids.race.series
    assert [line[-1] for _colour, line in race] == scores
    assert [list(line) for _colour, line in race] == [[s[i] for s in score_race(game)] for i in range(len(scores))]
    assert games.total == GAMES


def test_a_six_seat_game_page_keeps_why_it_ended_under_its_tabs_at_800x480(ui, filled: Path) -> None:
    ui.start()
    ui.until(lambda: ui.app.store is not None)
    (game_id,) = ui.app.store.query(
        "SELECT id FROM games WHERE ended_at IS NOT NULL ORDER BY json_array_length(seats) DESC, id LIMIT 1")[0]
    page = ui.app.screen("game")
    assert page.open(game_id)
    ui.app.show("game")
    ui.step(3)
    assert len(page.ids.summary.children) == 5 * 7  # a header and six seats
    assert page.ids.outcome.text and page.ids.outcome.top <= page.ids.final.y  # not under the tabs
    assert page.ids.log_play.top <= page.ids.outcome.y  # the rows scroll between them


@pytest.mark.parametrize("size", sizes(SHAPES))
def test_a_game_page_cuts_a_long_name_from_its_end_never_in_the_middle(ui, tmp_path: Path, size) -> None:
    """Kivy's own shortening drew "Bar...ew" in the breakdown and "Barth...mew" under the race."""
    long = "Bartholomew-Alexander Wilhelmina"
    with Store.open(tmp_path / "games.db") as store:
        game = replay_transcript(KNOWN.replace("Ana", long.replace(" ", "_")))
        (game_id,) = store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00", ["2026"] * len(game.log))])
    ui.start(size=size)
    ui.until(lambda: ui.app.store is not None)
    page = ui.app.screen("game")
    assert page.open(game_id)
    ui.app.show("game")
    ui.step(3)
    name = long.replace(" ", "_")

    def named(parent) -> list[Label]:  # type: ignore[no-untyped-def]
        """The labels under ``parent`` drawing the name, each checked as it shows: whole, or cut at its end."""
        found = [label for label in parent.walk(restrict=True)
                 if isinstance(label, Label) and label.text[:4] == name[:4] and " " not in label.text]
        for label in found:
            assert not label.shorten and 0 < label.texture_size[0] <= label.width
            assert label.text == name or (label.text.endswith("…") and name.startswith(label.text[:-1]))
        return found

    (breakdown,) = named(page.ids.summary)  # the timeline's lines say more than the name: not these
    assert breakdown.text != name  # too long for the breakdown: cut
    ui.tap(page.ids.race_button)
    ui.step(3)
    assert page.racing
    assert len(named(page.ids.legend)) == 1  # its place under the race
    ui.app.show("players")
    ui.step(3)
    assert len(named(ui.app.screen("players"))) == 1  # and its row of the Players list


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_saved_games_row_cuts_its_names_from_their_ends_and_its_words_never(ui, tmp_path: Path, french,
                                                                               size) -> None:
    """Kivy's own shortening drew "3 coups ·...oire : Bartholomew…" in a row, "Parties...istrées" above."""
    with Store.open(tmp_path / "games.db") as store:
        game = replay_transcript(KNOWN.replace("Cy", "Bartholomew-Alexander").replace("Ana", "Anastasia_Konstantin"))
        stamps = [f"2026-11-30T20:{minute:02d}:00.000+00:00" for minute in range(1, len(game.log) + 1)]
        store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00", stamps)])
    app = ui.start(size=size, config=ui.config(ui=UiConfig(language="fr")))
    app.show("games")
    ui.step(3)
    header = ui.find(Header).ids.title
    drawn = CoreLabel(font_size=header.font_size, bold=True).get_extents(header.text)[0]
    assert header.text == "Parties enregistrées" and drawn <= header.width - header.padding[0] * 2
    (row,) = ui.find_all(GameRow)
    title, names, _note = reversed(row.children)
    for label, sentence in ((title, row.title), (names, row.names)):
        assert label.texture_size[0] <= label.width + 1, label.text  # drawn whole: no shortening needed
        shows(label, sentence.template, sentence.names)
    assert title.text.startswith("30 nov. 2026, 20:00 · Spicy · ") and "victoire" in title.text
    assert row.title.names == {"winner0": "Bartholomew-Alexander"}


def test_a_game_page_with_nothing_to_remember_says_so_rather_than_an_empty_timeline(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        quiet = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
        quiet.apply(Play(0, "chili", 2))
        store.abandon(quiet.game_id, "2026-11-30T20:00:00.000+00:00")
        busy = replay_transcript(KNOWN)
        (busy_id,) = store.save([Recorded(busy, "2026-11-30T21:00:00.000+00:00", ["2026"] * len(busy.log))])
    ui.start()
    ui.until(lambda: ui.app.store is not None)
    page = ui.app.screen("game")
    for game_id, said in ((quiet.game_id, "No challenge, trophy or last card in this game"), (busy_id, "")):
        assert page.open(game_id)
        ui.app.show("game")
        ui.step(3)
        assert page.ids.no_moments.text == said and bool(page.ids.timeline.data) == (not said)


def test_a_one_game_player_sees_that_game_on_the_results_chart(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        game = replay_transcript(KNOWN)
        store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00", ["2026"] * len(game.log))])
        (score,) = store.query("SELECT score FROM scores JOIN players ON players.id = player_id WHERE name = 'Ana'")[0]
    app = ui.start()
    page = app.screen("player")
    assert page.open("Ana")
    app.show("player")
    ui.step(3)
    assert page.ids.chart.series == [(theme.ACCENT, [float(score)])]
    assert [i for i in page.ids.chart.canvas.children if type(i).__name__ == "Ellipse"]  # its one point, drawn


def test_the_retired_list_and_a_reopened_page_start_at_their_top(ui, filled: Path) -> None:
    with Store.open(filled) as store:
        retired = min(store.players())
        store.retire_player(retired)
        for name in ("Xena", "Yann", "Zora", "Walt", "Vera", "Uma", "Theo", "Sven", "Rosa"):
            store.add_player(name)  # enough players to scroll
    app = ui.start()
    ui.tap(app.screen("home").ids.players)
    ui.step(3)
    players = app.screen("players")
    players.ids.list.scroll_y = 0  # scrolled to the foot of the list
    ui.step(3)
    ui.tap(players.ids.show_retired)
    ui.step(3)
    (row,) = ui.find_all(PlayerRow)
    assert row.name == retired and on_screen(players.ids.list)[3] - on_screen(row)[3] < dp(24)  # at the top
    page, game = app.screen("player"), app.screen("game")
    assert page.open(retired) and game.open(1)
    scrolled = (page.ids.figures_scroll, page.ids.manage, game.ids.timeline, game.ids.final_scroll)
    for view in scrolled:
        view.scroll_y = 0
    assert page.open("Xena") and game.open(2)
    assert [view.scroll_y for view in scrolled] == [1] * len(scrolled)


def test_the_score_race_draws_each_seat_in_the_colour_it_had_at_the_table(ui, tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        game = replay_transcript(KNOWN)
        (game_id,) = store.save([Recorded(game, "2026-11-30T20:00:00.000+00:00", ["2026"] * len(game.log),
                                          seating=Seating(colours=(4, 0, 2), buzzers=(0, 1, 2)))])
    ui.start()  # on the test's games.db
    ui.until(lambda: ui.app.store is not None)
    page = ui.app.screen("game")
    assert page.open(game_id)
    expected = [tuple(theme.SEAT_COLOURS[c]) for c in (4, 0, 2)]
    assert [tuple(colour) for colour, _line in page.ids.race.series] == expected
    assert [tuple(colour) for _name, colour in page.legend] == expected


def test_the_timeline_speaks_french_when_the_table_does(ui, filled: Path) -> None:
    games = open_games(ui)
    tr.switch("fr")
    with Store.open(filled) as store:
        (game_id,) = store.query("SELECT id FROM games WHERE profile = 'spicy' AND ended_at IS NOT NULL LIMIT 1")[0]
    assert ui.app.screen("game").open(game_id)
    lines = [line["text"] for line in ui.app.screen("game").ids.timeline.data]
    assert any(" conteste le " in line for line in lines) and any(" gagne la pile de " in line for line in lines)
    assert not any(word in line for line in lines for word in ("challenges", " wins ", "stack"))
    assert games is not None


def open_player(ui, name: str, keyboard: str = "auto"):  # type: ignore[no-untyped-def]
    app = ui.start(config=ui.config(ui=UiConfig(keyboard=keyboard)))
    ui.tap(app.screen("home").ids.players)
    ui.step(3)
    if not any(r.name == name for r in ui.find_all(PlayerRow)):
        app.screen("players").ids.list.scroll_y = 0  # further down the list
        ui.step(3)
    row = next(r for r in ui.find_all(PlayerRow) if r.name == name)
    ui.tap(row)
    ui.until(lambda: app.root.current == "player")
    return app.screen("player")


def busiest(path: Path) -> str:
    with Store.open(path) as store:
        return max(player_lines(store), key=lambda p: (p.games, p.name)).name


def test_the_players_list_and_a_player_page_show_what_stats_prints(ui, filled: Path, capsys) -> None:
    name = busiest(filled)
    page = open_player(ui, name)
    with Store.open(filled) as store:
        expected = {f.profile: f for f in figures(store, player=name)}
        buzzes = buzz_figures(store, name)
        listed = {p.name: p for p in player_lines(store)}
        newest = {profile: results(store, name, profile) for profile in expected}
    shown = {row["name"]: row["figures"] for row in ui.app.screen("players").ids.list.data}
    assert shown.keys() == listed.keys()
    with Store.open(filled) as store:
        ranking = ratings(store)
    assert [(row["name"], row["skill"]) for row in ui.app.screen("players").ids.list.data][:len(ranking)] == [
        (r.name, f"#{place}  {r.mu:.1f} ± {r.sigma:.1f}") for place, r in enumerate(ranking, start=1)]
    line = listed[name]
    assert shown[name] == f"{line.games} games · {line.wins} wins · {round(100 * line.wins / line.games)}%"
    assert main(["stats", "--player", name, "--db", str(filled)]) == 0
    printed = {row[:24].strip(): row[24:].split() for row in capsys.readouterr().out.splitlines()[2:16]}
    for profile in page.profiles:
        ui.tap(next(b for b in page.ids.profiles.children if b.text == profile_title(profile)))
        rows = dict(page.rows)
        f = expected[profile]
        column = printed[""].index(profile)
        assert rows["Games"] == printed["games"][column] == str(f.games)
        assert rows["Wins"] == f"{printed['wins'][column]} · {printed['win %'][column]}%"
        assert rows["Average score"] == printed["avg score"][column].replace("-", "–")
        assert rows["Challenges made"] == printed["challenges made"][column]
        assert rows['"Not that spice!" won'] == printed["not that spice"][column].replace("/", " / ")
        assert rows['"Not that number!" won'] == printed["not that number"][column].replace("/", " / ")
        assert rows["Caught bluffing"] == printed["caught bluffing"][column]
        assert rows["Challenged and survived"] == printed["challenged and survived"][column]
        buzz = buzzes[profile]  # simulated games have buzz times
        assert rows["Quickest buzz, from the tap"] == format_delay(buzz.quickest_ms)
        assert rows["Median buzz margin"] == format_delay(buzz.median_margin_ms)
        assert rows.get("Buzzed before the tap", "0") == str(buzz.before_tap)
        [(_colour, chart)] = page.ids.chart.series  # the newest games; five-spices: the wins so far, all counted
        assert len(chart) == min(f.games, RESULTS_SHOWN)
        assert chart[-1] == (f.wins if f.best_score is None else newest[profile][-1].score)
    with Store.open(filled) as store:
        assert page.rival.split(" (")[0] == rival(store, name).name
        h = head_to_heads(store, name)[0]
    ui.tap(page.ids.versus_tab)
    ui.tap(next(b for b in page.ids.opponents.children if b.text == h.other))
    assert page.versus == f"{h.games} games together: {name} won {h.wins}, {h.other} won {h.losses}"


def test_rename_merge_and_retire_by_touch_keep_every_game(ui, filled: Path) -> None:
    name = busiest(filled)
    with Store.open(filled) as store:
        before = [line.id for line in games_page(store, Filter(player=name), limit=1000)]
        games_before = {f.profile: f.games for f in figures(store, player=name)}
        store.add_player("Zoë")
    page = open_player(ui, name, keyboard="screen")
    ui.tap(page.ids.manage_tab)
    ui.tap(page.ids.rename)
    for _ in name:
        ui.tap(keys(ui)[BACKSPACE])
    type_on_screen(ui, "Maximilian")
    ui.tap(keys(ui)[ENTER])  # the keyboard's Enter renames, as the Rename button does, once asked
    ui.step(2)
    assert page.sheet.text == f"{name}'s {sum(games_before.values())} games will say Maximilian."
    ui.tap(page.sheet.ids.yes)
    assert page.name_shown == "Maximilian"
    with Store.open(filled) as store:
        assert [line.id for line in games_page(store, Filter(player="Maximilian"), limit=1000)] == before
        assert all("Maximilian" in store.load(game_id).setup.names for game_id in before)
    ui.stop()
    page = open_player(ui, "Zoë")
    ui.tap(page.ids.manage_tab)
    ui.tap(next(b for b in page.ids.merge.children if b.text == "Maximilian"))
    page.ids.manage.scroll_y = 0  # the buttons under the names
    ui.step(2)
    ui.tap(page.ids.merge_button)
    ui.step(2)
    ui.tap(page.sheet.ids.yes)
    assert page.name_shown == "Maximilian"
    assert {profile: int(dict(page.rows)["Games"]) for profile in page.profiles
            if not ui.tap(next(b for b in page.ids.profiles.children if b.text == profile_title(profile)))
            } == games_before
    ui.tap(page.ids.manage_tab)
    page.ids.manage.scroll_y = 0
    ui.step(2)
    ui.tap(page.ids.retire_button)
    ui.step(2)
    ui.tap(page.sheet.ids.yes)
    assert page.retired
    ui.tap(page.ids.header.ids.back)
    players = ui.app.screen("players")
    assert "Maximilian" not in [row["name"] for row in players.ids.list.data]
    ui.tap(players.ids.show_retired)
    assert [row["name"] for row in players.ids.list.data] == ["Maximilian"]


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_merge_asks_naming_what_changes_and_is_undone_from_the_page_until_the_next_game(
        ui, tmp_path: Path, rotation: int) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 6, 4, datetime(2026, 9, 1, 18, tzinfo=UTC))
        game = replay_transcript(KNOWN.replace("Ana", "Bartholomew").replace("Ben", "Zed"))
        store.save([Recorded(game, "2026-10-01T20:00:00.000+00:00", ["2026-10-01T20:00:00.000+00:00"] * len(game.log))])
        kai = next(name for name in store.players() if name not in {"Bartholomew", "Zed", "Cy"})
        before = {name: figures(store, player=name) for name in store.players()}
    app = ui.start(rotation=rotation)
    page = app.screen("player")
    assert page.open("Bartholomew")
    app.show("player")
    ui.step(2)
    ui.tap(page.ids.manage_tab)
    ui.tap(next(b for b in page.ids.merge.children if b.text == kai))
    page.ids.manage.scroll_y = 0
    ui.step(2)
    ui.tap(page.ids.merge_button)
    ui.step(2)
    assert page.sheet.text.startswith(f"Bartholomew's 1 games become {kai}'s.")
    ui.tap(page.sheet.ids.back)  # nothing changes
    assert page.sheet.parent is None and "Bartholomew" in app.store.players()
    ui.tap(page.ids.merge_button)
    ui.step(2)
    ui.tap(page.sheet.ids.yes)
    assert page.name_shown == kai and "Bartholomew" not in app.store.players()
    page.ids.manage.scroll_y = 1
    ui.step(2)
    assert page.ids.undo_merge.text == "Undo the merge: Bartholomew back"
    ui.tap(page.ids.undo_merge)
    assert page.name_shown == "Bartholomew"
    assert {name: figures(app.store, player=name) for name in app.store.players()} == before
    app.store.merge_players("Bartholomew", kai)
    assert page.open(kai) and page.merged == "Bartholomew"
    app.store.new_game(game.setup, "2026-10-02T20:00:00.000+00:00")  # the next game: the merge stands
    assert page.open(kai) and page.merged == "" and page.ids.undo_merge.disabled


def test_a_note_typed_by_touches_alone_is_saved_and_outlives_a_restart(ui, filled: Path) -> None:
    open_games(ui, keyboard="screen")
    row = sorted(ui.find_all(GameRow), key=lambda r: -r.y)[0]
    ui.tap(row)
    ui.until(lambda: ui.app.root.current == "game")
    page = ui.app.screen("game")
    ui.tap(page.ids.note)
    type_on_screen(ui, "Ben's birthday")
    ui.tap(keys(ui)[HIDE])
    ui.tap(page.ids.keep_note)
    ui.stop()
    app = ui.start()
    games = app.screen("games")
    app.show("games")
    ui.step(3)
    assert games.ids.list.data[0]["note"] == "Ben's birthday"
    assert app.screen("game").open(int(row.game_id)) and app.screen("game").ids.note.text == "Ben's birthday"
    with Store.open(filled) as store:
        with pytest.raises(CompanionError, match="a note is at most 200 characters; this one has 201"):
            store.set_note(int(row.game_id), "x" * 201)
        assert store.set_note(int(row.game_id), "  ") is None


def test_tonight_shows_the_store_leaderboard_and_awards(ui, tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, 4, 1, datetime(2026, 5, 1, 12, tzinfo=UTC))
        simulate(store, 6, 2, datetime(2026, 5, 2, 19, tzinfo=UTC))
        evening = tonight(store)
    games = open_games(ui)
    ui.tap(games.ids.tonight)
    ui.step(3)
    screen = ui.app.screen("tonight")
    assert ui.app.root.current == "tonight" and evening is not None
    assert [row[1:] for row in screen.standings] == [
        (s.name, str(s.games), str(s.wins), str(s.points).replace("-", "−"), str(s.trophies))
        for s in evening.standings]
    assert [(title, name, figure) for title, _line, name, figure in screen.awards] == [
        ({"best-bluffer": "Best bluffer", "sharpest-challenger": "Sharpest challenger",
          "quickest-hand": "Quickest hand", "most-trophies": "Most trophies"}[a.kind], a.name, a.figure)
        for a in evening.awards]
    assert "quickest-hand" in [a.kind for a in evening.awards]  # simulated games have buzz times
    assert screen.since.startswith("Since May 2, 2026, 7:00\u202fPM · 6 games")
