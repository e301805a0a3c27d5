"""The auction so far, newest call at the bottom."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from esmakker.core.actions import Bid
from esmakker.tui.scene import Scene
from esmakker.tui.text import call_text


class AuctionWidget(Widget):
    """One call a line (``Bo: 8 vip``); the latest calls when they do not all fit."""

    scene: reactive[Scene | None] = reactive(None, always_update=True)

    def render(self) -> Text:
        """Draw the last calls that fit the widget's height."""
        scene = self.scene
        if scene is None:
            return Text("")
        lines = []
        for seat, action in scene.view.calls:
            line = Text(f"{scene.name(seat)}: ")
            line.append(call_text(action), style="bold" if isinstance(action, Bid) else "dim")
            lines.append(line)
        height = max(1, self.content_size.height)
        return Text("\n").join(lines[-height:])
