"""Two fingers on the end screen at once: each press acts on the game as it is when it is let go."""

from __future__ import annotations

from scenes_table import end


def test_play_again_let_go_after_undo_took_the_end_back_starts_nothing(ui) -> None:
    app = ui.start()
    end(ui)
    screen = app.screen("end")
    assert app.root.current == "end"
    game = app.session.game_id

    def undo() -> None:
        ui.tap(screen.ids.undo)
        assert app.root.current == "table" and not app.session.state.ended

    ui.hold_while(screen.ids.again, undo)
    assert app.session.game_id == game and app.root.current == "table"
    assert app.store.unfinished_game() == game and app.store.load(game).abandoned_at is None
    assert len(app.store.uids()) == 1


def test_undo_let_go_after_play_again_started_the_next_game_leaves_the_last_one_ended(ui) -> None:
    app = ui.start()
    end(ui)
    screen = app.screen("end")
    game = app.session.game_id

    def play_again() -> None:
        ui.tap(screen.ids.again)
        assert app.root.current == "table" and app.session.game_id != game

    ui.hold_while(screen.ids.undo, play_again)
    assert app.store.summary(game).ended_at is not None
    assert app.store.unfinished_game() == app.session.game_id and not app.session.game.log
