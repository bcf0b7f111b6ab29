"""The challenge's two big choices carry the mockup's marks: the claim's spice struck through, its number
struck through, drawn in the window where the challenger slaps them (standing, portrait, lying flat)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from conftest import window_drawn
from kivy.metrics import dp
from kivy.uix.label import Label

from companion.rules import SPICY, SWEET_SPICY, Play, Profile, new_setup
from companion.table.session import Session
from companion.store import Store
from companion.ui import shapes, theme
from companion.ui.widgets.icon import Icon
from companion.ui.widgets.marks import StruckMark
from layouts import FLAT, LANDSCAPE, PORTRAIT, WIDE
from table_helpers import Table, inside, on_screen, within

ANA, BEN, CY = 0, 1, 2


def window_pixels() -> tuple[bytes, int]:
    """What the window shows (with the sheet floating over the root), and its width, rows from the bottom."""
    return window_drawn(lambda fbo: bytes(fbo.pixels)), Window.width


def pixel_at(pixels: bytes, width: int, x: float, y: float) -> tuple[int, ...]:
    start = 4 * (int(y) * width + int(x))
    return tuple(pixels[start : start + 3])


def near(colour: tuple[int, ...], rgba: tuple[float, ...], by: int = 24) -> bool:
    return all(abs(value - round(255 * want)) <= by for value, want in zip(colour, rgba[:3], strict=True))


@pytest.mark.parametrize(("profile", "spice", "number", "size", "flat"), [
    pytest.param(profile, spice, number, *layout, id=f"{spice}-{layout}") for profile, spice, number, layout in (
        (SPICY, "chili", 3, LANDSCAPE), (SWEET_SPICY, "lemon", 2, PORTRAIT), (SPICY, "pepper", 1, WIDE),
        (SPICY, "wasabi", 3, FLAT))
])
def test_the_challenge_buttons_strike_the_claims_spice_and_its_number_not_a_wild_card(
    ui: Any, profile: Profile, spice: str, number: int, size: tuple[int, int], flat: bool,
) -> None:
    table = Table(ui, new_setup(profile, ["Ana", "Ben", "Cy"], first=ANA), size=size, face_seats=flat)
    table.declare(spice, number)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    sheet = table.sheet()
    pixels, width = window_pixels()
    for button, kind in ((sheet.ids.not_spice, "spice"), (sheet.ids.not_number, "number")):
        mark = within(button, StruckMark)
        assert (mark.kind, mark.spice) == (kind, spice)
        assert inside(on_screen(mark), on_screen(button)) and min(mark.size) >= dp(64)  # read from a metre
        assert not [icon for icon in button.walk(restrict=True) if isinstance(icon, Icon) and "wild" in icon.source]
        centre = mark.to_window(*mark.center)
        assert near(pixel_at(pixels, width, *centre), theme.WHITE), f"no strike across the {kind} mark"
    spice_mark, number_mark = sheet.ids.not_spice.ids.mark, sheet.ids.not_number.ids.mark
    assert within(spice_mark, Icon).source == theme.icon(spice)
    assert within(number_mark, Label).text == str(number)
    # Off the strike, the number's card is the claim's spice's colour (the lower right stays clear of the strike).
    corner = number_mark.to_window(number_mark.right - number_mark.width * 0.2, number_mark.y + number_mark.height * 0.2)
    assert near(pixel_at(pixels, width, *corner), theme.SPICE_FILL[spice])


def textures_made() -> int:
    return sum(make.cache_info().misses for make in (shapes.round_texture, shapes.rounded_texture,
                                                      shapes.framed_texture))


def test_the_first_challenge_sheet_of_a_game_finds_its_textures_made_ahead(ui: Any) -> None:
    """The table prepares the challenge sheet and the seats' buzz looks on the frame after it is drawn
    (``TableScreen.prepare``): the first challenge then makes no texture, as the later ones make none.
    The closed sheet keeps its stand-in buzz drawn until then, and draws the real one when it shows."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ui.step(3)
    sheet = table.screen._sheets["challenge"]
    assert sheet.buzz is not None and table.view.buzz is None and table.screen.sheet_name == ""
    table.declare("chili", 2)
    before = textures_made()
    table.buzz((CY, 0.0), (BEN, 0.001))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    assert textures_made() == before
    assert sheet.buzz is table.view.buzz and sheet.ids.title.text.startswith("Cy challenges ")
    assert "Ben +1 ms" in sheet.ids.later.text


def test_a_game_resumed_on_its_challenge_never_shows_the_stand_in_buzz(ui: Any, tmp_path: Path) -> None:
    """The power went while Cy was naming spice or number: the table reopens on Cy's challenge, and the
    frames in which the table prepares its sheets show Cy's, never the stand-in's."""
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
        session.apply(Play(ANA, "chili", 2))
        session.keep_buzz(CY)
    app = ui.start()
    screen = app.screen("table")
    sheet = screen._sheets["challenge"]
    assert screen.sheet_name == "challenge" and sheet.ids.title.text.startswith("Cy challenges ")
    screen.prepare()  # as on the frame after the table opened: watched frame by frame here
    for _ in range(4):
        assert sheet.buzz is screen.view.buzz and sheet.ids.title.text.startswith("Cy challenges ")
        ui.step()
