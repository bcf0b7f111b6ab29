"""The setting "Show the game on phones": the page's server while it is on, fed from the table.

At each change of the table (``TableView.on_table``) the server gets a
function of frozen values (``companion.ui.phone_page.phone_snapshot`` of the
table model, the game, the names): its own thread makes the snapshot in words
and sends it, so the table's frame only pays for handing it over.

On the kiosk the service starts with no network: turning the setting on asks
the root helper (``companion.phones.switch``) to open the local network, which
restarts the table once; turning it off closes it again. On a desktop the
page is served at once. ``status`` says which, for the Settings screen.
"""

from __future__ import annotations

import os
from functools import partial
from weakref import proxy
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import OptionProperty, StringProperty

from companion.phones import switch
from companion.ui.i18n import tr

if TYPE_CHECKING:
    from companion.phones.server import PhoneServer
    from companion.ui.view import TableView

RETRY_SECONDS = 10.0
"""How often the table looks again for its network while the setting is on and it has none (Wi-Fi joining)."""


class Phones(EventDispatcher):
    """The page's server while the setting is on and a game is at the table."""

    status = OptionProperty("off", options=["off", "opening", "no-network", "no-game", "up", "failed"])
    """off; opening (the helper is opening the kiosk's network); no-network (no private LAN address);
    no-game (on, and the page opens with the next game); up (``url`` is served); failed (``problem``)."""
    url = StringProperty("")
    problem = StringProperty("")
    said = StringProperty("")
    """The status in words, for the Settings screen; said again in a new language."""

    def __init__(self, key_file: Path) -> None:
        super().__init__()
        self.key_file = key_file
        self.on = False
        self.server: PhoneServer | None = None
        self.view: TableView | None = None
        self._game_id: int | None = None
        self._retry = Clock.create_trigger(lambda _dt: self._open(), RETRY_SECONDS)
        self.bind(status=self._say, problem=self._say)
        self._language = tr.fbind("_", _say_again, proxy(self))
        self._say()

    def turn(self, on: bool) -> None:
        self.on = on
        if on:
            self._open()
            return
        self._close()
        self.status = "off"
        if self._kiosk() and switch.DROP_IN.exists():
            self._ask("off")

    def follow(self, view: TableView | None, game_id: int | None = None) -> None:
        """The table now shown (None: no game); a new game has a new token, so its own page."""
        if self.view is not None:
            self.view.unbind(on_table=self.publish)
        self.view = view
        if game_id != self._game_id:
            self._close()
            self._game_id = game_id
        if view is not None:
            view.bind(on_table=self.publish)
        if self.on:
            self._open()

    def publish(self, *_args: object) -> None:
        view, server = self.view, self.server
        if view is None or server is None or view.model is None:
            return
        from companion.ui.phone_page import phone_snapshot

        names = tuple(seat.name for seat in view.seats)
        colours = tuple("#{:02X}{:02X}{:02X}".format(*(round(c * 255) for c in seat.colour[:3])) for seat in view.seats)
        server.publish(partial(phone_snapshot, view.model, view.session.game, names, colours))

    def close(self) -> None:
        """The app stops: the page, its retries and its words in the table's language go with it."""
        self._close()
        self._retry.cancel()
        tr.unbind_uid("_", self._language)

    def _say(self, *_args: object) -> None:
        self.said = status_words(self.status, self.problem)

    def _open(self) -> None:
        if self.server is not None:
            return
        from companion.phones import address  # with the setting on only: not the first frame's

        host = address.lan_address()
        if host is None:
            if self._kiosk() and not switch.DROP_IN.exists():
                self.status = "opening"
                self._ask("on")  # a request that cannot be written says so instead
            else:
                self.status = "no-network"
                self._retry()
            return
        if self.view is None or self._game_id is None:
            self.status = "no-game"
            return
        from companion.phones.server import PhoneServer

        try:
            self.server = PhoneServer(host, address.game_token(self.key_file, self._game_id), address.PORT).start()
        except OSError as exc:
            self.status, self.problem = "failed", exc.strerror or str(exc)
            return
        self.url, self.status = self.server.url, "up"
        self.publish()

    def _close(self) -> None:
        """Stops the server before returning (at most its 0.1 s poll): the next game's binds the same port."""
        self._retry.cancel()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.url = ""

    def _kiosk(self) -> bool:
        """Running as the service: the runtime folder the helper reads is ours to write."""
        return os.access(switch.REQUEST.parent, os.W_OK | os.X_OK)

    def _ask(self, word: str) -> None:
        from companion.pi.takehome import write_request

        try:
            write_request(switch.REQUEST, word)
        except OSError as exc:
            self.status, self.problem = "failed", exc.strerror or str(exc)


def status_words(status: str, problem: str) -> str:
    """The setting's line on the Settings screen: what the page is doing now."""
    words = {
        "off": tr._("A live page of the game for phones on the same Wi-Fi"),
        "opening": tr._("Opening the network: the table restarts once"),
        "no-network": tr._("No local network: connect the table to the Wi-Fi"),
        "no-game": tr._("On: the page opens with the next game"),
        "up": tr._("On: scan the code on the table or the home screen"),
        "failed": tr._("The page could not start: {problem}").format(problem=problem),
    }
    return words.get(status, "")


def _say_again(phones: Phones, *_args: object) -> None:
    phones._say()
