"""The terminal game: a person and three bots at one ``Table``, deal after deal.

The app renders the person's ``PlayerView`` only and offers exactly its legal actions.
Bots think in a worker thread (``Table.bot_action``) after a short pause; their decision
is applied on the app's thread (``Table.submit``), so the screen never freezes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Static

from esmakker.bots import endgame
from esmakker.bots.hints import hint
from esmakker.core.actions import Action, Bid, Discard, Play
from esmakker.core.errors import IllegalActionError, NotationError
from esmakker.core.seats import Seat
from esmakker.core.sheet import SheetRow
from esmakker.core.view import PlayerView
from esmakker.table import DealScored, Event, Table, replay_frames
from esmakker.tui import game_folder
from esmakker.tui.i18n import bid_name, t
from esmakker.tui.replay import ReplayScreen
from esmakker.tui.scene import Scene
from esmakker.tui.text import action_text
from esmakker.tui.typing import candidates, resolve
from esmakker.tui.widgets.actions import ActionList
from esmakker.tui.widgets.auction import AuctionWidget
from esmakker.tui.widgets.contract import ContractWidget
from esmakker.tui.widgets.hand import HandWidget
from esmakker.tui.widgets.score_sheet import ScoreSheetWidget
from esmakker.tui.widgets.trick import TrickWidget

NEXT, REVIEW, QUIT = "app:next", "app:review", "app:quit"


class GameApp(App[None]):
    """Esmakker whist against bots in the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "esmakker"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [  # noqa: RUF012 (Textual reads a plain list)
        Binding("escape", "leave_command", show=False),
    ]

    def __init__(
        self,
        table: Table,
        person: str,
        *,
        folder: Path | None = None,
        deals: int | None = None,
        pause: float = 0.6,
    ) -> None:
        """Play at ``table`` for ``person``; save finished deals into ``folder``."""
        super().__init__()
        self.table = table
        self.person = person
        self.folder = folder
        self.deals = deals
        self.pause = pause
        self.message = ""
        self._moves = 0

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Lay out the table, the contract, the auction, the sheet, the hand and the choices."""
        yield Static(id="header")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield TrickWidget(id="table")
                yield ContractWidget(id="contract")
            with Vertical(id="right"):
                yield AuctionWidget(id="auction")
                yield ScoreSheetWidget(id="sheet")
        yield HandWidget(id="hand")
        yield ActionList(id="actions")
        yield Input(id="command", placeholder=t("input.placeholder"), select_on_focus=False)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        """Title the panels and deal (or show the finished game)."""
        self.query_one("#table").border_title = t("panel.table")
        self.query_one("#auction").border_title = t("panel.auction")
        self.query_one("#sheet").border_title = t("panel.sheet")
        self.query_one("#hand").border_title = t("panel.hand")
        self.bind("f2", "review", description=t("key.review"))
        self.bind("f3", "hint", description=t("key.hint"))
        endgame.prepare()  # the first hint then finds the compiled solver ready
        quit_key = Binding("ctrl+q", "quit", t("key.quit"), key_display="^q", priority=True)
        self._bindings.key_to_bindings["ctrl+q"] = [quit_key]  # Textual's own is not shown
        if not self.game_over:
            self._start_deal()
        else:
            self.refresh_screen()

    # --- reading ------------------------------------------------------------------------

    @property
    def game_over(self) -> bool:
        """Return whether the deals asked for have all been played."""
        return self.deals is not None and len(self.table.records) >= self.deals

    @property
    def seat(self) -> Seat:
        """Return the person's seat this deal."""
        seat = self.table.seat_of(self.person)
        if seat is None:
            raise RuntimeError(f"{self.person} sits out")  # 5-6 players: not offered yet
        return seat

    @property
    def person_to_act(self) -> bool:
        """Return whether the game waits for the person."""
        return not self.table.deal_over and self.table.to_act == self.seat

    def scene(self) -> Scene | None:
        """Return the person's view with the names, ``None`` before the first deal."""
        if self.table.state is None:
            return None
        names = tuple(self.table.player_at(seat) for seat in Seat)
        return Scene(self.table.view(self.seat), names, self.seat)  # type: ignore[arg-type]

    # --- drawing ------------------------------------------------------------------------

    def refresh_screen(self) -> None:
        """Show the current view in every widget, the choices, and the status line."""
        scene = self.scene()
        self.query_one(TrickWidget).scene = scene
        self.query_one(ContractWidget).scene = scene
        self.query_one(AuctionWidget).scene = scene
        self.query_one(HandWidget).scene = scene
        sheet = self.query_one(ScoreSheetWidget)
        sheet.players = self.table.players
        sheet.rows = self.table.sheet.rows
        self.query_one("#header", Static).update(self._header(scene))
        choices = self._choices(scene)
        self.query_one(ActionList).show(choices)
        self.query_one("#status", Static).update(self._status(scene))
        self._focus(scene, bool(choices))

    def _header(self, scene: Scene | None) -> Text:
        if scene is None:
            return Text("esmakker")
        view = scene.view
        to_act = "—" if view.to_act is None else scene.name(view.to_act)
        return Text(
            t(
                "header",
                deal=self.table.deal_number,
                dealer=scene.name(view.dealer),
                forehand=scene.name(scene.forehand),
                to_act=to_act,
            )
        )

    def _choices(self, scene: Scene | None) -> list[tuple[str, Text]]:
        if scene is None or self.table.deal_over:
            return self._after_deal_choices()
        actions = scene.view.legal_actions
        return [
            (str(index), action_text(action))
            for index, action in enumerate(actions)
            if not isinstance(action, Play | Discard)
        ]

    def _after_deal_choices(self) -> list[tuple[str, Text]]:
        choices = [] if self.game_over else [(NEXT, Text(t("choice.next")))]
        if self.table.records:
            choices.append((REVIEW, Text(t("choice.review"))))
        return [*choices, (QUIT, Text(t("choice.quit")))]

    def _status(self, scene: Scene | None) -> Text:
        if self.message:
            return Text(self.message, style="bold yellow")
        if scene is None or self.table.deal_over:
            return Text(t("status.game_over" if self.game_over else "status.deal_over"))
        if self.person_to_act:
            return Text(t(f"prompt.{scene.view.phase.value}"), style="bold")
        to_act = scene.view.to_act
        return Text(t("status.waiting", name="" if to_act is None else scene.name(to_act)))

    def _focus(self, scene: Scene | None, has_choices: bool) -> None:
        command = self.query_one(Input)
        if command.has_focus and command.value:
            return
        cards = scene is not None and any(
            isinstance(a, Play | Discard) for a in scene.view.legal_actions
        )
        if cards:
            self.query_one(HandWidget).focus()
        elif has_choices:
            self.query_one(ActionList).focus()

    def say(self, message: str) -> None:
        """Show a one-line message in the status bar until the next action."""
        self.message = message
        self.query_one("#status", Static).update(Text(message, style="bold yellow"))

    # --- the person's input -------------------------------------------------------------

    @on(HandWidget.Chosen)
    def _card_chosen(self, event: HandWidget.Chosen) -> None:
        self.act(event.action)

    @on(HandWidget.Typed)
    def _card_typed(self, event: HandWidget.Typed) -> None:
        if len(event.text) == 1:
            self._type_ahead(event.text)
        else:
            self.act_typed(event.text)

    @on(ActionList.TypeAhead)
    def _list_typed(self, event: ActionList.TypeAhead) -> None:
        self._type_ahead(event.character)

    def _type_ahead(self, character: str) -> None:
        command = self.query_one(Input)
        command.value += character
        command.cursor_position = len(command.value)
        command.focus()

    @on(ActionList.OptionSelected)
    def _choice(self, event: ActionList.OptionSelected) -> None:
        key = event.option.id or ""
        if key == NEXT:
            self._start_deal()
        elif key == REVIEW:
            self.action_review()
        elif key == QUIT:
            self.exit()
        elif key.isdigit() and not self.table.deal_over:
            self.act(self.table.view(self.seat).legal_actions[int(key)])

    @on(Input.Submitted, "#command")
    def _command(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.act_typed(text)
        self.refresh_screen()

    def action_leave_command(self) -> None:
        """Clear the command line and go back to the hand or the list."""
        self.query_one(Input).value = ""
        self.refresh_screen()

    def act_typed(self, text: str) -> None:
        """Take a typed action if it is legal now; else say why not and change nothing."""
        if self.table.deal_over:
            self.say(t("error.no_deal"))
            return
        action = resolve(text, self.table.view(self.seat).legal_actions)
        if action is not None:
            self.act(action)
        elif candidates(text):
            self.say(t("error.not_legal", text=text))
        else:
            self.say(t("error.unknown", text=text))

    def act(self, action: Action) -> None:
        """Submit the person's action (the table checks it again) and let the bots go on."""
        try:
            events = self.table.submit(self.seat, action)
        except IllegalActionError:
            self.say(t("error.not_legal", text=str(action)))
            return
        self.message = ""
        self._after(events)

    # --- deals and bots -----------------------------------------------------------------

    def _start_deal(self) -> None:
        self.message = ""
        self.table.start_deal()
        self._moves += 1
        self.refresh_screen()
        self._next_turn(first=True)

    def _after(self, events: Sequence[Event]) -> None:
        self._moves += 1
        for event in events:
            if isinstance(event, DealScored):
                self._deal_scored(event.row, event)
        self.refresh_screen()
        self._next_turn()

    def _deal_scored(self, row: SheetRow, event: DealScored) -> None:
        if self.folder is not None:
            game_folder.save_deal(self.folder, row.number, event.record)
        self.message = deal_summary(row)

    def _next_turn(self, *, first: bool = False) -> None:
        if self.table.deal_over:
            return
        iron_question = first and self.table.rules.iron_hand != "off"
        if self.person_to_act and not iron_question:
            return
        moves = self._moves
        if self.pause > 0 and not self.person_to_act:
            self.set_timer(self.pause, lambda: self._think(moves))
        else:
            self._think(moves)

    def _think(self, moves: int) -> None:
        if moves == self._moves:
            self._bot_worker(moves)

    @work(thread=True, exclusive=True, group="bots")
    def _bot_worker(self, moves: int) -> None:
        decision = self.table.bot_action()
        self.call_from_thread(self._bot_decided, moves, decision)

    def _bot_decided(self, moves: int, decision: tuple[Seat, Action] | None) -> None:
        if moves != self._moves:  # the person acted meanwhile (an iron claim): think again
            self._next_turn()
            return
        if decision is None:
            self.refresh_screen()
            return
        try:
            events = self.table.submit(*decision)
        except IllegalActionError as exc:
            self.say(t("error.bot", message=str(exc)))
            return
        self._after(events)

    # --- hints --------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the strong bot for a suggestion; it thinks in a worker and answers in the status."""
        if not self.person_to_act:
            self.say(t("hint.not_your_turn"))
            return
        self.say(t("hint.thinking"))
        self._hint_worker(self.table.view(self.seat), self._moves)

    @work(thread=True, exclusive=True, group="hint")
    def _hint_worker(self, view: PlayerView, moves: int) -> None:
        suggestion = hint(view, random.Random(f"hint/{self.table.deal_number}/{moves}"))
        self.call_from_thread(self._hint_found, suggestion.reason, moves)

    def _hint_found(self, reason: str, moves: int) -> None:
        if moves == self._moves:  # not stale: the person has not acted since asking
            self.say(t("hint.text", reason=reason))

    # --- review -------------------------------------------------------------------------

    def action_review(self) -> None:
        """Step through the last finished deal: all four hands and every trick."""
        if not self.table.records:
            self.say(t("error.nothing_to_review"))
            return
        record = self.table.records[-1]
        names = tuple(self.table.sheet.seating().players)
        if self.table.seating is not None:
            names = self.table.seating.players
        screen = ReplayScreen(
            replay_frames(record),
            names,  # type: ignore[arg-type]
            title=t("review.title"),
            coach=(record, self.seat),
        )
        self.push_screen(screen)


def deal_summary(row: SheetRow) -> str:
    """Return one line on a finished deal (``Deal 3: 9 vip Bo+Anna made``)."""
    if row.outcome == "redeal":
        return t("summary.redeal", deal=row.number)
    side = row.declarer if row.partner is None else f"{row.declarer}+{row.partner}"
    verdict = t("summary.made" if row.made else "summary.failed")
    contract = _contract_name(row.contract or "")
    return t("summary.played", deal=row.number, contract=contract, side=side, verdict=verdict)


def _contract_name(contract: str) -> str:
    try:
        return bid_name(Bid.parse(contract))
    except NotationError:  # not a bid in notation: show it as it is
        return contract
