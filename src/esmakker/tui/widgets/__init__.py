"""The widgets of the game screen; each renders a ``Scene`` (a seat's view and the names)."""
