"""The table as the screens draw it: one frozen value, made by one function of the game and the buzz.

Every fact here is asked of the rules (``playable_claims``, ``challengers``,
``is_legal(Copy(...))``, ``State.score_parts``, ``starting_draw_pile``), so no
rule is written twice and the screen can never offer what the engine refuses.
No Kivy: the model and its tests run without a window; ``companion.ui.view``
copies it into Kivy properties and ``companion.ui.words`` says it in words.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import pairwise
from typing import Any, Literal

from companion.rules import (
    Action,
    Card,
    Challenge,
    Copy,
    Draw,
    Game,
    Pass,
    Reveal,
    Resolve,
    ScoreParts,
    State,
    challengers,
    is_legal,
    playable_claims,
    situation,
    starting_draw_pile,
    variants,
)
from companion.rules.cards import Attribute
from companion.rules.numbered import most_above_end_card

EndLevel = Literal["calm", "warning", "danger"]


@dataclass(frozen=True)
class Buzz:
    """Who takes the challenge, before they name spice or number.

    ``later`` lists the seats that pressed after the winner, with their delay
    in milliseconds (the screen writes it in its language: ``words.delay``); ``tie`` lists seats whose edges came at
    the very same time (the table picks one); ``before_tap`` the seats among
    them that pressed as the card landed, before its claim was tapped.
    """

    challenger: int | None
    later: tuple[tuple[int, float], ...] = ()
    tie: tuple[int, ...] = ()
    before_tap: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatModel:
    """One seat's panel: counts, score and what it is doing right now."""

    hand: int
    universals: int
    won: int
    won_universals: int
    trophies: int
    score: int | None
    """None in five-spices, which has no scores."""
    score_parts: ScoreParts | None
    to_play: bool
    armed: bool
    """Its buzzer is live: it may challenge the top card, and nobody has buzzed yet."""
    played: str
    """The number on the mini card when this seat's card is the one on top ("" otherwise)."""
    played_spice: str
    challenger: bool
    """It holds the challenge: it buzzed, or its challenge waits for the card to be turned."""
    locked: bool
    """It pressed too, but later than the challenger."""
    winner: bool
    place: int
    """Its place at the end, 1 the best, shared by equal scores (``State.places``); 0 while the game goes on."""
    can_copy: bool


@dataclass(frozen=True)
class Hint:
    """What the seat to play may do, as facts; ``companion.ui.words.hint_words`` says it.

    ``claims`` are the claims a play is accepted for in the numbered games
    (every spice with its numbers when ``any_claim``; none from an empty hand); in five-spices ``may_challenge`` is the
    player whose card the seat to play may challenge.
    """

    seat: int | None
    """None when nobody is to play (the game is over)."""
    numbered: bool
    claims: tuple[tuple[str, tuple[int, ...]], ...] = ()
    any_claim: bool = False
    may_challenge: int | None = None
    may_pass: bool = True
    """False for Sweet & Spicy's starter after a challenge, which must play (docs/RULES.md 2)."""


@dataclass(frozen=True)
class Outcome:
    """A challenge just decided, as counts: who won, who lost, what each seat gained, who starts next."""

    spice: str
    number: int | None
    card: Card | None
    """The card turned over; None when the table told who was right, or a universal card decided."""
    attribute: Attribute | None
    challenger_right: bool
    universal: bool
    winner: int
    loser: int
    starter: int | None
    hand_gain: tuple[int, ...]
    won_gain: tuple[int, ...]
    drawn: int
    """Cards the loser drew as the penalty (numbered games)."""
    trophy: bool
    """A last card survived: its player took a trophy."""
    numbered: bool
    ended: bool


@dataclass(frozen=True)
class TableModel:
    """Everything the table screen and its sheets show; the view copies it field by field."""

    profile: str
    title: str
    numbered: bool
    spices: tuple[str, ...]
    turn: int
    """The seat to play, -1 when the game is over."""
    stack: int
    claim_spice: str
    claim_number: int
    """0 when the claim has no number (five-spices) or there is none."""
    stack_spice: str
    """The spice the claim pad starts on: the stack's, which the next claim follows; "" on a new stack,
    where the seat to play must choose one (a spice chosen for it would play its first number tapped)."""
    draw_pile: int
    has_end_card: bool
    end_level: EndLevel
    draw_pile_start: int
    draw_pile_most: int
    """The most the table can set the draw pile to (``adjust draw-pile N``)."""
    direction: str
    """Which way the turn goes ("clockwise", "counter-clockwise") while a card in play can turn it; else ""."""
    trophies_total: int
    trophies_left: int
    trophy_takers: tuple[int, ...]
    """One seat index per trophy taken."""
    has_universals: bool
    """Sweet & Spicy: universal cards are dealt, held, won and scored (their own column at the end)."""
    universal_pile: int
    may_take_universal: int
    last_card: str
    """The name of the seat whose last card is on top, else ""."""
    window: bool
    """A card is on top and may still be challenged."""
    window_entry: int | None
    """The card on top by its place in the log: the window every buzzer decision names."""
    top_player: int
    top_universal: bool
    move_to: int
    """The seat to play while a challenge taken on the card on top waits to be called, when that seat may
    have laid its card already (the press was for it, docs/RULES.md 1): the sheet offers to move the
    challenge there once its claim is entered. -1 otherwise."""
    challenger: int
    pending_attribute: str
    pending: bool
    """A challenge is made and waits for the card to be turned (after the two above: the reveal sheet opens on it)."""
    ended: bool
    end_reason: str
    winners: tuple[int, ...]
    can_undo: bool
    can_redo: bool
    legal: dict[str, list[int]]
    """Spice -> the numbers it may be declared with now."""
    can_tuck: bool
    can_pass: bool
    """The seat to play may pass (five-spices: draw); dimmed, Pass still answers a tap with the reason."""
    copy_cat: bool
    armed: frozenset[int]
    """The seats the rules let challenge the card on top; their buzzers are armed while nobody has buzzed."""
    hint: Hint
    seat_models: tuple[SeatModel, ...]


TABLE_FIELDS = tuple(f.name for f in fields(TableModel) if f.name not in ("armed", "hint", "seat_models"))
"""The fields a view copies into its own properties of the same names."""
SEAT_FIELDS = tuple(f.name for f in fields(SeatModel))


def table_model(game: Game, buzz: Buzz | None = None) -> TableModel:
    """The table now: ``game`` as the rules see it, and ``buzz``, a challenge taken but not yet called."""
    state = game.state
    profile, setup = state.profile, state.setup
    armed = challengers(state)
    return TableModel(
        profile=profile.id,
        title=profile.title,
        numbered=profile.numbered,
        spices=profile.spices,
        turn=_or_none(state.turn),
        stack=state.stack,
        draw_pile=state.draw_pile,
        has_end_card=profile.end_card,
        end_level=end_level(state),
        draw_pile_start=max(1, starting_draw_pile(setup)),
        draw_pile_most=most_above_end_card(setup),
        direction=state.direction if variants.direction_shown(setup) else "",
        trophies_total=profile.trophies,
        trophies_left=state.trophies_left,
        trophy_takers=tuple(i for i, seat in enumerate(state.seats) for _ in range(seat.trophies)),
        has_universals=profile.universals > 0,
        universal_pile=state.universal_pile,
        may_take_universal=_or_none(state.may_take_universal),
        window=state.window is not None and state.challenge is None and not state.ended,
        window_entry=game.window_entry,
        ended=state.ended,
        end_reason=state.end_reason or "",
        winners=state.winners,
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        legal=_legal(state),
        stack_spice=_stack_spice(state),
        can_tuck=variants.tuck(setup) is not None,
        can_pass=state.turn is not None and is_legal(state, (Pass if profile.numbered else Draw)(state.turn)),
        copy_cat=variants.allows(setup, Copy),
        armed=armed,
        hint=hint(state),
        seat_models=_seats(state, armed if buzz is None else frozenset(), buzz),
        move_to=_move_to(state, buzz),
        **_top_card(state),
        **_challenge(state),
    )


def _legal(state: State) -> dict[str, list[int]]:
    """Spice -> the numbers the seat to play may declare now (as a universal card when it holds only those)."""
    return {spice: list(numbers) for spice, numbers in playable_claims(state).items()}


def _move_to(state: State, buzz: Buzz | None) -> int:
    """The seat to play, while another seat's buzz waits and that seat may lay a card, else -1."""
    if buzz is None or buzz.challenger is None or buzz.challenger == state.turn or not _legal(state):
        return -1
    return _or_none(state.turn)


def _stack_spice(state: State) -> str:
    """The claim in force's spice while the seat to play may follow it, else ""."""
    claim = state.claim
    return claim.spice if claim is not None and claim.spice in _legal(state) else ""


def _or_none(seat: int | None) -> int:
    """A seat, or -1 for none (a Kivy numeric property holds no None)."""
    return -1 if seat is None else seat


def _top_card(state: State) -> dict[str, Any]:
    """The claim in force and the card on top."""
    claim, top = state.claim, state.window
    return {
        "claim_spice": claim.spice if claim else "",
        "claim_number": (claim.number or 0) if claim else 0,
        "last_card": state.name(top.player) if top is not None and top.last_card else "",
        "top_player": -1 if top is None else top.player,
        "top_universal": bool(top and top.universal),
    }


def _challenge(state: State) -> dict[str, Any]:
    """The challenge waiting for its card to be turned, if any."""
    challenge = state.challenge
    if challenge is None:
        return {"challenger": -1, "pending_attribute": "", "pending": False}
    return {"challenger": challenge.challenger, "pending_attribute": challenge.attribute or "", "pending": True}


def end_level(state: State) -> EndLevel:
    """How close the World's End card is: within three rounds a warning, within one a danger."""
    seats = len(state.seats)
    if not state.profile.end_card or state.draw_pile > 3 * seats:
        return "calm"
    return "warning" if state.draw_pile > seats else "danger"


def hint(state: State) -> Hint:
    """The seat to play's choices, from the same facts "How to play" tells a newcomer (``situation``)."""
    now = situation(state)
    if now.seat is None:
        return Hint(None, now.numbered)
    if not now.numbered:
        may_challenge = now.challenged if now.seat in now.challengers else None
        return Hint(now.seat, False, may_challenge=may_challenge)
    return Hint(now.seat, True, now.claims, now.any_claim, may_pass=now.may_pass)


def _seats(state: State, armed: frozenset[int], buzz: Buzz | None) -> tuple[SeatModel, ...]:
    places = state.places() if state.ended else (0,) * len(state.seats)
    return tuple(_seat(state, i, armed, buzz, places[i]) for i in range(len(state.seats)))


def _seat(state: State, i: int, armed: frozenset[int], buzz: Buzz | None, place: int) -> SeatModel:
    live, top = state.seats[i], state.window
    claim = top.claim if top is not None and top.player == i else None
    return SeatModel(
        hand=live.hand,
        universals=live.universals,
        won=live.won,
        won_universals=live.won_universals,
        trophies=live.trophies,
        score=state.score(i),
        score_parts=state.score_parts(i),
        to_play=i == state.turn and not state.ended,
        armed=i in armed,
        played=str(claim.number or "") if claim else "",
        played_spice=claim.spice if claim else "",
        challenger=_holds_challenge(state, i, buzz),
        locked=buzz is not None and i in {seat for seat, _ in buzz.later},
        winner=state.ended and i in state.winners,
        place=place,
        can_copy=is_legal(state, Copy(i)),
    )


def _holds_challenge(state: State, seat: int, buzz: Buzz | None) -> bool:
    """It buzzed first, or its challenge waits for the card to be turned."""
    if buzz is not None:
        return buzz.challenger == seat
    return state.challenge is not None and state.challenge.challenger == seat


def outcome(before: State, after: State, action: Action) -> Outcome | None:
    """The challenge ``action`` decided, or None when it decided none (a play, a challenge still waiting)."""
    top = before.window
    if not isinstance(action, (Challenge, Reveal, Resolve)) or after.challenge is not None or top is None:
        return None
    if isinstance(action, Challenge):
        challenger, attribute = action.seat, action.attribute
    else:
        assert before.challenge is not None
        challenger, attribute = before.challenge.challenger, before.challenge.attribute
    winner = next(e.seat for e in after.events if e.kind == "challenge-won")
    assert winner is not None
    loser = top.player if winner == challenger else challenger
    return Outcome(
        spice=top.claim.spice,
        number=top.claim.number,
        card=action.card if isinstance(action, Reveal) else None,
        attribute=attribute,
        challenger_right=winner == challenger,
        universal=top.universal,
        winner=winner,
        loser=loser,
        starter=after.turn,
        hand_gain=tuple(a.hand - b.hand for a, b in zip(after.seats, before.seats, strict=True)),
        won_gain=tuple(a.won - b.won for a, b in zip(after.seats, before.seats, strict=True)),
        drawn=next((e.count for e in after.events if e.kind == "penalty" and e.seat == loser), 0),
        trophy=any(e.kind == "trophy" for e in after.events),
        numbered=after.profile.numbered,
        ended=after.ended,
    )


def challenges(game: Game) -> tuple[Outcome, ...]:
    """Every challenge decided in the moves that stand, oldest first: an undone one is not among them."""
    found = (outcome(before.state, step.state, step.move) for before, step in pairwise(game.steps())
             if step.move is not None)
    return tuple(decided for decided in found if decided is not None)
