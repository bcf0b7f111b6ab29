"""Keys as buzzers, for a desktop or a Pi without buttons wired.

No Kivy here: the UI's ``Window.on_key_down`` / ``on_key_up`` call
:meth:`KeyboardBuzzers.key_down` / :meth:`key_up` with the key's text and the
time it read, so this is testable without a window. Key events carry no edge
time of their own, which is why the keyboard is the fallback, not the referee
you want for a 20 ms argument.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from companion.buzzers.backend import Buzzers


class KeyboardBuzzers(Buzzers):
    """``keys[seat]`` is that seat's buzzer. Auto-repeat is not a new press.

    Keys come on one thread (the UI's); the referee reads :meth:`held` on
    its own. ``_held`` is replaced whole, never changed in place, so that
    read needs no lock the UI would have to wait on.
    """

    kind = "keyboard"

    def __init__(self, keys: Sequence[str], *, notice: str = "") -> None:
        super().__init__(len(keys))
        self.keys = tuple(keys)
        self.notice = notice
        self._seats = {key: seat for seat, key in enumerate(self.keys)}
        self._held: frozenset[int] = frozenset()

    def key_down(self, key: str, time: float) -> bool:
        """Handle a key going down; True when it is a buzzer key (the UI eats it)."""
        seat = self._seats.get(key)
        if seat is None:
            return False
        repeat = seat in self._held
        self._held |= {seat}
        if not repeat:
            self._pressed(seat, time)
        return True

    def key_up(self, key: str, time: float) -> bool:
        seat = self._seats.get(key)
        if seat is None:
            return False
        was_down = seat in self._held
        self._held -= {seat}
        if was_down:
            self._released(seat, time)
        return True

    def held(self) -> frozenset[int]:
        return self._held

    def close(self) -> None:
        """Nothing to release: the window owns the keyboard."""

    def _show(self, seats: Collection[int]) -> None:
        """No lights: the screen's armed rings are the lights."""
