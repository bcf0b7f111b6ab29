"""Take games home: back up, export or restore on a USB stick, or in a folder chosen by touch.

On the Pi the places are the sticks mounted for the kiosk (companion.pi.takehome);
on a desktop, the data folder first and any folder reached from it by taps.
The work runs on a thread with a store of its own, so the screen keeps drawing;
a restore first shows what it would add, and adds it only on a second tap.
Whatever the work meets ends in a sentence on the screen: the thread never ends
without one, so the screen is never left busy. A file's name or a path in it is
known as a name (``bidi.Named``), drawn as typed in a Persian line, and broken
into lines at its slashes and hyphens to stay in its box (``fit.broken``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.store import Store
from companion.store.backup import Incoming
from companion.store.backup import RestorePlan, TakeHomeError, backup, backups_in, export_all, plan_restore, restore
from companion.pi.takehome import request_eject, sticks, subfolders
from companion.ui.bidi import join_named, named
from companion.ui.i18n import listed, say, tr, when
from companion.ui.threads import mainthread_now
from companion.ui.widgets import ChoiceButton, load_kv, short

load_kv(__file__)

EJECT_WAIT = 10.0
"""Seconds to wait for the stick to be unmounted before saying it is still in use."""


class TakehomeScreen(Screen):
    folder = StringProperty("")
    stick_chosen = BooleanProperty(False)
    busy = BooleanProperty(False)
    status = StringProperty("")
    plan = ObjectProperty(None, allownone=True)
    only = NumericProperty(0)
    """The game Export writes, when the screen was opened from that game in Saved games; 0: every game."""

    def on_pre_enter(self, *_args: object) -> None:
        self.plan = None
        self.status = ""
        found = sticks()
        app = App.get_running_app()
        self.choose(found[0].folder if found else app.store.path.parent)

    def on_leave(self, *_args: object) -> None:
        self.only = 0

    def choose(self, folder: Path) -> None:
        self.folder = str(folder)
        self.plan = None
        found = sticks()
        self.stick_chosen = any(s.folder == folder for s in found)
        box = self.ids.places
        box.clear_widgets()
        for stick in found:
            button = ChoiceButton(text=short(stick.label, 20), icon="save", selected=stick.folder == folder,
                                  size_hint_y=None, height=56)
            button.bind(on_release=lambda _b, f=stick.folder: self.choose(f))
            box.add_widget(button)
        if not found or not self.stick_chosen:
            if folder.parent != folder:
                up = ChoiceButton(text=tr._("Up: {folder}").format(folder=short(folder.parent.name or "/", 20)),
                                  icon="undo", size_hint_y=None, height=56)
                up.bind(on_release=lambda _b: self.choose(folder.parent))
                box.add_widget(up)
            for inner in subfolders(folder):
                button = ChoiceButton(text=short(inner.name, 24), icon="arrow", size_hint_y=None, height=56)
                button.bind(on_release=lambda _b, f=inner: self.choose(f))
                box.add_widget(button)

    def _work(self, job: Callable[[Store], Any]) -> None:
        """Run ``job`` with a store of its own on a thread; its sentence, its plan or the error is shown."""
        if self.busy:
            return
        app = App.get_running_app()
        try:
            app.store.follow_the_file()  # a file put in its place is let go before the worker opens the path
        except CompanionError as exc:
            self.status = say(exc.reason)
            return
        self.busy = True
        self.status = tr._("Working…")
        path, timeout = app.store.path, app.config_.store.busy_timeout

        def run() -> None:
            try:
                with Store.open(path, timeout, move_damaged=False) as store:
                    self._finished(job(store), None)
            except CompanionError as exc:
                self._finished(None, exc)
            except Exception as exc:  # not foreseen by the store: still a sentence, not a hang
                self._finished(None, TakeHomeError("it did not work: {problem}", problem=str(exc) or repr(exc)))

        threading.Thread(target=run, daemon=True).start()

    @mainthread_now
    def _finished(self, text: Any, error: CompanionError | None) -> None:
        self.busy = False
        if error is not None:
            self.status = say(error.reason)
        elif isinstance(text, RestorePlan):
            self.plan = text
            self.status = self.plan_text(text)
        else:
            self.status = text

    def _progress(self) -> Callable[[int, int], None]:
        """Told by the thread how far it got; the screen hears of each new per cent only."""
        shown = [-1]

        def tell(done: int, total: int) -> None:
            percent = 100 * done // total if total else 100
            if percent != shown[0]:
                shown[0] = percent
                self._say_progress(percent)

        return tell

    @mainthread_now
    def _say_progress(self, percent: int) -> None:
        if self.busy:
            self.status = tr._("Working… {percent}%").format(percent=percent)

    def back_up(self) -> None:
        folder, progress = Path(self.folder), self._progress()
        self._work(lambda store: named(tr._("Every game was backed up to {path}"),
                                       {"path": str(backup(store, folder, progress=progress))}))

    def export(self) -> None:
        folder, progress = Path(self.folder), self._progress()
        only = [int(self.only)] if self.only else None

        def job(store: Store) -> str:
            done = export_all(store, folder, game_ids=only, progress=progress)
            text = named(tr.ngettext("{n} game exported to {path}", "{n} games exported to {path}", done.games),
                         {"path": str(done.folder)}, n=done.games)
            return join_named("\n", [text, *(say(reason) for reason in done.left_out)])

        self._work(job)

    def look_for_backup(self) -> None:
        found = backups_in(Path(self.folder))
        if not found:
            self.status = named(tr._("There is no backup in {folder}"), {"folder": self.folder})
            return
        progress = self._progress()
        self._work(lambda store: plan_restore(store, found[0], progress))

    def plan_text(self, plan: RestorePlan) -> str:
        if plan.extended:
            heading = tr._("{file}: {n} games to add, {e} to extend, {m} already here")
        else:
            heading = tr._("{file}: {n} games to add, {m} already here")
        lines: list[str] = [named(heading, {"file": plan.source.name}, n=len(plan.games), e=len(plan.extended), m=plan.already)]
        if plan.new_players:
            lines.append(named(tr._("New players: {names}"), {}, names=listed(plan.new_players)))
        lines += [say(reason) for reason in plan.left_out]
        lines += [named("{when} · {names}{how}", {}, when=when(game.started_at), how=_how(game),
                        names=listed(game.names)) for game in [*plan.games, *plan.extended]]
        return join_named("\n", lines)

    def add_planned(self) -> None:
        plan = self.plan
        if plan is None:
            return
        self.plan = None

        def job(store: Store) -> str:
            ids = restore(store, plan)
            extended = len({game.extends for game in plan.extended} & set(ids))
            added = tr.ngettext("{n} game added", "{n} games added", len(ids) - extended).format(n=len(ids) - extended)
            if not extended:
                return added
            return f"{added}\n" + tr.ngettext("{n} game extended", "{n} games extended", extended).format(n=extended)

        self._work(job)

    def cancel_plan(self) -> None:
        self.plan = None
        self.status = tr._("Nothing was changed")

    def eject(self) -> None:
        folder = Path(self.folder)
        try:
            request_eject(folder)
        except OSError as exc:
            self.status = tr._("The stick cannot be ejected from here: {reason}").format(reason=exc.strerror)
            return
        self.busy = True
        self.status = tr._("Ejecting…")
        waited = [0.0]

        def check(dt: float) -> bool:
            waited[0] += dt
            if all(s.folder != folder for s in sticks()):
                self.busy = False
                self.status = tr._("You can pull the stick out now")
                self.choose(App.get_running_app().store.path.parent)
                return False
            if waited[0] > EJECT_WAIT:
                self.busy = False
                self.status = tr._("The stick is still in use: wait a moment and tap Eject again")
                return False
            return True

        Clock.schedule_interval(check, 0.25)


def _how(game: Incoming) -> str:
    """How a game of the plan stands, and what the restore does with it: after its names in the list."""
    said = "" if game.finished else f" ({tr._('abandoned') if game.abandoned else tr._('unfinished')})"
    if game.extends is not None:
        said += " · " + tr._("extends game #{game}").format(game=game.extends)
    elif game.beside is not None:
        said += " · " + tr._("kept beside game #{game}: the logs part at action {action}").format(
            game=game.beside, action=game.parts_at)
    return said
