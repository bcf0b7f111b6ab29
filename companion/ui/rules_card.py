""""How to play" in words: a page for each rules profile, each row a picture and a few short lines.

The figures in the lines (cards dealt, penalty cards, points, the variant cards in play) are the rules'
own constants and rows, and the situation at the table is ``companion.rules.situation``'s; this module only
says them, and the screen (``companion/ui/screens/howto.py``) only draws the rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import Profile, ProfileId, Setup, StartAfterChallenge, State, Variant, situation
from companion.rules.cards import STARTING_NUMBERS
from companion.rules.numbered import PENALTY_CARDS
from companion.rules.state import TROPHY_POINTS, UNIVERSAL_POINTS
from companion.rules.variants import VARIANTS
from companion.ui.bidi import named
from companion.ui.i18n import tr
from companion.ui.words import Sentence, situation_words, spice_name


@dataclass(frozen=True)
class Picture:
    """What a row shows on its left: a card of the stack (``spice`` and ``number``), or icons."""

    spice: str = ""
    number: int = 0
    count: int = 1
    icons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    kind: str
    """"now", "turn", "challenge", "wild", "universal", "trophy", "end", "variants" or "variant"."""
    title: str
    lines: tuple[Sentence, ...]
    picture: Picture


def page(profile: Profile, game: State | None = None) -> list[Row]:
    """The rows of ``profile``'s page; with the game at hand (its state now) under these rules, its situation
    first and its own variant cards."""
    here = game if game is not None and game.profile.id == profile.id else None
    rows = [now_row(here)] if here is not None else []
    if profile.numbered:
        rows += _numbered(profile, here.setup if here is not None else None)
    else:
        rows += _five_spices(profile)
    return rows


def now_row(state: State) -> Row:
    now = situation(state)
    names = state.setup.names
    claim = now.claim
    title = tr._("Now") if now.seat is None else named(tr._("Now: {name} to play"), {"name": names[now.seat]})
    picture = Picture(claim.spice, claim.number or 0, max(1, now.stack)) if claim is not None else Picture(
        count=now.stack)  # an empty stack is drawn as the table draws it
    return Row("now", title, tuple(situation_words(now, names)), picture)


def _plain(*texts: str) -> tuple[Sentence, ...]:
    return tuple(Sentence(text, {}) for text in texts)


def _numbered(profile: Profile, setup: Setup | None) -> list[Row]:
    first = profile.spices[1]  # the game's own second spice: wasabi, or Sweet & Spicy's lemon
    low, high = STARTING_NUMBERS[0], STARTING_NUMBERS[-1]
    rows = [
        Row("turn", tr._("A turn"), _plain(
            tr._("Lay a card face down and say its spice and number: the stack's spice, a higher number. "
                 "Or pass and draw 1."),
            tr._("A new stack starts at {low} to {high} of any spice; after a 10, at {low} to {high} of the same "
                 "spice.").format(low=low, high=high),
        ), Picture(first, 3, 2)),
        Row("challenge", tr._("A challenge"), _challenge_lines(profile, setup), Picture(icons=("bolt",))),
    ]
    if profile.wild_cards:
        wild = "wild-spice-lemon" if "lemon" in profile.spices else "wild-spice"
        rows.append(Row("wild", tr._("The wild cards"), _plain(
            tr._("Wild spice: every spice, and no number."),
            tr._("Wild number: every number, and no spice."),
        ), Picture(icons=(wild, "wild-number"))))
    if profile.universals:
        rows.append(Row("universal", tr._("Universal cards"), _plain(
            tr._("Each seat starts with 1 universal card. Say any claim with it: it always survives a challenge."),
            tr._("Won: +{points}. Left in hand: \u2212{points}.").format(points=UNIVERSAL_POINTS),
        ), Picture(icons=("cardback",))))
    rows.append(Row("trophy", tr._("Trophies"), _plain(
        tr._("Your last card is not challenged, or survives: take a trophy (+{points}) and draw {n}.").format(
            points=TROPHY_POINTS, n=profile.hand_size),
    ), Picture(icons=("trophy",))))
    rows.append(Row("end", tr._("The end"), _plain(
        tr._("A second trophy wins at once. The game also ends at the last trophy, or when the World's End card "
             "shows."),
        tr._("Scores: +1 a card won, +{points} a trophy, \u22121 a card in hand.").format(points=TROPHY_POINTS),
    ), Picture(icons=("globe",))))
    return rows + _variant_rows(setup)


def _challenge_lines(profile: Profile, setup: Setup | None) -> tuple[Sentence, ...]:
    winner_starts = setup is not None and setup.start_after_challenge == StartAfterChallenge.WINNER
    lines = [
        tr._("Before the next seat plays or passes, any other seat may call the top card: "
             "\u201c{spice}\u201d or \u201c{number}\u201d").format(spice=tr._("Not that spice!"),
                                                                   number=tr._("Not that number!")),
        tr._("Turn it over: who was right wins the whole stack, the other draws {n}.").format(n=PENALTY_CARDS),
        tr._("The winner starts the next stack.") if winner_starts else tr._("The loser starts the next stack."),
    ]
    if profile.starter_plays:
        lines[-1] += " " + tr._("It starts with a card, not a pass.")
    if profile.universals:
        lines.append(tr._("The loser may take a universal card from the pile."))
    return _plain(*lines)


def _variant_rows(setup: Setup | None) -> list[Row]:
    """The variant cards of the game at hand; from Home, every card a game may have (one or two)."""
    cards = [VARIANTS[v] for v in VARIANTS if setup is None or v in setup.variants]
    if setup is None:
        head = tr._("One or two may be in play, chosen at set-up:")
    elif cards:
        head = tr._("In play in this game:")
    else:
        head = tr._("None in play in this game.")
    rows = [Row("variants", tr._("Variant cards"), _plain(head), Picture(icons=("plus",)))]
    rows += [Row("variant", tr._(card.name), _plain(_variant_line(card.variant)), Picture(icons=_variant_icons(
        card.variant))) for card in cards]
    return rows


def _variant_line(variant: Variant) -> str:
    card = VARIANTS[variant]
    line = tr._(card.line)
    return tr._("Reading: {rule}").format(rule=line) if card.reading else line


def _variant_icons(variant: Variant) -> tuple[str, ...]:
    return {Variant.WE_LOVE_CHILI: ("chili",), Variant.CHILI_REVERSES: ("chili", "arrow"),
            Variant.COPY_CAT: ("cardback", "cardback"), Variant.CHANGE_YOUR_LUCK: ("hand",),
            Variant.SPICE_RAIDER: ("hand",), Variant.TURN_IT_UP: ("redo",),
            Variant.START_IT_UP: ("arrow",), Variant.FOUR_IS_ANY: ("wild-number",)}[variant]


def _five_spices(profile: Profile) -> list[Row]:
    spices = tr._(", ").join(spice_name(spice) for spice in profile.spices)
    return [
        Row("turn", tr._("A turn"), _plain(
            tr._("Lay a card face down and name a spice, true or not; or draw 1; or challenge the card just "
                 "played."),
            tr._("The spices: {spices}. No numbers.").format(spices=spices),
        ), Picture(profile.spices[1], 0, 2)),
        Row("challenge", tr._("A challenge"), _plain(
            tr._("Only the next seat may challenge, as its turn."),
            tr._("A true claim: the challenger takes the card and draws 1. A false one: the player takes it back "
                 "and draws 2."),
            tr._("A claim not challenged lets its player play again at once."),
        ), Picture(icons=("bolt",))),
        Row("end", tr._("The end"), _plain(
            tr._("A last card not challenged, or that survives, wins at once. No trophies, no scores."),
            tr._("No World's End card: when the deck runs out, the pile, all but its top card, becomes the new deck."),
        ), Picture(icons=("crown",))),
    ]


def opening(game: State | None) -> ProfileId:
    """The page "How to play" opens on: the game at hand's rules, else Spicy's."""
    return game.profile.id if game is not None else ProfileId.SPICY

