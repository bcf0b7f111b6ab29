"""Settings → League: this table's name, starting or joining a league, the tables asking, leaving.

The screen only draws the app's ``LeagueRunner`` (``companion.ui.league``) and
hands it the taps; the runner does them off the UI thread with the functions
behind the ``league`` commands.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui.bidi import named
from companion.ui.i18n import tr
from companion.ui.widgets import load_kv
from companion.ui.widgets.buttons import SecondaryButton
from companion.ui.widgets.keyboard import TextField  # noqa: F401  (used in the kv)

load_kv(__file__)


class FoundTable(SecondaryButton):
    """A table found on the network: a tap asks it to join its league."""

    member = ObjectProperty(None)


class AskingRow(BoxLayout):
    """"Table 3 asks to join the league: Accept / Refuse"."""

    device = StringProperty("")
    table = StringProperty("")


class LeagueScreen(Screen):
    league = ObjectProperty(None)
    """The app's ``LeagueRunner``, which this screen draws."""
    asked = StringProperty("")
    """The table this one asked to join, until the league's words say more."""

    def __init__(self, **kwargs: object) -> None:
        self.league = App.get_running_app().league
        super().__init__(**kwargs)

    def on_kv_post(self, _base: object) -> None:
        runner = self.league
        runner.bind(found=self._list_found, asking=self._list_asking, name=self._show_name)
        self._show_name(runner, runner.name)

    def on_pre_enter(self, *_args: object) -> None:
        runner = App.get_running_app().league
        runner.look(True)
        self._show_name(runner, runner.name)
        self._list_found(runner, runner.found)
        self._list_asking(runner, runner.asking)

    def on_leave(self, *_args: object) -> None:
        self.ids.name.focus = False  # the on-screen keyboard goes with the screen
        App.get_running_app().league.look(False)

    def rename(self) -> None:
        field = self.ids.name
        if field.text.strip() and field.text.strip() != App.get_running_app().league.name:
            App.get_running_app().league.rename(field.text)

    def start(self) -> None:
        App.get_running_app().league.start()

    def ask(self, found: FoundTable) -> None:
        self.asked = found.member.name or found.text
        App.get_running_app().league.join(found.member)

    def accept(self, device: str) -> None:
        App.get_running_app().league.accept(device)

    def refuse(self, device: str) -> None:
        App.get_running_app().league.refuse(device)

    def leave(self) -> None:
        self.asked = ""
        App.get_running_app().league.leave()

    def _show_name(self, _runner: object, name: str) -> None:
        if not self.ids.name.focus:
            self.ids.name.text = name

    def _list_found(self, _runner: object, found: list) -> None:
        box = self.ids.found
        box.clear_widgets()
        for member in found:  # by the code its own League screen shows beside its name, which anyone could say
            label = named("{name} · {code}", {"name": member.name}, code=member.code) if member.name else tr._(
                "A table · {code}").format(code=member.code)
            box.add_widget(FoundTable(text=label, member=member, on_release=self.ask))

    def _list_asking(self, _runner: object, asking: list) -> None:
        box = self.ids.asking
        box.clear_widgets()
        for device, name in asking:
            box.add_widget(AskingRow(device=device, table=name))
