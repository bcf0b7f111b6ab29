""""How to play" by touch: from Home, its pages turned; from the table's menu mid-game, on the situation now, and
Back on the same table; at every layout and in every language, no text leaves its box and every target is 48 dp."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kivy.metrics import dp
from kivy.uix.label import Label

from companion.config import UiConfig
from companion.languages import CODES
from companion.rules import SPICY, SWEET_SPICY, new_setup
from companion.rules.variants import VARIANTS
from companion.ui import theme
from companion.ui.i18n import tr
from companion.ui.screens.howto import HowtoRow
from companion.ui.widgets.buttons import BaseButton
from layouts import LAYOUTS, params
from table_helpers import Table, inside, on_screen


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    tr.switch("en")


def page_text(screen) -> str:
    """Every word the page's rows draw, title and lines, in order."""
    return "\n".join(label.text for row in reversed(screen.ids.rows.children)
                     for label in reversed(row.ids.words.children))


def open_from_home(ui, **start) -> object:
    app = ui.start(**start)
    ui.tap(app.screen("home").ids.how_to_play)
    ui.step(2)
    assert app.root.current == "howto"
    return app.screen("howto")


def test_from_home_the_pages_turn_and_each_names_its_variant_cards(ui) -> None:
    screen = open_from_home(ui)
    assert screen.profile == "spicy"
    spicy = page_text(screen)
    assert "A turn" in spicy and "A challenge" in spicy and "Trophies" in spicy and "The end" in spicy
    assert "Wild spice: every spice, and no number." in spicy
    assert all(card.name in spicy for card in VARIANTS.values())  # from Home: every card a game may have
    assert "Now" not in spicy  # no game at hand: no situation
    ui.tap(screen.ids.tab_sweet_spicy)
    sweet = page_text(screen)
    assert screen.profile == "sweet-spicy" and "Universal cards" in sweet and "It starts with a card" in sweet
    assert all(card.name in sweet for card in VARIANTS.values())
    ui.tap(screen.ids.tab_five_spices)
    five = page_text(screen)
    assert screen.profile == "five-spices" and "Only the next seat may challenge, as its turn." in five
    assert not any(card.name in five for card in VARIANTS.values()) and "Trophies" not in five
    ui.tap(screen.ids.header.ids.back)
    assert ui.app.root.current == "home"


def test_a_page_not_showing_is_worded_in_the_new_language_as_it_opens_not_at_the_switch(ui) -> None:
    """A language chosen in Settings does not rebuild a page no one sees; the page opens in that language."""
    screen = open_from_home(ui)
    ui.tap(screen.ids.header.ids.back)
    kept = list(screen.ids.rows.children)
    assert ui.app.change_settings(language="fr")
    assert screen.ids.rows.children == kept  # not drawn again while Home shows
    ui.tap(ui.app.screen("home").ids.how_to_play)
    ui.step(2)
    assert ui.app.root.current == "howto" and screen.ids.rows.children != kept
    assert "Un tour" in page_text(screen) and "A turn" not in page_text(screen)
    assert ui.app.change_settings(language="en")  # while it shows: worded again at once
    assert "A turn" in page_text(screen)


def test_at_the_table_it_opens_on_the_situation_now_and_back_is_the_same_table(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=0, variants={"start-it-up"}), gpio=False)
    table.declare("chili", 2)
    table.pass_turn()
    table.declare("chili", 7)  # Cy's chili 7: Ana to play
    table.declare("pepper")  # the pad's spice chosen, no number yet: Back must find it so
    before = (table.app.session.game.log, table.view.hint, table.screen.ids.pad.spice)
    ui.tap(table.screen.ids.menu)
    ui.tap(table.screen._menu.ids.how_to_play)
    ui.step(2)
    screen = table.app.screen("howto")
    assert table.app.root.current == "howto" and screen.profile == "spicy"
    first = reversed(screen.ids.rows.children).__next__()
    words = [label.text for label in reversed(first.ids.words.children)]
    assert words[0] == "Now: Ana to play"
    assert words[1] == "Chili 7 on the stack: say Chili 8, 9 or 10, or pass"  # start-it-up: 1 to 3 only after an 8
    assert words[2] == "Until Ana plays or passes, any other seat may challenge Cy's card."
    text = page_text(screen)
    assert "Start it up" in text and "Turn it up" not in text  # the game's own variant card only
    ui.tap(screen.ids.header.ids.back)
    assert table.app.root.current == "table"
    assert (table.app.session.game.log, table.view.hint, table.screen.ids.pad.spice) == before
    table.declare("chili", 9)  # the table plays on from where it was
    assert table.view.claim_number == 9


def test_the_menu_closes_on_a_tap_beside_it_and_leads_home(ui) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben"], first=0), gpio=False)
    ui.tap(table.screen.ids.menu)
    menu = table.screen._menu
    assert menu.parent is not None
    assert all(min(button.size) >= dp(theme.TARGET) for button in (menu.ids.how_to_play, menu.ids.home))
    ui.tap_at(20, 20)
    assert menu.parent is None and table.app.root.current == "table" and table.view.stack == 0
    ui.tap(table.screen.ids.menu)
    ui.tap(menu.ids.home)
    assert table.app.root.current == "home"


def fits(ui, screen) -> list[str]:
    """What leaves its box on the page shown: a label wider or taller than its row, a row off the scroll's
    width, a target under 48 dp."""
    wrong = []
    scroll = on_screen(screen.ids.scroll)
    for row in screen.ids.rows.children:
        box = on_screen(row)
        if box[0] < scroll[0] - 1 or box[2] > scroll[2] + 1:
            wrong.append(f"a row leaves the page: {row.row.title}")
        for label in row.walk(restrict=True):
            if isinstance(label, Label) and label.text:
                label.texture_update()
                if not inside(on_screen(label), box) or label.texture_size[0] > label.width + 1:
                    wrong.append(f"{label.text!r} leaves its row")
    return wrong + buttons_fit(screen)


def buttons_fit(parent) -> list[str]:
    """Each button's words whole inside it, and each button 48 dp each way at least."""
    wrong = []
    for widget in parent.walk(restrict=True):
        if isinstance(widget, BaseButton) and min(widget.size) < dp(theme.TARGET) - 0.5:
            wrong.append(f"{widget.text!r} is under 48 dp")
        if isinstance(widget, BaseButton):
            words = next(child for child in widget.children if isinstance(child, Label))
            if words.text and words.texture_size[0] > widget.width - 2 * dp(8):
                wrong.append(f"{words.text!r} does not fit its button")
    return wrong


@pytest.mark.parametrize(("size", "flat"), params(LAYOUTS))
@pytest.mark.parametrize("code", CODES)
def test_every_page_fits_in_every_language(ui, code: str, size: tuple[int, int], flat: bool) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Maximilian-Alexander", "Ben", "Zoë"], first=0,
                                variants={"change-your-luck", "chili-reverses"}),
                  gpio=False, size=size, face_seats=flat, settings=UiConfig(language=code, face_seats=flat))
    table.declare("lemon", 2)
    ui.tap(table.screen.ids.menu)
    menu = table.screen._menu
    assert inside(on_screen(menu.ids.choices), (0, 0, *size))  # under its button, whole on the screen
    assert not buttons_fit(menu)
    ui.tap(menu.ids.how_to_play)
    ui.step(2)
    screen = table.app.screen("howto")
    for tab in ("tab_sweet_spicy", "tab_spicy", "tab_five_spices"):
        ui.tap(screen.ids[tab])
        ui.step(2)
        assert not fits(ui, screen), (tab, fits(ui, screen))
        assert all(isinstance(row, HowtoRow) for row in screen.ids.rows.children)
    home = table.app.screen("home")
    ui.tap(screen.ids.tab_sweet_spicy)
    ui.tap(screen.ids.header.ids.back)
    assert table.app.root.current == "table"
    table.app.show("home")
    ui.step(2)
    for button in (home.ids.same_table, home.ids.how_to_play, home.ids.players):
        words = next(child for child in button.children if isinstance(child, Label))
        assert words.texture_size[0] <= button.width - 2 * dp(8) and inside(on_screen(button), (0, 0, *size))
