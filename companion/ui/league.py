"""The league while the app runs: Syncthing's steps, this table's ended games out, the others' in.

What ``spicy-companion league run`` does in a terminal, the app does itself on
one thread of its own, with a store of its own, so the table never waits for
Syncthing or for an import. That thread starts Syncthing (when none answers on
its socket already, as the Pi's service does) and so outlives it: Linux stops a
child whose starting *thread* ends (``companion.league.syncthing._dies_with_parent``).

Syncthing runs while the league is on, and while the League screen is open
(Join a league lists the tables Syncthing hears on the network). The League
screen's taps are jobs for that thread, each one the very function behind its
``league`` command. Whatever a step meets (Syncthing missing, its socket gone,
a busy database) is a sentence on the screen and the step is tried again; the
network being down is no error at all (the league's words say "last seen").
A file refused by an import is named once, as a notice.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import proxy

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.config import LeagueConfig
from companion.errors import CompanionError, Reason
from companion.ui.i18n import say, tr
from companion.ui.threads import mainthread_now

if TYPE_CHECKING:
    from companion.store import Store
    from companion.league.folders import League
    from companion.league.syncthing import Member, Syncthing

log = logging.getLogger(__name__)
STEP_SECONDS = 5.0
"""Between two steps while the league is on: a game that ends is at the other tables within seconds."""
SERVICE = Path("/etc/systemd/system/spicy-companion-syncthing.service")
"""On a Pi, Syncthing is this service's (started by its path unit once the league is on), never the app's."""
LOOKING = "looking"
"""The league folder's file that says the League screen is looking for tables (spicy-companion-syncthing.path)."""


def failures() -> tuple[type[Exception], ...]:
    """What a step can meet from Syncthing, the league folder or the store: said on screen, and tried again.
    Asked on the league's thread when a step fails: HTTP's and XML's modules (Syncthing's answers) are not
    imported before the first frame."""
    import http.client
    import xml.etree.ElementTree as ET

    return CompanionError, OSError, ValueError, KeyError, TypeError, http.client.HTTPException, ET.ParseError


@dataclass
class Seen:
    """What one step saw, handed to the UI thread whole."""

    on: bool = False
    name: str = ""
    code: str = ""
    """This table's short code (``short_code``), once its Syncthing answers."""
    words: list[Reason] = field(default_factory=list)
    asking: list[tuple[str, str]] = field(default_factory=list)
    """Each table asking to join: its device and its name."""
    found: list[Member] = field(default_factory=list)
    notices: list[Reason] = field(default_factory=list)
    problem: Reason | str | None = None


class LeagueRunner(EventDispatcher):
    """This table's league for the app's lifetime: its state as properties, its taps as jobs."""

    on = BooleanProperty(False)
    """This table is in a league (the league folder's ``on`` file)."""
    name = StringProperty("")
    """This table's name, as the others see it."""
    code = StringProperty("")
    """This table's short code, which Join a league lists it by on another table before it knows its name."""
    words = ListProperty()
    """The league's state in words (``league_state``), in the table's language."""
    asking = ListProperty()
    """The tables asking to join, ``(device, name)``."""
    found = ListProperty()
    """The tables Join a league offers (``nearby``): ``Member``s."""
    problem = StringProperty("")
    """What the last step could not do, in words; empty when it went well."""
    busy = BooleanProperty(False)
    """A tap's job is being done."""
    said = StringProperty("")
    """One line for the Settings screen's League row."""

    def __init__(self, config: LeagueConfig, db: Path, busy_timeout: float,
                 notify: Callable[[str], None] = lambda _text: None) -> None:
        super().__init__()
        self.config = config
        self.db = db
        self.busy_timeout = busy_timeout
        self.notify = notify
        self.looking = False
        self.league: League | None = None
        self.syncthing: Syncthing | None = None
        self.store: Store | None = None
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._seen = Seen()
        self.bind(on=self._say, words=self._say, problem=self._say)
        self._language = tr.fbind("_", _say_again, proxy(self))
        self._say()

    # --- on the UI thread -------------------------------------------------------

    def begin(self) -> None:
        """The thread starts: it opens the league folder and, if the league is on, keeps it in step."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="league", daemon=True)
            self._thread.start()

    def look(self, looking: bool) -> None:
        """The League screen opened (Syncthing runs, the tables on the network are listed) or closed."""
        self.looking = looking
        self._jobs.put(_nothing)
        self.begin()

    def start(self) -> None:
        from companion.league.syncthing import start_league

        self._post(lambda: start_league(self._league(), self._syncthing()))

    def join(self, host: Member) -> None:
        from companion.league.syncthing import ask

        def job() -> None:
            ask(self._league(), self._syncthing(), host)

        self._post(job)

    def accept(self, device: str) -> None:
        from companion.league.syncthing import accept

        self._post(lambda: accept(self._league(), self._syncthing(), device))

    def refuse(self, device: str) -> None:
        from companion.league.syncthing import refuse

        self._post(lambda: refuse(self._syncthing(), device))

    def leave(self) -> None:
        from companion.league.syncthing import leave

        self._post(lambda: leave(self._league(), self._syncthing()))

    def rename(self, name: str) -> None:
        """This table's new name; in a league, its Syncthing device and folder take it too."""
        from companion.league.syncthing import is_on, start_league

        def job() -> None:
            league = self._league()
            league.rename(name)
            if is_on(league):
                start_league(league, self._syncthing())

        self._post(job)

    def poke(self) -> None:
        """A game ended here: in a league, a step now sends it, rather than at the next one."""
        if self._thread is not None and self.in_league():
            self._jobs.put(_nothing)

    def close(self) -> None:
        """The app stops: the thread ends, and the Syncthing it started with it."""
        tr.unbind_uid("_", self._language)
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=20)
            self._thread = None

    def _post(self, job: Callable[[], None]) -> None:
        self.busy = True
        self._jobs.put(job)
        self.begin()

    @mainthread_now
    def _show(self, seen: Seen) -> None:
        self.busy = not self._jobs.empty()
        self.on, self.name, self.code = seen.on, seen.name or self.name, seen.code or self.code
        self._seen = seen
        self._translate()
        self.asking = seen.asking
        self.found = seen.found
        for notice in seen.notices:
            self.notify(say(notice))

    def _translate(self) -> None:
        """The last step's words in the table's language: again at a change of language."""
        self.words = [say(line) for line in self._seen.words]
        self.problem = "" if self._seen.problem is None else say(self._seen.problem)

    def _say(self, *_args: object) -> None:
        if self.problem:
            self.said = self.problem
        elif self.on:
            self.said = self.words[0] if self.words else tr._("In a league")
        else:
            self.said = tr._("Several tables keep one league of games and players")

    # --- on the league's thread ---------------------------------------------------

    def in_league(self) -> bool:
        """The league folder says this table is in a league (``companion.league.syncthing.is_on``), read without
        making the folder: a table that never joins one has none."""
        from companion.league.syncthing import ON

        return (self.config.folder / ON).exists()

    def _run(self) -> None:
        again: Callable[[], None] | None = None  # a tap's job that met a failure: tried again at each step
        try:
            self._step()
            while True:
                wanted = self.looking or self.in_league() or again is not None
                if not wanted:
                    self._release()
                try:
                    job = self._jobs.get(timeout=STEP_SECONDS if wanted else None)
                except queue.Empty:
                    job = again or _nothing
                if job is None:
                    break
                if job is not _nothing:
                    again = None  # a new tap stands instead of the one that failed
                try:
                    if not self._attempt(job) and job is not _nothing:
                        again = job
                except Exception as exc:  # a fault of the app's own: logged and said; the league goes on
                    log.exception("the league's step failed")
                    self._show(Seen(self.in_league(), self.name, problem=Reason(
                        "The league's step failed ({problem}): the table tries again", problem=repr(exc)[:200])))
        finally:
            self.looking = False
            if self.league is not None:
                self._attempt(self._mark_looking, step=False)
            self._release()
            if self.store is not None:
                self.store.close()
                self.store = None

    def _attempt(self, job: Callable[[], None], step: bool = True) -> bool:
        """False when the job met what a step can meet (said on screen): the caller tries it again."""
        try:
            job()
        except failures() as exc:
            self._show(Seen(self.in_league(), self.name, problem=_words(exc)))
            return False
        if step:
            self._step()
        return True

    def _step(self) -> None:
        """What ``league run`` does once, and what the screen shows of it."""
        from companion.league.syncthing import is_on, short_code

        if not (self.looking or self.in_league()):
            if self.league is not None:
                self._attempt(self._mark_looking, step=False)
            self._show(Seen(False, self.name))
            return
        try:
            league = self._league()
            self._mark_looking()
            seen = Seen(is_on(league), league.table.name, short_code(self._syncthing().device_id()))
            if is_on(league):
                self._keep_in_step(league, seen)
            elif self.looking:
                from companion.league.syncthing import nearby

                seen.found = nearby(league, self._syncthing(), self.config.tables)
        except failures() as exc:
            seen = Seen(self.in_league(), self.name, problem=_words(exc))
        self._show(seen)

    def _keep_in_step(self, league: League, seen: Seen) -> None:
        from companion.league.syncthing import league_state, short_code, step

        syncthing = self._syncthing()
        seen.notices = step(league, syncthing, self._store()).notices
        seen.words = league_state(league, syncthing)
        seen.asking = [(device, str(asked.get("name") or short_code(device)))
                       for device, asked in syncthing.pending_devices().items()]

    def _league(self) -> League:
        if self.league is None:
            from companion.league.folders import League

            self.league = League(self.config)
        return self.league

    def _store(self) -> Store:
        if self.store is None:
            from companion.store import Store

            self.store = Store.open(self.db, self.busy_timeout, move_damaged=False)
        return self.store

    def _syncthing(self) -> Syncthing:
        """This table's Syncthing answering: the one already running, else one this thread starts (again, if
        the one it started stopped answering: its socket gone, the process killed)."""
        from companion.league.syncthing import Syncthing, SyncthingError

        if self.syncthing is not None and self.syncthing.answers():
            return self.syncthing
        self._release()
        syncthing = Syncthing(self._league().root / "syncthing", self.config.listen, self.config.local_discovery,
                              beacon_port=self.config.beacon_port)
        if not syncthing.answers():
            if SERVICE.exists():
                syncthing.prepare()  # the keys and settings the service starts with (it needs no network)
                raise SyncthingError("Syncthing's service is not running yet: the table tries again")
            if syncthing.listening():
                raise SyncthingError("Syncthing is slow to answer: the table tries again")
            syncthing.start()
        self.syncthing = syncthing
        return syncthing

    def _mark_looking(self) -> None:
        """The file that has the Pi's path unit start Syncthing while Join a league lists the tables found,
        before this table is in a league; gone with the screen."""
        looking = self.config.folder / LOOKING
        if self.looking and self.league is not None:
            looking.touch()
        else:
            looking.unlink(missing_ok=True)

    def _release(self) -> None:
        if self.syncthing is not None:
            self.syncthing.stop()  # only the one this thread started: a service's is not its to stop
            self.syncthing = None


def _say_again(runner: LeagueRunner, *_args: object) -> None:
    runner._translate()
    runner._say()


def _nothing() -> None:
    """A step with no tap: the league kept in step."""


def _words(exc: Exception) -> Reason | str:
    if isinstance(exc, CompanionError):
        return exc.reason
    if isinstance(exc, OSError):
        return Reason("Syncthing does not answer ({problem}): the table tries again",
                      problem=str(exc.strerror or exc))
    return Reason("Syncthing answered what the table did not understand ({problem}): the table tries again",
                  problem=str(exc)[:200])
