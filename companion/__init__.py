"""Spicy Companion: the table's memory and referee for the card game Spicy."""

__version__ = "0.1.0"
