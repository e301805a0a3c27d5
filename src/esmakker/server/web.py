"""The browser table: the static files of ``esmakker.web`` and the pages that load them.

The browser gets plain ES modules and CSS (no build step). ``/`` and an invite link
opened by a browser (``Accept: text/html``) answer the same page; the script reads the
path. A client that asks for JSON at ``/t/{ref}`` still gets the table object.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent / "web"


def index() -> FileResponse:
    """Return the single page (never cached, so a new version is picked up at once)."""
    return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


def wants_html(accept: str) -> bool:
    """Tell whether a request's ``Accept`` header asks for a page rather than JSON."""
    return "text/html" in accept


def mount(app: FastAPI) -> None:
    """Serve ``/static/…`` from the package data and the page at ``/``."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.add_api_route("/", index, include_in_schema=False)
