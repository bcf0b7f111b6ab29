"""The setting "Show the game on phones": the page's server while it is on, fed from the table.

At each change of the table (``TableView.on_table``) the server gets a
function of frozen values (the table model, the game, the names): its own
thread makes the snapshot in words and sends it, so the table's frame only
pays for handing it over. Every fact comes from the model (``companion.
table_model``: the counts, the seat to play, the World's End level, the
challenges decided), every word from ``companion.ui.words``; the page draws.

On the kiosk the service starts with no network: turning the setting on asks
the root helper (``companion.phones.switch``) to open the local network, which
restarts the table once; turning it off closes it again. On a desktop the
page is served at once. ``status`` says which, for the Settings screen.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import OptionProperty, StringProperty

from companion.languages import language
from companion.phones import switch
from companion.phones.address import game_token, lan_address
from companion.phones.server import PhoneServer
from companion.rules import Game
from companion.table_model import TableModel, challenges
from companion.takehome import write_request
from companion.ui.i18n import tr
from companion.ui.view import TableView
from companion.ui.words import claim_words, end_reason_text, hint_words, pile_words, result_words

PORT = 8137
"""A fixed port, so the address a phone holds is the same after the Pi restarts and its page reconnects."""
RETRY_SECONDS = 10.0
"""How often the table looks again for its network while the setting is on and it has none (Wi-Fi joining)."""


def phone_snapshot(model: TableModel, game: Game, names: tuple[str, ...], colours: tuple[str, ...]) -> dict[str, Any]:
    """What the phone page shows, in the table's language: made from frozen values, on any thread."""
    row = language(tr.language)
    return {
        "lang": row.code,
        "dir": row.direction,
        "title": model.title,
        "words": {
            "name": tr._("Player"), "hand": tr._("Hand"), "won": tr._("Won"), "trophies": tr._("Trophies"),
            "score": tr._("Score"), "stack": tr._("Stack"), "draw_pile": tr._("Draw pile"),
            "challenges": tr._("Challenges"), "no_challenge": tr._("No challenge yet"),
            "reconnecting": tr._("Reconnecting to the table…"),
        },
        "turn": tr._("{name} to play").format(name=names[model.turn]) if model.turn >= 0 else "",
        "hint": hint_words(model.hint, names),
        "stack": {"count": model.stack,
                  "claim": claim_words(model.claim_spice, model.claim_number or None) if model.claim_spice else ""},
        "draw_pile": {"count": model.draw_pile, "level": model.end_level if model.has_end_card else "calm",
                      "warning": pile_words(model.end_level, model.has_end_card)},
        "seats": [
            {"name": name, "colour": colour, "hand": seat.hand + seat.universals, "won": seat.won + seat.won_universals,
             "trophies": seat.trophies, "score": "" if seat.score is None else str(seat.score),
             "to_play": seat.to_play, "winner": seat.winner}
            for name, colour, seat in zip(names, colours, model.seat_models, strict=True)
        ],
        "end": end_reason_text(model.end_reason) if model.ended else "",
        "challenges": [{"title": said.title, "detail": said.detail.text}
                       for said in (result_words(decided, names) for decided in challenges(game))],
    }


class Phones(EventDispatcher):
    """The page's server while the setting is on and a game is at the table."""

    status = OptionProperty("off", options=["off", "opening", "no-network", "no-game", "up", "failed"])
    """off; opening (the helper is opening the kiosk's network); no-network (no private LAN address);
    no-game (on, and the page opens with the next game); up (``url`` is served); failed (``problem``)."""
    url = StringProperty("")
    problem = StringProperty("")

    def __init__(self, key_file: Path, *, request: Path = switch.REQUEST, drop_in: Path = switch.DROP_IN,
                 find_host: Any = lan_address, port: int = PORT) -> None:
        super().__init__()
        self.key_file = key_file
        self.request, self.drop_in = request, drop_in
        self.find_host, self.port = find_host, port
        self.on = False
        self.server: PhoneServer | None = None
        self.view: TableView | None = None
        self._game_id: int | None = None
        self._retry = Clock.create_trigger(lambda _dt: self._open(), RETRY_SECONDS)

    def turn(self, on: bool) -> None:
        self.on = on
        if on:
            self._open()
            return
        self._close()
        self.status = "off"
        if self._kiosk() and self.drop_in.exists():
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
        names = tuple(seat.name for seat in view.seats)
        colours = tuple("#{:02X}{:02X}{:02X}".format(*(round(c * 255) for c in seat.colour[:3])) for seat in view.seats)
        server.publish(partial(phone_snapshot, view.model, view.session.game, names, colours))

    def close(self) -> None:
        self._close()

    def _open(self) -> None:
        if self.server is not None:
            return
        host = self.find_host()
        if host is None:
            if self._kiosk() and not self.drop_in.exists():
                self._ask("on")
                self.status = "opening"
            else:
                self.status = "no-network"
                self._retry()
            return
        if self.view is None or self._game_id is None:
            self.status = "no-game"
            return
        try:
            self.server = PhoneServer(host, game_token(self.key_file, self._game_id), self.port).start()
        except OSError as exc:
            self.status, self.problem = "failed", exc.strerror or str(exc)
            return
        self.url, self.status = self.server.url, "up"
        self.publish()

    def _close(self) -> None:
        self._retry.cancel()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self.url = ""

    def _kiosk(self) -> bool:
        """Running as the service: the runtime folder the helper reads is ours to write."""
        return os.access(self.request.parent, os.W_OK | os.X_OK)

    def _ask(self, word: str) -> None:
        try:
            write_request(self.request, word)
        except OSError as exc:
            self.status, self.problem = "failed", exc.strerror or str(exc)
