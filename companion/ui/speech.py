"""Spoken calls: espeak-ng writes each sentence as a WAV, and Kivy's audio plays it like the other sounds.

One audio path: on a Pi without a desktop the sounds go out through ALSA, and
the HDMI output takes one client at a time, so espeak-ng never opens the sound
card. It runs on a thread of its own, never on the UI thread, so no frame waits
for it. The calls that name a seat are known when a game starts: ``prepare``
makes them then, and ``say`` starts one at once (the frame its event comes in).
A sentence of the moment (a challenge's result) is made when it is said and
plays as soon as it is made, unless another call came first. A new call stops
the one in progress: the table hears the latest event, not a queue of old ones.
"""

from __future__ import annotations

import array
import io
import itertools
import logging
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Iterable
from pathlib import Path
from queue import PriorityQueue
from typing import TYPE_CHECKING

from companion.config import SPEECH_LOUD
from companion.errors import Reason
from companion.ui.threads import mainthread_now

if TYPE_CHECKING:
    from kivy.core.audio import Sound

log = logging.getLogger(__name__)

PROGRAM = "espeak-ng"
MAKE_SECONDS = 10.0
"""The longest one sentence may take to make: a hung espeak-ng costs that call, not the thread."""
NOW, AHEAD = 0, 1
"""A sentence to say now is made before the ones made ahead."""
MIXER_RATE, MIXER_CHANNELS = 44100, 2
"""The format Kivy opens SDL2_mixer in (44.1 kHz, 16-bit stereo). A WAV in another is converted as it is
loaded, under the GIL: 40 ms for a result's sentence, a frame missed. Written in the mixer's format, it loads in
under a millisecond."""
BLOCK = 2048
"""Samples converted at a time: a tenth of a second of speech, a few microseconds of work."""
NICE = ("nice", "-n", "10")
"""A sentence made ahead runs behind the UI: it takes a core for tens of milliseconds, and on a busy
two-core machine the frames would wait for it. One to say now is made at the UI's own priority."""
KEPT = 3
"""The sentences of the moment kept made (a result said again after an undo and a redo starts at once)."""
SILENT = Reason("espeak-ng is not installed, so the table does not speak: sudo apt-get install espeak-ng")

Key = tuple[str, str]
"""A sentence as made: its voice and its words."""


class Speech:
    """``say(text)`` in the table's voice, unless switched off or espeak-ng is missing (said once)."""

    def __init__(self, enabled: bool, volume: int, voice: str, program: str = PROGRAM) -> None:
        self.enabled = enabled
        self.volume = volume
        """Percent of full volume."""
        self.voice = voice
        """The espeak-ng voice of the table's language (``companion.languages``); "" speaks nothing."""
        self.program = shutil.which(program)
        self.files: dict[Key, Path] = {}
        """Each sentence made, as its WAV (the tests listen to them)."""
        self._made: dict[Key, Sound] = {}
        self._asked: set[Key] = set()
        self._ahead: set[Key] = set()
        """The game's sentences made ahead: kept while it lasts."""
        self._lately: list[Key] = []
        """The sentences of the moment, the latest last: only the last few are kept (a game's results would
        otherwise pile up in memory, a megabyte each)."""
        self._queue: PriorityQueue[tuple[int, int, Key, int]] = PriorityQueue()
        self._order = itertools.count()
        self._worker: threading.Thread | None = None
        self._folder: Path | None = None
        self._ticket = 0
        """Counts the calls said: a sentence made late plays only if no call came after it."""
        self._playing: tuple[Key, Sound] | None = None
        self._told = False

    @property
    def speaking(self) -> bool:
        """Speech is on and can be heard: the program is there and the language has a voice."""
        return self.enabled and bool(self.program) and bool(self.voice)

    @property
    def playing(self) -> str:
        """The call being heard, "" when none is."""
        if self._playing is None or self._playing[1].state != "play":
            return ""
        return self._playing[0][1]

    def silent_notice(self) -> str:
        """That the table is silent for want of espeak-ng: once, and only while speech is on."""
        if not self.enabled or self.program or self._told:
            return ""
        self._told = True
        return SILENT

    def prepare(self, texts: Iterable[str]) -> None:
        """Make these sentences ahead, in this order, off the UI thread, for the game now on the table: the
        sentences made for another game, or in another voice, are let go."""
        wanted = [(self.voice, text) for text in texts] if self.speaking else []
        self._ahead = set(wanted)
        for key in [key for key in self._made if key not in self._ahead]:
            self._drop(key)
        for key in wanted:
            self._ask(key, AHEAD, 0)

    def say(self, text: str) -> bool:
        """Stop the call in progress and start this one ("" only stops); False when nothing will be heard.

        A sentence made ahead starts now; any other starts when it is made."""
        self._ticket += 1
        self.stop()
        if not text or not self.speaking:
            return False
        key = (self.voice, text)
        if key not in self._ahead:
            self._lately = [*(each for each in self._lately if each != key), key]
            for old in self._lately[:-KEPT]:
                self._drop(old)
            del self._lately[:-KEPT]
        sound = self._made.get(key)
        if sound is not None:
            self._start(key, sound)
        else:
            self._ask(key, NOW, self._ticket)
        return True

    def stop(self) -> None:
        if self._playing is not None:
            self._playing[1].stop()
            self._playing = None

    def close(self) -> None:
        """Stop the thread and remove the sentences made (the app is closing)."""
        self._ticket += 1  # a sentence being made is not started
        self.stop()
        if self._worker is not None:
            self._queue.put((-1, -1, ("", ""), 0))
            self._worker.join(MAKE_SECONDS)
        for sound in self._made.values():
            sound.unload()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def _ask(self, key: Key, priority: int, ticket: int) -> None:
        if key in self._asked and not ticket:
            return
        if self._worker is None:
            try:
                self._folder = Path(tempfile.mkdtemp(prefix="spicy-speech-"))
            except OSError as exc:
                log.warning("no folder for the spoken calls (%s): the table stays silent", exc)
                self.program = None
                return
            self._worker = threading.Thread(target=self._work, name="speech", daemon=True)
            self._worker.start()
        self._asked.add(key)
        self._queue.put((priority, next(self._order), key, ticket))

    def _drop(self, key: Key) -> None:
        """Let a sentence go (not the one being heard): its sound, its file, and its place among those asked."""
        if self._playing is not None and self._playing[0] == key:
            return
        self._asked.discard(key)
        sound, path = self._made.pop(key, None), self.files.pop(key, None)
        if sound is not None:
            sound.unload()
        if path is not None:
            path.unlink(missing_ok=True)

    def _start(self, key: Key, sound: Sound) -> None:
        sound.volume = self.volume / SPEECH_LOUD
        sound.play()
        self._playing = key, sound

    @mainthread_now
    def _made_late(self, key: Key, sound: Sound, ticket: int) -> None:
        if ticket == self._ticket and self.speaking:
            self._start(key, sound)

    def _work(self) -> None:
        """The speech thread: make each sentence asked for, the ones to say now first."""
        while True:
            priority, order, key, ticket = self._queue.get()
            if priority < 0:
                return
            sound = self._made.get(key) or self._make(key, order, niced=priority == AHEAD)
            if sound is not None and ticket:
                self._made_late(key, sound, ticket)

    def _make(self, key: Key, order: int, niced: bool = False) -> Sound | None:
        """espeak-ng speaks into a pipe (the words on its standard input, so a name is never read as an
        option), the WAV is written in the mixer's format, and Kivy loads it; None, logged, when one fails."""
        assert self._folder is not None and self.program is not None
        voice, text = key
        path = self._folder / f"{order}.wav"
        try:
            command = [*(NICE if niced else ()), self.program, "-v", voice, "-b", "1", "--stdout"]
            spoken = subprocess.run(command, input=text.encode(),
                                    capture_output=True, timeout=MAKE_SECONDS, check=True).stdout
            path.write_bytes(for_the_mixer(spoken))
        except (OSError, subprocess.SubprocessError, wave.Error, EOFError) as exc:
            log.warning("espeak-ng could not say %r in voice %s: %s", text, voice, exc)
            return None
        from kivy.core.audio import SoundLoader  # imported by the app's sounds already (``Sounds.load``)

        sound = SoundLoader.load(str(path))
        if sound is None:
            log.warning("the speech for %r could not be loaded from %s", text, path)
            return None
        self.files[key] = path
        self._made[key] = sound
        return sound


def for_the_mixer(spoken: bytes) -> bytes:
    """A 16-bit WAV at a rate that divides the mixer's (espeak-ng's is 22,050 Hz, mono) as a WAV in the
    mixer's format: each sample repeated over the channels and the frames it spans. Slices of an
    ``array``, a block at a time, giving the GIL away between blocks: one slice of a whole sentence holds it
    for milliseconds at a stretch, and a frame waits for it (benchmarks/speech.py)."""
    with wave.open(io.BytesIO(spoken)) as source:
        rate, channels, width = source.getframerate(), source.getnchannels(), source.getsampwidth()
        samples = array.array("h", source.readframes(source.getnframes()))
    if width != 2 or channels != 1 or MIXER_RATE % rate:
        raise wave.Error(f"espeak-ng spoke {channels} channels of {width * 8} bits at {rate} Hz, not mono 16-bit")
    copies = MIXER_RATE // rate * MIXER_CHANNELS
    out = io.BytesIO()
    with wave.open(out, "wb") as target:
        target.setnchannels(MIXER_CHANNELS)
        target.setsampwidth(2)
        target.setframerate(MIXER_RATE)
        for start in range(0, len(samples), BLOCK):
            block = samples[start:start + BLOCK]
            frames = array.array("h", bytes(2 * copies * len(block)))
            for copy in range(copies):
                frames[copy::copies] = block
            target.writeframes(frames)
            time.sleep(0)  # the GIL's turn: a frame waiting for it takes it now, not after the 5 ms switch interval
    return out.getvalue()
