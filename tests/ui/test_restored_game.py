"""Another table's unfinished game, restored here: start-up reopens the table's own, the visitor waits on its page."""

from __future__ import annotations

from pathlib import Path

from companion.rules import replay_transcript
from companion.table.session import Session
from companion.store import Store
from companion.store.backup import backup, plan_restore, restore

SEATS = "rules spicy\nseats Ana Ben Cy\nend-card 27\n"


def unfinished(store: Store, started_at: str) -> int:
    game = replay_transcript(SEATS + "play Ana chili 1\nplay Ben chili 2\n")
    session = Session.new(store, game.setup, clock=lambda: started_at)
    for action in game.log:
        session.apply(action)
    return session.game_id


def test_start_up_reopens_the_tables_own_game_and_the_restored_one_is_resumed_from_its_page(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as home, Store.open(tmp_path / "visitor.db") as visitor:
        own = unfinished(home, "2026-11-30T19:00:00.000+00:00")
        unfinished(visitor, "2026-11-30T21:00:00.000+00:00")
        (arrived,) = restore(home, plan_restore(home, backup(visitor, tmp_path, name="from-visitor.db")))
    app = ui.start()
    assert app.root.current == "table" and app.session.game_id == own
    page = app.screen("game")
    assert page.open(arrived) and page.unfinished
    app.show("game")
    ui.step(2)
    ui.tap(page.ids.resume)
    assert app.root.current == "table" and app.session.game_id == arrived
    assert len(app.session.game.log) == 2
