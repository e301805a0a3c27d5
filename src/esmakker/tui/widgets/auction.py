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
        """Draw the calls packed into lines, the latest lines that fit."""
        scene = self.scene
        if scene is None:
            return Text("")
        calls = []
        for seat, action in scene.view.calls:
            call = Text(f"{scene.name(seat)}: ")
            call.append(call_text(action), style="bold" if isinstance(action, Bid) else "dim")
            calls.append(call)
        lines = pack(calls, max(20, self.content_size.width))
        height = max(1, self.content_size.height)
        return Text("\n").join(lines[-height:])


def pack(items: list[Text], width: int, gap: str = " · ") -> list[Text]:
    """Return the items in order, as many on a line as fit in ``width``."""
    lines: list[Text] = []
    for item in items:
        if lines and lines[-1].cell_len + len(gap) + item.cell_len <= width:
            lines[-1].append(gap, style="dim")
            lines[-1].append_text(item)
        else:
            lines.append(item.copy())
    return lines
