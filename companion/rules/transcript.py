"""Table transcripts (docs/RULES.md section 5): one action a line, readable by people.

Names are single words; a name with a space or a ``#`` in it is written quoted
('Mary Ann'), so any game the app saves can be exported and read back exactly.
"""

from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

from companion.rules.actions import (
    Action,
    Adjust,
    AdjustDrawPile,
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
from companion.rules.cards import WILD_NUMBER, WILD_SPICE, Card, attribute_named
from companion.rules.errors import IllegalAction, Reason, either
from companion.rules.game import Game
from companion.rules.profiles import Profile, StartAfterChallenge, profile_named
from companion.rules.setup import check_end_card, check_option, checked_names, checked_variants, new_setup
from companion.rules.setup import start_after_challenge_named
from companion.rules.state import Setup
from companion.rules.variants import check_tuck_allowed

MAX_LINE = 1000
"""Characters in a line: a real line is under a hundred, and a megabyte line is refused before it is split."""
MAX_NUMBER = 999
"""Every number in a transcript counts cards; a bigger one is a typo, not a game."""


class TranscriptError(IllegalAction):
    """A refused line: ``str(exc)`` reads ``line N: reason``."""

    def __init__(self, line: int, reason: Reason) -> None:
        super().__init__("line {line}: {reason}", line=line, reason=reason)
        self.line = line


@dataclass(frozen=True)
class Transcript:
    setup: Setup
    actions: Iterator[tuple[int, Action]]
    """Each action with the line it came from, read as it is asked for: a badly
    written line is refused only when the reader gets there."""


# --------------------------------------------------------------------------
# Reading: one parser a keyword. Each checks a line's wording only; whether the
# action is allowed is the engine's to say, so no refusal is written twice.


def decode_transcript(data: bytes) -> str:
    """Transcript bytes as text, the one way for files, pipes and imports.

    UTF-8, with the byte-order mark Windows editors write dropped; a byte that is
    not UTF-8 is refused with its line, never replaced or carried along.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start]
        raise TranscriptError(
            line, Reason("byte 0x{byte:02x} is not UTF-8 text; save the file as UTF-8", byte=byte)
        ) from None


def _words(line: str) -> list[str]:
    """The line's words, NFC-normalised so a name matches its seat however it was typed."""
    if len(line) > MAX_LINE:
        raise IllegalAction(
            "the line has {length:,} characters; a line has at most {most}", length=len(line), most=MAX_LINE
        )
    try:
        return shlex.split(unicodedata.normalize("NFC", line), comments=True)
    except ValueError:
        raise IllegalAction("a quote is not closed") from None


def _arity(words: list[str], *counts: int) -> None:
    if len(words) - 1 not in counts:
        wanted = either(list(counts))
        if counts == (1,):
            raise IllegalAction("{keyword} takes {wanted} word after it", keyword=words[0], wanted=wanted)
        raise IllegalAction("{keyword} takes {wanted} words after it", keyword=words[0], wanted=wanted)


def _number(word: str, what: Reason) -> int:
    """ASCII digits only: ``str.isdigit`` also takes superscripts, which ``int`` refuses."""
    if not (word.isascii() and word.isdigit()):
        raise IllegalAction("{what} must be a whole number, not {word!r}", what=what, word=word)
    if len(word.lstrip("0")) > len(str(MAX_NUMBER)) or int(word) > MAX_NUMBER:
        shown = word[:10] + ("…" if len(word) > 10 else "")
        raise IllegalAction("{what} must be at most {most}, not {shown}", what=what, most=MAX_NUMBER, shown=shown)
    return int(word)


class _Header:
    """Collects header lines, each checked as it comes; the set-up is built when the first action arrives."""

    def __init__(self) -> None:
        self.profile: Profile | None = None
        self.names: tuple[str, ...] | None = None
        self.end_card: int | None = None
        self.first: str | None = None
        self.variants: list[str] = []
        self.start_after_challenge = StartAfterChallenge.LOSER

    def take(self, words: list[str]) -> None:
        if words[0] != "rules" and self.profile is None:
            raise IllegalAction("the transcript must start with a rules line")
        _HEADERS[words[0]](self, words)

    def rules(self, words: list[str]) -> None:
        if self.profile is not None:
            raise IllegalAction("rules is given twice")
        _arity(words, 1)
        self.profile = profile_named(words[1])

    def option(self, words: list[str]) -> None:
        assert self.profile is not None
        check_option(self.profile)
        _arity(words, 2)
        if words[1] != "start-after-challenge":
            raise IllegalAction("the only option is: start-after-challenge loser|winner")
        self.start_after_challenge = start_after_challenge_named(words[2])

    def variant(self, words: list[str]) -> None:
        _arity(words, 1)
        assert self.profile is not None
        checked_variants(self.profile, [*self.variants, words[1]])
        self.variants.append(words[1])

    def seats(self, words: list[str]) -> None:
        if self.names is not None:
            raise IllegalAction("seats is given twice")
        assert self.profile is not None
        self.names = checked_names(self.profile, words[1:])
        if self.end_card is not None:
            check_end_card(self.profile, self.end_card, len(self.names))

    def end_card_line(self, words: list[str]) -> None:
        if self.end_card is not None:
            raise IllegalAction("end-card is given twice")
        assert self.profile is not None
        _arity(words, 1)
        end_card = _number(words[1], Reason("the cards under the World's End card"))
        check_end_card(self.profile, end_card, None if self.names is None else len(self.names))
        self.end_card = end_card

    def first_line(self, words: list[str]) -> None:
        if self.first is not None:
            raise IllegalAction("first is given twice")
        _arity(words, 1)
        self.first = words[1]

    def setup(self) -> Setup:
        if self.profile is None:
            raise IllegalAction("the transcript must start with a rules line")
        if self.names is None:
            raise IllegalAction("a seats line must come before the first action")
        first = 0
        if self.first is not None:
            if self.first not in self.names:
                raise IllegalAction("first names {name}, who has no seat: {names}", name=self.first, names=self.names)
            first = self.names.index(self.first)
        return new_setup(
            self.profile, self.names, self.end_card, first, self.variants, self.start_after_challenge
        )


_HEADERS: dict[str, Callable[[_Header, list[str]], None]] = {
    "rules": _Header.rules,
    "option": _Header.option,
    "variant": _Header.variant,
    "seats": _Header.seats,
    "end-card": _Header.end_card_line,
    "first": _Header.first_line,
}


def _seat(setup: Setup, name: str) -> int:
    seat = setup.seat_named(name)
    if seat is None:
        raise IllegalAction("no seat is named {name}; the seats are {names}", name=name, names=setup.names)
    return seat


def _play(setup: Setup, words: list[str]) -> Action:
    """play NAME [universal] SPICE [NUMBER] [tuck T]: the engine says which of these the game allows."""
    args = words[1:]
    rest = args[1:]
    universal = rest[:1] == ["universal"]
    rest = rest[1:] if universal else rest
    tuck = 0
    if len(rest) > 2 and rest[-2] == "tuck":
        check_tuck_allowed(setup)  # "tuck 0" too, which the action cannot tell from no tuck
        tuck = _number(rest[-1], Reason("the tucked cards"))
        rest = rest[:-2]
    if len(rest) not in (1, 2):
        raise IllegalAction(
            "write play NAME SPICE NUMBER (universal before the spice, tuck T after; five-spices: play NAME SPICE)"
        )
    number = _number(rest[1], Reason("the number")) if len(rest) == 2 else None
    return Play(_seat(setup, args[0]), rest[0], number, universal, tuck)


def _seat_only(cls: type[Copy | Pass | Draw | TakeUniversal]) -> Callable[[Setup, list[str]], Action]:
    def parse(setup: Setup, words: list[str]) -> Action:
        _arity(words, 1)
        return cls(_seat(setup, words[1]))

    return parse


def _no_words(cls: type[EndCardDrawn | Undo | Redo]) -> Callable[[Setup, list[str]], Action]:
    def parse(setup: Setup, words: list[str]) -> Action:
        _arity(words, 0)
        return cls()

    return parse


def _challenge(setup: Setup, words: list[str]) -> Action:
    """challenge NAME [spice|number]: five-spices names no attribute, the others must (the engine says so)."""
    _arity(words, 1, 2)
    return Challenge(_seat(setup, words[1]), attribute_named(words[2]) if len(words) == 3 else None)


def _reveal(setup: Setup, words: list[str]) -> Action:
    args = words[1:]
    if args in ([WILD_SPICE], [WILD_NUMBER]):
        return Reveal(Card(None, None, args[0]))
    if len(args) == 1:
        return Reveal(Card(args[0], None))
    if len(args) == 2:
        return Reveal(Card(args[0], _number(args[1], Reason("the number"))))
    raise IllegalAction("write reveal SPICE NUMBER, reveal wild-spice or reveal wild-number")


def _resolve(setup: Setup, words: list[str]) -> Action:
    _arity(words, 1)
    if words[1] not in ("challenger", "player"):
        raise IllegalAction("resolve challenger (the challenger was right) or resolve player")
    return Resolve(words[1] == "challenger")


def _adjust(setup: Setup, words: list[str]) -> Action:
    """adjust NAME hand|won N, or adjust draw-pile N (told apart by their length: a seat may be named draw-pile)."""
    _arity(words, 2, 3)
    if len(words) == 3:
        if words[1] != "draw-pile":
            raise IllegalAction("write adjust NAME hand N, adjust NAME won N or adjust draw-pile N")
        return AdjustDrawPile(_number(words[2], Reason("the count")))
    return Adjust(_seat(setup, words[1]), words[2], _number(words[3], Reason("the count")))


_PARSERS: dict[str, Callable[[Setup, list[str]], Action]] = {
    "play": _play,
    "copy": _seat_only(Copy),
    "pass": _seat_only(Pass),
    "draw": _seat_only(Draw),
    "take-universal": _seat_only(TakeUniversal),
    "challenge": _challenge,
    "reveal": _reveal,
    "resolve": _resolve,
    "adjust": _adjust,
    "end-card-drawn": _no_words(EndCardDrawn),
    "undo": _no_words(Undo),
    "redo": _no_words(Redo),
}


def parse_action(setup: Setup, words: list[str]) -> Action:
    """One action line, already split into words, against the game's seats."""
    keyword = words[0]
    if keyword in _HEADERS:
        raise IllegalAction("{keyword} is a header line and must come before the first action", keyword=keyword)
    parser = _PARSERS.get(keyword)
    if parser is None:
        raise IllegalAction("unknown keyword {keyword!r}", keyword=keyword)
    return parser(setup, words)


def read_transcript(lines: Iterable[str]) -> Transcript:
    """The header now (each line checked as it comes); the actions as they are read.

    Reading stops at the first action line: ``Transcript.actions`` goes on from
    there, so whoever applies each action as it comes sees the first refused
    line first, whether it is badly written or against the rules.
    """
    numbered = enumerate(lines, start=1)
    header = _Header()
    last = 0
    for number, line in numbered:
        last = number
        try:
            words = _words(line)
            if not words:
                continue
            if words[0] in _HEADERS:
                header.take(words)
                continue
            setup = header.setup()
            first = (number, parse_action(setup, words))
        except IllegalAction as exc:
            raise TranscriptError(number, exc.reason) from None
        return Transcript(setup, chain([first], _actions(setup, numbered)))
    try:
        return Transcript(header.setup(), iter(()))
    except IllegalAction as exc:
        raise TranscriptError(max(last, 1), exc.reason) from None


def _actions(setup: Setup, numbered: Iterator[tuple[int, str]]) -> Iterator[tuple[int, Action]]:
    for number, line in numbered:
        try:
            words = _words(line)
            if words:
                yield number, parse_action(setup, words)
        except IllegalAction as exc:
            raise TranscriptError(number, exc.reason) from None


def replay_transcript(text: str) -> Game:
    """The game a transcript describes; the first refused line, for any reason, raises TranscriptError."""
    transcript = read_transcript(text.splitlines())
    line = 0

    def actions() -> Iterator[Action]:
        nonlocal line
        for number, action in transcript.actions:
            line = number  # the line of the action being applied, should the game refuse it
            yield action

    try:
        return Game.replay(transcript.setup, actions())
    except TranscriptError:
        raise  # a line badly written: reading it said so, with its number
    except IllegalAction as exc:
        raise TranscriptError(line, exc.reason) from None


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
        case AdjustDrawPile(value=value):
            return f"adjust draw-pile {value}"
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
