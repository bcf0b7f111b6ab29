"""Replay on the real app: a saved game's page opens it on the table, read-only, driven by touches.

The saved games come from ``simulate`` (and from a game played at the table); every step shown is
checked against a fresh fold of the rules engine, and the database file against its bytes before.
"""

from __future__ import annotations

import hashlib
import random
from datetime import datetime, timedelta, UTC
from functools import reduce
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior

from companion.random_play import endless_game, random_game
from companion.rules import SPICY, Challenge, Game, State, apply, new_setup, start
from companion.table.session import Session
from companion.store import Recorded, Store, snapshots
from companion.store.simulate import simulate
from companion.ui.screens.games import GameRow
from companion.ui.bidi import unmarked
from companion.ui.screens.replay import ReplayScreen
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.seat_panel import SeatPanel
from companion.ui.widgets.toast import Toast
from store_helpers import StatesMade, missing_field, rewrite_snapshot
from layouts import SHAPES, sizes
from table_helpers import Table, on_screen, overlap, within

START = datetime(2026, 9, 1, 18, tzinfo=UTC)
STEPS = 30
"""Steps taken forward (and back) by touch in a game: enough to pass challenges, stacks won and a few undos."""


def fill(store: Store) -> None:
    simulate(store, 30, 4, START)


def longest(store: Store, profile: str, where: str = "ended_at IS NOT NULL") -> int:
    rows = store.query(
        f"SELECT id FROM games WHERE profile = ? AND {where}"
        " ORDER BY (SELECT count(*) FROM actions WHERE game_id = games.id) DESC LIMIT 1", [profile])
    assert rows, f"no {profile} game saved"
    return int(rows[0][0])


def open_replay(ui: Any, game_id: int) -> ReplayScreen:
    """The game's page, then its Replay button, tapped."""
    page = ui.app.screen("game")
    assert page.open(game_id)
    ui.app.show("game")
    ui.step(2)
    ui.tap(page.ids.replay)
    ui.until(lambda: ui.app.root.current == "replay")
    screen = ui.app.screen("replay")
    assert isinstance(screen, ReplayScreen)
    return screen


def standing_moves(store: Store, game_id: int) -> tuple[Any, list[Any]]:
    """The set-up and the moves that stand once the saved log's undos and redos are folded."""
    game = store.load(game_id).game()
    return game.setup, [step.move for step in game.steps()[1:]]


def engine_after(setup: Any, moves: list[Any], n: int) -> State:
    """A fresh fold of the first ``n`` standing moves, by the rules engine alone."""
    return reduce(apply, moves[:n], start(setup))


def check_drawn(screen: ReplayScreen, expected: State, n: int, total: int) -> None:
    """The replay's table shows the engine's state: scores, hands, won piles, stack and draw pile."""
    view, table = screen.view, screen.table
    assert view.replay.state == expected
    assert view.position == n and screen.ids.position.text == f"action {n} of {total}"
    assert [(s.score, s.hand, s.won, s.trophies) for s in view.seats] == [
        (expected.score(i), seat.hand, seat.won, seat.trophies) for i, seat in enumerate(expected.seats)]
    assert table.ids.stack_card.count == expected.stack == view.stack
    assert table.ids.draw_pile.count == expected.draw_pile
    assert view.turn == (-1 if expected.turn is None else expected.turn)
    panels = sorted((p for p in table.walk(restrict=True) if isinstance(p, SeatPanel)), key=lambda p: p.seat.index)
    assert [p.seat.score for p in panels] == [expected.score(i) for i in range(len(expected.seats))]


def file_bytes(path: Path) -> dict[str, str]:
    """The database and its write-ahead log, as hashes of their bytes."""
    found = {}
    for name in (path, Path(f"{path}-wal")):
        if name.exists():
            found[name.name] = hashlib.sha256(name.read_bytes()).hexdigest()
    return found


@pytest.mark.parametrize("profile", ["spicy", "sweet-spicy", "five-spices"])
def test_each_step_forward_is_the_engine_after_that_many_moves_and_back_returns(ui, profile: str) -> None:
    app = ui.start()
    fill(app.store)
    game_id = longest(app.store, profile)
    setup, moves = standing_moves(app.store, game_id)
    screen = open_replay(ui, game_id)
    total = len(moves)
    assert screen.table.replaying and screen.table.sheet_name == ""
    check_drawn(screen, start(setup), 0, total)  # at the deal
    steps = min(STEPS, total)
    for n in range(1, steps + 1):
        ui.tap(screen.ids.forward)
        check_drawn(screen, engine_after(setup, moves, n), n, total)
        assert screen.table.sheet_name == "" and app.root.current == "replay"  # no sheet, no end screen
    for n in range(steps - 1, -1, -1):
        ui.tap(screen.ids.back)
        check_drawn(screen, engine_after(setup, moves, n), n, total)
    ui.tap(screen.ids.back)  # at the deal, back stays there
    assert screen.view.position == 0


@pytest.mark.parametrize("profile", ["spicy", "sweet-spicy", "five-spices"])
def test_the_jumps_land_on_each_challenge_in_order_then_back(ui, profile: str) -> None:
    app = ui.start()
    fill(app.store)
    game_id = longest(app.store, profile)
    setup, moves = standing_moves(app.store, game_id)
    challenges = [n for n, move in enumerate(moves, 1) if isinstance(move, Challenge)]
    assert len(challenges) >= 2
    screen = open_replay(ui, game_id)
    landed = []
    for _ in challenges:
        ui.tap(screen.ids.next_challenge)
        landed.append(screen.view.position)
        check_drawn(screen, engine_after(setup, moves, landed[-1]), landed[-1], len(moves))
    assert landed == challenges
    assert "challenges" in screen.ids.words.text  # the move is said as the timeline says it
    ui.tap(screen.ids.next_challenge)  # none left: it stays, and says so
    assert screen.view.position == challenges[-1]
    assert toast_text() == "No challenge after this"
    ui.tap(screen.ids.forward)
    back = []
    for _ in challenges:
        ui.tap(screen.ids.previous_challenge)
        back.append(screen.view.position)
    assert back == challenges[::-1]


def test_a_replay_takes_no_tap_saves_nothing_arms_nothing_and_leaves_the_running_game(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    table.declare("chili", 1)  # the running game: a card on top, the two other seats armed
    live_view, live_log = table.view, list(table.app.session.game.log)
    live_state, lit = live_view.state, table.lit()
    assert lit
    fill(table.app.store)
    game_id = longest(table.app.store, "spicy")
    setup, moves = standing_moves(table.app.store, game_id)
    db = table.app.config_.store.db
    counts = table.app.store.query("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions)")
    screen = open_replay(ui, game_id)
    before = file_bytes(db)
    n = next(n for n, move in enumerate(moves, 1) if isinstance(move, Challenge)) - 1  # a card open to challenge
    for _ in range(n):
        ui.tap(screen.ids.forward)
    expected = engine_after(setup, moves, n)
    assert expected.window is not None and screen.view.window
    assert not any(seat.armed for seat in screen.view.seats)  # no ring says a buzzer is live
    replay_table = screen.table
    ui.tap(within(replay_table.ids.pad, NumberButton, number=2))  # would play, on a live table
    ui.hold(next(p for p in replay_table.walk(restrict=True) if isinstance(p, SeatPanel)), 1.0)  # would challenge
    ui.tap(replay_table.ids.draw_pile)  # would open the count
    check_drawn(screen, expected, n, len(moves))
    assert replay_table.sheet_name == "" and app_current(ui) == "replay"
    assert toast_text() == ""  # not even refused: no tap reached the replay's table
    assert table.lit() == lit  # the replay armed no buzzer and left the live game's lit
    ui.tap(screen.ids.close)
    assert app_current(ui) == "game"
    assert file_bytes(db) == before
    assert table.app.store.query(
        "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM actions)") == counts
    assert table.app.session.game.log == live_log and table.app.screen("table").view is live_view
    assert live_view.state == live_state and not live_view.closed


def toast_text() -> str:
    toasts = [w for w in Window.children if isinstance(w, Toast)]
    return toasts[-1].text if toasts else ""


def app_current(ui: Any) -> str:
    return str(ui.app.root.current)


def test_unfinished_and_abandoned_games_replay_to_where_they_stopped(ui) -> None:
    app = ui.start()
    rng = random.Random(3)
    games = [random_game(rng, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"]), max_actions=25) for _ in range(2)]
    assert not any(game.state.ended for game in games)
    at = START.isoformat(timespec="milliseconds")
    unfinished, abandoned = app.store.save([Recorded(game, at, [at] * len(game.log)) for game in games])
    app.store.abandon(abandoned, (START + timedelta(hours=1)).isoformat())
    for game_id in (unfinished, abandoned):
        setup, moves = standing_moves(app.store, game_id)
        screen = open_replay(ui, game_id)
        assert moves
        for _ in moves:
            ui.tap(screen.ids.forward)
        check_drawn(screen, engine_after(setup, moves, len(moves)), len(moves), len(moves))
        assert screen.ids.forward.dimmed and not screen.view.ended
        ui.tap(screen.ids.forward)  # the last move: forward stays
        assert screen.view.position == len(moves)
        ui.tap(screen.ids.close)


def test_a_log_that_no_longer_replays_says_so_in_one_line(ui) -> None:
    app = ui.start()
    fill(app.store)
    game_id = longest(app.store, "spicy")
    page = app.screen("game")
    assert page.open(game_id)
    app.show("game")
    ui.step(2)
    with app.store.db.conn:  # the log changed under the page: its first play now names a seat nobody has
        app.store.db.conn.execute(
            "UPDATE actions SET action = replace(action, '\"seat\":', '\"seat\":9') WHERE game_id = ? AND seq ="
            " (SELECT min(seq) FROM actions WHERE game_id = ?)", [game_id, game_id])
    ui.tap(page.ids.replay)
    said = toast_text()
    assert said.startswith("This game cannot be replayed: ") and "\n" not in said, said
    assert app.root.current == "game"


def test_lying_flat_the_replay_steps_under_the_seats_turned_to_their_edges(ui) -> None:
    from companion.config import UiConfig

    app = ui.start(config=ui.config(ui=UiConfig(face_seats=True)))
    fill(app.store)
    game_id = longest(app.store, "spicy")
    setup, moves = standing_moves(app.store, game_id)
    screen = open_replay(ui, game_id)
    assert not screen.over_table and screen.table.lying
    assert screen.table.y >= screen.ids.controls.top - 1  # the controls' strip under the table
    turn = (screen.table._pad_slot, screen.table._info_slot)  # a replay takes no claim: no keys spill out
    assert [slot.opacity for slot in turn] == [0, 0]
    for n in range(1, 8):
        ui.tap(screen.ids.forward)
        check_drawn(screen, engine_after(setup, moves, n), n, len(moves))
    angles = {slot.angle for slot in screen.table._slots}
    assert len(angles) > 1  # the seats face their edges
    for _ in range(7):
        ui.tap(screen.ids.back)
    check_drawn(screen, start(setup), 0, len(moves))


def test_saved_games_then_a_game_then_replay_by_touch(ui) -> None:
    app = ui.start()
    fill(app.store)
    ui.tap(app.screen("home").ids.games)
    ui.step(3)
    row = max(ui.find_all(GameRow), key=lambda r: r.y)
    ui.tap(row)
    ui.until(lambda: app.root.current == "game")
    ui.tap(app.screen("game").ids.replay)
    ui.until(lambda: app.root.current == "replay")
    screen = app.screen("replay")
    assert screen.view.replay.saved.id == int(row.game_id) and screen.view.position == 0


@pytest.mark.parametrize("size", sizes(SHAPES))
def test_standing_a_last_card_in_a_replay_is_told_clear_of_the_replays_controls(ui, size) -> None:
    """The banner took the top bar's title place, which the replay's controls cover: its words ran into
    "action 30 of 41"."""
    app = ui.start(size=size)
    fill(app.store)
    found = app.store.query("SELECT id FROM games WHERE profile = 'spicy' AND ended_at IS NOT NULL")
    screen = None
    for (game_id,) in found:
        screen = open_replay(ui, game_id)
        while not screen.view.last_card and screen.view.position < screen.view.last:
            ui.tap(screen.ids.forward)
        if screen.view.last_card:
            break
    assert screen is not None and screen.view.last_card
    ui.step(3)
    banner = screen.table.ids.banner
    assert banner.opacity == 1 and banner.width > 100
    assert not overlap(on_screen(banner), on_screen(screen.ids.controls))
    assert banner.ids.near_side.ids.title.text == f"{screen.view.last_card}: last card!"  # the name whole


# --- a long game, from the snapshots its table saved ------------------------------------------------

EVERY = 40
"""Snapshots this often in the long games here (500 at a table), so a game of a few hundred actions has many."""


def long_game(app: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, int]:
    """A five-spices game played at a table for 330 actions (its end undone to go on): saved with a snapshot
    every ``EVERY`` actions, 10 after the last one."""
    monkeypatch.setattr(snapshots, "EVERY", EVERY)
    game = endless_game(8 * EVERY + 10, seed=11)
    session = Session.new(app.store, game.setup)
    for action in game.log:
        session.apply(action)
    assert app.store.query("SELECT count(*) FROM snapshots WHERE game_id = ?", [session.game_id]) == [(8,)]
    return game, session.game_id


DAMAGE = {
    "kept": None,
    "missing": "DELETE FROM snapshots",
    "disagreeing": f"UPDATE snapshots SET payload = payload || ' ' WHERE upto = {2 * EVERY}",
    "unreadable": missing_field,
}
"""Snapshots as the table saved them; gone; one no longer matching its checksum (never read); one whose
checksum matches but which does not read back (found when the replay first needs it)."""


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_long_game_opens_on_its_deal_and_steps_both_ways_as_its_full_fold(ui, monkeypatch, damage: str) -> None:
    app = ui.start()
    game, game_id = long_game(app, monkeypatch)
    change = DAMAGE[damage]
    if isinstance(change, str):
        with app.store.db.conn:
            app.store.db.conn.execute(change)
    elif change is not None:
        rewrite_snapshot(app.config_.store.db, 3 * EVERY, change)
    steps = Game.replay(game.setup, game.log).steps()  # the whole log folded, no snapshot read
    last = len(steps) - 1
    screen = open_replay(ui, game_id)
    check_drawn(screen, steps[0].state, 0, last)  # at the deal
    while screen.view.position < last // 2 and screen.view.has_next_challenge:  # on by jumps, past the middle
        ui.tap(screen.ids.next_challenge)
        check_drawn(screen, steps[screen.view.position].state, screen.view.position, last)
    while screen.view.position < last // 2:
        ui.tap(screen.ids.forward)
    at = screen.view.position
    for n in [*range(at - 1, at - 8, -1), *range(at - 6, at + 8)]:  # back a step at a time, then forward past it
        ui.tap(screen.ids.back if n < screen.view.position else screen.ids.forward)
        check_drawn(screen, steps[n].state, n, last)
    assert toast_text() == ""


def test_the_replay_opens_from_the_last_snapshot_not_from_a_fold_of_the_whole_game(ui, monkeypatch) -> None:
    """The states the Replay tap makes: those of the last snapshot and the 10 actions after it (a fold of the
    whole game, or resuming it, makes 330)."""
    app = ui.start()
    game, game_id = long_game(app, monkeypatch)
    page = app.screen("game")
    assert page.open(game_id)
    app.show("game")
    ui.step(12)  # the page drawn, the replay's screen made ahead
    made = StatesMade(monkeypatch)
    ui.tap(page.ids.replay)
    ui.until(lambda: app.root.current == "replay")
    assert made.count <= EVERY + 10
    screen = app.screen("replay")
    check_drawn(screen, start(game.setup), 0, len(game.steps()) - 1)


def test_a_log_that_stops_replaying_at_a_step_says_so_and_the_table_stays(ui, monkeypatch) -> None:
    """A file changed by hand under the game's page: a play in the middle names a seat nobody has, the snapshot
    over it made to agree with that row and not to read back. The replay opens (the actions after the last
    snapshot replay), and the jump that needs that snapshot says why it cannot go there."""
    app = ui.start()
    game, game_id = long_game(app, monkeypatch)
    page = app.screen("game")
    assert page.open(game_id)  # the page reads the whole game: it would refuse the file changed so
    app.show("game")
    ui.step(12)
    conn = app.store.db.conn
    seq = next(seq for seq, text in conn.execute(  # a play or a draw covered by the snapshot from 120 to 160
        "SELECT seq, action FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", [game_id, 3 * EVERY + 2])
        if '"seat":' in text)
    with conn:
        conn.execute("UPDATE actions SET action = replace(action, '\"seat\":', '\"seat\":9')"
                     " WHERE game_id = ? AND seq = ?", [game_id, seq])
    rows = [text for (text,) in conn.execute("SELECT action FROM actions WHERE game_id = ? AND seq > ? AND seq <= ?"
                                             " ORDER BY seq", [game_id, 3 * EVERY, 4 * EVERY])]
    with conn:
        conn.execute("UPDATE snapshots SET log_hash = ? WHERE upto = ?", [snapshots.log_hash(rows), 4 * EVERY])
    rewrite_snapshot(app.config_.store.db, 4 * EVERY, missing_field)
    ui.tap(page.ids.replay)
    ui.until(lambda: app.root.current == "replay")
    screen = app.screen("replay")
    steps = game.steps()
    check_drawn(screen, steps[0].state, 0, len(steps) - 1)
    screen.view.go(len(steps) - 1)  # its state comes from the last snapshot, which reads back
    check_drawn(screen, steps[-1].state, len(steps) - 1, len(steps) - 1)
    inside = next(n for n, step in enumerate(steps) if step.entry >= seq - 1)  # made after it, from that snapshot
    for _ in range(2):  # and so again
        screen.view.go(inside)
        ui.step(2)
        said = toast_text()
        assert said.startswith("This game cannot be replayed: there is no seat ") and "\n" not in said, said
        check_drawn(screen, steps[-1].state, len(steps) - 1, len(steps) - 1)  # where it was
    ui.tap(screen.ids.back)  # the steps it has are still there
    check_drawn(screen, steps[-2].state, len(steps) - 2, len(steps) - 1)


# --- a second tap ------------------------------------------------------------------------------

@pytest.mark.parametrize(("size", "flat"), [((800, 480), False), ((1280, 720), False), ((720, 1280), False),
                                            ((800, 480), True)], ids=["800x480", "1280x720", "720x1280", "flat"])
def test_a_second_tap_where_replay_was_finds_nothing_to_tap(ui, size: tuple[int, int], flat: bool) -> None:
    """Issue 23: "Challenge ›" came up where the Replay button had been, so an impatient second tap jumped to
    the first challenge. Nothing of the replay's that takes a tap lies there, and a second tap does nothing."""
    from companion.config import UiConfig

    app = ui.start(size=size, config=ui.config(ui=UiConfig(face_seats=flat)))
    fill(app.store)
    page = app.screen("game")
    assert page.open(longest(app.store, "spicy"))
    app.show("game")
    ui.step(3)
    button = page.ids.replay
    where, (x, y) = on_screen(button), button.to_window(*button.center)
    ui.tap_at(x, y)
    ui.until(lambda: app.root.current == "replay")
    screen = app.screen("replay")
    assert screen.table.replaying  # the table under the controls takes no tap
    under = [w for w in screen.ids.controls.walk(restrict=True)
             if isinstance(w, ButtonBehavior) and overlap(on_screen(w), where)]
    assert not under, [getattr(w, "text", w) for w in under]
    ui.tap_at(x, y)
    assert app.root.current == "replay" and screen.view.position == 0 and toast_text() == ""


def test_the_replay_made_ahead_lays_its_claim_pad_out_as_a_table_does(ui) -> None:
    """The keys made while the page was read sit as a live table's do: in the pad, none over another nor over
    the turn's buttons (made before the replay had a game, the second row of numbers once lay under Pass)."""
    app = ui.start()
    fill(app.store)
    screen = open_replay(ui, longest(app.store, "spicy"))
    ui.step(2)
    pad = screen.table.ids.pad
    keys = [on_screen(w) for w in pad.walk(restrict=True) if isinstance(w, (NumberButton, SpiceButton))]
    turn = [on_screen(button) for button in screen.table.ids.turn_row.children]
    assert len(keys) == 3 + 10 and turn
    assert not any(overlap(a, b) for i, a in enumerate(keys) for b in keys[i + 1:])
    # at 800x480 the pad's three rows take 8 px more than it has, as on a live table: a key may touch Pass
    assert not any(overlap(key, (left, bottom, right, top - 3)) for key in keys for left, bottom, right, top in turn)


def test_a_page_left_with_its_app_does_not_make_a_replay_ready_in_the_next(ui) -> None:
    """What a game's page schedules ahead runs on frames after it; once its app has stopped (a test's end,
    a restart) it makes nothing, and binds nothing of the old app to the new one."""
    app = ui.start()
    fill(app.store)
    assert app.screen("game").open(longest(app.store, "spicy"))
    app.show("game")
    ui.stop()  # before a frame has run what the page scheduled
    again = ui.start()
    ui.step(15)
    assert not again.root.has_screen("replay") and not app.root.get_screen("game").manager.has_screen("replay")


# --- the bar's line in every language ----------------------------------------------------------

def drawn_words(label: Any) -> list[str]:
    """The words ``label`` laid out to draw, as written: what a dropped line or a cut word would be missing from."""
    return [piece for line in label._label._cached_lines for word in line.words for piece in unmarked(word.text).split()]


@pytest.mark.parametrize(("language", "size", "flat"), [
    *[pytest.param("fa", size, flat, id=f"fa-{layout}") for layout, size, flat in [
        ("800x480", (800, 480), False), ("720x1280", (720, 1280), False), ("flat", (800, 480), True)]],
    *[pytest.param(language, (800, 480), False, id=language) for language in ["en", "fr", "de", "ru", "ja", "nl"]]])
def test_the_replays_line_is_drawn_whole_in_its_bar(ui, language: str, size: tuple[int, int], flat: bool) -> None:
    """Issue 25: in Persian the bar ran from the table's undo button to the window's right edge, as in English,
    but there undo stands at the right: the buttons took all of it, and the step's line had no room. In every
    language the line had no height of its own (the position kept the bar's), and lines past two were dropped:
    the line, a challenge and then how it was decided, is drawn whole within the bar."""
    from companion.config import UiConfig

    app = ui.start(size=size, config=ui.config(ui=UiConfig(language=language, face_seats=flat)))
    fill(app.store)
    screen = open_replay(ui, longest(app.store, "spicy"))
    for jump in (screen.ids.next_challenge, screen.ids.forward):  # the challenge, then how it was decided
        ui.tap(jump)
        ui.step(3)
        controls, words = screen.ids.controls, screen.ids.words
        left, bottom, right, top = on_screen(controls)
        assert 0 <= left and right <= Window.width and 0 <= bottom and top <= Window.height
        parts = [on_screen(child) for child in controls.children]
        assert not any(overlap(a, b) for i, a in enumerate(parts) for b in parts[i + 1:]), parts
        assert words.opacity == 1 and words.text, (words.width, words.text)
        box = on_screen(words)
        assert left - 1 <= box[0] and box[2] <= right + 1
        assert sum(line.h for line in words._label._cached_lines) <= words.height + 1, words.text  # none cut off
        assert drawn_words(words) == words.text.split(), words.text
