"""Random legal games, for demos, load, tests and benchmarks.

A seeded ``random.Random`` picks a kind of action first (play, pass, challenge, ...)
and then one action of that kind, so a seat with forty legal plays does not
almost always play: games look like a table's, with challenges and undos.
It sits beside the rules, not inside them, because the rules roll no dice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from companion.rules import FIVE_SPICES, PROFILES, VARIANTS, Action, Challenge, Copy, Draw, Game, Pass, Play, Redo
from companion.rules import Resolve, Reveal, Setup, TakeUniversal, Undo, legal_actions, new_setup

WEIGHTS: Mapping[type[Action], float] = {
    Play: 6, Copy: 0.3, Pass: 1, Draw: 1, Challenge: 1.5, Reveal: 3, Resolve: 1, TakeUniversal: 1,
    Undo: 0.05, Redo: 0.02,
}
LONG_WEIGHTS: Mapping[type[Action], float] = {
    Play: 2, Draw: 6, Challenge: 1, Reveal: 1, Resolve: 1, Undo: 0.3, Redo: 0.2,
}
"""Five-spices seats that draw a lot keep full hands, so the game goes on (tests, benchmarks)."""
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")


def random_setup(rng: random.Random, names: tuple[str, ...] = NAMES) -> Setup:
    profile = rng.choice(list(PROFILES.values()))
    seats = rng.sample(names, rng.randint(2, 6))
    variants = frozenset(rng.sample(list(VARIANTS), rng.randint(0, 2))) if profile.numbered else frozenset()
    return new_setup(profile, seats, first=rng.randrange(len(seats)), variants=variants,
                     start_after_challenge=rng.choice(("loser", "loser", "winner")))


def random_action(game: Game, rng: random.Random, weights: Mapping[type[Action], float] = WEIGHTS) -> Action:
    by_kind: dict[type[Action], list[Action]] = {}
    for action in legal_actions(game.state):
        by_kind.setdefault(type(action), []).append(action)
    if game.can_undo:
        by_kind[Undo] = [Undo()]
    if game.can_redo:
        by_kind[Redo] = [Redo()]
    kinds = list(by_kind)
    kind = rng.choices(kinds, [weights.get(k, 0) for k in kinds])[0]
    return rng.choice(by_kind[kind])


def random_game(rng: random.Random, setup: Setup, weights: Mapping[type[Action], float] = WEIGHTS,
                max_actions: int | None = None) -> Game:
    """Play until the game ends by itself (World's End, trophies, an empty hand) or ``max_actions``."""
    game = Game.start(setup)
    while not game.state.ended and (max_actions is None or len(game.log) < max_actions):
        game = game.apply(random_action(game, rng, weights))
    return game


def long_game(length: int, names: tuple[str, ...] = NAMES[:4]) -> Game:
    """A five-spices game still going after ``length`` actions: the first seed that gives one."""
    for seed in range(1000):
        game = random_game(random.Random(seed), new_setup(FIVE_SPICES, names), LONG_WEIGHTS, max_actions=length)
        if len(game.log) == length and not game.state.ended:
            return game
    raise ValueError(f"no game of {length} actions in 1000 seeds")


def endless_game(length: int, seed: int = 0, names: tuple[str, ...] = NAMES[:4]) -> Game:
    """A five-spices game of exactly ``length`` actions, as long as any table could make: whenever
    it ends, the end is undone and play goes on (snapshots, resume benchmarks)."""
    rng = random.Random(seed)
    game = Game.start(new_setup(FIVE_SPICES, names))
    while len(game.log) < length:
        game = game.apply(Undo() if game.state.ended else random_action(game, rng, LONG_WEIGHTS))
    return game
