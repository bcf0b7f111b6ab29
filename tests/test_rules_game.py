"""A game's timeline: every Game stays as its holder got it, and each standing move knows its log entry."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules import (
    FIVE_SPICES,
    SPICY,
    SWEET_SPICY,
    Game,
    MAX_ACTIONS,
    IllegalAction,
    Pass,
    Play,
    Redo,
    Undo,
    challengers,
    new_setup,
    start,
    starting_draw_pile,
    tree,
)
from companion.random_play import random_game, random_setup

SETUP = new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27)


def test_games_branching_from_one_game_do_not_see_each_other() -> None:
    base = Game.start(SETUP).apply(Play(0, "chili", 1))
    played = base.apply(Play(1, "chili", 4))
    passed = base.apply(Pass(1))
    again = base.apply(Play(1, "chili", 9))
    assert list(base.log) == [Play(0, "chili", 1)]
    assert list(played.log) == [Play(0, "chili", 1), Play(1, "chili", 4)]
    assert list(passed.log) == [Play(0, "chili", 1), Pass(1)]
    assert list(again.log) == [Play(0, "chili", 1), Play(1, "chili", 9)]
    assert (base.state.stack, played.state.stack, passed.state.stack) == (1, 2, 1)
    assert passed.state.claim is not None and passed.state.claim.number == 1


def test_an_undone_game_and_the_one_before_the_undo_stay_apart() -> None:
    game = Game.replay(SETUP, [Play(0, "chili", 1), Play(1, "chili", 4)])
    undone = game.apply(Undo())
    redone = undone.apply(Redo())
    replaced = undone.apply(Pass(1))
    assert (game.cursor, undone.cursor, redone.cursor, replaced.cursor) == (2, 1, 2, 2)
    assert redone.state == game.state
    assert replaced.state.stack == 1 and not replaced.can_redo
    assert undone.can_redo and game.state.stack == 2
    with pytest.raises(IllegalAction, match="nothing to redo"):
        replaced.apply(Redo())


def test_each_standing_step_names_the_log_entry_that_made_it() -> None:
    log = [Play(0, "chili", 1), Play(1, "chili", 4), Undo(), Pass(1), Undo(), Redo(), Play(2, "chili", 6)]
    game = Game.replay(SETUP, log)
    steps = game.steps()
    assert [step.move for step in steps] == [None, Play(0, "chili", 1), Pass(1), Play(2, "chili", 6)]
    assert [step.entry for step in steps] == [-1, 0, 3, 6]  # the redo keeps Pass's own entry
    assert [step.depth for step in steps] == [0, 1, 2, 3]
    assert all(game.log[step.entry] == step.move for step in steps[1:])
    assert steps[-1].state is game.state


def test_a_game_equals_another_with_the_same_setup_and_log() -> None:
    log = [Play(0, "chili", 1), Undo(), Pass(0)]
    assert Game.replay(SETUP, log) == Game.replay(SETUP, log)
    assert Game.replay(SETUP, log) != Game.replay(SETUP, log[:2])
    assert Game.start(SETUP).log == ()


def test_the_rules_give_the_facts_the_table_shows() -> None:
    """Who may challenge, the starting draw pile and the score's parts: asked of the rules, never worked out again."""
    five = new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"])
    assert starting_draw_pile(five) == start(five).draw_pile == 110 - 15 - 1
    game = Game.start(new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"]))
    assert challengers(game.state) == frozenset()
    game = game.apply(Play(0, "chili", 1))
    assert challengers(game.state) == {1, 2}
    parts = game.state.score_parts(0)
    assert parts is not None and (parts.won, parts.trophies, parts.hand, parts.universals) == (0, 0, -5, -5)
    assert parts.total == game.state.score(0)
    assert challengers(game.apply(Pass(1)).state) == frozenset()
    five_game = Game.start(five).apply(Play(0, "salt"))
    assert challengers(five_game.state) == {1}


def test_a_game_takes_no_action_past_the_cap_however_it_is_rebuilt() -> None:
    game = Game.start(SETUP).apply(Play(0, "chili", 1))
    while len(game.log) < MAX_ACTIONS:
        game = game.apply(Redo() if game.can_redo else Undo())
    with pytest.raises(IllegalAction, match=f"^a game has at most {MAX_ACTIONS} actions"):
        game.apply(Redo() if game.can_redo else Undo())
    steps = game.steps()
    with pytest.raises(IllegalAction, match=f"^a game has at most {MAX_ACTIONS} actions"):
        Game.restored(SETUP, [*game.log, Undo()], steps[-1], [])
    assert Game.restored(SETUP, list(game.log), steps[-1], []).log == game.log


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_the_tree_of_a_log_is_the_steps_its_fold_makes(seed: int) -> None:
    """Which step each move was made on and which stand at the end, from the log alone, against the fold:
    random games with undos and redos, each action applied in turn."""
    rng = random.Random(seed)
    game = random_game(rng, random_setup(rng), max_actions=rng.randint(0, 150))
    folded, made_on = Game.start(game.setup), {}
    for entry, action in enumerate(game.log):
        before = folded.current
        folded = folded.apply(action)
        if not isinstance(action, (Undo, Redo)):
            made_on[entry] = before.entry
    found = tree(game.log)
    assert found.made_on == made_on
    assert found.standing == tuple(step.entry for step in folded.steps()[1:])


@pytest.mark.parametrize(("log", "reason"), [
    ([Undo()], "nothing to undo: the game is at its start"),
    ([Play(0, "chili", 1), Undo(), Undo()], "nothing to undo: the game is at its start"),
    ([Play(0, "chili", 1), Redo()], "nothing to redo"),
    ([Play(0, "chili", 1), Undo(), Play(0, "chili", 2), Redo()], "nothing to redo"),
])
def test_the_tree_refuses_what_the_fold_refuses(log: list, reason: str) -> None:
    with pytest.raises(IllegalAction, match=f"^{reason}$"):
        Game.replay(SETUP, log)
    with pytest.raises(IllegalAction, match=f"^{reason}$"):
        tree(log)


def test_the_tree_takes_no_log_past_the_cap() -> None:
    log = [Play(0, "chili", 1)] + [Undo(), Redo()] * (MAX_ACTIONS // 2)
    with pytest.raises(IllegalAction, match=f"^a game has at most {MAX_ACTIONS} actions"):
        tree(log)
    assert tree(log[:MAX_ACTIONS]).standing == ()  # as many as a game may have, the last an undo
    assert tree(log[:MAX_ACTIONS - 1]).standing == (0,)
