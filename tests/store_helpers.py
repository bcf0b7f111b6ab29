"""Shared by the store and session tests: real SQLite files, known games, long random games."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from companion.rules import FIVE_SPICES, Challenge, Draw, Game, Play, Redo, Resolve, Reveal, Setup, Undo, new_setup
from companion.rules import action_from_dict
from companion.session import Session
from companion.store import Store
from companion.store.simulate import random_game

# Cy catches Ben bluffing, Ben survives Ana's challenge, Ben's challenge on Ana is
# undone, then the World's End card shows.
KNOWN = """\
rules spicy
seats Ana Ben Cy
end-card 27
play Ana chili 2
play Ben chili 6
challenge Cy spice
reveal pepper 6
play Ben chili 1
challenge Ana number
reveal chili 1
play Ana wasabi 3
challenge Ben spice
undo
end-card-drawn
"""
KNOWN_FACTS = {  # name: (challenges made, won, caught bluffing, survived)
    "Ana": (1, 0, 0, 0),
    "Ben": (0, 0, 1, 1),
    "Cy": (1, 1, 0, 0),
}

LONG_WEIGHTS = {Play: 2, Draw: 6, Challenge: 1, Reveal: 1, Resolve: 1, Undo: 0.3, Redo: 0.2}


def long_game(length: int, names: tuple[str, ...] = ("Ana", "Ben", "Cy", "Dee")) -> Game:
    """A five-spices game still going after ``length`` actions (drawing a lot keeps hands full)."""
    for seed in range(1000):
        game = random_game(random.Random(seed), new_setup(FIVE_SPICES, names), LONG_WEIGHTS, max_actions=length)
        if len(game.log) == length and not game.state.ended:
            return game
    raise AssertionError(f"no game of {length} actions in 1000 seeds")


def write_plan(path: Path, game: Game) -> None:
    """What the crash child plays: the set-up and the actions, as JSON."""
    setup = game.setup
    path.write_text(json.dumps({"names": list(setup.names), "actions": [a.to_dict() for a in game.log]}))


def read_plan(path: Path) -> tuple[Setup, list]:
    plan = json.loads(path.read_text())
    return new_setup(FIVE_SPICES, plan["names"]), [action_from_dict(a) for a in plan["actions"]]


def crash_child(db: str, plan_path: str) -> None:
    """Resume (or start) the planned game and print ``ack N`` once action N is committed."""
    setup, actions = read_plan(Path(plan_path))
    store = Store.open(Path(db))
    session = Session.resume(store) or Session.new(store, setup.profile, setup.names)
    for action in actions[len(session.game.log):]:
        session.apply(action)
        print(f"ack {len(session.game.log)}", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    crash_child(*sys.argv[1:])
