"""One table: deal after deal with the dealer rotating, seats for people and bots (architecture 5.7).

A ``Table`` owns the current deal's ``State``, the ``ScoreSheet`` and the finished deals'
hand records. It does no I/O: the terminal, the server and the simulator drive it and
turn its events into screens, frames or files. People act through ``submit``; seats held
by bots act in ``step_bots`` (or one at a time with ``bot_action`` and ``submit``, so that
a caller can let a bot think off its event loop).

Deal ``k`` of a table with seed ``S`` is dealt from ``random.Random(f"{S}/{k}")`` and the
bot of player ``P`` in it draws from ``random.Random(f"{S}/{k}/{P}")``, as in the
simulator, so a table restored from its records and actions deals the same cards.

Events may hold what a seat must not see (the cards laid away in the exchange): show a
seat its ``view``, never a raw event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from esmakker.bots.base import Bot
from esmakker.bots.review import REVIEW_BUDGET_S, REVIEW_WORLDS, Mistake, review
from esmakker.core.actions import IRON, Action, format_action
from esmakker.core.errors import CorruptRecordError, IllegalActionError, Reason
from esmakker.core.phase import Phase
from esmakker.core.record import HandRecord, record_of, replay
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.sheet import ScoreSheet, Seating, SheetRow
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe

BotFactory = Callable[[random.Random], Bot]
"""Makes a bot from its random generator (``lambda rng: make_bot("heuristic", rng)``)."""


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A new deal was dealt."""

    number: int
    seating: Seating


@dataclass(frozen=True, slots=True)
class ActionApplied:
    """``seat`` took ``action`` (may be hidden from other seats: show views, not this)."""

    seat: Seat
    action: Action


@dataclass(frozen=True, slots=True)
class ActionUndone:
    """The last action of the deal, ``seat``'s ``action``, was taken back."""

    seat: Seat
    action: Action


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """Trick ``number`` (1-13) was won by ``winner``."""

    number: int
    winner: Seat


@dataclass(frozen=True, slots=True)
class DealScored:
    """The deal ended (played, or a redeal) and went onto the score sheet."""

    row: SheetRow
    record: HandRecord


Event = DealStarted | ActionApplied | ActionUndone | TrickTaken | DealScored


class Table:
    """A game at one table for 4, 5 or 6 players, some of them bots."""

    def __init__(
        self,
        rules: RuleSet,
        players: Sequence[str],
        *,
        seed: str,
        bots: Mapping[str, BotFactory] | None = None,
        first_dealer: int = 0,
        deal_seed: Callable[[int], str] | None = None,
    ) -> None:
        """Seat ``players`` (clockwise, 4-6 names); ``bots`` maps the bots' names to factories.

        Deal ``k`` is dealt from ``random.Random(deal_seed(k))``; by default
        ``deal_seed(k)`` is ``f"{seed}/{k}"``. A server that reveals each deal's seed after
        the hand passes seeds that do not give away the next deals' seeds.

        Raises:
            ValueError: for a wrong number of players, a name given twice, a bad
                ``first_dealer`` or a bot that is not one of the players.
        """
        self.sheet = ScoreSheet(players, rules, first_dealer=first_dealer)
        self.seed = seed
        self._deal_seed = deal_seed or (lambda number: f"{seed}/{number}")
        self._factories = dict(bots or {})
        strangers = set(self._factories) - set(self.sheet.players)
        if strangers:
            raise ValueError(f"bots for players not at the table: {', '.join(sorted(strangers))}")
        self._records: list[HandRecord] = []
        self._states: list[State] = []
        self._seating: Seating | None = None
        self._bots: dict[Seat, Bot] = {}
        self._claims_asked = False
        self._number = 0

    # --- reading ------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """Return the table's rules."""
        return self.sheet.rules

    @property
    def players(self) -> tuple[str, ...]:
        """Return the players, clockwise."""
        return self.sheet.players

    @property
    def deal_number(self) -> int:
        """Return the number of the current (or last) deal, 0 before the first."""
        return self._number

    @property
    def state(self) -> State | None:
        """Return the current deal, ``None`` before the first deal is dealt."""
        return self._states[-1] if self._states else None

    @property
    def seating(self) -> Seating | None:
        """Return who sits where in the current deal."""
        return self._seating

    @property
    def deal_over(self) -> bool:
        """Return whether there is no deal in progress (none dealt yet, or the last ended)."""
        return not self._states or self._states[-1].is_terminal

    @property
    def records(self) -> tuple[HandRecord, ...]:
        """Return the records of the finished deals, oldest first."""
        return tuple(self._records)

    @property
    def to_act(self) -> Seat | None:
        """Return the seat to act, ``None`` between deals."""
        return None if self.deal_over else self._current().to_act

    def deal_seed(self, number: int) -> str:
        """Return the seed that deal ``number`` is dealt from."""
        return self._deal_seed(number)

    def is_bot(self, player: str) -> bool:
        """Return whether a bot plays for ``player``."""
        return player in self._factories

    def player_at(self, seat: Seat) -> str:
        """Return the player in ``seat`` this deal.

        Raises:
            RuntimeError: before the first deal.
        """
        return self._current_seating().player_at(seat)

    def seat_of(self, player: str) -> Seat | None:
        """Return ``player``'s seat this deal, ``None`` when sitting out or before a deal."""
        return None if self._seating is None else self._seating.seat_of(player)

    def view(self, seat: Seat | None) -> PlayerView:
        """Return what ``seat`` (``None``: a spectator) may see of the current deal.

        Raises:
            RuntimeError: before the first deal.
        """
        return observe(self._current(), seat)

    def record(self) -> HandRecord:
        """Return the current deal's record (finished or in progress).

        Raises:
            RuntimeError: before the first deal.
        """
        return record_of(self._current(), self._meta())

    # --- acting -------------------------------------------------------------------------

    def start_deal(self) -> list[Event]:
        """Deal the next deal.

        Raises:
            RuntimeError: while a deal is in progress.
        """
        if not self.deal_over:
            raise RuntimeError("a deal is in progress")
        number = len(self._records) + 1
        seating = self.sheet.seating()
        self._number = number
        self._seating = seating
        self._states = [deal(self.rules, seating.dealer, random.Random(self.deal_seed(number)))]
        self._bots = self._seat_bots(number, seating)
        self._claims_asked = False
        return [DealStarted(number, seating)]

    def submit(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``seat``'s ``action``; the table is unchanged if it is illegal.

        Raises:
            IllegalActionError: if there is no deal in progress, or the action is not
                legal for ``seat`` now (``NOT_YOUR_TURN`` among the reasons).
        """
        if self.deal_over:
            raise IllegalActionError(
                f"no deal in progress: {seat.name} cannot {format_action(action)} now",
                reason=Reason.GAME_OVER,
                seat=seat.name,
                action=format_action(action),
            )
        before = self._current()
        after = before.apply(action, seat)
        self._states.append(after)
        return self._events_after(before, after, seat, action)

    def bot_action(self) -> tuple[Seat, Action] | None:
        """Return the next bot decision (an iron-hand claim first), or ``None`` for a person.

        It does not apply the action: pass it to ``submit``. A caller may run this off
        its event loop; only the once-per-deal iron-hand question to the bots is noted.
        """
        if self.deal_over:
            return None
        state = self._current()
        claim = self._iron_claim(state)
        if claim is not None:
            return claim, IRON
        seat = state.to_act
        bot = None if seat is None else self._bots.get(seat)
        if seat is None or bot is None:
            return None
        return seat, bot.act(observe(state, seat))

    def step_bots(self) -> list[Event]:
        """Let bots act until a person is to act or the deal ends."""
        events: list[Event] = []
        while (decision := self.bot_action()) is not None:
            events += self.submit(*decision)
        return events

    def declaring_side(self) -> frozenset[Seat]:
        """Return the declarer and the partner (if any) of the deal in play.

        Raises:
            IllegalActionError: outside the play of a trick contract (``WRONG_PHASE``).
        """
        state = self._current()
        engine = state.engine
        if state.phase is not Phase.PLAY or engine.bid is None or engine.bid.is_nolo:
            raise IllegalActionError(
                "claims are made in the play of a trick contract",
                reason=Reason.WRONG_PHASE,
                seat=None,
                action="claim",
            )
        side = {SEATS[engine.declarer]}
        if engine.partner >= 0:
            side.add(SEATS[engine.partner])
        return frozenset(side)

    def claim_line(
        self, winners: frozenset[Seat], budget: int = 5_000
    ) -> list[tuple[Seat, Action]] | None:
        """Return legal plays to the end of the deal in which ``winners`` win every trick left.

        The other seats cooperate (it is a line, not a proof): a claim is settled by
        playing it out once the others have accepted it. ``None`` when no such line was
        found within ``budget`` positions.
        """
        state = self._current()
        if state.phase is not Phase.PLAY:
            return None
        found = _line(state, winners, [budget])
        return None if found is None else list(reversed(found))

    def undo(self) -> list[Event]:
        """Take back the last action of the deal in progress.

        Raises:
            IllegalActionError: if there is nothing to take back (no action yet, or the
                deal has ended).
        """
        if self.deal_over or len(self._states) < 2:
            raise IllegalActionError(
                "nothing to take back", reason=Reason.GAME_OVER, seat=None, action="undo"
            )
        last = self._states.pop().history[-1]
        return [ActionUndone(last.seat, last.action)]

    def add_finished(self, record: HandRecord) -> SheetRow:
        """Put a finished deal (from a saved game) on the sheet, as if it had been played here.

        Raises:
            CorruptRecordError: if the record is unfinished, does not replay, or its dealer
                is not the one whose turn it is.
            RuntimeError: while a deal is in progress.
        """
        if not self.deal_over:
            raise RuntimeError("a deal is in progress")
        seating = self.sheet.seating()
        where = f"deal {len(self._records) + 1}"
        if record.dealer != seating.dealer:
            raise CorruptRecordError(
                f"{where}: the record's dealer is {record.dealer.name}, "
                f"the table's turn says {seating.dealer.name}"
            )
        state = replay(record)
        if not state.is_terminal:
            raise CorruptRecordError(f"{where}: the record's deal is unfinished")
        self._number = len(self._records) + 1
        self._seating = seating
        self._states = [state]
        self._bots = {}
        self._records.append(record)
        return self.sheet.add_state(state)

    # --- internals ----------------------------------------------------------------------

    def _current(self) -> State:
        if not self._states:
            raise RuntimeError("no deal has been dealt yet")
        return self._states[-1]

    def _current_seating(self) -> Seating:
        if self._seating is None:
            raise RuntimeError("no deal has been dealt yet")
        return self._seating

    def _seat_bots(self, number: int, seating: Seating) -> dict[Seat, Bot]:
        bots: dict[Seat, Bot] = {}
        for seat in Seat:
            player = seating.player_at(seat)
            factory = self._factories.get(player)
            if factory is not None:
                bots[seat] = factory(random.Random(f"{self.seed}/{number}/{player}"))
        return bots

    def _iron_claim(self, state: State) -> Seat | None:
        """Ask the bots once per deal, clockwise from forehand, whether to claim iron hand."""
        if self._claims_asked or state.rules.iron_hand == "off" or state.history:
            return None
        self._claims_asked = True
        for seat in state.dealer.next().iter_from():
            bot = self._bots.get(seat)
            offered = seat != state.to_act and IRON in state.legal_actions_of(seat)
            if bot is not None and offered and bot.claim_iron(observe(state, seat)):
                return seat
        return None

    def _events_after(self, before: State, after: State, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = [ActionApplied(seat, action)]
        if len(after.tricks) > len(before.tricks):
            events.append(TrickTaken(len(after.tricks), after.tricks[-1].winner))
        if after.is_terminal:
            record = record_of(after, self._meta())
            self._records.append(record)
            events.append(DealScored(self.sheet.add_state(after), record))
        return events

    def _meta(self) -> dict[str, object]:
        seating = self._current_seating()
        players = {
            seat.name: (f"bot:{self._bots[seat].name}" if seat in self._bots else player)
            for seat, player in zip(Seat, seating.players, strict=True)
        }
        return {
            "players": players,
            "table": dict(zip("NESW", seating.players, strict=True)),
            "sitting_out": list(seating.sitting_out),
            "deal": self._number,
            "seed": self.deal_seed(self._number),
        }


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """A record after some of its steps: a spectator's view and each seat's own view."""

    spectator: PlayerView
    seats: tuple[PlayerView, PlayerView, PlayerView, PlayerView]


def replay_frames(record: HandRecord) -> list[ReplayFrame]:
    """Return the frames of a record: before the first step, then after each step.

    For showing a finished deal or a saved record: every seat's hand can be read from
    ``seats``, the public course of the deal from ``spectator``.

    Raises:
        CorruptRecordError: if the record does not replay (see ``replay``).
    """
    replay(record)  # checks the whole record, its result included
    state = State.new(record.rules, record.dealer, record.hands, record.kitty)
    frames = [_frame(state)]
    for step in record.steps:
        state = state.apply(step.action, step.seat)
        frames.append(_frame(state))
    return frames


def _frame(state: State) -> ReplayFrame:
    seats = tuple(observe(state, seat) for seat in Seat)
    return ReplayFrame(observe(state, None), seats)  # type: ignore[arg-type]


def _line(
    state: State, winners: frozenset[Seat], budget: list[int]
) -> list[tuple[Seat, Action]] | None:
    """Depth-first search for the rest of a deal where ``winners`` take every trick (reversed)."""
    if state.is_terminal:
        return []
    seat = state.to_act
    if seat is None or budget[0] <= 0:
        return None
    for action in state.legal_actions_of(seat):
        budget[0] -= 1
        after = state.apply(action, seat)
        if len(after.tricks) > len(state.tricks) and after.tricks[-1].winner not in winners:
            continue
        rest = _line(after, winners, budget)
        if rest is not None:
            rest.append((seat, action))
            return rest
    return None


def seat_decisions(record: HandRecord, seat: Seat) -> list[tuple[int, PlayerView, Action]]:
    """Return ``seat``'s decisions in a finished deal: step number, its view then, its action.

    The views are what the seat knew when it acted (``observe`` of the replayed deal),
    so a review can search them as a bot would.

    Raises:
        CorruptRecordError: if the record does not replay (see ``replay``).
    """
    frames = replay_frames(record)
    return [
        (number, frames[number].seats[seat], step.action)
        for number, step in enumerate(record.steps)
        if step.seat == seat
    ]


@dataclass(frozen=True, slots=True)
class CostlyStep:
    """A costly choice placed in its record: ``step`` indexes the record's actions."""

    step: int
    mistake: Mistake

    def to_json(self) -> dict[str, object]:
        """Return the mistake's JSON with its ``step`` (docs/protocol.md, Reviews)."""
        return {**self.mistake.to_json(), "step": self.step}


@dataclass(frozen=True, slots=True)
class RecordReview:
    """Where one seat's choices in a finished deal cost expected points."""

    seat: Seat
    decisions: int
    """The seat's decisions with more than one legal action (those searched)."""
    costly: tuple[CostlyStep, ...]
    """The costly choices in deal order."""


def review_record(
    record: HandRecord,
    seat: Seat,
    rng: random.Random,
    *,
    worlds: int = REVIEW_WORLDS,
    budget_s: float = REVIEW_BUDGET_S,
    stop: Callable[[], bool] | None = None,
) -> RecordReview:
    """Review ``seat``'s decisions in ``record`` and place each costly one at its step.

    ``stop`` ends the search early, as in ``review``.

    Raises:
        CorruptRecordError: if the record does not replay (see ``replay``).
    """
    decisions = seat_decisions(record, seat)
    pairs = [(view, action) for _, view, action in decisions]
    mistakes = review(pairs, rng, worlds=worlds, budget_s=budget_s, stop=stop)
    searched = sum(1 for _, view, _ in decisions if len(view.legal_actions) > 1)
    return RecordReview(seat, searched, costly_steps(decisions, mistakes))


def costly_steps(
    decisions: Sequence[tuple[int, PlayerView, Action]], mistakes: Sequence[Mistake]
) -> tuple[CostlyStep, ...]:
    """Place each mistake (indexing ``decisions``) at its step number in the record."""
    return tuple(CostlyStep(decisions[m.index][0], m) for m in mistakes)
