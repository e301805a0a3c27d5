"""The person's hand, sorted by suit and rank; pick a card with the arrow keys and Enter, or type it."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from esmakker.core.actions import Action, Discard, Play
from esmakker.core.cards import Card
from esmakker.tui.scene import Scene
from esmakker.tui.text import card_text

_CARD_START = set("SHDCX")


class HandWidget(Widget, can_focus=True):
    """The seat's cards; the legal ones bright, the cursor on one of them."""

    BINDINGS = [  # noqa: RUF012 (Textual reads a plain list)
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("enter", "choose", "Enter", show=False),
    ]

    scene: reactive[Scene | None] = reactive(None, always_update=True)
    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        """A legal card action was chosen with Enter."""

        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    class Typed(Message):
        """A card was typed (``HQ``, ``s10``); the app checks whether it is legal."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._typed = ""

    @property
    def cards(self) -> list[Card]:
        """Return the hand in display order (spades, hearts, diamonds, clubs, jokers)."""
        return [] if self.scene is None else list(self.scene.view.hand)

    @property
    def legal(self) -> dict[Card, Action]:
        """Return the card actions on offer (plays or discards) by card."""
        if self.scene is None:
            return {}
        return {a.card: a for a in self.scene.view.legal_actions if isinstance(a, Play | Discard)}

    def watch_scene(self) -> None:
        """Put the cursor on a legal card when the view changes."""
        cards, legal = self.cards, self.legal
        if legal and (self.cursor >= len(cards) or cards[self.cursor] not in legal):
            self.cursor = cards.index(next(card for card in cards if card in legal))
        self.cursor = min(self.cursor, max(0, len(cards) - 1))

    def action_move(self, step: int) -> None:
        """Move the cursor to the next (or previous) legal card, else the next card."""
        cards, legal = self.cards, self.legal
        if not cards:
            return
        index = self.cursor
        for _ in range(len(cards)):
            index = (index + step) % len(cards)
            if not legal or cards[index] in legal:
                break
        self.cursor = index

    def action_choose(self) -> None:
        """Offer the card under the cursor, if it is a legal one."""
        cards = self.cards
        if cards and cards[self.cursor] in self.legal:
            self.post_message(self.Chosen(self.legal[cards[self.cursor]]))

    def on_key(self, event: events.Key) -> None:
        """Collect a typed card (``HQ``, ``S10``, ``X1``) and pass it on once complete."""
        char = (event.character or "").upper()
        if not event.is_printable or not char.strip():
            return
        event.stop()
        if not self._typed and char not in _CARD_START:
            self.post_message(self.Typed(event.character or char))
            return
        self._typed += char
        if _complete(self._typed):
            typed, self._typed = self._typed, ""
            self.post_message(self.Typed(typed))

    def render(self) -> Text:
        """Draw the cards, a gap between suits, the cursor reversed."""
        cards, legal = self.cards, self.legal
        text = Text()
        for index, card in enumerate(cards):
            if index and cards[index - 1].suit != card.suit:
                text.append("  ")
            elif index:
                text.append(" ")
            face = card_text(card)
            if legal and card not in legal:
                face.stylize("dim")
            if index == self.cursor and legal and self.has_focus:
                face.stylize("reverse")
            text.append_text(face)
        if self._typed:
            text.append(f"   {self._typed}…", style="yellow")
        return text


def _complete(typed: str) -> bool:
    """Return whether a typed card is whole (``HQ``, ``X1``; ``H1`` waits for its ``0``)."""
    waiting_for_ten = typed[0] != "X" and typed[1:] == "1"
    return len(typed) >= 3 or (len(typed) == 2 and not waiting_for_ten)
