"""Software debounce that keeps the time of the first edge.

Hardware or driver debounce (lgpio's included) reports an edge only once the
contact has been steady for a while, so the time it reports is the end of the
bounce, not the slap. Arbitration needs the slap: we accept the first edge at
once, with its own time, and treat every edge within ``bounce`` of an accepted
change as bounce. Times may be in any unit, as long as ``bounce`` uses the same.

An edge is trusted over our idea of the state: a falling edge means the button
went down, so a press whose release we swallowed as bounce (a tap shorter than
``bounce``) does not make us miss the next press.

This module runs unchanged on the host and on the buzzer box (MicroPython):
no imports, no dataclasses, only builtin annotations.

>>> button = Debouncer(bounce=10)
>>> [button.edge(down, t) for down, t in [(True, 0), (False, 1), (True, 2), (False, 500), (True, 900)]]
['press', 'bounce', 'bounce', 'release', 'press']
>>> button.bounces
2
"""

PRESS = "press"
RELEASE = "release"
BOUNCE = "bounce"


class Debouncer:
    """One button's edges in, press / release / bounce out."""

    def __init__(self, bounce) -> None:
        self.bounce = bounce
        self.bounces = 0
        self._last_change = None

    def edge(self, down: bool, time) -> str:
        """Classify one edge: ``down`` is the level after it, ``time`` its timestamp."""
        if self._last_change is not None and time - self._last_change < self.bounce:
            self.bounces += 1
            return BOUNCE
        self._last_change = time
        return PRESS if down else RELEASE
