"""The rules: ``apply(state, action)`` gives the next state or raises IllegalAction.

Read top to bottom: starting a game, the checks every action shares, then one
function per action, then the steps they share (drawing, trophies, the end).
Each refusal says what happened and what would be legal, in the table's words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace

from companion.rules import profiles as v
from companion.rules.actions import (
    Action,
    Adjust,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    Pass,
    Play,
    Resolve,
    Reveal,
    TakeUniversal,
)
from companion.rules.cards import ATTRIBUTES, NUMBERS, STARTING_NUMBERS, Card, Claim, challenger_right, describe_numbers
from companion.rules.errors import IllegalAction
from companion.rules.profiles import MAX_SEATS, MIN_SEATS, Profile
from companion.rules.state import Event, PendingChallenge, Seat, Setup, State, TopCard, names, top_scorers, with_seat

# --------------------------------------------------------------------------
# Starting a game


def new_setup(
    profile: Profile,
    names_: tuple[str, ...] | list[str],
    end_card: int | None = None,
    first: int = 0,
    variants: frozenset[str] | set[str] = frozenset(),
    start_after_challenge: str = "loser",
) -> Setup:
    """Check the set-up once, so the engine can trust it afterwards."""
    seat_names = tuple(names_)
    if not MIN_SEATS <= len(seat_names) <= MAX_SEATS:
        raise IllegalAction(f"{profile.title} needs {MIN_SEATS} to {MAX_SEATS} seats, not {len(seat_names)}")
    for name in seat_names:
        check_name(name)
    if len(set(seat_names)) != len(seat_names):
        raise IllegalAction("two seats have the same name; give each seat its own")
    if not 0 <= first < len(seat_names):
        raise IllegalAction("the first player must be one of the seats")
    variants = frozenset(variants)
    for variant in variants:
        if variant not in v.VARIANTS:
            raise IllegalAction(f"unknown variant {variant!r}: choose from {', '.join(v.VARIANTS)}")
    if variants and not profile.numbered:
        raise IllegalAction("variant cards belong to spicy and sweet-spicy, not five-spices")
    if len(variants) > v.MAX_VARIANTS:
        raise IllegalAction(f"at most {v.MAX_VARIANTS} variant cards may be in play")
    if start_after_challenge not in v.START_AFTER_CHALLENGE:
        raise IllegalAction("start-after-challenge is loser or winner")
    after_deal = profile.spice_cards - profile.hand_size * len(seat_names) - (0 if profile.end_card else 1)
    if end_card is None:
        end_card = profile.default_end_card(len(seat_names))
    elif not profile.end_card and end_card:
        raise IllegalAction("five-spices has no World's End card")
    elif not 0 <= end_card <= after_deal:
        raise IllegalAction(f"the World's End card can have 0 to {after_deal} cards under it, not {end_card}")
    return Setup(profile, seat_names, end_card, first, variants, start_after_challenge)


def check_name(name: str, who: str = "seat") -> None:
    """Any text a person can read on one line is a name: markup, quotes and emoji included.

    >>> check_name("[b]Zoë[/b] 🌶")
    >>> check_name("  ")
    Traceback (most recent call last):
    companion.rules.errors.IllegalAction: a seat needs a name
    """
    if not name.strip():
        raise IllegalAction(f"a {who} needs a name")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
        raise IllegalAction(f"{name!r}: a name is one line of text, without control characters")


def start(setup: Setup) -> State:
    """Deal: hands, the draw pile above the World's End card, trophies, universals."""
    profile = setup.profile
    seats_n = len(setup.names)
    hand = profile.hand_size + (1 if profile.universals else 0)
    seats = tuple(Seat(name, hand, universals=1 if profile.universals else 0) for name in setup.names)
    starting_pile = 0 if profile.numbered else 1
    return State(
        setup=setup,
        seats=seats,
        turn=setup.first,
        deck=profile.spice_cards - profile.hand_size * seats_n - setup.end_card - starting_pile,
        stack=starting_pile,
        universal_pile=profile.universals - seats_n if profile.universals else 0,
        trophies_left=profile.trophies,
    )


# --------------------------------------------------------------------------
# Applying an action


def apply(state: State, action: Action) -> State:
    """The next state after ``action``; the old state is untouched either way."""
    if state.ended:
        raise IllegalAction(f"the game is over ({_end_words(state)}); only undo can reopen it")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action.keyword or type(action).__name__} is not a game action here")
    if state.challenge is not None and not isinstance(action, (Reveal, Resolve, Adjust)):
        pending = state.challenge
        raise IllegalAction(
            f"{state.name(pending.challenger)}'s challenge is waiting: reveal the card "
            "or tell who was right first"
        )
    # The universal card may be taken only before the next action.
    keep_offer = isinstance(action, TakeUniversal)
    state = replace(state, events=(), may_take_universal=state.may_take_universal if keep_offer else None)
    return handler(state, action)


def _check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise IllegalAction(f"there is no seat {seat + 1} at this table")


def _check_turn(state: State, seat: int) -> None:
    _check_seat(state, seat)
    if state.turn != seat:
        assert state.turn is not None
        raise IllegalAction(f"it is {state.name(state.turn)}'s turn, not {state.name(seat)}'s")


def _numbered_only(state: State, what: str) -> None:
    if not state.profile.numbered:
        raise IllegalAction(f"{what} is not part of five-spices")


# --- play ------------------------------------------------------------------


def legal_claims(state: State) -> dict[str, tuple[int, ...]]:
    """Which spice and number each spice may be declared with on this stack."""
    variants = state.setup.variants
    claim = state.claim
    if claim is None:
        return {spice: STARTING_NUMBERS for spice in state.profile.spices}
    assert claim.number is not None
    numbers = set(range(claim.number + 1, 11))
    restart = claim.number == 10 or (v.START_IT_UP in variants and claim.number >= 8)
    if restart:
        numbers.update(STARTING_NUMBERS)
    allowed = {claim.spice: tuple(sorted(numbers))}
    if restart and v.WE_LOVE_CHILI in variants and claim.spice != "chili" and "chili" in state.profile.spices:
        allowed["chili"] = STARTING_NUMBERS
    return allowed


def _refuse_claim(state: State, seat: int) -> IllegalAction:
    allowed = legal_claims(state)
    if state.claim is None:
        why = "a new stack starts"
    else:
        why = f"the stack is {state.claim.spice} and stands at {state.claim.number}"
    ranges = {spice: describe_numbers(list(ns)) for spice, ns in allowed.items()}
    if len(ranges) == len(state.profile.spices) and len(set(ranges.values())) == 1:
        options = f"any spice {next(iter(ranges.values()))}"
    else:
        options = " or ".join(f"{spice} {r}" for spice, r in ranges.items())
    return IllegalAction(f"{state.name(seat)} must declare {options}: {why}")


def _check_spice(state: State, spice: str) -> None:
    if spice not in state.profile.spices:
        raise IllegalAction(
            f"{spice} is not a spice in {state.profile.id}; the spices are {', '.join(state.profile.spices)}"
        )


def _play(state: State, action: Play) -> State:
    if not state.profile.numbered:
        return _play_five(state, action)
    seat = action.seat
    _check_turn(state, seat)
    _check_spice(state, action.spice)
    if action.number not in NUMBERS:
        raise IllegalAction(f"numbers go from 1 to 10, not {action.number}")
    player = state.seats[seat]
    if player.hand == 0:
        raise IllegalAction(f"{player.name} has no cards to play and can only pass")
    if action.universal:
        if not state.profile.universals:
            raise IllegalAction(f"{state.profile.id} has no universal cards")
        if player.universals == 0:
            raise IllegalAction(f"{player.name} has no universal card in hand")
    elif player.spice_cards == 0:
        raise IllegalAction(f"{player.name} holds only universal cards: play one as universal")
    if action.tuck:
        _check_tuck(state, action)
    claim = Claim(action.spice, action.number)
    if action.number not in legal_claims(state).get(action.spice, ()):
        raise _refuse_claim(state, seat)
    return _lay_card(state, seat, claim, action.universal, action.tuck)


def _check_tuck(state: State, action: Play) -> None:
    name = state.name(action.seat)
    if v.CHANGE_YOUR_LUCK not in state.setup.variants:
        raise IllegalAction("tucking cards needs the change-your-luck variant")
    if action.number != 5:
        raise IllegalAction("cards may be tucked only under a declared 5")
    if not 0 < action.tuck <= 2:
        raise IllegalAction("1 or 2 cards may be tucked, no more")
    spice_needed = action.tuck + (0 if action.universal else 1)
    if state.seats[action.seat].spice_cards < spice_needed:
        raise IllegalAction(f"{name} needs {action.tuck + 1} cards in hand to tuck {action.tuck}")


def _copy(state: State, action: Copy) -> State:
    seat = action.seat
    _check_seat(state, seat)
    if v.COPY_CAT not in state.setup.variants:
        raise IllegalAction("copying a card needs the copy-cat variant")
    top = state.top
    if top is None:
        raise IllegalAction("there is no card to copy: copy while the top card can still be challenged")
    if top.player == seat:
        raise IllegalAction(f"{state.name(seat)} cannot copy their own card")
    if state.seats[seat].spice_cards == 0:
        raise IllegalAction(f"{state.name(seat)} has no spice card to copy with")
    return _lay_card(state, seat, top.claim, False, 0)


def _lay_card(state: State, seat: int, claim: Claim, universal: bool, tuck: int) -> State:
    """A legal play or copy: close the last window, settle a raid, then the card goes down."""
    state = _close_window(state)
    if state.ended:
        return state
    if state.raider is not None:
        state = _win_stack(state, state.raider, "raid")
        state = replace(state, raider=None)
    player = state.seats[seat]
    hand = player.hand - 1 - tuck
    state = replace(
        state,
        seats=with_seat(state.seats, seat, replace(player, hand=hand, universals=player.universals - universal)),
        stack=state.stack + 1 + tuck,
        stack_universals=state.stack_universals + universal,
        claim=claim,
        top=TopCard(seat, claim, universal, last_card=hand == 0 and tuck == 0),
        turn=state.next_seat(seat),
        raider=seat if claim.number == 4 and v.SPICE_RAIDER in state.setup.variants else None,
    )
    card = "a universal card" if universal else "a card"
    state = _tell(state, "play", seat, 1 + tuck, f"{player.name} plays {card} as {claim}")
    if hand == 0 and tuck == 0:
        state = _tell(state, "last-card", seat, 0, f"{player.name} plays their last card!")
    if tuck:
        state = _draw(state, seat, tuck, "draw")
    return state


def _close_window(state: State) -> State:
    """The next play or pass ends the chance to challenge; a last card that got through earns its trophy."""
    top = state.top
    if top is None:
        return state
    state = replace(state, top=None)
    if top.last_card:
        state = _survived_last_card(state, top)
    return state


def _survived_last_card(state: State, top: TopCard) -> State:
    if not top.universal:
        state = _take_trophy(state, top.player)
        if state.ended:
            return state
    return _draw(state, top.player, state.profile.hand_size, "refill")


# --- pass --------------------------------------------------------------------


def _pass(state: State, action: Pass) -> State:
    _numbered_only(state, "pass (draw a card instead)")
    _check_turn(state, action.seat)
    state = _close_window(state)
    if state.ended:
        return state
    state = _tell(state, "pass", action.seat, 1, f"{state.name(action.seat)} passes and draws 1")
    state = _draw(state, action.seat, 1, "draw")
    if state.ended:
        return state
    return replace(state, turn=state.next_seat(action.seat))


# --- challenge ---------------------------------------------------------------


def _challenge(state: State, action: Challenge) -> State:
    if not state.profile.numbered:
        return _challenge_five(state, action)
    seat = action.seat
    _check_seat(state, seat)
    top = state.top
    if top is None:
        raise IllegalAction(
            "there is no card to challenge: a card can be challenged only until the next seat plays or passes"
        )
    if top.player == seat:
        raise IllegalAction(f"{state.name(seat)} cannot challenge their own card")
    if action.attribute not in ATTRIBUTES:
        raise IllegalAction('a challenge must name spice or number: "not that spice!" or "not that number!"')
    challenger, player = state.name(seat), state.name(top.player)
    what = "not that spice!" if action.attribute == "spice" else "not that number!"
    state = _tell(state, "challenge", seat, 0, f"{challenger} challenges {player}'s {top.claim}: {what}")
    state = replace(state, challenge=PendingChallenge(seat, action.attribute))
    if top.universal:
        return _settle(state, challenger_wins=False, how="a universal card always survives")
    return state


def _reveal(state: State, action: Reveal) -> State:
    pending, top = _pending(state)
    card = action.card
    profile = state.profile
    if card.wild is not None:
        if not profile.wild_cards:
            raise IllegalAction(f"{profile.id} has no {card.wild} cards")
        if card.spice is not None or card.number is not None:
            raise IllegalAction("a wild card has no spice or number of its own")
    else:
        if card.spice is None:
            raise IllegalAction("name the revealed card's spice")
        _check_spice(state, card.spice)
        if profile.numbered and card.number not in NUMBERS:
            raise IllegalAction("a revealed spice card has a number from 1 to 10")
        if not profile.numbered and card.number is not None:
            raise IllegalAction("five-spices cards have no numbers")
    if profile.numbered:
        assert pending.attribute is not None
        right = challenger_right(pending.attribute, top.claim, card, v.TURN_IT_UP in state.setup.variants)
    else:
        right = card.spice != top.claim.spice
    return _settle(state, right, f"the card is {card}")


def _resolve(state: State, action: Resolve) -> State:
    _pending(state)
    return _settle(state, action.challenger_right, "the table says so")


def _pending(state: State) -> tuple[PendingChallenge, TopCard]:
    if state.challenge is None or state.top is None:
        raise IllegalAction("no challenge is waiting to be decided")
    return state.challenge, state.top


def _settle(state: State, challenger_wins: bool, how: str) -> State:
    """RULES.md 6: stack to the winner, trophy, the loser's 2, the refill; the first to end the game stops the rest."""
    pending, top = _pending(state)
    if not state.profile.numbered:
        return _settle_five(state, pending, top, challenger_wins, how)
    winner, loser = (pending.challenger, top.player) if challenger_wins else (top.player, pending.challenger)
    state = replace(state, top=None, challenge=None, raider=None, claim=None)
    state = _tell(state, "challenge-won", winner, 0, f"{state.name(winner)} wins the challenge: {how}")
    state = _win_stack(state, winner, "stack-won")
    survived = top.last_card and not challenger_wins
    if survived and not top.universal:
        state = _take_trophy(state, top.player)
        if state.ended:
            return state
    state = _draw(state, loser, 2, "penalty")
    if state.ended:
        return state
    if survived:
        state = _draw(state, top.player, state.profile.hand_size, "refill")
        if state.ended:
            return state
    starter = winner if state.setup.start_after_challenge == "winner" else loser
    return replace(
        state,
        turn=starter,
        may_take_universal=loser if state.universal_pile > 0 else None,
    )


def _take_universal(state: State, action: TakeUniversal) -> State:
    _check_seat(state, action.seat)
    if not state.profile.universals:
        raise IllegalAction(f"{state.profile.id} has no universal cards")
    if state.may_take_universal != action.seat:
        raise IllegalAction(
            "only the loser of the challenge just decided may take a universal card, once, before the next action"
        )
    seat = state.seats[action.seat]
    state = replace(
        state,
        seats=with_seat(state.seats, action.seat, replace(seat, hand=seat.hand + 1, universals=seat.universals + 1)),
        universal_pile=state.universal_pile - 1,
        may_take_universal=None,
    )
    return _tell(state, "universal", action.seat, 1, f"{seat.name} takes a universal card")


# --- the table's corrections ---------------------------------------------------


def _end_card_drawn(state: State, action: EndCardDrawn) -> State:
    _numbered_only(state, "the World's End card")
    return _end(replace(state, deck=0), "end-card")


def _adjust(state: State, action: Adjust) -> State:
    _check_seat(state, action.seat)
    seat = state.seats[action.seat]
    if action.count not in ("hand", "won"):
        raise IllegalAction("adjust sets hand or won")
    if action.count == "won":
        _numbered_only(state, "a won pile")
    limit = state.profile.total_cards
    if not 0 <= action.value <= limit:
        raise IllegalAction(f"a count goes from 0 to {limit}, not {action.value}")
    if action.count == "hand":
        seat = replace(seat, hand=action.value, universals=min(seat.universals, action.value))
    else:
        seat = replace(seat, won=action.value, won_universals=min(seat.won_universals, action.value))
    state = replace(state, seats=with_seat(state.seats, action.seat, seat))
    return _tell(state, "adjust", action.seat, action.value, f"{seat.name}'s {action.count} set to {action.value}")


# --- five-spices -----------------------------------------------------------------


def _play_five(state: State, action: Play) -> State:
    seat = action.seat
    _check_seat(state, seat)
    _check_spice(state, action.spice)
    if action.number is not None or action.universal or action.tuck:
        raise IllegalAction("in five-spices a card is declared by its spice alone")
    top = state.top
    chain = top is not None and top.player == seat
    if not chain:
        _check_turn(state, seat)
    if state.seats[seat].hand == 0:
        raise IllegalAction(f"{state.name(seat)} has no cards to play and must draw")
    if not chain:
        state = _close_window_five(state)
        if state.ended:
            return state
    player = state.seats[seat]
    claim = Claim(action.spice)
    state = replace(
        state,
        seats=with_seat(state.seats, seat, replace(player, hand=player.hand - 1)),
        stack=state.stack + 1,
        claim=claim,
        top=TopCard(seat, claim, last_card=player.hand == 1),
        turn=state.next_seat(seat),
    )
    state = _tell(state, "play", seat, 1, f"{player.name} plays a card as {claim}")
    if player.hand == 1:
        state = _tell(state, "last-card", seat, 0, f"{player.name} plays their last card!")
    return state


def _close_window_five(state: State) -> State:
    """The next seat acts without challenging: a last card wins, and that action is not carried out."""
    top = state.top
    if top is None:
        return state
    if top.last_card:
        return _end(state, "empty-hand", (top.player,))
    return replace(state, top=None)


def _draw_five(state: State, action: Draw) -> State:
    if state.profile.numbered:
        raise IllegalAction(f"in {state.profile.id} a seat that does not play passes (and draws 1)")
    _check_turn(state, action.seat)
    state = _close_window_five(state)
    if state.ended:
        return state
    state = _tell(state, "draw", action.seat, 1, f"{state.name(action.seat)} draws")
    state = _draw(state, action.seat, 1, "draw")
    return replace(state, turn=state.next_seat(action.seat))


def _challenge_five(state: State, action: Challenge) -> State:
    seat = action.seat
    if action.attribute is not None:
        raise IllegalAction("a five-spices challenge names no attribute: just the seat")
    _check_seat(state, seat)
    top = state.top
    if top is None:
        raise IllegalAction("there is no card to challenge: only the last play can be challenged, by the next seat")
    if seat != state.next_seat(top.player):
        raise IllegalAction(
            f"only {state.name(state.next_seat(top.player))}, the seat after {state.name(top.player)}, may challenge"
        )
    state = _tell(state, "challenge", seat, 0, f"{state.name(seat)} challenges {state.name(top.player)}'s {top.claim}")
    return replace(state, challenge=PendingChallenge(seat, None))


def _settle_five(state: State, pending: PendingChallenge, top: TopCard, challenger_wins: bool, how: str) -> State:
    challenger, player = pending.challenger, top.player
    state = replace(state, top=None, challenge=None, claim=None, stack=state.stack - 1)
    taker, drawn = (player, 2) if challenger_wins else (challenger, 1)
    winner = challenger if challenger_wins else player
    state = _tell(state, "challenge-won", winner, 0, f"{state.name(winner)} wins the challenge: {how}")
    seat = state.seats[taker]
    state = replace(state, seats=with_seat(state.seats, taker, replace(seat, hand=seat.hand + 1)))
    state = _tell(state, "penalty", taker, 1, f"{seat.name} takes the card into hand")
    state = _draw(state, taker, drawn, "penalty")
    if top.last_card and not challenger_wins:
        return _end(state, "empty-hand", (player,))
    return replace(state, turn=state.next_seat(challenger))


# --------------------------------------------------------------------------
# Steps the actions share


def _tell(state: State, kind: str, seat: int | None, count: int, text: str) -> State:
    return replace(state, events=state.events + (Event(kind, seat, count, text),))


def _draw(state: State, seat: int, count: int, kind: str) -> State:
    """Cards come one at a time: needing one when none is above the World's End card ends the game there.

    Five-spices has no World's End card: the face-up pile but its top becomes the
    deck, and with nothing there either no card is drawn.
    """
    deck, stack = state.deck, state.stack
    drawn = 0
    reshuffled = False
    for _ in range(count):
        if deck == 0:
            if state.profile.end_card:
                state = _drew(state, seat, drawn, deck, kind)
                return _end(state, "end-card")
            if stack <= 1:
                break
            deck, stack, reshuffled = stack - 1, 1, True
        deck -= 1
        drawn += 1
    state = replace(state, stack=stack)
    if reshuffled:
        state = _tell(state, "reshuffle", None, 0, "the face-up pile but its top card becomes the new deck")
    return _drew(state, seat, drawn, deck, kind)


def _drew(state: State, seat: int, drawn: int, deck: int, kind: str) -> State:
    player = state.seats[seat]
    state = replace(state, deck=deck, seats=with_seat(state.seats, seat, replace(player, hand=player.hand + drawn)))
    if kind != "draw" and drawn:
        words = {"penalty": "draws {n} penalty cards", "refill": "draws {n} new cards"}[kind]
        state = _tell(state, kind, seat, drawn, f"{player.name} " + words.format(n=drawn))
    return state


def _win_stack(state: State, seat: int, kind: str) -> State:
    player = state.seats[seat]
    won = replace(
        player,
        won=player.won + state.stack,
        won_universals=player.won_universals + state.stack_universals,
    )
    count = state.stack
    state = replace(state, seats=with_seat(state.seats, seat, won), stack=0, stack_universals=0)
    verb = "raids" if kind == "raid" else "wins"
    return _tell(state, kind, seat, count, f"{player.name} {verb} the stack of {count}")


def _take_trophy(state: State, seat: int) -> State:
    """A second trophy wins outright, even when it is also the last one."""
    player = state.seats[seat]
    player = replace(player, trophies=player.trophies + 1)
    state = replace(state, seats=with_seat(state.seats, seat, player), trophies_left=state.trophies_left - 1)
    state = _tell(state, "trophy", seat, 1, f"{player.name} takes a trophy (+10)")
    if player.trophies >= 2:
        return _end(state, "second-trophy", (seat,))
    if state.trophies_left == 0:
        return _end(state, "all-trophies")
    return state


def _end(state: State, reason: str, winners: tuple[int, ...] | None = None) -> State:
    if winners is None:
        winners = top_scorers(state)
    state = replace(state, ended=True, end_reason=reason, winners=winners, turn=None, top=None, challenge=None)
    return _tell(state, "end", None, 0, f"the game is over ({_end_words(state)})")


_END_WORDS = {
    "second-trophy": "{w} took a second trophy",
    "all-trophies": "the last trophy is taken; {w} wins",
    "end-card": "the World's End card showed; {w} wins",
    "empty-hand": "{w} emptied their hand",
}


def _end_words(state: State) -> str:
    text = _END_WORDS[state.end_reason or "end-card"].format(w=names(state, state.winners))
    return text.replace(" wins", " share the win") if len(state.winners) > 1 else text


_HANDLERS: dict[type[Action], Callable[[State, Action], State]] = {
    Play: _play,  # type: ignore[dict-item]
    Copy: _copy,  # type: ignore[dict-item]
    Pass: _pass,  # type: ignore[dict-item]
    Draw: _draw_five,  # type: ignore[dict-item]
    Challenge: _challenge,  # type: ignore[dict-item]
    Reveal: _reveal,  # type: ignore[dict-item]
    Resolve: _resolve,  # type: ignore[dict-item]
    TakeUniversal: _take_universal,  # type: ignore[dict-item]
    EndCardDrawn: _end_card_drawn,  # type: ignore[dict-item]
    Adjust: _adjust,  # type: ignore[dict-item]
}


# --------------------------------------------------------------------------
# What could happen next (for simulations, tests and the screens' hints)


def legal_actions(state: State) -> list[Action]:
    """Every action ``apply`` accepts now, but ``adjust`` and ``end-card-drawn`` (table corrections)."""
    if state.ended:
        return []
    profile = state.profile
    if state.challenge is not None:
        actions: list[Action] = [Resolve(True), Resolve(False)]
        if profile.numbered:
            cards = [Card(s, n) for s in profile.spices for n in NUMBERS]
            cards += [Card.wild_spice(), Card.wild_number()]
        else:
            cards = [Card(s, None) for s in profile.spices]
        return actions + [Reveal(c) for c in cards]
    return [a for a in _candidates(state) if _accepts(state, a)]


def _candidates(state: State) -> list[Action]:
    profile = state.profile
    seats = range(len(state.seats))
    found: list[Action] = []
    if state.may_take_universal is not None:
        found.append(TakeUniversal(state.may_take_universal))
    if not profile.numbered:
        players = {state.turn} | ({state.top.player} if state.top else set())
        found += [Play(p, s) for p in players if p is not None for s in profile.spices]
        found += [Draw(state.turn)] if state.turn is not None else []
        found += [Challenge(state.turn)] if state.turn is not None else []
        return found
    turn = state.turn
    assert turn is not None
    for spice, numbers in legal_claims(state).items():
        for number in numbers:
            found.append(Play(turn, spice, number))
            if profile.universals:
                found.append(Play(turn, spice, number, universal=True))
            if number == 5 and v.CHANGE_YOUR_LUCK in state.setup.variants:
                found += [Play(turn, spice, number, tuck=t) for t in (1, 2)]
    found.append(Pass(turn))
    found += [Challenge(s, a) for s in seats for a in ATTRIBUTES]
    if v.COPY_CAT in state.setup.variants:
        found += [Copy(s) for s in seats]
    return found


def _accepts(state: State, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True
