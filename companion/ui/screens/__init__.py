"""One module a screen, each with its own ``.kv`` beside it (Kivy's showcase layout)."""
