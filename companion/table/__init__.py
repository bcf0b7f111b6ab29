"""One live game, with no Kivy: the session that saves every action, the table model the screen draws, the
referee's link, the seating, the replay of a saved game and the table's layout."""
