"""Every game kept in one SQLite file: the log of each action, players, scores and stats.

``Store.open(path)`` gives the database (created or upgraded as needed);
``companion.table.session.Session`` writes a live game into it one action at a time.
"""

from companion.store.db import BUSY, GameSummary, PlayerStats, Recorded, Store, StoreError, now
from companion.store.records import BuzzTime, Logged, SavedGame, SavedLog

__all__ = [
    "BUSY", "BuzzTime", "GameSummary", "Logged", "PlayerStats", "Recorded", "SavedGame", "SavedLog", "Store",
    "StoreError", "now",
]
