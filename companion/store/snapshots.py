"""Snapshots of a long game, so resuming it does not fold every action again.

A game of 20,000 actions took 2.1 s to replay here (about 8.6 s on a Pi 4).
Every ``EVERY`` actions the live game saves, with that action, the steps made
since its last snapshot (each standing or redoable move's state, by the log
entry that made it) and where undo and redo stand. Resuming rebuilds the
steps from the snapshots and folds only the actions after the last one.

The log stays the truth. A snapshot is used only if it covers the log exactly
as it is saved (a hash of the action rows it covers), was made by these very
rules (a hash of their source) and reads back whole (its own checksum); the
first one that fails ends the chain, and the rest of the log is replayed.
States are plain JSON (no pickle: a database from elsewhere runs no code).
"""

from __future__ import annotations

import dataclasses
import enum
import gc
import hashlib
import json
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import companion.rules
from companion.rules import Action, Game, Redo, Setup, State, Step, Undo

EVERY = 500
"""Actions between snapshots: at most this many are folded on resume (about 50 ms here)."""
FORMAT = 1
"""The payload's layout; part of the rules' hash, so a new layout ignores the old snapshots."""


@dataclass(frozen=True, slots=True)
class Taken:
    """A snapshot worked out by the live game, for the store to save with the action it follows."""

    since: int
    upto: int
    payload: str
    checksum: str


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One saved row: the steps made by log entries ``since`` to ``upto`` (excluded) that still count."""

    since: int
    upto: int
    rules: str
    log_hash: str
    checksum: str
    payload: str


@cache
def rules_hash() -> str:
    """The rules' source and the payload's format: a snapshot made by other rules is ignored."""
    digest = hashlib.sha256(f"format {FORMAT} {companion.__version__}\n".encode())
    for source in sorted(Path(companion.rules.__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\n" + source.read_bytes())
    return digest.hexdigest()


def log_hash(texts: Sequence[str]) -> str:
    """Of the action rows as the database holds them (their JSON text), in order, each ended by a newline:
    joined into one string first, a third of the time of one update a row (a replay checks them all as it
    opens)."""
    return hashlib.sha256(("\n".join(texts) + "\n" if texts else "").encode()).hexdigest()


def due(length: int) -> bool:
    return length % EVERY == 0


def take(game: Game, since: int) -> Taken:
    """A snapshot at ``len(game.log)``, worked out before the write lock is taken.

    It holds the steps made by entries from ``since`` on that still count (standing
    or redoable); the older ones are in the snapshots before it, since a step that
    counts now counted then.
    """
    reachable: dict[int, Step] = {}
    for top in (game.current, *game.redoable()):
        step: Step | None = top
        while step is not None and step.entry >= since and step.entry not in reachable:
            reachable[step.entry] = step
            step = step.before
    codec = _Encoder()
    steps = [
        [entry, step.before.entry if step.before else -1, codec.state(step.state)]
        for entry, step in sorted(reachable.items())
    ]
    payload = json.dumps(
        {"steps": steps, "current": game.current.entry, "redoable": [step.entry for step in game.redoable()],
         "objects": codec.tables},
        ensure_ascii=False, separators=(",", ":"),
    )
    return Taken(since, len(game.log), payload, _checksum(payload))


def resume(setup: Setup, log: Sequence[Action], texts: Sequence[str], saved: Iterable[Snapshot]) -> tuple[Game, int]:
    """The game after ``log``, from the snapshots that agree with it and a fold of the rest.

    Returns the game and the last snapshot used (0: none), which the next one builds on.
    """
    with no_cyclic_gc():
        return _resume(setup, log, texts, saved)


def _resume(setup: Setup, log: Sequence[Action], texts: Sequence[str], saved: Iterable[Snapshot]) -> tuple[Game, int]:
    game, upto = Game.start(setup), 0
    steps: dict[int, Step] = {-1: game.current}
    for snapshot in agreeing(texts, saved):
        try:
            game = _restored(setup, log, snapshot, steps)
        except UNREADABLE:
            break  # damaged: the log says the rest
        upto = snapshot.upto
    for action in log[upto:]:
        game = game.apply(action)
    return game, upto


def agreeing(texts: Sequence[str], saved: Iterable[Snapshot]) -> list[Snapshot]:
    """The snapshots that may be used, in order: each follows the one before and agrees with the log's
    rows it covers and with these rules. The first that does not ends the chain (the log says the rest)."""
    chain, upto = [], 0
    for snapshot in saved:
        if not _agrees(snapshot, upto, texts):
            break
        chain.append(snapshot)
        upto = snapshot.upto
    return chain


UNREADABLE = (ValueError, TypeError, KeyError, IndexError, AttributeError)
"""What a snapshot that agrees with the log yet does not read back raises (made by hand): the log says the rest."""


@dataclass(frozen=True, slots=True)
class Held:
    """What a snapshot holds, read back."""

    steps: dict[int, tuple[int, State]]
    """Each step's log entry, and the entry of the step it was made on (-1: the start) and its state."""
    current: int
    redoable: list[int]


def read(setup: Setup, log: Sequence[Action], snapshot: Snapshot) -> Held:
    """The snapshot's steps; one of ``UNREADABLE`` when they are not steps the log made."""
    data = json.loads(snapshot.payload)
    codec = _Decoder(setup, data["objects"])
    steps: dict[int, tuple[int, State]] = {}
    for entry, before_entry, state in data["steps"]:
        if not snapshot.since <= entry < snapshot.upto or isinstance(log[entry], (Undo, Redo)) or entry in steps:
            raise ValueError(f"step {entry} is not one the log made")
        if not -1 <= before_entry < entry:
            raise ValueError(f"step {entry} comes after {before_entry}")
        steps[entry] = (before_entry, codec.state(state))
    return Held(steps, data["current"], data["redoable"])


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """While a long game is read and rebuilt: the collector has nothing to free there.

    Tens of thousands of small acyclic values (rows, actions, states) each set off
    the cyclic collector, which walks the whole heap every few of them: with a
    20,000-action game already in memory that doubled the time to resume it.
    Reference counting still frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _agrees(snapshot: Snapshot, since: int, texts: Sequence[str]) -> bool:
    return (
        snapshot.since == since < snapshot.upto <= len(texts)
        and snapshot.rules == rules_hash()
        and snapshot.log_hash == log_hash(texts[since:snapshot.upto])
        and snapshot.checksum == _checksum(snapshot.payload)
    )


def _restored(setup: Setup, log: Sequence[Action], snapshot: Snapshot, steps: dict[int, Step]) -> Game:
    """Adds the snapshot's steps to ``steps`` only once all of them read back."""
    held = read(setup, log, snapshot)
    made: dict[int, Step] = {}
    for entry, (before_entry, state) in held.steps.items():
        before = made.get(before_entry) or steps[before_entry]
        made[entry] = Step(state, log[entry], entry, before, before.depth + 1)
    known = steps | made
    game = Game.restored(setup, log[: snapshot.upto], known[held.current], [known[entry] for entry in held.redoable])
    steps.update(made)
    return game


def _checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()


# --- the states as JSON ----------------------------------------------------------
#
# Driven by the dataclasses' own fields and types, so a field added to the rules'
# state is saved without a change here (or, of a type not handled, fails the tests).
# Values that repeat from state to state (seats, events, claims) are kept once in
# a table per class and named by their index there.

Encode = Callable[[Any, "_Encoder"], Any]
Decode = Callable[[Any, "_Decoder"], Any]


class _Encoder:
    def __init__(self) -> None:
        self.tables: dict[str, list[list[Any]]] = {}
        self._seen: dict[object, int] = {}

    def state(self, state: State) -> list[Any]:
        return _fields(State)[0](state, self)

    def ref(self, value: object) -> int:
        index = self._seen.get(value)
        if index is None:
            cls: type = type(value)
            table = self.tables.setdefault(cls.__name__, [])
            row = _fields(cls)[0](value, self)
            index = self._seen[value] = len(table)
            table.append(row)
        return index


class _Decoder:
    def __init__(self, setup: Setup, tables: dict[str, list[list[Any]]]) -> None:
        self.setup = setup
        self.tables = tables
        self._made: dict[str, list[Any]] = {}

    def state(self, row: list[Any]) -> State:
        state: State = _fields(State)[1](row, self)
        return state

    def table(self, cls: type) -> list[Any]:
        """Every value of ``cls`` the snapshot names, decoded the first time one is asked for."""
        made = self._made.get(cls.__name__)
        if made is None:
            decode = _fields(cls)[1]
            made = self._made[cls.__name__] = [decode(row, self) for row in self.tables.get(cls.__name__, [])]
        return made


@cache
def _fields(cls: type) -> tuple[Encode, Decode]:
    """A dataclass as the list of its fields' values, in order."""
    hints = typing.get_type_hints(cls)
    names = [field.name for field in dataclasses.fields(cls)]
    codecs = [_codec(hints[name]) for name in names]

    def encode(value: Any, encoder: _Encoder) -> list[Any]:
        return [enc(getattr(value, name), encoder) for name, (enc, _) in zip(names, codecs, strict=True)]

    decoded = [(i, dec) for i, (_, dec) in enumerate(codecs) if dec is not _plain]  # the rest are as JSON has them

    def decode(row: list[Any], decoder: _Decoder) -> Any:
        if len(row) != len(codecs):
            raise ValueError(f"{cls.__name__} has {len(codecs)} fields, not {len(row)}")
        values = list(row)
        for i, dec in decoded:
            values[i] = dec(values[i], decoder)
        return cls(*values)

    return encode, decode


def _plain(value: Any, _: Any) -> Any:
    return value


def _codec(hint: Any) -> tuple[Encode, Decode]:
    if hint is Setup:  # the game's own, from its row
        return (lambda value, _: None), (lambda value, decoder: decoder.setup)
    if hint in (int, str, bool) or typing.get_origin(hint) is typing.Literal:
        return _plain, _plain
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return (lambda value, _: value.value), (lambda value, _: hint(value))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return (lambda value, encoder: encoder.ref(value)), (lambda value, decoder: decoder.table(hint)[value])
    return _container_codec(hint)


def _container_codec(hint: Any) -> tuple[Encode, Decode]:
    """``X | None`` and ``tuple[X, ...]``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        enc, dec = _codec(next(arg for arg in args if arg is not type(None)))
        return ((lambda value, encoder: None if value is None else enc(value, encoder)),
                (lambda value, decoder: None if value is None else dec(value, decoder)))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        enc, dec = _codec(item)
        if isinstance(item, type) and dataclasses.is_dataclass(item):  # the common case (seats, events)
            dec = _tuple_from_table(item)
        else:
            dec = _tuple_of(dec)
        return (lambda value, encoder: [enc(each, encoder) for each in value]), dec
    raise TypeError(f"no snapshot form for {hint!r}")


def _tuple_of(dec: Decode) -> Decode:
    return lambda value, decoder: tuple([dec(each, decoder) for each in value])


def _tuple_from_table(cls: type) -> Decode:
    """Items read straight from the class's table: no call for each."""

    def decode(value: list[int], decoder: _Decoder) -> tuple[Any, ...]:
        table = decoder.table(cls)
        return tuple([table[i] for i in value])

    return decode
