"""The Kivy app: one window, a screen manager, the store and the buzzers.

Screens are registered by name from ``companion/ui/screens/<name>.py``; each
module loads its own ``.kv``. The app owns the long-lived things (the store,
the buzzers, the settings, the sounds) so a screen can come and go without
reopening them. Start-up never ends in a traceback: a database that cannot be
opened gets a screen that says so, and whatever the store, the buzzers or the
settings file had to work around is said once, in words.

The first frame is the home screen alone. The store and the buzzers (and
their imports: sqlite-utils, gpiozero) open on the frame after it, and the
toast and the on-screen keyboard are made after them, so the window shows as
soon as a bare Kivy app's would (docs/PERFORMANCE.md). Either is made on first
use if it is needed sooner.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.screenmanager import Screen, ScreenManager

from companion.config import TABLE_WAIT, Config, ConfigError, UiConfig
from companion.languages import language
from companion.errors import CompanionError
from companion.pi.logs import log_buzzers
from companion.ui import theme
from companion.ui.bidi import named
from companion.ui.i18n import listed, say, tr, when
from companion.table.seating import Seating
from companion.ui.phones import Phones
from companion.ui.prefs import Prefs, default_prefs_path
from companion.ui.sounds import Sounds
from companion.ui.speech import Speech
from companion.ui.threads import after_drawn, cancel_pending, mainthread_now
from companion.ui.widgets.pages import Pages
from companion.ui.widgets.mirror import relayout

if TYPE_CHECKING:
    from kivy.event import EventDispatcher

    from companion.buzzers import Buzzers, Referee
    from companion.buzzers.backend import PressHandler
    from companion.rules import Setup
    from companion.rules.errors import Reason
    from companion.table.session import Session
    from companion.store import Store, StoreError
    from companion.ui.widgets.keyboard import ScreenKeyboard
    from companion.ui.widgets.toast import Toast


NOTICE_SECONDS = 10.0
"""Start-up notices stay longer than a toast: nobody is looking at the screen yet."""
PREPARE_END_SECONDS = 2.0
"""The end screen makes its rows this long after a table opens, once the table is drawn and before a
card can have been played."""
AHEAD = ("table", "end")
"""Screens built while home shows, one a frame after the store opens: starting a game and ending one
then build nothing."""

T = TypeVar("T")


class SpicyApp(App):
    title = "Spicy Companion"
    face_seats = BooleanProperty(False)
    """Seat panels turn to face their edges (a screen lying flat); the table binds to it."""
    session = ObjectProperty(None, allownone=True)
    """The live game, when there is one."""
    seating = ObjectProperty(None, allownone=True)
    """The live game's :class:`Seating`: each seat's colour and the buzzer bound to it."""
    prefs_ui = ObjectProperty(None, rebind=True)
    """The settings in force (a ``UiConfig``), for the settings screen to show."""
    warmed = BooleanProperty(False)
    """Start-up's work after the first frame is done: the store and buzzers open, the screens, the toast and
    the on-screen keyboard made ahead."""

    def __init__(self, config: Config, *, pin_factory: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.config_ = config
        self.pin_factory = pin_factory
        self.store: Store | None = None
        self.buzzers: Buzzers | None = None
        self.referee: Referee | None = None
        """The buzzers' one owner while the app runs: screens post to it and never touch a device."""
        self.prefs = Prefs(default_prefs_path(), config.ui)
        self.sounds = Sounds(enabled=self.prefs.ui.sounds)
        self.speech = Speech(self.prefs.ui.speech, self.prefs.ui.speech_volume, language(self.prefs.ui.language).voice)
        self.face_seats = self.prefs.ui.face_seats
        self.prefs_ui = self.prefs.ui
        self._toast: Toast | None = None
        self._screen_keyboard: ScreenKeyboard | None = None
        self.notices: list[str] = []
        """What start-up had to work around, shown once when the window opens."""
        tr.switch(self.prefs.ui.language)
        self.phones = Phones(default_prefs_path().with_name("phones.key"))
        """The phone page, while the setting is on: it follows the table shown."""
        self.phones.turn(self.prefs.ui.phones)
        from companion.ui.league import LeagueRunner

        self.league = LeagueRunner(config.league, config.store.db, min(config.store.busy_timeout, TABLE_WAIT),
                                   lambda text: self.notify(text, NOTICE_SECONDS))
        """The league (README "Club night"): kept in step on its own thread while it is on."""

    @property
    def toast(self) -> Toast:
        """The one toast, made on first use (after the first frame, or by the first message)."""
        if self._toast is None:
            from companion.ui.widgets.toast import Toast

            self._toast = Toast()
        return self._toast

    @property
    def screen_keyboard(self) -> ScreenKeyboard:
        """The one on-screen keyboard; every ``TextField`` calls it up when the table has no keyboard.
        Made on first use: after the first frame, or by the first field to take the focus."""
        if self._screen_keyboard is None:
            from companion.ui.widgets.keyboard import ScreenKeyboard

            self._screen_keyboard = ScreenKeyboard(wanted=self._typing_on_screen)
            self._screen_keyboard.bind(parent=self._clear_toast, top=self._clear_toast)
        return self._screen_keyboard

    def build(self) -> ScreenManager:
        Window.clearcolor = theme.FELT_EDGE
        theme.scale_type(*Window.size)
        manager = Pages(size=Window.size)
        manager.add_widget(_build_screen("home"))
        relayout(manager, redraw=False)  # laid out at the window's size now, parents before children: the
        return manager  # first tick draws each label once, at its size, not as Kivy's layouts work inwards

    def on_start(self) -> None:
        after_drawn(self.open_store_and_buzzers)

    def open_store_and_buzzers(self) -> None:
        """After the first frame: the sounds, the store (or a screen saying why not), the buzzers, the notices,
        the unfinished game."""
        from companion.buzzers import Referee
        from companion.store import Store, StoreError

        self.sounds.load()
        try:
            self.store = Store.open(self.config_.store.db, min(self.config_.store.busy_timeout, TABLE_WAIT))
        except StoreError as exc:
            self.show("problem")
            self.root.get_screen("problem").explain(say(exc.reason))
            return
        self.store.on_notice = self._store_notice
        self.buzzers = self._open_buzzers()
        self.buzzers.on_notice = self._buzzers_notice
        self.referee = Referee(
            self.buzzers, settle_ms=self.config_.buzzers.settle_ms, early_ms=self.config_.buzzers.early_ms
        )
        Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
        self.notices = [
            n for n in (self.store.notice, self.store.cannot_save, self.buzzers.notice, self.prefs.notice,
                        self.sounds.notice, self.speech.silent_notice()) if n
        ]
        if self.notices:
            self.notify("\n".join(say(notice) for notice in self.notices), NOTICE_SECONDS)
        if self.resume_game():
            self._say_reopened()
        else:
            self.root.get_screen("home").refresh()  # Resume, now that the store can say
        if self.league.in_league():
            self.league.begin()
        self._build_ahead([*(partial(self.screen, name) for name in AHEAD), lambda: self.toast,
                           lambda: self.screen_keyboard, lambda: self.root.get_screen("home").sheet])

    def _say_reopened(self) -> None:
        """Which game start-up reopened, for the table to recognise: when it started, who sat down."""
        assert self.store is not None and self.session is not None
        game = self.store.summary(self.session.game_id)
        if game is not None:
            self.notify(named(tr._("Reopened the game of {when} with {names}"), {}, when=when(game.started_at),
                              names=listed(game.names)), NOTICE_SECONDS)

    @mainthread_now
    def _buzzers_notice(self, notice: str) -> None:
        """A notice the buzzers have after start-up (the box's firmware cannot pulse), from their thread."""
        self.notify(say(notice), NOTICE_SECONDS)

    def _store_notice(self, reason: Reason) -> None:
        self.notify(say(reason), NOTICE_SECONDS)

    def save(self, work: Callable[[], T]) -> T | None:
        """Every save a screen asks for: a store error (busy, full, read-only) is said and the screen
        stays as it was, so the table can try again; None then."""
        from companion.store import StoreError

        try:
            return work()
        except StoreError as exc:
            self.not_saved(exc)
            return None

    def not_saved(self, error: StoreError) -> None:
        """How every screen says that the store could not save: a notice at the top, clear of the
        button the table will tap again."""
        self.toast.show(say(error.reason), at_top=True)

    def _build_ahead(self, steps: list[Callable[[], object]]) -> None:
        """One step a frame: the screens ahead, then the toast, the keyboard and home's question about an
        unfinished game, so that the first message, the first field to take the focus and the first new game
        beside an unfinished one make nothing."""
        if not steps:
            _settle_memory()
            self.warmed = True
            return
        steps[0]()
        Clock.schedule_once(lambda _dt: self._build_ahead(steps[1:]))

    def _open_buzzers(self) -> Buzzers:
        """The configured buzzers; the keys, with the reason, when they refuse to start."""
        from companion.buzzers import BuzzerError, KeyboardBuzzers, keys_stand_in, open_buzzers

        config = self.config_.buzzers
        try:
            buzzers = open_buzzers(config, pin_factory=self.pin_factory)
        except BuzzerError as exc:
            buzzers = KeyboardBuzzers(config.keys, notice=keys_stand_in(exc, config.keys))
        log_buzzers(buzzers.kind)
        return buzzers

    def resume_game(self, game_id: int | None = None) -> bool:
        """Open a game (else the unfinished one) on its table, rebuilt from its log; False when there is none."""
        from companion.table.session import Session

        assert self.store is not None
        try:
            session = Session.resume(self.store, game_id)
        except CompanionError as exc:  # the file is busy, or its log no longer replays
            self.notify(say(exc.reason), NOTICE_SECONDS)
            return False
        if session is None:
            return False
        self.show_table(session)
        return True

    def on_stop(self) -> None:
        Window.unbind(on_key_down=self._key_down, on_key_up=self._key_up)
        if self._toast is not None:
            self._toast.dismiss()
        _give_up_focus()
        if self._screen_keyboard is not None and self._screen_keyboard.target is not None:
            self._screen_keyboard.detach(self._screen_keyboard.target)
        if self.root is not None and self.root.has_screen("table") and self.root.get_screen("table").view:
            self.root.get_screen("table").view.close()
        if self.referee is not None:
            self.referee.close()  # its thread first, then the buzzers
        self.phones.close()
        self.league.close()
        if self.store is not None:
            self.store.close()
            self.store.on_notice = None
        if self.buzzers is not None:
            self.buzzers.on_notice = None
        self.speech.close()
        self._let_go()

    def _let_go(self) -> None:
        """Nothing of the process (the window, the clock, ``tr``) holds the stopped app, so that one collection
        frees it: a process that starts another (the tests start hundreds) would otherwise keep it, and every
        full pass of the collector would walk its widgets again (docs/PERFORMANCE.md, the suite).

        Every running animation goes, not those of the widgets a walk from the screens reaches: Kivy keeps a
        running one, and its widget, in a set of its class (``Animation._instances``) until it ends, which
        takes frames a stopped app no longer runs; and a screen manager's child is only its current screen,
        so a walk missed set-up's other steps, whose scroll bars fade in the second after a step opens (a stop
        just then kept the set-up screen and all its steps). The app is the only one to animate anything."""
        cancel_pending()
        for layer in list(Window.children):  # Kivy's stop skips every other one
            Window.remove_widget(layer)
        Animation.cancel_all(None)
        gc.unfreeze()  # what start-up froze goes with the app (_settle_memory)

    def start_game(self, setup: Setup, seating: Seating | None = None) -> bool:
        """Save a new game from ``setup`` with its ``seating``, in one transaction, and show its table.

        False, with the app's notice, when it cannot be saved: the screen that asked stays.
        """
        from companion.table.session import Session

        store = self.store
        assert store is not None
        session = self.save(lambda: Session.new(store, setup, seating=seating))
        if session is None:
            return False
        self.show_table(session)
        return True

    def abandon(self, game_id: int) -> bool:
        """Give up an unfinished game (it stays in the saved games, marked abandoned); False if not saved."""
        from companion.store import now

        store = self.store
        assert store is not None
        abandoned = self.save(lambda: store.abandon(game_id, now()) or True) is not None
        if abandoned:
            self.league.poke()  # an abandoned game ended too: the other tables get it now
        return abandoned

    def show_table(self, session: Session) -> None:
        self.session = session
        self.seating = session.seating
        self.screen("table").open(session)
        self.root.current = "table"
        self.prepare_calls()
        table = self.root.get_screen("table")
        self.phones.follow(table.view, session.game_id)
        Clock.schedule_once(lambda _dt: table.prepare())
        Clock.schedule_once(lambda _dt: self.screen("end").prepare(table.view), PREPARE_END_SECONDS)

    def screen(self, name: str) -> Screen:
        """The screen of that name, built on first use."""
        if not self.root.has_screen(name):
            self.root.add_widget(_build_screen(name))
        return self.root.get_screen(name)

    def show(self, name: str) -> None:
        self.screen(name)
        self.root.current = name
        if name == "end":
            self.league.poke()  # the game is over: the other tables get it now, not at the next step

    def change_settings(self, **changes: Any) -> bool:
        """Apply a setting changed on screen and keep it; False (and a toast) when it cannot be kept."""
        try:
            ui = self.prefs.change(**changes)
        except ConfigError as exc:
            self.notify(say(exc.reason))
            return False
        except OSError as exc:
            self.notify(tr._("The setting could not be kept in {path}: {reason}").format(
                path=self.prefs.path, reason=exc.strerror))
            return False
        if ui.language != tr.language:
            tr.switch(ui.language)
            relayout(self.root)  # the direction too: rows mirror, and names and numbers are drawn again
            self.phones.publish()
        if ui.phones != self.phones.on:
            self.phones.turn(ui.phones)
        self.sounds.enabled = ui.sounds
        self._change_speech(ui)
        self.face_seats = ui.face_seats
        self.prefs_ui = ui
        return True

    def _change_speech(self, ui: UiConfig) -> None:
        """Speech follows the settings: turned on or given another voice, it makes the game's calls again."""
        speech = self.speech
        voice = language(ui.language).voice
        changed = (ui.speech, voice) != (speech.enabled, speech.voice)
        speech.enabled, speech.volume, speech.voice = ui.speech, ui.speech_volume, voice
        if not speech.speaking:
            speech.stop()
        notice = speech.silent_notice()
        if notice:
            self.notify(say(notice), NOTICE_SECONDS)
        if changed and speech.speaking:
            self.prepare_calls()

    def prepare_calls(self) -> None:
        """The live game's calls that name a seat, made ahead so that each starts the moment it is due."""
        from companion.ui.calls import ahead

        if self.session is not None:
            view = self.root.get_screen("table").view
            self.speech.prepare(ahead(self.session.state.setup.names, view is not None and view.has_end_card))

    def speak(self, text: str) -> None:
        """A call of the table's (``companion.ui.calls``), stopping the one in progress; "" only stops it."""
        self.speech.say(text)

    def _clear_toast(self, keyboard: ScreenKeyboard, _value: object) -> None:
        """A toast shows above the on-screen keys, not over them."""
        self.toast.above = keyboard.top if keyboard.parent is not None else 0

    def _typing_on_screen(self) -> bool:
        from companion.ui.keyboard import screen_keyboard_wanted

        return screen_keyboard_wanted(self.prefs.ui.keyboard, self.config_.display.fullscreen)

    def listen(self, on_press: PressHandler | None) -> None:
        """Send raw buzzer presses to ``on_press`` (binding and checking buzzers); None gives them
        back to the table.

        Presses come on the referee's thread: the handler must hop to the UI
        thread (``@mainthread_now``) before it touches a widget.
        """
        if self.referee is not None:
            self.referee.listen(on_press)

    def play_sound(self, name: str) -> None:
        """A short sound (a seat colour's buzz, "decision", "last-card", "end"), unless sounds are off."""
        self.sounds.play(name)

    def notify(self, text: str, seconds: float = 3.0,
               ends_with: tuple[EventDispatcher, Sequence[str]] | None = None, good: bool = False) -> None:
        """A toast with ``text`` over whatever screen is showing; ``ends_with`` and ``good`` as ``Toast.show``."""
        self.toast.show(text, seconds, ends_with=ends_with, good=good)

    def _key_down(self, _window: Any, _key: int, _scancode: int, text: str | None, _modifiers: Any) -> bool:
        """Keys 1–6 are buzzers when the keyboard stands in, except while a name is being typed."""
        from companion.buzzers import KeyboardBuzzers

        if not isinstance(self.buzzers, KeyboardBuzzers) or not text or _typing():
            return False
        return self.buzzers.key_down(text, time.monotonic())

    def _key_up(self, _window: Any, key: int, _scancode: int) -> bool:
        from companion.buzzers import KeyboardBuzzers

        if not isinstance(self.buzzers, KeyboardBuzzers):
            return False
        text = _key_text(key)
        return bool(text) and self.buzzers.key_up(text, time.monotonic())


def _build_screen(name: str) -> Screen:
    """The screen ``<Name>Screen`` of ``companion.ui.screens.<name>``, its module and kv loaded now.

    Only the first screen shown is built at start-up and each other one on
    first use, which keeps the first frame close to a bare Kivy app's
    (docs/PERFORMANCE.md).
    """
    module = importlib.import_module(f"companion.ui.screens.{name}")
    screen: Screen = getattr(module, f"{name.capitalize()}Screen")(name=name)
    return screen


def _settle_memory() -> None:
    """Everything start-up made is kept for good: out of the garbage collector's sight from now on.

    The collector's full passes walk every object, and a Kivy app has a few
    hundred thousand (modules, kv rules, screens): about 110 ms a pass here,
    which fell in whatever frame allocated next (the end of a game, a
    tap). After ``gc.freeze`` a pass walks only what came later (a game's
    table and its state); the frozen objects are the ones that live as long
    as the app anyway.

    Frozen objects are never collected, so ``on_stop`` gives them back: a
    process that starts another app (the tests start hundreds) would keep
    every earlier app's widgets, and ``tr`` their kv rules, which each
    language switch would run again.
    """
    gc.collect()
    gc.freeze()


def _give_up_focus() -> None:
    """The field with the focus at the stop lets it go: Kivy keeps the focused widget in a dict of its class,
    ``FocusBehavior._keyboards`` (the window's keyboard to the field it types into), until another widget takes
    the focus. A name typed on the set-up screen (on either keyboard) left its field focused, so that dict kept
    the field, its screen and the stopped app's widgets until the next app's first field took the focus (and
    the field stayed bound to that keyboard's keys)."""
    for focused in list(FocusBehavior._keyboards.values()):
        if focused is not None:
            focused.focus = False


def _typing() -> bool:
    keyboard = Window._system_keyboard
    return keyboard is not None and keyboard.target is not None


def _key_text(key: int) -> str:
    """Key-up events carry no text; the key code of a digit or letter is its character."""
    return chr(key) if 32 < key < 127 else ""

