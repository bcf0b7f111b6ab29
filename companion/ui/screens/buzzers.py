"""Buzzer check: press each buzzer and see it light, on the screen and on its own LED.

Shows the wiring as it is (buzzer 1 is the first pin or box input), so a loose
wire or a swapped pair is found before a game, not during a challenge.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.ui.i18n import tr
from companion.ui.sounds import buzz
from companion.ui.threads import mainthread_now
from companion.ui.widgets import load_kv

load_kv(__file__)

LIT_SECONDS = 0.8


class BuzzersScreen(Screen):
    last = StringProperty("")
    kind = StringProperty("")
    lights: list[Widget] = []
    """One light a buzzer, in wiring order."""

    def on_pre_enter(self, *_args: object) -> None:
        app = App.get_running_app()
        buzzers = app.buzzers
        count = buzzers.seats if buzzers is not None else 0
        grid = self.ids.lights
        grid.clear_widgets()
        for buzzer in range(count):
            grid.add_widget(Factory.BuzzerLight(text=str(buzzer + 1)))
        self.lights = list(grid.children[::-1])
        self.last = ""
        self.kind = buzzers.kind if buzzers is not None else ""
        app.listen(self._pressed)

    def on_leave(self, *_args: object) -> None:
        app = App.get_running_app()
        app.listen(None)
        if app.referee is not None:
            app.referee.lights_off()

    def _pressed(self, buzzer: int, _edge_time: float) -> None:
        self.light(buzzer)

    @mainthread_now
    def light(self, buzzer: int) -> None:
        if not 0 <= buzzer < len(self.lights):
            return
        app = App.get_running_app()
        self.lights[buzzer].lit = True
        self.last = tr._("Buzzer {number} pressed").format(number=buzzer + 1)
        app.play_sound(buzz(buzzer))  # no seat has it here: its place in the wiring
        if app.referee is not None:
            app.referee.light([buzzer])
        Clock.schedule_once(lambda _dt: self._unlight(buzzer), LIT_SECONDS)

    def _unlight(self, buzzer: int) -> None:
        self.lights[buzzer].lit = False
