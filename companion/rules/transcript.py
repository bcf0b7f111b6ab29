"""Table transcripts (RULES.md section 5): one action a line, readable by people.

Names are single words; a name with a space or a ``#`` in it is written quoted
('Mary Ann'), so any game the app saves can be exported and read back exactly.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules import engine
from companion.rules.actions import (
    ACTION_TYPES,
    Action,
    Adjust,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    Pass,
    Play,
    Redo,
    Resolve,
    Reveal,
    TakeUniversal,
    Undo,
)
from companion.rules.cards import ATTRIBUTES, WILD_NUMBER, WILD_SPICE, Card
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.profiles import START_AFTER_CHALLENGE, profile_named
from companion.rules.state import Setup

HEADER_KEYWORDS = ("rules", "option", "variant", "seats", "end-card", "first")


class TranscriptError(IllegalAction):
    """A refused line: ``str(exc)`` reads ``line N: reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Transcript:
    setup: Setup
    actions: tuple[tuple[int, Action], ...]
    """Each action with the line it came from."""


# --------------------------------------------------------------------------
# Reading


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        raise IllegalAction("a quote is not closed") from None


class _Header:
    """Collects header lines; the setup is built when the first action arrives."""

    def __init__(self) -> None:
        self.rules: str | None = None
        self.names: list[str] | None = None
        self.end_card: int | None = None
        self.first: str | None = None
        self.variants: list[str] = []
        self.start_after_challenge = "loser"

    def take(self, words: list[str]) -> None:
        keyword, args = words[0], words[1:]
        if keyword != "rules" and self.rules is None:
            raise IllegalAction("the transcript must start with a rules line")
        if keyword == "rules":
            if self.rules is not None:
                raise IllegalAction("rules is given twice")
            _arity(words, 1)
            profile_named(args[0])
            self.rules = args[0]
        elif keyword == "option":
            _arity(words, 2)
            if args[0] != "start-after-challenge" or args[1] not in START_AFTER_CHALLENGE:
                raise IllegalAction("the only option is: start-after-challenge loser|winner")
            self.start_after_challenge = args[1]
        elif keyword == "variant":
            _arity(words, 1)
            self.variants.append(args[0])
        elif keyword == "seats":
            if self.names is not None:
                raise IllegalAction("seats is given twice")
            self.names = args
        elif keyword == "end-card":
            if self.end_card is not None:
                raise IllegalAction("end-card is given twice")
            _arity(words, 1)
            self.end_card = _number(args[0], "the cards under the World's End card")
        elif keyword == "first":
            if self.first is not None:
                raise IllegalAction("first is given twice")
            _arity(words, 1)
            self.first = args[0]

    def setup(self) -> Setup:
        if self.rules is None:
            raise IllegalAction("the transcript must start with a rules line")
        if self.names is None:
            raise IllegalAction("a seats line must come before the first action")
        first = 0
        if self.first is not None:
            if self.first not in self.names:
                raise IllegalAction(f"first names {self.first}, who has no seat: {', '.join(self.names)}")
            first = self.names.index(self.first)
        return engine.new_setup(
            profile_named(self.rules),
            self.names,
            self.end_card,
            first,
            frozenset(self.variants),
            self.start_after_challenge,
        )


def _arity(words: list[str], *counts: int) -> None:
    if len(words) - 1 not in counts:
        wanted = " or ".join(str(c) for c in counts)
        raise IllegalAction(f"{words[0]} takes {wanted} word{'s' if counts != (1,) else ''} after it")


def _number(word: str, what: str) -> int:
    if not word.isdigit():
        raise IllegalAction(f"{what} must be a whole number, not {word!r}")
    return int(word)


def _seat(setup: Setup, name: str) -> int:
    seat = setup.seat_named(name)
    if seat is None:
        raise IllegalAction(f"no seat is named {name}; the seats are {', '.join(setup.names)}")
    return seat


def parse_action(setup: Setup, words: list[str]) -> Action:
    """One action line, already split into words, against the game's seats."""
    keyword, args = words[0], words[1:]
    if keyword in HEADER_KEYWORDS:
        raise IllegalAction(f"{keyword} is a header line and must come before the first action")
    if keyword not in ACTION_TYPES:
        raise IllegalAction(f"unknown keyword {keyword!r}")
    numbered = setup.profile.numbered
    if keyword == "play":
        if not numbered:
            if len(args) != 2:
                raise IllegalAction("write play NAME SPICE: in five-spices a card is declared by its spice alone")
            return Play(_seat(setup, args[0]), args[1])
        universal = len(args) > 1 and args[1] == "universal"
        rest = args[2:] if universal else args[1:]
        tuck = 0
        if len(rest) == 4 and rest[2] == "tuck":
            tuck = _number(rest[3], "the tucked cards")
            rest = rest[:2]
        if len(rest) != 2:
            raise IllegalAction("write play NAME SPICE NUMBER (universal before the spice, tuck T after)")
        return Play(_seat(setup, args[0]), rest[0], _number(rest[1], "the number"), universal, tuck)
    if keyword in ("copy", "pass", "draw", "take-universal"):
        _arity(words, 1)
        cls = {"copy": Copy, "pass": Pass, "draw": Draw, "take-universal": TakeUniversal}[keyword]
        return cls(_seat(setup, args[0]))
    if keyword == "challenge":
        if not numbered:
            if len(args) != 1:
                raise IllegalAction("a five-spices challenge names no attribute: write challenge NAME")
            return Challenge(_seat(setup, args[0]))
        if len(args) == 1:
            raise IllegalAction('a challenge must name spice or number: "not that spice!" or "not that number!"')
        _arity(words, 2)
        if args[1] not in ATTRIBUTES:
            raise IllegalAction(f"a challenge names spice or number, not {args[1]!r}")
        return Challenge(_seat(setup, args[0]), args[1])  # type: ignore[arg-type]
    if keyword == "reveal":
        return Reveal(_card(args))
    if keyword == "resolve":
        _arity(words, 1)
        if args[0] not in ("challenger", "player"):
            raise IllegalAction("resolve challenger (the challenger was right) or resolve player")
        return Resolve(args[0] == "challenger")
    if keyword == "adjust":
        _arity(words, 3)
        if args[1] not in ("hand", "won"):
            raise IllegalAction("adjust sets hand or won")
        return Adjust(_seat(setup, args[0]), args[1], _number(args[2], "the count"))
    _arity(words, 0)
    return {"end-card-drawn": EndCardDrawn, "undo": Undo, "redo": Redo}[keyword]()


def _card(args: list[str]) -> Card:
    if args in ([WILD_SPICE], [WILD_NUMBER]):
        return Card(None, None, args[0])
    if len(args) == 1:
        return Card(args[0], None)
    if len(args) == 2:
        return Card(args[0], _number(args[1], "the number"))
    raise IllegalAction("write reveal SPICE NUMBER, reveal wild-spice or reveal wild-number")


def read_transcript(lines: Iterable[str]) -> Transcript:
    """Parse every line (each checked for form, not yet for the rules)."""
    header = _Header()
    setup: Setup | None = None
    actions: list[tuple[int, Action]] = []
    last = 0
    for number, line in enumerate(lines, start=1):
        last = number
        try:
            words = _words(line)
            if not words:
                continue
            if setup is None and words[0] in HEADER_KEYWORDS:
                header.take(words)
                continue
            if setup is None:
                setup = header.setup()
            actions.append((number, parse_action(setup, words)))
        except IllegalAction as exc:
            raise TranscriptError(number, str(exc)) from None
    if setup is None:
        try:
            setup = header.setup()
        except IllegalAction as exc:
            raise TranscriptError(max(last, 1), str(exc)) from None
    return Transcript(setup, tuple(actions))


def replay_transcript(text: str) -> Game:
    """The game a transcript describes; the first refused line raises TranscriptError."""
    transcript = read_transcript(text.splitlines())
    game = Game.start(transcript.setup)
    for number, action in transcript.actions:
        try:
            game = game.apply(action)
        except IllegalAction as exc:
            raise TranscriptError(number, str(exc)) from None
    return game


# --------------------------------------------------------------------------
# Writing


_NEEDS_QUOTES = frozenset(" \t\n\r'\"#\\")


def _name(setup: Setup, seat: int) -> str:
    name = setup.names[seat]
    return shlex.quote(name) if _NEEDS_QUOTES & set(name) else name


def format_action(setup: Setup, action: Action) -> str:
    """The transcript line for one action."""
    seat = getattr(action, "seat", None)
    who = _name(setup, seat) if seat is not None else ""
    match action:
        case Play(spice=spice, number=number, universal=universal, tuck=tuck):
            parts = ["play", who] + (["universal"] if universal else []) + [spice]
            parts += [] if number is None else [str(number)]
            parts += [f"tuck {tuck}"] if tuck else []
            return " ".join(parts)
        case Challenge(attribute=attribute):
            return f"challenge {who}" + (f" {attribute}" if attribute else "")
        case Reveal(card=card):
            return f"reveal {card}"
        case Resolve(challenger_right=right):
            return "resolve challenger" if right else "resolve player"
        case Adjust(count=count, value=value):
            return f"adjust {who} {count} {value}"
    return action.keyword if seat is None else f"{action.keyword} {who}"


def write_transcript(setup: Setup, log: Iterable[Action]) -> str:
    """Header and every logged line: reading it back gives the same game."""
    lines = [f"rules {setup.profile.id}"]
    if setup.start_after_challenge != "loser":
        lines.append(f"option start-after-challenge {setup.start_after_challenge}")
    lines += [f"variant {variant}" for variant in sorted(setup.variants)]
    lines.append("seats " + " ".join(_name(setup, i) for i in range(len(setup.names))))
    if setup.profile.end_card:
        lines.append(f"end-card {setup.end_card}")
    lines.append(f"first {_name(setup, setup.first)}")
    lines += [format_action(setup, action) for action in log]
    return "\n".join(lines) + "\n"
