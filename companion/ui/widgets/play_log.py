""""Log this play": a layer over the end screen or a saved game, with the BG Stats link as a QR code.

The link is the model's (``companion.bgstats``); this layer only draws it, says
what to do with it, and names what was left out to make it fit.
"""

from __future__ import annotations


from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.widget import Widget

from companion.bgstats import fitted_link, play_record
from companion.errors import CompanionError
from companion.store import SavedGame
from companion.ui.i18n import say, tr
from companion.ui.widgets.layer import Layer
from companion.ui.widgets import load_kv
from companion.ui.widgets.qr import QrCode


class PlayLog(Layer):
    """Takes every touch while it shows: only its Close button does anything."""

    url = StringProperty("")
    title = StringProperty("")
    lines = ListProperty([])
    """The play as the phone will get it: one line a seat."""
    dropped = ListProperty([])

    def show(self, parent: Widget, saved: SavedGame, uid: str, bgg_id: int) -> None:
        play = play_record(saved, uid, bgg_id)
        self.url, self.dropped = fitted_link(play)
        self.title = f"{play['game']['name']} · {play['playDate'][:16]}"
        self.lines = [
            p["name"] + ("" if p.get("score") is None else f"  {p['score']:+d}".replace("-", "−"))
            + ("  · " + tr._("winner") if p.get("winner") else "")
            for p in play["players"]
        ]
        if self.parent is None:
            parent.add_widget(self)

    def close(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)


def show_play_log(screen: Widget, game_id: int) -> None:
    """The layer over ``screen`` for a saved game (the end screen's, or one from the list)."""
    app = App.get_running_app()
    try:
        saved = app.store.load(game_id)
        PlayLog().show(screen, saved, app.store.uid_of(game_id), app.config_.bgstats.bgg_id(saved.setup.profile.id))
    except CompanionError as exc:
        app.notify(say(exc.reason))


__all__ = ["PlayLog", "QrCode", "show_play_log"]
load_kv(__file__)
