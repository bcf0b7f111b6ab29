"""Spicy and Sweet & Spicy: numbered claims on a stack, challenges on spice or number,
trophies for a last card, and the variant cards of "Spice it up!".
"""

from __future__ import annotations

from functools import cache, partial

from companion.rules import variants
from companion.rules.actions import Action, AdjustDrawPile, Challenge, Copy, EndCardDrawn, Pass, Play, Resolve, Reveal
from companion.rules.actions import TakeUniversal
from companion.rules.cards import ATTRIBUTES, NUMBERS, STARTING_NUMBERS, Card, Claim, challenger_right, describe_numbers
from companion.rules.errors import IllegalAction, Name, Param, Reason, Word, either
from companion.rules.frozen import replace
from companion.rules.profiles import Profile, StartAfterChallenge, Variant
from companion.rules.state import Draft, EndReason, EventKind, PendingChallenge, Setup, State, Window
from companion.rules.steps import Rule, RuleTable, check_seat, check_spice, shared_rules
from companion.rules.steps import check_turn, check_turn_of, draw_cards, draw_one, end, pending, take_trophy
from companion.rules.steps import win_stack
from companion.rules.variants import Tuck

PENALTY_CARDS = 2
"""The loser of a challenge draws 2 at once."""

# --------------------------------------------------------------------------
# Claims


def allowed_numbers(state: State, spice: str) -> tuple[int, ...]:
    """The numbers ``spice`` may be declared with on this stack; () when it may not be declared at all.

    Every play checked asks it, each candidate of a random move among them, so each answer is kept: it
    follows from the cards in play, the claim on top and the spice alone. A game meets at most 90 (30 claims
    on top, 3 spices), every game together under 7,000 (37 sets of cards, 2 numbered profiles). A new stack
    is answered at once, as before: asking the kept answers costs more than that.
    """
    claim = state.claim
    if claim is None:
        return STARTING_NUMBERS
    return _allowed_numbers(state.setup.variants, claim, spice)


@cache
def _allowed_numbers(cards: frozenset[Variant], claim: Claim, spice: str) -> tuple[int, ...]:
    assert claim.number is not None
    restart = variants.restarts(cards, claim.number)
    if spice == claim.spice:
        higher = tuple(range(claim.number + 1, 11))
        return STARTING_NUMBERS + higher if restart else higher
    if restart and spice in variants.run_spices(cards):
        return STARTING_NUMBERS
    return ()


def legal_claims(state: State) -> dict[str, tuple[int, ...]]:
    """Which numbers each spice may be declared with on this stack (the claim pad), the stack's spice first.

    Spicy and Sweet & Spicy only: in five-spices any spice may be declared, with no number.
    """
    spices = state.profile.spices
    if state.claim is not None:
        spices = (state.claim.spice, *(s for s in spices if s != state.claim.spice))
    return {spice: numbers for spice in spices if (numbers := allowed_numbers(state, spice))}


def _refuse_claim(state: State, seat: int) -> IllegalAction:
    allowed = legal_claims(state)
    if state.claim is None:
        why = Reason("a new stack starts")
    else:
        assert state.claim.number is not None  # every claim has a number outside five-spices
        why = Reason("the stack is {spice} and stands at {number}", spice=Word(state.claim.spice),
                     number=state.claim.number)
    options: Param
    if len(allowed) == len(state.profile.spices) and len(set(allowed.values())) == 1:
        options = Reason("any spice {numbers}", numbers=describe_numbers(list(next(iter(allowed.values())))))
    else:
        options = either([Reason("{spice} {numbers}", spice=Word(spice), numbers=describe_numbers(list(numbers)))
                          for spice, numbers in allowed.items()])
    return IllegalAction("{name} must declare {options}: {why}", name=Name(state.name(seat)), options=options, why=why)


# --------------------------------------------------------------------------
# Play and copy


def check_play(state: State, action: Play) -> None:
    seat = action.seat
    check_turn(state, seat)
    check_spice(state, action.spice)
    if action.number is None:
        raise IllegalAction(
            "a card in {profile} is declared with a spice and a number from 1 to 10", profile=Word(state.profile.id)
        )
    if action.number not in NUMBERS:
        raise IllegalAction("numbers go from 1 to 10, not {number}", number=action.number)
    player = state.seats[seat]
    if player.hand == 0:
        raise IllegalAction("{name} has no cards to play and can only pass", name=Name(player.name))
    if action.universal:
        if not state.profile.universals:
            raise IllegalAction("{profile} has no universal cards", profile=Word(state.profile.id))
        if player.universals == 0:
            raise IllegalAction("{name} has no universal card in hand", name=Name(player.name))
    elif player.spice_cards == 0:
        raise IllegalAction("{name} holds only universal cards: play one as universal", name=Name(player.name))
    if action.tuck:
        _check_tuck(state, action)
    if action.number not in allowed_numbers(state, action.spice):
        raise _refuse_claim(state, seat)


def _check_tuck(state: State, action: Play) -> None:
    rule = variants.check_tuck_allowed(state.setup)
    if action.number != rule.under:
        raise IllegalAction("cards may be tucked only under a declared 5")
    if not 0 < action.tuck <= rule.most:
        raise IllegalAction("1 or 2 cards may be tucked, no more")
    player = state.seats[action.seat]
    if player.hand < action.tuck + 1:
        raise IllegalAction(
            "{name} needs {cards} cards in hand to tuck {tuck}",
            name=Name(player.name), cards=action.tuck + 1, tuck=action.tuck,
        )
    spare = player.spice_cards - (0 if action.universal else 1)
    if spare < action.tuck:
        raise IllegalAction(
            "only spice cards are tucked: {name} has {spare} to tuck besides the card played, not {tuck}",
            name=Name(player.name), spare=spare, tuck=action.tuck,
        )


def play(draft: Draft, action: Play) -> None:
    _lay_card(draft, action.seat, Claim(action.spice, action.number), action.universal, action.tuck)


def check_copy(state: State, action: Copy) -> None:
    seat = action.seat
    check_seat(state, seat)
    if not variants.allows(state.setup, Copy):
        raise IllegalAction("copying a card needs the copy-cat variant")
    window = state.window
    if window is None:
        raise IllegalAction("there is no card to copy: copy while the top card can still be challenged")
    if window.player == seat:
        raise IllegalAction("{name} cannot copy their own card", name=Name(state.name(seat)))
    if state.seats[seat].spice_cards == 0:
        raise IllegalAction("{name} has no spice card to copy with", name=Name(state.name(seat)))


def copy_card(draft: Draft, action: Copy) -> None:
    assert draft.window is not None
    _lay_card(draft, action.seat, draft.window.claim, False, 0)


def _lay_card(draft: Draft, seat: int, claim: Claim, universal: bool, tuck: int) -> None:
    """A legal play or copy: close the last window, the cards in play have their say, then the card goes down."""
    _close_window(draft)
    if draft.ended:
        return
    variants.on_card(draft, seat, claim)
    player = draft.seats[seat]
    hand = player.hand - 1 - tuck
    last_card = hand == 0 and tuck == 0
    draft.set_seat(seat, replace(player, hand=hand, universals=player.universals - universal))
    draft.stack += 1 + tuck
    draft.stack_universals += universal
    draft.claim = claim
    draft.window = Window(seat, claim, universal, last_card)
    draft.turn = draft.next_seat(seat)
    draft.must_play = None
    card = "a universal card" if universal else "a card"
    draft.tell(EventKind.PLAY, seat, 1 + tuck, f"{player.name} plays {card} as {claim}")
    if last_card:
        draft.tell(EventKind.LAST_CARD, seat, 0, f"{player.name} plays their last card!")
    if tuck:
        draw_cards(draft, seat, tuck, EventKind.DRAW)


def _close_window(draft: Draft) -> None:
    """The next play or pass ends the chance to challenge; a last card that got through earns its trophy."""
    window = draft.window
    if window is None:
        return
    draft.window = None
    if window.last_card:
        _survived_last_card(draft, window)


def _survived_last_card(draft: Draft, window: Window) -> None:
    """A trophy (none for a universal card), then a new hand."""
    if not window.universal:
        take_trophy(draft, window.player)
        if draft.ended:
            return
    draw_cards(draft, window.player, draft.profile.hand_size, EventKind.REFILL)


# --------------------------------------------------------------------------
# Pass


def check_pass(state: State, action: Pass) -> None:
    check_turn_of(state, action)
    if state.must_play == action.seat and state.seats[action.seat].hand > 0:
        raise IllegalAction(
            "{name} starts the new stack: in {profile} the seat that starts after a challenge plays a card, "
            "and may not pass",
            name=Name(state.name(action.seat)), profile=Word(state.profile.title),
        )


def pass_turn(draft: Draft, action: Pass) -> None:
    _close_window(draft)
    draw_one(draft, action.seat, EventKind.PASS, f"{draft.name(action.seat)} passes and draws 1")


# --------------------------------------------------------------------------
# Challenges


def check_challenge(state: State, action: Challenge) -> None:
    seat = action.seat
    check_seat(state, seat)
    window = state.window
    if window is None:
        raise IllegalAction(
            "there is no card to challenge: a card can be challenged only until the next seat plays or passes"
        )
    if window.player == seat:
        raise IllegalAction("{name} cannot challenge their own card", name=Name(state.name(seat)))
    if action.attribute not in ATTRIBUTES:
        raise IllegalAction('a challenge must name spice or number: "not that spice!" or "not that number!"')


def challenge(draft: Draft, action: Challenge) -> None:
    window = draft.window
    assert window is not None
    challenger, player = draft.name(action.seat), draft.name(window.player)
    what = "not that spice!" if action.attribute == "spice" else "not that number!"
    draft.tell(EventKind.CHALLENGE, action.seat, 0, f"{challenger} challenges {player}'s {window.claim}: {what}")
    draft.challenge = PendingChallenge(action.seat, action.attribute)
    if window.universal:
        _settle(draft, challenger_wins=False, how="a universal card always survives")


def reveal(draft: Draft, action: Reveal) -> None:
    waiting, window = pending(draft)
    assert waiting.attribute is not None
    right = challenger_right(waiting.attribute, window.claim, action.card, partial(variants.numbers_match, draft.setup))
    _settle(draft, right, f"the card is {action.card}")


def resolve(draft: Draft, action: Resolve) -> None:
    _settle(draft, action.challenger_right, "the table says so")


def _settle(draft: Draft, challenger_wins: bool, how: str) -> None:
    """docs/RULES.md 6: stack to the winner, trophy, the loser's 2, the refill; the first to end the game stops the rest."""
    waiting, window = pending(draft)
    winner, loser = (waiting.challenger, window.player) if challenger_wins else (window.player, waiting.challenger)
    draft.window = draft.challenge = draft.raider = draft.claim = None
    draft.tell(EventKind.CHALLENGE_WON, winner, 0, f"{draft.name(winner)} wins the challenge: {how}")
    win_stack(draft, winner, EventKind.STACK_WON)
    survived = window.last_card and not challenger_wins
    if survived and not window.universal:
        take_trophy(draft, window.player)
        if draft.ended:
            return
    draw_cards(draft, loser, PENALTY_CARDS, EventKind.PENALTY)
    if draft.ended:
        return
    if survived:
        draw_cards(draft, window.player, draft.profile.hand_size, EventKind.REFILL)
        if draft.ended:
            return
    starter = winner if draft.setup.start_after_challenge == StartAfterChallenge.WINNER else loser
    draft.turn = starter
    draft.may_take_universal = loser if draft.universal_pile > 0 else None
    draft.must_play = starter if draft.profile.starter_plays else None


def check_take_universal(state: State, action: TakeUniversal) -> None:
    check_seat(state, action.seat)
    if not state.profile.universals:
        raise IllegalAction("{profile} has no universal cards", profile=Word(state.profile.id))
    if state.may_take_universal != action.seat:
        raise IllegalAction(
            "only the loser of the challenge just decided may take a universal card, once, before the next action"
        )


def take_universal(draft: Draft, action: TakeUniversal) -> None:
    seat = draft.seats[action.seat]
    draft.set_seat(action.seat, replace(seat, hand=seat.hand + 1, universals=seat.universals + 1))
    draft.universal_pile -= 1
    draft.may_take_universal = None
    draft.tell(EventKind.UNIVERSAL, action.seat, 1, f"{seat.name} takes a universal card")


# --------------------------------------------------------------------------
# The World's End card, told by the table


def check_end_card_drawn(state: State, action: EndCardDrawn) -> None:
    """Always allowed while the game goes on: the table saw the card."""


def end_card_drawn(draft: Draft, action: EndCardDrawn) -> None:
    draft.draw_pile = 0
    end(draft, EndReason.END_CARD)


def most_above_end_card(setup: Setup) -> int:
    """The most cards the table can count above the World's End card: every spice card not under it."""
    return setup.profile.spice_cards - setup.end_card


def check_adjust_draw_pile(state: State, action: AdjustDrawPile) -> None:
    most = most_above_end_card(state.setup)
    if not 0 <= action.value <= most:
        raise IllegalAction(
            "the draw pile holds 0 to {most} cards above the World's End card, not {value}",
            most=most, value=action.value,
        )


def adjust_draw_pile(draft: Draft, action: AdjustDrawPile) -> None:
    """The table's count wins over the companion's: nothing else moves, and 0 ends nothing until a seat draws."""
    draft.draw_pile = action.value
    draft.tell(EventKind.ADJUST, None, action.value, f"the draw pile set to {action.value}")


RULES: RuleTable = {
    Play: Rule(check_play, play),
    Copy: Rule(check_copy, copy_card),
    Pass: Rule(check_pass, pass_turn),
    Challenge: Rule(check_challenge, challenge),
    TakeUniversal: Rule(check_take_universal, take_universal),
    EndCardDrawn: Rule(check_end_card_drawn, end_card_drawn),
    AdjustDrawPile: Rule(check_adjust_draw_pile, adjust_draw_pile),
    **shared_rules(reveal, resolve),
}

def candidates(state: State) -> list[Action]:
    """Every action that may be legal now, but the table's corrections; ``engine`` checks each. Only actions
    of ``RULES``, and only reveals and resolves while a challenge waits: ``engine.legal_actions`` counts on it.

    Actions are values, so the sets a game asks for again and again are made once and kept (``_decisions``,
    ``_plays``, ``_answers``): a random move asks for every candidate at every move, and making them anew
    was half of what finding the legal ones cost. Kept for good, as every game together meets at most a
    couple of thousand (a seat, a spice and the numbers a stack allows: 972 after 2,000 random games).
    A universal card is offered only to a seat that holds one.
    """
    if state.challenge is not None:
        return list(_decisions(state.profile))
    found: list[Action] = []
    if state.may_take_universal is not None:
        found.append(TakeUniversal(state.may_take_universal))
    turn = state.turn
    assert turn is not None
    universal = state.seats[turn].universals > 0
    tuck = variants.tuck(state.setup)
    for spice, numbers in legal_claims(state).items():
        found += _plays(turn, spice, numbers, universal, tuck)
    found.append(Pass(turn))
    window = state.window
    if window is not None:
        found += _answers(len(state.seats), window.player, variants.allows(state.setup, Copy))
    return found


@cache
def _decisions(profile: Profile) -> tuple[Action, ...]:
    """What may decide a challenge: the table's word either way, or any card of the box turned up."""
    cards = [Card(spice, number) for spice in profile.spices for number in NUMBERS]
    cards += [Card.wild_spice(), Card.wild_number()]
    return (Resolve(True), Resolve(False), *(Reveal(card) for card in cards))


@cache
def _plays(seat: int, spice: str, numbers: tuple[int, ...], universal: bool, tuck: Tuck | None) -> tuple[Play, ...]:
    """The seat's plays of ``spice`` with these numbers: as a spice card, as a universal one if it holds one,
    and with each count of cards tucked under the number change-your-luck allows."""
    found: list[Play] = []
    for number in numbers:
        found.append(Play(seat, spice, number))
        if universal:
            found.append(Play(seat, spice, number, universal=True))
        if tuck is not None and number == tuck.under:
            found += [Play(seat, spice, number, tuck=t) for t in range(1, tuck.most + 1)]
    return tuple(found)


@cache
def _answers(seats: int, player: int, copies: bool) -> tuple[Action, ...]:
    """What every other seat may say to the card on top: either challenge, and a copy under copy-cat."""
    others = [s for s in range(seats) if s != player]
    found: list[Action] = [Challenge(s, a) for s in others for a in ATTRIBUTES]
    if copies:
        found += [Copy(s) for s in others]
    return tuple(found)
