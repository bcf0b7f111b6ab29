"""A whole 3-seat spicy game on the real app, from the home screen through set-up to the final scores,
its challenges decided by GPIO buzzers on gpiozero's MockFactory."""

from __future__ import annotations

import threading

from companion.rules import SPICY, new_setup
from companion.ui.widgets.claim_pad import NumberButton
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2


def test_a_full_spicy_game_with_buzzers_a_reveal_a_trophy_and_the_worlds_end(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), from_home=True)
    view, screen = table.view, table.screen
    assert (view.draw_pile, view.turn, [s.hand for s in view.seats]) == (55, ANA, [6, 6, 6])

    table.declare("chili", 1)
    table.declare("chili", 2)
    table.declare("chili", 3)
    assert table.lit() == [ANA, BEN]  # Cy's card is on top: everyone else's LED glows
    assert table.pulsing() == ANA  # Ana's, the seat to play's, pulses
    table.declare("chili", 5)
    assert view.seats[ANA].played == "5" and table.lit() == [BEN, CY]

    # Cy's callback arrives first, but Ben's edge came 1 ms earlier: Ben challenges.
    table.buzz((CY, 0.001), (BEN, 0.0))
    ui.until(lambda: screen.sheet_name == "challenge")
    sheet = table.sheet()
    assert sheet.ids.title.text.startswith("Ben challenges ")
    assert "Cy +1 ms" in sheet.ids.later.text
    assert table.lit() == [BEN] and view.seats[CY].locked and table.sounds[-1] == "buzz-1"  # Ben's colour's
    table.tap(sheet.ids.not_number)

    assert screen.sheet_name == "reveal"
    table.tap(within(table.sheet(), NumberButton, spice="chili", number=4))
    assert screen.sheet_name == "result"
    result = table.sheet()
    assert result.ids.title.text == "Chili 4: the number was a lie."
    assert result.ids.detail.text == "Ben wins 4 cards; Ana draws 2 and starts the next stack."
    table.tap(result.ids.ok)
    assert screen.sheet_name == ""
    assert [(s.hand, s.won, s.score) for s in view.seats] == [(6, 0, -6), (5, 4, -1), (5, 0, -5)]
    assert view.turn == ANA and view.stack == 0 and table.lit() == [ANA] and table.pulsing() == ANA

    # Ben plays out his hand while the others pass: a last card, then a trophy.
    table.declare("chili", 1)
    for number in (2, 3, 4, 5):
        table.declare("chili", number)
        table.pass_turn()
        table.pass_turn()
    assert view.last_card == "" and view.seats[BEN].hand == 1
    table.declare("chili", 6)
    assert view.last_card == "Ben" and screen.ids.banner.opacity == 1
    assert "last-card" in table.sounds
    table.pass_turn()  # Cy lets it go: Ben takes a trophy and draws 6
    assert view.seats[BEN].trophies == 1 and view.seats[BEN].hand == 6
    assert view.trophies_left == 2 and view.trophy_takers == [BEN]
    assert view.last_card == "" and screen.ids.banner.opacity == 0

    # The table sees the World's End card: a tap on the draw pile, then on "World's End showed", ends the game.
    table.tap(screen.ids.draw_pile)
    assert not view.ended and screen.sheet_name == "draw_pile"
    table.tap(table.sheet().ids.end_card)
    assert view.ended and table.app.root.current == "end"
    assert "end" in table.sounds
    end = table.app.screen("end")
    assert end.ids.title.text == "Ben wins!"

    shown = {row.name: row.score for row in table.app.screen("end").ids.rows.children}
    store = table.app.store
    saved = dict(store.query(
        "SELECT p.name, s.score FROM scores s JOIN players p ON p.id = s.player_id WHERE s.game_id = ?",
        [view.session.game_id],
    ))
    assert shown == {name: str(score).replace("-", "\u2212") for name, score in saved.items()}
    assert saved == {"Ana": -9, "Ben": 8, "Cy": -10}


def test_three_games_in_one_app_leave_one_referee_thread_listening_to_the_same_buzzers(ui) -> None:
    before = set(referee_threads())  # left by tests that drive a referee without an app
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben"]))
    buzzers = table.app.buzzers
    for names in (["Cy", "Dee", "Eve"], ["Fay", "Gus"]):
        table.app.start_game(new_setup(SPICY, names, first=ANA))
        ui.step(2)
    assert len(set(referee_threads()) - before) == 1
    table.view = table.screen.view
    assert [seat.name for seat in table.view.seats] == ["Fay", "Gus"] and table.app.buzzers is buzzers
    table.declare("chili", 1)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.sheet().ids.title.text.startswith("Gus challenges ")


def referee_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "referee"]
