"""``create_app(settings)``: the FastAPI application (HTTP API, WebSocket, lifespan)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from esmakker import __version__
from esmakker.bots import endgame
from esmakker.server import routes, web, ws
from esmakker.server.analysis import Analyses
from esmakker.server.coach import Coach
from esmakker.server.errors import ApiError, api_body
from esmakker.server.hub import Hub
from esmakker.server.relay import Relay
from esmakker.server.settings import Settings
from esmakker.server.store import Store


def create_app(settings: Settings | None = None) -> FastAPI:
    """Return the application; the database opens (and tables are restored) at startup."""
    chosen = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(Store(chosen.database_url()), chosen)
        app.state.hub = hub
        app.state.analyses = Analyses(chosen.analysis_nodes, chosen.analysis_budget)
        app.state.coach = Coach(chosen)
        endgame.prepare()  # hints and reviews want the compiled solver from the first one
        if not chosen.redis_url:
            hub.restore()
            yield
            app.state.analyses.close()
            app.state.coach.close()
            await hub.shutdown()
            return
        from esmakker.server.cluster import Cluster  # redis is imported only with --redis

        cluster = Cluster(hub, chosen.redis_url, chosen.node_url, chosen.claim_ttl)
        await cluster.start()
        hub.on_change = cluster.touch
        app.state.cluster = cluster
        try:
            yield
        finally:
            await cluster.stop()
            app.state.analyses.close()
            app.state.coach.close()
            await hub.shutdown()

    app = FastAPI(
        title="esmakker",
        version=__version__,
        description="Esmakker whist online: tables, seats, bots. Live protocol: docs/protocol.md.",
        lifespan=lifespan,
    )
    app.add_middleware(Relay)
    app.include_router(routes.router)
    app.include_router(ws.router)
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]

    @app.get("/t/{ref}")
    def invite(ref: str, request: Request) -> Any:
        """The invite link: the table page for a browser, else the table it names (JSON)."""
        hub: Hub = request.app.state.hub
        info = hub.find(ref).info()
        if web.wants_html(request.headers.get("accept", "")):
            return web.index()
        return info

    web.mount(app)

    return app


async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
    return JSONResponse(api_body(exc), status_code=exc.status)
