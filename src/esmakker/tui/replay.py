"""Step through a finished deal: all four hands, the auction, each trick (``replay --show``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from esmakker.bots.review import REVIEW_BUDGET_S, REVIEW_WORLDS, Mistake, worst_first
from esmakker.core.actions import Action, Play
from esmakker.core.cards import Card
from esmakker.core.record import HandRecord
from esmakker.core.seats import Seat
from esmakker.table import CostlyStep, ReplayFrame, review_record
from esmakker.tui.i18n import t
from esmakker.tui.scene import Scene
from esmakker.tui.text import card_text, cards_text, step_text
from esmakker.tui.widgets.auction import AuctionWidget
from esmakker.tui.widgets.contract import ContractWidget
from esmakker.tui.widgets.trick import TrickWidget

Names = tuple[str, str, str, str]
COACH_WORLDS = REVIEW_WORLDS
"""Worlds the review searches per decision of the person's."""
COACH_BUDGET_S = REVIEW_BUDGET_S
"""Seconds one decision's search may take (tests raise it so the load cannot matter)."""
COACH_LINES = 5
"""Lines the review's list may take below the tricks (an 80x24 terminal leaves six)."""


class HandsWidget(Widget):
    """The four hands at one moment of the deal, one a line."""

    frame: reactive[ReplayFrame | None] = reactive(None, always_update=True)
    names: reactive[tuple[str, ...]] = reactive(("N", "E", "S", "W"))

    def render(self) -> Text:
        """Draw ``N Anna  ♠A K 7  ♥Q 10 …`` for each seat."""
        if self.frame is None:
            return Text("")
        lines = []
        for seat in Seat:
            line = Text(f"{seat.name} {self.names[seat][:10]:<10} ", style="bold")
            line.append_text(cards_text(self.frame.seats[seat].hand))
            lines.append(line)
        return Text("\n").join(lines)


class TricksWidget(Widget):
    """Every trick taken so far: leader, cards, winner."""

    scene: reactive[Scene | None] = reactive(None, always_update=True)
    marked: reactive[dict[int, Card]] = reactive(dict)
    """The reviewed seat's costly cards by trick (the line gets ``✗``, the card inverted)."""

    def render(self) -> Text:
        """Draw one trick a line, the latest that fit."""
        if self.scene is None:
            return Text("")
        scene = self.scene
        lines = []
        for number, trick in enumerate(scene.view.tricks, start=1):
            costly = self.marked.get(number)
            line = Text(f"{number:>2} ")
            leader = scene.name(trick.leader)
            if costly is not None:
                line.append("✗", style="bold red")
                leader = leader[:4]
            line.append(f"{leader[:5]:<{5 if costly is None else 4}} ")
            line.append_text(Text(" ").join(_card(card, costly) for card in trick.cards))
            line.append(f" → {scene.name(trick.winner)[:6]}", style="green")
            lines.append(line)
        height = max(1, self.content_size.height)
        return Text("\n").join(lines[-height:])


def _card(card: Card, costly: Card | None) -> Text:
    text = card_text(card)
    if card == costly:
        text.stylize("reverse")
    return text


class ReplayScreen(Screen[None]):
    """A record step by step; ← → one step, PgUp PgDn one trick, Home End, Esc back.

    With a review, n and p go to the next and previous costly choice of the seat.
    """

    BINDINGS = [  # noqa: RUF012 (Textual reads a plain list)
        Binding("home", "jump(0)", "Home", show=False),
        Binding("end", "jump(-1)", "End", show=False),
    ]
    KEYS = (
        ("right", "step(1)", "key.step"),
        ("left", "step(-1)", "key.back"),
        ("pagedown", "trick(1)", "key.next_trick"),
        ("pageup", "trick(-1)", "key.previous_trick"),
        ("escape", "close", "key.close"),
    )
    """The keys in the footer, described in the current language."""
    COACH_KEYS = (
        Binding("n", "costly(1)", "key.costly", key_display="n/p"),
        Binding("p", "costly(-1)", "key.costly", show=False),
    )
    """The keys of a review (one footer entry, so 80 columns hold it), bound with one."""

    def __init__(
        self,
        frames: Sequence[ReplayFrame],
        names: Names,
        *,
        title: str,
        coach: tuple[HandRecord, Seat] | None = None,
    ) -> None:
        """Show ``frames`` (from ``replay_frames``) with the players' ``names`` (N, E, S, W).

        With ``coach`` (the frames' record and a person's seat) the screen also lists
        where that seat's choices cost expected points, searched in a worker thread.
        """
        super().__init__()
        self.frames = list(frames)
        self.names = names
        self.heading = title
        self.coach = coach
        self.index = 0
        self.costly: dict[int, Mistake] | None = None
        """The costly choices by frame (the frame after the action), once reviewed."""
        for key, action, description in self.KEYS:
            self._bindings.bind(key, action, t(description))
        for binding in self.COACH_KEYS if coach is not None else ():
            description = t(binding.description)
            self._bindings.bind(
                binding.key, binding.action, description, binding.show, binding.key_display
            )

    def compose(self) -> ComposeResult:
        """Lay out the hands, the trick, the tricks so far, the auction and the contract."""
        yield Static(id="replay-header")
        yield HandsWidget(id="hands")
        with Horizontal(id="replay-middle"):
            with Vertical(id="replay-left"):
                yield TrickWidget(id="replay-table")
                yield ContractWidget(id="replay-contract")
            with Vertical(id="replay-right"):
                yield TricksWidget(id="tricks")
                yield AuctionWidget(id="replay-auction")
        if self.coach is not None:
            yield Static(Text(t("coach.thinking")), id="replay-coach")
        yield Static(id="replay-status")
        yield Footer()

    def on_mount(self) -> None:
        """Title the panels and show the deal as dealt."""
        self.query_one(HandsWidget).border_title = t("panel.hands")
        self.query_one(TricksWidget).border_title = t("panel.tricks")
        self.query_one(AuctionWidget).border_title = t("panel.auction")
        self.query_one(HandsWidget).names = self.names
        self.show()
        if self.coach is not None:
            self.run_worker(partial(self._review, *self.coach), thread=True, group="coach")

    def _review(self, record: HandRecord, seat: Seat) -> None:
        """Search the seat's decisions (in a worker thread) and show the costly ones."""
        rng = random.Random(f"review/{seat.name}")
        worker = get_current_worker()
        found = review_record(
            record,
            seat,
            rng,
            worlds=COACH_WORLDS,
            budget_s=COACH_BUDGET_S,
            stop=lambda: worker.is_cancelled,
        )
        if not worker.is_cancelled:
            self.app.call_from_thread(self._reviewed, found.costly)

    def _reviewed(self, costly: tuple[CostlyStep, ...]) -> None:
        if not self.is_attached:  # closed before the search ended
            return
        self.costly = {c.step + 1: c.mistake for c in costly}
        self.query_one(TricksWidget).marked = {
            c.mistake.trick: c.mistake.action.card
            for c in costly
            if c.mistake.trick is not None and isinstance(c.mistake.action, Play)
        }
        lines = [t("coach.title"), *_mistake_lines([c.mistake for c in costly])]
        self.query_one("#replay-coach", Static).update(Text("\n".join(lines)))
        self.show()

    def show(self) -> None:
        """Draw the frame at ``index``."""
        frame = self.frames[self.index]
        scene = Scene(frame.spectator, self.names, Seat.S)
        self.query_one(HandsWidget).frame = frame
        self.query_one(TrickWidget).scene = scene
        self.query_one(ContractWidget).scene = scene
        self.query_one(AuctionWidget).scene = scene
        self.query_one(TricksWidget).scene = scene
        self.query_one("#replay-header", Static).update(self._header())
        self.query_one("#replay-status", Static).update(self._status(frame))

    def _header(self) -> Text:
        steps = len(self.frames) - 1
        header = Text(f"{self.heading} · " + t("replay.step", step=self.index, steps=steps))
        if self.costly and self.index in self.costly:
            n = sorted(self.costly).index(self.index) + 1
            header.append(" · ✗ " + t("coach.mark", n=n, count=len(self.costly)), "bold red")
        return header

    def _status(self, frame: ReplayFrame) -> Text:
        mistake = (self.costly or {}).get(self.index)
        if mistake is not None:
            return Text(_step_line(mistake), style="bold red")
        steps = frame.spectator.steps
        if not steps:
            return Text(t("replay.start"))
        seat, action = steps[-1]
        text = Text(f"{self.names[seat]}: ")
        return text + step_text(action)

    def action_costly(self, direction: int) -> None:
        """Go to the next (1) or previous (-1) costly choice of the reviewed seat."""
        if self.costly is None:
            self._say(t("coach.thinking"))
            return
        if not self.costly:
            self._say(t("coach.none"))
            return
        ahead = [i for i in sorted(self.costly) if (i - self.index) * direction > 0]
        if not ahead:
            self._say(t("coach.no_more"))
            return
        self.index = ahead[0] if direction > 0 else ahead[-1]
        self.show()

    def _say(self, message: str) -> None:
        self.query_one("#replay-status", Static).update(Text(message))

    def action_step(self, step: int) -> None:
        """Go ``step`` actions forward (or back)."""
        self.index = max(0, min(len(self.frames) - 1, self.index + step))
        self.show()

    def action_trick(self, step: int) -> None:
        """Go to the end of the next (or previous) trick."""
        count = len(self.frames[self.index].spectator.tricks)
        target = count + step if step > 0 else count - 1 if self._mid_trick() else count - 2
        ends = [i for i, f in enumerate(self.frames) if len(f.spectator.tricks) == target]
        if target <= 0:
            self.index = 0 if step < 0 else self.index
        elif ends:
            self.index = ends[0]
        self.show()

    def _mid_trick(self) -> bool:
        return bool(self.frames[self.index].spectator.trick)

    def action_jump(self, index: int) -> None:
        """Go to the first (0) or the last (-1) frame."""
        self.index = index % len(self.frames)
        self.show()

    def action_close(self) -> None:
        """Go back to the game (or end a stand-alone replay)."""
        if isinstance(self.app, ReplayApp):
            self.app.exit()
        else:
            self.app.pop_screen()


def _mistake_lines(mistakes: list[Mistake]) -> list[str]:
    """Return a line per costly choice, in deal order; past ``COACH_LINES``, the costliest."""
    if not mistakes:
        return [t("coach.none")]
    if len(mistakes) <= COACH_LINES:
        return [_mistake_line(m) for m in mistakes]
    shown = sorted(worst_first(mistakes)[: COACH_LINES - 1], key=lambda m: m.index)
    more = t("coach.more", n=len(mistakes) - len(shown))
    return [*(_mistake_line(m) for m in shown), more]


def _step_line(mistake: Mistake) -> str:
    """Return ``You chose ♥4; ♥Q was better by 23 points`` for the replay's status."""
    return t(
        "coach.step",
        action=_choice(mistake.action),
        best=_choice(mistake.best),
        cost=round(mistake.cost),
    )


def _choice(action: Action) -> str:
    """Return a card as ``♥4`` (no "play"), any other action as the history writes it."""
    return card_text(action.card).plain if isinstance(action, Play) else step_text(action).plain


def _mistake_line(mistake: Mistake) -> str:
    """Return ``trick 5: you played ♥4, ♥Q was better by 23 points``."""
    where = t("coach.trick", n=mistake.trick) if mistake.trick else t(f"phase.{mistake.phase}")
    return t(
        "coach.item",
        where=where,
        action=_choice(mistake.action),
        best=_choice(mistake.best),
        cost=round(mistake.cost),
    )


class ReplayApp(App[None]):
    """``esmakker replay FILE --show``: the replay screen on its own."""

    CSS_PATH = "app.tcss"
    TITLE = "esmakker replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        frames: Sequence[ReplayFrame],
        names: Names,
        title: str,
        coach: tuple[HandRecord, Seat] | None = None,
    ) -> None:
        """Show one record's frames (and with ``coach``, the review of that seat's choices)."""
        super().__init__()
        self.frames = frames
        self.names = names
        self.heading = title
        self.coach = coach

    def on_mount(self) -> None:
        """Open the replay screen."""
        screen = ReplayScreen(self.frames, self.names, title=self.heading, coach=self.coach)
        self.push_screen(screen)
