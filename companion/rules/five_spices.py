"""The five-spice game: claims by spice alone, a face-up pile, and only the next seat may challenge.

A seat whose claim stood may play again at once (a chain); a last card that is
not challenged, or survives its challenge, wins the game.
"""

from __future__ import annotations

from companion.rules.actions import Action, Challenge, Draw, Play, Resolve, Reveal
from companion.rules.cards import Card, Claim
from companion.rules.errors import IllegalAction
from companion.rules.frozen import replace
from companion.rules.state import EndReason, EventKind, PendingChallenge, State, Window, with_seat
from companion.rules.steps import Rule, RuleTable, check_seat, check_spice, shared_rules
from companion.rules.steps import check_turn, check_turn_of, draw_cards, draw_one, end, pending, tell


def _chains(state: State, seat: int) -> bool:
    """A second play by the seat whose card still stands: the next seat has not acted."""
    return state.window is not None and state.window.player == seat


def check_play(state: State, action: Play) -> None:
    seat = action.seat
    check_seat(state, seat)
    check_spice(state, action.spice)
    if action.number is not None or action.universal or action.tuck:
        raise IllegalAction("in five-spices a card is declared by its spice alone")
    if not _chains(state, seat):
        check_turn(state, seat)
    if state.seats[seat].hand == 0:
        raise IllegalAction("{name} has no cards to play and must draw", name=state.name(seat))


def play(state: State, action: Play) -> State:
    seat = action.seat
    if not _chains(state, seat):
        state = _close_window(state)
        if state.ended:
            return state
    player = state.seats[seat]
    claim = Claim(action.spice)
    last_card = player.hand == 1
    state = replace(
        state,
        seats=with_seat(state.seats, seat, replace(player, hand=player.hand - 1)),
        stack=state.stack + 1,
        claim=claim,
        window=Window(seat, claim, last_card=last_card),
        turn=state.next_seat(seat),
    )
    state = tell(state, EventKind.PLAY, seat, 1, f"{player.name} plays a card as {claim}")
    if last_card:
        state = tell(state, EventKind.LAST_CARD, seat, 0, f"{player.name} plays their last card!")
    return state


def _close_window(state: State) -> State:
    """The next seat acts without challenging: a last card wins, and that action is not carried out."""
    window = state.window
    if window is None:
        return state
    if window.last_card:
        return end(state, EndReason.EMPTY_HAND, (window.player,))
    return replace(state, window=None)


def draw(state: State, action: Draw) -> State:
    return draw_one(_close_window(state), action.seat, EventKind.DRAW, f"{state.name(action.seat)} draws")


def check_challenge(state: State, action: Challenge) -> None:
    seat = action.seat
    if action.attribute is not None:
        raise IllegalAction("a five-spices challenge names no attribute: just the seat")
    check_seat(state, seat)
    window = state.window
    if window is None:
        raise IllegalAction("there is no card to challenge: only the last play can be challenged, by the next seat")
    if seat != state.next_seat(window.player):
        raise IllegalAction(
            "only {name}, the seat after {player}, may challenge",
            name=state.name(state.next_seat(window.player)), player=state.name(window.player),
        )


def challenge(state: State, action: Challenge) -> State:
    window = state.window
    assert window is not None
    text = f"{state.name(action.seat)} challenges {state.name(window.player)}'s {window.claim}"
    state = tell(state, EventKind.CHALLENGE, action.seat, 0, text)
    return replace(state, challenge=PendingChallenge(action.seat, None))


def reveal(state: State, action: Reveal) -> State:
    _, window = pending(state)
    return _settle(state, action.card.spice != window.claim.spice, f"the card is {action.card}")


def resolve(state: State, action: Resolve) -> State:
    return _settle(state, action.challenger_right, "the table says so")


def _settle(state: State, challenger_wins: bool, how: str) -> State:
    """Claim true: the challenger takes the card and draws 1; claim false: the player takes it back and draws 2."""
    waiting, window = pending(state)
    challenger, player = waiting.challenger, window.player
    state = replace(state, window=None, challenge=None, claim=None, stack=state.stack - 1)
    taker, drawn = (player, 2) if challenger_wins else (challenger, 1)
    winner = challenger if challenger_wins else player
    state = tell(state, EventKind.CHALLENGE_WON, winner, 0, f"{state.name(winner)} wins the challenge: {how}")
    seat = state.seats[taker]
    state = replace(state, seats=with_seat(state.seats, taker, replace(seat, hand=seat.hand + 1)))
    state = tell(state, EventKind.PENALTY, taker, 1, f"{seat.name} takes the card into hand")
    state = draw_cards(state, taker, drawn, EventKind.PENALTY)
    if window.last_card and not challenger_wins:
        return end(state, EndReason.EMPTY_HAND, (player,))
    return replace(state, turn=state.next_seat(challenger))


RULES: RuleTable = {
    Play: Rule(check_play, play),
    Draw: Rule(check_turn_of, draw),
    Challenge: Rule(check_challenge, challenge),
    **shared_rules(reveal, resolve),
}


def candidates(state: State) -> list[Action]:
    """Every action that may be legal now, but the table's corrections; ``engine`` checks each."""
    if state.challenge is not None:
        return [Resolve(True), Resolve(False), *(Reveal(Card(spice, None)) for spice in state.profile.spices)]
    turn = state.turn
    assert turn is not None
    players = [turn] + ([state.window.player] if state.window is not None else [])
    found: list[Action] = [Play(p, spice) for p in players for spice in state.profile.spices]
    return found + [Draw(turn), Challenge(turn)]
