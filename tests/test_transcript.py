"""Table transcripts (docs/RULES.md section 5): every keyword round-trips, bad lines say where."""

from __future__ import annotations

from unicodedata import category, normalize

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    FIVE_SPICES,
    SPICY,
    SWEET_SPICY,
    Action,
    Adjust,
    Card,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    Game,
    IllegalAction,
    Pass,
    Play,
    Redo,
    Resolve,
    Reveal,
    Setup,
    TakeUniversal,
    TranscriptError,
    Undo,
    action_from_dict,
    new_setup,
    read_transcript,
    replay_transcript,
    write_transcript,
)

SPICY_SETUP = new_setup(SPICY, ["Ana", "Ben", "Cy"], 27, first=1, variants={"copy-cat", "change-your-luck"},
                        start_after_challenge="winner")
SWEET_SETUP = new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], 20)
FIVE_SETUP = new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=2)

ROUND_TRIPS: list[tuple[str, Setup, list[Action]]] = [
    ("play", SPICY_SETUP, [Play(1, "chili", 2)]),
    ("play tuck", SPICY_SETUP, [Play(1, "pepper", 2), Play(2, "pepper", 5, tuck=2)]),
    ("copy", SPICY_SETUP, [Play(1, "chili", 2), Copy(0)]),
    ("pass", SPICY_SETUP, [Pass(1)]),
    ("challenge spice + reveal", SPICY_SETUP, [Play(1, "chili", 3), Challenge(0, "spice"), Reveal(Card("wasabi", 7))]),
    ("challenge number + wild-spice", SPICY_SETUP, [Play(1, "chili", 3), Challenge(2, "number"),
                                                     Reveal(Card.wild_spice())]),
    ("wild-number", SPICY_SETUP, [Play(1, "chili", 3), Challenge(2, "spice"), Reveal(Card.wild_number())]),
    ("resolve challenger", SPICY_SETUP, [Play(1, "chili", 3), Challenge(2, "spice"), Resolve(True)]),
    ("resolve player", SPICY_SETUP, [Play(1, "chili", 3), Challenge(2, "spice"), Resolve(False)]),
    ("end-card-drawn", SPICY_SETUP, [EndCardDrawn()]),
    ("adjust", SPICY_SETUP, [Adjust(0, "hand", 4), Adjust(2, "won", 11)]),
    ("undo redo", SPICY_SETUP, [Pass(1), Undo(), Redo()]),
    ("universal + take-universal", SWEET_SETUP, [Play(0, "lemon", 1, universal=True), Challenge(1, "number"),
                                                  TakeUniversal(1)]),
    ("five-spices", FIVE_SETUP, [Play(2, "salt"), Play(2, "sugar"), Challenge(0), Reveal(Card("garlic", None)),
                                 Draw(1)]),
]


@pytest.mark.parametrize(("setup", "log"), [(s, log) for _, s, log in ROUND_TRIPS], ids=[n for n, _, _ in ROUND_TRIPS])
def test_transcript_every_keyword_round_trips(setup: Setup, log: list[Action]) -> None:
    game = Game.replay(setup, log)  # the log is a legal game
    text = write_transcript(setup, game.log)
    read = read_transcript(text.splitlines())
    assert read.setup == setup
    assert [action for _, action in read.actions] == log
    assert replay_transcript(text).state == game.state


@pytest.mark.parametrize(("setup", "log"), [(s, log) for _, s, log in ROUND_TRIPS], ids=[n for n, _, _ in ROUND_TRIPS])
def test_actions_round_trip_through_their_json_form(setup: Setup, log: list[Action]) -> None:
    assert [action_from_dict(a.to_dict()) for a in log] == log


def test_transcript_writes_the_header_lines() -> None:
    text = write_transcript(SPICY_SETUP, [])
    assert text.splitlines() == [
        "rules spicy",
        "option start-after-challenge winner",
        "variant change-your-luck",
        "variant copy-cat",
        "seats Ana Ben Cy",
        "end-card 27",
        "first Ben",
    ]


@pytest.mark.parametrize("name", ["Mary Ann", "#1", "O'Brien", "🌶️Zoë", "نرگس", "[b]Bo[/b]"])
def test_transcript_names_that_are_not_one_plain_word_are_quoted(name: str) -> None:
    setup = new_setup(SPICY, [name, "Ben"])
    log = [Play(0, "chili", 1), Challenge(1, "spice"), Resolve(False)]
    read = read_transcript(write_transcript(setup, log).splitlines())
    assert read.setup.names == (name, "Ben")
    assert [a for _, a in read.actions] == log


LINE_BREAKING = {"Cc", "Zl", "Zp"}
VISIBLE_NAMES = st.text(min_size=1, max_size=40).map(lambda n: normalize("NFC", n)).filter(
    lambda n: n.strip() and len(n) <= 40 and not LINE_BREAKING & {category(c) for c in n}
    and not all(category(c) in ("Cf", "Mn", "Me", "Zs") for c in n)
)


@settings(max_examples=300)
@given(st.lists(VISIBLE_NAMES, min_size=2, max_size=6, unique=True))
def test_transcript_any_printable_names_round_trip(names: list[str]) -> None:
    setup = new_setup(SPICY, names)
    read = read_transcript(write_transcript(setup, [Pass(0)]).splitlines())
    assert read.setup.names == tuple(names)
    assert [a for _, a in read.actions] == [Pass(0)]


def test_names_with_line_breaks_are_refused() -> None:
    with pytest.raises(IllegalAction, match="one line"):
        new_setup(SPICY, ["Ana\nBen", "Cy"])
    with pytest.raises(IllegalAction, match="one line"):
        new_setup(SPICY, ["Ana\u2028Ben", "Cy"])


def test_transcript_comments_and_blank_lines_are_ignored() -> None:
    text = "# a game\nrules spicy\n\nseats Ana Ben   # two\n  pass Ana # drew\n"
    assert replay_transcript(text).state.seats[0].hand == 7


def test_transcript_without_first_the_first_listed_seat_starts() -> None:
    assert replay_transcript("rules spicy\nseats Cy Ana").state.turn == 0


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("seats Ana Ben\nrules spicy", 1, "must start with a rules line"),
        ("rules chess\nseats Ana Ben", 1, "unknown rules 'chess'"),
        ("rules spicy\nseats Ana Ben\nshuffle", 3, "unknown keyword 'shuffle'"),
        ("rules spicy\nseats Ana Ben\npass Dan", 3, "no seat is named Dan; the seats are Ana, Ben"),
        ("rules spicy\nseats Ana Ben\npass Ana\nfirst Ben", 4, "must come before the first action"),
        ("rules spicy\nseats Ana Ana\npass Ana", 2, "same name"),
        ("rules spicy\nseats Ana Ben\nfirst Cy\npass Ana", 4, "first names Cy, who has no seat"),
        ("rules spicy\nseats Ana Ben\nend-card 89\npass Ana", 3, "0 to 88"),
        ("rules spicy\nseats Ana Ben\nend-card 20\nend-card 21", 4, "end-card is given twice"),
        ("rules sweet-spicy\nseats Ana Ben\ndraw Ana", 3, "in sweet-spicy a seat that does not play passes"),
        ("rules spicy\nseats Ana Ben\nplay 'Ana chili 1", 3, "quote is not closed"),
        ("rules spicy\nseats Ana Ben\nplay Ana chili one", 3, "whole number"),
        ("rules spicy\nseats Ana Ben\nresolve maybe", 3, "resolve challenger"),
        ("rules spicy\noption speed fast\nseats Ana Ben", 2, "only option"),
        ("rules spicy\nseats Ana Ben\nplay Ana chili 1\nchallenge Ben spice\nreveal chili", 5, "1 to 10"),
        ("rules five-spices\nseats Ana Ben\ndraw Ana\nend-card-drawn", 4, "not part of five-spices"),
        # docs/RULES.md 6: lines are checked in order, wording and rules alike.
        ("rules spicy\nseats Ana Ben\nplay Ben chili 1\npass Zed", 3, "it is Ana's turn"),
        ("rules spicy\nseats Ana Ben\nplay Ben chili 1\nshuffle", 3, "it is Ana's turn"),
        ("rules spicy\nseats Ana Ben\npass Ana\nplay Ana chili 1\nplay Ben chili one", 4, "it is Ben's turn"),
        ("rules spicy\nseats Ana Ben\npass Ana\nundo\nundo\nplay 'Ana", 5, "nothing to undo"),
        ("rules spicy\nseats Ana Ben\npass Ana\nplay Zed chili 1\nundo\nundo\nundo", 4, "no seat is named Zed"),
        # Wording the parser leaves to the engine, so each refusal is written once.
        ("rules spicy\nseats Ana Ben\nadjust Ana pile 3", 3, "adjust sets hand or won"),
        ("rules spicy\nseats Ana Ben\nplay Ana chili", 3, "declared with a spice and a number"),
        ("rules spicy\nseats Ana Ben\nplay Ana chili 2\nchallenge Ben", 4, "must name spice or number"),
        # Header lines are refused at their own line.
        ("rules spicy\nseats Ana\nend-card 20\npass Ana", 2, "Spicy needs 2 to 6 seats, not 1"),
        ("rules spicy\noption start-after-challenge nobody\nseats Ana Ben", 2, "loser or winner"),
        ("rules spicy\nvariant copy-cat\nvariant turn-it-up\nvariant start-it-up\nseats Ana Ben", 4, "at most 2"),
        ("rules spicy\nvariant copy-cat\nvariant copy-cat\nseats Ana Ben", 3, "copy-cat variant card is already"),
        ("rules five-spices\nseats Ana Ben\nvariant copy-cat\ndraw Ana", 3, "not five-spices"),
        ("rules spicy\nvariant hot-sauce\nseats Ana Ben\npass Ana", 2, "unknown variant 'hot-sauce'"),
        # docs/RULES.md 6: an end-card out of range at its own line; five-spices has no option or end-card.
        ("rules spicy\nend-card 89\nseats Ana Ben\npass Ana", 2, "0 to 88"),
        ("rules spicy\nend-card 83\nseats Ana Ben Cy\npass Ana", 3, "0 to 82"),
        ("rules spicy\nseats Ana Ben Cy\nend-card 83\npass Ana", 3, "0 to 82"),
        ("rules five-spices\noption start-after-challenge winner\nseats Ana Ben", 2, "five-spices has no house option"),
        ("rules five-spices\nseats Ana Ben\nend-card 0\ndraw Ana", 3, "five-spices has no World's End card"),
        ("rules five-spices\nend-card 12\nseats Ana Ben", 2, "five-spices has no World's End card"),
        # A tuck, of any count, only with change-your-luck.
        ("rules spicy\nseats Ana Ben\nplay Ana chili 2\nplay Ben chili 5 tuck 0", 4, "needs the change-your-luck"),
        ("rules spicy\nseats Ana Ben\nplay Ana chili 2\nplay Ben chili 5 tuck 1", 4, "needs the change-your-luck"),
    ],
)
def test_transcript_bad_lines_are_refused_with_their_line_number(text: str, line: int, reason: str) -> None:
    with pytest.raises(TranscriptError) as caught:
        replay_transcript(text)
    assert caught.value.line == line
    assert reason in str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")


def test_transcript_tuck_0_with_change_your_luck_is_a_plain_play() -> None:
    text = "rules spicy\nvariant change-your-luck\nseats Ana Ben\nplay Ana chili 2\nplay Ben chili 5 tuck 0"
    assert replay_transcript(text).state == replay_transcript(text.removesuffix(" tuck 0")).state


def test_transcript_end_card_before_the_seats_may_be_the_most_their_deal_leaves() -> None:
    assert replay_transcript("rules spicy\nend-card 82\nseats Ana Ben Cy").state.draw_pile == 0


def test_reading_a_transcript_parses_each_action_line_only_when_it_is_reached() -> None:
    transcript = read_transcript(["rules spicy", "seats Ana Ben", "pass Ana", "pass Zed"])
    assert next(transcript.actions) == (3, Pass(0))
    with pytest.raises(TranscriptError, match="line 4: no seat is named Zed"):
        next(transcript.actions)
