"""Software debounce that keeps the time of the first edge, and trusts the line's level.

Hardware or driver debounce (lgpio's included) reports an edge only once the
contact has been steady for a while, so the time it reports is the end of the
bounce, not the slap. Arbitration needs the slap: a press takes the time of
its first falling edge.

Two things an edge alone cannot tell, the line's level can:

- A glitch (a few microseconds of crosstalk or ESD on a long cable) looks like
  a press. A falling edge is only a *candidate* until ``confirm`` later; if
  the line is still down then, it is a press with the first edge's time. If
  it is up, but an edge came within ``confirm``, the contact is bouncing and
  we look again ``confirm`` after that edge; up and quiet is a glitch
  (counted, never reported).
- A tap shorter than ``bounce`` has its release inside the bounce window.
  Edges there are bounce, but once ``bounce`` has passed we look at the line:
  if it is no longer where the last report left it, that change is reported
  (with the time of the last edge towards it), so no seat stays "down".

The owner calls :meth:`check` with the line's level once ``due`` has passed
(a thread, the box's loop). An edge that comes after ``due`` settles the
overdue check first, from the level the previous edge left. An edge can also
arrive after a check has already read the level it leads to (the check and
the edge's callback race); it changes nothing, so it reports nothing.

This module runs unchanged on the host and on the buzzer box (MicroPython):
no imports, no dataclasses, only builtin annotations. Times may be in any
unit, as long as ``bounce`` and ``confirm`` use the same.

>>> button = Debouncer(bounce=10)
>>> [button.edge(down, t) for down, t in [(True, 0), (False, 1), (True, 2), (False, 500), (True, 900)]]
[[('press', 0)], [], [], [('release', 500)], [('press', 900)]]
>>> button.bounces
2
>>> tap = Debouncer(bounce=10, confirm=2)
>>> tap.edge(True, 0), tap.check(True, 2), tap.edge(False, 3), tap.check(False, 10)
([], [('press', 0)], [], [('release', 3)])
"""

PRESS = "press"
RELEASE = "release"

_IDLE = 0  # the line is where the last report left it
_CONFIRMING = 1  # a falling edge waits for the level to confirm it
_SETTLING = 2  # a change was reported; edges are bounce until ``due``


class Debouncer:
    """One button's edges and level checks in, lists of ``(kind, time)`` reports out."""

    def __init__(self, bounce, confirm=0, down=False) -> None:
        self.bounce = bounce
        self.confirm = confirm
        self.bounces = 0
        self.glitches = 0
        self.due = None  # type: float | None  # when :meth:`check` wants the line's level
        self.down = down  # what the last report said (at first: the level at start)
        self._state = _IDLE
        self._candidate = 0
        self._ringing = 0
        self._level = down  # the level the latest edge left, and its time
        self._last_edge = 0
        self._went = [None, None]  # time of the latest edge up, down, while settling

    def edge(self, down: bool, time):
        """One edge: ``down`` is the level after it."""
        reports = []
        while self.due is not None and time >= self.due:
            reports += self.check(self._level, self.due)
        self._level, self._last_edge = down, time
        if self._state == _CONFIRMING:
            self._ringing += 1  # bounce if the press is confirmed, part of the glitch if not
        elif self._state == _SETTLING:
            self.bounces += 1
            self._went[down] = time
        elif down == self.down:
            pass  # a check already read this level (its edge came late): nothing changed
        elif down and self.confirm > 0:
            self._state, self._candidate, self.due = _CONFIRMING, time, time + self.confirm
            self._ringing = 0
        else:
            reports.append(self._report(down, time))
        return reports

    def check(self, down: bool, now):
        """The line's level at ``now``; does nothing before ``due``."""
        if self.due is None or now < self.due:
            return []
        self._level = down  # edges may have been missed: the level is the truth
        if self._state == _CONFIRMING:
            if down:
                self.bounces += self._ringing
                return [self._report(True, self._candidate)]
            if now - self._last_edge < self.confirm:  # up, but still bouncing: look again
                self.due = self._last_edge + self.confirm
                return []
            self.glitches += 1
        elif down != self.down:
            went = self._went[down]
            return [self._report(down, self.due if went is None else went)]
        self._state, self.due = _IDLE, None
        return []

    def _report(self, down: bool, time):
        self.down = down
        self._state, self.due = _SETTLING, time + self.bounce
        self._went = [None, None]
        return (PRESS if down else RELEASE), time
