"""The tables in memory: one ``Room`` per table with its lock, sequence number and bots.

A room owns a ``Table``. Every change (an action, a take-back, a new deal, someone
seated or going offline) is written to the store first and then published: each
recipient (a player, or the spectators) gets one ``update`` frame with the next
sequence number, its own view and the events as that view shows them. Frames go into
each connection's outbox (``Sink.send`` never blocks), so a slow client delays nobody.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from esmakker.bots.base import Bot
from esmakker.bots.registry import BOT_NAMES, make_bot
from esmakker.core.actions import Action, Iron, Take, Turn, format_action, parse_action
from esmakker.core.errors import Reason, RulesConfigError
from esmakker.core.record import dumps as record_dumps
from esmakker.core.record import loads as record_loads
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.view import PlayerView
from esmakker.server import codec, errors
from esmakker.server.errors import ApiError, ProtocolError
from esmakker.server.settings import Settings
from esmakker.server.store import NewAction, Store, StoredPlayer, StoredTable
from esmakker.table import DealScored, Event, Table

log = logging.getLogger(__name__)

POLICIES = ("wait", "bot", "abort")
OPEN = ("lobby", "running")
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PublicEvent = Event | dict[str, Any]
Key = int | None
"""A recipient: a player's index at the table, or ``None`` for the spectators."""


class Sink(Protocol):
    """One client connection as the hub sees it."""

    def send(self, text: str) -> None:
        """Queue a frame for the client (never blocks)."""

    def close(self, code: int, reason: str) -> None:
        """Close the connection after the queued frames."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    """How a table is set up when it is created."""

    name: str = ""
    preset: str = "wikipedia"
    overrides: dict[str, Any] = field(default_factory=dict)
    seats: int = 4
    private: bool = False
    policy: str = "bot"
    """What happens when a player stays away past ``grace``: wait, bot or abort."""
    grace: float = 60.0
    bot: str = "heuristic"
    """The bot level that fills seats and takes over for absent players."""
    max_deals: int | None = None
    """Deals to play before the table finishes by itself; ``None``: until it is closed."""

    def rules(self) -> RuleSet:
        """Return the table's rules."""
        return RuleSet.from_preset(self.preset, self.overrides)

    def check(self) -> None:
        """Raise ``ApiError`` (400) for a setting the server cannot honour."""
        problems = [
            (self.seats not in (4, 5), "seats must be 4 or 5"),
            (self.policy not in POLICIES, f"policy must be one of {', '.join(POLICIES)}"),
            (self.bot not in BOT_NAMES, f"bot must be one of {', '.join(BOT_NAMES)}"),
            (not 0 <= self.grace <= 3600, "grace must be 0-3600 seconds"),
            (self.max_deals is not None and self.max_deals < 1, "max_deals must be positive"),
            (len(self.name) > 60, "name is at most 60 characters"),
        ]
        for failed, message in problems:
            if failed:
                raise ApiError(400, errors.BAD_REQUEST, message)
        try:
            self.rules()
        except RulesConfigError as exc:
            raise ApiError(400, errors.BAD_REQUEST, str(exc)) from None

    def to_json(self) -> dict[str, Any]:
        """Return the settings as stored and shown."""
        return {
            "name": self.name,
            "preset": self.preset,
            "overrides": dict(self.overrides),
            "seats": self.seats,
            "private": self.private,
            "policy": self.policy,
            "grace": self.grace,
            "bot": self.bot,
            "max_deals": self.max_deals,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        """Return the settings stored by ``to_json``."""
        return cls(**data)


@dataclass(slots=True)
class Player:
    """Someone at the table: a person, or a bot of some level."""

    name: str
    bot: str | None
    nonce: str


@dataclass(slots=True)
class ClaimRequest:
    """The declarer's claim (or concession) of every trick left, waiting for consent."""

    by: int
    winners: frozenset[Seat]
    waiting: set[int]


@dataclass(slots=True)
class UndoRequest:
    """A take-back asked for by ``by``, waiting for the other people's consent."""

    by: int
    steps: int
    waiting: set[int]


def _deal_seeds(table_seed: str) -> Callable[[int], str]:
    """Return independent deal seeds: revealing one gives away no other."""
    key = table_seed.encode()
    return lambda number: hmac.new(key, f"deal/{number}".encode(), hashlib.sha256).hexdigest()


class Room:
    """One table: its players, its ``Table``, its connections and its event buffer."""

    def __init__(
        self,
        hub: Hub,
        table_id: str,
        code: str,
        config: TableConfig,
        *,
        seed: str,
        host_nonce: str,
        status: str = "lobby",
        seq: int = 0,
    ) -> None:
        self.hub = hub
        self.id = table_id
        self.code = code
        self.config = config
        self.seed = seed
        self.host_nonce = host_nonce
        self.status = status
        self.seq = seq
        self.players: list[Player | None] = [None] * config.seats
        self.table: Table | None = None
        self.lock = asyncio.Lock()
        self.sinks: dict[Key, set[Sink]] = {}
        self.buffers: dict[Key, deque[tuple[int, str]]] = {}
        self.applied: dict[int, set[str]] = {}
        self.autopilot: set[int] = set()
        self.undo: UndoRequest | None = None
        self.claim: ClaimRequest | None = None
        self._claimed: set[tuple[int, int]] = set()
        self._pilots: dict[int, Bot] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._started: dict[int, float] = {}
        self._away: dict[int, float] = {}
        """Grace seconds left to each absent person (their countdown runs on their turn)."""

    # --- reading ------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """Return the table as anyone may see it (no cards, no seeds)."""
        table = self.table
        return {
            "id": self.id,
            "code": self.code,
            "status": self.status,
            "config": self.config.to_json(),
            "players": [self._player_info(i) for i in range(self.config.seats)],
            "deal": None if table is None else table.deal_number,
            "seed_hash": None if table is None else codec.seed_hash(self._deal_seed()),
            "totals": None if table is None else table.sheet.totals,
            "undo": None if self.undo is None else self.undo.by,
            "claim": None if self.claim is None else self.claim.by,
        }

    def snapshot(self, key: Key, command_id: str | None = None) -> dict[str, Any]:
        """Return everything ``key`` may know now, as one frame."""
        table = self.table
        return codec.frame(
            "snapshot",
            id=command_id,
            seq=self.seq,
            table=self.info(),
            you=self._you(key),
            view=self._view(key),
            sheet=None if table is None else table.sheet.to_json(),
        )

    def index_of(self, name: str) -> int:
        """Return the index of the player called ``name``."""
        for index, player in enumerate(self.players):
            if player is not None and player.name == name:
                return index
        raise KeyError(name)

    def online(self, index: int) -> bool:
        """Return whether player ``index`` has a connection open."""
        return bool(self.sinks.get(index))

    def decision(self, key: Key) -> tuple[PlayerView, str, int]:
        """Return the seat's view of its decision now, a seed for a hint and the deal number.

        The seed depends on the table's secret, the deal and the step, so asking again
        gives the same hint and no other table's.

        Raises:
            ApiError: 403 for a spectator, 409 when the game is not running, the player
                sits out, or it is not his turn.
        """
        if key is None:
            raise ApiError(
                403, errors.FORBIDDEN, "hints are for seated players (send a seat token)"
            )
        table = self.table
        if self.status != "running" or table is None or table.deal_over:
            raise ApiError(
                409, errors.NOT_STARTED, f"no deal is being played (the table is {self.status})"
            )
        seat = table.seat_of(self._name(key))
        if seat is None:
            raise ApiError(409, errors.SITTING_OUT, "you sit out this deal")
        view = table.view(seat)
        if table.to_act != seat or not view.legal_actions:
            raise ApiError(
                409,
                Reason.NOT_YOUR_TURN.value,
                "it is not your turn: a hint is for your own decision",
            )
        number = table.deal_number
        seed = hmac.new(
            self.seed.encode(), f"hint/{number}/{len(view.steps)}".encode(), hashlib.sha256
        )
        return view, seed.hexdigest(), number

    # --- lobby --------------------------------------------------------------------------

    async def join(self, name: str, index: int | None = None) -> tuple[int, str]:
        """Seat a person; return the place and the seat token."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= 24 or name.lower().startswith("bot-"):
            raise ApiError(400, errors.BAD_REQUEST, "a name is 1-24 characters, not bot-…")
        async with self.lock:
            place = self._free_place(index, name)
            nonce = secrets.token_hex(8)
            self._seat(place, Player(name, None, nonce))
            return place, self.hub.token(self.id, str(place), nonce)

    async def fill_bots(self, level: str | None = None) -> list[int]:
        """Seat bots in every empty place; return the places filled."""
        level = level or self.config.bot
        if level not in BOT_NAMES:
            raise ApiError(400, errors.BAD_REQUEST, f"bot must be one of {', '.join(BOT_NAMES)}")
        async with self.lock:
            self._require("lobby")
            filled = [i for i, p in enumerate(self.players) if p is None]
            for place in filled:
                self._seat(place, Player(f"bot-{level}-{place + 1}", level, secrets.token_hex(8)))
            return filled

    async def start(self) -> None:
        """Start the game once every place is taken."""
        async with self.lock:
            self._require("lobby")
            if any(p is None for p in self.players):
                raise ApiError(409, errors.CONFLICT, "fill every seat (people or bots) first")
            self.table = self._make_table()
            self.status = "running"
            self.hub.store.set_status(self.id, self.status, self.seq + 1)
            self._publish_written([{"kind": "started"}])
            self._next_deal()

    async def close(self, status: str = "closed") -> None:
        """Close the table for good (the host, or the abort policy)."""
        async with self.lock:
            self._end(status)

    def _end(self, status: str) -> None:
        if self.status not in OPEN:
            return
        self.status = status
        self.undo = None
        self.hub.store.set_status(self.id, status, self.seq + 1)
        self._publish_written([{"kind": status}])
        for timer in self._timers.values():
            timer.cancel()

    def _require(self, status: str) -> None:
        if self.status != status:
            raise ApiError(409, errors.CONFLICT, f"the table is {self.status}, not {status}")

    def _free_place(self, index: int | None, name: str) -> int:
        self._require("lobby")
        if any(p is not None and p.name == name for p in self.players):
            raise ApiError(409, errors.CONFLICT, f"{name} is already at this table")
        free = [i for i, p in enumerate(self.players) if p is None]
        if index is not None:
            if index not in free:
                raise ApiError(409, errors.CONFLICT, f"place {index} is not free")
            return index
        if not free:
            raise ApiError(409, errors.CONFLICT, "the table is full")
        return free[0]

    def _seat(self, place: int, player: Player) -> None:
        self.players[place] = player
        stored = StoredPlayer(place, player.name, player.bot, player.nonce)
        self.hub.store.add_player(self.id, stored, self.seq + 1)
        self._publish_written(
            [{"kind": "seated", "index": place, "name": player.name, "bot": player.bot}]
        )

    def _make_table(self) -> Table:
        names = [p.name for p in self.players if p is not None]
        bots = {
            p.name: _factory(p.bot) for p in self.players if p is not None and p.bot is not None
        }
        return Table(
            self.config.rules(), names, seed=self.seed, bots=bots, deal_seed=_deal_seeds(self.seed)
        )

    # --- connections --------------------------------------------------------------------

    def attach(self, sink: Sink, key: Key, last_seq: int | None) -> None:
        """Add a connection; send what it missed since ``last_seq``, or a snapshot."""
        if key is not None:
            for old in self.sinks.get(key, set()):
                old.send(codec.dumps(errors.error_frame(errors.REPLACED, _REPLACED, None)))
                old.close(4000, "replaced")
            self.sinks[key] = set()
        self.sinks.setdefault(key, set()).add(sink)
        missed = self._missed(key, last_seq)
        welcome = codec.frame(
            "welcome", seq=self.seq, you=self._you(key), resumed=missed is not None
        )
        sink.send(codec.dumps(welcome))
        for text in missed if missed is not None else [codec.dumps(self.snapshot(key))]:
            sink.send(text)
        if key is not None and self._is_person(key):
            self._back(key)

    def detach(self, sink: Sink, key: Key) -> None:
        """Forget a closed connection; a person left alone starts the grace period."""
        sinks = self.sinks.get(key)
        if sinks is None or sink not in sinks:
            return
        sinks.discard(sink)
        if key is not None and not sinks and self._is_person(key) and self.status in OPEN:
            grace = {"grace": self.config.grace, "policy": self.config.policy}
            self._publish([{"kind": "presence", "index": key, "online": False, **grace}])
            self._start_grace(key)

    def _missed(self, key: Key, last_seq: int | None) -> list[str] | None:
        if last_seq is None or last_seq > self.seq:
            return None
        if last_seq == self.seq:
            return []
        buffer = self.buffers.get(key)
        if not buffer or buffer[0][0] > last_seq + 1:
            return None
        return [text for seq, text in buffer if seq > last_seq]

    def _back(self, key: int) -> None:
        self._away.pop(key, None)
        self._pause(key)
        self.autopilot.discard(key)
        if self.status in OPEN:
            self._publish([{"kind": "presence", "index": key, "online": True}])

    def start_grace_all(self) -> None:
        """After a restart nobody is connected: every person's grace period starts."""
        for index in range(self.config.seats):
            if self._is_person(index) and not self.online(index):
                self._start_grace(index)

    def _start_grace(self, key: int) -> None:
        """Give an absent person the grace period; it counts down only on their turn."""
        if self.status in OPEN and self.config.policy != "wait" and key not in self.autopilot:
            self._away.setdefault(key, self.config.grace)
            self._review_countdowns()

    def _review_countdowns(self) -> None:
        """Run the countdown of the absent person to act, pause everyone else's (AC-R5)."""
        for key in list(self._away):
            turn = self._on_turn(key)
            if turn and key not in self._timers:
                self._timers[key] = asyncio.get_running_loop().create_task(self._grace(key))
                self._started[key] = asyncio.get_running_loop().time()
                left = round(self._away[key], 1)
                self._publish(
                    [{"kind": "countdown", "index": key, "seconds": left, "running": True}]
                )
            elif not turn and key in self._timers:
                self._pause(key)
                left = round(self._away.get(key, 0.0), 1)
                self._publish(
                    [{"kind": "countdown", "index": key, "seconds": left, "running": False}]
                )

    def _on_turn(self, key: int) -> bool:
        table = self.table
        if self.status != "running" or table is None or table.deal_over:
            return False
        seat = table.to_act
        return seat is not None and table.player_at(seat) == self._name(key)

    def _pause(self, key: int) -> None:
        timer = self._timers.pop(key, None)
        if timer is None:
            return
        timer.cancel()
        spent = asyncio.get_running_loop().time() - self._started.pop(key, 0.0)
        if key in self._away:
            self._away[key] = max(0.0, self._away[key] - spent)

    async def _grace(self, key: int) -> None:
        await asyncio.sleep(self._away.get(key, 0.0))
        self._timers.pop(key, None)
        self._started.pop(key, None)
        self._away.pop(key, None)
        if self.online(key) or self.status not in OPEN:
            return
        if self.config.policy == "abort":
            await self.close("aborted")
        elif self.config.policy == "bot":
            async with self.lock:
                self.autopilot.add(key)
                self._publish([{"kind": "autopilot", "index": key, "on": True}])
                self._kick()

    # --- commands -----------------------------------------------------------------------

    async def handle(self, key: Key, text: str) -> list[dict[str, Any]]:
        """Handle one client frame; return the frames for that client alone."""
        if len(text.encode()) > self.hub.settings.max_frame:
            limit = self.hub.settings.max_frame
            return [errors.error_frame(errors.TOO_LARGE, f"frames are at most {limit} bytes", None)]
        command_id = codec.command_id_of(text)
        try:
            command = codec.parse_command(text)
            if command.type == "ping":
                return [codec.frame("pong", id=command.id, seq=self.seq)]
            if command.type == "sync":
                return [self.snapshot(key, command.id)]
            if key is None:
                raise ProtocolError(errors.NOT_SEATED, "spectators cannot act")
            async with self.lock:
                if command.type in ("claim", "concede", "claim_reply"):
                    return [await self._claim_command(key, command)]
                return [self._command(key, command)]
        except Exception as exc:
            code, message = errors.code_and_message(exc)
            if code == errors.INTERNAL:
                log.exception("table %s: command failed", self.id)
            return [errors.error_frame(code, message, command_id)]

    def _command(self, key: int, command: codec.Command) -> dict[str, Any]:
        applied = self.applied.setdefault(key, set())
        if command.id in applied:
            raise ProtocolError(errors.DUPLICATE_ID, f"command {command.id} was already applied")
        table = self._running()
        if command.type == "act":
            seat = table.seat_of(self._name(key))
            if seat is None:
                raise ProtocolError(errors.SITTING_OUT, "you sit out this deal")
            self._apply(key, seat, parse_action(command.action), command.id)
            self.autopilot.discard(key)
        elif command.type == "undo":
            self._ask_undo(key, table)
        else:
            self._answer_undo(key, command.accept)
        applied.add(command.id)
        return codec.frame("ack", id=command.id, seq=self.seq)

    def _running(self) -> Table:
        if self.status not in OPEN:
            raise ProtocolError(errors.TABLE_CLOSED, f"the table is {self.status}")
        if self.table is None or self.status != "running":
            raise ProtocolError(errors.NOT_STARTED, "the game has not started")
        return self.table

    def _apply(self, key: int, seat: Seat, action: Action, command_id: str | None) -> None:
        """Submit an action, write it, then publish it (raises if illegal: nothing changed)."""
        table = self._table()
        events = table.submit(seat, action)
        state = table.state
        assert state is not None
        scored = [e for e in events if isinstance(e, DealScored)]
        record = record_dumps(scored[0].record) if scored else None
        step = NewAction(
            table.deal_number,
            len(state.history) - 1,
            seat.name,
            format_action(action),
            key,
            command_id,
        )
        try:
            self.hub.store.add_action(self.id, step, self.seq + 1, record)
        except Exception:
            if not scored:  # not written, so not done (a finished deal cannot be taken back)
                table.undo()
            raise
        self.undo = None
        self.claim = None
        self._publish_written(events)
        if table.deal_over:
            self._next_deal()
        self._kick()

    def _next_deal(self) -> None:
        table = self._table()
        limit = self.config.max_deals
        if limit is not None and table.deal_number >= limit:
            self._end("finished")
            return
        events = table.start_deal()
        self.hub.store.set_seq(self.id, self.seq + 1)
        self._publish_written(events)
        self._kick()

    # --- take-backs ---------------------------------------------------------------------

    def _ask_undo(self, key: int, table: Table) -> None:
        state = table.state
        seat = table.seat_of(self._name(key))
        if state is None or table.deal_over or not state.history or seat is None:
            raise ProtocolError(errors.NO_UNDO, "there is nothing of yours to take back")
        last = state.history[-1]
        if last.seat != seat:
            raise ProtocolError(errors.NO_UNDO, "only your own last action, before anyone acts")
        if isinstance(last.action, Turn | Take | Iron):
            raise ProtocolError(errors.NO_UNDO, "that action showed cards: it cannot be taken back")
        if self.undo is not None:
            raise ProtocolError(errors.NO_UNDO, "a take-back is already asked for")
        if self.claim is not None:
            raise ProtocolError(errors.NO_UNDO, "a claim is waiting for answers")
        self.undo = UndoRequest(key, len(state.history), self._others_in_deal(key, table))
        self._publish([{"kind": "undo_asked", "index": key, "seat": seat.name}])
        self._settle_undo()

    def _answer_undo(self, key: int, accept: bool) -> None:
        request = self.undo
        if request is None or key not in request.waiting:
            raise ProtocolError(errors.NO_UNDO, "no take-back waits for your answer")
        if not accept:
            self.undo = None
            self._publish([{"kind": "undo_refused", "index": key}])
            self._kick()
            return
        request.waiting.discard(key)
        self._settle_undo()

    def _settle_undo(self) -> None:
        request = self.undo
        if request is None or request.waiting:
            return
        self.undo = None
        table = self._table()
        events: list[PublicEvent] = list(table.undo())
        self.hub.store.remove_action(self.id, table.deal_number, request.steps - 1, self.seq + 1)
        self._publish_written(events)
        self._kick()

    # --- claims -------------------------------------------------------------------------

    async def _claim_command(self, key: int, command: codec.Command) -> dict[str, Any]:
        """Handle ``claim``, ``concede`` and ``claim_reply`` (the play-out may take a moment)."""
        applied = self.applied.setdefault(key, set())
        if command.id in applied:
            raise ProtocolError(errors.DUPLICATE_ID, f"command {command.id} was already applied")
        if command.type == "claim_reply":
            self._answer_claim(key, command.accept)
        else:
            self._ask_claim(key, command.type == "concede")
        applied.add(command.id)
        await self._settle_claim()
        return codec.frame("ack", id=command.id, seq=self.seq)

    def _ask_claim(self, key: int, concede: bool) -> None:
        """The declarer claims (or concedes) every trick left; the others must accept.

        Whether the cards allow it is checked only once everyone has accepted, and then in
        public (``claim_void``), so a claim is no private probe of the hidden hands; one
        request per player and deal.
        """
        table = self._running()
        seat = table.seat_of(self._name(key))
        side = table.declaring_side()
        contract = table.view(seat).contract if seat is not None else None
        if seat is None or contract is None or contract.declarer != seat:
            raise ProtocolError(errors.NO_CLAIM, "only the declarer claims or concedes")
        if self.claim is not None or self.undo is not None:
            raise ProtocolError(errors.NO_CLAIM, "a request is already waiting for answers")
        if (table.deal_number, key) in self._claimed:
            raise ProtocolError(errors.NO_CLAIM, "one claim or concession per deal")
        self._claimed.add((table.deal_number, key))
        winners = frozenset(Seat) - side if concede else side
        self.claim = ClaimRequest(key, winners, self._others_in_deal(key, table))
        state = table.state
        left = 13 - len(state.tricks) if state is not None else 0
        kind = "concede_asked" if concede else "claim_asked"
        self._publish([{"kind": kind, "index": key, "seat": seat.name, "tricks": left}])

    def _answer_claim(self, key: int, accept: bool) -> None:
        request = self.claim
        if request is None or key not in request.waiting:
            raise ProtocolError(errors.NO_CLAIM, "no claim waits for your answer")
        if not accept:
            self.claim = None
            self._publish([{"kind": "claim_refused", "index": key}])
            self._kick()
            return
        request.waiting.discard(key)

    async def _settle_claim(self) -> None:
        """Once everyone accepted, play the claimed line out (or say that there is none)."""
        request = self.claim
        if request is None or request.waiting:
            return
        self.claim = None
        table = self._table()
        line = await asyncio.to_thread(table.claim_line, request.winners)
        if line is None:
            self._publish([{"kind": "claim_void", "index": request.by}])
            self._kick()
            return
        self._publish([{"kind": "claim_accepted", "index": request.by}])
        for seat, action in line:
            self._apply(self.index_of(table.player_at(seat)), seat, action, None)

    def _others_in_deal(self, key: int, table: Table) -> set[int]:
        """Return the other people seated in this deal (bots and stand-ins agree by default)."""
        return {
            i
            for i, p in enumerate(self.players)
            if i != key and self._is_person(i) and i not in self.autopilot
            if p is not None and table.seat_of(p.name) is not None
        }

    # --- bots ---------------------------------------------------------------------------

    def _kick(self) -> None:
        """Start the bot task if a bot (or an absent player's stand-in) has something to do.

        Called after every change, it also runs or pauses the absent people's countdowns.
        """
        if self._away:
            self._review_countdowns()
        running = self._bot_task is not None and not self._bot_task.done()
        if not running and self._bot_turn():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    def _bot_turn(self) -> bool:
        table = self.table
        waiting = self.undo is not None or self.claim is not None
        if self.status != "running" or table is None or table.deal_over or waiting:
            return False
        state = table.state
        seat = table.to_act
        if state is not None and not state.history and any(p and p.bot for p in self.players):
            return True
        return seat is not None and self._machine(self.index_of(table.player_at(seat)))

    def _machine(self, index: int) -> bool:
        player = self.players[index]
        return player is not None and (player.bot is not None or index in self.autopilot)

    async def _run_bots(self) -> None:
        delay = self.hub.settings.bot_delay
        try:
            while True:
                if delay > 0:
                    await asyncio.sleep(delay)
                async with self.lock:
                    if not self._bot_turn():
                        return
                    decision = await asyncio.to_thread(self._decide)
                    if decision is None or not self._bot_turn():
                        return
                    seat, action = decision
                    self._apply(self.index_of(self._table().player_at(seat)), seat, action, None)
        except Exception:
            log.exception("table %s: a bot failed", self.id)

    def _decide(self) -> tuple[Seat, Action] | None:
        """Return the next machine decision; runs in a worker thread, under the lock."""
        table = self._table()
        decision = table.bot_action()
        seat = table.to_act
        if decision is not None or seat is None:
            return decision
        index = self.index_of(table.player_at(seat))
        if index not in self.autopilot:
            return None
        pilot = self._pilots.get(index)
        if pilot is None:
            pilot = self._pilots[index] = make_bot(self.config.bot, random.Random())
        return seat, pilot.act(table.view(seat))

    # --- publishing ---------------------------------------------------------------------

    def _publish(self, events: Sequence[PublicEvent]) -> None:
        """Keep the next sequence number in the store, then publish ``events``."""
        self.hub.store.set_seq(self.id, self.seq + 1)
        self._publish_written(events)

    def _publish_written(self, events: Sequence[PublicEvent]) -> None:
        """Send one ``update`` frame with the next sequence number to every recipient.

        The caller has already written that number with its change (one transaction).
        """
        self.seq += 1
        if self.hub.on_change is not None:
            self.hub.on_change(self)
        table = self.table
        seed = self._deal_seed() if table is not None else ""
        names = list(table.players) if table is not None else []
        views: dict[Seat | None, dict[str, Any] | None] = {}
        for key in self._recipients():
            seat = self._seat_now(key)
            if seat not in views:
                views[seat] = self._view_of(seat)
            view = views[seat]
            shown = [
                e if isinstance(e, dict) else codec.project(e, view, seed, names) for e in events
            ]
            text = codec.dumps(codec.frame("update", seq=self.seq, events=shown, view=view))
            self._deliver(key, text)

    def _seat_now(self, key: Key) -> Seat | None:
        table = self.table
        if key is None or table is None or table.seating is None:
            return None
        return table.seat_of(self._name(key))

    def _recipients(self) -> list[Key]:
        """Return who gets this change: people (connected or not), and watchers if any.

        A key left out loses its buffer, so a later resume gets a snapshot, never a gap.
        """
        keys: list[Key] = [
            i
            for i, p in enumerate(self.players)
            if p is not None and (p.bot is None or self.sinks.get(i))
        ]
        keys.append(None)
        chosen = [k for k in keys if k is not None or self.sinks.get(None)]
        for key in set(self.buffers) - set(chosen):
            self.buffers[key].clear()
        return chosen

    def _deliver(self, key: Key, text: str) -> None:
        buffer = self.buffers.get(key)
        if buffer is None:
            buffer = self.buffers[key] = deque(maxlen=self.hub.settings.buffer)
        buffer.append((self.seq, text))
        for sink in tuple(self.sinks.get(key, ())):
            sink.send(text)

    def _view(self, key: Key) -> dict[str, Any] | None:
        return self._view_of(self._seat_now(key))

    def _view_of(self, seat: Seat | None) -> dict[str, Any] | None:
        table = self.table
        if table is None or table.state is None:
            return None
        return table.view(seat).to_json()

    def _you(self, key: Key) -> dict[str, Any]:
        if key is None:
            return {"index": None, "name": None, "seat": None}
        seat = self._seat_now(key)
        return {"index": key, "name": self._name(key), "seat": None if seat is None else seat.name}

    def _player_info(self, index: int) -> dict[str, Any] | None:
        player = self.players[index]
        if player is None:
            return None
        return {
            "index": index,
            "name": player.name,
            "bot": player.bot,
            "online": self.online(index),
            "autopilot": index in self.autopilot,
        }

    def _name(self, key: int) -> str:
        player = self.players[key]
        if player is None:
            raise ProtocolError(errors.NOT_SEATED, "nobody sits there")
        return player.name

    def _is_person(self, index: int) -> bool:
        player = self.players[index]
        return player is not None and player.bot is None

    def _table(self) -> Table:
        if self.table is None:
            raise ProtocolError(errors.NOT_STARTED, "the game has not started")
        return self.table

    def _deal_seed(self) -> str:
        table = self._table()
        return table.deal_seed(max(table.deal_number, 1))

    def stop_tasks(self) -> None:
        """Cancel the bot task and the grace timers."""
        for task in [self._bot_task, *self._timers.values()]:
            if task is not None:
                task.cancel()

    # --- restoring ----------------------------------------------------------------------

    @classmethod
    def restored(cls, hub: Hub, stored: StoredTable) -> Room:
        """Return a room rebuilt from the store exactly as it was."""
        room = cls(
            hub,
            stored.id,
            stored.code,
            TableConfig.from_json(stored.config),
            seed=stored.seed,
            host_nonce=stored.host_nonce,
            status=stored.status,
            seq=stored.seq,
        )
        for player in stored.players:
            room.players[player.index] = Player(player.name, player.bot, player.nonce)
        room.applied = stored.command_ids
        if stored.status != "lobby" and all(p is not None for p in room.players):
            room.table = room._make_table()
            for text in stored.records:
                room.table.add_finished(record_loads(text))
            if stored.status == "running":
                room.table.start_deal()
                for step in stored.actions:
                    room.table.submit(Seat[step.seat], parse_action(step.action))
        return room


_REPLACED = "this seat was opened on another connection"


def _factory(level: str) -> Callable[[random.Random], Bot]:
    return lambda rng: make_bot(level, rng)


class Hub:
    """Every table of the server, by id and by short code; signs and checks seat tokens."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, str] = {}
        self._key = (settings.secret or store.secret()).encode()
        self.on_change: Callable[[Room], None] | None = None
        """Called on every change of a table (the cluster shares its info)."""

    def restore(self) -> int:
        """Load every stored table; return how many are open (lobby or running)."""
        for stored in self.store.load():
            room = Room.restored(self, stored)
            self._add(room)
        open_rooms = [r for r in self.rooms.values() if r.status in OPEN]
        for room in open_rooms:
            room.start_grace_all()
            room._kick()
        return len(open_rooms)

    def adopt(self, stored: StoredTable) -> Room:
        """Restore one stored table (taken over from another process) and run it."""
        room = Room.restored(self, stored)
        self._add(room)
        if room.status in OPEN:
            room.start_grace_all()
            room._kick()
        return room

    def evict(self, table_id: str) -> None:
        """Drop a table another process now owns; its clients reconnect through the owner."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        self.codes.pop(room.code, None)
        room.stop_tasks()
        for sinks in room.sinks.values():
            for sink in tuple(sinks):
                sink.close(1012, "the table moved to another server process")

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.codes[room.code] = room.id

    def create(self, config: TableConfig) -> tuple[Room, str]:
        """Create a table in the lobby; return it and the host's token."""
        config.check()
        table_id = secrets.token_urlsafe(12)
        code = self._new_code()
        seed = secrets.token_hex(16)
        nonce = secrets.token_hex(8)
        self.store.create_table(table_id, code, config.to_json(), seed, nonce)
        room = Room(self, table_id, code, config, seed=seed, host_nonce=nonce)
        self._add(room)
        return room, self.token(table_id, "host", nonce)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if code not in self.codes and not self.store.code_taken(code):
                return code

    def find(self, id_or_code: str) -> Room:
        """Return the table with this id or short code (``ApiError`` 404 if none)."""
        table_id = self.codes.get(id_or_code.upper(), id_or_code)
        room = self.rooms.get(table_id)
        if room is None:
            raise ApiError(404, errors.NOT_FOUND, f"no table {id_or_code!r}")
        return room

    def public(self) -> list[Room]:
        """Return the public tables still in the lobby with a free place."""
        return [
            room
            for room in self.rooms.values()
            if not room.config.private
            and room.status == "lobby"
            and any(p is None for p in room.players)
        ]

    def token(self, table_id: str, who: str, nonce: str) -> str:
        """Return a signed token for ``who`` (a place number or ``host``) at a table."""
        body = f"{table_id}.{who}.{nonce}"
        return f"{body}.{self._sign(body)}"

    def _sign(self, body: str) -> str:
        return hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()[:32]

    def identify(self, room: Room, token: str) -> int | None:
        """Return the place a token holds at ``room`` (``None`` for the host's token).

        Raises:
            ApiError: 403 for a token that is forged, for another table, or revoked.
        """
        parts = token.split(".")
        if len(parts) == 4 and parts[0] == room.id:
            body = ".".join(parts[:3])
            if hmac.compare_digest(self._sign(body), parts[3]):
                who, nonce = parts[1], parts[2]
                if who == "host" and nonce == room.host_nonce:
                    return None
                player = (
                    room.players[int(who)]
                    if who.isdigit() and int(who) < len(room.players)
                    else None
                )
                if player is not None and player.nonce == nonce and player.bot is None:
                    return int(who)
        raise ApiError(403, errors.FORBIDDEN, "this token does not hold a seat at this table")

    def is_host(self, room: Room, token: str) -> bool:
        """Return whether ``token`` is the host's token of ``room``."""
        try:
            return self.identify(room, token) is None
        except ApiError:
            return False

    async def shutdown(self) -> None:
        """Stop the rooms' background tasks."""
        for room in self.rooms.values():
            room.stop_tasks()
        self.store.close()
