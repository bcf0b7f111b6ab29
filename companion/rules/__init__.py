"""The rules of Spicy, Sweet & Spicy and the five-spice game, as pure functions.

Nothing here touches a screen, a pin, a file or a clock: a game is its set-up
plus the list of what was said at the table, and every state is a fold of
``engine.apply`` over that list.

>>> setup = new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27)
>>> game = Game.start(setup).apply(Play(0, "chili", 2))
>>> game.state.stack, game.state.seats[0].hand
(1, 5)
"""

from companion.rules.actions import (
    Action,
    Adjust,
    AdjustDrawPile,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    Pass,
    Play,
    Redo,
    Resolve,
    Reveal,
    TakeUniversal,
    Undo,
    action_from_dict,
)
from companion.rules.cards import Card, Claim
from companion.rules.engine import apply, challengers, is_legal, legal_actions, playable_claims
from companion.rules.errors import CompanionError, IllegalAction
from companion.rules.game import MAX_ACTIONS, Game, Step, Tree, tree
from companion.rules.numbered import legal_claims
from companion.rules.profiles import (
    FIVE_SPICES,
    PROFILES,
    SPICY,
    SWEET_SPICY,
    Profile,
    ProfileId,
    StartAfterChallenge,
    Variant,
    profile_named,
)
from companion.rules.situation import Situation, situation
from companion.rules.setup import check_name, new_setup, start, starting_draw_pile
from companion.rules.state import Direction, EndReason, Event, EventKind, ScoreParts, Seat, Setup, State, Window
from companion.rules.transcript import (
    Transcript,
    TranscriptError,
    decode_transcript,
    format_action,
    read_transcript,
    replay_transcript,
    write_transcript,
)
from companion.rules.variants import VARIANTS, VariantCard

__all__ = [
    "Action", "Adjust", "AdjustDrawPile", "Card", "Challenge", "Claim", "CompanionError", "Copy", "Direction", "Draw",
    "EndCardDrawn", "EndReason", "Event", "EventKind", "FIVE_SPICES", "Game", "IllegalAction", "MAX_ACTIONS",
    "PROFILES", "Pass",
    "Play", "Profile", "ProfileId", "Redo", "Resolve", "Reveal", "SPICY", "SWEET_SPICY", "ScoreParts", "Seat",
    "Setup", "Situation", "StartAfterChallenge", "State", "Step", "TakeUniversal", "Transcript", "TranscriptError", "Tree", "Undo",
    "VARIANTS", "Variant", "VariantCard", "Window", "action_from_dict", "apply", "challengers", "check_name",
    "decode_transcript", "format_action", "is_legal", "legal_actions", "legal_claims", "new_setup", "playable_claims",
    "profile_named", "read_transcript", "replay_transcript", "situation", "start", "starting_draw_pile", "tree", "write_transcript",
]
