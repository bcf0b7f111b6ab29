""""Log this play": the QR code on the end screen and on a saved game, read back by a real QR decoder (zbar)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from kivy.core.image import Image as CoreImage
from pyzbar import pyzbar

from companion.bgstats import LINK
from companion.ui.widgets.qr import QrCode
from scenes_table import end
from layouts import SHAPES, sizes


def decoded(png: Path) -> list[str]:
    """What zbar reads in the screenshot, from its grey levels."""
    image = CoreImage(str(png), keep_data=True).image._data[0]
    assert image.fmt in ("rgba", "rgb")
    step = 4 if image.fmt == "rgba" else 3
    grey = bytes(image.data[1::step])
    return [code.data.decode("utf-8") for code in pyzbar.decode((grey, image.width, image.height))]


def play_in(url: str) -> dict:
    assert url.startswith(LINK)
    return json.loads(unquote(url[len(LINK):]))


@pytest.mark.parametrize("size", sizes(SHAPES))
def test_the_end_screen_qr_code_decodes_to_the_saved_game(ui, tmp_path: Path, size: tuple[int, int]) -> None:
    app = ui.start(size=size)
    end(ui)
    assert app.root.current == "end"
    ui.tap(app.screen("end").ids.log_play)
    qr = ui.find(QrCode)
    assert qr.module_px >= 3
    (url,) = decoded(ui.screenshot(tmp_path / "end.png"))
    play = play_in(url)
    game_id = app.session.game_id
    saved = app.store.load(game_id)
    state = saved.game().state
    assert play["sourcePlayId"] == app.store.uid_of(game_id)
    assert play["game"] == {"name": "Spicy", "bggId": 299169, "sourceGameId": "spicy", "highestWins": True,
                            "noPoints": False}
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        (seat.name, state.score(i), i in state.winners, i == saved.setup.first) for i, seat in enumerate(state.seats)
    ]
    assert play["durationMin"] >= 1 and play["playDate"][:4] == saved.started_at[:4]


def test_a_saved_game_has_the_same_qr_code_and_close_takes_it_away(ui, tmp_path: Path) -> None:
    app = ui.start()
    end(ui)
    game_id = app.session.game_id
    ui.tap(app.screen("end").ids.log_play)
    (on_end,) = decoded(ui.screenshot(tmp_path / "end.png"))
    ui.tap(ui.find(QrCode).parent.parent.ids.close)
    assert ui.find_all(QrCode) == []
    page = app.screen("game")
    assert page.open(game_id)
    app.show("game")
    ui.step(2)
    ui.tap(page.ids.log_play)
    assert decoded(ui.screenshot(tmp_path / "games.png")) == [on_end]
