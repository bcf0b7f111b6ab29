"""The palette, type sizes, icons and shapes of docs/design/README.md, in one place.

Colours are Kivy RGBA tuples; sizes are dp at density 1 (px on the 800x480
design), so kv writes ``dp(theme.GAP)``. In kv: ``#:import theme companion.ui.theme``,
which also gives the canvas the drawing kit's ``RoundedBox`` and ``Round`` (``shapes``).
"""

from __future__ import annotations

from pathlib import Path

from kivy.metrics import Metrics

from companion.ui.shapes import over  # noqa: F401  (kv says theme.over; the import registers the kit for kv)

ICONS = Path(__file__).parent / "icons"


def rgba(hex_colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """``"#FFB547"`` as a Kivy colour.

    >>> rgba("#FF0000", 0.5)
    (1.0, 0.0, 0.0, 0.5)
    """
    value = hex_colour.lstrip("#")
    red, green, blue = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (red, green, blue, alpha)


def icon(name: str) -> str:
    """The path of a design icon (one-colour icons are white: tint them with ``Image.color``)."""
    path = ICONS / f"{name}.png"
    if not path.exists():
        raise KeyError(f"no icon named {name!r}")
    return str(path)


def spice_icon(spice: str) -> str:
    """The spice's design icon, or "" for the five-spice game's spices, which have none."""
    try:
        icon(spice)
    except KeyError:
        return ""
    return spice


FELT_CENTRE = rgba("#2A1D16")
FELT_EDGE = rgba("#140E0B")
SURFACE = rgba("#2A1F19")
SURFACE_2 = rgba("#35281F")
RAISED = rgba("#443328")
LINE = rgba("#4A392E")
LINE_2 = rgba("#5E4A3C")

TEXT = rgba("#FFF4E6")
TEXT_2 = rgba("#D9C3AB")
MUTED = rgba("#B19D8A")
DISABLED_TEXT = rgba("#5C4B3F")
DISABLED_BG = rgba("#231A15")

ACCENT = rgba("#FFB547")
ACCENT_DARK = rgba("#E08A1E")
ACCENT_INK = rgba("#1A0F04")
ARMED = rgba("#5CE6F0")

TROPHY = rgba("#F7C948")
TROPHY_TAKEN = rgba("#4E4134")
WARNING = rgba("#FF9F43")
DANGER = rgba("#FF786B")
GOOD = rgba("#7ED67E")

SPICE_FILL = {
    "chili": rgba("#E9432E"),
    "wasabi": rgba("#86C443"),
    "pepper": rgba("#45403D"),
    "lemon": rgba("#F7D23E"),
    # The five-spice game's own spices (no design icons: shown by colour and name).
    "salt": rgba("#E6E1D6"),
    "sugar": rgba("#F4A6C8"),
    "garlic": rgba("#C9B98F"),
    "cinnamon": rgba("#A65C34"),
}
SPICE_DARK = {
    "chili": rgba("#B3261A"),
    "wasabi": rgba("#467C1B"),
    "pepper": rgba("#24201F"),
    "lemon": rgba("#C9A316"),
    "salt": rgba("#A9A293"),
    "sugar": rgba("#C9678F"),
    "garlic": rgba("#8E7F57"),
    "cinnamon": rgba("#7A3E1E"),
}
PEPPER_RIM = rgba("#9D938C")
"""Pepper is near-black: without a light rim it vanishes on the felt."""


def mix(colour: tuple[float, ...], other: tuple[float, ...], share: float) -> tuple[float, float, float, float]:
    """``colour`` blended towards ``other`` by ``share`` (0 keeps it, 1 is ``other``), opaque.

    >>> mix((1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0), 0.25)
    (0.75, 0.0, 0.25, 1.0)
    """
    red, green, blue = (a + (b - a) * share for a, b in zip(colour[:3], other[:3], strict=True))
    return (red, green, blue, 1.0)


WHITE = (1.0, 1.0, 1.0, 1.0)
PRESSED = (1.0, 1.0, 1.0, 0.08)
"""The shade a pressed button's fill takes."""
SPICE_TILE = {spice: mix(fill, SURFACE, 0.2 if spice == "pepper" else 0.72) for spice, fill in SPICE_FILL.items()}
"""A number key of a spice: dark, so the spice's colour reads in its outline and a dozen keys do not glare."""
SPICE_KEY = {spice: mix(fill, SURFACE, 0.1 if spice == "pepper" else 0.6) for spice, fill in SPICE_FILL.items()}
"""The key that names a spice at the head of its row of numbers."""
SPICE_EDGE = {spice: PEPPER_RIM if spice == "pepper" else mix(fill, WHITE, 0.15) for spice, fill in SPICE_FILL.items()}
"""The outline of a spice's keys."""
SPICE_GHOST = {spice: PEPPER_RIM if spice == "pepper" else mix(fill, TEXT, 0.35) for spice, fill in SPICE_FILL.items()}
"""A claim's number drawn in its spice's colour on the sheet, with no card under it: lighter, so it reads."""


def contrast(text: tuple[float, ...], fill: tuple[float, ...]) -> float:
    """The WCAG contrast ratio of two opaque colours, from 1 (none) to 21 (black on white).

    >>> round(contrast(WHITE, (0.0, 0.0, 0.0, 1.0)), 1)
    21.0
    """

    def luminance(colour: tuple[float, ...]) -> float:
        red, green, blue = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3])
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(text), luminance(fill)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_on(fill: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The text colour for a coloured fill: the light text or the dark ink, whichever reads better on it."""
    return max((TEXT, ACCENT_INK), key=lambda ink: contrast(ink, fill))


LIGHT_TEXT = {
    "text": TEXT, "second text": TEXT_2, "muted": MUTED, "accent": ACCENT, "armed": ARMED, "trophy": TROPHY,
    "warning": WARNING, "danger": DANGER, "good": GOOD,
}
"""The light text colours: any of them may be drawn on any of the dark fills."""
DARK_FILLS = {
    "the felt": SURFACE, "the felt's centre": FELT_CENTRE, "the felt's edge": FELT_EDGE, "a panel": SURFACE_2,
    "a button": RAISED,
}
"""The dark fills every screen is made of."""
NOT_TEXT = {"DISABLED_TEXT", "TROPHY_TAKEN", "RAISED"}
"""Colours the kv files give a widget's ``color`` that are no text to read: disabled text says "not now" and
reads dimmer on purpose; a taken trophy and the seat-to-play disc before a game are icons."""


def text_on_fill() -> dict[str, tuple[tuple[float, ...], tuple[float, ...]]]:
    """Every text colour the screens draw on a fill, by where it is drawn: what the contrast test checks.

    Every light text on every dark fill, whichever pairs the screens use today, so a new label cannot
    land on an unchecked pair; the dark ink on the light fills; each spice's card, keys and claim.
    """
    pairs: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
        f"{text} on {fill}": (colour, fill_colour)
        for text, colour in LIGHT_TEXT.items() for fill, fill_colour in DARK_FILLS.items()
    }
    pairs |= {
        "ink on the accent": (ACCENT_INK, ACCENT), "ink on a trophy": (ACCENT_INK, TROPHY),
        "ink on second text": (ACCENT_INK, TEXT_2), "ink on text": (ACCENT_INK, TEXT),
        "the last-card banner's top": (ACCENT_INK, WARNING), "the last-card banner's foot": (ACCENT_INK, DANGER),
    }
    for spice in SPICE_FILL:
        pairs[f"{spice} card"] = (ink_on(SPICE_FILL[spice]), SPICE_FILL[spice])
        pairs[f"{spice} key"] = (ink_on(SPICE_DARK[spice]), SPICE_DARK[spice])
        pairs[f"{spice} number key"] = (TEXT, SPICE_TILE[spice])
        pairs[f"{spice} name"] = (TEXT, SPICE_KEY[spice])
        pairs[f"{spice} claim on the sheet"] = (SPICE_GHOST[spice], SURFACE_2)
    return pairs


SEAT_COLOURS = tuple(
    rgba(colour) for colour in ("#FF8A5C", "#5B9BF0", "#B68AF0", "#F472B6", "#2EC4A6", "#D8B98A")
)

# Type sizes (sp at density 1); portrait screens use about 1.25 times these (``scale_type``).
FONT_STACK_NUMBER_RATIO = 0.4  # of the stack card's height
FONT_DRAW_COUNT = 44
FONT_CHALLENGE_TITLE = 44
FONT_SCORE = 32
FONT_BIG_CHOICE = 28
FONT_TITLE = 24
FONT_PAD_NUMBER_PORTRAIT = 32
"""Times the portrait type's 1.25: the design's 40 for the claim pad's numbers."""
FONT_SEAT_NAME = 20
FONT_BODY = 18
FONT_BUTTON = 18
FONT_SMALL = 16
FONT_CAPTION = 13

PORTRAIT_TYPE = 1.25
"""A standing portrait screen is read from further away, across the table."""


def scale_type(width: float, height: float) -> float:
    """Set Kivy's font scale for a window of this size, so every ``sp()`` follows; widgets built
    before a change keep their sizes, so the app calls this before it builds any screen."""
    Metrics.fontscale = PORTRAIT_TYPE if height > width else 1.0
    return float(Metrics.fontscale)


# Spacing and sizes (dp).
GAP = 8
MARGIN = 8
TILE_PADDING = 16
TARGET = 48
"""The smallest thing a finger may have to hit."""
RADIUS_BUTTON = 12
RADIUS_PANEL = 16
RADIUS_TILE = 20
RADIUS_BIG = 24
ROUND_BUTTON = 56
HISTORY_PILL = 136
"""Undo's and Redo's width in portrait, where they are pills with their word (a round button's height)."""
TAB_RISE = 10
"""How far the "TO PLAY" tab rises over its panel's top edge: the screens leave it that room."""

MINUS = "\u2212"
"""Scores are written with a real minus sign."""


def signed(number: int) -> str:
    """A score as the table reads it.

    >>> signed(-5), signed(0), signed(7)
    ('−5', '0', '7')
    """
    return f"{MINUS}{-number}" if number < 0 else str(number)
