"""The HTTP API: create, list, join, fill with bots, start, close; history and exports."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import PlainTextResponse

from esmakker.bots import endgame
from esmakker.bots.registry import BOT_NAMES
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.record import from_json
from esmakker.core.record import loads as record_loads
from esmakker.core.record import to_json as record_json
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.server import errors, schemas
from esmakker.server.analysis import Analyses
from esmakker.server.coach import Coach
from esmakker.server.errors import ApiError
from esmakker.server.hub import Hub, Room, TableConfig

router = APIRouter(prefix="/api", responses={400: {"model": schemas.Problem}})
Authorization = Annotated[str | None, Header(description="Bearer <host token>")]


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _base(request: Request) -> str:
    public: str = _hub(request).settings.public_url
    return (public or str(request.base_url)).rstrip("/")


def _ws_base(request: Request) -> str:
    base = _base(request)
    return "ws" + base[4:] if base.startswith("http") else base


def _host(request: Request, ref: str, authorization: str | None) -> Room:
    hub = _hub(request)
    room = hub.find(ref)
    token = (authorization or "").removeprefix("Bearer ").strip()
    if not hub.is_host(room, token):
        raise ApiError(403, errors.FORBIDDEN, "only the host (with the host token) may do this")
    return room


@router.get("/presets")
def presets() -> dict[str, list[str]]:
    """Return the rule presets and bot levels a table can use."""
    return {"presets": list(PRESET_NAMES), "bots": list(BOT_NAMES)}


@router.get("/health")
def health() -> dict[str, Any]:
    """Return that the server answers, and whether its solver is compiled yet.

    The kernel compiles in the background at start (about 20 s of CPU): hints and
    reviews asked for meanwhile run on the plain kernel. A load balancer or a test may
    wait for ``"solver": "compiled"``.
    """
    return {"ok": True, "solver": endgame.solver_state()}


@router.post("/tables", response_model=schemas.Created)
async def create_table(body: schemas.CreateTable, request: Request) -> schemas.Created:
    """Create a table in the lobby; the answer holds the host's token and the invite link."""
    fields = body.model_dump(exclude={"host_name"})
    room, host_token = _hub(request).create(TableConfig(**fields))
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None:
        await cluster.own(room)
    seat = None
    if body.host_name:
        seat = await _join(request, room, body.host_name, None)
    return schemas.Created(
        id=room.id,
        code=room.code,
        invite_url=f"{_base(request)}/t/{room.code}",
        host_token=host_token,
        seat=seat,
    )


@router.get("/tables")
async def list_tables(request: Request) -> list[dict[str, Any]]:
    """Return the public tables waiting for players (of every server process)."""
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None:
        tables: list[dict[str, Any]] = await cluster.lobby()
        return tables
    return [room.info() for room in _hub(request).public()]


@router.get("/tables/{ref}")
def table_info(ref: str, request: Request) -> dict[str, Any]:
    """Return a table by id or short code (a private one too: the code is the key)."""
    return _hub(request).find(ref).info()


@router.post("/tables/{ref}/join", response_model=schemas.Seated)
async def join(ref: str, body: schemas.Join, request: Request) -> schemas.Seated:
    """Take a place as a guest; the token in the answer is the seat credential."""
    return await _join(request, _hub(request).find(ref), body.name, body.index)


async def _join(request: Request, room: Room, name: str, index: int | None) -> schemas.Seated:
    place, token = await room.join(name, index)
    return schemas.Seated(
        table_id=room.id, index=place, token=token, ws_url=f"{_ws_base(request)}/ws/{room.id}"
    )


@router.post("/tables/{ref}/bots")
async def fill_bots(
    ref: str, body: schemas.FillBots, request: Request, authorization: Authorization = None
) -> dict[str, list[int]]:
    """Seat bots in the empty places (host only)."""
    return {"filled": await _host(request, ref, authorization).fill_bots(body.level)}


@router.post("/tables/{ref}/start")
async def start(ref: str, request: Request, authorization: Authorization = None) -> dict[str, Any]:
    """Start the game (host only; every place must be taken)."""
    room = _host(request, ref, authorization)
    await room.start()
    return room.info()


@router.post("/tables/{ref}/close")
async def close(ref: str, request: Request, authorization: Authorization = None) -> dict[str, Any]:
    """Close the table for good (host only)."""
    room = _host(request, ref, authorization)
    await room.close()
    return room.info()


@router.get("/tables/{ref}/deals")
def deals(ref: str, request: Request) -> list[dict[str, Any]]:
    """Return the finished deals: number, dealer and result."""
    room = _hub(request).find(ref)
    return [
        {"deal": number, "dealer": data["dealer"], "result": data["result"]}
        for number, data in enumerate(_records(room), start=1)
    ]


@router.get("/tables/{ref}/deals/{number}")
def deal(ref: str, number: int, request: Request) -> dict[str, Any]:
    """Return one finished deal's hand record (every card; replay it with esmakker replay)."""
    records = _records(_hub(request).find(ref))
    if not 1 <= number <= len(records):
        raise ApiError(404, errors.NOT_FOUND, f"no finished deal {number}")
    return records[number - 1]


@router.get("/tables/{ref}/deals/{number}/replay")
def replay_deal(ref: str, number: int, request: Request) -> dict[str, Any]:
    """Return a finished deal step by step: after each step, every hand, the trick, the tricks."""
    record = from_json(deal(ref, number, request))
    state = State.new(record.rules, record.dealer, list(record.hands), record.kitty)
    positions = [_position(state, None)]
    for step in record.steps:
        state = state.apply(step.action, step.seat)
        positions.append(_position(state, str(step)))
    return {"deal": number, "positions": positions, "result": record.result}


@router.get(
    "/tables/{ref}/deals/{number}/analysis",
    responses={404: {"model": schemas.Problem}, 501: {"model": schemas.Problem}},
)
async def analyse_deal(ref: str, number: int, request: Request) -> dict[str, Any]:
    """Return a finished deal's double-dummy analysis (docs/analysis.md), computed once."""
    room = _hub(request).find(ref)
    record = from_json(deal(ref, number, request))
    analyses: Analyses = request.app.state.analyses
    return await analyses.get((room.id, number), record)


@router.get(
    "/tables/{ref}/deals/{number}/review",
    responses={404: {"model": schemas.Problem}},
)
async def review_deal(ref: str, number: int, seat: str, request: Request) -> dict[str, Any]:
    """Return where ``seat``'s choices in a finished deal cost expected points, computed once."""
    room = _hub(request).find(ref)
    record = from_json(deal(ref, number, request))
    if seat not in ("N", "E", "S", "W"):
        raise ApiError(400, errors.BAD_REQUEST, f"seat must be N, E, S or W, not {seat!r}")
    coach: Coach = request.app.state.coach
    return await coach.review((room.id, number, seat), record, Seat[seat])


@router.post(
    "/tables/{ref}/hint",
    responses={403: {"model": schemas.Problem}, 409: {"model": schemas.Problem}},
)
async def hint(ref: str, request: Request, authorization: Authorization = None) -> dict[str, Any]:
    """Return the strong bot's suggestion for the seat's own decision now (a seat token)."""
    hub = _hub(request)
    room = hub.find(ref)
    token = (authorization or "").removeprefix("Bearer ").strip()
    key = hub.identify(room, token) if token else None
    view, seed, number = room.decision(key)
    assert key is not None
    coach: Coach = request.app.state.coach
    return {"deal": number, **await coach.hint((room.id, key), view, seed)}


def _position(state: State, step: str | None) -> dict[str, Any]:
    return {
        "step": step,
        "hands": {seat.name: str(state.hands[seat]) for seat in Seat},
        "trick": [card.name for card in state.current_trick],
        "won": dict(zip("NESW", state.won, strict=True)),
    }


@router.get("/tables/{ref}/export")
def export(ref: str, request: Request) -> dict[str, Any]:
    """Return every finished deal's record and the score sheet, as one JSON document."""
    room = _hub(request).find(ref)
    sheet = None if room.table is None else room.table.sheet.to_json()
    return {"table": room.info(), "records": _records(room), "sheet": sheet}


@router.get("/tables/{ref}/sheet.csv", response_class=PlainTextResponse)
def sheet_csv(ref: str, request: Request) -> PlainTextResponse:
    """Return the score sheet (regnskab) as CSV: one line per deal with running totals."""
    room = _hub(request).find(ref)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if room.table is not None:
        writer.writerows(room.table.sheet.display_rows())
    return PlainTextResponse(out.getvalue(), media_type="text/csv")


def _records(room: Room) -> list[dict[str, Any]]:
    texts = room.hub.store.records(room.id)
    return [record_json(record_loads(text)) for text in texts]
