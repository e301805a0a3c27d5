"""The table seen from above: the four players, the cards of the current trick, tricks won."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from esmakker.core.seats import Seat
from esmakker.tui.i18n import t
from esmakker.tui.scene import Scene
from esmakker.tui.text import card_text


class TrickWidget(Widget):
    """Seats around a table with the trick in the middle (the person at the bottom)."""

    scene: reactive[Scene | None] = reactive(None, always_update=True)

    def render(self) -> Text:
        """Draw the compass: top, left, right and bottom seats, each with its trick card."""
        scene = self.scene
        if scene is None:
            return Text("")
        bottom = scene.me
        left, top, right = bottom.next(1), bottom.next(2), bottom.next(3)
        played = _trick_cards(scene)
        width = max(30, self.content_size.width)
        quarter = width // 4
        lines = [
            _centre(_label(scene, top), width),
            _centre(played.get(top, Text("")), width),
            _sides(played.get(left, Text("")), played.get(right, Text("")), quarter, width),
            _sides(_label(scene, left), _label(scene, right), 0, width),
            _centre(played.get(bottom, Text("")), width),
            _centre(_label(scene, bottom), width),
            Text(t("table.legend"), style="dim"),
        ]
        return Text("\n").join(lines)


def _trick_cards(scene: Scene) -> dict[Seat, Text]:
    view = scene.view
    if view.leader is None or not view.trick:
        return {}
    return {view.leader.next(i): card_text(card) for i, card in enumerate(view.trick)}


def _label(scene: Scene, seat: Seat) -> Text:
    view = scene.view
    marks = ""
    if seat == view.dealer:
        marks += t("mark.dealer")
    if seat == scene.forehand:
        marks += t("mark.forehand")
    text = Text("▶ " if seat == view.to_act else "  ", style="bold yellow")
    text.append(scene.name(seat), style="bold" if seat == scene.me else "")
    text.append(f" {seat.name}", style="dim")
    if marks:
        text.append(f" [{marks}]", style="cyan")
    text.append(f" ({view.won[seat]})", style="green")
    return text


def _centre(text: Text, width: int) -> Text:
    pad = max(0, (width - text.cell_len) // 2)
    return Text(" " * pad) + text


def _sides(left: Text, right: Text, indent: int, width: int) -> Text:
    gap = max(1, width - 2 * indent - left.cell_len - right.cell_len)
    return Text(" " * indent) + left + Text(" " * gap) + right
