"""The five-spice game: claims by spice alone, a face-up pile, and only the next seat may challenge.

A seat whose claim stood may play again at once (a chain); a last card that is
not challenged, or survives its challenge, wins the game.
"""

from __future__ import annotations

from functools import cache

from companion.rules.actions import Action, Challenge, Draw, Play, Resolve, Reveal
from companion.rules.cards import Card, Claim
from companion.rules.errors import IllegalAction, Name
from companion.rules.frozen import replace
from companion.rules.profiles import Profile
from companion.rules.state import Draft, EndReason, EventKind, PendingChallenge, State, Window
from companion.rules.steps import Rule, RuleTable, check_seat, check_spice, shared_rules
from companion.rules.steps import check_turn, check_turn_of, draw_cards, draw_one, end, pending


def _chains(state: State | Draft, seat: int) -> bool:
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
        raise IllegalAction("{name} has no cards to play and must draw", name=Name(state.name(seat)))


def play(draft: Draft, action: Play) -> None:
    seat = action.seat
    if not _chains(draft, seat):
        _close_window(draft)
        if draft.ended:
            return
    player = draft.seats[seat]
    claim = Claim(action.spice)
    last_card = player.hand == 1
    draft.set_seat(seat, replace(player, hand=player.hand - 1))
    draft.stack += 1
    draft.claim = claim
    draft.window = Window(seat, claim, last_card=last_card)
    draft.turn = draft.next_seat(seat)
    draft.tell(EventKind.PLAY, seat, 1, f"{player.name} plays a card as {claim}")
    if last_card:
        draft.tell(EventKind.LAST_CARD, seat, 0, f"{player.name} plays their last card!")


def _close_window(draft: Draft) -> None:
    """The next seat acts without challenging: a last card wins, and that action is not carried out."""
    window = draft.window
    if window is None:
        return
    if window.last_card:
        end(draft, EndReason.EMPTY_HAND, (window.player,))
    else:
        draft.window = None


def draw(draft: Draft, action: Draw) -> None:
    _close_window(draft)
    draw_one(draft, action.seat, EventKind.DRAW, f"{draft.name(action.seat)} draws")


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
            name=Name(state.name(state.next_seat(window.player))), player=Name(state.name(window.player)),
        )


def challenge(draft: Draft, action: Challenge) -> None:
    window = draft.window
    assert window is not None
    text = f"{draft.name(action.seat)} challenges {draft.name(window.player)}'s {window.claim}"
    draft.tell(EventKind.CHALLENGE, action.seat, 0, text)
    draft.challenge = PendingChallenge(action.seat, None)


def reveal(draft: Draft, action: Reveal) -> None:
    _, window = pending(draft)
    _settle(draft, action.card.spice != window.claim.spice, f"the card is {action.card}")


def resolve(draft: Draft, action: Resolve) -> None:
    _settle(draft, action.challenger_right, "the table says so")


def _settle(draft: Draft, challenger_wins: bool, how: str) -> None:
    """Claim true: the challenger takes the card and draws 1; claim false: the player takes it back and draws 2."""
    waiting, window = pending(draft)
    challenger, player = waiting.challenger, window.player
    draft.window = draft.challenge = draft.claim = None
    draft.stack -= 1
    taker, drawn = (player, 2) if challenger_wins else (challenger, 1)
    winner = challenger if challenger_wins else player
    draft.tell(EventKind.CHALLENGE_WON, winner, 0, f"{draft.name(winner)} wins the challenge: {how}")
    seat = draft.seats[taker]
    draft.set_seat(taker, replace(seat, hand=seat.hand + 1))
    draft.tell(EventKind.PENALTY, taker, 1, f"{seat.name} takes the card into hand")
    draw_cards(draft, taker, drawn, EventKind.PENALTY)
    if window.last_card and not challenger_wins:
        end(draft, EndReason.EMPTY_HAND, (player,))
    else:
        draft.turn = draft.next_seat(challenger)


RULES: RuleTable = {
    Play: Rule(check_play, play),
    Draw: Rule(check_turn_of, draw),
    Challenge: Rule(check_challenge, challenge),
    **shared_rules(reveal, resolve),
}


def candidates(state: State) -> list[Action]:
    """Every action that may be legal now, but the table's corrections; ``engine`` checks each. Only actions
    of ``RULES``, and only reveals and resolves while a challenge waits: ``engine.legal_actions`` counts on it.

    As in the numbered games (``numbered.candidates``), what may decide a challenge is made once a profile.
    """
    if state.challenge is not None:
        return list(_decisions(state.profile))
    turn = state.turn
    assert turn is not None
    window = state.window
    players = [turn] + ([window.player] if window is not None else [])
    found: list[Action] = [Play(p, spice) for p in players for spice in state.profile.spices]
    found.append(Draw(turn))
    if window is not None:
        found.append(Challenge(turn))
    return found


@cache
def _decisions(profile: Profile) -> tuple[Action, ...]:
    """The table's word either way, or the card turned up: any spice of the box."""
    return (Resolve(True), Resolve(False), *(Reveal(Card(spice, None)) for spice in profile.spices))
