"""The table's sounds, loaded once at start-up and played on demand: a buzz for each seat colour (so a
slap is heard as whose), a decision, a last card, the end.

Loading a WAV takes a few milliseconds of disk and decoding; on a buzz that
would be a visible hitch, so every sound is loaded before the first game: on
the frame after the first one (``SpicyApp.open_store_and_buzzers``), which
then costs neither the nine loads nor Kivy's audio provider.
The WAVs are made by ``scripts/sounds``.
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from companion.errors import Reason

if TYPE_CHECKING:
    from kivy.core.audio import Sound

FOLDER = Path(__file__).parent / "sounds"
BUZZES = 6
"""One buzz a seat colour (``theme.SEAT_COLOURS``), each its own note (``scripts/sounds``)."""
NAMES = (*(f"buzz-{colour}" for colour in range(BUZZES)), "decision", "last-card", "end")


def buzz(colour: int) -> str:
    """The buzz of a seat wearing this colour (an index into the seat colours; a buzzer's place in the
    wiring where no seat has it yet)."""
    return f"buzz-{colour % BUZZES}"


class Sounds:
    """``play(name)`` unless switched off; a machine without audio plays nothing and says so once."""

    def __init__(self, enabled: bool = True, folder: Path = FOLDER) -> None:
        self.enabled = enabled
        self.folder = folder
        self.loaded: dict[str, Sound] = {}
        self.notice: Reason | str = ""

    def load(self) -> None:
        """Every sound, once; what could not be loaded is the ``notice``."""
        from kivy.core.audio import SoundLoader

        folder = self.folder
        for name in NAMES:
            sound = SoundLoader.load(str(folder / f"{name}.wav"))
            if sound is not None:
                self.loaded[name] = sound
        missing = [name for name in NAMES if name not in self.loaded]
        self.notice = Reason("sounds could not be loaded: {names}", names=tuple(missing)) if missing else ""

    def play(self, name: str) -> bool:
        """Start ``name`` from its beginning; False when sounds are off or it could not be loaded."""
        if name not in NAMES:
            raise KeyError(f"no sound named {name!r}: choose from {', '.join(NAMES)}")
        sound = self.loaded.get(name)
        if not self.enabled or sound is None:
            return False
        sound.stop()
        sound.play()
        return True
