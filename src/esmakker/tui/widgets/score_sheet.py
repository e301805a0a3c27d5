"""The running score sheet: totals after each deal, the players as columns."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from esmakker.core.sheet import SheetRow


class ScoreSheetWidget(Widget):
    """Running totals, one deal a line, the newest at the bottom."""

    players: reactive[tuple[str, ...]] = reactive((), always_update=True)
    rows: reactive[tuple[SheetRow, ...]] = reactive((), always_update=True)

    def render(self) -> Text:
        """Draw the header of names and the last rows that fit."""
        header = Text("   " + "".join(f"{name[:6]:>7}" for name in self.players), style="bold")
        lines = [sheet_line(row.number, row.totals, row.made) for row in self.rows]
        height = max(1, self.content_size.height - 1)
        return Text("\n").join([header, *lines[-height:]])


def sheet_line(number: int, totals: Sequence[int], made: bool | None) -> Text:
    """Return one row: the deal's number and the totals after it."""
    mark = {True: "✓", False: "✗", None: " "}[made]
    return Text(f"{number:>2}{mark}" + "".join(f"{total:>7}" for total in totals))
