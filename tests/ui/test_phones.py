"""The setting "Show the game on phones", by touch: it starts the page's server and its code, and stops both."""

from __future__ import annotations

import gc
import http.client
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from kivy.metrics import dp

from companion.ui import theme
from companion.ui.widgets.phone_link import PhoneCode, PhoneLink
from scenes_table import start
from test_play_log import decoded


def tap_setting(ui, name: str) -> None:
    """Scroll the Settings screen to the button, as a finger would, and tap it."""
    settings = ui.app.screen("settings")
    button = settings.ids[name]
    settings.children[0].children[0].scroll_to(button, animate=False)
    ui.step(3)
    assert button.height >= dp(theme.TARGET)
    ui.tap(button)


def first_event(url: str, until: Callable[[dict], bool] = lambda _event: True) -> dict:
    """What a phone opening the page's stream gets: the first event, or the first for which ``until`` holds
    (the snapshot of a change is made on the server's thread, a moment after the change)."""
    host_port, token = url.removeprefix("http://").rstrip("/").split("/")
    connection = http.client.HTTPConnection(host_port, timeout=10)
    connection.request("GET", f"/{token}/events")
    response = connection.getresponse()
    assert response.status == 200
    for line in response:
        if line.startswith(b"data: ") and until(event := json.loads(line[6:])):
            connection.close()
            return event
    raise AssertionError("the stream ended without the event")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda size: "x".join(map(str, size)))
def test_turned_on_by_touch_phones_follow_the_table_and_turned_off_the_page_is_gone(
    ui, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = ui.start(size=size)
    view = start(ui)
    table = app.screen("table")
    assert app.phones.status == "off" and not table.ids.phone_link.shown
    app.show("settings")
    ui.step(3)
    tap_setting(ui, "phones_on")
    assert app.prefs.ui.phones and app.phones.status == "up"
    url = app.phones.url
    assert url.startswith("http://127.0.0.1:") and url.endswith("/")
    page = first_event(url)
    assert [seat["name"] for seat in page["seats"]] == ["Ana", "Ben", "Cy", "Dee"]
    assert page["turn"] == "Ana to play" and page["lang"] == "en"

    app.root.current = "table"
    ui.step(3)
    assert table.ids.phone_link.shown and table.ids.phone_link.x > table.ids.title.right
    view.declare("chili", 3)
    ui.step(2)
    played = first_event(url, lambda event: event["stack"]["count"] == 1)
    assert played["stack"] == {"count": 1, "claim": "Chili 3"} and played["turn"] == "Ben to play"
    ui.tap(table.ids.phone_link)
    layer = ui.find(PhoneLink)
    assert layer.ids.code.module_px >= 3
    assert decoded(ui.screenshot(tmp_path / "table.png")) == [url]
    ui.tap(layer.ids.close)
    assert not ui.find_all(PhoneLink)

    app.root.current = "home"
    ui.step(3)
    code = ui.find(PhoneCode)
    assert code.text == url and code.width >= dp(theme.TARGET)
    ui.tap(code)
    assert decoded(ui.screenshot(tmp_path / "home.png")) == [url]
    ui.tap(ui.find(PhoneLink).ids.close)

    app.show("settings")
    ui.step(3)
    tap_setting(ui, "phones_off")
    assert not app.prefs.ui.phones and app.phones.status == "off" and app.phones.url == ""
    with pytest.raises(OSError):
        first_event(url)
    app.root.current = "table"
    ui.step(3)
    assert not table.ids.phone_link.shown and not ui.find_all(PhoneCode)


def test_a_table_that_cannot_reach_its_network_asks_the_helper_and_says_so(ui, own_user_folders: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The kiosk starts without a network: On asks the root helper for it (a request of "on", nothing else)."""
    from companion.phones import address, switch

    monkeypatch.setattr(address, "lan_address", lambda: None)
    switch.REQUEST.parent.mkdir(parents=True)
    app = ui.start()
    start(ui)
    app.show("settings")
    ui.step(3)
    tap_setting(ui, "phones_on")
    assert app.phones.status == "opening" and switch.REQUEST.read_text() == "on\n"
    assert oct(switch.REQUEST.stat().st_mode & 0o777) == "0o640"
    assert "restarts once" in app.screen("settings").ids.phones_on.parent.parent.explanation
    switch.DROP_IN.parent.parent.mkdir()  # /etc/systemd/system
    switch.put(True, switch.DROP_IN)  # the helper did its part; then Off asks it to close the network again
    switch.REQUEST.unlink()
    tap_setting(ui, "phones_off")
    assert app.phones.status == "off" and switch.REQUEST.read_text() == "off\n"


@pytest.mark.parametrize(
    ("size", "flat"), [((800, 480), False), ((720, 1280), False), ((800, 480), True)],
    ids=["800x480", "720x1280", "800x480-flat"],
)
def test_the_tables_menu_shows_the_code_and_a_tap_on_it_shows_it_whole_screen(
    ui, tmp_path: Path, size: tuple[int, int], flat: bool
) -> None:
    app = ui.start(size=size)
    start(ui)
    if flat:
        app.change_settings(face_seats=True)
    table = app.screen("table")
    ui.tap(table.ids.menu)
    assert table._menu.ids.phones.parent is None  # the page is not served: no code
    ui.tap_at(1, 1)  # beside the menu: it closes
    app.change_settings(phones=True)
    ui.step(3)
    url = app.phones.url
    ui.tap(table.ids.menu)
    menu = table._menu
    code = menu.ids.phone_code
    assert menu.ids.phones.parent is not None and code.get_root_window() is not None and code.text == url
    assert code.height >= dp(theme.TARGET) and code.module_px >= 3
    assert menu.ids.choices.y >= 0  # the whole menu on the screen, the code too
    assert decoded(ui.screenshot(tmp_path / "menu.png")) == [url]
    ui.tap(code)
    assert menu.parent is None  # the menu closes, the code shows whole-screen
    layer = ui.find(PhoneLink)
    assert layer.ids.code.module_px > code.module_px
    ui.tap(layer.ids.close)
    app.change_settings(phones=False)
    ui.step(3)
    gc.collect()  # what the menu keeps while the page is off must outlive a collection
    ui.tap(table.ids.menu)
    assert not decoded(ui.screenshot(tmp_path / "off.png"))
    ui.tap_at(1, 1)
    app.change_settings(phones=True)
    ui.step(3)
    ui.tap(table.ids.menu)
    assert decoded(ui.screenshot(tmp_path / "on-again.png")) == [app.phones.url]
