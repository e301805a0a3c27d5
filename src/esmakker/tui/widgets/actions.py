"""The choices that are not a card from the hand: bids, pass, trumps, the called card, vip …"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ActionList(OptionList):
    """A list of choices; typing a letter sends it to the command line instead."""

    class TypeAhead(Message):
        """A printable key was pressed: the app moves it to the command line."""

        def __init__(self, character: str) -> None:
            super().__init__()
            self.character = character

    def show(self, choices: list[tuple[str, Text]]) -> None:
        """Replace the list with ``(id, label)`` choices, the first highlighted."""
        self.clear_options()
        self.add_options([Option(label, id=key) for key, label in choices])
        if choices:
            self.highlighted = 0

    def on_key(self, event: events.Key) -> None:
        """Pass printable keys on, so that typing a bid needs no extra key."""
        if event.is_printable and event.character and event.character.strip():
            event.stop()
            self.post_message(self.TypeAhead(event.character))
