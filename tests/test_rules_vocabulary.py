"""The closed vocabularies are StrEnums whose values are the words the JSON, the store and the screens use."""

from __future__ import annotations

import json

from companion.config import Backend
from companion.rules import (
    PROFILES,
    VARIANTS,
    EndReason,
    EventKind,
    ProfileId,
    StartAfterChallenge,
    Variant,
    replay_transcript,
)


def test_the_words_are_unchanged() -> None:
    assert set(EventKind) == {
        "play", "last-card", "pass", "draw", "challenge", "challenge-won", "stack-won", "penalty", "refill",
        "trophy", "raid", "universal", "reshuffle", "adjust", "end",
    }
    assert set(EndReason) == {"second-trophy", "all-trophies", "end-card", "empty-hand"}
    assert list(StartAfterChallenge) == ["loser", "winner"]
    assert list(ProfileId) == list(PROFILES) == ["spicy", "sweet-spicy", "five-spices"]
    assert list(Variant) == list(VARIANTS)
    assert list(Backend) == ["auto", "gpio", "serial", "keyboard"]


def test_states_carry_the_enums_and_json_carries_plain_words() -> None:
    state = replay_transcript("rules spicy\nvariant copy-cat\nseats Ana Ben\npass Ana\nend-card-drawn").state
    assert state.end_reason is EndReason.END_CARD
    assert [event.kind for event in state.events] == [EventKind.END]
    assert state.setup.variants == {Variant.COPY_CAT}
    text = json.dumps(state.to_json())
    assert '"end_reason": "end-card"' in text and '"profile": "spicy"' in text and '"variants": ["copy-cat"]' in text
