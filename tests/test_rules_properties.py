"""Invariants over random legal games, for every profile (hypothesis)."""

from __future__ import annotations

from collections import defaultdict
from contextlib import suppress
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import (
    PROFILES,
    VARIANTS,
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
    State,
    TakeUniversal,
    Undo,
    apply,
    is_legal,
    legal_actions,
    new_setup,
    replay_transcript,
    write_transcript,
)

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn, profile_id: str) -> Setup:
    profile = PROFILES[profile_id]
    seats = draw(st.integers(2, 6))
    names = [f"P{i}" for i in range(seats)]
    variants: frozenset[str] = frozenset()
    end_card = None
    if profile.numbered:
        variants = frozenset(draw(st.lists(st.sampled_from(sorted(VARIANTS)), max_size=2, unique=True)))
        # A deep World's End card makes games short enough to reach their end.
        end_card = draw(st.integers(0, profile.spice_cards - profile.hand_size * seats))
    return new_setup(
        profile,
        names,
        end_card,
        first=draw(st.integers(0, seats - 1)),
        variants=variants,
        start_after_challenge=draw(st.sampled_from(["loser", "winner"])),
    )


def choose(draw: st.DrawFn, state: State) -> Action | None:
    """Pick a kind of action first, so rare kinds (challenges, copies) come up as often as plays."""
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for action in legal_actions(state):
        by_kind[action.keyword].append(action)
    if not by_kind:
        return None
    kind = draw(st.sampled_from(sorted(by_kind)))
    return draw(st.sampled_from(by_kind[kind]))


def random_game(draw: st.DrawFn, setup: Setup, steps: int) -> list[Game]:
    games = [Game.start(setup)]
    for _ in range(steps):
        action = choose(draw, games[-1].state)
        if action is None:
            break
        games.append(games[-1].apply(action))
    return games


def assert_counts_sane(state: State) -> None:
    for seat in state.seats:
        assert min(seat.hand, seat.won, seat.trophies, seat.universals, seat.won_universals) >= 0
        assert seat.universals <= seat.hand and seat.won_universals <= seat.won
    assert min(state.draw_pile, state.stack, state.universal_pile, state.stack_universals) >= 0
    assert state.trophies_left >= 0


def formula_score(state: State, index: int) -> int:
    seat = state.seats[index]
    return (
        (seat.won - seat.won_universals) * 1
        + seat.won_universals * 5
        + seat.trophies * 10
        - (seat.hand - seat.universals) * 1
        - seat.universals * 5
    )


PROFILE_IDS = st.sampled_from(sorted(PROFILES))


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_cards_are_conserved_and_no_count_goes_negative(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    for game in random_game(data.draw, setup, 150):
        state = game.state
        assert state.cards_accounted() == setup.profile.total_cards
        assert_counts_sane(state)


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_each_score_equals_its_formula(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    for game in random_game(data.draw, setup, 120):
        state = game.state
        for i in range(len(state.seats)):
            expected = formula_score(state, i) if setup.profile.numbered else None
            assert state.score(i) == expected
        if state.ended and state.end_reason in ("end-card", "all-trophies"):
            best = max(formula_score(state, i) for i in range(len(state.seats)))
            assert state.winners == tuple(i for i in range(len(state.seats)) if formula_score(state, i) == best)


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_undo_restores_the_previous_state_and_redo_the_next(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    games = random_game(data.draw, setup, 100)
    for before, after in pairwise(games):
        undone = after.apply(Undo())
        assert undone.state == before.state
        assert undone.apply(Redo()).state == after.state
    depth = data.draw(st.integers(0, len(games) - 1))
    last = games[-1]
    for _ in range(depth):
        last = last.apply(Undo())
    assert last.state == games[-1 - depth].state


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_replaying_the_log_gives_the_same_state(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    game = random_game(data.draw, setup, 120)[-1]
    # Mix undos and redos into the log, as a real table would.
    for _ in range(data.draw(st.integers(0, 3))):
        if game.can_undo:
            game = game.apply(Undo())
    if game.can_redo and data.draw(st.booleans()):
        game = game.apply(Redo())
    assert Game.replay(setup, game.log).state == game.state
    assert replay_transcript(write_transcript(setup, game.log)).state == game.state


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_nothing_is_accepted_after_the_end(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    game = random_game(data.draw, setup, 400)[-1]
    if not game.state.ended:
        game = game.apply(EndCardDrawn()) if setup.profile.numbered else game
    state = game.state
    if not state.ended:
        return
    assert legal_actions(state) == []
    for action in (Pass(0), Play(0, setup.profile.spices[0], 1), Adjust(0, "hand", 3), EndCardDrawn(), Redo()):
        try:
            game.apply(action)
        except IllegalAction:
            continue
        raise AssertionError(f"{action} accepted after the end")
    assert not game.apply(Undo()).state.ended


@PROPERTY
@given(st.data(), PROFILE_IDS, st.integers(0, 30))
def test_property_adjust_sets_exactly_one_count(data: st.DataObject, profile_id: str, value: int) -> None:
    setup = data.draw(setups(profile_id))
    game = random_game(data.draw, setup, 40)[-1]
    if game.state.ended:
        return
    seat = data.draw(st.integers(0, len(setup.names) - 1))
    count = data.draw(st.sampled_from(["hand", "won"] if setup.profile.numbered else ["hand"]))
    after = game.apply(Adjust(seat, count, value)).state
    before = game.state
    assert getattr(after.seats[seat], count) == value
    assert after.seats[:seat] + after.seats[seat + 1 :] == before.seats[:seat] + before.seats[seat + 1 :]
    assert (after.draw_pile, after.stack, after.turn, after.window, after.claim) == (
        before.draw_pile, before.stack, before.turn, before.window, before.claim
    )
    assert_counts_sane(after)


ALL_SPICES = sorted({spice for profile in PROFILES.values() for spice in profile.spices})


def every_action(seats: int) -> list[Action]:
    """Every action a table of ``seats`` could be told, legal or not, in any game (table corrections aside)."""
    found: list[Action] = [Resolve(True), Resolve(False), Reveal(Card.wild_spice()), Reveal(Card.wild_number())]
    found += [Reveal(Card(spice, number)) for spice in ALL_SPICES for number in (None, 0, *range(1, 12))]
    for seat in range(seats + 1):  # one seat too many
        found += [Pass(seat), Draw(seat), Copy(seat), TakeUniversal(seat)]
        found += [Challenge(seat, attribute) for attribute in (None, "spice", "number")]
        for spice in ALL_SPICES:
            for number in (None, 0, *range(1, 12)):
                found += [Play(seat, spice, number), Play(seat, spice, number, universal=True)]
            found += [Play(seat, spice, 5, tuck=tuck) for tuck in (1, 2, 3)]
    return found


def spread_states(data: st.DataObject, profile_id: str, steps: int) -> tuple[list[Action], list[State]]:
    """Every action a table could say, and five states spread over a random game (its start and end included)."""
    setup = data.draw(setups(profile_id))
    games = random_game(data.draw, setup, steps)
    return every_action(len(setup.names)), [game.state for game in games[:: max(1, len(games) // 4)] + games[-1:]]


def accepted(state: State, action: Action) -> bool:
    """The oracle: whether apply itself takes the action."""
    with suppress(IllegalAction):
        return apply(state, action) is not None
    return False


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_the_cheap_legality_check_agrees_with_apply(data: st.DataObject, profile_id: str) -> None:
    """``is_legal`` and ``legal_actions`` say yes exactly where ``apply`` does, on every action a table could say."""
    universe, states = spread_states(data, profile_id, 80)
    for state in states:
        verdicts = {action: is_legal(state, action) for action in universe}
        assert all(verdicts[action] == accepted(state, action) for action in universe)
        assert set(legal_actions(state)) == {action for action, ok in verdicts.items() if ok}
