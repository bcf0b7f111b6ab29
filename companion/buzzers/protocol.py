"""The buzzer box line protocol (hardware/PROTOCOL.md), one copy for both ends.

The Pico firmware imports this very file (copied to the board as
``protocol.py``), so the box cannot encode anything the host would not decode.
That is why it is written in the subset MicroPython runs: no imports, no
dataclasses, only builtin annotations.

>>> decode(encode_press(3, 2**32 + 5))
('press', 3, 5)
>>> decode(encode_hello(6, held=0b100, micros=7))
('hello', 3, 6, 4, 7)
>>> decode(b"HELLO spicy-buzzers 2 6 0 7"), decode(encode_turn(0b1000))
(('hello', 2, 6, 0, 7), ('turn', 8))
>>> decode(b"P 3 x")
Traceback (most recent call last):
...
ValueError: bad number: 'x'
"""

NAME = "spicy-buzzers"
VERSION = 3
OLDEST = 2
"""The oldest box the host still talks to. Version 2 is version 3 without ``N``: such a box cannot pulse
the seat to play's light, and would skip an ``N`` line as noise anyway."""
TURN_FROM = 3
"""The first version whose box obeys ``N``."""
USB_PRODUCT = "Spicy buzzer box"
"""The USB product string the firmware's boot.py sets: the Pi's udev rule names only this device."""
MAX_LINE = 64  # bytes before the newline; anything longer is noise
MAX_SEATS = 8
WRAP = 1 << 32  # the box's microsecond clock is sent modulo 2**32

HEARTBEAT_US = 500000  # the box says "H" this often, pressed or not

HELLO = "hello"
PRESS = "press"
RELEASE = "release"
OPENED = "opened"
HEARTBEAT = "heartbeat"
LIGHTS = "lights"
ARM = "arm"
TURN = "turn"
QUERY = "query"


def encode_hello(seats: int, held: int, micros: int) -> bytes:
    return ("HELLO %s %d %d %d %d\n" % (NAME, VERSION, seats, held, micros % WRAP)).encode()


def encode_opened(micros: int) -> bytes:
    return ("T %d\n" % (micros % WRAP)).encode()


def encode_heartbeat(micros: int, dropped: int) -> bytes:
    return ("H %d %d\n" % (micros % WRAP, dropped % WRAP)).encode()


def encode_arm(mask: int) -> bytes:
    return ("A %d\n" % mask).encode()


def encode_press(seat: int, micros: int) -> bytes:
    return ("P %d %d\n" % (seat, micros % WRAP)).encode()


def encode_release(seat: int, micros: int) -> bytes:
    return ("R %d %d\n" % (seat, micros % WRAP)).encode()


def encode_lights(mask: int) -> bytes:
    return ("L %d\n" % mask).encode()


def encode_turn(mask: int) -> bytes:
    return ("N %d\n" % mask).encode()


def encode_query() -> bytes:
    return b"?\n"


def _number(text: str, limit: int) -> int:
    if not text.isdigit() or len(text) > 10 or int(text) >= limit:
        raise ValueError("bad number: %r" % text)
    return int(text)


def decode(line: bytes) -> tuple:
    """One line as a tuple whose first item names it.

    Raises ValueError for anything that is not exactly a protocol line. A
    ``HELLO`` of a version from ``OLDEST`` to ``VERSION`` has the same fields
    in every one of them; one of another version is only ``(HELLO, version)``:
    its other fields may mean something else.
    """
    words = line.rstrip(b"\r\n").decode("ascii").split(" ")
    kind = words[0]
    if kind == "HELLO" and len(words) >= 3 and words[1] == NAME:
        version = _number(words[2], 1000)
        if not OLDEST <= version <= VERSION:
            return (HELLO, version)
        if len(words) == 6:
            return (HELLO, version, _number(words[3], MAX_SEATS + 1), _number(words[4], 1 << MAX_SEATS),
                    _number(words[5], WRAP))
    if kind in ("P", "R") and len(words) == 3:
        name = PRESS if kind == "P" else RELEASE
        return (name, _number(words[1], MAX_SEATS), _number(words[2], WRAP))
    if kind == "T" and len(words) == 2:
        return (OPENED, _number(words[1], WRAP))
    if kind == "H" and len(words) == 3:
        return (HEARTBEAT, _number(words[1], WRAP), _number(words[2], WRAP))
    if kind in ("L", "A", "N") and len(words) == 2:
        return ({"L": LIGHTS, "A": ARM, "N": TURN}[kind], _number(words[1], 1 << MAX_SEATS))
    if kind == "?" and len(words) == 1:
        return (QUERY,)
    raise ValueError("not a protocol line: %r" % line[:MAX_LINE])


class LineSplitter:
    """Bytes in whatever chunks the port gives, whole lines out.

    A line longer than ``MAX_LINE`` is dropped up to its newline and counted
    in ``overlong``, so a stream of noise cannot grow the buffer.

    >>> lines = LineSplitter()
    >>> lines.feed(b"P 1 2"), lines.feed(b"0\\nP 2 30\\n")
    ([], [b'P 1 20', b'P 2 30'])
    """

    def __init__(self) -> None:
        self.overlong = 0
        self._buffer = b""
        self._skipping = False

    @property
    def pending(self) -> bytes:
        """The start of a line whose end has not arrived yet."""
        return self._buffer

    def clear(self) -> None:
        self._buffer = b""
        self._skipping = False

    def feed(self, data: bytes) -> list:
        parts = (self._buffer + data).split(b"\n")
        lines = []
        for piece in parts[:-1]:
            if self._skipping:
                self._skipping = False
            elif len(piece) > MAX_LINE:
                self.overlong += 1
            elif piece:
                lines.append(piece)
        tail = parts[-1]
        self._buffer = b""
        if len(tail) > MAX_LINE and not self._skipping:
            self.overlong += 1
            self._skipping = True
        elif not self._skipping:
            self._buffer = tail
        return lines


class Unwrapper:
    """Turns the box's 32-bit microsecond stamps back into a clock that never wraps.

    Stamps arrive in the order the box took them, so each step forward is
    less than half the wrap (35 minutes); a step that looks backwards by less
    than that is taken as a stamp slightly out of order.

    >>> clock = Unwrapper()
    >>> clock.unwrap(WRAP - 10), clock.unwrap(5)
    (4294967286, 4294967301)
    """

    def __init__(self) -> None:
        self._last = None  # type: int | None

    def unwrap(self, raw: int) -> int:
        if self._last is None:
            self._last = raw
        else:
            step = (raw - self._last + WRAP // 2) % WRAP - WRAP // 2
            self._last += step
        return self._last
